package conformance

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval"
)

var (
	flagCases = flag.Int("cases", 2000, "number of random cases")
	flagSeed  = flag.Uint64("seed", 1, "generator seed")
	flagShow  = flag.Int("show", 10, "mismatches to print in full")
)

// TestDifferential compares limitcheck's engine with kube-apiserver's code on
// random cases: defaulted LimitRanges, verdicts, HTTP codes, messages (parts as a
// set), mutated containers and the limit-ranger annotation.
func TestDifferential(t *testing.T) {
	gen := NewGenerator(*flagSeed)
	stats := map[string]int{}
	mismatches := 0
	for i := 0; i < *flagCases; i++ {
		c := gen.Next()
		// Turning PodLevelResources off needs its dependant off too, as in kube-apiserver.
		if err := SetGates(map[string]bool{"PodLevelResources": c.PodLevelResources, "InPlacePodLevelResourcesVerticalScaling": c.PodLevelResources}); err != nil {
			t.Fatal(err)
		}
		gates := eval.DefaultFeatureGates()
		gates.Set(eval.GatePodLevelResources, c.PodLevelResources)
		up, err := NewUpstream(c.QuotaConfig)
		if err != nil {
			t.Fatal(err)
		}
		engine := eval.New(eval.Options{DefaultNamespace: "ns1", Gates: gates, QuotaConfig: c.QuotaConfig})
		for j, doc := range c.Docs {
			want, err := up.Create(doc, "ns1")
			if err != nil {
				t.Fatalf("case %d doc %d: upstream: %v\n%s", i, j, err, doc)
			}
			got, err := Mine(engine, doc)
			if err != nil {
				t.Fatalf("case %d doc %d: limitcheck: %v\n%s", i, j, err, doc)
			}
			key := got.Kind + " admitted"
			if !want.Allowed {
				key = fmt.Sprintf("%s %d %s", got.Kind, want.Code, want.Stage)
			}
			stats[key]++
			if d := Diff(want, got); len(d) > 0 {
				mismatches++
				if mismatches <= *flagShow {
					t.Errorf("case %d doc %d (seed %d, PodLevelResources=%v, config %+v) mismatch:\n  %s\ninput case:\n%s", i, j, *flagSeed, c.PodLevelResources, c.QuotaConfig, strings.Join(d, "\n  "), joinDocs(c.Docs))
				}
			}
		}
		if d := DiffQuotas(up.Quotas([]string{"ns1", "ns2"}), engine.Quotas()); len(d) > 0 {
			mismatches++
			if mismatches <= *flagShow {
				t.Errorf("case %d final quotas mismatch:\n  %s\ninput case:\n%s", i, strings.Join(d, "\n  "), joinDocs(c.Docs))
			}
		}
		stats["quotas"] += len(engine.Quotas())
	}
	t.Logf("seed %d: %d cases, %d mismatches; outcomes: %v", *flagSeed, *flagCases, mismatches, stats)
	if mismatches > 0 {
		t.Fatalf("%d mismatches", mismatches)
	}
}

func joinDocs(docs [][]byte) string {
	var b strings.Builder
	for _, d := range docs {
		b.WriteString("  ")
		b.Write(d)
		b.WriteByte('\n')
	}
	return b.String()
}
