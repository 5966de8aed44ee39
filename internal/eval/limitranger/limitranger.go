// Package limitranger is the LimitRanger admission plugin (LR-10..LR-21): the
// defaults a LimitRange gives a Pod's containers (Mutate) and the
// constraints it checks on Pods and PersistentVolumeClaims (ValidatePod,
// ValidateClaim). The engine runs it once per active LimitRange of the
// namespace, in input order, and wraps the errors in the plugin's 403.
package limitranger

import (
	"fmt"
	"strings"

	"github.com/limitcheck/limitcheck/internal/eval/resources"

	"github.com/limitcheck/limitcheck/internal/eval/features"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// The LimitRanger admission plugin (LRA in docs/behaviour.md; LR-10..LR-22).

// Annotation is the annotation LimitRanger writes on the pods it defaults.
const Annotation = "kubernetes.io/limit-ranger"

// Mutate applies one LimitRange's Container defaults to every container and init
// container, never overwriting, and records what it set in the annotation (LR-10, LR-11).
func Mutate(lr *corev1.LimitRange, pod *corev1.Pod) {
	defReq, defLim := corev1.ResourceList{}, corev1.ResourceList{}
	for i := range lr.Spec.Limits {
		item := &lr.Spec.Limits[i]
		if item.Type != corev1.LimitTypeContainer {
			continue
		}
		for k, v := range item.DefaultRequest {
			defReq[k] = v.DeepCopy()
		}
		for k, v := range item.Default {
			defLim[k] = v.DeepCopy()
		}
	}
	var notes []string
	for i := range pod.Spec.Containers {
		notes = mergeContainerDefaults(&pod.Spec.Containers[i], defReq, defLim, "container", notes)
	}
	for i := range pod.Spec.InitContainers {
		notes = mergeContainerDefaults(&pod.Spec.InitContainers[i], defReq, defLim, "init container", notes)
	}
	if len(notes) > 0 {
		if pod.Annotations == nil {
			pod.Annotations = map[string]string{}
		}
		pod.Annotations[Annotation] = "LimitRanger plugin set: " + strings.Join(notes, "; ")
	}
}

func mergeContainerDefaults(c *corev1.Container, defReq, defLim corev1.ResourceList, prefix string, notes []string) []string {
	if c.Resources.Limits == nil {
		c.Resources.Limits = corev1.ResourceList{}
	}
	if c.Resources.Requests == nil {
		c.Resources.Requests = corev1.ResourceList{}
	}
	setLim := fillMissing(c.Resources.Limits, defLim)
	setReq := fillMissing(c.Resources.Requests, defReq)
	if len(setReq) > 0 {
		notes = append(notes, strings.Join(setReq, ", ")+" request for "+prefix+" "+c.Name)
	}
	if len(setLim) > 0 {
		notes = append(notes, strings.Join(setLim, ", ")+" limit for "+prefix+" "+c.Name)
	}
	return notes
}

// fillMissing copies the defaults dst lacks and returns their names, sorted.
func fillMissing(dst, defaults corev1.ResourceList) []string {
	var set []string
	for _, k := range resources.SortedNames(defaults) {
		if _, ok := dst[k]; !ok {
			dst[k] = defaults[k].DeepCopy()
			set = append(set, string(k))
		}
	}
	return set
}

// ValidatePod checks a pod against one LimitRange (LR-12..18) and returns the
// failures in upstream's structure: items in spec order; Container items visit
// containers then init containers; per target min, then max, then ratio; keys sorted.
func ValidatePod(lr *corev1.LimitRange, pod *corev1.Pod, gates features.Gates) []error {
	var errs []error
	check := func(item *corev1.LimitRangeItem, req, lim corev1.ResourceList) {
		t := string(item.Type)
		for _, k := range resources.SortedNames(item.Min) {
			if err := minConstraint(t, k, item.Min[k], req, lim); err != nil {
				errs = append(errs, err)
			}
		}
		for _, k := range resources.SortedNames(item.Max) {
			if err := maxConstraint(t, k, item.Max[k], req, lim); err != nil {
				errs = append(errs, err)
			}
		}
		for _, k := range resources.SortedNames(item.MaxLimitRequestRatio) {
			if err := limitRequestRatioConstraint(t, k, item.MaxLimitRequestRatio[k], req, lim); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for i := range lr.Spec.Limits {
		item := &lr.Spec.Limits[i]
		switch item.Type {
		case corev1.LimitTypeContainer:
			for j := range pod.Spec.Containers {
				c := &pod.Spec.Containers[j]
				check(item, c.Resources.Requests, c.Resources.Limits)
			}
			for j := range pod.Spec.InitContainers {
				c := &pod.Spec.InitContainers[j]
				check(item, c.Resources.Requests, c.Resources.Limits)
			}
		case corev1.LimitTypePod:
			podLevel := gates.Enabled(features.PodLevelResources)
			req := limitRangerPodAggregate(pod, podLevel, func(r *corev1.ResourceRequirements) corev1.ResourceList { return r.Requests })
			lim := limitRangerPodAggregate(pod, podLevel, func(r *corev1.ResourceRequirements) corev1.ResourceList { return r.Limits })
			check(item, req, lim)
		}
	}
	return errs
}

// ValidateClaim checks a PVC's requests against one LimitRange's
// PersistentVolumeClaim items (LR-19).
func ValidateClaim(lr *corev1.LimitRange, pvc *corev1.PersistentVolumeClaim) []error {
	var errs []error
	for i := range lr.Spec.Limits {
		item := &lr.Spec.Limits[i]
		if item.Type != corev1.LimitTypePersistentVolumeClaim {
			continue
		}
		t := string(item.Type)
		for _, k := range resources.SortedNames(item.Min) {
			if err := minConstraint(t, k, item.Min[k], pvc.Spec.Resources.Requests, corev1.ResourceList{}); err != nil {
				errs = append(errs, err)
			}
		}
		for _, k := range resources.SortedNames(item.Max) {
			if err := maxRequestConstraint(t, k, item.Max[k], pvc.Spec.Resources.Requests); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errs
}

// limitRangerPodAggregate is LimitRanger's own pod aggregate (LR-17, LR-18): sum of
// containers, sidecar-aware maximum over init containers, pod-level cpu/memory
// override; overhead is not counted.
func limitRangerPodAggregate(pod *corev1.Pod, podLevel bool, pick func(*corev1.ResourceRequirements) corev1.ResourceList) corev1.ResourceList {
	sum := corev1.ResourceList{}
	for i := range pod.Spec.Containers {
		resources.AddResourceList(sum, pick(&pod.Spec.Containers[i].Resources))
	}
	sidecars, initMax := corev1.ResourceList{}, corev1.ResourceList{}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		own := pick(&c.Resources)
		var use corev1.ResourceList
		if isSidecar(c) {
			resources.AddResourceList(sum, own)
			resources.AddResourceList(sidecars, own)
			use = sidecars
		} else {
			use = corev1.ResourceList{}
			resources.AddResourceList(use, own)
			resources.AddResourceList(use, sidecars)
		}
		resources.MaxResourceList(initMax, use)
	}
	resources.MaxResourceList(sum, initMax)
	if podLevel && pod.Spec.Resources != nil {
		for k, v := range pick(pod.Spec.Resources) {
			if k == corev1.ResourceCPU || k == corev1.ResourceMemory {
				sum[k] = v
			}
		}
	}
	return sum
}

// requestLimitEnforcedValues brings the three quantities to a common precision (LR-15).
func requestLimitEnforcedValues(req, lim, enforced resource.Quantity) (int64, int64, int64) {
	r, l, e := req.Value(), lim.Value(), enforced.Value()
	if r <= resource.MaxMilliValue && l <= resource.MaxMilliValue && e <= resource.MaxMilliValue {
		r, l, e = req.MilliValue(), lim.MilliValue(), enforced.MilliValue()
	}
	return r, l, e
}

func minConstraint(limitType string, name corev1.ResourceName, enforced resource.Quantity, req, lim corev1.ResourceList) error {
	reqQ, hasReq := req[name]
	limQ, hasLim := lim[name]
	r, l, e := requestLimitEnforcedValues(reqQ, limQ, enforced)
	switch {
	case !hasReq:
		return fmt.Errorf("minimum %s usage per %s is %s.  No request is specified", name, limitType, enforced.String())
	case r < e:
		return fmt.Errorf("minimum %s usage per %s is %s, but request is %s", name, limitType, enforced.String(), reqQ.String())
	case hasLim && l < e:
		return fmt.Errorf("minimum %s usage per %s is %s, but limit is %s", name, limitType, enforced.String(), limQ.String())
	}
	return nil
}

func maxRequestConstraint(limitType string, name corev1.ResourceName, enforced resource.Quantity, req corev1.ResourceList) error {
	reqQ, hasReq := req[name]
	r, _, e := requestLimitEnforcedValues(reqQ, resource.Quantity{}, enforced)
	switch {
	case !hasReq:
		return fmt.Errorf("maximum %s usage per %s is %s.  No request is specified", name, limitType, enforced.String())
	case r > e:
		return fmt.Errorf("maximum %s usage per %s is %s, but request is %s", name, limitType, enforced.String(), reqQ.String())
	}
	return nil
}

func maxConstraint(limitType string, name corev1.ResourceName, enforced resource.Quantity, req, lim corev1.ResourceList) error {
	reqQ, hasReq := req[name]
	limQ, hasLim := lim[name]
	r, l, e := requestLimitEnforcedValues(reqQ, limQ, enforced)
	switch {
	case !hasLim:
		return fmt.Errorf("maximum %s usage per %s is %s.  No limit is specified", name, limitType, enforced.String())
	case l > e:
		return fmt.Errorf("maximum %s usage per %s is %s, but limit is %s", name, limitType, enforced.String(), limQ.String())
	case hasReq && r > e:
		return fmt.Errorf("maximum %s usage per %s is %s, but request is %s", name, limitType, enforced.String(), reqQ.String())
	}
	return nil
}

func limitRequestRatioConstraint(limitType string, name corev1.ResourceName, enforced resource.Quantity, req, lim corev1.ResourceList) error {
	reqQ, hasReq := req[name]
	limQ, hasLim := lim[name]
	r, l, _ := requestLimitEnforcedValues(reqQ, limQ, enforced)
	if !hasReq || r == 0 {
		return fmt.Errorf("%s max limit to request ratio per %s is %s, but no request is specified or request is 0", name, limitType, enforced.String())
	}
	if !hasLim || l == 0 {
		return fmt.Errorf("%s max limit to request ratio per %s is %s, but no limit is specified or limit is 0", name, limitType, enforced.String())
	}
	observed := float64(l) / float64(r)
	shown := observed
	maxRatio := float64(enforced.Value())
	if enforced.Value() <= resource.MaxMilliValue {
		observed *= 1000
		maxRatio = float64(enforced.MilliValue())
	}
	if observed > maxRatio {
		return fmt.Errorf("%s max limit to request ratio per %s is %s, but provided ratio is %f", name, limitType, enforced.String(), shown)
	}
	return nil
}

func isSidecar(c *corev1.Container) bool {
	return c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
}
