package validation

import (
	"slices"

	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"
)

// NetworkPolicy validation on create (VAL-68).

// policyPortProtocols are the protocols of a NetworkPolicy port, in the
// order the NotSupported message lists them (not sorted).
var policyPortProtocols = []string{"TCP", "UDP", "SCTP"}

// networkPolicyTypes are the values of spec.policyTypes, in message order.
var networkPolicyTypes = []string{string(networkingv1.PolicyTypeIngress), string(networkingv1.PolicyTypeEgress)}

// NetworkPolicy is the NetworkPolicy strategy's Validate on a defaulted
// policy (VAL-67, VAL-68): ValidateNetworkPolicy with the create options
// (no invalid selector label value, no CIDR allowed unchecked): metadata,
// then the spec. ValidateDeclarativelyWithMigrationChecks returns these
// handwritten errors unchanged: the strategy does not enforce the
// declarative rules (which, for a create, repeat the ipBlock.cidr rule).
func NetworkPolicy(np *networkingv1.NetworkPolicy) field.ErrorList {
	errs := ObjectMeta(&np.ObjectMeta, MetaRulesFor(schema.GroupKind{Group: networkingv1.GroupName, Kind: "NetworkPolicy"}), field.NewPath("metadata"))
	return append(errs, networkPolicySpec(&np.Spec, field.NewPath("spec"))...)
}

// networkPolicySpec is ValidateNetworkPolicySpec: the pod selector, each
// ingress rule's ports and peers, each egress rule's, then policyTypes.
func networkPolicySpec(spec *networkingv1.NetworkPolicySpec, p *field.Path) field.ErrorList {
	errs := LabelSelector(&spec.PodSelector, p.Child("podSelector"))
	for i, rule := range spec.Ingress {
		rp := p.Child("ingress").Index(i)
		errs = append(errs, networkPolicyRule(rule.Ports, rule.From, rp, rp.Child("from"))...)
	}
	for i, rule := range spec.Egress {
		rp := p.Child("egress").Index(i)
		errs = append(errs, networkPolicyRule(rule.Ports, rule.To, rp, rp.Child("to"))...)
	}
	tp := p.Child("policyTypes")
	if len(spec.PolicyTypes) > len(networkPolicyTypes) {
		return append(errs, field.Invalid(tp, &spec.PolicyTypes, "may not specify more than two policyTypes"))
	}
	for i, t := range spec.PolicyTypes {
		if !slices.Contains(networkPolicyTypes, string(t)) {
			errs = append(errs, field.NotSupported(tp.Index(i), t, networkPolicyTypes))
		}
	}
	return errs
}

// networkPolicyRule checks a rule's ports, then its peers (from or to at peersPath).
func networkPolicyRule(ports []networkingv1.NetworkPolicyPort, peers []networkingv1.NetworkPolicyPeer, p, peersPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range ports {
		errs = append(errs, policyPort(&ports[i], p.Child("ports").Index(i))...)
	}
	for i := range peers {
		errs = append(errs, policyPeer(&peers[i], peersPath.Index(i))...)
	}
	return errs
}

// policyPort is ValidateNetworkPolicyPort: a known protocol; a numeric port
// in range, with an endPort (in range) not below it; a named port an IANA
// service name, without endPort; no endPort without a port.
func policyPort(port *networkingv1.NetworkPolicyPort, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if pr := port.Protocol; pr != nil && !slices.Contains(policyPortProtocols, string(*pr)) {
		errs = append(errs, field.NotSupported(p.Child("protocol"), *pr, policyPortProtocols))
	}
	end := port.EndPort
	switch {
	case port.Port == nil:
		if end != nil {
			errs = append(errs, field.Invalid(p.Child("endPort"), *end, "may not be specified when `port` is not specified"))
		}
	case port.Port.Type == intstr.Int:
		n := port.Port.IntVal
		for _, msg := range validation.IsValidPortNum(int(n)) {
			errs = append(errs, field.Invalid(p.Child("port"), n, msg))
		}
		if end != nil {
			if *end < n {
				// Upstream shows the port's value, not endPort's.
				errs = append(errs, field.Invalid(p.Child("endPort"), n, "must be greater than or equal to `port`"))
			}
			for _, msg := range validation.IsValidPortNum(int(*end)) {
				errs = append(errs, field.Invalid(p.Child("endPort"), *end, msg))
			}
		}
	default:
		if end != nil {
			errs = append(errs, field.Invalid(p.Child("endPort"), *end, "may not be specified when `port` is non-numeric"))
		}
		for _, msg := range validation.IsValidPortName(port.Port.StrVal) {
			errs = append(errs, field.Invalid(p.Child("port"), port.Port.StrVal, msg))
		}
	}
	return errs
}

// policyPeer is ValidateNetworkPolicyPeer: each selector given (VAL-02's
// label rules), the ipBlock; at least one of the three, and an ipBlock
// alone.
func policyPeer(peer *networkingv1.NetworkPolicyPeer, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	n := 0
	if peer.PodSelector != nil {
		n++
		errs = append(errs, LabelSelector(peer.PodSelector, p.Child("podSelector"))...)
	}
	if peer.NamespaceSelector != nil {
		n++
		errs = append(errs, LabelSelector(peer.NamespaceSelector, p.Child("namespaceSelector"))...)
	}
	if peer.IPBlock != nil {
		n++
		errs = append(errs, ipBlock(peer.IPBlock, p.Child("ipBlock"))...)
	}
	switch {
	case n == 0:
		errs = append(errs, field.Required(p, "must specify a peer"))
	case n > 1 && peer.IPBlock != nil:
		errs = append(errs, field.Forbidden(p, "may not specify both ipBlock and another peer"))
	}
	return errs
}

// ipBlock is ValidateIPBlock: a cidr (required) valid as a legacy CIDR
// field under StrictIPCIDRValidation (on in 1.36); each except valid too and
// a strict subset of the cidr. A value the strict rules refuse but that
// still parses (leading zeros, bits beyond the prefix) is compared as parsed.
func ipBlock(b *networkingv1.IPBlock, p *field.Path) field.ErrorList {
	cp := p.Child("cidr")
	if b.CIDR == "" {
		return field.ErrorList{field.Required(cp, "")}
	}
	errs := validation.IsValidCIDRForLegacyField(cp, b.CIDR, true, nil)
	_, cidr, err := netutils.ParseCIDRSloppy(b.CIDR)
	if err != nil {
		return errs
	}
	cidrBits, _ := cidr.Mask.Size()
	for i, s := range b.Except {
		ep := p.Child("except").Index(i)
		errs = append(errs, validation.IsValidCIDRForLegacyField(ep, s, true, nil)...)
		_, except, err := netutils.ParseCIDRSloppy(s)
		if err != nil {
			continue
		}
		if exceptBits, _ := except.Mask.Size(); !cidr.Contains(except.IP) || cidrBits >= exceptBits {
			errs = append(errs, field.Invalid(ep, s, "must be a strict subset of `cidr`"))
		}
	}
	return errs
}
