package eval

import (
	"fmt"
	"net/netip"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/features"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/eval/validation"
)

// Service create (VAL-60, VAL-64): v1 defaulting, then what the Service
// storage does before the strategy (BeginCreate: IP family defaulting,
// cluster IP and node port allocation), then ValidateServiceCreate.
//
// The simulated cluster's service CIDRs are Options.ServiceCIDRs, kube-apiserver's
// --service-cluster-ip-range: one per IP family, the first the primary (the
// family a Service gets by default, whose first address the Service
// kubernetes holds). Without them it is single-stack IPv4 with kubeadm's
// 10.96.0.0/12 (DefaultServiceCIDRs). Node ports are 30000-32767. A real
// cluster picks free addresses and ports at random; limitcheck's addresses
// are placeholders that never collide, and its node ports are the highest
// free ones (they show in some messages).

// ParseServiceCIDRs reads kube-apiserver's --service-cluster-ip-range:
// one CIDR, or two of different IP families separated by a comma, each with
// room for at least 16 addresses.
func ParseServiceCIDRs(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		p, err := netip.ParsePrefix(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("%q is not a CIDR (10.96.0.0/12, fd00:10:96::/112)", part)
		}
		if p.Addr().Is4In6() {
			return nil, fmt.Errorf("%q is an IPv4-mapped IPv6 CIDR: write it as IPv4", part)
		}
		if p.Addr().BitLen()-p.Bits() < 4 {
			return nil, fmt.Errorf("%q is too small for a service CIDR: it needs room for 16 addresses", part)
		}
		out = append(out, p.Masked())
	}
	switch {
	case len(out) > 2:
		return nil, fmt.Errorf("%q: at most two CIDRs, one per IP family", s)
	case len(out) == 2 && out[0].Addr().Is4() == out[1].Addr().Is4():
		return nil, fmt.Errorf("%q: a dual-stack cluster has one IPv4 and one IPv6 CIDR", s)
	}
	return out, nil
}

// DefaultServiceCIDRs is kubeadm's service CIDR.
var DefaultServiceCIDRs = []netip.Prefix{netip.MustParsePrefix("10.96.0.0/12")}

var nodePortMin, nodePortMax = 30000, 32767

// serviceAllocations are the cluster's service CIDRs, the addresses
// admitted Services named explicitly and the node ports admitted Services
// hold, cluster-wide.
type serviceAllocations struct {
	ranges    []netip.Prefix // one per family, the primary first
	ips       map[string]bool
	nodePorts map[int]bool
	next      int // placeholder address counter
}

// newServiceAllocations: the Service kubernetes holds the primary range's
// first address.
func newServiceAllocations(ranges []netip.Prefix) serviceAllocations {
	if len(ranges) == 0 {
		ranges = DefaultServiceCIDRs
	}
	return serviceAllocations{ranges: ranges, ips: map[string]bool{ranges[0].Masked().Addr().Next().String(): true}, nodePorts: map[int]bool{}}
}

// rangeOf is the cluster's range of family f.
func (a *serviceAllocations) rangeOf(f corev1.IPFamily) (netip.Prefix, bool) {
	for _, r := range a.ranges {
		if ipFamily(r.Addr()) == f {
			return r.Masked(), true
		}
	}
	return netip.Prefix{}, false
}

func ipFamily(addr netip.Addr) corev1.IPFamily {
	if addr.Is4() {
		return corev1.IPv4Protocol
	}
	return corev1.IPv6Protocol
}

// placeholder is the next placeholder address in range r: in the upper half
// of its first 65536 addresses (10.96.128.2, 10.96.128.3, … in
// 10.96.0.0/12), which explicit addresses seldom name.
func (a *serviceAllocations) placeholder(r netip.Prefix) string {
	a.next++
	block := uint64(1) << min(r.Addr().BitLen()-r.Bits(), 16)
	half := block / 2
	n := uint64(a.next)
	var off uint64
	if half >= 256 {
		off = half + 256*((n/250)%(half/256)) + 2 + n%250
	} else {
		off = half + 1 + n%max(half-2, 1)
	}
	b := r.Addr().AsSlice()
	for i := len(b) - 1; off > 0 && i >= 0; i-- {
		sum := uint64(b[i]) + off&0xff
		b[i] = byte(sum)
		off = off>>8 + sum>>8
	}
	addr, _ := netip.AddrFromSlice(b)
	return addr.String()
}

// defaultService is SetDefaults_Service (v1).
func defaultService(svc *corev1.Service) {
	s := &svc.Spec
	if s.SessionAffinity == "" {
		s.SessionAffinity = corev1.ServiceAffinityNone
	}
	if s.SessionAffinity == corev1.ServiceAffinityNone {
		s.SessionAffinityConfig = nil
	}
	if s.SessionAffinity == corev1.ServiceAffinityClientIP {
		if c := s.SessionAffinityConfig; c == nil || c.ClientIP == nil || c.ClientIP.TimeoutSeconds == nil {
			t := corev1.DefaultClientIPServiceAffinitySeconds
			s.SessionAffinityConfig = &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: &t}}
		}
	}
	if s.Type == "" {
		s.Type = corev1.ServiceTypeClusterIP
	}
	for i := range s.Ports {
		p := &s.Ports[i]
		if p.Protocol == "" {
			p.Protocol = corev1.ProtocolTCP
		}
		if p.TargetPort == intstr.FromInt32(0) || p.TargetPort == intstr.FromString("") {
			p.TargetPort = intstr.FromInt32(p.Port)
		}
	}
	if validation.ExternallyAccessible(svc) && s.ExternalTrafficPolicy == "" {
		s.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyCluster
	}
	if s.InternalTrafficPolicy == nil && (s.Type == corev1.ServiceTypeNodePort || s.Type == corev1.ServiceTypeLoadBalancer || s.Type == corev1.ServiceTypeClusterIP) {
		p := corev1.ServiceInternalTrafficPolicyCluster
		s.InternalTrafficPolicy = &p
	}
	if s.Type == corev1.ServiceTypeLoadBalancer && s.AllocateLoadBalancerNodePorts == nil {
		on := true
		s.AllocateLoadBalancerNodePorts = &on
	}
	if s.Type == corev1.ServiceTypeLoadBalancer {
		vip := corev1.LoadBalancerIPModeVIP
		for i, ing := range svc.Status.LoadBalancer.Ingress {
			if ing.IP != "" && ing.IPMode == nil {
				svc.Status.LoadBalancer.Ingress[i].IPMode = &vip
			}
		}
	}
}

// admitService: defaulting, name generation, allocation, validation, quota.
// commit, when the Service is admitted, keeps what it reserved.
func (e *Engine) admitService(ns *namespaceState, gr schema.GroupResource, svc *corev1.Service) (d *status.Denial, commit func()) {
	defaultService(svc)
	assignName(&svc.ObjectMeta)
	gk := schema.GroupKind{Kind: "Service"}
	if e.services.ips == nil {
		e.services = newServiceAllocations(e.opts.ServiceCIDRs)
	}
	ips, ports, d := e.services.allocate(svc)
	if d != nil {
		return d, nil
	}
	svc.Status = corev1.ServiceStatus{} // PrepareForCreate
	opts := validation.ServiceOptions{RelaxedNames: e.opts.Gates.Enabled(features.RelaxedServiceNameValidation)}
	if errs := validation.Service(svc, opts); len(errs) > 0 {
		return status.Invalid(gk, svc.Name, errs), nil
	}
	if d := e.quota.Check(&ns.Namespace, gr, svc.Name, svc); d != nil {
		return d, nil
	}
	return nil, func() {
		for _, ip := range ips {
			e.services.ips[ip] = true
		}
		for _, p := range ports {
			e.services.nodePorts[p] = true
		}
	}
}

// ipAddressRefusal is kube-apiserver's refusal of the IPAddress object the
// IP allocator creates for an address of a Service without a name: its
// spec.parentRef names the Service, and a name is required there. The store
// sets a name generated from generateName before the allocation, so only a
// Service with neither gets here, and it is refused for its address before
// metadata.name's own Required error. The object is validated before the
// address is found taken (VAL-64).
func ipAddressRefusal(ip string) string {
	return apierrors.NewInvalid(schema.GroupKind{Group: "networking.k8s.io", Kind: "IPAddress"}, ip,
		field.ErrorList{field.Required(field.NewPath("spec", "parentRef", "name"), "")}).Error()
}

// allocate is the Service storage's beginCreate: it returns the explicit
// addresses and the node ports to reserve, or the refusal (VAL-64).
func (a *serviceAllocations) allocate(svc *corev1.Service) (ips []string, ports []int, d *status.Denial) {
	s := &svc.Spec
	name := svc.Name
	refuse := func(errs ...*field.Error) *status.Denial {
		return status.Invalid(schema.GroupKind{Kind: "Service"}, name, errs)
	}
	sp := field.NewPath("spec")

	// normalizeClusterIPs: an old client's clusterIP alone fills clusterIPs.
	if s.ClusterIP != "" && len(s.ClusterIPs) == 0 {
		s.ClusterIPs = []string{s.ClusterIP}
	}
	if s.Type != corev1.ServiceTypeExternalName {
		if d := a.initIPFamilies(svc); d != nil {
			return nil, nil, d
		}
		// cluster IPs: headless Services get none
		if !(len(s.ClusterIPs) > 0 && s.ClusterIPs[0] == corev1.ClusterIPNone) {
			if s.ClusterIPs == nil {
				s.ClusterIPs = make([]string, 0, len(s.IPFamilies))
			}
			for i, fam := range s.IPFamilies { // families the cluster has, by initIPFamilies
				if i >= len(s.ClusterIPs) {
					s.ClusterIPs = append(s.ClusterIPs, "")
				}
				r, _ := a.rangeOf(fam)
				ip := s.ClusterIPs[i]
				if ip == "" {
					ip = a.placeholder(r)
					if name == "" {
						return nil, nil, refuse(field.Invalid(sp.Child("clusterIPs"), s.ClusterIPs, "failed to allocate IP: "+ipAddressRefusal(ip)))
					}
				} else {
					addr, err := netip.ParseAddr(ip)
					var msg string
					switch {
					case err != nil:
						return nil, nil, internalDenial(fmt.Errorf("failed to parse service IP %q", ip))
					case !r.Contains(addr.Unmap()):
						msg = "the provided network does not match the current range"
					case name == "":
						msg = ipAddressRefusal(ip)
					case a.ips[ip] || contains(ips, ip):
						msg = "provided IP is already allocated"
					}
					if msg != "" {
						return nil, nil, refuse(field.Invalid(sp.Child("clusterIPs"), s.ClusterIPs, fmt.Sprintf("failed to allocate IP %v: %s", ip, msg)))
					}
					ips = append(ips, ip)
				}
				s.ClusterIPs[i] = ip
				if i == 0 {
					s.ClusterIP = ip
				}
			}
		}
	}

	// node ports (initNodePorts)
	taken := func(p int) string {
		switch {
		case p < nodePortMin || p > nodePortMax:
			return fmt.Sprintf("provided port is not in the valid range. The range of valid ports is %d-%d", nodePortMin, nodePortMax)
		case a.nodePorts[p] || containsInt(ports, p):
			return "provided port is already allocated"
		}
		return ""
	}
	// The cluster picks a free port at random; limitcheck takes the highest
	// free one, so that ports the input names (usually low) rarely collide.
	next := func() int {
		for p := nodePortMax; p >= nodePortMin; p-- {
			if !a.nodePorts[p] && !containsInt(ports, p) {
				ports = append(ports, p)
				return p
			}
		}
		return 0
	}
	if s.Type == corev1.ServiceTypeNodePort || s.Type == corev1.ServiceTypeLoadBalancer {
		allocateAll := s.Type == corev1.ServiceTypeNodePort || (s.AllocateLoadBalancerNodePorts != nil && *s.AllocateLoadBalancerNodePorts)
		byPort := map[int32]int{}
		for i := range s.Ports {
			p := &s.Ports[i]
			if p.NodePort == 0 && !allocateAll {
				continue
			}
			np := byPort[p.Port]
			if np == 0 {
				requested := 0
				for _, q := range s.Ports { // the first explicit node port of this port
					if q.Port == p.Port && q.NodePort != 0 {
						requested = int(q.NodePort)
						break
					}
				}
				if requested != 0 {
					if msg := taken(requested); msg != "" {
						return nil, nil, refuse(field.Invalid(sp.Child("ports").Index(i).Child("nodePort"), requested, msg))
					}
					ports = append(ports, requested)
					np = requested
				} else {
					np = next()
				}
				p.NodePort = int32(np)
				byPort[p.Port] = np
			} else if int(p.NodePort) != np {
				if p.NodePort == 0 {
					p.NodePort = int32(np)
				} else {
					if msg := taken(int(p.NodePort)); msg != "" {
						return nil, nil, refuse(field.Invalid(sp.Child("ports").Index(i).Child("nodePort"), p.NodePort, msg))
					}
					ports = append(ports, int(p.NodePort))
				}
			}
		}
	}
	if validation.NeedsHealthCheck(svc) {
		if hc := int(s.HealthCheckNodePort); hc != 0 {
			if msg := taken(hc); msg != "" {
				return nil, nil, internalDenial(fmt.Errorf("failed to allocate requested HealthCheck NodePort %v: %v", hc, msg))
			}
			ports = append(ports, hc)
		} else {
			s.HealthCheckNodePort = int32(next())
		}
	}
	return ips, ports, nil
}

// initIPFamilies is initIPFamilyFields on create: policy and families
// defaulted from the cluster's ranges, the cluster-IP fields checked first (a
// refusal then lists only those errors).
func (a *serviceAllocations) initIPFamilies(svc *corev1.Service) *status.Denial {
	s := &svc.Spec
	refuse := func(errs field.ErrorList) *status.Denial {
		return status.Invalid(schema.GroupKind{Kind: "Service"}, svc.Name, errs)
	}
	if s.IPFamilyPolicy == nil {
		pol := corev1.IPFamilyPolicySingleStack
		if s.ClusterIP == corev1.ClusterIPNone && len(s.Selector) == 0 {
			pol = corev1.IPFamilyPolicyRequireDualStack // headless and selectorless
		}
		s.IPFamilyPolicy = &pol
	}
	if errs := validation.ServiceClusterIPs(svc); len(errs) > 0 {
		return refuse(errs)
	}
	configured := func(f corev1.IPFamily) bool { _, ok := a.rangeOf(f); return ok }
	primary := ipFamily(a.ranges[0].Addr())
	other := func(f corev1.IPFamily) corev1.IPFamily {
		if f == corev1.IPv4Protocol {
			return corev1.IPv6Protocol
		}
		return corev1.IPv4Protocol
	}
	var errs field.ErrorList
	polPath := field.NewPath("spec", "ipFamilyPolicy")
	if *s.IPFamilyPolicy == corev1.IPFamilyPolicySingleStack {
		if len(s.ClusterIPs) == 2 {
			errs = append(errs, field.Invalid(polPath, s.IPFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"))
		}
		if len(s.IPFamilies) == 2 {
			errs = append(errs, field.Invalid(polPath, s.IPFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"))
		}
	}
	for i, ip := range s.ClusterIPs {
		if ip == corev1.ClusterIPNone {
			break
		}
		fam := corev1.IPv4Protocol
		if validation.IsIPv6(ip) {
			fam = corev1.IPv6Protocol
		}
		if i >= len(s.IPFamilies) {
			if !configured(fam) {
				errs = append(errs, field.Invalid(field.NewPath("spec", "clusterIPs").Index(i), s.ClusterIPs, fmt.Sprintf("%s is not configured on this cluster", fam)))
			} else {
				s.IPFamilies = append(s.IPFamilies, fam)
			}
		}
	}
	if len(errs) > 0 {
		return refuse(errs)
	}
	if s.ClusterIP == corev1.ClusterIPNone && len(s.Selector) == 0 {
		if len(s.IPFamilies) == 0 {
			s.IPFamilies = []corev1.IPFamily{primary}
		}
		if len(s.IPFamilies) < 2 && *s.IPFamilyPolicy != corev1.IPFamilyPolicySingleStack {
			s.IPFamilies = append(s.IPFamilies, other(s.IPFamilies[0]))
		}
		return nil
	}
	if *s.IPFamilyPolicy == corev1.IPFamilyPolicyRequireDualStack && len(a.ranges) < 2 {
		errs = append(errs, field.Invalid(polPath, s.IPFamilyPolicy, "this cluster is not configured for dual-stack services"))
	}
	for i, f := range s.IPFamilies {
		if !configured(f) {
			errs = append(errs, field.Invalid(field.NewPath("spec", "ipFamilies").Index(i), f, "not configured on this cluster"))
		}
	}
	if len(errs) > 0 {
		return refuse(errs)
	}
	if len(s.IPFamilies) == 0 {
		s.IPFamilies = []corev1.IPFamily{primary}
	}
	if *s.IPFamilyPolicy != corev1.IPFamilyPolicySingleStack && len(s.IPFamilies) == 1 && len(a.ranges) == 2 {
		s.IPFamilies = append(s.IPFamilies, other(s.IPFamilies[0]))
	}
	return nil
}

// internalDenial is apierrors.NewInternalError: HTTP 500, reason InternalError.
func internalDenial(err error) *status.Denial {
	st := apierrors.NewInternalError(err).Status()
	return &status.Denial{Code: st.Code, Reason: st.Reason, Stage: status.StageValidation, Message: st.Message, Parts: []string{st.Message}}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func containsInt(list []int, n int) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}
