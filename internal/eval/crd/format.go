package crd

import (
	"encoding/base64"
	"encoding/hex"
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	netutils "k8s.io/utils/net"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// uuidForms are the UUID formats: any version, and versions 3, 4 and 5
// (hex digits in either case, the dashes optional). Compiled on first use.
var uuidForms = sync.OnceValue(func() map[string]*regexp.Regexp {
	const h = `[0-9a-f]`
	return map[string]*regexp.Regexp{
		"uuid":  regexp.MustCompile(`(?i)^` + h + `{8}-?` + h + `{4}-?` + h + `{4}-?` + h + `{4}-?` + h + `{12}$`),
		"uuid3": regexp.MustCompile(`(?i)^` + h + `{8}-?` + h + `{4}-?3` + h + `{3}-?` + h + `{4}-?` + h + `{12}$`),
		"uuid4": regexp.MustCompile(`(?i)^` + h + `{8}-?` + h + `{4}-?4` + h + `{3}-?[89ab]` + h + `{3}-?` + h + `{12}$`),
		"uuid5": regexp.MustCompile(`(?i)^` + h + `{8}-?` + h + `{4}-?5` + h + `{3}-?[89ab]` + h + `{3}-?` + h + `{12}$`),
	}
})

// formatChecked says whether a string is of the format, as kube-openapi's
// format registry decides; ok is false for a format it does not know.
func formatChecked(format, s string) (valid, ok bool) {
	switch strings.ReplaceAll(format, "-", "") {
	case "bsonobjectid":
		b, err := hex.DecodeString(s)
		return err == nil && len(b) == 12, true
	case "hexcolor", "rgbcolor":
		return rareForms()[format].MatchString(s), true
	case "ssn":
		// eleven characters: the separators are both there
		return len(s) == 11 && rareForms()[format].MatchString(s), true
	case "isbn":
		return isISBN10(s) || isISBN13(s), true
	case "isbn10":
		return isISBN10(s), true
	case "isbn13":
		return isISBN13(s), true
	case "creditcard":
		return isCardNumber(s), true
	case "duration":
		return isDuration(s), true
	case "datetime":
		return isDateTime(s), true
	case "ipv4":
		// leading zeros allowed, as Kubernetes parses addresses
		return netutils.ParseIPSloppy(s) != nil && strings.Contains(s, "."), true
	case "ipv6":
		return net.ParseIP(s) != nil && strings.Contains(s, ":"), true
	case "cidr":
		_, _, err := netutils.ParseCIDRSloppy(s)
		return err == nil, true
	case "mac":
		_, err := net.ParseMAC(s)
		return err == nil, true
	case "hostname":
		return isHostname(s), true
	case "uri":
		_, err := url.ParseRequestURI(s)
		return err == nil, true
	case "email":
		_, err := mail.ParseAddress(s)
		return err == nil, true
	case "date":
		_, err := time.Parse("2006-01-02", s)
		return err == nil, true
	case "password":
		return true, true
	case "byte":
		// standard base64 in whole groups of four; an empty string is not
		if s == "" || strings.ContainsAny(s, "\r\n") {
			return false, true
		}
		_, err := base64.StdEncoding.DecodeString(s)
		return err == nil, true
	case "k8sshortname":
		return len(namecheck.IsDNS1123Label(s)) == 0, true
	case "k8slongname":
		return len(namecheck.IsDNS1123Subdomain(s)) == 0, true
	case "uuid", "uuid3", "uuid4", "uuid5":
		return uuidForms()[format].MatchString(s), true
	}
	return true, false
}

// Duration: Go's syntax (1h30m), or any run of <digits><unit> pieces with
// spaces allowed between number and unit, where a unit is a name of ns, us
// (µs), ms, s, m, h, d or w, or begins with the last, longest one of them
// (nano..., micro..., milli..., sec..., min..., hour..., day..., week...).
var (
	durationPiece = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`((\d+)\s*([A-Za-zµ]+))`) })
	durationUnits = [][]string{{"ns", "nano"}, {"us", "µs", "micro"}, {"ms", "milli"}, {"s", "sec"}, {"m", "min"}, {"h", "hr", "hour"}, {"d", "day"}, {"w", "wk", "week"}}
)

func isDuration(s string) bool {
	if _, err := time.ParseDuration(s); err == nil {
		return true
	}
	ok := false
	for _, m := range durationPiece().FindAllStringSubmatch(s, -1) {
		if _, err := strconv.Atoi(m[2]); err != nil {
			return false // a number too large
		}
		unit := strings.ToLower(strings.TrimSpace(m[3]))
		for _, names := range durationUnits {
			last := len(names) - 1
			for i, name := range names {
				if (i == last && strings.HasPrefix(unit, name)) || strings.EqualFold(name, unit) {
					ok = true
				}
			}
		}
	}
	return ok
}

// isDateTime: a date, "T" (either case), and hh:mm:ss with optional
// fraction and a zone (Z or ±hh:mm), hours at most 23, minutes and seconds
// at most 59 (compared as text).
var dateTimeClock = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`)
})

func isDateTime(s string) bool {
	if len(s) < 4 {
		return false
	}
	parts := strings.Split(strings.ToLower(s), "t")
	if len(parts) < 2 {
		return false
	}
	if _, err := time.Parse("2006-01-02", parts[0]); err != nil {
		return false
	}
	m := dateTimeClock().FindStringSubmatch(parts[1])
	return m != nil && m[1] <= "23" && m[2] <= "59" && m[3] <= "59"
}

// isHostname: labels of letters, digits, symbols and hyphens, a top-level
// label of at least two letters when there are dots, at most 255 bytes in
// all and 63 per label.
var hostnameForm = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`)
})

func isHostname(s string) bool {
	if !hostnameForm().MatchString(s) || len(s) > 255 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if len(label) > 63 {
			return false
		}
	}
	return true
}

// rareForms are the formats a pattern alone decides: #rgb or #rrggbb,
// rgb(r, g, b) with each 0-255, and a US social security number.
var rareForms = sync.OnceValue(func() map[string]*regexp.Regexp {
	const c = `\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*`
	return map[string]*regexp.Regexp{
		"hexcolor": regexp.MustCompile(`^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`),
		"rgbcolor": regexp.MustCompile(`^rgb\(` + c + `,` + c + `,` + c + `\)$`),
		"ssn":      regexp.MustCompile(`^\d{3}[- ]?\d{2}[- ]?\d{4}$`),
	}
})

// isbnDigits is s without its hyphens and ASCII whitespace (tab, newline,
// form feed, carriage return, space).
func isbnDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune("-\t\n\f\r ", r) {
			return -1
		}
		return r
	}, s)
}

// isISBN10: nine digits and a digit or X, whose weighted sum (1..10) is a
// multiple of 11.
func isISBN10(s string) bool {
	d := isbnDigits(s)
	if len(d) != 10 {
		return false
	}
	sum := 0
	for i := 0; i < 10; i++ {
		switch {
		case d[i] >= '0' && d[i] <= '9':
			sum += (i + 1) * int(d[i]-'0')
		case i == 9 && d[i] == 'X':
			sum += 100
		default:
			return false
		}
	}
	return sum%11 == 0
}

// isISBN13: thirteen digits whose last is the check digit of the first
// twelve weighted 1, 3, 1, 3, ...
func isISBN13(s string) bool {
	d := isbnDigits(s)
	if len(d) != 13 {
		return false
	}
	sum := 0
	for i := 0; i < 13; i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
		if i < 12 {
			sum += (1 + 2*(i%2)) * int(d[i]-'0')
		}
	}
	return int(d[12]-'0') == (10-sum%10)%10
}

// isCardNumber: the digits of s (anything else is ignored) are a number of
// a known card scheme's length and prefix, with a valid Luhn check digit.
var cardSchemes = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$`)
})

func isCardNumber(s string) bool {
	d := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
	if !cardSchemes().MatchString(d) {
		return false
	}
	sum, double := 0, false
	for i := len(d) - 1; i >= 0; i-- {
		n := int(d[i] - '0')
		if double {
			n *= 2
			if n >= 10 {
				n = n%10 + 1
			}
		}
		sum += n
		double = !double
	}
	return sum%10 == 0
}
