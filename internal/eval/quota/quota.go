// Package quota is the ResourceQuota admission plugin (CTRL CheckRequest in
// docs/behaviour.md; RQ-19..RQ-27) and the quota controller's status
// computation (RQC; RQ-07, RQ-08), over the quotas and admitted objects of one
// namespace (Namespace). It knows nothing of the engine that holds them: a
// Checker carries the feature gates, the plugin's configuration and its
// switch.
package quota

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/limitcheck/limitcheck/internal/eval/status"

	"github.com/limitcheck/limitcheck/internal/eval/resources"

	"github.com/limitcheck/limitcheck/internal/eval/features"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Usage selects where an admitted quota's status.used starts from.
type Usage string

const (
	// UsageComputed: as a freshly synced quota controller computes it over the
	// objects already admitted in the namespace.
	UsageComputed Usage = "computed"
	// UsageObserved: the status written in the input (a live namespace dump).
	UsageObserved Usage = "observed"
)

// State is an admitted quota as it stands after the run.
type State struct {
	Quota *corev1.ResourceQuota // status.hard and status.used are the final state
}

// Namespace is the quota state of one namespace: its active quotas and the
// objects stored in it.
type Namespace struct {
	Quotas  []*corev1.ResourceQuota // admitted quotas, in input order (RQ-22)
	Objects []Admitted              // every admitted object, for the quota controller's recount
	// NoRecount says that no quota will be created in the namespace any more:
	// objects are charged as always but no longer kept in Objects, which only
	// a later quota's recount reads.
	NoRecount bool
	// kept is what requests keep of each quota between them (hardNames,
	// charge); nil until the first request.
	kept map[*corev1.ResourceQuota]*kept

	// Creator names the workload whose controller creates the object being
	// checked ("Deployment shop/web"), "" for an object of the input; the
	// engine sets it before each check. ChargedBy is, by quota and resource
	// name, the first workload whose created objects were charged for it;
	// Raced, after a check refused for exceeding a quota in a resource that
	// another workload's created objects were charged for, names that
	// workload: which of the two a cluster refuses is a race (WL-03).
	Creator   string
	ChargedBy map[quotaResource]string
	Raced     string
}

// quotaResource is a resource of a quota, by their names.
type quotaResource struct {
	quota    string
	resource corev1.ResourceName
}

// kept is what the requests of a namespace keep of one of its quotas.
type kept struct {
	// hard is the names of status.hard in lexical order (hardNames).
	hard []corev1.ResourceName
	// used is the status.used list the last charge wrote, every amount in its
	// stored form (charge); shared says a Snapshot holds it.
	used   unsafe.Pointer
	shared bool
	// sums is the scratch of a request's new totals for this quota
	// (CheckUsage), kept for its capacity: charge reads it, never keeps it.
	sums []namedAmount
}

// keptFor returns what is kept of q, made on first use.
func (ns *Namespace) keptFor(q *corev1.ResourceQuota) *kept {
	k := ns.kept[q]
	if k == nil {
		if ns.kept == nil {
			ns.kept = map[*corev1.ResourceQuota]*kept{}
		}
		k = &kept{}
		ns.kept[q] = k
	}
	return k
}

// hardNames returns the names of q.Status.Hard in lexical order
// (resources.SortedNames), which the plugin reads for every request; the
// slice is shared and must not be changed. Status.hard is written once, when
// the quota is activated (ComputeStatus, ObservedStatus), so the names are
// kept per quota; an entry whose names no longer are exactly the list's keys
// is computed anew.
func (ns *Namespace) hardNames(q *corev1.ResourceQuota) []corev1.ResourceName {
	k := ns.keptFor(q)
	names := k.hard
	ok := names != nil && len(names) == len(q.Status.Hard)
	for i := 0; ok && i < len(names); i++ {
		_, ok = q.Status.Hard[names[i]]
	}
	if !ok {
		names = resources.SortedNames(q.Status.Hard)
		k.hard = names
	}
	return names
}

// charge returns q's status.used with the amounts of sums (names and new
// totals) in their stored form. Every amount of the list is in its stored
// form after a charge, as after kube-apiserver's UpdateStatus; when q's
// status.used is still the list the last charge wrote, only the amounts
// that changed are read back. That list is changed in place, unless a
// Snapshot holds it: then the new list is another one, which shares the
// amounts that did not change with it.
func (ns *Namespace) charge(q *corev1.ResourceQuota, sums []namedAmount) corev1.ResourceList {
	k := ns.keptFor(q)
	old := q.Status.Used
	stored := old != nil && k.used == reflect.ValueOf(old).UnsafePointer()
	if stored && !k.shared {
		for _, s := range sums {
			old[s.name] = resources.StoredQuantity(s.amount)
		}
		return old
	}
	k.shared = false
	used := make(corev1.ResourceList, len(old)+len(sums))
	for name, v := range old {
		if stored {
			used[name] = v
		} else {
			used[name] = resources.StoredQuantity(v)
		}
	}
	for _, s := range sums {
		used[s.name] = resources.StoredQuantity(s.amount)
	}
	k.used = reflect.ValueOf(used).UnsafePointer()
	return used
}

// namedAmount is a quota's new total for one resource.
type namedAmount struct {
	name   corev1.ResourceName
	amount resource.Quantity
}

// record keeps obj for the recount of a later quota (unless NoRecount).
func (ns *Namespace) record(ev evaluator, obj runtime.Object) {
	if !ns.NoRecount {
		ns.Objects = append(ns.Objects, Admitted{ev: ev, obj: obj})
	}
}

// Admitted is one object admitted into a namespace, kept for the quota
// controller's recount when a quota arrives later. An object charged but then
// not stored (storage's 409) is cut off the end of Namespace.Objects.
type Admitted struct {
	ev  evaluator
	obj runtime.Object
	// more counts the identical replicas admitted after this one by
	// arithmetic (Namespace.Repeat), each charged the same usage.
	more int
}

// Checker runs the plugin and the controller's count with one configuration.
type Checker struct {
	// Gates are the feature gates the evaluators read.
	Gates features.Gates
	// Config is the plugin's configuration (limitedResources); nil for none.
	Config *Configuration
	// Disabled switches the plugin off (--disable-admission-plugins=ResourceQuota):
	// Check admits everything without charging or recording it.
	Disabled bool
	// Usage says where a quota's status.used starts (ComputeStatus).
	Usage Usage
	// Unenforced charges every object as Check would but refuses none for
	// exceeding a hard limit: what a namespace would use if its quotas were
	// large enough (FIT-02). Every other refusal stays.
	Unenforced bool
	// Counted says which count/<resource>.<group> names the quota controller
	// has an evaluator for (the resources it discovers, RQ-08); nil: all.
	Counted func(schema.GroupResource) bool
}

// Add records obj (group/resource gr) as stored in ns without any check, as
// the objects a namespace holds before anything is created in it (NS-01).
func (c Checker) Add(ns *Namespace, gr schema.GroupResource, obj runtime.Object) {
	ns.record(c.evaluatorFor(gr), obj)
}

// ignoredResources are never charged (INST ignoredResources).
var ignoredResources = map[schema.GroupResource]bool{
	{Resource: "bindings"}: true, {Resource: "componentstatuses"}: true, {Resource: "events"}: true,
	{Group: "events.k8s.io", Resource: "events"}:                           true,
	{Group: "authentication.k8s.io", Resource: "tokenreviews"}:             true,
	{Group: "authentication.k8s.io", Resource: "selfsubjectreviews"}:       true,
	{Group: "authorization.k8s.io", Resource: "subjectaccessreviews"}:      true,
	{Group: "authorization.k8s.io", Resource: "selfsubjectaccessreviews"}:  true,
	{Group: "authorization.k8s.io", Resource: "localsubjectaccessreviews"}: true,
	{Group: "authorization.k8s.io", Resource: "selfsubjectrulesreviews"}:   true,
}

// evaluatorFor returns the evaluator of a group/resource (REG NewEvaluators; any
// other resource gets an object-count evaluator).
func (c Checker) evaluatorFor(gr schema.GroupResource) evaluator {
	switch gr {
	case schema.GroupResource{Resource: "pods"}:
		return podEvaluator{gates: c.Gates}
	case schema.GroupResource{Resource: "services"}:
		return serviceEvaluator{}
	case schema.GroupResource{Resource: "persistentvolumeclaims"}:
		return claimEvaluator{gates: c.Gates}
	case ResourceClaims:
		if c.Gates.Enabled(features.DynamicResourceAllocation) {
			return resourceClaimEvaluator{gates: c.Gates}
		}
	}
	return newCountEvaluator(gr)
}

// scopeSelectors are the quota's scopes and scope selector as one list of
// requirements; read-only (it may be the quota's own MatchExpressions).
func scopeSelectors(q *corev1.ResourceQuota) []corev1.ScopedResourceSelectorRequirement {
	if len(q.Spec.Scopes) == 0 {
		if q.Spec.ScopeSelector == nil {
			return nil
		}
		return q.Spec.ScopeSelector.MatchExpressions
	}
	var sel []corev1.ScopedResourceSelectorRequirement
	for _, s := range q.Spec.Scopes {
		sel = append(sel, corev1.ScopedResourceSelectorRequirement{ScopeName: s, Operator: corev1.ScopeSelectorOpExists})
	}
	if q.Spec.ScopeSelector != nil {
		sel = append(sel, q.Spec.ScopeSelector.MatchExpressions...)
	}
	return sel
}

// matches is QGEN Matches: the quota tracks one of the evaluator's resources and
// the object satisfies every scope selector. hard is q's status.hard names
// (Namespace.hardNames).
func matches(ev evaluator, q *corev1.ResourceQuota, hard []corev1.ResourceName, obj runtime.Object) (bool, error) {
	if len(ev.matchingResources(hard)) == 0 {
		return false, nil
	}
	for _, sel := range scopeSelectors(q) {
		ok, err := ev.matchesScope(sel, obj)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

func matchingScopes(ev evaluator, obj runtime.Object, sels []corev1.ScopedResourceSelectorRequirement) ([]corev1.ScopedResourceSelectorRequirement, error) {
	if !ev.scopedLimits() {
		return nil, nil
	}
	var out []corev1.ScopedResourceSelectorRequirement
	for _, sel := range sels {
		ok, err := ev.matchesScope(sel, obj)
		if err != nil {
			return nil, fmt.Errorf("error on matching scope %v: %v", sel, err)
		}
		if ok {
			out = append(out, sel)
		}
	}
	return out, nil
}

// Check runs CheckRequest for a create of obj (group/resource gr) in ns and,
// when admitted, charges every matching quota and records obj in ns.Objects.
// It returns the denial, if any.
func (c Checker) Check(ns *Namespace, gr schema.GroupResource, name string, obj runtime.Object) *status.Denial {
	return c.CheckUsage(ns, gr, name, obj, nil)
}

// UsageOf is obj's usage as gr's evaluator computes it: a function of obj
// alone, which CheckUsage can be given ahead of time.
//
// It is nil when computing it changes obj, which must then happen when and as
// often as upstream does it (CheckUsage): the overhead added to a Pod's
// pod-level amounts (RQ-12).
func (c Checker) UsageOf(gr schema.GroupResource, obj runtime.Object) corev1.ResourceList {
	ev := c.evaluatorFor(gr)
	if p, ok := ev.(podEvaluator); ok && p.usageChanges(obj.(*corev1.Pod)) {
		return nil
	}
	return ev.usage(obj)
}

// CheckUsage is Check given obj's UsageOf, computed beforehand (nil: not).
func (c Checker) CheckUsage(ns *Namespace, gr schema.GroupResource, name string, obj runtime.Object, usage corev1.ResourceList) *status.Denial {
	ns.Raced = ""
	if ignoredResources[gr] || c.Disabled {
		return nil
	}
	ev := c.evaluatorFor(gr)
	cfg := c.Config
	if len(ns.Quotas) == 0 && (cfg == nil || len(cfg.LimitedResources) == 0) {
		ns.record(ev, obj)
		return nil
	}
	forbid := func(err error) *status.Denial { return status.Forbidden(status.StageQuota, gr, name, []error{err}) }

	var limited []LimitedResource
	if cfg != nil {
		limited = cfg.LimitedResources
	}
	// Scopes the configuration limits (all entries, whatever their resource: RQ-21).
	var limitedScopes []corev1.ScopedResourceSelectorRequirement
	for _, lr := range limited {
		m, err := matchingScopes(ev, obj, lr.MatchScopes)
		if err != nil {
			ns.record(ev, obj)
			return nil // upstream admits without any quota check
		}
		limitedScopes = append(limitedScopes, m...)
	}
	// The object's usage is computed when upstream computes it, and as often:
	// once for the names the configuration limits, when it limits the
	// resource, and once for the charge, once every quota has been looked at
	// (RQ-12: a computation can change the object). A usage given in advance
	// (UsageOf) stands for both.
	given := usage
	usageNow := func() corev1.ResourceList {
		if given != nil {
			return given
		}
		return ev.usage(obj)
	}
	// Usage names the configuration requires a covering quota for (RQ-20).
	var limitedNames []corev1.ResourceName
	var limitedUsage corev1.ResourceList
	for _, lr := range limited {
		if lr.APIGroup != gr.Group || lr.Resource != gr.Resource {
			continue
		}
		if limitedUsage == nil {
			limitedUsage = usageNow()
		}
		for _, k := range resources.SortedNames(limitedUsage) {
			if q := limitedUsage[k]; q.Sign() <= 0 {
				continue
			}
			for _, s := range lr.MatchContains {
				if strings.Contains(string(k), s) {
					limitedNames = append(limitedNames, k)
					break
				}
			}
		}
	}

	var interesting []*corev1.ResourceQuota
	var restricted map[corev1.ResourceName]bool // names some interesting quota tracks, when limitedNames needs them
	var restrictedScopes []corev1.ScopedResourceSelectorRequirement
	for _, q := range ns.Quotas {
		m, err := matchingScopes(ev, obj, scopeSelectors(q))
		if err != nil {
			return status.InternalError(status.StageQuota, fmt.Errorf("error matching scopes of quota %s, err: %v", q.Name, err))
		}
		restrictedScopes = append(restrictedScopes, m...)
		hard := ns.hardNames(q)
		ok, err := matches(ev, q, hard, obj)
		if err != nil {
			return status.InternalError(status.StageQuota, err)
		}
		if !ok {
			continue
		}
		r := ev.matchingResources(hard)
		if err := ev.constraints(r, obj); err != nil {
			d := forbid(fmt.Errorf("failed quota: %s: %v", q.Name, err))
			d.Quota = q.Name
			var ms *missingError
			if errors.As(err, &ms) {
				d.Resources = ms.names
			}
			return d
		}
		for _, k := range r {
			if _, ok := q.Status.Hard[k]; ok {
				if _, ok := q.Status.Used[k]; !ok {
					return forbid(fmt.Errorf("status unknown for quota: %s, resources: %s", q.Name, joinNames(r)))
				}
			}
		}
		interesting = append(interesting, q)
		if len(limitedNames) > 0 {
			if restricted == nil {
				restricted = map[corev1.ResourceName]bool{}
			}
			for _, k := range r {
				restricted[k] = true
			}
		}
	}

	usage = usageNow()
	var negative []corev1.ResourceName
	for k, v := range usage {
		if v.Sign() < 0 {
			negative = append(negative, k)
		}
	}
	if len(negative) > 0 {
		return forbid(fmt.Errorf("quota usage is negative for resource(s): %s", joinNames(negative)))
	}
	// The request is usage's non-zero amounts.
	requests := false
	for _, v := range usage {
		requests = requests || !v.IsZero()
	}
	if !requests {
		ns.record(ev, obj)
		return nil
	}
	var uncoveredNames []string
	for _, k := range limitedNames {
		if !restricted[k] {
			uncoveredNames = append(uncoveredNames, string(k))
		}
	}
	if len(uncoveredNames) > 0 {
		d := forbid(fmt.Errorf("insufficient quota to consume: %s", strings.Join(status.DistinctSorted(uncoveredNames), ",")))
		d.Resources = uncoveredNames
		return d
	}
	var uncovered []corev1.ScopedResourceSelectorRequirement
	for _, sel := range limitedScopes {
		covered := false
		for _, m := range restrictedScopes {
			covered = covered || m.ScopeName == sel.ScopeName
		}
		if !covered {
			uncovered = append(uncovered, sel)
		}
	}
	if len(uncovered) > 0 {
		return status.InternalError(status.StageQuota, fmt.Errorf("insufficient quota to match these scopes: %v", uncovered))
	}

	// Check every interesting quota before charging any (all must admit):
	// each requested amount (for the quota's hard names) is added to what the
	// quota has used.
	sums := make([][]namedAmount, len(interesting))
	for i, q := range interesting {
		var exceeded []corev1.ResourceName
		hard := ns.hardNames(q)
		sums[i] = ns.keptFor(q).sums[:0]
		for _, k := range hard {
			d, ok := usage[k]
			if !ok || d.IsZero() {
				continue
			}
			n := d.DeepCopy()
			if u, ok := q.Status.Used[k]; ok {
				n = u.DeepCopy()
				n.Add(d)
			}
			sums[i] = append(sums[i], namedAmount{k, n})
			if h := q.Status.Hard[k]; n.Cmp(h) > 0 {
				exceeded = append(exceeded, k)
			}
		}
		if len(exceeded) > 0 && !c.Unenforced {
			d := forbid(fmt.Errorf("exceeded quota: %s, requested: %s, used: %s, limited: %s", q.Name,
				prettyPrint(maskList(usage, exceeded)), prettyPrint(maskList(q.Status.Used, exceeded)), prettyPrint(maskList(q.Status.Hard, exceeded))))
			d.Quota = q.Name
			for _, k := range exceeded {
				d.Resources = append(d.Resources, string(k))
			}
			for _, k := range exceeded {
				if by := ns.ChargedBy[quotaResource{q.Name, k}]; by != "" && by != ns.Creator && ns.Raced == "" {
					ns.Raced = by
				}
			}
			return d
		}
	}
	for i, q := range interesting {
		q.Status.Used = ns.charge(q, sums[i]) // written with UpdateStatus, read back by the next request
		ns.keptFor(q).sums = sums[i][:0]
		if ns.Creator != "" {
			for _, s := range sums[i] {
				if k := (quotaResource{q.Name, s.name}); ns.ChargedBy[k] == "" {
					if ns.ChargedBy == nil {
						ns.ChargedBy = map[quotaResource]string{}
					}
					ns.ChargedBy[k] = ns.Creator
				}
			}
		}
	}
	ns.record(ev, obj)
	return nil
}

// ComputeStatus is the quota controller's first sync of a new quota (RQ-08):
// status.hard := spec.hard; status.used := usage of the namespace's admitted
// objects matching all its scopes, for each hard resource some evaluator tracks.
func (c Checker) ComputeStatus(ns *Namespace, q *corev1.ResourceQuota) {
	hard := addLists(corev1.ResourceList{}, q.Spec.Hard)
	names := resources.SortedNames(hard)
	used := corev1.ResourceList{}
	if c.Usage == UsageObserved {
		c.ObservedStatus(q)
		return
	}
	// Evaluators that track some hard resource, in a fixed order; each starts its
	// tracked resources at zero and adds the usage of matching objects in input order.
	tracked := map[corev1.ResourceName]bool{}
	sums := map[corev1.ResourceName]corev1.ResourceList{}
	var order []corev1.ResourceName
	for _, a := range ns.Objects {
		key := a.ev.id()
		if _, seen := sums[key]; !seen {
			r := a.ev.matchingResources(names)
			if len(r) == 0 {
				continue
			}
			zero := corev1.ResourceList{}
			for _, k := range r {
				zero[k] = resource.Quantity{Format: resource.DecimalSI}
				tracked[k] = true
			}
			sums[key] = zero
			order = append(order, key)
		}
		ok := true
		for _, sel := range scopeSelectors(q) {
			m, err := a.ev.matchesScope(sel, a.obj)
			ok = ok && err == nil && m
		}
		if ok {
			sums[key] = addLists(sums[key], scaled(a.ev.usage(a.obj), 1+a.more))
		}
	}
	// Evaluators that track a hard resource but have no objects yet report zero.
	for _, ev := range c.allEvaluators(names) {
		for _, k := range ev.matchingResources(names) {
			if !tracked[k] {
				used[k] = resource.Quantity{Format: resource.DecimalSI}
			}
		}
	}
	for _, key := range order {
		used = addLists(used, sums[key])
	}
	// The controller writes the status; admission reads it back (QS-02).
	q.Status.Hard = resources.Stored(hard)
	q.Status.Used = resources.Stored(maskList(used, names))
}

// ObservedStatus keeps the status written in the input, as a live namespace
// reports it (UsageObserved); a status without hard takes spec.hard.
func (c Checker) ObservedStatus(q *corev1.ResourceQuota) {
	if q.Status.Hard == nil {
		q.Status.Hard = addLists(corev1.ResourceList{}, q.Spec.Hard)
	}
}

// allEvaluators returns the evaluators that track at least one of names: the
// typed ones and an object-count evaluator per count/<resource> name of a
// resource the controller discovers (Counted).
func (c Checker) allEvaluators(names []corev1.ResourceName) []evaluator {
	evs := []evaluator{podEvaluator{gates: c.Gates}, serviceEvaluator{}, claimEvaluator{gates: c.Gates}, c.evaluatorFor(ResourceClaims)}
	for gr := range legacyCountAliases {
		evs = append(evs, newCountEvaluator(gr))
	}
	for _, n := range names {
		if rest, ok := strings.CutPrefix(string(n), "count/"); ok {
			res, group, _ := strings.Cut(rest, ".")
			gr := schema.GroupResource{Group: group, Resource: res}
			if c.Counted == nil || c.Counted(gr) {
				evs = append(evs, newCountEvaluator(gr))
			}
		}
	}
	return evs
}
