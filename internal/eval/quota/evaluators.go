package quota

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/limitcheck/limitcheck/internal/eval/resources"
	"github.com/limitcheck/limitcheck/internal/eval/status"

	"github.com/limitcheck/limitcheck/internal/eval/features"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/selection"
	resourcehelper "k8s.io/component-helpers/resource"
)

// Quota evaluators: what each kind of object uses and which quotas it matches
// (PODS, SVC, PVC, QGEN in docs/behaviour.md; RQ-09..RQ-33).

type evaluator interface {
	// id: the evaluator's object-count name, unique per group/resource.
	id() corev1.ResourceName
	// matchingResources: the subset of quota resource names this evaluator tracks.
	matchingResources(names []corev1.ResourceName) []corev1.ResourceName
	// matchesScope: whether the object satisfies one scope selector.
	matchesScope(sel corev1.ScopedResourceSelectorRequirement, obj runtime.Object) (bool, error)
	// usage of one object.
	usage(obj runtime.Object) corev1.ResourceList
	// constraints: the "must specify" check for the required resources (pods only).
	constraints(required []corev1.ResourceName, obj runtime.Object) error
	// scopedLimits: whether limitedResources matchScopes apply to this evaluator (pods, PVCs).
	scopedLimits() bool
}

func countName(gr schema.GroupResource) corev1.ResourceName {
	if gr.Group == "" {
		return corev1.ResourceName("count/" + gr.Resource)
	}
	return corev1.ResourceName("count/" + gr.Resource + "." + gr.Group)
}

func one() resource.Quantity { return *resource.NewQuantity(1, resource.DecimalSI) }

func intersect(names, tracked []corev1.ResourceName) []corev1.ResourceName {
	var out []corev1.ResourceName
	for i, n := range names {
		for _, t := range tracked {
			if n == t {
				if out == nil {
					out = make([]corev1.ResourceName, 0, min(len(names)-i, len(tracked)))
				}
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// --- pods ---

type podEvaluator struct{ gates features.Gates }

var podCountName = countName(schema.GroupResource{Resource: "pods"})

var podResources = []corev1.ResourceName{
	podCountName, corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage,
	corev1.ResourceRequestsCPU, corev1.ResourceRequestsMemory, corev1.ResourceRequestsEphemeralStorage,
	corev1.ResourceLimitsCPU, corev1.ResourceLimitsMemory, corev1.ResourceLimitsEphemeralStorage,
	corev1.ResourcePods,
}

const deviceClassPrefix = "deviceclass.resource.kubernetes.io/"

// requiredForPods: quotas on these force every container to specify them (RQ-16).
var requiredForPods = resources.NewNameSet(corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceRequestsCPU,
	corev1.ResourceRequestsMemory, corev1.ResourceLimitsCPU, corev1.ResourceLimitsMemory)

func (podEvaluator) id() corev1.ResourceName { return podCountName }
func (podEvaluator) scopedLimits() bool      { return true }

// matchingResources (RQ-15): the fixed list, hugepages prefixes, and requests.<name>
// for non-native or device-class extended resources.
func (podEvaluator) matchingResources(names []corev1.ResourceName) []corev1.ResourceName {
	out := intersect(names, podResources)
	for _, n := range names {
		s := string(n)
		if strings.HasPrefix(s, resources.HugePagesPrefix) || strings.HasPrefix(s, resources.RequestsHugePagesPrefix) {
			out = append(out, n)
		}
		if strings.HasPrefix(s, resources.RequestsPrefix) && (!resources.IsNativeResource(n) || strings.HasPrefix(s, resources.RequestsPrefix+deviceClassPrefix)) {
			out = append(out, n)
		}
	}
	return out
}

func (e podEvaluator) matchesScope(sel corev1.ScopedResourceSelectorRequirement, obj runtime.Object) (bool, error) {
	pod := obj.(*corev1.Pod)
	switch sel.ScopeName {
	case corev1.ResourceQuotaScopeTerminating:
		return isTerminating(pod), nil
	case corev1.ResourceQuotaScopeNotTerminating:
		return !isTerminating(pod), nil
	case corev1.ResourceQuotaScopeBestEffort:
		return e.isBestEffort(pod), nil
	case corev1.ResourceQuotaScopeNotBestEffort:
		return !e.isBestEffort(pod), nil
	case corev1.ResourceQuotaScopePriorityClass:
		if sel.Operator == corev1.ScopeSelectorOpExists {
			return pod.Spec.PriorityClassName != "", nil
		}
		var set scopeLabel
		if pod.Spec.PriorityClassName != "" {
			set = scopeLabel{string(corev1.ResourceQuotaScopePriorityClass), pod.Spec.PriorityClassName}
		}
		return selectorMatches(sel, set)
	case corev1.ResourceQuotaScopeCrossNamespacePodAffinity:
		return usesCrossNamespacePodAffinity(pod), nil
	}
	return false, nil
}

// scopeLabel is the labels a scope selector is matched against: none, or the
// one label key=value (a labels.Labels that needs no map).
type scopeLabel struct{ key, value string }

func (l scopeLabel) Has(key string) bool { return l.key != "" && key == l.key }

func (l scopeLabel) Get(key string) string {
	v, _ := l.Lookup(key)
	return v
}

func (l scopeLabel) Lookup(key string) (string, bool) {
	if !l.Has(key) {
		return "", false
	}
	return l.value, true
}

// scopeSelectorKey identifies a scope selector by its fields, its values by
// the array that holds them (a quota's, kept as long as the quota is).
type scopeSelectorKey struct {
	scope  corev1.ResourceQuotaScope
	op     corev1.ScopeSelectorOperator
	values *string
	n      int
}

// parsedScopeSelector is a scope selector as a label selector, or why it is not one.
type parsedScopeSelector struct {
	sel labels.Selector
	err error
}

// parsedScopeSelectors keeps each scope selector parsed: every request
// matches the namespace's quotas' selectors again (scopeSelectorKey to
// parsedScopeSelector).
var parsedScopeSelectors sync.Map

// selectorMatches evaluates a scope selector as a label selector (V1H
// ScopedResourceSelectorRequirementsAsSelector).
func selectorMatches(sel corev1.ScopedResourceSelectorRequirement, set scopeLabel) (bool, error) {
	key := scopeSelectorKey{scope: sel.ScopeName, op: sel.Operator, n: len(sel.Values)}
	if len(sel.Values) > 0 {
		key.values = &sel.Values[0]
	}
	p, ok := parsedScopeSelectors.Load(key)
	if !ok {
		s, err := parseScopeSelector(sel)
		p, _ = parsedScopeSelectors.LoadOrStore(key, parsedScopeSelector{s, err})
	}
	parsed := p.(parsedScopeSelector)
	if parsed.err != nil {
		return false, parsed.err
	}
	return parsed.sel.Matches(set), nil
}

func parseScopeSelector(sel corev1.ScopedResourceSelectorRequirement) (labels.Selector, error) {
	var op selection.Operator
	switch sel.Operator {
	case corev1.ScopeSelectorOpIn:
		op = selection.In
	case corev1.ScopeSelectorOpNotIn:
		op = selection.NotIn
	case corev1.ScopeSelectorOpExists:
		op = selection.Exists
	case corev1.ScopeSelectorOpDoesNotExist:
		op = selection.DoesNotExist
	default:
		return nil, fmt.Errorf("failed to parse and convert selector: %q is not a valid scope selector operator", sel.Operator)
	}
	r, err := labels.NewRequirement(string(sel.ScopeName), op, sel.Values)
	if err != nil {
		return nil, fmt.Errorf("failed to parse and convert selector: %v", err)
	}
	return labels.NewSelector().Add(*r), nil
}

func isTerminating(pod *corev1.Pod) bool {
	return pod.Spec.ActiveDeadlineSeconds != nil && *pod.Spec.ActiveDeadlineSeconds >= 0
}

// isBestEffort: the Pod's status.qosClass when it has one (the create keeps
// one the body gives), else no positive cpu or memory request or limit,
// looking at pod-level resources when they are set and the gate is on, else
// at every container (RQ-17).
func (e podEvaluator) isBestEffort(pod *corev1.Pod) bool {
	if c := pod.Status.QOSClass; c != "" {
		return c == corev1.PodQOSBestEffort
	}
	positive := func(l corev1.ResourceList) bool {
		for _, k := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			if q, ok := l[k]; ok && q.Sign() == 1 {
				return true
			}
		}
		return false
	}
	if e.gates.Enabled(features.PodLevelResources) && pod.Spec.Resources != nil {
		return !positive(pod.Spec.Resources.Requests) && !positive(pod.Spec.Resources.Limits)
	}
	for _, cs := range [][]corev1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for i := range cs {
			if positive(cs[i].Resources.Requests) || positive(cs[i].Resources.Limits) {
				return false
			}
		}
	}
	return true
}

func usesCrossNamespacePodAffinity(pod *corev1.Pod) bool {
	a := pod.Spec.Affinity
	if a == nil {
		return false
	}
	cross := func(t *corev1.PodAffinityTerm) bool { return len(t.Namespaces) != 0 || t.NamespaceSelector != nil }
	check := func(req []corev1.PodAffinityTerm, pref []corev1.WeightedPodAffinityTerm) bool {
		for i := range req {
			if cross(&req[i]) {
				return true
			}
		}
		for i := range pref {
			if cross(&pref[i].PodAffinityTerm) {
				return true
			}
		}
		return false
	}
	if pa := a.PodAffinity; pa != nil && check(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution) {
		return true
	}
	if pa := a.PodAntiAffinity; pa != nil && check(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution) {
		return true
	}
	return false
}

// usage (RQ-11..13): count/pods always; compute usage unless the pod is terminal.
func (e podEvaluator) usage(obj runtime.Object) corev1.ResourceList {
	pod := obj.(*corev1.Pod)
	if pod.Status.Phase == corev1.PodFailed || pod.Status.Phase == corev1.PodSucceeded {
		return corev1.ResourceList{podCountName: one()}
	}
	// count/pods, pods, and cpu and memory three times each: one group of a
	// map's 8 slots, unless the Pod has more.
	out := make(corev1.ResourceList, 8)
	out[podCountName] = one()
	opts := resourcehelper.PodResourcesOptions{
		UseStatusResources:    e.gates.Enabled(features.InPlacePodVerticalScaling),
		SkipPodLevelResources: !e.gates.Enabled(features.PodLevelResources),
	}
	// The sums are read once, into out: lists of this function's own (on its stack).
	opts.Reuse = make(corev1.ResourceList, 8)
	req := resourcehelper.PodRequests(pod, opts)
	opts.Reuse = make(corev1.ResourceList, 8)
	lim := resourcehelper.PodLimits(pod, opts)
	// The compute names never include count/pods: out is both lists added.
	podComputeUsage(out, req, lim)
	return out
}

// usageChanges reports whether computing the Pod's usage may change it:
// PodRequests and PodLimits put the pod-level amounts into their sums
// without a copy and add the overhead to them, which changes the Pod's own
// amount when it is held as a decimal of any precision (1.5Gi) (RQ-12).
func (e podEvaluator) usageChanges(pod *corev1.Pod) bool {
	return pod.Spec.Overhead != nil && pod.Spec.Resources != nil && e.gates.Enabled(features.PodLevelResources)
}

// podComputeUsage maps requests and limits to quota names
// (podComputeUsageHelper), written into out.
func podComputeUsage(out, req, lim corev1.ResourceList) {
	out[corev1.ResourcePods] = one()
	pairs := []struct {
		name           corev1.ResourceName
		bare, req, lim corev1.ResourceName
	}{
		{corev1.ResourceCPU, corev1.ResourceCPU, corev1.ResourceRequestsCPU, corev1.ResourceLimitsCPU},
		{corev1.ResourceMemory, corev1.ResourceMemory, corev1.ResourceRequestsMemory, corev1.ResourceLimitsMemory},
		{corev1.ResourceEphemeralStorage, corev1.ResourceEphemeralStorage, corev1.ResourceRequestsEphemeralStorage, corev1.ResourceLimitsEphemeralStorage},
	}
	for _, p := range pairs {
		if q, ok := req[p.name]; ok {
			out[p.bare] = q.DeepCopy()
			out[p.req] = q.DeepCopy()
		}
		if q, ok := lim[p.name]; ok {
			out[p.lim] = q.DeepCopy()
		}
	}
	for k, q := range req {
		if strings.HasPrefix(string(k), resources.HugePagesPrefix) {
			out[k] = q.DeepCopy()
			out[resources.RequestsPrefix+k] = q.DeepCopy()
		}
		if resources.IsExtendedResourceName(k) || strings.HasPrefix(string(k), deviceClassPrefix) {
			out[resources.RequestsPrefix+k] = q.DeepCopy()
		}
	}
}

// constraints (RQ-16): every container and init container must specify the
// required cpu/memory names; skipped for pods with pod-level resources.
func (e podEvaluator) constraints(required []corev1.ResourceName, obj runtime.Object) error {
	pod := obj.(*corev1.Pod)
	if e.gates.Enabled(features.PodLevelResources) && resourcehelper.IsPodLevelResourcesSet(pod) {
		return nil
	}
	var need []corev1.ResourceName
	for _, r := range required {
		if requiredForPods[r] {
			need = append(need, r)
		}
	}
	if len(need) == 0 {
		return nil
	}
	var missing map[corev1.ResourceName][]string
	for _, cs := range [][]corev1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for i := range cs {
			for _, r := range need {
				if !specifies(cs[i].Resources, r) {
					if missing == nil {
						missing = map[corev1.ResourceName][]string{}
					}
					missing[r] = append(missing[r], cs[i].Name)
				}
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	keys := make([]string, 0, len(missing))
	for r := range missing {
		keys = append(keys, string(r))
	}
	sort.Strings(keys)
	msgs := make([]string, 0, len(keys))
	for _, k := range keys {
		msgs = append(msgs, k+" for: "+strings.Join(status.DistinctSorted(missing[corev1.ResourceName(k)]), ","))
	}
	return &missingError{names: keys, msg: "must specify " + strings.Join(msgs, "; ")}
}

// specifies reports whether a container's usage (podComputeUsage) has r,
// one of requiredForPods: cpu and requests.cpu come from a cpu request,
// limits.cpu from a cpu limit, and the same for memory.
func specifies(rr corev1.ResourceRequirements, r corev1.ResourceName) bool {
	var ok bool
	switch r {
	case corev1.ResourceCPU, corev1.ResourceRequestsCPU:
		_, ok = rr.Requests[corev1.ResourceCPU]
	case corev1.ResourceLimitsCPU:
		_, ok = rr.Limits[corev1.ResourceCPU]
	case corev1.ResourceMemory, corev1.ResourceRequestsMemory:
		_, ok = rr.Requests[corev1.ResourceMemory]
	case corev1.ResourceLimitsMemory:
		_, ok = rr.Limits[corev1.ResourceMemory]
	}
	return ok
}

// missingError is the constraints' refusal, with the resource names missing.
type missingError struct {
	names []string
	msg   string
}

func (e *missingError) Error() string { return e.msg }

// --- services ---

type serviceEvaluator struct{}

var serviceResources = []corev1.ResourceName{countName(schema.GroupResource{Resource: "services"}),
	corev1.ResourceServices, corev1.ResourceServicesNodePorts, corev1.ResourceServicesLoadBalancers}

func (serviceEvaluator) id() corev1.ResourceName { return serviceResources[0] }
func (serviceEvaluator) scopedLimits() bool      { return false }
func (serviceEvaluator) matchingResources(names []corev1.ResourceName) []corev1.ResourceName {
	return intersect(names, serviceResources)
}
func (serviceEvaluator) matchesScope(corev1.ScopedResourceSelectorRequirement, runtime.Object) (bool, error) {
	return false, nil
}
func (serviceEvaluator) constraints([]corev1.ResourceName, runtime.Object) error { return nil }

// usage (RQ-28).
func (serviceEvaluator) usage(obj runtime.Object) corev1.ResourceList {
	svc := obj.(*corev1.Service)
	ports := int64(len(svc.Spec.Ports))
	out := corev1.ResourceList{
		serviceResources[0]:                  one(),
		corev1.ResourceServices:              one(),
		corev1.ResourceServicesLoadBalancers: {Format: resource.DecimalSI},
		corev1.ResourceServicesNodePorts:     {Format: resource.DecimalSI},
	}
	switch svc.Spec.Type {
	case corev1.ServiceTypeNodePort:
		out[corev1.ResourceServicesNodePorts] = *resource.NewQuantity(ports, resource.DecimalSI)
	case corev1.ServiceTypeLoadBalancer:
		n := ports
		if a := svc.Spec.AllocateLoadBalancerNodePorts; a != nil && !*a {
			n = 0
			for _, p := range svc.Spec.Ports {
				if p.NodePort != 0 {
					n++
				}
			}
		}
		out[corev1.ResourceServicesNodePorts] = *resource.NewQuantity(n, resource.DecimalSI)
		out[corev1.ResourceServicesLoadBalancers] = one()
	}
	return out
}

// --- persistent volume claims ---

type claimEvaluator struct{ gates features.Gates }

const storageClassSuffix = ".storageclass.storage.k8s.io/"

var claimCountName = countName(schema.GroupResource{Resource: "persistentvolumeclaims"})

func (claimEvaluator) id() corev1.ResourceName { return claimCountName }
func (e claimEvaluator) scopedLimits() bool    { return e.gates.Enabled(features.VolumeAttributesClass) }

func (claimEvaluator) matchingResources(names []corev1.ResourceName) []corev1.ResourceName {
	var out []corev1.ResourceName
	for _, n := range names {
		s := string(n)
		switch {
		case n == claimCountName, n == corev1.ResourcePersistentVolumeClaims, n == corev1.ResourceRequestsStorage,
			strings.HasSuffix(s, storageClassSuffix+string(corev1.ResourcePersistentVolumeClaims)),
			strings.HasSuffix(s, storageClassSuffix+string(corev1.ResourceRequestsStorage)):
			out = append(out, n)
		}
	}
	return out
}

// matchesScope (RQ-30): only VolumeAttributesClass, with the gate on.
func (e claimEvaluator) matchesScope(sel corev1.ScopedResourceSelectorRequirement, obj runtime.Object) (bool, error) {
	if !e.gates.Enabled(features.VolumeAttributesClass) || sel.ScopeName != corev1.ResourceQuotaScopeVolumeAttributesClass {
		return false, nil
	}
	pvc := obj.(*corev1.PersistentVolumeClaim)
	var names []string
	if n := pvc.Spec.VolumeAttributesClassName; n != nil && *n != "" {
		names = append(names, *n)
	}
	if n := pvc.Status.CurrentVolumeAttributesClassName; n != nil && *n != "" {
		names = append(names, *n)
	}
	if m := pvc.Status.ModifyVolumeStatus; m != nil && m.TargetVolumeAttributesClassName != "" {
		names = append(names, m.TargetVolumeAttributesClassName)
	}
	if sel.Operator == corev1.ScopeSelectorOpExists {
		return len(names) != 0, nil
	}
	if len(names) == 0 {
		return selectorMatches(sel, scopeLabel{})
	}
	for _, n := range names {
		ok, err := selectorMatches(sel, scopeLabel{string(corev1.ResourceQuotaScopeVolumeAttributesClass), n})
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

func (claimEvaluator) constraints([]corev1.ResourceName, runtime.Object) error { return nil }

// claimClass: the beta annotation wins over spec.storageClassName.
func claimClass(pvc *corev1.PersistentVolumeClaim) string {
	if c, ok := pvc.Annotations[corev1.BetaStorageClassAnnotation]; ok {
		return c
	}
	if pvc.Spec.StorageClassName != nil {
		return *pvc.Spec.StorageClassName
	}
	return ""
}

// usage (RQ-29): counts, storage rounded up to whole bytes, per-class names.
func (e claimEvaluator) usage(obj runtime.Object) corev1.ResourceList {
	pvc := obj.(*corev1.PersistentVolumeClaim)
	out := corev1.ResourceList{corev1.ResourcePersistentVolumeClaims: one(), claimCountName: one()}
	class := claimClass(pvc)
	if class != "" {
		out[corev1.ResourceName(class+storageClassSuffix+string(corev1.ResourcePersistentVolumeClaims))] = one()
	}
	roundUp := func(q resource.Quantity) resource.Quantity {
		r := q.DeepCopy()
		if !r.RoundUp(0) {
			return r
		}
		return q
	}
	req, ok := pvc.Spec.Resources.Requests[corev1.ResourceStorage]
	if !ok {
		return out
	}
	storage := roundUp(req)
	if e.gates.Enabled(features.RecoverVolumeExpansionFailure) {
		if alloc, ok := pvc.Status.AllocatedResources[corev1.ResourceStorage]; ok && alloc.Cmp(storage) > 0 {
			storage = roundUp(alloc)
		}
	}
	out[corev1.ResourceRequestsStorage] = storage
	if class != "" {
		out[corev1.ResourceName(class+storageClassSuffix+string(corev1.ResourceRequestsStorage))] = storage
	}
	return out
}

// --- object counts ---

// countEvaluator counts objects: count/<resource>[.<group>], plus a legacy alias
// for configmaps, secrets, replicationcontrollers and resourcequotas (RQ-31).
type countEvaluator struct{ names []corev1.ResourceName }

var legacyCountAliases = map[schema.GroupResource]corev1.ResourceName{
	{Resource: "configmaps"}:             corev1.ResourceConfigMaps,
	{Resource: "resourcequotas"}:         corev1.ResourceQuotas,
	{Resource: "replicationcontrollers"}: corev1.ResourceReplicationControllers,
	{Resource: "secrets"}:                corev1.ResourceSecrets,
}

func newCountEvaluator(gr schema.GroupResource) countEvaluator {
	names := []corev1.ResourceName{countName(gr)}
	if alias, ok := legacyCountAliases[gr]; ok {
		names = append(names, alias)
	}
	return countEvaluator{names: names}
}

func (e countEvaluator) id() corev1.ResourceName { return e.names[0] }
func (countEvaluator) scopedLimits() bool        { return false }
func (e countEvaluator) matchingResources(names []corev1.ResourceName) []corev1.ResourceName {
	return intersect(names, e.names)
}
func (countEvaluator) matchesScope(corev1.ScopedResourceSelectorRequirement, runtime.Object) (bool, error) {
	return false, nil
}
func (countEvaluator) constraints([]corev1.ResourceName, runtime.Object) error { return nil }
func (e countEvaluator) usage(runtime.Object) corev1.ResourceList {
	out := corev1.ResourceList{}
	for _, n := range e.names {
		out[n] = one()
	}
	return out
}

// addLists is quota.Add: a new list with a's quantities plus b's.
func addLists(a, b corev1.ResourceList) corev1.ResourceList {
	out := make(corev1.ResourceList, len(a)+len(b))
	for k, v := range a {
		q := v.DeepCopy()
		if o, ok := b[k]; ok {
			q.Add(o)
		}
		out[k] = q
	}
	for k, v := range b {
		if _, ok := out[k]; !ok {
			out[k] = v.DeepCopy()
		}
	}
	return out
}

// maskList is quota.Mask: only the named keys.
func maskList(l corev1.ResourceList, names []corev1.ResourceName) corev1.ResourceList {
	out := corev1.ResourceList{}
	for _, n := range names {
		if v, ok := l[n]; ok {
			out[n] = v.DeepCopy()
		}
	}
	return out
}

// prettyPrint is `key=value` pairs, keys sorted, joined by "," (CTRL prettyPrint).
func prettyPrint(l corev1.ResourceList) string {
	parts := make([]string, 0, len(l))
	for _, k := range resources.SortedNames(l) {
		q := l[k]
		parts = append(parts, string(k)+"="+q.String())
	}
	return strings.Join(parts, ",")
}

func joinNames(names []corev1.ResourceName) string {
	s := make([]string, 0, len(names))
	for _, n := range names {
		s = append(s, string(n))
	}
	sort.Strings(s)
	return strings.Join(s, ",")
}

// TrackedName reports whether an evaluator other than the generic object
// count tracks name: a Pod, Service, PersistentVolumeClaim or ResourceClaim
// resource, or the legacy alias of an object count (configmaps, …). A
// count/<resource>.<group> name is tracked when some kind is served as that
// resource, which the caller decides.
func (c Checker) TrackedName(name corev1.ResourceName) bool {
	one := []corev1.ResourceName{name}
	for _, gr := range []schema.GroupResource{{Resource: "pods"}, {Resource: "services"}, {Resource: "persistentvolumeclaims"}, ResourceClaims} {
		if len(c.evaluatorFor(gr).matchingResources(one)) > 0 {
			return true
		}
	}
	for _, alias := range legacyCountAliases {
		if alias == name {
			return true
		}
	}
	return false
}

// PodMatchesScope reports whether a Pod satisfies one scope requirement of a
// quota as the quota plugin matches it (RQ-17): what lint asks of its probe.
func (c Checker) PodMatchesScope(sel corev1.ScopedResourceSelectorRequirement, pod *corev1.Pod) bool {
	ok, err := podEvaluator{gates: c.Gates}.matchesScope(sel, pod)
	return ok && err == nil
}

// ClassStorageName reports whether a quota name is the requests.storage of
// one StorageClass (<class>.storageclass.storage.k8s.io/requests.storage),
// which a claim of that class is charged its storage request against (RQ-29).
func ClassStorageName(name corev1.ResourceName) bool {
	return strings.HasSuffix(string(name), storageClassSuffix+string(corev1.ResourceRequestsStorage))
}
