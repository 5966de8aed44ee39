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

// TestFirstLookReadsFilesAhead: a first look (Options.Select) that reads
// files ahead yields what one reading them in turn yields, notes, errors
// and stops included.
func TestFirstLookReadsFilesAhead(t *testing.T) {
	files := map[string]string{
		"sub/deep/z.yaml": cmYAML("deep"),
		"ignored.yaml":    cmYAML("ignored"),
		"values.yaml":     "replicas: 3\n",
		"bad.yaml":        "kind: [\n",
		"big.json":        `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "j"}}`,
		"lr.yaml":         "apiVersion: v1\nkind: LimitRange\nmetadata: {name: l}\nspec: {limits: []}\n",
		"list.yaml":       "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(strings.TrimSpace(cmYAML("in-list")), "\n", "\n  ") + "\n",
	}
	for i := range 40 {
		var b strings.Builder
		for j := range i % 7 {
			fmt.Fprintf(&b, "---\n%s", cmYAML(fmt.Sprintf("f%d-%d", i, j)))
		}
		files[fmt.Sprintf("f%02d.yaml", i)] = b.String()
	}
	dir := writeTree(t, files)
	record := func(stopAt int, paths ...string) []string {
		var out []string
		opts := Options{Ignore: []string{"ignored.yaml"}, Recursive: true, MaxInputBytes: 6000,
			Select: func(apiVersion, kind string) bool { return kind == "LimitRange" },
			Note:   func(n Note) { out = append(out, "note "+n.String()) }}
		n := 0
		err := Walk(paths, nil, opts, func(d Document) bool {
			n++
			s := fmt.Sprintf("%s:%d:%d %s %s", d.Pos.File, d.Pos.Line, d.Pos.Index, d.Kind, d.Name)
			if d.Err != nil {
				s += " error " + d.Err.Msg
			}
			out = append(out, s)
			return n != stopAt
		})
		return append(out, fmt.Sprintf("returned %v", err))
	}
	for _, stopAt := range []int{0, 1, 7, 30} {
		for _, paths := range [][]string{{dir}, {dir + "/f03.yaml", dir, dir + "/missing.yaml"}} {
			got := record(stopAt, paths...)
			parallelFiles = false
			want := record(stopAt, paths...)
			parallelFiles = true
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("stop at %d, %v: read ahead\n%s\nin turn\n%s", stopAt, paths, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
	if got := strings.Join(record(0, dir), "\n"); !strings.Contains(got, "the input limit for one run") {
		t.Fatalf("the case does not reach the input limit:\n%s", got)
	}
}
