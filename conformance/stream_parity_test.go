package conformance

import (
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/features"
)

var flagStream = flag.String("stream", "", "comma-separated files or directories for TestStreamParity: each file is one run, its documents created in order")

// TestStreamParity creates the documents of each file named by -stream in
// order, on both sides, as `limitcheck check FILE` does: the file's
// LimitRanges and quotas govern what follows them, usage accumulates, the
// cluster classes it holds apply throughout, and a document without a
// namespace goes to ns1. It compares every verdict, message and created
// object, and each quota's usage after every document. It is how a scenario
// written by hand (a mistake seen in an issue thread, a policy a platform
// team uses) is checked against kube-apiserver: `go test -run
// TestStreamParity -stream DIR -v`. Without -stream it runs
// testdata/stream.
func TestStreamParity(t *testing.T) {
	roots := []string{"testdata/stream"}
	if *flagStream != "" {
		roots = strings.Split(*flagStream, ",")
	}
	var files []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			switch strings.ToLower(filepath.Ext(path)) {
			case ".yaml", ".yml", ".json":
				if !de.IsDir() {
					files = append(files, path)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatalf("no files under %v", roots)
	}
	stats := map[string]int{}
	mismatches := 0
	for _, file := range files {
		mismatches += streamParity(t, file, stats, mismatches)
	}
	t.Logf("%d files, %d mismatches:%s", len(files), mismatches, statsTable(stats, 50))
	if mismatches > 0 {
		t.Fatalf("%d mismatches", mismatches)
	}
}

// streamParity runs one file on a fresh cluster on each side and returns
// the number of mismatches; shown is how many were printed before.
func streamParity(t *testing.T, file string, stats map[string]int, shown int) int {
	t.Helper()
	docs := readRealDocs(t, file)
	if err := SetGates(map[string]bool{}); err != nil {
		t.Fatal(err)
	}
	up, err := NewUpstream(nil)
	if err != nil {
		t.Fatal(err)
	}
	up.Controllers = ControllerOptions{Nodes: 1}
	engine := eval.New(eval.Options{DefaultNamespace: "ns1", Gates: features.Default(), Nodes: 1, Rules: celRules()})
	namespaces := map[string]bool{"ns1": true}
	for _, d := range docs {
		if IsClassDoc(d.json) {
			if up.AddClass(d.json) == nil && AddClass(engine, d.json) != nil {
				t.Fatalf("%s: a class upstream takes and limitcheck does not", d.where)
			}
		}
		if IsNamespaceDoc(d.json) {
			if err := AddNamespace(up, engine, d.json); err != nil {
				t.Errorf("%s: %v", d.where, err)
			}
		}
		if root, ok := decodeObj(d.json); ok {
			if ns, _ := child(root, "metadata", false)["namespace"].(string); ns != "" {
				namespaces[ns] = true
			}
		}
	}
	nsList := make([]string, 0, len(namespaces))
	for ns := range namespaces {
		nsList = append(nsList, ns)
	}
	sort.Strings(nsList)
	mismatches := 0
	report := func(format string, args ...any) {
		mismatches++
		if shown+mismatches <= *flagShow {
			t.Errorf(format, args...)
		}
	}
	for _, d := range docs {
		if IsClassDoc(d.json) {
			stats["class (applies to the whole run)"]++
			continue
		}
		if eval.NewObject(d.apiVersion, d.kind) == nil {
			stats["not served: "+d.apiVersion+" "+d.kind]++
			continue
		}
		if !upstreamCreates[d.kind] {
			typed := typedCreateFor(d.apiVersion, d.kind)
			if typed == nil {
				stats["not compared: "+d.kind]++
				continue
			}
			want, got, parts, err := typed(d.json)
			if err != nil {
				stats["undecodable: "+d.kind]++
				continue
			}
			stats[fmt.Sprintf("%s: %v", d.kind, verdictWord(want.allowed))]++
			if want.allowed != got.allowed || want.code != got.code || want.reason != got.reason ||
				!samePermutation(want.message, got.message, parts) || warned[d.kind] && !slices.Equal(want.warnings, got.warnings) {
				report("%s (%s %s) mismatch:\n  upstream:   %v %d %s %s %q\n  limitcheck: %v %d %s %s %q", d.where, d.kind, d.name,
					want.allowed, want.code, want.reason, want.message, want.warnings, got.allowed, got.code, got.reason, got.message, got.warnings)
			}
			continue
		}
		want, err := up.Create(d.json, "ns1")
		if err != nil {
			stats["undecodable: "+d.kind]++
			continue
		}
		got, err := Mine(engine, d.json)
		if err != nil {
			t.Fatalf("%s: limitcheck: %v", d.where, err)
		}
		verdict := verdictWord(want.Allowed)
		if !want.Allowed {
			verdict += " " + want.Stage
		}
		stats[want.Kind+": "+verdict]++
		if testing.Verbose() {
			line := fmt.Sprintf("%s %s %s: %s", d.where, want.Kind, d.name, verdict)
			if !want.Allowed {
				line += ": " + want.Message
			}
			if w := want.Workload; w != nil {
				admitted, first := 0, ""
				for _, c := range w.Created {
					if c.Allowed {
						admitted++
					} else if first == "" {
						first = "; first refused: " + c.Message
					}
				}
				line += fmt.Sprintf(" (created %d, %d admitted%s)", len(w.Created), admitted, first)
			}
			t.Log(line)
		}
		diff := Diff(want, got)
		if root, ok := decodeObj(d.json); ok && podDependents(root) || want.Kind == "Pod" && want.Workload == nil {
			diff = diffOne(want, got) // TestRealManifestsParity says why
		}
		diff = append(diff, DiffQuotas(up.Quotas(nsList), engine.Quotas())...)
		if len(diff) > 0 {
			report("%s (%s %s) mismatch:\n  %s\ndocument: %s", d.where, d.kind, d.name, strings.Join(diff, "\n  "), d.json)
		}
	}
	return mismatches
}

func verdictWord(allowed bool) string {
	if allowed {
		return "admitted"
	}
	return "denied"
}
