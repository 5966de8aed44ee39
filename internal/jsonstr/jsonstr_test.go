package jsonstr

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzAppend: Append gives encoding/json's bytes for any string, with and
// without HTML escaping.
func FuzzAppend(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b\\c\n\t\x01\x7f\b\f\r", "<&>", "\u2028\u2029é", "\xff\xfe", "\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, html := range []bool{true, false} {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(html)
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			want := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
			if got := Append(nil, s, html); !bytes.Equal(got, want) {
				t.Fatalf("html=%v: %q, want %q", html, got, want)
			}
			if got := Append(nil, []byte(s), html); !bytes.Equal(got, want) {
				t.Fatalf("html=%v, bytes: %q, want %q", html, got, want)
			}
		}
	})
}

func BenchmarkAppend(b *testing.B) {
	msgs := []string{"apiVersion", "team-0000-apps.yaml", `pods "app-00042" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=195, limited: pods=195`, "registry.example/app:0"}
	buf := make([]byte, 0, 512)
	for b.Loop() {
		for _, m := range msgs {
			buf = Append(buf[:0], m, false)
			buf = Append(buf[:0], m, true)
		}
	}
}
