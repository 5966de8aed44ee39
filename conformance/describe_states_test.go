package conformance

import (
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval/features"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/render"
)

// TestDescribeFinalStates runs the differential generator's cases through
// limitcheck's engine alone and describes every final state it reaches — the
// LimitRanges as stored and each quota's hard/used after the whole case — with
// both kubectl's describers and ours (DESC-01..03). The states are what
// `limitcheck describe` prints, so this covers quantities as the engine sums them
// (formats from Quantity.Add), which random objects alone do not.
func TestDescribeFinalStates(t *testing.T) {
	gen := NewGenerator(*flagSeed ^ 0x5eed)
	quotas, limitRanges, mismatches := 0, 0, 0
	fail := func(kind string, i int, want, got string, problems []string) {
		mismatches++
		if mismatches <= *flagShow {
			t.Errorf("case %d %s (seed %d): %s\n--- kubectl ---\n%s--- ours ---\n%s", i, kind, *flagSeed, strings.Join(problems, "\n  "), want, got)
		}
	}
	for i := 0; i < *flagCases; i++ {
		c := gen.Next()
		gates := features.Default()
		gates.Set(features.PodLevelResources, c.PodLevelResources)
		engine := eval.New(eval.Options{DefaultNamespace: "ns1", Gates: gates, QuotaConfig: c.QuotaConfig})
		for j, doc := range c.Docs {
			if _, err := Mine(engine, doc); err != nil {
				t.Fatalf("case %d doc %d: %v", i, j, err)
			}
		}
		for _, lr := range engine.LimitRanges() {
			want, err := upstreamDescribe(lr)
			if err != nil {
				t.Fatalf("case %d: kubectl: %v", i, err)
			}
			got := render.DescribeLimitRange(lr)
			if d := diffLimitRange(lr, want, got); len(d) > 0 {
				fail("LimitRange "+lr.Name, i, want, got, d)
			}
			limitRanges++
		}
		for _, qs := range engine.Quotas() {
			want, err := upstreamDescribe(qs.Quota)
			if err != nil {
				t.Fatalf("case %d: kubectl: %v", i, err)
			}
			if got := render.DescribeQuota(qs.Quota); got != want {
				fail("ResourceQuota "+qs.Quota.Name, i, want, got, []string{"outputs differ"})
			}
			quotas++
		}
	}
	t.Logf("seed %d: %d cases, %d LimitRanges and %d quotas in their final state described, %d mismatches", *flagSeed, *flagCases, limitRanges, quotas, mismatches)
	if mismatches > 0 {
		t.Fatalf("%d mismatches", mismatches)
	}
}
