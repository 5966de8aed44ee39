package render

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/load"
)

// TestStreamsOrderEntries: entries handed to a Stream (spooled) and entries
// left in the report (held: the policies) come out in Seq order, the text
// report grouping findings by namespace in order of each namespace's first
// finding, findings without a namespace first; JSON lists every result in
// Seq order. Which entries are held must not matter.
func TestStreamsOrderEntries(t *testing.T) {
	// Seq: namespace of a denied Pod ("" = an unreadable document).
	layout := []string{"b", "a", "b", "", "c", "a", "a", "b", "", "c"}
	entries := make([]check.Entry, len(layout))
	for i, ns := range layout {
		pos := load.Position{File: "f.yaml", Line: 10 * (i + 1)}
		e := check.Entry{Pos: pos, Seq: i}
		if ns == "" {
			e.Err = &load.Error{File: "f.yaml", Line: pos.Line, Msg: "bad " + strconv.Itoa(i)}
		} else {
			name := "p" + strconv.Itoa(i)
			e.Result = eval.Result{APIVersion: "v1", Kind: "Pod", Namespace: ns, Name: name,
				Denial: &status.Denial{Message: `pods "` + name + `" is forbidden: no`}}
		}
		entries[i] = e
	}
	wantText := `f.yaml:40: error: bad 3
f.yaml:90: error: bad 8
namespace b:
f.yaml:10: Pod b/p0: pods "p0" is forbidden: no
f.yaml:30: Pod b/p2: pods "p2" is forbidden: no
f.yaml:80: Pod b/p7: pods "p7" is forbidden: no
namespace a:
f.yaml:20: Pod a/p1: pods "p1" is forbidden: no
f.yaml:60: Pod a/p5: pods "p5" is forbidden: no
f.yaml:70: Pod a/p6: pods "p6" is forbidden: no
namespace c:
f.yaml:50: Pod c/p4: pods "p4" is forbidden: no
f.yaml:100: Pod c/p9: pods "p9" is forbidden: no
`
	var wantJSON []byte
	// Every way of holding some entries and streaming the others: by bit i
	// of held, entry i stays in the report. The second time round no
	// temporary file can be made, and the spool is memory.
	for round, held := 0, 0; round < 2; held += 37 {
		if held >= 1<<len(layout) {
			round, held = round+1, 0
			t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
			continue
		}
		for _, f := range []Streamer{textFormat{}, jsonFormat{}} {
			var out bytes.Buffer
			s := f.Stream(&out, Options{})
			r := &check.Report{}
			for i := range entries {
				e := entries[i]
				if held&(1<<i) != 0 || s.Entry(&e) {
					r.Entries = append(r.Entries, e)
				}
			}
			if err := s.Finish(r); err != nil {
				t.Fatal(err)
			}
			switch f.(type) {
			case textFormat:
				// The summary counts what check counted (not this test).
				got := out.String()
				got = got[:strings.LastIndex(strings.TrimSuffix(got, "\n"), "\n")+1]
				if got != wantText {
					t.Fatalf("round %d, held %b: text\n%s\nwant\n%s", round, held, out.String(), wantText)
				}
			case jsonFormat:
				if wantJSON == nil {
					all := &check.Report{Entries: entries}
					var b bytes.Buffer
					if err := (jsonFormat{}).Render(&b, all, Options{}); err != nil {
						t.Fatal(err)
					}
					wantJSON = results(b.Bytes())
				}
				// The summary counts what check counted (not this test).
				if !bytes.Equal(results(out.Bytes()), wantJSON) {
					t.Fatalf("round %d, held %b: JSON\n%s\nwant\n%s", round, held, out.String(), wantJSON)
				}
			}
		}
	}
}

// results is the "results" member of a JSON report.
func results(doc []byte) []byte {
	from := bytes.Index(doc, []byte(`"results"`))
	to := bytes.Index(doc, []byte(`"notes"`))
	return doc[from:to]
}
