package defaults

import (
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

// networking.k8s.io/v1 defaulting (VAL-65, VAL-67). The v1 API defaults
// nothing in an Ingress (VAL-65); the strategies' PrepareForCreate is in
// internal/eval (networking.go).

// NetworkPolicy is the v1 defaulting of a NetworkPolicy,
// SetObjectDefaults_NetworkPolicy (VAL-67): policyTypes, when empty, becomes
// [Ingress], plus Egress when the policy has egress rules; then every port
// of every ingress and egress rule without a protocol gets TCP.
func NetworkPolicy(np *networkingv1.NetworkPolicy) {
	spec := &np.Spec
	if len(spec.PolicyTypes) == 0 {
		spec.PolicyTypes = []networkingv1.PolicyType{networkingv1.PolicyTypeIngress}
		if len(spec.Egress) != 0 {
			spec.PolicyTypes = append(spec.PolicyTypes, networkingv1.PolicyTypeEgress)
		}
	}
	for i := range spec.Ingress {
		defaultPolicyPorts(spec.Ingress[i].Ports)
	}
	for i := range spec.Egress {
		defaultPolicyPorts(spec.Egress[i].Ports)
	}
}

func defaultPolicyPorts(ports []networkingv1.NetworkPolicyPort) {
	for i := range ports {
		if ports[i].Protocol == nil {
			tcp := corev1.ProtocolTCP
			ports[i].Protocol = &tcp
		}
	}
}

// IngressClass is the v1 defaulting of an IngressClass,
// SetObjectDefaults_IngressClass (VAL-84): parameters without a scope get
// scope Cluster.
func IngressClass(ic *networkingv1.IngressClass) {
	if p := ic.Spec.Parameters; p != nil && p.Scope == nil {
		s := networkingv1.IngressClassParametersReferenceScopeCluster
		p.Scope = &s
	}
}
