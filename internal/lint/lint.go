// Package lint finds LimitRanges, ResourceQuotas and quota admission
// configurations that kube-apiserver admits but that defeat themselves or each
// other (LINT-01 … LINT-14 in docs/behaviour.md). It takes the policies as the
// engine stored them and knows nothing of files, flags or terminals; the
// caller maps each finding's object to a position.
//
// Rules that say how a Pod fares probe it: a Pod with one container that sets
// no requests or limits goes through API defaulting, the namespace's
// LimitRanger defaults and the same constraint and quota code the engine runs,
// so every message quoted in a finding is the one kube-apiserver would answer.
package lint

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/eval/defaults"
	"github.com/limitcheck/limitcheck/internal/eval/features"
	"github.com/limitcheck/limitcheck/internal/eval/limitranger"
	"github.com/limitcheck/limitcheck/internal/eval/quota"
	"github.com/limitcheck/limitcheck/internal/eval/resources"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/eval/validation"
)

// Severity of a finding.
type Severity string

const (
	// Error: objects the policy means to admit are refused, or the policy
	// limits nothing.
	Error Severity = "error"
	// Warning: the outcome depends on something nobody controls, or a
	// limit can never be reached.
	Warning Severity = "warning"
)

// Rule IDs, stable: CI reports key on them. Each has a LINT section in
// docs/behaviour.md.
const (
	RuleDefaultRefused           = "lint/default-refused"              // LINT-01
	RuleQuotaMustSpecify         = "lint/quota-must-specify"           // LINT-02
	RuleDefaultExceedsQuota      = "lint/default-exceeds-quota"        // LINT-03
	RuleMinExceedsQuota          = "lint/min-exceeds-quota"            // LINT-04
	RuleMaxExceedsQuota          = "lint/max-exceeds-quota"            // LINT-05
	RuleOverlappingDefaults      = "lint/overlapping-defaults"         // LINT-06
	RuleQuotaOrder               = "lint/quota-order"                  // LINT-07
	RuleScopeUnmatchable         = "lint/scope-unmatchable"            // LINT-08
	RuleLimitedResourceUncovered = "lint/limited-resource-uncovered"   // LINT-09
	RuleUnknownPriorityClass     = "lint/unknown-priority-class"       // LINT-10
	RuleQuotaCountsNothing       = "lint/quota-counts-nothing"         // LINT-12
	RuleIneffectiveField         = "lint/ineffective-field"            // LINT-13
	RuleHeldFillsQuota           = "lint/namespace-objects-fill-quota" // LINT-14
)

// Object identifies what a finding is about.
type Object struct {
	Kind      string // LimitRange, ResourceQuota or ResourceQuotaConfiguration
	Namespace string // "" for the configuration
	Name      string
}

// Finding is one problem with the policies.
type Finding struct {
	Rule     string
	Severity Severity
	Object   Object
	// Message says what is wrong, quoting kube-apiserver where it would refuse
	// something; Fix says what to change. Both are one line.
	Message string
	Fix     string
}

// Input are the admitted policies.
type Input struct {
	// LimitRanges and Quotas as stored (after API defaulting), namespaces in
	// order of first appearance, each in admission order.
	LimitRanges []*corev1.LimitRange
	Quotas      []*corev1.ResourceQuota
	// PriorityClasses are the names of the input's PriorityClasses; nil when
	// the input has none (references are then taken on trust, RQ-34).
	PriorityClasses []string
	// Config is the ResourceQuota plugin's configuration, nil for none.
	Config *quota.Configuration
	Gates  features.Gates
	// APIs knows the kinds served, the input's custom resources included
	// (nil: the built-in kinds only).
	APIs *apis.Catalog
	// Held is what the objects a namespace holds before anything is created
	// in it charge to a quota, each that charges it something (nil: such
	// objects are not counted, --namespace-objects=false).
	Held func(namespace string, q *corev1.ResourceQuota) []Held
}

// Held is an object a namespace holds before anything is created in it (the
// ConfigMap kube-root-ca.crt, the ServiceAccount default, ...) and what it
// charges to one quota.
type Held struct {
	Kind, Name string
	Usage      corev1.ResourceList
}

// Probe names: the Pod and container the probing rules admit.
const (
	ProbePod       = "example"
	ProbeContainer = "app"
)

// Run applies every rule and returns the findings: per namespace (in order of
// first appearance) the LimitRange rules, then the quota rules, each in input
// order; then the configuration's.
func Run(in Input) []Finding {
	var out []Finding
	for _, ns := range namespaces(in) {
		lrs := filter(in.LimitRanges, func(lr *corev1.LimitRange) bool { return lr.Namespace == ns })
		qs := filter(in.Quotas, func(q *corev1.ResourceQuota) bool { return q.Namespace == ns })
		out = append(out, defaultRefused(in.Gates, ns, lrs)...)
		out = append(out, overlappingDefaults(lrs)...)
		out = append(out, ineffectiveFields(lrs)...)
		out = append(out, limitsAgainstQuota(lrs, qs)...)
		for i, q := range qs {
			out = append(out, scopeUnmatchable(q)...)
			out = append(out, bestEffortDefaulted(in.Gates, ns, lrs, q)...)
			out = append(out, unknownPriorityClass(q, in.PriorityClasses)...)
			out = append(out, quotaCountsNothing(q, in.APIs, quota.Checker{Gates: in.Gates})...)
			if in.Held != nil {
				out = append(out, heldFillsQuota(q, in.Held(ns, q))...)
			}
			out = append(out, quotaProbe(in.Gates, ns, lrs, q)...)
			out = append(out, quotaOrder(q, qs[:i])...)
		}
	}
	out = append(out, limitedUncovered(in.Config, in.Quotas)...)
	return out
}

func namespaces(in Input) []string {
	var out []string
	add := func(ns string) {
		if !slices.Contains(out, ns) {
			out = append(out, ns)
		}
	}
	for _, lr := range in.LimitRanges {
		add(lr.Namespace)
	}
	for _, q := range in.Quotas {
		add(q.Namespace)
	}
	return out
}

func filter[T any](list []T, keep func(T) bool) []T {
	var out []T
	for _, x := range list {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

func lrObject(lr *corev1.LimitRange) Object {
	return Object{Kind: "LimitRange", Namespace: lr.Namespace, Name: lr.Name}
}

func quotaObject(q *corev1.ResourceQuota) Object {
	return Object{Kind: "ResourceQuota", Namespace: q.Namespace, Name: q.Name}
}

// probe is a Pod of one container that sets no resources, after API
// defaulting and the LimitRanger defaults of lrs, in order (LR-10, LR-21).
func probe(gates features.Gates, ns string, lrs []*corev1.LimitRange, adjust func(*corev1.Pod)) *corev1.Pod {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: ProbePod, Namespace: ns},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: ProbeContainer, Image: ProbeContainer}}},
	}
	if adjust != nil {
		adjust(pod)
	}
	defaults.DefaultPod(pod, gates)
	for _, lr := range lrs {
		limitranger.Mutate(lr, pod)
	}
	return pod
}

// constraint is one key of an item's min, max or maxLimitRequestRatio, as
// an item of its own, so that a refusal names it.
type constraint struct {
	field string // "min", "max" or "maxLimitRequestRatio"
	name  corev1.ResourceName
	value resource.Quantity
	item  corev1.LimitRangeItem
}

// constraints splits an item in LimitRanger's order: min, max, ratio, keys sorted.
func constraints(item *corev1.LimitRangeItem) []constraint {
	var out []constraint
	for _, f := range []struct {
		field string
		list  corev1.ResourceList
		set   func(*corev1.LimitRangeItem, corev1.ResourceList)
	}{
		{"min", item.Min, func(it *corev1.LimitRangeItem, l corev1.ResourceList) { it.Min = l }},
		{"max", item.Max, func(it *corev1.LimitRangeItem, l corev1.ResourceList) { it.Max = l }},
		{"maxLimitRequestRatio", item.MaxLimitRequestRatio, func(it *corev1.LimitRangeItem, l corev1.ResourceList) { it.MaxLimitRequestRatio = l }},
	} {
		for _, k := range resources.SortedNames(f.list) {
			c := constraint{field: f.field, name: k, value: f.list[k], item: corev1.LimitRangeItem{Type: item.Type}}
			f.set(&c.item, corev1.ResourceList{k: f.list[k]})
			out = append(out, c)
		}
	}
	return out
}

// defaultRefused (LINT-01): the probe against each constraint of each
// Container and Pod item. A Pod minimum the probe's defaulted request does
// not meet is a warning, not an error: a Pod of more containers may meet it.
func defaultRefused(gates features.Gates, ns string, lrs []*corev1.LimitRange) []Finding {
	if len(lrs) == 0 {
		return nil
	}
	pod := probe(gates, ns, lrs, nil)
	res := &pod.Spec.Containers[0].Resources
	out := defaultsInvalid(gates, ns, lrs)
	for _, lr := range lrs {
		for i := range lr.Spec.Limits {
			item := &lr.Spec.Limits[i]
			who := "a container"
			switch item.Type {
			case corev1.LimitTypeContainer:
			case corev1.LimitTypePod:
				who = "a Pod of one container"
			default:
				continue
			}
			for _, c := range constraints(item) {
				errs := limitranger.ValidatePod(&corev1.LimitRange{Spec: corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{c.item}}}, pod, gates)
				if len(errs) == 0 {
					continue
				}
				if req, requested := res.Requests[c.name]; item.Type == corev1.LimitTypePod && c.field == "min" && requested {
					// Enough containers given the default meet it: a
					// warning that one alone does not.
					out = append(out, Finding{
						Rule: RuleDefaultRefused, Severity: Warning, Object: lrObject(lr),
						Message: fmt.Sprintf("spec.limits[%d] (Pod): %s that sets no %s gets %s and is refused: %s; only a Pod of %d or more such containers meets min.%s",
							i, who, c.name, describeDefaults(res, c.name), errs[0].Error(), containersFor(c.value, req), c.name),
						Fix: fmt.Sprintf("%s, or lower min.%s to at most %s", defaultRefusedFix(lr, lrs, item.Type, c.field, c.name, c.value, res), c.name, req.String()),
					})
					continue
				}
				out = append(out, Finding{
					Rule: RuleDefaultRefused, Severity: Error, Object: lrObject(lr),
					Message: fmt.Sprintf("spec.limits[%d] (%s): %s that sets no %s gets %s and is refused: %s", i, item.Type, who, c.name, describeDefaults(res, c.name), errs[0].Error()),
					Fix:     defaultRefusedFix(lr, lrs, item.Type, c.field, c.name, c.value, res),
				})
			}
		}
	}
	return out
}

// containersFor is how many containers, each given the request req, a Pod
// needs for their sum to reach min (req > 0, min above req).
func containersFor(min, req resource.Quantity) int64 {
	m, r := min.MilliValue(), req.MilliValue()
	if r <= 0 {
		return 0
	}
	return (m + r - 1) / r
}

// defaultsInvalid (LINT-01): the defaults make the probe a Pod that
// validation refuses (hugepages without cpu or memory), checked as the
// engine checks a Pod after LimitRanger's defaults. The finding is on the
// LimitRange whose defaults first make it invalid, in the order they are
// applied.
func defaultsInvalid(gates features.Gates, ns string, lrs []*corev1.LimitRange) []Finding {
	invalid := func(lrs []*corev1.LimitRange) (*corev1.Pod, *status.Denial) {
		pod := probe(gates, ns, lrs, nil)
		check := pod.DeepCopy()
		validation.PrepareForCreate(check)
		if errs := validation.Pod(check, validation.PodOptions{Gates: gates}); len(errs) > 0 {
			return pod, status.Invalid(schema.GroupKind{Kind: "Pod"}, pod.Name, errs)
		}
		return pod, nil
	}
	if _, d := invalid(nil); d != nil {
		return nil // the probe itself is not the point
	}
	for i, lr := range lrs {
		pod, d := invalid(lrs[:i+1])
		if d == nil {
			continue
		}
		item := slices.IndexFunc(lr.Spec.Limits, func(it corev1.LimitRangeItem) bool { return it.Type == corev1.LimitTypeContainer })
		return []Finding{{
			Rule: RuleDefaultRefused, Severity: Error, Object: lrObject(lr),
			Message: fmt.Sprintf("spec.limits[%d] (Container): a container that sets no resources gets %s and the Pod is refused: %s", item, describeResources(&pod.Spec.Containers[0].Resources), d.Message),
			Fix:     "change the Container item's defaults so that a Pod given them is valid, as the message says",
		}}
	}
	return nil
}

// describeResources: "requests hugepages-2Mi=100Mi and limits hugepages-2Mi=100Mi".
func describeResources(r *corev1.ResourceRequirements) string {
	list := func(what string, l corev1.ResourceList) string {
		if len(l) == 0 {
			return "no " + what
		}
		var parts []string
		for _, k := range resources.SortedNames(l) {
			v := l[k]
			parts = append(parts, string(k)+"="+v.String())
		}
		return what + " " + strings.Join(parts, ",")
	}
	return list("requests", r.Requests) + " and " + list("limits", r.Limits)
}

// describeDefaults: "request 100m and limit 2", "request 100m and no limit".
func describeDefaults(r *corev1.ResourceRequirements, k corev1.ResourceName) string {
	part := func(what string, l corev1.ResourceList) string {
		if q, ok := l[k]; ok {
			return what + " " + q.String()
		}
		return "no " + what
	}
	return part("request", r.Requests) + " and " + part("limit", r.Limits)
}

// defaultRefusedFix says what to change: the container defaults of the
// LimitRange that gives them (this one, or the one applied before it,
// named), or a Container item to add when none gives them.
func defaultRefusedFix(lr *corev1.LimitRange, lrs []*corev1.LimitRange, t corev1.LimitType, kind string, k corev1.ResourceName, enforced resource.Quantity, r *corev1.ResourceRequirements) string {
	req, hasReq := r.Requests[k]
	lim, hasLim := r.Limits[k]
	item := "the Container item" // of the LimitRange whose defaults the probe got
	if src := defaultsSource(lrs, k); src != nil && src != lr {
		item = "the Container item of LimitRange " + src.Namespace + "/" + src.Name
	}
	give := func(field string) string {
		if defaultsSource(lrs, k) == nil && containerItem(lr) == nil {
			return "add a Container item with " + field
		}
		return "give " + item + " a " + field
	}
	switch {
	case kind == "maxLimitRequestRatio" && hasReq && hasLim && req.Sign() > 0:
		return fmt.Sprintf("%s of at least %s, or raise maxLimitRequestRatio.%s to %s", give("defaultRequest."+string(k)),
			ratioRequest(k, lim, enforced).String(), k, strings.TrimRight(strings.TrimRight(fmt.Sprintf("%f", float64(lim.MilliValue())/float64(req.MilliValue())), "0"), "."))
	case !hasLim && kind != "min":
		return fmt.Sprintf("%s (or a max.%s, which API defaulting copies into default.%s)", give("default."+string(k)), k, k)
	case !hasReq:
		return give("defaultRequest." + string(k))
	case kind == "min":
		return fmt.Sprintf("%s of at least %s", give("defaultRequest."+string(k)), enforced.String())
	case t == corev1.LimitTypePod && item == "the Container item":
		return fmt.Sprintf("lower the Container default.%s to at most %s, or raise the Pod item's max.%s", k, enforced.String(), k)
	case t == corev1.LimitTypePod:
		return fmt.Sprintf("lower default.%s of %s to at most %s, or raise the Pod item's max.%s", k, item, enforced.String(), k)
	case item != "the Container item":
		return fmt.Sprintf("lower default.%s and defaultRequest.%s of %s to at most %s, or raise max.%s here", k, k, item, enforced.String(), k)
	}
	return fmt.Sprintf("lower default.%s and defaultRequest.%s to at most %s", k, k, enforced.String())
}

// defaultsSource is the LimitRange whose Container defaults for k a
// container that sets none gets: the first, in the order they are applied,
// with a default or defaultRequest for it; nil when none has one.
func defaultsSource(lrs []*corev1.LimitRange, k corev1.ResourceName) *corev1.LimitRange {
	for _, lr := range lrs {
		if it := containerItem(lr); it != nil {
			if _, ok := it.Default[k]; ok {
				return lr
			}
			if _, ok := it.DefaultRequest[k]; ok {
				return lr
			}
		}
	}
	return nil
}

// containerItem is a LimitRange's first Container item.
func containerItem(lr *corev1.LimitRange) *corev1.LimitRangeItem {
	for i := range lr.Spec.Limits {
		if lr.Spec.Limits[i].Type == corev1.LimitTypeContainer {
			return &lr.Spec.Limits[i]
		}
	}
	return nil
}

// ratioRequest is the smallest request lim/ratio allows, rounded up to a
// millicore for cpu and to a whole unit (a byte) for every other resource.
func ratioRequest(k corev1.ResourceName, lim, ratio resource.Quantity) *resource.Quantity {
	r := ratio.MilliValue()
	if k != corev1.ResourceCPU {
		return resource.NewQuantity((lim.Value()*1000+r-1)/r, lim.Format)
	}
	return resource.NewMilliQuantity((lim.MilliValue()*1000+r-1)/r, lim.Format)
}

// ineffectiveFields (LINT-13): the maps of a PersistentVolumeClaim item that
// LimitRanger never reads. kube-apiserver admits default, defaultRequest and
// maxLimitRequestRatio there, but claims are never mutated (no size is filled
// in) and a claim is checked against min and max only.
func ineffectiveFields(lrs []*corev1.LimitRange) []Finding {
	var out []Finding
	for _, lr := range lrs {
		for i, item := range lr.Spec.Limits {
			if item.Type != corev1.LimitTypePersistentVolumeClaim {
				continue
			}
			var unused []string
			for _, m := range []struct {
				name string
				list corev1.ResourceList
			}{{"default", item.Default}, {"defaultRequest", item.DefaultRequest}, {"maxLimitRequestRatio", item.MaxLimitRequestRatio}} {
				for _, k := range resources.SortedNames(m.list) {
					unused = append(unused, m.name+"."+string(k))
				}
			}
			if len(unused) == 0 {
				continue
			}
			verb := "has"
			if len(unused) > 1 {
				verb = "have"
			}
			out = append(out, Finding{
				Rule: RuleIneffectiveField, Severity: Warning, Object: lrObject(lr),
				Message: fmt.Sprintf("spec.limits[%d] (PersistentVolumeClaim): %s %s no effect: LimitRanger never fills in a claim's size and checks a claim against min and max only",
					i, strings.Join(unused, ", "), verb),
				Fix: "remove them; each claim must set spec.resources.requests.storage itself, which validation requires",
			})
		}
	}
	return out
}

// overlappingDefaults (LINT-06): two LimitRanges of a namespace whose
// Container items default one resource to different values.
func overlappingDefaults(lrs []*corev1.LimitRange) []Finding {
	merged := make([][2]corev1.ResourceList, len(lrs))
	for i, lr := range lrs {
		req, lim := corev1.ResourceList{}, corev1.ResourceList{}
		for _, item := range lr.Spec.Limits {
			if item.Type == corev1.LimitTypeContainer {
				for k, v := range item.DefaultRequest {
					req[k] = v
				}
				for k, v := range item.Default {
					lim[k] = v
				}
			}
		}
		merged[i] = [2]corev1.ResourceList{req, lim}
	}
	var out []Finding
	for j := range lrs {
		for i := range j {
			var diffs []string
			for w, what := range []string{"request", "limit"} {
				a, b := merged[i][w], merged[j][w]
				for _, k := range resources.SortedNames(b) {
					if av, ok := a[k]; ok && av.Cmp(b[k]) != 0 {
						bv := b[k]
						diffs = append(diffs, fmt.Sprintf("%s %s (%s here, %s there)", k, what, bv.String(), av.String()))
					}
				}
			}
			if len(diffs) > 0 {
				out = append(out, Finding{
					Rule: RuleOverlappingDefaults, Severity: Warning, Object: lrObject(lrs[j]),
					Message: fmt.Sprintf("defaults conflict with LimitRange %s/%s for %s: kube-apiserver applies the one it lists first, in no fixed order", lrs[i].Namespace, lrs[i].Name, strings.Join(diffs, ", ")),
					Fix:     "give each resource's container defaults in one LimitRange of the namespace",
				})
			}
		}
	}
	return out
}

// quotaNames are the hard names of a quota that bound a container or Pod's
// k: requests.k, limits.k, and k itself for cpu, memory, ephemeral-storage
// (an alias of requests.k).
func quotaNames(k corev1.ResourceName) []corev1.ResourceName {
	out := []corev1.ResourceName{corev1.ResourceName(resources.RequestsPrefix + string(k)), corev1.ResourceName("limits." + string(k))}
	if resources.IsStandardQuotaResourceName(k) {
		out = append([]corev1.ResourceName{k}, out...)
	}
	return out
}

// limitsAgainstQuota (LINT-04, LINT-05): a Container, Pod or
// PersistentVolumeClaim min above a quota's hard for the resource (nothing
// fits), a max above it (never reached).
func limitsAgainstQuota(lrs []*corev1.LimitRange, qs []*corev1.ResourceQuota) []Finding {
	var out []Finding
	for _, lr := range lrs {
		for i := range lr.Spec.Limits {
			item := &lr.Spec.Limits[i]
			object := "Pod"
			switch item.Type {
			case corev1.LimitTypeContainer, corev1.LimitTypePod:
			case corev1.LimitTypePersistentVolumeClaim:
				object = "claim"
			default:
				continue
			}
			for _, q := range qs {
				for _, k := range resources.SortedNames(item.Min) {
					if over := above(item.Min[k], q.Spec.Hard, k); over != "" {
						v := item.Min[k]
						out = append(out, Finding{
							Rule: RuleMinExceedsQuota, Severity: Error, Object: lrObject(lr),
							Message: fmt.Sprintf("spec.limits[%d] (%s): min %s %s is above %s of ResourceQuota %s/%s: no %s the quota covers can pass both", i, item.Type, k, v.String(), over, q.Namespace, q.Name, object),
							Fix:     fmt.Sprintf("lower min.%s below the quota's hard, or raise the quota", k),
						})
					}
				}
				for _, k := range resources.SortedNames(item.Max) {
					if _, min := item.Min[k]; min && above(item.Min[k], q.Spec.Hard, k) != "" {
						continue
					}
					if over := above(item.Max[k], q.Spec.Hard, k); over != "" {
						v := item.Max[k]
						out = append(out, Finding{
							Rule: RuleMaxExceedsQuota, Severity: Warning, Object: lrObject(lr),
							Message: fmt.Sprintf("spec.limits[%d] (%s): max %s %s is above %s of ResourceQuota %s/%s: the LimitRange admits what the quota never holds", i, item.Type, k, v.String(), over, q.Namespace, q.Name),
							Fix:     fmt.Sprintf("lower max.%s to the quota's hard, or raise the quota", k),
						})
					}
				}
			}
		}
	}
	return out
}

// above lists the hard names bounding k that v exceeds: "requests.cpu=1,
// limits.cpu=2"; for storage also each StorageClass's requests.storage,
// which bounds the claims of that class.
func above(v resource.Quantity, hard corev1.ResourceList, k corev1.ResourceName) string {
	var over []string
	names := quotaNames(k)
	if k == corev1.ResourceStorage {
		for _, name := range resources.SortedNames(hard) {
			if quota.ClassStorageName(name) {
				names = append(names, name)
			}
		}
	}
	for _, name := range names {
		if h, ok := hard[name]; ok && v.Cmp(h) > 0 {
			over = append(over, string(name)+"="+h.String())
		}
	}
	return strings.Join(over, ", ")
}

// quotaProbe (LINT-02, LINT-03): the probe, made to match the quota's scopes
// where a Pod can, admitted against the quota alone in an empty namespace.
func quotaProbe(gates features.Gates, ns string, lrs []*corev1.LimitRange, q *corev1.ResourceQuota) []Finding {
	pod := probe(gates, ns, lrs, func(p *corev1.Pod) { matchScopes(p, q) })
	// Object counts (pods: 0) are a deliberate way to refuse every Pod: leave them out.
	hard := corev1.ResourceList{}
	for k, v := range q.Spec.Hard {
		if k != corev1.ResourcePods && !strings.HasPrefix(string(k), "count/") {
			hard[k] = v
		}
	}
	if len(hard) == 0 {
		return nil
	}
	c := q.DeepCopy()
	c.Spec.Hard = hard
	checker := quota.Checker{Gates: gates, Usage: quota.UsageComputed}
	var space quota.Namespace
	checker.ComputeStatus(&space, c)
	space.Quotas = []*corev1.ResourceQuota{c}
	d := checker.Check(&space, schema.GroupResource{Resource: "pods"}, pod.Name, pod)
	if d == nil {
		return nil
	}
	switch {
	case strings.Contains(d.Message, "failed quota: "+q.Name+": must specify "):
		var missing []string
		_, list, _ := strings.Cut(d.Message, "must specify ")
		for _, part := range strings.Split(list, "; ") {
			name, _, _ := strings.Cut(part, " for: ")
			missing = append(missing, name)
		}
		who := "a Pod"
		if sels := selectors(q); len(sels) > 0 {
			// Only the Pods the quota selects are refused.
			var shown []string
			for _, s := range sels {
				if s.Operator == corev1.ScopeSelectorOpExists && !classScope(s.ScopeName) {
					shown = append(shown, string(s.ScopeName))
					continue
				}
				shown = append(shown, fmt.Sprintf("%s %s%s", s.ScopeName, s.Operator, valuesText(s.Values)))
			}
			who = "a Pod the quota selects (" + strings.Join(shown, ", ") + ")"
		}
		exempt := ""
		if gates.Enabled(features.PodLevelResources) {
			exempt = " unless it sets pod-level resources"
		}
		return []Finding{{
			Rule: RuleQuotaMustSpecify, Severity: Error, Object: quotaObject(q),
			Message: fmt.Sprintf("%s whose container sets no %s is refused%s, and no LimitRange of namespace %s defaults it: %s", who, strings.Join(missing, ", "), exempt, ns, d.Message),
			Fix:     fmt.Sprintf("give a LimitRange of namespace %s a Container item with %s", ns, strings.Join(defaultFields(missing), ", ")),
		}}
	case strings.Contains(d.Message, "exceeded quota: "+q.Name+", "):
		return []Finding{{
			Rule: RuleDefaultExceedsQuota, Severity: Error, Object: quotaObject(q),
			Message: "a Pod of one container that sets no resources gets the LimitRange defaults and is refused even in an empty namespace: " + d.Message,
			Fix:     "lower the LimitRange's container defaults below the quota's hard, or raise the quota",
		}}
	}
	return nil
}

// heldFillsQuota (LINT-14): hard values, above 0, that the objects every
// namespace holds use in full before anything is created in it: every new
// object the resource counts is refused. 0 is a deliberate ban, left out.
func heldFillsQuota(q *corev1.ResourceQuota, held []Held) []Finding {
	used := corev1.ResourceList{}
	for _, h := range held {
		for k, v := range h.Usage {
			sum := used[k]
			sum.Add(v)
			used[k] = sum
		}
	}
	var full, raise []string
	for _, k := range resources.SortedNames(q.Spec.Hard) {
		hard, u := q.Spec.Hard[k], used[k]
		if hard.Sign() <= 0 || u.Cmp(hard) < 0 {
			continue
		}
		full = append(full, string(k)+"="+hard.String())
		more := u.DeepCopy()
		more.Add(*resource.NewQuantity(1, resource.DecimalSI))
		raise = append(raise, string(k)+" to at least "+more.String())
	}
	if len(full) == 0 {
		return nil
	}
	var names []string
	for _, h := range held {
		for _, k := range resources.SortedNames(h.Usage) {
			if slices.ContainsFunc(full, func(f string) bool { return strings.HasPrefix(f, string(k)+"=") }) {
				names = append(names, h.Kind+" "+h.Name)
				break
			}
		}
	}
	return []Finding{{
		Rule: RuleHeldFillsQuota, Severity: Error, Object: quotaObject(q),
		Message: fmt.Sprintf("%s: what namespace %s holds before anything is created in it (%s) uses all of it, so kube-apiserver refuses every new object it counts", strings.Join(full, ", "), q.Namespace, strings.Join(names, ", ")),
		Fix:     "raise " + strings.Join(raise, ", ") + ": the namespace's own objects count against the quota",
	}}
}

// defaultFields: the LimitRange fields that default each quota name.
func defaultFields(names []string) []string {
	var out []string
	for _, n := range names {
		f := "defaultRequest." + strings.TrimPrefix(n, resources.RequestsPrefix)
		if strings.HasPrefix(n, "limits.") {
			f = "default." + strings.TrimPrefix(n, "limits.")
		}
		if !slices.Contains(out, f) { // cpu and requests.cpu are one default
			out = append(out, f)
		}
	}
	return out
}

// matchScopes makes the probe match what a Pod can be made to match: a
// Terminating scope (an active deadline), a PriorityClass In selector (its
// first class). Other selectors are left to the probe as it is.
func matchScopes(p *corev1.Pod, q *corev1.ResourceQuota) {
	for _, s := range selectors(q) {
		switch {
		case s.ScopeName == corev1.ResourceQuotaScopeTerminating:
			d := int64(3600)
			p.Spec.ActiveDeadlineSeconds = &d
		case s.ScopeName == corev1.ResourceQuotaScopePriorityClass && s.Operator == corev1.ScopeSelectorOpIn && len(s.Values) > 0:
			p.Spec.PriorityClassName = s.Values[0]
		}
	}
}

// selectors are a quota's scopes (as Exists) and scope selector requirements.
func selectors(q *corev1.ResourceQuota) []corev1.ScopedResourceSelectorRequirement {
	var out []corev1.ScopedResourceSelectorRequirement
	for _, s := range q.Spec.Scopes {
		out = append(out, corev1.ScopedResourceSelectorRequirement{ScopeName: s, Operator: corev1.ScopeSelectorOpExists})
	}
	if q.Spec.ScopeSelector != nil {
		out = append(out, q.Spec.ScopeSelector.MatchExpressions...)
	}
	return out
}
