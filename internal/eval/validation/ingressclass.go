package validation

import (
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// IngressClass validation on create (VAL-84).

// ingressClassMeta: core's ValidateObjectMeta with a DNS-subdomain name, no
// namespace; PrepareForCreate sets metadata.generation.
var ingressClassMeta = MetaRules{Name: NameDNSSubdomain, KubeFinalizers: true, ClusterScoped: true, SetsGeneration: true}

// maxIngressClassController is the longest spec.controller accepted.
const maxIngressClassController = 250

// ingressClassScopes are the parameters scopes, sorted as the NotSupported
// message lists them.
var ingressClassScopes = []string{networkingv1.IngressClassParametersReferenceScopeCluster, networkingv1.IngressClassParametersReferenceScopeNamespace}

// IngressClass is the strategy's Validate, ValidateIngressClass, on a
// defaulted IngressClass (parameters scope Cluster when absent). The
// declarative checks the strategy also runs are alpha ones that only repeat
// handwritten errors, so these are all it returns: the metadata, the
// controller (at most 250 bytes, a domain-prefixed path), then the
// parameters reference.
func IngressClass(ic *networkingv1.IngressClass) field.ErrorList {
	errs := ObjectMeta(&ic.ObjectMeta, ingressClassMeta, field.NewPath("metadata"))
	sp := field.NewPath("spec")
	cp := sp.Child("controller")
	if len(ic.Spec.Controller) > maxIngressClassController {
		errs = append(errs, field.TooLong(cp, "", maxIngressClassController))
	}
	errs = append(errs, utilvalidation.IsDomainPrefixedPath(cp, ic.Spec.Controller)...)
	if params := ic.Spec.Parameters; params != nil {
		errs = append(errs, ingressClassParameters(params, sp.Child("parameters"))...)
	}
	return errs
}

// ingressClassParameters is validateIngressClassParametersReference: the
// apiGroup, kind and name as an Ingress resource backend's, then a scope
// (required; Cluster or Namespace) and a namespace that Namespace scope
// requires (a DNS label) and Cluster scope forbids.
func ingressClassParameters(params *networkingv1.IngressClassParametersReference, p *field.Path) field.ErrorList {
	errs := ingressResourceBackend(&corev1.TypedLocalObjectReference{APIGroup: params.APIGroup, Kind: params.Kind, Name: params.Name}, p)
	scp, nsp := p.Child("scope"), p.Child("namespace")
	switch {
	case params.Scope == nil:
		errs = append(errs, field.Required(scp, ""))
	case !contains(ingressClassScopes, *params.Scope):
		errs = append(errs, field.NotSupported(scp, *params.Scope, ingressClassScopes))
	case *params.Scope == networkingv1.IngressClassParametersReferenceScopeNamespace:
		if params.Namespace == nil {
			errs = append(errs, field.Required(nsp, "`parameters.scope` is set to 'Namespace'"))
		} else {
			for _, msg := range NameDNSLabel(*params.Namespace, false) {
				errs = append(errs, field.Invalid(nsp, *params.Namespace, msg))
			}
		}
	case params.Namespace != nil:
		errs = append(errs, field.Forbidden(nsp, "`parameters.scope` is set to 'Cluster'"))
	}
	return errs
}
