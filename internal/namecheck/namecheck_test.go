package namecheck

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
)

// The apimachinery originals each matcher must agree with.
var matchers = []struct {
	name      string
	ours, ref func(string) []string
}{
	{"IsDNS1123Label", IsDNS1123Label, validation.IsDNS1123Label},
	{"IsDNS1123Subdomain", IsDNS1123Subdomain, validation.IsDNS1123Subdomain},
	{"IsQualifiedName", IsQualifiedName, validation.IsQualifiedName},
	{"IsValidLabelValue", IsValidLabelValue, validation.IsValidLabelValue},
	{"IsConfigMapKey", IsConfigMapKey, validation.IsConfigMapKey},
	{"NameIsDNSSubdomain", func(s string) []string { return NameIsDNSSubdomain(s, false) },
		func(s string) []string { return apivalidation.NameIsDNSSubdomain(s, false) }},
	{"NameIsDNSSubdomain/prefix", func(s string) []string { return NameIsDNSSubdomain(s, true) },
		func(s string) []string { return apivalidation.NameIsDNSSubdomain(s, true) }},
	{"NameIsDNSLabel", func(s string) []string { return NameIsDNSLabel(s, false) },
		func(s string) []string { return apivalidation.NameIsDNSLabel(s, false) }},
	{"NameIsDNSLabel/prefix", func(s string) []string { return NameIsDNSLabel(s, true) },
		func(s string) []string { return apivalidation.NameIsDNSLabel(s, true) }},
}

// compare fails unless every matcher returns what its original does for s,
// nil where the original returns nil.
func compare(t *testing.T, s string) {
	t.Helper()
	for _, m := range matchers {
		got, want := m.ours(s), m.ref(s)
		if !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("%s(%q):\n got %#v\nwant %#v", m.name, s, got, want)
		}
	}
}

// cases are hand-picked edges: empty, single bytes, dots, dashes, slashes,
// upper case, non-ASCII and invalid UTF-8, and every length limit ±1.
func cases() []string {
	cs := []string{
		"", "a", "A", "0", "-", ".", "..", "...", "_", "/", "//", "a/", "/a", "a/b", "a/b/c", "a//b",
		"a-", "-a", "a.", ".a", "a..b", "a.b", "a-b", "a_b", "a.-b", "a-.b", "ab-", "ab--", "x-", "-x-", "--",
		"my-name", "123-abc", "example.com", "example.com/MyName", "Example.com/name", "example.com/",
		"kubernetes.io/config.mirror", "app", "web", "MyValue", "my_value", "12345", "key.name", "KEY_NAME",
		"..a", ".a.", "a b", "a\tb", "a\nb", "a\n", "é", "aé", "éa", "a\xffb", "\xff", "a\u00e9b", "日本",
		"a/é", "é/a", "a\x00", "UPPER", "lower-UPPER", "a.b.c.d", "a.b-", "a.b.", "a_b.c/d_e",
		"p1-", "p1--", "a.-", "a.b-",
	}
	for _, n := range []int{52, 53, 54, 62, 63, 64, 65, 126, 127, 128, 252, 253, 254, 255, 300} {
		for _, unit := range []string{"a", "A", "a.", "-", "a-", "."} {
			s := strings.Repeat(unit, n)[:n]
			cs = append(cs, s, s+"-", "a"+s, "x/"+s, s+"/x", s+"/"+s)
		}
		label := strings.Repeat("b", 63)
		sub := strings.Repeat(label+".", 5)[:n]
		cs = append(cs, sub, sub+"-", sub+"/name", "a"+sub+"b")
	}
	return cs
}

func TestMatchersAgree(t *testing.T) {
	for _, s := range cases() {
		compare(t, s)
	}
}

// TestMatchersTable pins a few results in the test itself, in case both
// sides ever changed together.
func TestMatchersTable(t *testing.T) {
	for _, tc := range []struct {
		fn   func(string) []string
		in   string
		want []string
	}{
		{IsDNS1123Label, "my-name", nil},
		{IsDNS1123Label, "a.b", []string{"must not contain dots"}},
		{IsDNS1123Label, "", []string{msgDNS1123Label}},
		{IsDNS1123Label, strings.Repeat("a", 64), []string{"must be no more than 63 characters"}},
		{IsDNS1123Subdomain, "example.com", nil},
		{IsDNS1123Subdomain, "a..b", []string{msgDNS1123Subdomain}},
		{IsQualifiedName, "example.com/MyName", nil},
		{IsQualifiedName, "/a", []string{"prefix part must be non-empty"}},
		{IsQualifiedName, "a/b/c", []string{msgLabelKeyTooManySlashes}},
		{IsQualifiedName, "a/", []string{"name part must be non-empty", msgName}},
		{IsValidLabelValue, "", nil},
		{IsValidLabelValue, "-a", []string{msgLabelValue}},
		{IsConfigMapKey, "..", []string{"must not be '..'"}},
		{IsConfigMapKey, "..a", []string{"must not start with '..'"}},
		{IsConfigMapKey, "", []string{msgConfigMapKey}},
		{func(s string) []string { return NameIsDNSSubdomain(s, true) }, "p1-", nil},
		{func(s string) []string { return NameIsDNSSubdomain(s, true) }, "x-", nil},
		{func(s string) []string { return NameIsDNSLabel(s, true) }, "a.b-", []string{"must not contain dots"}},
	} {
		if got := tc.fn(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMatchersDoNotAllocateWhenValid(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() {
		for _, s := range []string{"my-name", "example.com"} {
			IsDNS1123Label("my-name")
			IsDNS1123Subdomain(s)
			IsQualifiedName(s)
			IsQualifiedName("example.com/" + "MyName")
			IsValidLabelValue(s)
			IsConfigMapKey(s)
			NameIsDNSSubdomain(s, false)
			NameIsDNSSubdomain(s+"-", true)
			NameIsDNSLabel("my-name-", true)
		}
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

// FuzzMatchers compares every matcher with its apimachinery original on
// arbitrary strings.
func FuzzMatchers(f *testing.F) {
	for _, s := range cases() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		compare(t, s)
	})
}

func BenchmarkMatchers(b *testing.B) {
	for _, m := range matchers {
		for _, impl := range []struct {
			name string
			fn   func(string) []string
		}{{"ours", m.ours}, {"apimachinery", m.ref}} {
			b.Run(fmt.Sprintf("%s/%s", m.name, impl.name), func(b *testing.B) {
				for b.Loop() {
					impl.fn("example.com/my-name")
					impl.fn("app")
				}
			})
		}
	}
}
