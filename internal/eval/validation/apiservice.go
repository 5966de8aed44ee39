package validation

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/validate/content"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	apiregistrationv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
)

// APIService validation on create (VAL-92): the aggregator's
// ValidateAPIService, after defaulting (PrepareAPIServiceForCreate).

// PrepareAPIServiceForCreate is the v1 defaulting (a service's port 443)
// and the strategy's PrepareForCreate (the status is dropped; a local
// APIService is marked available, which nothing limitcheck reports reads).
func PrepareAPIServiceForCreate(s *apiregistrationv1.APIService) {
	if svc := s.Spec.Service; svc != nil && svc.Port == nil {
		port := int32(443)
		svc.Port = &port
	}
	s.Status = apiregistrationv1.APIServiceStatus{}
}

// APIService validates a prepared APIService: its metadata with a name that
// must be spec.version + "." + spec.group (apimachinery's metadata rules, no
// namespace), the group and version, the two priorities, then either a
// local service (no caBundle, no insecureSkipTLSVerify) or a Service
// reference.
func APIService(s *apiregistrationv1.APIService) field.ErrorList {
	required := s.Spec.Version + "." + s.Spec.Group
	name := func(name string, _ bool) []string {
		if msgs := content.IsPathSegmentName(name); len(msgs) > 0 {
			return msgs
		}
		if name != required {
			return []string{fmt.Sprintf("must be `spec.version+\".\"+spec.group`: %q", required)}
		}
		return nil
	}
	errs := ObjectMeta(&s.ObjectMeta, MetaRules{Name: name, ClusterScoped: true}, field.NewPath("metadata"))
	spec := field.NewPath("spec")
	if s.Spec.Group == "" && s.Spec.Version != "v1" {
		errs = append(errs, field.Required(spec.Child("group"), "only v1 may have an empty group and it better be legacy kube"))
	}
	if s.Spec.Group != "" {
		for _, msg := range utilvalidation.IsDNS1123Subdomain(s.Spec.Group) {
			errs = append(errs, field.Invalid(spec.Child("group"), s.Spec.Group, msg))
		}
	}
	for _, msg := range utilvalidation.IsDNS1035Label(s.Spec.Version) {
		errs = append(errs, field.Invalid(spec.Child("version"), s.Spec.Version, msg))
	}
	if p := s.Spec.GroupPriorityMinimum; p <= 0 || p > 20000 {
		errs = append(errs, field.Invalid(spec.Child("groupPriorityMinimum"), p, "must be positive and less than 20000"))
	}
	if p := s.Spec.VersionPriority; p <= 0 || p > 1000 {
		errs = append(errs, field.Invalid(spec.Child("versionPriority"), p, "must be positive and less than 1000"))
	}
	svc := s.Spec.Service
	if svc == nil {
		if len(s.Spec.CABundle) != 0 {
			errs = append(errs, field.Invalid(spec.Child("caBundle"), fmt.Sprintf("%d bytes", len(s.Spec.CABundle)), "local APIServices may not have a caBundle"))
		}
		if s.Spec.InsecureSkipTLSVerify {
			errs = append(errs, field.Invalid(spec.Child("insecureSkipTLSVerify"), true, "local APIServices may not have insecureSkipTLSVerify"))
		}
		return errs
	}
	if svc.Namespace == "" {
		errs = append(errs, field.Required(spec.Child("service", "namespace"), ""))
	}
	if svc.Name == "" {
		errs = append(errs, field.Required(spec.Child("service", "name"), ""))
	}
	var port int32
	if svc.Port != nil {
		port = *svc.Port
	}
	if msgs := utilvalidation.IsValidPortNum(int(port)); msgs != nil {
		errs = append(errs, field.Invalid(spec.Child("service", "port"), port, "port is not valid: "+strings.Join(msgs, ", ")))
	}
	if s.Spec.InsecureSkipTLSVerify && len(s.Spec.CABundle) > 0 {
		errs = append(errs, field.Invalid(spec.Child("insecureSkipTLSVerify"), true, "may not be true if caBundle is present"))
	}
	return errs
}
