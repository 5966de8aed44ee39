package eval

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/limitcheck/limitcheck/internal/eval/resources"
)

// The quota a release needs (FIT-02): run the input with quotas unenforced
// (Options.UnenforcedQuota) and read each quota's usage after it, which
// admission only ever grows: that usage is the least hard value that lets
// every charge through, and the least that keeps the quota within its limit.

// QuotaSuggestion is the smallest hard values of one quota that admit
// everything quotas can admit in the input.
type QuotaSuggestion struct {
	// Quota is the suggestion, ready to apply: the input's name, namespace,
	// scopes and scopeSelector, its hard values replaced.
	Quota *corev1.ResourceQuota
	// Was is the input's hard values.
	Was corev1.ResourceList
	// Refused says the quota refused something in the input as written;
	// otherwise it is suggested because what the others refused would exceed it.
	Refused bool
}

// RefusingQuotas returns the quotas ("namespace/name") that refused
// something among results, the objects controllers created included.
func RefusingQuotas(results []Result) map[string]bool {
	out := map[string]bool{}
	var walk func(r *Result)
	walk = func(r *Result) {
		if r.Denial != nil && r.Denial.Quota != "" {
			out[r.Namespace+"/"+r.Denial.Quota] = true
		}
		if r.Workload != nil {
			for i := range r.Workload.Created {
				walk(&r.Workload.Created[i])
			}
		}
	}
	for i := range results {
		walk(&results[i])
	}
	return out
}

// SuggestQuotas returns, for every quota of unenforced (an engine that admitted
// the input with Options.UnenforcedQuota) that refused something in the run as
// written (refusing, from RefusingQuotas) or whose usage now exceeds a hard
// limit, the smallest hard values: its usage, for every hard resource some
// evaluator tracks; the others keep their value. Namespaces in order of first
// appearance, quotas in input order.
func SuggestQuotas(refusing map[string]bool, unenforced *Engine) []QuotaSuggestion {
	var out []QuotaSuggestion
	for _, st := range unenforced.Quotas() {
		q := st.Quota
		refused, exceeded := refusing[q.Namespace+"/"+q.Name], false
		hard := corev1.ResourceList{}
		for _, k := range resources.SortedNames(q.Spec.Hard) {
			hard[k] = q.Spec.Hard[k]
			if used, ok := q.Status.Used[k]; ok {
				exceeded = exceeded || used.Cmp(q.Spec.Hard[k]) > 0
				hard[k] = used.DeepCopy()
			}
		}
		if !refused && !exceeded {
			continue
		}
		s := &corev1.ResourceQuota{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ResourceQuota"},
			ObjectMeta: metav1.ObjectMeta{Name: q.Name, Namespace: q.Namespace},
		}
		q.Spec.DeepCopyInto(&s.Spec)
		s.Spec.Hard = hard
		out = append(out, QuotaSuggestion{Quota: s, Was: q.Spec.Hard.DeepCopy(), Refused: refused})
	}
	return out
}
