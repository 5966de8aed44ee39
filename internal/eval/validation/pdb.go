package validation

import (
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// PodDisruptionBudget validation on create (VAL-69).

// unhealthyPodEvictionPolicies are the supported values, sorted as upstream
// lists them.
var unhealthyPodEvictionPolicies = []string{string(policyv1.AlwaysAllow), string(policyv1.IfHealthyBudget)}

// internalPDBSpec is the internal type's spec, which the "both set" error
// holds: no json tags, so its keys are the Go field names and nothing is
// omitted; the label selector inside keeps its own tags.
type internalPDBSpec struct {
	MinAvailable               *intstr.IntOrString
	Selector                   *metav1.LabelSelector
	MaxUnavailable             *intstr.IntOrString
	UnhealthyPodEvictionPolicy *policyv1.UnhealthyPodEvictionPolicyType
}

// PodDisruptionBudget is the PodDisruptionBudget strategy's Validate on a
// prepared PDB (defaults.PreparePodDisruptionBudget): the spec only, in
// order: minAvailable and maxUnavailable both set, each of them a
// non-negative int or a valid percentage of at most 100%, the selector
// (label values checked), unhealthyPodEvictionPolicy. The metadata gets
// only rest.BeforeCreate's generic check, which runs when this passes.
func PodDisruptionBudget(pdb *policyv1.PodDisruptionBudget) field.ErrorList {
	spec, p := &pdb.Spec, field.NewPath("spec")
	var errs field.ErrorList
	if spec.MinAvailable != nil && spec.MaxUnavailable != nil {
		errs = append(errs, field.Invalid(p, internalPDBSpec{MinAvailable: spec.MinAvailable, Selector: spec.Selector,
			MaxUnavailable: spec.MaxUnavailable, UnhealthyPodEvictionPolicy: spec.UnhealthyPodEvictionPolicy},
			"minAvailable and maxUnavailable cannot be both set"))
	}
	for _, f := range []struct {
		name  string
		value *intstr.IntOrString
	}{{"minAvailable", spec.MinAvailable}, {"maxUnavailable", spec.MaxUnavailable}} {
		if f.value != nil {
			errs = append(errs, intOrPercent(*f.value, p.Child(f.name))...)
			errs = append(errs, notOver100Percent(*f.value, p.Child(f.name))...)
		}
	}
	errs = append(errs, LabelSelector(spec.Selector, p.Child("selector"))...)
	if u := spec.UnhealthyPodEvictionPolicy; u != nil && !contains(unhealthyPodEvictionPolicies, string(*u)) {
		errs = append(errs, field.NotSupported(p.Child("unhealthyPodEvictionPolicy"), *u, unhealthyPodEvictionPolicies))
	}
	return errs
}
