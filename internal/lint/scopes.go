package lint

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/limitcheck/limitcheck/internal/eval/features"
	"github.com/limitcheck/limitcheck/internal/eval/quota"
	"github.com/limitcheck/limitcheck/internal/eval/resources"
	"github.com/limitcheck/limitcheck/internal/eval/validation"
)

// systemPriorityClasses always exist in a cluster (RQ-34).
var systemPriorityClasses = []string{"system-cluster-critical", "system-node-critical"}

// contradiction says why no object satisfies every selector, or "" when one
// can. Pairs kube-apiserver already refuses within spec.scopes or within the
// scope selector (RQ-04, RQ-05) are admitted across the two. With created,
// VolumeAttributesClass requirements are held to one class too, as a claim
// being created names one at most; a claim being modified names two (spec
// and status), which both a gold and a silver requirement match.
func contradiction(sels []corev1.ScopedResourceSelectorRequirement, created bool) string {
	has := map[corev1.ResourceQuotaScope]bool{}
	for _, s := range sels {
		if !classScope(s.ScopeName) {
			has[s.ScopeName] = true
		}
	}
	for _, pair := range [][2]corev1.ResourceQuotaScope{
		{corev1.ResourceQuotaScopeTerminating, corev1.ResourceQuotaScopeNotTerminating},
		{corev1.ResourceQuotaScopeBestEffort, corev1.ResourceQuotaScopeNotBestEffort},
	} {
		if has[pair[0]] && has[pair[1]] {
			return fmt.Sprintf("%s and %s together: no Pod is both", pair[0], pair[1])
		}
	}
	if why := classContradiction(sels, corev1.ResourceQuotaScopePriorityClass, "priority class"); why != "" || !created {
		return why
	}
	return classContradiction(sels, corev1.ResourceQuotaScopeVolumeAttributesClass, "volume attributes class")
}

// classScope: a scope whose selector names classes, of which an object names
// at most one (a Pod's priorityClassName, a claim's volumeAttributesClassName).
func classScope(s corev1.ResourceQuotaScope) bool {
	return s == corev1.ResourceQuotaScopePriorityClass || s == corev1.ResourceQuotaScopeVolumeAttributesClass
}

// classContradiction: the requirements on scope exclude every class an object
// may name (noun says what the classes are), or "".
func classContradiction(sels []corev1.ScopedResourceSelectorRequirement, scope corev1.ResourceQuotaScope, noun string) string {
	var allowed []string // nil: any
	var constrained, needClass, needNone bool
	var excluded []string
	var shown []string
	for _, s := range sels {
		if s.ScopeName != scope {
			continue
		}
		shown = append(shown, fmt.Sprintf("%s %s%s", s.ScopeName, s.Operator, valuesText(s.Values)))
		switch s.Operator {
		case corev1.ScopeSelectorOpIn:
			needClass = true
			if !constrained {
				allowed, constrained = slices.Clone(s.Values), true
			} else {
				allowed = filter(allowed, func(v string) bool { return slices.Contains(s.Values, v) })
			}
		case corev1.ScopeSelectorOpNotIn:
			excluded = append(excluded, s.Values...)
		case corev1.ScopeSelectorOpExists:
			needClass = true
		case corev1.ScopeSelectorOpDoesNotExist:
			needNone = true
		}
	}
	left := filter(allowed, func(v string) bool { return !slices.Contains(excluded, v) })
	if (needClass && needNone) || (constrained && len(left) == 0) {
		return strings.Join(shown, " and ") + ": no " + noun + " satisfies them all"
	}
	return ""
}

func valuesText(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return " [" + strings.Join(v, " ") + "]"
}

// scopeUnmatchable (LINT-08).
func scopeUnmatchable(q *corev1.ResourceQuota) []Finding {
	why := contradiction(selectors(q), false)
	if why == "" {
		return nil
	}
	return []Finding{{
		Rule: RuleScopeUnmatchable, Severity: Error, Object: quotaObject(q),
		Message: "scopes " + why + ", so the quota limits nothing",
		Fix:     "drop the contradicting scope, or split the quota in two",
	}}
}

// bestEffortDefaulted (LINT-08): a quota of the BestEffort scope in a
// namespace whose LimitRanges give a container that sets nothing a cpu or
// memory request or limit. Every container of every Pod then has one, so no
// Pod is BestEffort: the probe, which sets nothing, is the one Pod that could
// be, and the quota plugin's own scope matching says it is not.
func bestEffortDefaulted(gates features.Gates, ns string, lrs []*corev1.LimitRange, q *corev1.ResourceQuota) []Finding {
	sels := selectors(q)
	i := slices.IndexFunc(sels, func(s corev1.ScopedResourceSelectorRequirement) bool {
		return s.ScopeName == corev1.ResourceQuotaScopeBestEffort
	})
	if i < 0 || contradiction(sels, false) != "" {
		return nil
	}
	pod := probe(gates, ns, lrs, nil)
	if (quota.Checker{Gates: gates}).PodMatchesScope(sels[i], pod) {
		return nil
	}
	r := &pod.Spec.Containers[0].Resources
	var defaulted []string
	for _, k := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		req, lim := r.Requests[k], r.Limits[k]
		if req.Sign() > 0 || lim.Sign() > 0 {
			defaulted = append(defaulted, string(k))
		}
	}
	if len(defaulted) == 0 {
		return nil
	}
	k := corev1.ResourceName(defaulted[0])
	from := "the namespace's LimitRanges"
	if src := defaultsSource(lrs, k); src != nil {
		from = "LimitRange " + src.Namespace + "/" + src.Name
	}
	return []Finding{{
		Rule: RuleScopeUnmatchable, Severity: Error, Object: quotaObject(q),
		Message: fmt.Sprintf("scope BestEffort: a container that sets no %s gets %s from %s, so no Pod is BestEffort and the quota limits nothing", k, describeDefaults(r, k), from),
		Fix:     fmt.Sprintf("drop the quota, or remove the %s defaults of the Container items of namespace %s, with the max and min that API defaulting copies into them", strings.Join(defaulted, " and "), ns),
	}}
}

// unknownPriorityClass (LINT-10): selector values naming classes the input
// does not define, when it defines some.
func unknownPriorityClass(q *corev1.ResourceQuota, classes []string) []Finding {
	if len(classes) == 0 {
		return nil
	}
	var out []Finding
	for _, s := range selectors(q) {
		if s.ScopeName != corev1.ResourceQuotaScopePriorityClass {
			continue
		}
		for _, v := range s.Values {
			if slices.Contains(classes, v) || slices.Contains(systemPriorityClasses, v) {
				continue
			}
			effect := "excludes no Pod"
			if s.Operator == corev1.ScopeSelectorOpIn {
				effect = "matches no Pod"
			}
			out = append(out, Finding{
				Rule: RuleUnknownPriorityClass, Severity: Warning, Object: quotaObject(q),
				Message: fmt.Sprintf("scopeSelector %s %s names PriorityClass %q, which the input does not define: the Priority plugin refuses Pods naming it, so the value %s", s.ScopeName, s.Operator, v, effect),
				Fix:     fmt.Sprintf("correct the name, or add PriorityClass %q to the input", v),
			})
		}
	}
	return out
}

// quotaOrder (LINT-07): q and an earlier quota of its namespace limit the
// same name for objects both can match; an object over both, or missing a
// required name of both, is refused naming whichever kube-apiserver lists
// first. Scoped quotas match Pods, or claims when a scope is
// VolumeAttributesClass.
func quotaOrder(q *corev1.ResourceQuota, earlier []*corev1.ResourceQuota) []Finding {
	var out []Finding
	for _, p := range earlier {
		if contradiction(append(selectors(p), selectors(q)...), true) != "" {
			continue
		}
		both := append(selectors(p), selectors(q)...)
		scoped := len(both) > 0
		tracked, noun := podName, "Pod"
		if slices.ContainsFunc(both, func(s corev1.ScopedResourceSelectorRequirement) bool {
			return s.ScopeName == corev1.ResourceQuotaScopeVolumeAttributesClass
		}) {
			tracked, noun = claimName, "claim"
		}
		var common []string
		for _, k := range resources.SortedNames(q.Spec.Hard) {
			if _, ok := p.Spec.Hard[k]; !ok {
				continue
			}
			if scoped && !tracked(k) {
				continue // scopes match only Pods (or claims): nothing else meets both
			}
			common = append(common, string(k))
		}
		if len(common) == 0 {
			continue
		}
		out = append(out, Finding{
			Rule: RuleQuotaOrder, Severity: Warning, Object: quotaObject(q),
			Message: fmt.Sprintf("limits %s as ResourceQuota %s/%s does: an object refused by both is told about the one kube-apiserver lists first, in no fixed order", strings.Join(common, ", "), p.Namespace, p.Name),
			Fix:     "limit each resource in one quota, or give the quotas scopes no " + noun + " matches together",
		})
	}
	return out
}

// claimName: a quota name the PersistentVolumeClaim evaluator tracks.
func claimName(k corev1.ResourceName) bool {
	s := string(k)
	return k == corev1.ResourcePersistentVolumeClaims || k == "count/persistentvolumeclaims" || k == corev1.ResourceRequestsStorage ||
		strings.Contains(s, ".storageclass.storage.k8s.io/")
}

// podName: a quota name the Pod evaluator tracks, as far as scopes go.
func podName(k corev1.ResourceName) bool {
	s := string(k)
	return k == corev1.ResourcePods || k == "count/pods" || k == corev1.ResourceCPU || k == corev1.ResourceMemory ||
		k == corev1.ResourceEphemeralStorage || strings.HasPrefix(s, "requests.") || strings.HasPrefix(s, "limits.") ||
		strings.HasPrefix(s, resources.HugePagesPrefix)
}

// quotaNameExample is " (e.g. NAME)" for the first name a quota may limit
// that contains term: requests.term, term itself, count/term; "" for none.
func quotaNameExample(term string) string {
	for _, name := range []string{"requests." + term, term, "count/" + term} {
		if validation.IsQuotaResourceName(corev1.ResourceName(name)) {
			return " (e.g. " + name + ")"
		}
	}
	return ""
}

// limitedUncovered (LINT-09): a limitedResources entry that no quota in the
// input covers: such objects are refused in every namespace.
func limitedUncovered(cfg *quota.Configuration, qs []*corev1.ResourceQuota) []Finding {
	if cfg == nil {
		return nil
	}
	obj := Object{Kind: "ResourceQuotaConfiguration"}
	var out []Finding
	for i, lr := range cfg.LimitedResources {
		what := lr.Resource
		if lr.APIGroup != "" {
			what += "." + lr.APIGroup
		}
		for _, term := range lr.MatchContains {
			covered := false
			for _, q := range qs {
				for k := range q.Spec.Hard {
					covered = covered || strings.Contains(string(k), term)
				}
			}
			if !covered {
				out = append(out, Finding{
					Rule: RuleLimitedResourceUncovered, Severity: Warning, Object: obj,
					Message: fmt.Sprintf("limitedResources[%d]: %s whose usage names contain %q are refused with \"insufficient quota to consume\" wherever no quota covers them, and no ResourceQuota in the input limits such a name", i, what, term),
					Fix:     "add a ResourceQuota limiting such a name" + quotaNameExample(term) + " to each namespace, or drop the entry",
				})
			}
		}
		for _, s := range lr.MatchScopes {
			covered := false
			for _, q := range qs {
				for _, qs := range selectors(q) {
					covered = covered || qs.ScopeName == s.ScopeName
				}
			}
			if !covered {
				out = append(out, Finding{
					Rule: RuleLimitedResourceUncovered, Severity: Warning, Object: obj,
					Message: fmt.Sprintf("limitedResources[%d]: %s matching {%s %s%s} are refused with \"insufficient quota to match these scopes\" wherever no quota covers them, and no ResourceQuota in the input has a %s scope", i, what, s.ScopeName, s.Operator, valuesText(s.Values), s.ScopeName),
					Fix:     fmt.Sprintf("add a ResourceQuota with a %s scope selector to each namespace, or drop the entry", s.ScopeName),
				})
			}
		}
	}
	return out
}
