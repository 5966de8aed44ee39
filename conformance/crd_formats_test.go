package conformance

import (
	"math/rand/v2"
	"strings"
	"testing"

	"k8s.io/kube-openapi/pkg/validation/strfmt"

	"github.com/limitcheck/limitcheck/internal/eval/crd"
)

// crdFormats are the string formats a CRD schema may give that limitcheck
// checks (VAL-78).
var crdFormats = []string{"date", "byte", "password", "uuid", "uuid3", "uuid4", "uuid5", "k8s-short-name", "k8s-long-name",
	"duration", "date-time", "datetime", "ipv4", "ipv6", "cidr", "mac", "hostname", "uri", "email",
	"bsonobjectid", "hexcolor", "rgbcolor", "ssn", "isbn", "isbn10", "isbn13", "creditcard"}

// formatValues are strings near each format's edges.
var formatValues = []string{
	"", "a", "abc", "2024-01-02", "2024-13-01", "2024-02-30", "YWJj", "YWJj=", "YWJ", "123e4567-e89b-42d3-a456-426614174000",
	"123e4567e89b42d3a456426614174000", "123E4567-E89B-32D3-A456-426614174000", "123e4567-e89b-52d3-c456-426614174000",
	"1h30m", "30s", "1.5h", "-5m", "2 days", "3d", "1w", "15min", "10 sec", "1 hour 5 minutes", "5x", "1h 30", "99999999999999999999s",
	"2µs", "3 micro", "4 nanoseconds", "1wk", "2 weeks", "7 mins",
	"2024-01-02T03:04:05Z", "2024-01-02t03:04:05.123+02:00", "2024-01-02T24:00:00Z", "2024-01-02T23:60:00Z", "2024-01-02 03:04:05",
	"2024-01-02T03:04:05", "2024-01-02T03:04:05+0200", "2024-01-02TT03:04:05Z", "T03:04:05Z",
	"10.0.0.1", "010.000.000.001", "10.0.0", "10.0.0.256", "::1", "fd00::1", "::ffff:10.0.0.1", "fd00::1%eth0", "1.2.3.4.5",
	"10.0.0.0/8", "10.0.0.1/33", "fd00::/64", "fd00::/129", "010.0.0.0/8",
	"00:1a:2b:3c:4d:5e", "00-1A-2B-3C-4D-5E", "001a.2b3c.4d5e", "00:1a:2b", "00:1a:2b:3c:4d:5e:6f:70",
	"example.com", "web-1", "-web", "web-", "a..b", "example.c", "api.example.co", "xn--bcher-kva.example", "bücher.de",
	strings.Repeat("a", 63) + ".com", strings.Repeat("a", 64) + ".com", strings.Repeat("ü", 32) + ".de", strings.Repeat("ü", 31) + "a.de", "a_b.com", "1.2.3.4",
	"https://example.com/x", "/healthz", "http//x", "example.com", "mailto:ops@example.com", "https://exa mple.com", "*",
	"ops@example.com", "Ops <ops@example.com>", "ops@", "@example.com", "ops@example", "a b@example.com",
	"Web", "web.v2", strings.Repeat("s", 64), "my_app",
	"507f1f77bcf86cd799439011", "507F1F77BCF86CD799439011", "507f1f77bcf86cd79943901", "507f1f77bcf86cd79943901g", "507f1f77bcf86cd7994390", "507f1f77bcf86cd799439011aa",
	"#fff", "fff", "#ffff", "#A0b1C2", "rgb(0, 128,255)", "rgb(256,0,0)", "rgb( 1 , 2 , 3 )", "rgb(01,2,3)",
	"123-45-6789", "123 45 6789", "123456789", "123-456-789", "123-45-67890",
	"0306406152", "0-306-40615-2", "030640615X", "080442957X", "0306406153", "9780306406157", "978-0-306-40615-7",
	"978 0 306 40615 7", "9780306406158", "9781861972712", "9780262033848", "9783161484100", "9781234567897", "978\v0306406157", "978\t0306406157", "978\u00a00306406157",
	"4111111111111111", "4111 1111 1111 1111", "4111-1111-1111-1112", "5500005555555559", "378282246310005",
	"6011111111111117", "30569309025904", "3530111333300000", "411111111111111", "abc4111111111111111",
}

// TestCRDFormatsMatchUpstream checks each string format a CRD schema may
// give against kube-openapi's format registry, which kube-apiserver's
// custom resource validation uses: the listed values near each format's
// edges, and random strings built from their characters.
func TestCRDFormatsMatchUpstream(t *testing.T) {
	values := append([]string(nil), formatValues...)
	r := rand.New(rand.NewPCG(5, 0xf0))
	const alphabet = "0123456789abcdefABCDEF:.-/ @%TZzt+hmsdwµ_[]"
	for range 4000 {
		b := make([]byte, 1+r.IntN(20))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		values = append(values, string(b))
	}
	for _, format := range crdFormats {
		s, err := crd.Parse([]byte(`{"type":"object","properties":{"v":{"type":"string","format":"` + format + `"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		name := strings.ReplaceAll(format, "-", "")
		for _, v := range values {
			want := strfmt.Default.Validates(name, v)
			got := len(s.Validate(map[string]any{"v": v})) == 0
			if want != got {
				t.Errorf("format %s, %q: upstream valid=%v, limitcheck valid=%v", format, v, want, got)
			}
		}
	}
}
