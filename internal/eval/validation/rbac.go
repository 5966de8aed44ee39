package validation

import (
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
	return append(errs, binding(rb.RoleRef, roleRefKinds, rb.Subjects, true)...)
}

// binding checks what a RoleBinding and a ClusterRoleBinding share: roleRef's
// apiGroup, its kind (one of kinds) and name, then every subject.
func binding(ref rbacv1.RoleRef, kinds []string, subjects []rbacv1.Subject, namespaced bool) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("roleRef")
	if ref.APIGroup != rbacv1.GroupName {
		errs = append(errs, field.NotSupported(p.Child("apiGroup"), ref.APIGroup, []string{rbacv1.GroupName}))
	}
	if !contains(kinds, ref.Kind) {
		errs = append(errs, field.NotSupported(p.Child("kind"), ref.Kind, kinds))
	}
	if ref.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	} else {
		for _, msg := range nameRBAC(ref.Name, false) {
			errs = append(errs, field.Invalid(p.Child("name"), ref.Name, msg))
		}
	}
	sp := field.NewPath("subjects")
	for i := range subjects {
		errs = append(errs, subject(&subjects[i], namespaced, sp.Index(i))...)
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

// clusterRBACMeta: ValidateRBACName through core's wrapper, no namespace.
var clusterRBACMeta = MetaRules{Name: nameRBAC, KubeFinalizers: true, ClusterScoped: true}

// ClusterRole is ValidateClusterRole (the strategy's declarative validation
// returns these errors unchanged): metadata with the RBAC name rule, every
// rule as a cluster-wide policy rule (nonResourceURLs allowed), then the
// aggregation rule: at least one selector, each valid (label values
// checked) and one that can be built.
func ClusterRole(cr *rbacv1.ClusterRole) field.ErrorList {
	errs := ObjectMeta(&cr.ObjectMeta, clusterRBACMeta, field.NewPath("metadata"))
	for i := range cr.Rules {
		errs = append(errs, policyRule(&cr.Rules[i], false, field.NewPath("rules").Index(i))...)
	}
	if ar := cr.AggregationRule; ar != nil {
		sp := field.NewPath("aggregationRule", "clusterRoleSelectors")
		if len(ar.ClusterRoleSelectors) == 0 {
			errs = append(errs, field.Required(sp, "at least one clusterRoleSelector required if aggregationRule is non-nil"))
		}
		for i := range ar.ClusterRoleSelectors {
			sel := &ar.ClusterRoleSelectors[i]
			errs = append(errs, LabelSelector(sel, sp.Index(i))...)
			if _, err := metav1.LabelSelectorAsSelector(sel); err != nil {
				// upstream shows the selector it failed to build: none
				errs = append(errs, field.Invalid(sp.Index(i), nil, "invalid label selector."))
			}
		}
	}
	return errs
}

// ClusterRoleBinding is ValidateClusterRoleBinding on a defaulted binding
// (defaults.DefaultClusterRoleBinding): metadata with the RBAC name rule,
// roleRef's apiGroup, kind (only ClusterRole) and name, then every subject,
// a ServiceAccount needing its namespace.
func ClusterRoleBinding(crb *rbacv1.ClusterRoleBinding) field.ErrorList {
	errs := ObjectMeta(&crb.ObjectMeta, clusterRBACMeta, field.NewPath("metadata"))
	return append(errs, binding(crb.RoleRef, clusterRoleRefKinds, crb.Subjects, false)...)
}

// clusterRoleRefKinds is what a ClusterRoleBinding may bind.
var clusterRoleRefKinds = []string{"ClusterRole"}
