package load

import (
	"fmt"
	"strings"
	"testing"
)

// TestWalkAhead: WalkAhead yields what Walk yields, notes included, in the
// same order, and returns the same error; a yield that stops it, or
// panics, ends the reading.
func TestWalkAhead(t *testing.T) {
	var big strings.Builder
	for i := range 600 {
		fmt.Fprintf(&big, "---\n%s", cmYAML(fmt.Sprintf("cm-%d", i)))
	}
	dir := writeTree(t, map[string]string{
		"a.yaml":       big.String(),
		"b.yaml":       cmYAML("b") + "---\nkind: [\n---\n" + cmYAML("b2"),
		"c.json":       `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}`,
		"sub/z.yaml":   cmYAML("sub-z"),
		"values.yaml":  "replicas: 3\n",
		"ignored.yaml": cmYAML("ignored"),
	})
	record := func(walk func([]string, Options, func(Document) bool) error, stopAt int) []string {
		var out []string
		opts := Options{Ignore: []string{"ignored.yaml"}, Note: func(n Note) { out = append(out, "note "+n.String()) }}
		n := 0
		err := walk([]string{dir, dir + "/b.yaml"}, opts, func(d Document) bool {
			n++
			s := fmt.Sprintf("%s:%d:%d %s", d.Pos.File, d.Pos.Line, d.Pos.Index, d.Name)
			if d.Err != nil {
				s += " error " + d.Err.Msg
			}
			if d.Skip != "" {
				s += " skip " + d.Skip
			}
			out = append(out, s)
			return n != stopAt
		})
		return append(out, fmt.Sprintf("returned %v", err))
	}
	walk := func(p []string, o Options, y func(Document) bool) error { return Walk(p, nil, o, y) }
	ahead := func(p []string, o Options, y func(Document) bool) error { return WalkAhead(p, nil, o, y) }
	for _, stopAt := range []int{0, 1, 300, 601} {
		want, got := record(walk, stopAt), record(ahead, stopAt)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("stop at %d: WalkAhead yielded\n%s\nWalk\n%s", stopAt, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if stopAt == 0 && len(want) < 600 {
			t.Fatalf("only %d documents", len(want))
		}
	}
	if err := WalkAhead([]string{dir + "/missing.yaml"}, nil, Options{}, func(Document) bool { return true }); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing path: %v", err)
	}
	func() {
		defer func() {
			if r := recover(); r != "from yield" {
				t.Errorf("recovered %v, want the yield's panic", r)
			}
		}()
		WalkAhead([]string{dir}, nil, Options{}, func(Document) bool { panic("from yield") })
		t.Error("WalkAhead returned")
	}()
}
