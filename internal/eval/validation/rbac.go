package validation

import (
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// RBAC Role (VAL-70) and RoleBinding (VAL-71) validation on create. Their
// paths have no spec: rules, roleRef and subjects are top-level fields.

var (
	roleKind        = schema.GroupKind{Group: rbacv1.GroupName, Kind: "Role"}
	roleBindingKind = schema.GroupKind{Group: rbacv1.GroupName, Kind: "RoleBinding"}
	roleRefKinds    = []string{"Role", "ClusterRole"}
	subjectKinds    = []string{rbacv1.ServiceAccountKind, rbacv1.UserKind, rbacv1.GroupKind}
)

// Role is ValidateRole (the strategy's declarative validation returns these
// errors unchanged): metadata with the RBAC name rule, then every rule as a
// namespaced policy rule.
func Role(role *rbacv1.Role) field.ErrorList {
	errs := ObjectMeta(&role.ObjectMeta, MetaRulesFor(roleKind), field.NewPath("metadata"))
	for i := range role.Rules {
		errs = append(errs, policyRule(&role.Rules[i], true, field.NewPath("rules").Index(i))...)
	}
	return errs
}

// policyRule is ValidatePolicyRule. A rule with nonResourceURLs is checked
// for those only; any other needs apiGroups and resources.
func policyRule(r *rbacv1.PolicyRule, namespaced bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(r.Verbs) == 0 {
		errs = append(errs, field.Required(p.Child("verbs"), "verbs must contain at least one value"))
	}
	if len(r.NonResourceURLs) > 0 {
		if namespaced {
			errs = append(errs, field.Invalid(p.Child("nonResourceURLs"), r.NonResourceURLs, "namespaced rules cannot apply to non-resource URLs"))
		}
		if len(r.APIGroups) > 0 || len(r.Resources) > 0 || len(r.ResourceNames) > 0 {
			errs = append(errs, field.Invalid(p.Child("nonResourceURLs"), r.NonResourceURLs, "rules cannot apply to both regular resources and non-resource URLs"))
		}
		return errs
	}
	if len(r.APIGroups) == 0 {
		errs = append(errs, field.Required(p.Child("apiGroups"), "resource rules must supply at least one api group"))
	}
	if len(r.Resources) == 0 {
		errs = append(errs, field.Required(p.Child("resources"), "resource rules must supply at least one resource"))
	}
	return errs
}

// RoleBinding is ValidateRoleBinding on a defaulted RoleBinding
// (defaults.DefaultRoleBinding; declarative validation returns these errors
// unchanged): metadata with the RBAC name rule, roleRef's apiGroup, kind and
// name, then every subject.
func RoleBinding(rb *rbacv1.RoleBinding) field.ErrorList {
	errs := ObjectMeta(&rb.ObjectMeta, MetaRulesFor(roleBindingKind), field.NewPath("metadata"))
	ref, p := rb.RoleRef, field.NewPath("roleRef")
	if ref.APIGroup != rbacv1.GroupName {
		errs = append(errs, field.NotSupported(p.Child("apiGroup"), ref.APIGroup, []string{rbacv1.GroupName}))
	}
	if !contains(roleRefKinds, ref.Kind) {
		errs = append(errs, field.NotSupported(p.Child("kind"), ref.Kind, roleRefKinds))
	}
	if ref.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else {
		for _, msg := range nameRBAC(ref.Name, false) {
			errs = append(errs, field.Invalid(p.Child("name"), ref.Name, msg))
		}
	}
	sp := field.NewPath("subjects")
	for i := range rb.Subjects {
		errs = append(errs, subject(&rb.Subjects[i], true, sp.Index(i))...)
	}
	return errs
}

// subject is ValidateRoleBindingSubject: a name, then by kind a
// ServiceAccount's name rule and empty apiGroup (and, outside a namespace,
// its namespace), a User's or Group's apiGroup; any other kind is refused.
func subject(s *rbacv1.Subject, namespaced bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	switch s.Kind {
	case rbacv1.ServiceAccountKind:
		if s.Name != "" {
			for _, msg := range namecheck.NameIsDNSSubdomain(s.Name, false) {
				errs = append(errs, field.Invalid(p.Child("name"), s.Name, msg))
			}
		}
		if s.APIGroup != "" {
			errs = append(errs, field.NotSupported(p.Child("apiGroup"), s.APIGroup, []string{""}))
		}
		if !namespaced && s.Namespace == "" {
			errs = append(errs, field.Required(p.Child("namespace"), ""))
		}
	case rbacv1.UserKind, rbacv1.GroupKind:
		if s.APIGroup != rbacv1.GroupName {
			errs = append(errs, field.NotSupported(p.Child("apiGroup"), s.APIGroup, []string{rbacv1.GroupName}))
		}
	default:
		errs = append(errs, field.NotSupported(p.Child("kind"), s.Kind, subjectKinds))
	}
	return errs
}
