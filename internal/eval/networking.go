package eval

import (
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/defaults"
	"github.com/limitcheck/limitcheck/internal/eval/features"
	"github.com/limitcheck/limitcheck/internal/eval/validation"
)

// Ingresses and NetworkPolicies (networking.k8s.io/v1): defaulted, prepared
// and validated as kube-apiserver creates them (VAL-65..VAL-68), then charged
// as object counts.

// validateNetworking runs the create path of an Ingress or a NetworkPolicy
// whose name was generated: v1 defaulting, the strategy's PrepareForCreate
// (status cleared, generation 1) and its Validate.
func validateNetworking(obj any, gates features.Gates) field.ErrorList {
	switch o := obj.(type) {
	case *networkingv1.Ingress: // VAL-65, VAL-66: no v1 defaults
		o.Status = networkingv1.IngressStatus{}
		o.Generation = 1
		opts := validation.ServiceOptions{RelaxedNames: gates.Enabled(features.RelaxedServiceNameValidation)}
		return validation.Ingress(o, opts)
	case *networkingv1.NetworkPolicy: // VAL-67, VAL-68: no status to clear
		defaults.NetworkPolicy(o)
		o.Generation = 1
		return validation.NetworkPolicy(o)
	}
	return nil
}
