// Package namecheck is apimachinery's name and label format checks without
// regular expressions: each function returns exactly what the apimachinery
// function it names returns (same messages, same order, nil when valid), for
// every input including empty, over-long and non-ASCII strings. The
// differential tests and FuzzMatchers compare them with the originals.
//
// The checks are byte-wise: a byte outside the ASCII classes below never
// matches, as an invalid or non-ASCII rune never matches the originals'
// ASCII character classes.
package namecheck

const (
	dns1123LabelMax     = 63
	dns1123SubdomainMax = 253
	labelNameMax        = 63
	labelValueMax       = 63

	// The messages, byte for byte as apimachinery words them (the character
	// limits of k8s.io/apimachinery/pkg/util/validation, the byte limits of
	// k8s.io/apimachinery/pkg/api/validate/content).
	msgDNS1123LabelTooLong     = "must be no more than 63 characters"
	msgDNS1123SubdomainTooLong = "must be no more than 253 characters"
	msgNoDots                  = "must not contain dots"
	msgDNS1123Label            = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	msgDNS1123Subdomain        = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"

	msgPrefixEmpty            = "prefix part must be non-empty"
	msgPrefixTooLong          = "prefix part must be no more than 253 bytes"
	msgPrefixSubdomain        = "prefix part " + msgDNS1123Subdomain
	msgLabelKeyTooManySlashes = "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
	msgNameEmpty              = "name part must be non-empty"
	msgNameTooLong            = "name part must be no more than 63 bytes"
	msgName                   = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"

	msgLabelValueTooLong = "must be no more than 63 bytes"
	msgLabelValue        = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"

	msgConfigMapKey   = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"
	msgNotDot         = "must not be '.'"
	msgNotDotDot      = "must not be '..'"
	msgNoDotDotPrefix = "must not start with '..'"
)

// text is what the matchers read: a string, or the bytes of a name masked
// on the stack (NameIsDNSSubdomain, NameIsDNSLabel).
type text interface{ ~string | ~[]byte }

func lowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

func alnum(c byte) bool { return lowerAlnum(c) || 'A' <= c && c <= 'Z' }

// isDNS1123Label: [a-z0-9]([-a-z0-9]*[a-z0-9])?
func isDNS1123Label[T text](s T) bool {
	n := len(s)
	if n == 0 || !lowerAlnum(s[0]) || !lowerAlnum(s[n-1]) {
		return false
	}
	for i := 1; i < n-1; i++ {
		if c := s[i]; c != '-' && !lowerAlnum(c) {
			return false
		}
	}
	return true
}

// isDNS1123Subdomain: RFC 1123 labels joined by single dots.
func isDNS1123Subdomain[T text](s T) bool {
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			if !isDNS1123Label(s[start:i]) {
				return false
			}
			start = i + 1
		}
	}
	return isDNS1123Label(s[start:])
}

// isLabelName: ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], the name part of a
// label key and a non-empty label value.
func isLabelName(s string) bool {
	n := len(s)
	if n == 0 || !alnum(s[0]) || !alnum(s[n-1]) {
		return false
	}
	for i := 1; i < n-1; i++ {
		if c := s[i]; c != '-' && c != '_' && c != '.' && !alnum(c) {
			return false
		}
	}
	return true
}

func dns1123Label[T text](v T) []string {
	var errs []string
	if len(v) > dns1123LabelMax {
		errs = append(errs, msgDNS1123LabelTooLong)
	}
	if !isDNS1123Label(v) {
		if isDNS1123Subdomain(v) {
			errs = append(errs, msgNoDots)
		} else {
			errs = append(errs, msgDNS1123Label)
		}
	}
	return errs
}

func dns1123Subdomain[T text](v T) []string {
	var errs []string
	if len(v) > dns1123SubdomainMax {
		errs = append(errs, msgDNS1123SubdomainTooLong)
	}
	if !isDNS1123Subdomain(v) {
		errs = append(errs, msgDNS1123Subdomain)
	}
	return errs
}

// IsDNS1123Label is k8s.io/apimachinery/pkg/util/validation.IsDNS1123Label.
func IsDNS1123Label(value string) []string { return dns1123Label(value) }

// IsDNS1123Subdomain is k8s.io/apimachinery/pkg/util/validation.IsDNS1123Subdomain.
func IsDNS1123Subdomain(value string) []string { return dns1123Subdomain(value) }

// IsQualifiedName is k8s.io/apimachinery/pkg/util/validation.IsQualifiedName
// (content.IsLabelKey): an optional DNS-subdomain prefix and '/', then a name.
func IsQualifiedName(value string) []string {
	var errs []string
	name := value
	for i := 0; i < len(value); i++ {
		if value[i] != '/' {
			continue
		}
		prefix, rest := value[:i], value[i+1:]
		for j := 0; j < len(rest); j++ {
			if rest[j] == '/' {
				return []string{msgLabelKeyTooManySlashes}
			}
		}
		name = rest
		switch {
		case prefix == "":
			errs = append(errs, msgPrefixEmpty)
		default:
			// content.IsDNS1123Subdomain, its limit in bytes.
			if len(prefix) > dns1123SubdomainMax {
				errs = append(errs, msgPrefixTooLong)
			}
			if !isDNS1123Subdomain(prefix) {
				errs = append(errs, msgPrefixSubdomain)
			}
		}
		break
	}
	if name == "" {
		errs = append(errs, msgNameEmpty)
	} else if len(name) > labelNameMax {
		errs = append(errs, msgNameTooLong)
	}
	if !isLabelName(name) {
		errs = append(errs, msgName)
	}
	return errs
}

// IsValidLabelValue is k8s.io/apimachinery/pkg/util/validation.IsValidLabelValue
// (content.IsLabelValue): empty, or a label name.
func IsValidLabelValue(value string) []string {
	var errs []string
	if len(value) > labelValueMax {
		errs = append(errs, msgLabelValueTooLong)
	}
	if value != "" && !isLabelName(value) {
		errs = append(errs, msgLabelValue)
	}
	return errs
}

// IsConfigMapKey is k8s.io/apimachinery/pkg/util/validation.IsConfigMapKey.
func IsConfigMapKey(value string) []string {
	var errs []string
	if len(value) > dns1123SubdomainMax {
		errs = append(errs, msgDNS1123SubdomainTooLong)
	}
	valid := value != ""
	for i := 0; valid && i < len(value); i++ {
		c := value[i]
		valid = c == '-' || c == '.' || c == '_' || alnum(c)
	}
	if !valid {
		errs = append(errs, msgConfigMapKey)
	}
	switch {
	case value == ".":
		errs = append(errs, msgNotDot)
	case value == "..":
		errs = append(errs, msgNotDotDot)
	case len(value) >= 2 && value[0] == '.' && value[1] == '.':
		errs = append(errs, msgNoDotDotPrefix)
	}
	return errs
}

// NameIsDNSSubdomain is k8s.io/apimachinery/pkg/api/validation.NameIsDNSSubdomain.
func NameIsDNSSubdomain(name string, prefix bool) []string {
	if m, ok := maskTrailingDash(name, prefix); ok {
		var buf [64]byte
		return dns1123Subdomain(append(append(buf[:0], m...), 'a'))
	}
	return dns1123Subdomain(name)
}

// NameIsDNSLabel is k8s.io/apimachinery/pkg/api/validation.NameIsDNSLabel
// (and ValidateNamespaceName).
func NameIsDNSLabel(name string, prefix bool) []string {
	if m, ok := maskTrailingDash(name, prefix); ok {
		var buf [64]byte
		return dns1123Label(append(append(buf[:0], m...), 'a'))
	}
	return dns1123Label(name)
}

// maskTrailingDash: a generateName prefix ending in '-' is checked with its
// last two bytes replaced by one 'a', as apimachinery's maskTrailingDash
// does; ok says whether to, head is what precedes the 'a'.
func maskTrailingDash(name string, prefix bool) (head string, ok bool) {
	if prefix && len(name) > 1 && name[len(name)-1] == '-' {
		return name[:len(name)-2], true
	}
	return "", false
}
