package eval

import (
	"fmt"
	"net/netip"

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
// The simulated cluster is single-stack IPv4, with kubeadm's defaults:
// service CIDR 10.96.0.0/12 (10.96.0.1 held by the Service kubernetes) and
// node ports 30000-32767. A real cluster picks free addresses and ports at
// random; limitcheck's addresses are placeholders that never collide, and
// its node ports are the highest free ones (they show in some messages).

var (
	serviceCIDR              = netip.MustParsePrefix("10.96.0.0/12")
	kubernetesServiceIP      = "10.96.0.1"
	nodePortMin, nodePortMax = 30000, 32767
)

// serviceAllocations are the addresses admitted Services named explicitly
// and the node ports admitted Services hold, cluster-wide.
type serviceAllocations struct {
	ips       map[string]bool
	nodePorts map[int]bool
	next      int // placeholder address counter
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
		e.services = serviceAllocations{ips: map[string]bool{kubernetesServiceIP: true}, nodePorts: map[int]bool{}}
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

// allocate is the Service storage's beginCreate for a single-stack IPv4
// cluster: it returns the explicit addresses and the node ports to reserve,
// or the refusal (VAL-64).
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
			for i := range s.IPFamilies { // IPv4 only, by initIPFamilies
				if i >= len(s.ClusterIPs) {
					s.ClusterIPs = append(s.ClusterIPs, "")
				}
				ip := s.ClusterIPs[i]
				if ip == "" {
					a.next++
					ip = fmt.Sprintf("10.96.%d.%d", 128+a.next/250%128, 2+a.next%250) // placeholder
					if name == "" {
						return nil, nil, refuse(field.Invalid(sp.Child("clusterIPs"), s.ClusterIPs, "failed to allocate IP: "+ipAddressRefusal(ip)))
					}
				} else {
					addr, err := netip.ParseAddr(ip)
					var msg string
					switch {
					case err != nil:
						return nil, nil, internalDenial(fmt.Errorf("failed to parse service IP %q", ip))
					case !serviceCIDR.Contains(addr):
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

// initIPFamilies is initIPFamilyFields on create in a single-stack IPv4
// cluster: policy and families defaulted, the cluster-IP fields checked
// first (a refusal then lists only those errors).
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
			if fam != corev1.IPv4Protocol {
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
			s.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol}
		}
		if len(s.IPFamilies) < 2 && *s.IPFamilyPolicy != corev1.IPFamilyPolicySingleStack {
			alt := corev1.IPv6Protocol
			if s.IPFamilies[0] != corev1.IPv4Protocol {
				alt = corev1.IPv4Protocol
			}
			s.IPFamilies = append(s.IPFamilies, alt)
		}
		return nil
	}
	if *s.IPFamilyPolicy == corev1.IPFamilyPolicyRequireDualStack {
		errs = append(errs, field.Invalid(polPath, s.IPFamilyPolicy, "this cluster is not configured for dual-stack services"))
	}
	for i, f := range s.IPFamilies {
		if f != corev1.IPv4Protocol {
			errs = append(errs, field.Invalid(field.NewPath("spec", "ipFamilies").Index(i), f, "not configured on this cluster"))
		}
	}
	if len(errs) > 0 {
		return refuse(errs)
	}
	if len(s.IPFamilies) == 0 {
		s.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol}
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
