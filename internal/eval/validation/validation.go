package validation

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/limitcheck/limitcheck/internal/eval/resources"

	"github.com/limitcheck/limitcheck/internal/eval/features"
	"github.com/limitcheck/limitcheck/internal/namecheck"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
	resourcehelper "k8s.io/component-helpers/resource"
)

// Object validation as kube-apiserver's REST strategies run it between mutating and
// validating admission (VAL in docs/behaviour.md; PL-05, PL-08, LR-02..09). Map keys are
// visited in sorted order where upstream's order is random.

// An ExpressionCompiler compiles a CEL expression of one kind (a device
// selector, a webhook's match condition) as kube-apiserver does when it
// validates a new object, and returns the errors it gives at p: none when
// the expression compiles. Validation without one leaves expressions
// uncompiled.
type ExpressionCompiler func(expression string, p *field.Path) field.ErrorList

const (
	msgNegative   = "must be greater than or equal to 0"
	msgNotInteger = "must be an integer"
	msgNotPos     = "must be greater than zero"
)

var standardLimitTypes = map[corev1.LimitType]bool{
	corev1.LimitTypePod: true, corev1.LimitTypeContainer: true, corev1.LimitTypePersistentVolumeClaim: true,
}

// validateKubeFinalizerNames is the check the core ValidateObjectMeta wrapper adds:
// an unqualified finalizer must be a standard one.
func validateKubeFinalizerNames(finalizers []string, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	for i, f := range finalizers {
		if !strings.Contains(f, "/") && !standardFinalizers[f] {
			errs = append(errs, field.Invalid(p.Index(i).Path(), f, "name is neither a standard finalizer name nor is it fully qualified"))
		}
	}
	return errs
}

// validateResourceName: qualified name; unqualified names must be standard resources.
func validateResourceName(name corev1.ResourceName, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range namecheck.IsQualifiedName(string(name)) {
		errs = append(errs, field.Invalid(p.Path(), name, msg))
	}
	if len(errs) != 0 {
		return errs
	}
	if resources.IsUnqualified(name) && !resources.IsStandardResourceName(name) {
		errs = append(errs, field.Invalid(p.Path(), name, "must be a standard resource type or fully qualified"))
	}
	return errs
}

// validateContainerResourceName adds the container rules to validateResourceName
// without short-circuiting, so an unknown name yields two errors (LR-03).
func validateContainerResourceName(name corev1.ResourceName, p lazyPath) field.ErrorList {
	errs := validateResourceName(name, p)
	if resources.IsUnqualified(name) {
		if !resources.IsStandardContainerResourceName(name) {
			errs = append(errs, field.Invalid(p.Path(), name, "must be a standard resource for containers"))
		}
	} else if !resources.IsNativeResource(name) && !resources.IsExtendedResourceName(name) {
		errs = append(errs, field.Invalid(p.Path(), name, "doesn't follow extended resource name standard"))
	}
	return errs
}

// validatePodLevelResourceName: a valid resource name supported at pod level.
func validatePodLevelResourceName(name corev1.ResourceName, p lazyPath) field.ErrorList {
	errs := validateResourceName(name, p)
	if len(errs) != 0 {
		return errs
	}
	if !resourcehelper.IsSupportedPodLevelResource(name) {
		supported := resourcehelper.SupportedPodLevelResources().UnsortedList()
		vals := make([]string, 0, len(supported))
		for _, s := range supported {
			vals = append(vals, string(s))
		}
		sort.Strings(vals)
		errs = append(errs, field.NotSupported(p.Path(), name, vals))
	}
	return errs
}

// IsQuotaResourceName reports whether a ResourceQuota may limit name (RQ-01).
func IsQuotaResourceName(name corev1.ResourceName) bool {
	return len(validateQuotaResourceName(name, field.NewPath("spec", "hard"))) == 0
}

// validateQuotaResourceName: validateResourceName plus the quota list (RQ-01).
func validateQuotaResourceName(name corev1.ResourceName, p *field.Path) field.ErrorList {
	errs := validateResourceName(name, lazy(p))
	if resources.IsUnqualified(name) && !resources.IsStandardQuotaResourceName(name) {
		errs = append(errs, field.Invalid(p, name, "must be a standard resource for quota"))
	}
	return errs
}

// validateResourceQuantityValue: non-negative, and integral for integer resources (RQ-02).
func validateResourceQuantityValue(name corev1.ResourceName, q resource.Quantity, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	if q.Cmp(resource.Quantity{}) < 0 {
		errs = append(errs, field.Invalid(p.Path(), q.String(), msgNegative))
	}
	if resources.IsIntegerResourceName(name) && q.MilliValue()%1000 != 0 {
		errs = append(errs, field.Invalid(p.Path(), q, msgNotInteger))
	}
	return errs
}

// LimitRange validates a defaulted LimitRange (LR-02..09).
func LimitRange(lr *corev1.LimitRange) field.ErrorList {
	errs := validateObjectMeta(&lr.ObjectMeta)
	seenTypes := map[corev1.LimitType]bool{}
	base := field.NewPath("spec", "limits")
	for i := range lr.Spec.Limits {
		p := base.Index(i)
		item := &lr.Spec.Limits[i]
		errs = append(errs, validateLimitRangeTypeName(item.Type, p.Child("type"))...)
		if seenTypes[item.Type] {
			errs = append(errs, field.Duplicate(p.Child("type"), item.Type))
		}
		seenTypes[item.Type] = true

		keys := corev1.ResourceList{}
		checkNames := func(list corev1.ResourceList, child string) {
			for _, k := range resources.SortedNames(list) {
				errs = append(errs, validateLimitRangeResourceName(item.Type, k, p.Child(child).Key(string(k)))...)
				keys[k] = resource.Quantity{}
			}
		}
		checkNames(item.Max, "max")
		checkNames(item.Min, "min")
		defaults, defaultRequests := item.Default, item.DefaultRequest
		if item.Type == corev1.LimitTypePod {
			if len(item.Default) > 0 {
				errs = append(errs, field.Forbidden(p.Child("default"), "may not be specified when `type` is 'Pod'"))
			}
			if len(item.DefaultRequest) > 0 {
				errs = append(errs, field.Forbidden(p.Child("defaultRequest"), "may not be specified when `type` is 'Pod'"))
			}
			defaults, defaultRequests = nil, nil
		} else {
			checkNames(item.Default, "default")
			checkNames(item.DefaultRequest, "defaultRequest")
		}
		if item.Type == corev1.LimitTypePersistentVolumeClaim {
			_, hasMin := item.Min[corev1.ResourceStorage]
			_, hasMax := item.Max[corev1.ResourceStorage]
			if !hasMin && !hasMax {
				errs = append(errs, field.Required(p.Child("limits"), "either minimum or maximum storage value is required, but neither was provided"))
			}
		}
		checkNames(item.MaxLimitRequestRatio, "maxLimitRequestRatio")

		for _, k := range resources.SortedNames(keys) {
			errs = append(errs, validateLimitRangeKey(p, k, item.Min, item.Max, defaults, defaultRequests, item.MaxLimitRequestRatio)...)
		}
	}
	return errs
}

func validateLimitRangeTypeName(t corev1.LimitType, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range namecheck.IsQualifiedName(string(t)) {
		errs = append(errs, field.Invalid(p, t, msg))
	}
	if len(errs) != 0 {
		return errs
	}
	if !strings.Contains(string(t), "/") && !standardLimitTypes[t] {
		errs = append(errs, field.Invalid(p, t, "must be a standard limit type or fully qualified"))
	}
	return errs
}

func validateLimitRangeResourceName(t corev1.LimitType, name corev1.ResourceName, p *field.Path) field.ErrorList {
	if t == corev1.LimitTypePod || t == corev1.LimitTypeContainer {
		return validateContainerResourceName(name, lazy(p))
	}
	return validateResourceName(name, lazy(p))
}

// validateLimitRangeKey runs the cross checks of one resource key, in upstream order (LR-06..08).
func validateLimitRangeKey(p *field.Path, k corev1.ResourceName, minL, maxL, defL, defReqL, ratioL corev1.ResourceList) field.ErrorList {
	var errs field.ErrorList
	key := string(k)
	minQ, hasMin := minL[k]
	maxQ, hasMax := maxL[k]
	defQ, hasDef := defL[k]
	reqQ, hasReq := defReqL[k]
	ratio, hasRatio := ratioL[k]

	if hasMin && hasMax && minQ.Cmp(maxQ) > 0 {
		errs = append(errs, field.Invalid(p.Child("min").Key(key), minQ, fmt.Sprintf("min value %s is greater than max value %s", minQ.String(), maxQ.String())))
	}
	if hasReq && hasMin && minQ.Cmp(reqQ) > 0 {
		errs = append(errs, field.Invalid(p.Child("defaultRequest").Key(key), reqQ, fmt.Sprintf("min value %s is greater than default request value %s", minQ.String(), reqQ.String())))
	}
	if hasReq && hasMax && reqQ.Cmp(maxQ) > 0 {
		errs = append(errs, field.Invalid(p.Child("defaultRequest").Key(key), reqQ, fmt.Sprintf("default request value %s is greater than max value %s", reqQ.String(), maxQ.String())))
	}
	if hasReq && hasDef && reqQ.Cmp(defQ) > 0 {
		errs = append(errs, field.Invalid(p.Child("defaultRequest").Key(key), reqQ, fmt.Sprintf("default request value %s is greater than default limit value %s", reqQ.String(), defQ.String())))
	}
	if hasDef && hasMin && minQ.Cmp(defQ) > 0 {
		errs = append(errs, field.Invalid(p.Child("default").Key(key), minQ, fmt.Sprintf("min value %s is greater than default value %s", minQ.String(), defQ.String())))
	}
	if hasDef && hasMax && defQ.Cmp(maxQ) > 0 {
		errs = append(errs, field.Invalid(p.Child("default").Key(key), maxQ, fmt.Sprintf("default value %s is greater than max value %s", defQ.String(), maxQ.String())))
	}
	if hasRatio && ratio.Cmp(*resource.NewQuantity(1, resource.DecimalSI)) < 0 {
		errs = append(errs, field.Invalid(p.Child("maxLimitRequestRatio").Key(key), ratio, fmt.Sprintf("ratio %s is less than 1", ratio.String())))
	}
	if hasRatio && hasMin && hasMax {
		ratioV := float64(ratio.Value())
		minV, maxV := minQ.Value(), maxQ.Value()
		if ratio.Value() < resource.MaxMilliValue && minV < resource.MaxMilliValue && maxV < resource.MaxMilliValue {
			ratioV = float64(ratio.MilliValue()) / 1000
			minV, maxV = minQ.MilliValue(), maxQ.MilliValue()
		}
		lim := float64(maxV) / float64(minV)
		if ratioV > lim {
			errs = append(errs, field.Invalid(p.Child("maxLimitRequestRatio").Key(key), ratio, fmt.Sprintf("ratio %s is greater than max/min = %f", ratio.String(), lim)))
		}
	}
	if !resources.IsOvercommitAllowed(k) && hasDef && hasReq && defQ.Cmp(reqQ) != 0 {
		errs = append(errs, field.Invalid(p.Child("defaultRequest").Key(key), reqQ, fmt.Sprintf("default value %s must equal to defaultRequest value %s in %s", defQ.String(), reqQ.String(), key)))
	}
	return errs
}

// PodSpecResources validates the resources of a Pod spec, or of a
// workload's Pod template (spec at p).
func PodSpecResources(spec *corev1.PodSpec, p *field.Path, gates features.Gates) field.ErrorList {
	var errs field.ErrorList
	lp := lazy(p)
	claims := podClaimNames(spec) // only read
	for i := range spec.Containers {
		errs = append(errs, validateResourceRequirements(&spec.Containers[i].Resources, containerResources, claims, lp.Child("containers").Index(i).Child("resources"))...)
	}
	for i := range spec.InitContainers {
		errs = append(errs, validateResourceRequirements(&spec.InitContainers[i].Resources, containerResources, claims, lp.Child("initContainers").Index(i).Child("resources"))...)
	}
	if gates.Enabled(features.PodLevelResources) && spec.Resources != nil {
		errs = append(errs, validatePodLevelResources(spec, claims, p.Child("resources"))...)
	}
	return errs
}

// resourceNames says which resource names a ResourceRequirements may hold:
// a container's (and pod overhead's), or the pod-level resources'.
type resourceNames bool

const (
	containerResources resourceNames = false
	podLevelResources  resourceNames = true
)

func (n resourceNames) validate(name corev1.ResourceName, p lazyPath) field.ErrorList {
	if n == podLevelResources {
		return validatePodLevelResourceName(name, p)
	}
	return validateContainerResourceName(name, p)
}

// validateResourceRequirements mirrors upstream's validateResourceRequirements for
// one container or the pod level; claims are the names of the pod's resourceClaims.
func validateResourceRequirements(r *corev1.ResourceRequirements, names resourceNames, claims map[string]bool, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	limPath, reqPath := p.Child("limits"), p.Child("requests")
	limCPUOrMem, reqCPUOrMem, limHuge, reqHuge := false, false, false, false
	var buf [8]corev1.ResourceName
	for _, k := range sortedNames(r.Limits, buf[:0]) {
		q := r.Limits[k]
		kp := limPath.Key(string(k))
		errs = append(errs, names.validate(k, kp)...)
		errs = append(errs, validateResourceQuantityValue(k, q, kp)...)
		if resources.IsHugePageResourceName(k) {
			limHuge = true
			if !resources.IsHugePageResourceValueDivisible(k, q) {
				errs = append(errs, field.Invalid(kp.Path(), q.String(), fmt.Sprintf("%s is not positive integer multiple of %s", q.String(), k)))
			}
		}
		if k == corev1.ResourceCPU || k == corev1.ResourceMemory {
			limCPUOrMem = true
		}
	}
	for _, k := range sortedNames(r.Requests, buf[:0]) {
		q := r.Requests[k]
		kp := reqPath.Key(string(k))
		errs = append(errs, names.validate(k, kp)...)
		errs = append(errs, validateResourceQuantityValue(k, q, kp)...)
		if lim, ok := r.Limits[k]; ok {
			if q.Cmp(lim) != 0 && !resources.IsOvercommitAllowed(k) {
				errs = append(errs, field.Invalid(reqPath.Path(), q.String(), fmt.Sprintf("must be equal to %s limit of %s", k, lim.String())))
			} else if q.Cmp(lim) > 0 {
				errs = append(errs, field.Invalid(reqPath.Path(), q.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", k, lim.String())))
			}
		} else if !resources.IsOvercommitAllowed(k) {
			errs = append(errs, field.Required(limPath.Path(), "Limit must be set for non overcommitable resources"))
		}
		if resources.IsHugePageResourceName(k) {
			reqHuge = true
			if !resources.IsHugePageResourceValueDivisible(k, q) {
				errs = append(errs, field.Invalid(kp.Path(), q.String(), fmt.Sprintf("%s is not positive integer multiple of %s", q.String(), k)))
			}
		}
		if k == corev1.ResourceCPU || k == corev1.ResourceMemory {
			reqCPUOrMem = true
		}
	}
	if !limCPUOrMem && !reqCPUOrMem && (reqHuge || limHuge) {
		errs = append(errs, field.Forbidden(p.Path(), "HugePages require cpu or memory"))
	}
	return append(errs, validateResourceClaimNames(r.Claims, claims, p.Child("claims"))...)
}

// sortedNames is resources.SortedNames appending to buf, which a caller
// keeps on its stack for the few names a container has.
func sortedNames(list corev1.ResourceList, buf []corev1.ResourceName) []corev1.ResourceName {
	for k := range list {
		buf = append(buf, k)
	}
	slices.Sort(buf)
	return buf
}

// validatePodLevelResources mirrors PodResources + validatePodResourceConsistency.
func validatePodLevelResources(spec *corev1.PodSpec, claims map[string]bool, p *field.Path) field.ErrorList {
	if spec.OS != nil && spec.OS.Name == corev1.Windows {
		return field.ErrorList{field.Forbidden(p, "may not be set for a windows pod")}
	}
	var errs field.ErrorList
	if spec.Resources.Claims != nil {
		errs = append(errs, field.Forbidden(p.Child("claims"), "claims may not be set for Resources at pod-level"))
	}
	errs = append(errs, validateResourceRequirements(spec.Resources, podLevelResources, claims, lazy(p))...)

	ctrOnly := &corev1.Pod{Spec: *spec}
	aggReqs := resourcehelper.AggregateContainerRequests(ctrOnly, resourcehelper.PodResourcesOptions{})
	for _, k := range resources.SortedNames(aggReqs) {
		podReq, ok := spec.Resources.Requests[k]
		if !ok {
			continue
		}
		if agg := aggReqs[k]; agg.Cmp(podReq) > 0 {
			errs = append(errs, field.Invalid(p.Child("requests").Key(string(k)), podReq.String(), fmt.Sprintf("must be greater than or equal to aggregate container requests of %s", agg.String())))
		}
	}
	aggLims := resourcehelper.AggregateContainerLimits(ctrOnly, resourcehelper.PodResourcesOptions{})
	for _, k := range resources.SortedNames(aggLims) {
		if !resources.IsHugePageResourceName(k) {
			continue
		}
		podLim, ok := spec.Resources.Limits[k]
		if !ok {
			continue
		}
		if agg := aggLims[k]; agg.Cmp(podLim) > 0 {
			errs = append(errs, field.Invalid(p.Child("limits").Key(string(k)), podLim.String(), fmt.Sprintf("must be greater than or equal to aggregate container limits of %s", agg.String())))
		}
	}
	for i := range spec.Containers {
		lims := spec.Containers[i].Resources.Limits
		for _, k := range resources.SortedNames(lims) {
			podLim, ok := spec.Resources.Limits[k]
			if !ok {
				continue
			}
			if l := lims[k]; l.Cmp(podLim) > 0 {
				errs = append(errs, field.Invalid(p.Child("containers").Index(i).Key(string(k)).Child("limits"), l.String(), fmt.Sprintf("must be less than or equal to pod limits of %s", podLim.String())))
			}
		}
	}
	return errs
}
