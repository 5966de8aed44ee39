package validation

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"
)

// Ingress validation on create (VAL-66).

// ingressClassAnnotation is the annotation that named an Ingress's class
// before spec.ingressClassName.
const ingressClassAnnotation = "kubernetes.io/ingress.class"

// pathTypes are the HTTP path types, sorted as the NotSupported message
// lists them.
var pathTypes = []string{string(networkingv1.PathTypeExact), string(networkingv1.PathTypeImplementationSpecific), string(networkingv1.PathTypePrefix)}

// Sequences an Exact or Prefix path may not contain, and suffixes it may not
// end with, each in the order they are reported.
var (
	badPathSequences = []string{"//", "/./", "/../", "%2f", "%2F"}
	badPathSuffixes  = []string{"/..", "/."}
)

// Ingress is the Ingress strategy's Validate, ValidateIngressCreate, on an
// Ingress after PrepareForCreate (VAL-66): its metadata, the spec, then the
// class annotation against spec.ingressClassName. A create allows no invalid
// TLS secret name and no invalid rule under a wildcard host (those options
// serve updates of stored objects only). Backend Service names follow the
// Service name rule of opts (RelaxedServiceNameValidation). There is no
// declarative validation of Ingresses.
func Ingress(ing *networkingv1.Ingress, opts ServiceOptions) field.ErrorList {
	errs := ObjectMeta(&ing.ObjectMeta, MetaRulesFor(schema.GroupKind{Group: networkingv1.GroupName, Kind: "Ingress"}), field.NewPath("metadata"))
	errs = append(errs, ingressSpec(&ing.Spec, field.NewPath("spec"), opts)...)
	if class, ok := ing.Annotations[ingressClassAnnotation]; ok && ing.Spec.IngressClassName != nil && class != *ing.Spec.IngressClassName {
		// Upstream's path leaves out "metadata".
		errs = append(errs, field.Invalid(field.NewPath("annotations").Child(ingressClassAnnotation), class, "must match `ingressClassName` when both are specified"))
	}
	return errs
}

// ingressSpec is ValidateIngressSpec: a default backend or rules, the
// default backend, the rules, TLS, the class name.
func ingressSpec(spec *networkingv1.IngressSpec, p *field.Path, opts ServiceOptions) field.ErrorList {
	var errs field.ErrorList
	if len(spec.Rules) == 0 && spec.DefaultBackend == nil {
		errs = append(errs, field.Invalid(p, spec.Rules, "either `defaultBackend` or `rules` must be specified"))
	}
	if spec.DefaultBackend != nil {
		errs = append(errs, ingressBackend(spec.DefaultBackend, p.Child("defaultBackend"), opts)...)
	}
	for i := range spec.Rules {
		errs = append(errs, ingressRule(&spec.Rules[i], p.Child("rules").Index(i), opts)...)
	}
	for i := range spec.TLS {
		errs = append(errs, ingressTLS(&spec.TLS[i], p.Child("tls").Index(i))...)
	}
	if c := spec.IngressClassName; c != nil {
		for _, msg := range NameDNSSubdomain(*c, false) {
			errs = append(errs, field.Invalid(p.Child("ingressClassName"), *c, msg))
		}
	}
	return errs
}

// ingressHost checks a rule's or a TLS entry's host: a wildcard DNS
// subdomain (`*.` and one label at the front) when it holds a `*`, else a DNS
// subdomain.
func ingressHost(host string, p *field.Path) field.ErrorList {
	if strings.Contains(host, "*") {
		var errs field.ErrorList
		for _, msg := range validation.IsWildcardDNS1123Subdomain(host) {
			errs = append(errs, field.Invalid(p, host, msg))
		}
		return errs
	}
	return dns1123Subdomain(host, lazy(p))
}

// ingressRule checks one rule: a host that is not an IP address (but may
// still fail the name rule after), then its HTTP paths.
func ingressRule(rule *networkingv1.IngressRule, p *field.Path, opts ServiceOptions) field.ErrorList {
	var errs field.ErrorList
	if h := rule.Host; h != "" {
		if netutils.ParseIPSloppy(h) != nil {
			errs = append(errs, field.Invalid(p.Child("host"), h, "must be a DNS name, not an IP address"))
		}
		errs = append(errs, ingressHost(h, p.Child("host"))...)
	}
	if rule.HTTP == nil {
		return errs
	}
	hp := p.Child("http")
	if len(rule.HTTP.Paths) == 0 {
		errs = append(errs, field.Required(hp.Child("paths"), ""))
	}
	for i := range rule.HTTP.Paths {
		errs = append(errs, httpIngressPath(&rule.HTTP.Paths[i], hp.Child("paths").Index(i), opts)...)
	}
	return errs
}

// httpIngressPath checks a path by its pathType (required: a path without
// one is not checked further), then its backend.
func httpIngressPath(path *networkingv1.HTTPIngressPath, p *field.Path, opts ServiceOptions) field.ErrorList {
	if path.PathType == nil {
		return field.ErrorList{field.Required(p.Child("pathType"), "pathType must be specified")}
	}
	var errs field.ErrorList
	pp := p.Child("path")
	switch *path.PathType {
	case networkingv1.PathTypeExact, networkingv1.PathTypePrefix:
		if !strings.HasPrefix(path.Path, "/") {
			errs = append(errs, field.Invalid(pp, path.Path, "must be an absolute path"))
		}
		for _, seq := range badPathSequences {
			if strings.Contains(path.Path, seq) {
				errs = append(errs, field.Invalid(pp, path.Path, "must not contain '"+seq+"'"))
			}
		}
		for _, suffix := range badPathSuffixes {
			if strings.HasSuffix(path.Path, suffix) {
				errs = append(errs, field.Invalid(pp, path.Path, "cannot end with '"+suffix+"'"))
			}
		}
	case networkingv1.PathTypeImplementationSpecific:
		if path.Path != "" && !strings.HasPrefix(path.Path, "/") {
			errs = append(errs, field.Invalid(pp, path.Path, "must be an absolute path"))
		}
	default:
		errs = append(errs, field.NotSupported(p.Child("pathType"), *path.PathType, pathTypes))
	}
	return append(errs, ingressBackend(&path.Backend, p.Child("backend"), opts)...)
}

// ingressBackend is validateIngressBackend: exactly one of a resource and a
// Service; a Service backend needs a name (the Service name rule) and
// exactly one of a port name and a port number.
func ingressBackend(b *networkingv1.IngressBackend, p *field.Path, opts ServiceOptions) field.ErrorList {
	switch {
	case b.Resource != nil && b.Service != nil:
		return field.ErrorList{field.Invalid(p, "", "cannot set both resource and service backends")}
	case b.Resource != nil:
		return ingressResourceBackend(b.Resource, p.Child("resource"))
	case b.Service == nil:
		return field.ErrorList{field.Invalid(p, "", "resource or service backend is required")}
	}
	var errs field.ErrorList
	svc := b.Service
	if svc.Name == "" {
		errs = append(errs, field.Required(p.Child("service", "name"), ""))
	} else {
		for _, msg := range ServiceMetaRules(opts).Name(svc.Name, false) {
			errs = append(errs, field.Invalid(p.Child("service", "name"), svc.Name, msg))
		}
	}
	port := svc.Port
	switch {
	case port.Name != "" && port.Number != 0:
		errs = append(errs, field.Invalid(p, "", "cannot set both port name & port number"))
	case port.Name != "":
		for _, msg := range validation.IsValidPortName(port.Name) {
			errs = append(errs, field.Invalid(p.Child("service", "port", "name"), port.Name, msg))
		}
	case port.Number != 0:
		for _, msg := range validation.IsValidPortNum(int(port.Number)) {
			errs = append(errs, field.Invalid(p.Child("service", "port", "number"), port.Number, msg))
		}
	default:
		errs = append(errs, field.Required(p, "port name or number is required"))
	}
	return errs
}

// ingressResourceBackend is validateIngressTypedLocalObjectReference: an
// apiGroup that is a DNS subdomain, a kind and a name that are path
// segments.
func ingressResourceBackend(ref *corev1.TypedLocalObjectReference, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if g := ref.APIGroup; g != nil {
		errs = append(errs, dns1123Subdomain(*g, lazy(p.Child("apiGroup")))...)
	}
	for _, f := range []struct{ name, value string }{{"kind", ref.Kind}, {"name", ref.Name}} {
		if f.value == "" {
			errs = append(errs, field.Required(p.Child(f.name), ""))
			continue
		}
		for _, msg := range NamePathSegment(f.value, false) {
			errs = append(errs, field.Invalid(p.Child(f.name), f.value, msg))
		}
	}
	return errs
}

// ingressTLS checks one TLS entry: its hosts, then its secret name, which
// when given must be a Secret's name (a DNS subdomain).
func ingressTLS(tls *networkingv1.IngressTLS, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, h := range tls.Hosts {
		errs = append(errs, ingressHost(h, p.Child("hosts").Index(i))...)
	}
	if s := tls.SecretName; s != "" {
		for _, msg := range NameDNSSubdomain(s, false) {
			errs = append(errs, field.Invalid(p.Child("secretName"), s, msg))
		}
	}
	return errs
}
