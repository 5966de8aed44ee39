package eval

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestSuggestQuotas (FIT-02): on random namespaces, the suggested quotas, put
// in place of the input's, admit exactly what the input admits with quotas
// unenforced (everything but what LimitRanges, validation and quota
// constraints refuse), and lowering any suggested value by the smallest unit
// (1m of cpu, 1 of anything else) refuses something or leaves the quota over
// its limit after the input.
func TestSuggestQuotas(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	suggested, lowered, refused := 0, 0, 0
	for c := range 40 {
		docs, nodes := randomFitCase(rng)
		opts := Options{DefaultNamespace: "ns", Nodes: nodes}
		real, _ := admitWith(t, opts, docs, nil)
		unenforcedOpts := opts
		unenforcedOpts.UnenforcedQuota = true
		free, unenforced := admitWith(t, unenforcedOpts, docs, nil)
		sugg := SuggestQuotas(RefusingQuotas(real), unenforced)
		if len(sugg) == 0 {
			continue
		}
		suggested++
		where := fmt.Sprintf("case %d:\n%s", c, strings.Join(docs, "\n---\n"))
		replace := map[string]*corev1.ResourceQuota{}
		for _, s := range sugg {
			replace[s.Quota.Name] = s.Quota
		}
		got, e := admitWith(t, opts, docs, replace)
		if g, w := verdicts(got), verdicts(free); g != w {
			t.Fatalf("%s\nwith the suggested quotas:\n%s\nwith quotas unenforced:\n%s", where, g, w)
		}
		if over := overLimit(e); over != "" {
			t.Fatalf("%s\nthe suggestion is over its limit: %s", where, over)
		}
		for _, s := range sugg {
			for _, k := range sortedNames(s.Quota.Spec.Hard) {
				if _, tracked := e.quotaNamed(s.Quota.Namespace, s.Quota.Name).Status.Used[k]; !tracked {
					continue
				}
				v := s.Quota.Spec.Hard[k]
				unit := resource.MustParse("1")
				if strings.Contains(string(k), "cpu") {
					unit = resource.MustParse("1m")
				}
				if v.Cmp(unit) < 0 {
					continue // 0 cannot be lowered
				}
				lower := s.Quota.DeepCopy()
				l := v.DeepCopy()
				l.Sub(unit)
				lower.Spec.Hard[k] = l
				replace[s.Quota.Name] = lower
				got, e := admitWith(t, opts, docs, replace)
				replace[s.Quota.Name] = s.Quota
				lowered++
				if verdicts(got) != verdicts(free) {
					refused++
					continue
				}
				if overLimit(e) == "" {
					t.Fatalf("%s\n%s %s lowered to %s still admits everything, within its limit", where, s.Quota.Name, k, l.String())
				}
			}
		}
	}
	if suggested < 5 || refused == 0 {
		t.Fatalf("the cases do not exercise suggestions: %d suggested, %d lowered, %d refused", suggested, lowered, refused)
	}
	t.Logf("%d cases with suggestions, %d values lowered, %d of them refused something (the others leave the quota over its limit)", suggested, lowered, refused)
}

// admitWith admits docs on a new engine, quotas named in replace admitted as
// given instead of as written.
func admitWith(t *testing.T, opts Options, docs []string, replace map[string]*corev1.ResourceQuota) ([]Result, *Engine) {
	t.Helper()
	e := New(opts)
	var out []Result
	for _, d := range docs {
		obj := decode(t, d)
		if q, ok := obj.(*corev1.ResourceQuota); ok && replace[q.Name] != nil {
			obj = runtime.Object(replace[q.Name].DeepCopy())
		}
		out = append(out, e.Admit(obj))
	}
	return out, e
}

// verdicts is every result's verdict, admitted replicas and created
// objects' verdicts, one line per result.
func verdicts(results []Result) string {
	var b strings.Builder
	for _, r := range results {
		fmt.Fprintf(&b, "%s %s allowed=%v", r.Kind, r.Name, r.Allowed)
		if r.Workload != nil {
			fmt.Fprintf(&b, " admitted=%d", r.Workload.Admitted)
			for _, c := range r.Workload.Created {
				fmt.Fprintf(&b, " [%s %s %v x%d]", c.Kind, c.Name, c.Allowed, 1+c.Repeat)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// overLimit names the quota resources whose usage is above the hard limit.
func overLimit(e *Engine) string {
	var over []string
	for _, st := range e.Quotas() {
		q := st.Quota
		for k, used := range q.Status.Used {
			if hard, ok := q.Status.Hard[k]; ok && used.Cmp(hard) > 0 {
				over = append(over, q.Name+" "+string(k))
			}
		}
	}
	return strings.Join(over, ", ")
}

func (e *Engine) quotaNamed(ns, name string) *corev1.ResourceQuota {
	for _, st := range e.Quotas() {
		if st.Quota.Namespace == ns && st.Quota.Name == name {
			return st.Quota
		}
	}
	return &corev1.ResourceQuota{}
}

func sortedNames(l corev1.ResourceList) []corev1.ResourceName {
	var out []corev1.ResourceName
	for k := range l {
		out = append(out, k)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}
