package crd

import (
	"encoding/base64"
	"regexp"
	"strings"
	"sync"
	"time"

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

// formatChecked says whether a string is of the format: ok is false for the
// formats limitcheck does not check (uri, email, hostname, ipv4, ipv6, cidr,
// mac, isbn, isbn10, isbn13, creditcard, ssn, hexcolor, rgbcolor, duration,
// datetime, bsonobjectid), which pass.
func formatChecked(format, s string) (valid, ok bool) {
	switch strings.ReplaceAll(format, "-", "") {
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
