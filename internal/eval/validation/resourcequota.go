package validation

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/resources"
)

// ResourceQuota create validation (VAL ResourceQuota as called by the
// resourcequota REST strategy's Validate; docs/behaviour.md RQ-01..05). The
// strategy's PrepareForCreate clears status, so status is not validated. No
// feature gate changes these checks in 1.36 (the VolumeAttributesClass scope is
// accepted unconditionally by HLP IsStandardResourceQuotaScope).

const (
	msgUnsupportedScope        = "unsupported scope"
	msgScopeNotForResource     = "unsupported scope applied to resource"
	msgConflictingScopes       = "conflicting scopes"
	msgScopeOperatorMustExists = "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"
	msgScopeValuesRequired     = "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"
	msgScopeValuesForbidden    = "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"
	msgScopeBadOperator        = "not a valid selector operator"
)

// standardQuotaScopes mirrors HLP IsStandardResourceQuotaScope.
var standardQuotaScopes = map[corev1.ResourceQuotaScope]bool{
	corev1.ResourceQuotaScopeTerminating:               true,
	corev1.ResourceQuotaScopeNotTerminating:            true,
	corev1.ResourceQuotaScopeBestEffort:                true,
	corev1.ResourceQuotaScopeNotBestEffort:             true,
	corev1.ResourceQuotaScopePriorityClass:             true,
	corev1.ResourceQuotaScopeVolumeAttributesClass:     true,
	corev1.ResourceQuotaScopeCrossNamespacePodAffinity: true,
}

var (
	podComputeQuotaResources = resources.NewNameSet(
		corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceLimitsCPU,
		corev1.ResourceLimitsMemory, corev1.ResourceRequestsCPU, corev1.ResourceRequestsMemory,
	)
	pvcQuotaResources = resources.NewNameSet(corev1.ResourcePersistentVolumeClaims, corev1.ResourceRequestsStorage)
)

// conflictingScopePairs are checked in this order, for spec.scopes and for the
// selector alike.
var conflictingScopePairs = [][2]corev1.ResourceQuotaScope{
	{corev1.ResourceQuotaScopeBestEffort, corev1.ResourceQuotaScopeNotBestEffort},
	{corev1.ResourceQuotaScopeTerminating, corev1.ResourceQuotaScopeNotTerminating},
}

// standardFinalizers mirrors HLP IsStandardFinalizerName.
var standardFinalizers = map[string]bool{
	string(corev1.FinalizerKubernetes): true,
	metav1.FinalizerOrphanDependents:   true,
	metav1.FinalizerDeleteDependents:   true,
}

func isStandardQuotaScope(s corev1.ResourceQuotaScope) bool { return standardQuotaScopes[s] }

// isQuotaScopeValidForResource mirrors HLP IsResourceQuotaScopeValidForResource;
// unknown scopes accept every resource.
func isQuotaScopeValidForResource(s corev1.ResourceQuotaScope, name corev1.ResourceName) bool {
	switch s {
	case corev1.ResourceQuotaScopeTerminating, corev1.ResourceQuotaScopeNotTerminating, corev1.ResourceQuotaScopeNotBestEffort,
		corev1.ResourceQuotaScopePriorityClass, corev1.ResourceQuotaScopeCrossNamespacePodAffinity:
		return name == corev1.ResourcePods || podComputeQuotaResources[name]
	case corev1.ResourceQuotaScopeBestEffort:
		return name == corev1.ResourcePods
	case corev1.ResourceQuotaScopeVolumeAttributesClass:
		return pvcQuotaResources[name]
	default:
		return true
	}
}

// ResourceQuota validates a ResourceQuota on create (RQ-01..05), after API
// defaulting (defaults.DefaultResourceQuota rounds the lists).
func ResourceQuota(q *corev1.ResourceQuota) field.ErrorList {
	errs := validateObjectMeta(&q.ObjectMeta)

	spec := field.NewPath("spec")
	hard := spec.Child("hard")
	for _, k := range resources.SortedNames(q.Spec.Hard) {
		p := hard.Key(string(k))
		errs = append(errs, validateQuotaResourceName(k, p)...)
		errs = append(errs, validateResourceQuantityValue(k, q.Spec.Hard[k], lazy(p))...)
	}
	errs = append(errs, validateQuotaScopes(&q.Spec, spec.Child("scopes"))...)
	if q.Spec.ScopeSelector != nil {
		errs = append(errs, validateQuotaScopeSelector(&q.Spec, spec.Child("scopeSelector").Child("matchExpressions"))...)
	}
	return errs
}

// hardNamesLimitedByScope: the sorted standard quota names of spec.hard, the only
// ones a scope can be incompatible with.
func hardNamesLimitedByScope(hard corev1.ResourceList) []corev1.ResourceName {
	var names []corev1.ResourceName
	for _, k := range resources.SortedNames(hard) {
		if resources.IsStandardQuotaResourceName(k) {
			names = append(names, k)
		}
	}
	return names
}

func hasConflictingPair(seen map[corev1.ResourceQuotaScope]bool, pair [2]corev1.ResourceQuotaScope) bool {
	return seen[pair[0]] && seen[pair[1]]
}

// validateQuotaScopes: every error carries the whole scopes list as its value (RQ-03).
func validateQuotaScopes(spec *corev1.ResourceQuotaSpec, p *field.Path) field.ErrorList {
	if len(spec.Scopes) == 0 {
		return nil
	}
	var errs field.ErrorList
	names := hardNamesLimitedByScope(spec.Hard)
	seen := map[corev1.ResourceQuotaScope]bool{}
	for _, s := range spec.Scopes {
		if !isStandardQuotaScope(s) {
			errs = append(errs, field.Invalid(p, spec.Scopes, msgUnsupportedScope))
		}
		for _, k := range names {
			if !isQuotaScopeValidForResource(s, k) {
				errs = append(errs, field.Invalid(p, spec.Scopes, msgScopeNotForResource))
			}
		}
		seen[s] = true
	}
	for _, pair := range conflictingScopePairs {
		if hasConflictingPair(seen, pair) {
			errs = append(errs, field.Invalid(p, spec.Scopes, msgConflictingScopes))
		}
	}
	return errs
}

// Upstream reports a scope selector incompatible with a hard resource with the
// internal core.ScopeSelector as the value; internal types carry no json tags, so
// encoding/json prints the Go field names. These mirror that type exactly.
type internalScopeSelector struct {
	MatchExpressions []internalScopedResourceSelectorRequirement
}

type internalScopedResourceSelectorRequirement struct {
	ScopeName corev1.ResourceQuotaScope
	Operator  corev1.ScopeSelectorOperator
	Values    []string
}

// toInternalScopeSelector keeps nil and empty slices apart, as the conversion
// (a pointer cast) does.
func toInternalScopeSelector(sel *corev1.ScopeSelector) *internalScopeSelector {
	out := &internalScopeSelector{}
	if sel.MatchExpressions != nil {
		out.MatchExpressions = make([]internalScopedResourceSelectorRequirement, len(sel.MatchExpressions))
		for i, r := range sel.MatchExpressions {
			out.MatchExpressions[i] = internalScopedResourceSelectorRequirement{ScopeName: r.ScopeName, Operator: r.Operator, Values: r.Values}
		}
	}
	return out
}

// validateQuotaScopeSelector: paths carry no index; the conflict error carries
// spec.scopes (not the selector) as its value (RQ-04, RQ-05).
func validateQuotaScopeSelector(spec *corev1.ResourceQuotaSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := hardNamesLimitedByScope(spec.Hard)
	selectorValue := toInternalScopeSelector(spec.ScopeSelector)
	seen := map[corev1.ResourceQuotaScope]bool{}
	for _, req := range spec.ScopeSelector.MatchExpressions {
		if !isStandardQuotaScope(req.ScopeName) {
			errs = append(errs, field.Invalid(p.Child("scopeName"), req.ScopeName, msgUnsupportedScope))
		}
		for _, k := range names {
			if !isQuotaScopeValidForResource(req.ScopeName, k) {
				errs = append(errs, field.Invalid(p, selectorValue, msgScopeNotForResource))
			}
		}
		switch req.ScopeName {
		case corev1.ResourceQuotaScopeBestEffort, corev1.ResourceQuotaScopeNotBestEffort, corev1.ResourceQuotaScopeTerminating,
			corev1.ResourceQuotaScopeNotTerminating, corev1.ResourceQuotaScopeCrossNamespacePodAffinity:
			if req.Operator != corev1.ScopeSelectorOpExists {
				errs = append(errs, field.Invalid(p.Child("operator"), req.Operator, msgScopeOperatorMustExists))
			}
		}
		switch req.Operator {
		case corev1.ScopeSelectorOpIn, corev1.ScopeSelectorOpNotIn:
			if len(req.Values) == 0 {
				errs = append(errs, field.Required(p.Child("values"), msgScopeValuesRequired))
			}
		case corev1.ScopeSelectorOpExists, corev1.ScopeSelectorOpDoesNotExist:
			if len(req.Values) != 0 {
				errs = append(errs, field.Invalid(p.Child("values"), req.Values, msgScopeValuesForbidden))
			}
		default:
			errs = append(errs, field.Invalid(p.Child("operator"), req.Operator, msgScopeBadOperator))
		}
		seen[req.ScopeName] = true
	}
	for _, pair := range conflictingScopePairs {
		if hasConflictingPair(seen, pair) {
			errs = append(errs, field.Invalid(p, spec.Scopes, msgConflictingScopes))
		}
	}
	return errs
}
