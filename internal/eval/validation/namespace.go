package validation

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// namespaceMeta: ValidateNamespaceName (a DNS label) through core's
// ValidateObjectMeta, cluster-scoped.
var namespaceMeta = MetaRules{Name: NameDNSLabel, KubeFinalizers: true, ClusterScoped: true}

// Namespace is the Namespace strategy's Validate on a defaulted Namespace
// (NS-03): the metadata (the name a DNS label; the kubernetes.io/metadata.name
// label defaulting gives it is checked with the others), then every
// spec.finalizers entry, each at the list's own path (upstream passes no
// index): a qualified name, and an unqualified one must be a standard
// finalizer name.
func Namespace(ns *corev1.Namespace) field.ErrorList {
	errs := ObjectMeta(&ns.ObjectMeta, namespaceMeta, field.NewPath("metadata"))
	fp := field.NewPath("spec", "finalizers")
	for _, f := range ns.Spec.Finalizers {
		errs = append(errs, apimachineryvalidation.ValidateFinalizerName(string(f), fp)...)
		if !strings.Contains(string(f), "/") && !standardFinalizers[string(f)] {
			errs = append(errs, field.Invalid(fp, string(f), "name is neither a standard finalizer name nor is it fully qualified"))
		}
	}
	return errs
}
