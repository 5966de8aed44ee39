package validation

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Hand-written Endpoints (VAL-85) and EndpointSlices (VAL-86), as people write
// them for a Service without a selector: defaulted and validated on create.

// DefaultEndpoints is the v1 defaulting: a port without protocol is TCP.
func DefaultEndpoints(ep *corev1.Endpoints) {
	for i := range ep.Subsets {
		for j := range ep.Subsets[i].Ports {
			if p := &ep.Subsets[i].Ports[j]; p.Protocol == "" {
				p.Protocol = corev1.ProtocolTCP
			}
		}
	}
}

// Endpoints is ValidateEndpointsCreate: metadata, then each subset's
// addresses, not-ready addresses and ports.
func Endpoints(ep *corev1.Endpoints) field.ErrorList {
	errs := validateObjectMeta(&ep.ObjectMeta)
	sp := field.NewPath("subsets")
	for i := range ep.Subsets {
		ss := &ep.Subsets[i]
		p := sp.Index(i)
		if len(ss.Addresses) == 0 && len(ss.NotReadyAddresses) == 0 {
			errs = append(errs, field.Required(p, "must specify `addresses` or `notReadyAddresses`"))
		}
		for j := range ss.Addresses {
			errs = append(errs, endpointAddress(&ss.Addresses[j], p.Child("addresses").Index(j))...)
		}
		for j := range ss.NotReadyAddresses {
			errs = append(errs, endpointAddress(&ss.NotReadyAddresses[j], p.Child("notReadyAddresses").Index(j))...)
		}
		for j := range ss.Ports {
			errs = append(errs, endpointPort(&ss.Ports[j], len(ss.Ports) > 1, p.Child("ports").Index(j))...)
		}
	}
	return errs
}

// endpointAddress: a strict IP (checked twice over, as upstream does: its
// syntax, then the ranges an endpoint may not use), a DNS-label hostname, a
// node name that is a DNS subdomain.
func endpointAddress(a *corev1.EndpointAddress, p *field.Path) field.ErrorList {
	ip := p.Child("ip")
	errs := validation.IsValidIPForLegacyField(ip, a.IP, true, nil)
	if a.Hostname != "" {
		errs = append(errs, dns1123Label(a.Hostname, lazy(p.Child("hostname")))...)
	}
	if a.NodeName != nil {
		for _, msg := range namecheck.NameIsDNSSubdomain(*a.NodeName, false) {
			errs = append(errs, field.Invalid(p.Child("nodeName"), *a.NodeName, msg))
		}
	}
	return append(errs, endpointIP(a.IP, ip)...)
}

// endpointPort: a name (required when the subset has several ports) that is
// a DNS label, a port number, a known protocol, a qualified appProtocol.
func endpointPort(port *corev1.EndpointPort, requireName bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case requireName && port.Name == "":
		errs = append(errs, field.Required(p.Child("name"), ""))
	case port.Name != "":
		errs = append(errs, dns1123Label(port.Name, lazy(p.Child("name")))...)
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
	if ap := port.AppProtocol; ap != nil {
		errs = append(errs, qualifiedName(*ap, lazy(p.Child("appProtocol")))...)
	}
	return errs
}

// Limits of an EndpointSlice.
const (
	sliceMaxEndpoints = 1000
	sliceMaxAddresses = 100
	sliceMaxPorts     = 20000
	sliceMaxHints     = 8
)

// PrepareEndpointSlice is the v1 defaulting (a port's name empty, its
// protocol TCP) and the strategy's PrepareForCreate for a v1 request: each
// endpoint's deprecatedTopology dropped.
func PrepareEndpointSlice(s *discoveryv1.EndpointSlice) {
	for i := range s.Ports {
		if s.Ports[i].Name == nil {
			s.Ports[i].Name = new(string)
		}
		if s.Ports[i].Protocol == nil {
			tcp := corev1.ProtocolTCP
			s.Ports[i].Protocol = &tcp
		}
	}
	for i := range s.Endpoints {
		s.Endpoints[i].DeprecatedTopology = nil
	}
	s.Generation = 1
}

var sliceAddressTypes = []string{"FQDN", "IPv4", "IPv6"}

// EndpointSlice is ValidateEndpointSliceCreate: metadata, addressType,
// ports, then endpoints.
func EndpointSlice(s *discoveryv1.EndpointSlice) field.ErrorList {
	errs := objectMeta(s, coreGen, newLazyPath("metadata"))
	switch at := string(s.AddressType); {
	case at == "":
		errs = append(errs, field.Required(field.NewPath("addressType"), ""))
	case !contains(sliceAddressTypes, at):
		errs = append(errs, field.NotSupported(field.NewPath("addressType"), s.AddressType, sliceAddressTypes))
	}
	errs = append(errs, slicePorts(s.Ports, field.NewPath("ports"))...)
	return append(errs, sliceEndpoints(s.Endpoints, s.AddressType, field.NewPath("endpoints"))...)
}

func slicePorts(ports []discoveryv1.EndpointPort, p *field.Path) field.ErrorList {
	if len(ports) > sliceMaxPorts {
		return field.ErrorList{field.TooMany(p, len(ports), sliceMaxPorts)}
	}
	var errs field.ErrorList
	names := make([]string, 0, len(ports))
	for i, port := range ports {
		ip := p.Index(i)
		name := ""
		if port.Name != nil {
			name = *port.Name
		}
		if name != "" {
			errs = append(errs, dns1123Label(name, lazy(ip.Child("name")))...)
		}
		if slices.Contains(names, name) {
			errs = append(errs, field.Duplicate(ip.Child("name"), name))
		} else {
			names = append(names, name)
		}
		switch {
		case port.Protocol == nil:
			errs = append(errs, field.Required(ip.Child("protocol"), ""))
		case !contains(portProtocols, string(*port.Protocol)):
			errs = append(errs, field.NotSupported(ip.Child("protocol"), *port.Protocol, portProtocols))
		}
		if port.AppProtocol != nil {
			errs = append(errs, qualifiedName(*port.AppProtocol, lazy(ip.Child("appProtocol")))...)
		}
	}
	return errs
}

// sliceEndpoints: each endpoint's addresses (1 to 100, of the slice's
// address type; an unknown type leaves them unchecked), node name, hostname
// and hints.
func sliceEndpoints(eps []discoveryv1.Endpoint, at discoveryv1.AddressType, p *field.Path) field.ErrorList {
	if len(eps) > sliceMaxEndpoints {
		return field.ErrorList{field.TooMany(p, len(eps), sliceMaxEndpoints)}
	}
	var errs field.ErrorList
	for i, ep := range eps {
		ip := p.Index(i)
		ap := ip.Child("addresses")
		switch n := len(ep.Addresses); {
		case n == 0:
			errs = append(errs, field.Required(ap, "must contain at least 1 address"))
		case n > sliceMaxAddresses:
			errs = append(errs, field.TooMany(ap, n, sliceMaxAddresses))
		}
		for j, a := range ep.Addresses {
			switch at {
			case discoveryv1.AddressTypeIPv4:
				if e := validation.IsValidIPForLegacyField(ap.Index(j), a, true, nil); len(e) > 0 {
					errs = append(errs, e...)
					continue
				}
				if IsIPv6(a) {
					// upstream reports it on the list, not the item
					errs = append(errs, field.Invalid(ap, a, "must be an IPv4 address"))
				}
				errs = append(errs, endpointIP(a, ap.Index(j))...)
			case discoveryv1.AddressTypeIPv6:
				if e := validation.IsValidIP(ap.Index(j), a); len(e) > 0 {
					errs = append(errs, e...)
					continue
				}
				if !IsIPv6(a) {
					errs = append(errs, field.Invalid(ap, a, "must be an IPv6 address"))
				}
				errs = append(errs, endpointIP(a, ap.Index(j))...)
			case discoveryv1.AddressTypeFQDN:
				errs = append(errs, validation.IsFullyQualifiedDomainName(ap.Index(j), a)...)
			}
		}
		if ep.NodeName != nil {
			for _, msg := range namecheck.NameIsDNSSubdomain(*ep.NodeName, false) {
				errs = append(errs, field.Invalid(ip.Child("nodeName"), *ep.NodeName, msg))
			}
		}
		if ep.Hostname != nil {
			errs = append(errs, dns1123Label(*ep.Hostname, lazy(ip.Child("hostname")))...)
		}
		if ep.Hints != nil {
			errs = append(errs, sliceHints(ep.Hints, ip.Child("hints"))...)
		}
	}
	return errs
}

// sliceHints: at most 8 zones (unique label values) and 8 nodes (unique
// DNS-subdomain names).
func sliceHints(h *discoveryv1.EndpointHints, p *field.Path) field.ErrorList {
	zp := p.Child("forZones")
	if len(h.ForZones) > sliceMaxHints {
		return field.ErrorList{field.TooMany(zp, len(h.ForZones), sliceMaxHints)}
	}
	var errs field.ErrorList
	seen := make([]string, 0, len(h.ForZones))
	for i, z := range h.ForZones {
		np := zp.Index(i).Child("name")
		if slices.Contains(seen, z.Name) {
			errs = append(errs, field.Duplicate(np, z.Name))
		} else {
			seen = append(seen, z.Name)
		}
		for _, msg := range namecheck.IsValidLabelValue(z.Name) {
			errs = append(errs, field.Invalid(np, z.Name, msg))
		}
	}
	fp := p.Child("forNodes")
	if len(h.ForNodes) > sliceMaxHints {
		return append(errs, field.TooMany(fp, len(h.ForNodes), sliceMaxHints))
	}
	seen = seen[:0]
	for i, n := range h.ForNodes {
		np := fp.Index(i).Child("name")
		if slices.Contains(seen, n.Name) {
			errs = append(errs, field.Duplicate(np, n.Name))
		} else {
			seen = append(seen, n.Name)
		}
		for _, msg := range namecheck.NameIsDNSSubdomain(n.Name, false) {
			errs = append(errs, field.Invalid(np, n.Name, msg))
		}
	}
	return errs
}
