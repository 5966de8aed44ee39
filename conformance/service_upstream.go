package conformance

import (
	"fmt"
	"net"
	"net/netip"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/util/validation/field"
	apiservice "k8s.io/kubernetes/pkg/api/service"
	api "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/apis/networking"
	netvalidation "k8s.io/kubernetes/pkg/apis/networking/validation"
	"k8s.io/kubernetes/pkg/registry/core/service/ipallocator"
	"k8s.io/kubernetes/pkg/registry/core/service/portallocator"
)

// serviceAlloc stands in for the Service storage's BeginCreate hook
// (pkg/registry/core/service/storage: beginCreate, allocateCreate), which
// runs before the strategy and needs API storage for its allocators. It is a
// transcription of upstream's create path for a cluster with the given
// service CIDRs (one per family, the primary first; node ports
// 30000-32767): normalizeClusterIPs, initIPFamilyFields, allocClusterIPs with
// the MetaAllocator's errors, and initNodePorts / allocHealthCheckNodePort on
// the real in-memory port allocator. Addresses picked automatically come from
// 10.111.0.0/16 or fd00:111::/64, which the generator never names, node
// ports are the highest free ones (a real cluster picks both at random).
type serviceAlloc struct {
	ranges []netip.Prefix // serviceIPAllocatorsByFamily, the default family's first
	ips    map[string]bool
	next   int
	ports  *portallocator.PortAllocator
}

// rangeOf is the allocator of family f, if the cluster has one.
func (a *serviceAlloc) rangeOf(f api.IPFamily) (netip.Prefix, bool) {
	for _, r := range a.ranges {
		if (f == api.IPv4Protocol) == r.Addr().Is4() {
			return r, true
		}
	}
	return netip.Prefix{}, false
}

func (a *serviceAlloc) defaultFamily() api.IPFamily {
	if a.ranges[0].Addr().Is4() {
		return api.IPv4Protocol
	}
	return api.IPv6Protocol
}

func newServiceAlloc(ranges []netip.Prefix) (*serviceAlloc, error) {
	pr, err := utilnet.ParsePortRange("30000-32767")
	if err != nil {
		return nil, err
	}
	ports, err := portallocator.NewInMemory(*pr)
	if err != nil {
		return nil, err
	}
	if len(ranges) == 0 {
		ranges = []netip.Prefix{netip.MustParsePrefix("10.96.0.0/12")}
	}
	// the Service kubernetes in namespace default holds the first address
	return &serviceAlloc{ranges: ranges, ips: map[string]bool{ranges[0].Masked().Addr().Next().String(): true}, ports: ports}, nil
}

// begin allocates for svc; finish(true) keeps the allocation, finish(false)
// releases it (Store.create's finishCreate).
func (a *serviceAlloc) begin(svc *api.Service) (finish func(bool), err error) {
	if len(svc.Spec.ClusterIP) > 0 && len(svc.Spec.ClusterIPs) == 0 {
		svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
	}
	if err := a.initIPFamilyFields(svc); err != nil {
		return nil, err
	}
	ips, err := a.allocClusterIPs(svc)
	if err != nil {
		return nil, err
	}
	op := portallocator.StartOperation(a.ports, false)
	release := func() {
		op.Finish()
		for _, ip := range ips {
			delete(a.ips, ip)
		}
	}
	if svc.Spec.Type == api.ServiceTypeNodePort || svc.Spec.Type == api.ServiceTypeLoadBalancer {
		if err := initNodePorts(svc, op, a.ports); err != nil {
			release()
			return nil, err
		}
	}
	if apiservice.NeedsHealthCheck(svc) {
		if hc := svc.Spec.HealthCheckNodePort; hc != 0 {
			if err := op.Allocate(int(hc)); err != nil {
				release()
				return nil, apierrors.NewInternalError(fmt.Errorf("failed to allocate requested HealthCheck NodePort %v: %v", hc, err))
			}
		} else {
			hc, err := allocNext(op, a.ports)
			if err != nil {
				release()
				return nil, apierrors.NewInternalError(fmt.Errorf("failed to allocate a HealthCheck NodePort %v: %v", hc, err))
			}
			svc.Spec.HealthCheckNodePort = int32(hc)
		}
	}
	return func(success bool) {
		if success {
			op.Commit()
			op.Finish()
			return
		}
		release()
	}, nil
}

func (a *serviceAlloc) initIPFamilyFields(service *api.Service) error {
	if service.Spec.Type == api.ServiceTypeExternalName {
		return nil
	}
	if service.Spec.IPFamilyPolicy == nil {
		if service.Spec.ClusterIP == api.ClusterIPNone && len(service.Spec.Selector) == 0 {
			p := api.IPFamilyPolicyRequireDualStack
			service.Spec.IPFamilyPolicy = &p
		} else {
			p := api.IPFamilyPolicySingleStack
			service.Spec.IPFamilyPolicy = &p
		}
	}
	if el := validation.ValidateServiceClusterIPsRelatedFields(service, nil); len(el) != 0 {
		return apierrors.NewInvalid(api.Kind("Service"), service.Name, el)
	}
	el := make(field.ErrorList, 0)
	if *service.Spec.IPFamilyPolicy == api.IPFamilyPolicySingleStack {
		if len(service.Spec.ClusterIPs) == 2 {
			el = append(el, field.Invalid(field.NewPath("spec", "ipFamilyPolicy"), service.Spec.IPFamilyPolicy,
				"must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"))
		}
		if len(service.Spec.IPFamilies) == 2 {
			el = append(el, field.Invalid(field.NewPath("spec", "ipFamilyPolicy"), service.Spec.IPFamilyPolicy,
				"must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"))
		}
	}
	for i, ip := range service.Spec.ClusterIPs {
		if ip == api.ClusterIPNone {
			break
		}
		fam := api.IPv4Protocol
		if p := net.ParseIP(ip); p != nil && p.To4() == nil { // netutils.IsIPv6String
			fam = api.IPv6Protocol
		}
		if i >= len(service.Spec.IPFamilies) {
			if _, found := a.rangeOf(fam); !found {
				el = append(el, field.Invalid(field.NewPath("spec", "clusterIPs").Index(i), service.Spec.ClusterIPs,
					fmt.Sprintf("%s is not configured on this cluster", fam)))
			} else {
				service.Spec.IPFamilies = append(service.Spec.IPFamilies, fam)
			}
		}
	}
	if len(el) > 0 {
		return apierrors.NewInvalid(api.Kind("Service"), service.Name, el)
	}
	alt := func(f api.IPFamily) api.IPFamily {
		if f == api.IPv4Protocol {
			return api.IPv6Protocol
		}
		return api.IPv4Protocol
	}
	if service.Spec.ClusterIP == api.ClusterIPNone && len(service.Spec.Selector) == 0 {
		if len(service.Spec.IPFamilies) == 0 {
			service.Spec.IPFamilies = []api.IPFamily{a.defaultFamily()}
		}
		if len(service.Spec.IPFamilies) < 2 && *service.Spec.IPFamilyPolicy != api.IPFamilyPolicySingleStack {
			service.Spec.IPFamilies = append(service.Spec.IPFamilies, alt(service.Spec.IPFamilies[0]))
		}
		return nil
	}
	if *service.Spec.IPFamilyPolicy == api.IPFamilyPolicyRequireDualStack && len(a.ranges) < 2 {
		el = append(el, field.Invalid(field.NewPath("spec", "ipFamilyPolicy"), service.Spec.IPFamilyPolicy,
			"this cluster is not configured for dual-stack services"))
	}
	for i, ipFamily := range service.Spec.IPFamilies {
		if _, found := a.rangeOf(ipFamily); !found {
			el = append(el, field.Invalid(field.NewPath("spec", "ipFamilies").Index(i), ipFamily, "not configured on this cluster"))
		}
	}
	if len(el) > 0 {
		return apierrors.NewInvalid(api.Kind("Service"), service.Name, el)
	}
	if len(service.Spec.IPFamilies) == 0 {
		service.Spec.IPFamilies = []api.IPFamily{a.defaultFamily()}
	}
	if *service.Spec.IPFamilyPolicy != api.IPFamilyPolicySingleStack && len(service.Spec.IPFamilies) == 1 && len(a.ranges) == 2 {
		service.Spec.IPFamilies = append(service.Spec.IPFamilies, alt(service.Spec.IPFamilies[0]))
	}
	return nil
}

// allocClusterIPs returns the addresses it reserved.
func (a *serviceAlloc) allocClusterIPs(service *api.Service) ([]string, error) {
	if service.Spec.Type == api.ServiceTypeExternalName {
		return nil, nil
	}
	if len(service.Spec.ClusterIPs) > 0 && service.Spec.ClusterIPs[0] == api.ClusterIPNone {
		return nil, nil
	}
	if service.Spec.ClusterIPs == nil {
		service.Spec.ClusterIPs = make([]string, 0, len(service.Spec.IPFamilies))
	}
	var got []string
	for i := range service.Spec.IPFamilies {
		if i > len(service.Spec.ClusterIPs)-1 {
			service.Spec.ClusterIPs = append(service.Spec.ClusterIPs, "")
		}
		ip := service.Spec.ClusterIPs[i]
		cidr, _ := a.rangeOf(service.Spec.IPFamilies[i])
		if ip == "" {
			a.next++
			ip = fmt.Sprintf("10.111.%d.%d", a.next/250, 1+a.next%250)
			if service.Spec.IPFamilies[i] == api.IPv6Protocol {
				ip = fmt.Sprintf("fd00:111::%x", a.next)
			}
			if err := createIPAddress(ip, service); err != nil {
				el := field.ErrorList{field.Invalid(field.NewPath("spec", "clusterIPs"), service.Spec.ClusterIPs, fmt.Sprintf("failed to allocate IP: %v", err))}
				return nil, apierrors.NewInvalid(api.Kind("Service"), service.Name, el)
			}
		} else {
			parsed := net.ParseIP(ip) // netutils.ParseIPSloppy; strict validation ran before
			if parsed == nil {
				return got, apierrors.NewInternalError(fmt.Errorf("failed to parse service IP %q", ip))
			}
			var err error
			addr, _ := netip.AddrFromSlice(parsed)
			switch {
			case !cidr.Contains(addr.Unmap()):
				err = ipallocator.ErrMismatchedNetwork
			default:
				if err = createIPAddress(ip, service); err == nil && a.ips[ip] {
					err = ipallocator.ErrAllocated
				}
			}
			if err != nil {
				for _, g := range got {
					delete(a.ips, g)
				}
				el := field.ErrorList{field.Invalid(field.NewPath("spec", "clusterIPs"), service.Spec.ClusterIPs, fmt.Sprintf("failed to allocate IP %v: %v", ip, err))}
				return nil, apierrors.NewInvalid(api.Kind("Service"), service.Name, el)
			}
		}
		a.ips[ip] = true
		got = append(got, ip)
		service.Spec.ClusterIPs[i] = ip
		if i == 0 {
			service.Spec.ClusterIP = ip
		}
	}
	return got, nil
}

// createIPAddress is the validation of the IPAddress object
// ipallocator.Allocator.createIPAddress creates for the address (its
// parentRef is serviceToRef's): the IPAddress storage validates it before it
// finds the address taken.
func createIPAddress(ip string, svc *api.Service) error {
	addr := &networking.IPAddress{
		ObjectMeta: metav1.ObjectMeta{Name: ip},
		Spec: networking.IPAddressSpec{ParentRef: &networking.ParentReference{
			Group: "", Resource: "services", Namespace: svc.Namespace, Name: svc.Name}},
	}
	if errs := netvalidation.ValidateIPAddress(addr); len(errs) > 0 {
		return apierrors.NewInvalid(networking.Kind("IPAddress"), ip, errs)
	}
	return nil
}

func initNodePorts(service *api.Service, nodePortOp *portallocator.PortAllocationOperation, ports *portallocator.PortAllocator) error {
	svcPortToNodePort := map[int]int{}
	for i := range service.Spec.Ports {
		servicePort := &service.Spec.Ports[i]
		shouldAllocate := service.Spec.Type == api.ServiceTypeNodePort ||
			(service.Spec.Type == api.ServiceTypeLoadBalancer && *service.Spec.AllocateLoadBalancerNodePorts)
		if servicePort.NodePort == 0 && !shouldAllocate {
			continue
		}
		allocatedNodePort := svcPortToNodePort[int(servicePort.Port)]
		if allocatedNodePort == 0 {
			np := 0
			for _, sp := range service.Spec.Ports {
				if int(servicePort.Port) == int(sp.Port) && sp.NodePort != 0 {
					np = int(sp.NodePort)
					break
				}
			}
			if np != 0 {
				if err := nodePortOp.Allocate(np); err != nil {
					el := field.ErrorList{field.Invalid(field.NewPath("spec", "ports").Index(i).Child("nodePort"), np, err.Error())}
					return apierrors.NewInvalid(api.Kind("Service"), service.Name, el)
				}
				servicePort.NodePort = int32(np)
				svcPortToNodePort[int(servicePort.Port)] = np
			} else {
				nodePort, err := allocNext(nodePortOp, ports)
				if err != nil {
					return apierrors.NewInternalError(fmt.Errorf("failed to allocate a nodePort: %w", err))
				}
				servicePort.NodePort = int32(nodePort)
				svcPortToNodePort[int(servicePort.Port)] = nodePort
			}
		} else if int(servicePort.NodePort) != allocatedNodePort {
			if servicePort.NodePort == 0 {
				servicePort.NodePort = int32(allocatedNodePort)
			} else if err := nodePortOp.Allocate(int(servicePort.NodePort)); err != nil {
				el := field.ErrorList{field.Invalid(field.NewPath("spec", "ports").Index(i).Child("nodePort"), servicePort.NodePort, err.Error())}
				return apierrors.NewInvalid(api.Kind("Service"), service.Name, el)
			}
		}
	}
	return nil
}

// allocNext stands for AllocateNext, which picks a free port at random:
// the highest free port, as limitcheck picks it, so that messages showing an
// allocated port compare.
func allocNext(op *portallocator.PortAllocationOperation, ports *portallocator.PortAllocator) (int, error) {
	for p := 32767; p >= 30000; p-- {
		if !ports.Has(p) {
			return p, op.Allocate(p)
		}
	}
	return 0, portallocator.ErrFull
}
