package validation

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Endpoints is ValidateEndpointsCreate (VAL-93) on defaulted Endpoints: core's
// metadata (a DNS-subdomain name), then every subset: at least one address
// (ready or not); each address's IP, hostname and node name; each port, named
// when the subset has several.
func Endpoints(ep *corev1.Endpoints) field.ErrorList {
	errs := validateObjectMeta(&ep.ObjectMeta)
	sp := field.NewPath("subsets")
	for i := range ep.Subsets {
		ss := &ep.Subsets[i]
		ip := sp.Index(i)
		if len(ss.Addresses) == 0 && len(ss.NotReadyAddresses) == 0 {
			errs = append(errs, field.Required(ip, "must specify `addresses` or `notReadyAddresses`"))
		}
		for j := range ss.Addresses {
			errs = append(errs, endpointAddress(&ss.Addresses[j], ip.Child("addresses").Index(j))...)
		}
		for j := range ss.NotReadyAddresses {
			errs = append(errs, endpointAddress(&ss.NotReadyAddresses[j], ip.Child("notReadyAddresses").Index(j))...)
		}
		for j := range ss.Ports {
			errs = append(errs, endpointPort(&ss.Ports[j], len(ss.Ports) > 1, ip.Child("ports").Index(j))...)
		}
	}
	return errs
}

// endpointAddress is validateEndpointAddress: the IP as a legacy IP field
// (strictly), the hostname a DNS label, the node name a DNS subdomain, then
// the IP as an endpoint's.
func endpointAddress(a *corev1.EndpointAddress, p *field.Path) field.ErrorList {
	errs := validation.IsValidIPForLegacyField(p.Child("ip"), a.IP, true, nil)
	if a.Hostname != "" {
		for _, msg := range namecheck.IsDNS1123Label(a.Hostname) {
			errs = append(errs, field.Invalid(p.Child("hostname"), a.Hostname, msg))
		}
	}
	if a.NodeName != nil {
		for _, msg := range namecheck.IsDNS1123Subdomain(*a.NodeName) {
			errs = append(errs, field.Invalid(p.Child("nodeName"), *a.NodeName, msg))
		}
	}
	return append(errs, endpointIP(a.IP, p.Child("ip"))...)
}

// endpointPort is validateEndpointPort.
func endpointPort(port *corev1.EndpointPort, requireName bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if requireName && port.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else if port.Name != "" {
		for _, msg := range namecheck.IsDNS1123Label(port.Name) {
			errs = append(errs, field.Invalid(p.Child("name"), port.Name, msg))
		}
	}
	for _, msg := range validation.IsValidPortNum(int(port.Port)) {
		errs = append(errs, field.Invalid(p.Child("port"), port.Port, msg))
	}
	if port.Protocol == "" {
		errs = append(errs, field.Required(p.Child("protocol"), ""))
	} else if !contains(portProtocols, string(port.Protocol)) {
		errs = append(errs, field.NotSupported(p.Child("protocol"), port.Protocol, portProtocols))
	}
	if ap := port.AppProtocol; ap != nil {
		for _, msg := range namecheck.IsQualifiedName(*ap) {
			errs = append(errs, field.Invalid(p.Child("appProtocol"), *ap, msg))
		}
	}
	return errs
}
