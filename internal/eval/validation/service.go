package validation

import (
	"fmt"
	"net"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Service validation on create (VAL-60): ValidateServiceCreate on a Service
// after v1 defaulting and after the storage layer's IP family defaulting and
// allocation (eval/service.go), which run before the strategy's validation.

const maxAffinitySeconds int32 = 86400 // core.MaxClientIPServiceAffinitySeconds

// Value lists as upstream's messages print them (sets.List sorts).
var (
	serviceTypes         = []string{"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"}
	sessionAffinities    = []string{"ClientIP", "None"}
	portProtocols        = []string{"SCTP", "TCP", "UDP"}
	trafficPolicies      = []string{"Cluster", "Local"}
	ipFamilies           = []string{"IPv4", "IPv6"}
	ipFamilyPolicies     = []string{"PreferDualStack", "RequireDualStack", "SingleStack"}
	trafficDistributions = []string{ // PreferSameTrafficDistribution is GA: upstream's order
		corev1.ServiceTrafficDistributionPreferClose, corev1.ServiceTrafficDistributionPreferSameZone, corev1.ServiceTrafficDistributionPreferSameNode,
	}
)

// ServiceOptions: the gates Service validation reads.
type ServiceOptions struct {
	// RelaxedNames: RelaxedServiceNameValidation (on in 1.36): a name is a
	// DNS-1123 label rather than a DNS-1035 label (may start with a digit).
	RelaxedNames bool
}

// ServiceMetaRules are the metadata rules of ValidateServiceCreate.
func ServiceMetaRules(opts ServiceOptions) MetaRules {
	if opts.RelaxedNames {
		return MetaRules{Name: NameDNSLabel, KubeFinalizers: true}
	}
	return MetaRules{Name: NameDNS1035Label, KubeFinalizers: true}
}

// Service is ValidateServiceCreate: metadata, then the spec in upstream
// order (VAL-60).
func Service(svc *corev1.Service, opts ServiceOptions) field.ErrorList {
	errs := ObjectMeta(&svc.ObjectMeta, ServiceMetaRules(opts), field.NewPath("metadata"))
	return append(errs, serviceSpec(svc)...)
}

func isHeadless(svc *corev1.Service) bool {
	return len(svc.Spec.ClusterIPs) == 1 && svc.Spec.ClusterIPs[0] == corev1.ClusterIPNone
}

// ExternallyAccessible: the Service is reachable from outside the cluster
// (upstream's apiservice.ExternallyAccessible).
func ExternallyAccessible(svc *corev1.Service) bool {
	t := svc.Spec.Type
	return t == corev1.ServiceTypeLoadBalancer || t == corev1.ServiceTypeNodePort ||
		(t == corev1.ServiceTypeClusterIP && len(svc.Spec.ExternalIPs) > 0)
}

// NeedsHealthCheck: a LoadBalancer with externalTrafficPolicy Local.
func NeedsHealthCheck(svc *corev1.Service) bool {
	return svc.Spec.Type == corev1.ServiceTypeLoadBalancer && svc.Spec.ExternalTrafficPolicy == corev1.ServiceExternalTrafficPolicyLocal
}

// servicePortKey is what upstream's duplicate-port error prints: the internal
// core.ServicePort (no JSON tags) with only protocol and port set.
type servicePortKey struct {
	Name        string
	Protocol    corev1.Protocol
	AppProtocol *string
	Port        int32
	TargetPort  intstr.IntOrString
	NodePort    int32
}

func serviceSpec(svc *corev1.Service) field.ErrorList {
	var errs field.ErrorList
	spec := &svc.Spec
	sp := field.NewPath("spec")

	hints, hasHints := svc.Annotations[corev1.DeprecatedAnnotationTopologyAwareHints]
	mode, hasMode := svc.Annotations[corev1.AnnotationTopologyMode]
	if hasHints && hasMode && mode != hints {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "annotations").Key(corev1.AnnotationTopologyMode), mode,
			fmt.Sprintf("must match annotations[%s] when both are specified", corev1.DeprecatedAnnotationTopologyAwareHints)))
	}

	headless := isHeadless(svc)
	if len(spec.Ports) == 0 && !headless && spec.Type != corev1.ServiceTypeExternalName {
		errs = append(errs, field.Required(sp.Child("ports"), ""))
	}
	switch spec.Type {
	case corev1.ServiceTypeLoadBalancer, corev1.ServiceTypeNodePort:
		if headless {
			errs = append(errs, field.Invalid(sp.Child("clusterIPs").Index(0), spec.ClusterIPs[0], fmt.Sprintf("may not be set to 'None' for %s services", spec.Type)))
		}
	case corev1.ServiceTypeExternalName:
		if len(spec.ClusterIPs) > 0 {
			errs = append(errs, field.Forbidden(sp.Child("clusterIPs"), "may not be set for ExternalName services"))
		}
		if len(spec.IPFamilies) > 0 {
			errs = append(errs, field.Forbidden(sp.Child("ipFamilies"), "may not be set for ExternalName services"))
		}
		if spec.IPFamilyPolicy != nil {
			errs = append(errs, field.Forbidden(sp.Child("ipFamilyPolicy"), "may not be set for ExternalName services"))
		}
		// a trailing dot marks a fully qualified CNAME
		if cname := strings.TrimSuffix(spec.ExternalName, "."); cname != "" {
			for _, msg := range namecheck.IsDNS1123Subdomain(cname) {
				errs = append(errs, field.Invalid(sp.Child("externalName"), cname, msg))
			}
		} else {
			errs = append(errs, field.Required(sp.Child("externalName"), ""))
		}
	}

	names := map[string]bool{}
	for i := range spec.Ports {
		errs = append(errs, servicePort(&spec.Ports[i], len(spec.Ports) > 1, names, sp.Child("ports").Index(i))...)
	}
	if spec.Selector != nil {
		errs = append(errs, Labels(spec.Selector, sp.Child("selector"))...)
	}

	switch spec.SessionAffinity {
	case "":
		errs = append(errs, field.Required(sp.Child("sessionAffinity"), ""))
	case corev1.ServiceAffinityClientIP, corev1.ServiceAffinityNone:
	default:
		errs = append(errs, field.NotSupported(sp.Child("sessionAffinity"), spec.SessionAffinity, sessionAffinities))
	}
	cfg := sp.Child("sessionAffinityConfig")
	switch spec.SessionAffinity {
	case corev1.ServiceAffinityClientIP:
		why := "when session affinity type is ClientIP"
		switch c := spec.SessionAffinityConfig; {
		case c == nil:
			errs = append(errs, field.Required(cfg, why))
		case c.ClientIP == nil:
			errs = append(errs, field.Required(cfg.Child("clientIP"), why))
		case c.ClientIP.TimeoutSeconds == nil:
			errs = append(errs, field.Required(cfg.Child("clientIP", "timeoutSeconds"), why))
		default:
			if t := c.ClientIP.TimeoutSeconds; *t <= 0 || *t > maxAffinitySeconds {
				errs = append(errs, field.Invalid(cfg.Child("clientIP", "timeoutSeconds"), t, fmt.Sprintf("must be greater than 0 and less than %d", maxAffinitySeconds)))
			}
		}
	case corev1.ServiceAffinityNone:
		if spec.SessionAffinityConfig != nil {
			errs = append(errs, field.Forbidden(cfg, "must not be set when session affinity is None"))
		}
	}

	errs = append(errs, ServiceClusterIPs(svc)...)

	for i, ip := range spec.ExternalIPs {
		p := sp.Child("externalIPs").Index(i)
		if e := validation.IsValidIPForLegacyField(p, ip, true, nil); len(e) > 0 {
			errs = append(errs, e...)
		} else {
			errs = append(errs, endpointIP(ip, p)...)
		}
	}

	switch {
	case spec.Type == "":
		errs = append(errs, field.Required(sp.Child("type"), ""))
	case !contains(serviceTypes, string(spec.Type)):
		errs = append(errs, field.NotSupported(sp.Child("type"), spec.Type, serviceTypes))
	}
	if spec.Type == corev1.ServiceTypeClusterIP {
		for i := range spec.Ports {
			if spec.Ports[i].NodePort != 0 {
				errs = append(errs, field.Forbidden(sp.Child("ports").Index(i).Child("nodePort"), "may not be used when `type` is 'ClusterIP'"))
			}
		}
	}
	type protoPort struct {
		proto corev1.Protocol
		port  int32
	}
	seenNodePorts := map[protoPort]bool{}
	for i, port := range spec.Ports {
		if port.NodePort == 0 {
			continue
		}
		k := protoPort{port.Protocol, port.NodePort}
		if seenNodePorts[k] {
			errs = append(errs, field.Duplicate(sp.Child("ports").Index(i).Child("nodePort"), port.NodePort))
		}
		seenNodePorts[k] = true
	}
	seenPorts := map[protoPort]bool{}
	for i, port := range spec.Ports {
		k := protoPort{port.Protocol, port.Port}
		if seenPorts[k] {
			errs = append(errs, field.Duplicate(sp.Child("ports").Index(i), servicePortKey{Protocol: port.Protocol, Port: port.Port}))
		}
		seenPorts[k] = true
	}

	if len(spec.LoadBalancerSourceRanges) > 0 {
		p := sp.Child("LoadBalancerSourceRanges") // sic
		if spec.Type != corev1.ServiceTypeLoadBalancer {
			errs = append(errs, field.Forbidden(p, "may only be used when `type` is 'LoadBalancer'"))
		}
		for i, v := range spec.LoadBalancerSourceRanges {
			// space padding is tolerated, a legacy of the annotation
			errs = append(errs, validation.IsValidCIDRForLegacyField(p.Index(i), strings.TrimSpace(v), true, nil)...)
		}
	} else if v, ok := svc.Annotations[corev1.AnnotationLoadBalancerSourceRangesKey]; ok {
		p := field.NewPath("metadata", "annotations").Key(corev1.AnnotationLoadBalancerSourceRangesKey)
		if spec.Type != corev1.ServiceTypeLoadBalancer {
			errs = append(errs, field.Forbidden(p, "may only be used when `type` is 'LoadBalancer'"))
		}
		if v = strings.TrimSpace(v); v != "" {
			for _, cidr := range strings.Split(v, ",") {
				errs = append(errs, validation.IsValidCIDRForLegacyField(p, strings.TrimSpace(cidr), true, nil)...)
			}
		}
	}

	if spec.AllocateLoadBalancerNodePorts != nil && spec.Type != corev1.ServiceTypeLoadBalancer {
		errs = append(errs, field.Forbidden(sp.Child("allocateLoadBalancerNodePorts"), "may only be used when `type` is 'LoadBalancer'"))
	}
	if spec.Type == corev1.ServiceTypeLoadBalancer && spec.AllocateLoadBalancerNodePorts == nil {
		errs = append(errs, field.Required(field.NewPath("allocateLoadBalancerNodePorts"), "")) // sic: no spec.
	}
	if c := spec.LoadBalancerClass; c != nil {
		if spec.Type == corev1.ServiceTypeLoadBalancer {
			for _, msg := range namecheck.IsQualifiedName(*c) {
				errs = append(errs, field.Invalid(sp.Child("loadBalancerClass"), *c, msg))
			}
		} else {
			errs = append(errs, field.Forbidden(sp.Child("loadBalancerClass"), "may only be used when `type` is 'LoadBalancer'"))
		}
	}

	// externalTrafficPolicy and healthCheckNodePort
	if !ExternallyAccessible(svc) {
		if spec.ExternalTrafficPolicy != "" {
			errs = append(errs, field.Invalid(sp.Child("externalTrafficPolicy"), spec.ExternalTrafficPolicy, "may only be set for externally-accessible services"))
		}
	} else if spec.ExternalTrafficPolicy == "" {
		errs = append(errs, field.Required(sp.Child("externalTrafficPolicy"), ""))
	} else if !contains(trafficPolicies, string(spec.ExternalTrafficPolicy)) {
		errs = append(errs, field.NotSupported(sp.Child("externalTrafficPolicy"), spec.ExternalTrafficPolicy, trafficPolicies))
	}
	hc := sp.Child("healthCheckNodePort")
	if !NeedsHealthCheck(svc) {
		if spec.HealthCheckNodePort != 0 {
			errs = append(errs, field.Invalid(hc, spec.HealthCheckNodePort, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"))
		}
	} else if spec.HealthCheckNodePort == 0 {
		errs = append(errs, field.Required(hc, ""))
	} else {
		for _, msg := range validation.IsValidPortNum(int(spec.HealthCheckNodePort)) {
			errs = append(errs, field.Invalid(hc, spec.HealthCheckNodePort, msg))
		}
	}

	// internalTrafficPolicy
	itp := sp.Child("internalTrafficPolicy")
	if spec.InternalTrafficPolicy == nil {
		if spec.Type == corev1.ServiceTypeNodePort || spec.Type == corev1.ServiceTypeLoadBalancer || spec.Type == corev1.ServiceTypeClusterIP {
			errs = append(errs, field.Required(itp, ""))
		}
	} else if !contains(trafficPolicies, string(*spec.InternalTrafficPolicy)) {
		errs = append(errs, field.NotSupported(itp, *spec.InternalTrafficPolicy, trafficPolicies))
	}

	if td := spec.TrafficDistribution; td != nil && !contains(trafficDistributions, *td) {
		errs = append(errs, field.NotSupported(sp.Child("trafficDistribution"), *td, trafficDistributions))
	}
	return errs
}

// servicePort is validateServicePort.
func servicePort(port *corev1.ServicePort, requireName bool, names map[string]bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if requireName && port.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else if port.Name != "" {
		for _, msg := range namecheck.IsDNS1123Label(port.Name) {
			errs = append(errs, field.Invalid(p.Child("name"), port.Name, msg))
		}
		if names[port.Name] {
			errs = append(errs, field.Duplicate(p.Child("name"), port.Name))
		}
		names[port.Name] = true
	}
	for _, msg := range validation.IsValidPortNum(int(port.Port)) {
		errs = append(errs, field.Invalid(p.Child("port"), port.Port, msg))
	}
	switch {
	case port.Protocol == "":
		errs = append(errs, field.Required(p.Child("protocol"), ""))
	case !contains(portProtocols, string(port.Protocol)):
		errs = append(errs, field.NotSupported(p.Child("protocol"), port.Protocol, portProtocols))
	}
	tp := p.Child("targetPort")
	switch port.TargetPort.Type {
	case intstr.Int:
		for _, msg := range validation.IsValidPortNum(port.TargetPort.IntValue()) {
			errs = append(errs, field.Invalid(tp, port.TargetPort.IntValue(), msg))
		}
	case intstr.String:
		for _, msg := range validation.IsValidPortName(port.TargetPort.StrVal) {
			errs = append(errs, field.Invalid(tp, port.TargetPort.StrVal, msg))
		}
	default:
		errs = append(errs, field.InternalError(tp, fmt.Errorf("unknown type: %v", port.TargetPort.Type)))
	}
	if ap := port.AppProtocol; ap != nil {
		for _, msg := range namecheck.IsQualifiedName(*ap) {
			errs = append(errs, field.Invalid(p.Child("appProtocol"), *ap, msg))
		}
	}
	return errs
}

// endpointIP is ValidateEndpointIP: the address parsed sloppily (leading
// zeros allowed), then the ranges an endpoint may not use.
func endpointIP(s string, p *field.Path) field.ErrorList {
	ip := netutils.ParseIPSloppy(s)
	if ip == nil {
		return field.ErrorList{field.Invalid(p, s, "must be a valid IP address")}
	}
	var errs field.ErrorList
	if ip.IsUnspecified() {
		errs = append(errs, field.Invalid(p, s, fmt.Sprintf("may not be unspecified (%v)", s)))
	}
	if ip.IsLoopback() {
		errs = append(errs, field.Invalid(p, s, "may not be in the loopback range (127.0.0.0/8, ::1/128)"))
	}
	if ip.IsLinkLocalUnicast() {
		errs = append(errs, field.Invalid(p, s, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"))
	}
	if ip.IsLinkLocalMulticast() {
		errs = append(errs, field.Invalid(p, s, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"))
	}
	return errs
}

// IsIPv6 reports whether s is an IPv6 address (upstream's IsIPv6String).
func IsIPv6(s string) bool {
	ip := net.ParseIP(s)
	return ip != nil && ip.To4() == nil
}

// ServiceClusterIPs is ValidateServiceClusterIPsRelatedFields for a create:
// clusterIP and clusterIPs in sync, families and policy known, addresses
// valid and at most one per family, matching ipFamilies. The storage layer
// runs it before allocating (VAL-60).
func ServiceClusterIPs(svc *corev1.Service) field.ErrorList {
	spec := &svc.Spec
	if spec.Type == corev1.ServiceTypeExternalName {
		return nil
	}
	var errs field.ErrorList
	sp := field.NewPath("spec")
	ipsPath, famPath := sp.Child("clusterIPs"), sp.Child("ipFamilies")
	if spec.ClusterIP != "" {
		if len(spec.ClusterIPs) == 0 {
			errs = append(errs, field.Required(ipsPath, ""))
		} else if spec.ClusterIPs[0] != spec.ClusterIP {
			errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "first value must match `clusterIP`"))
		}
	} else if len(spec.ClusterIPs) != 0 {
		errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "must be empty when `clusterIP` is not specified"))
	}
	seen := map[corev1.IPFamily]bool{}
	for i, f := range spec.IPFamilies {
		if !contains(ipFamilies, string(f)) {
			errs = append(errs, field.NotSupported(famPath.Index(i), f, ipFamilies))
		}
		if seen[f] {
			errs = append(errs, field.Duplicate(famPath.Index(i), f))
		}
		seen[f] = true
	}
	if pol := spec.IPFamilyPolicy; pol != nil && !contains(ipFamilyPolicies, string(*pol)) {
		errs = append(errs, field.NotSupported(sp.Child("ipFamilyPolicy"), pol, ipFamilyPolicies))
	}
	bad := false
	for i, ip := range spec.ClusterIPs {
		if i == 0 && ip == corev1.ClusterIPNone {
			if len(spec.ClusterIPs) > 1 {
				bad = true
				errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "'None' must be the first and only value"))
			}
			continue
		}
		e := validation.IsValidIPForLegacyField(ipsPath.Index(i), ip, true, nil)
		bad = bad || len(e) > 0
		errs = append(errs, e...)
	}
	if len(spec.ClusterIPs) > 2 {
		errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "may only hold up to 2 values"))
	}
	if bad {
		return errs
	}
	if len(spec.ClusterIPs) > 1 {
		v4, v6 := false, false
		for _, ip := range spec.ClusterIPs {
			if IsIPv6(ip) {
				v6 = true
			} else {
				v4 = true
			}
		}
		if !v4 || !v6 {
			errs = append(errs, field.Invalid(ipsPath, spec.ClusterIPs, "may specify no more than one IP for each IP family"))
		}
	}
	if !isHeadless(svc) && len(spec.ClusterIPs) > 0 && len(spec.IPFamilies) > 0 {
		for i, ip := range spec.ClusterIPs {
			if i >= len(spec.IPFamilies) {
				break
			}
			if spec.IPFamilies[i] == corev1.IPv4Protocol && IsIPv6(ip) {
				errs = append(errs, field.Invalid(ipsPath.Index(i), ip, fmt.Sprintf("expected an IPv4 value as indicated by `ipFamilies[%v]`", i)))
			}
			if spec.IPFamilies[i] == corev1.IPv6Protocol && !IsIPv6(ip) {
				errs = append(errs, field.Invalid(ipsPath.Index(i), ip, fmt.Sprintf("expected an IPv6 value as indicated by `ipFamilies[%v]`", i)))
			}
		}
	}
	return errs
}
