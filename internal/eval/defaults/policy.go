package defaults

import (
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PodDisruptionBudgets (VAL-69): policy/v1 registers no defaulting function;
// what happens before validation is the conversion to the internal type and
// the strategy's PrepareForCreate.

// pdbV1beta1Label is the label key policy/v1beta1 used to spell a selector
// that matches nothing (policy.PDBV1beta1Label).
const pdbV1beta1Label = "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match"

// PreparePodDisruptionBudget does to a policy/v1 PodDisruptionBudget what
// kube-apiserver does between decoding and validation: the v1 conversion
// drops every selector expression on the deprecated v1beta1 label unless the
// selector is exactly the match-everything one (empty) or the match-nothing
// one (that one expression, operator Exists, no values); PrepareForCreate
// then clears status and sets metadata.generation to 1.
func PreparePodDisruptionBudget(pdb *policyv1.PodDisruptionBudget) {
	if sel := pdb.Spec.Selector; sel != nil && !pdbSpecialSelector(sel) {
		kept := sel.MatchExpressions[:0]
		for _, r := range sel.MatchExpressions {
			if r.Key != pdbV1beta1Label {
				kept = append(kept, r)
			}
		}
		sel.MatchExpressions = kept
	}
	pdb.Status = policyv1.PodDisruptionBudgetStatus{}
	pdb.Generation = 1
}

// pdbSpecialSelector reports whether sel is semantically equal (nil and empty
// collections alike) to the match-all or the match-none selector the v1
// conversion preserves.
func pdbSpecialSelector(sel *metav1.LabelSelector) bool {
	if len(sel.MatchLabels) > 0 {
		return false
	}
	switch len(sel.MatchExpressions) {
	case 0:
		return true
	case 1:
		r := sel.MatchExpressions[0]
		return r.Key == pdbV1beta1Label && r.Operator == metav1.LabelSelectorOpExists && len(r.Values) == 0
	}
	return false
}
