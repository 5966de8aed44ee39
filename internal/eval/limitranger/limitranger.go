// Package limitranger is the LimitRanger admission plugin (LR-10..LR-21): the
// defaults a LimitRange gives a Pod's containers (Mutate) and the
// constraints it checks on Pods and PersistentVolumeClaims (ValidatePod,
// ValidateClaim). The engine runs it once per active LimitRange of the
// namespace, in input order, and wraps the errors in the plugin's 403.
package limitranger

import (
	"fmt"

	"github.com/limitcheck/limitcheck/internal/eval/resources"

	"github.com/limitcheck/limitcheck/internal/eval/features"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// The LimitRanger admission plugin (LRA in docs/behaviour.md; LR-10..LR-22).

// Annotation is the annotation LimitRanger writes on the pods it defaults.
const Annotation = "kubernetes.io/limit-ranger"

// Policy is an admitted LimitRange with what the plugin reads from it on
// every request worked out once: the Container defaults (LR-10) and each
// item's constrained names in order (LR-22). Upstream derives them per
// request; an admitted LimitRange never changes, so they are kept with it.
type Policy struct {
	LimitRange *corev1.LimitRange
	// defReq and defLim are the Container items' defaultRequest and default,
	// a later item's value winning, names in order.
	defReq, defLim []namedQuantity
	// items are the names of each spec.limits item's min, max and
	// maxLimitRequestRatio, in order, index for index.
	items []itemNames
}

type namedQuantity struct {
	name corev1.ResourceName
	q    resource.Quantity
}

type itemNames struct{ min, max, ratio []corev1.ResourceName }

// NewPolicy returns the Policy of a LimitRange that is not changed afterwards.
func NewPolicy(lr *corev1.LimitRange) *Policy {
	p := &Policy{LimitRange: lr, items: make([]itemNames, len(lr.Spec.Limits))}
	defReq, defLim := corev1.ResourceList{}, corev1.ResourceList{}
	for i := range lr.Spec.Limits {
		item := &lr.Spec.Limits[i]
		p.items[i] = itemNames{resources.SortedNames(item.Min), resources.SortedNames(item.Max), resources.SortedNames(item.MaxLimitRequestRatio)}
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
	for _, k := range resources.SortedNames(defReq) {
		p.defReq = append(p.defReq, namedDefault(k, defReq[k]))
	}
	for _, k := range resources.SortedNames(defLim) {
		p.defLim = append(p.defLim, namedDefault(k, defLim[k]))
	}
	return p
}

// namedDefault is a default amount with its canonical string already made:
// the copy every defaulted container gets has it, and the reports print it.
func namedDefault(name corev1.ResourceName, q resource.Quantity) namedQuantity {
	_ = q.String()
	return namedQuantity{name, q}
}

// Mutate applies one LimitRange's Container defaults to a pod (Policy.Mutate).
func Mutate(lr *corev1.LimitRange, pod *corev1.Pod) { NewPolicy(lr).Mutate(pod) }

// ValidatePod checks a pod against one LimitRange (Policy.ValidatePod).
func ValidatePod(lr *corev1.LimitRange, pod *corev1.Pod, gates features.Gates) []error {
	return NewPolicy(lr).ValidatePod(pod, gates)
}

// ValidateClaim checks a PVC against one LimitRange (Policy.ValidateClaim).
func ValidateClaim(lr *corev1.LimitRange, pvc *corev1.PersistentVolumeClaim) []error {
	return NewPolicy(lr).ValidateClaim(pvc)
}

// annotationPrefix starts the annotation's value.
const annotationPrefix = "LimitRanger plugin set: "

// Mutate applies the Container defaults to every container and init
// container, never overwriting, and records what it set in the annotation
// (LR-10, LR-11).
func (p *Policy) Mutate(pod *corev1.Pod) {
	var buf [256]byte
	notes := buf[:0] // the annotation's notes, "; "-separated
	for i := range pod.Spec.Containers {
		notes = p.mergeContainerDefaults(&pod.Spec.Containers[i], "container", notes)
	}
	for i := range pod.Spec.InitContainers {
		notes = p.mergeContainerDefaults(&pod.Spec.InitContainers[i], "init container", notes)
	}
	if len(notes) > 0 {
		if pod.Annotations == nil {
			pod.Annotations = map[string]string{}
		}
		pod.Annotations[Annotation] = annotationPrefix + string(notes)
	}
}

// mergeContainerDefaults fills in one container's missing requests and
// limits and appends to notes what it set: the requests' note, then the
// limits'.
func (p *Policy) mergeContainerDefaults(c *corev1.Container, prefix string, notes []byte) []byte {
	if c.Resources.Limits == nil {
		c.Resources.Limits = corev1.ResourceList{}
	}
	if c.Resources.Requests == nil {
		c.Resources.Requests = corev1.ResourceList{}
	}
	notes = fillMissing(c.Resources.Requests, p.defReq, notes, "request", prefix, c.Name)
	return fillMissing(c.Resources.Limits, p.defLim, notes, "limit", prefix, c.Name)
}

// fillMissing copies the defaults dst lacks and appends to notes the note
// "<names, in order> <what> for <prefix> <container>" when it copied any.
func fillMissing(dst corev1.ResourceList, defaults []namedQuantity, notes []byte, what, prefix, container string) []byte {
	set := 0
	for _, d := range defaults {
		if _, ok := dst[d.name]; ok {
			continue
		}
		dst[d.name] = d.q.DeepCopy()
		switch {
		case set > 0:
			notes = append(notes, ", "...)
		case len(notes) > 0:
			notes = append(notes, "; "...)
		}
		notes = append(notes, d.name...)
		set++
	}
	if set > 0 {
		notes = append(notes, ' ')
		notes = append(notes, what...)
		notes = append(notes, " for "...)
		notes = append(notes, prefix...)
		notes = append(notes, ' ')
		notes = append(notes, container...)
	}
	return notes
}

// ValidatePod checks a pod against the LimitRange (LR-12..18) and returns the
// failures in upstream's structure: items in spec order; Container items visit
// containers then init containers; per target min, then max, then ratio; keys sorted.
func (p *Policy) ValidatePod(pod *corev1.Pod, gates features.Gates) []error {
	var errs []error
	check := func(i int, req, lim corev1.ResourceList) {
		item, names := &p.LimitRange.Spec.Limits[i], &p.items[i]
		t := string(item.Type)
		for _, k := range names.min {
			if err := minConstraint(t, k, item.Min[k], req, lim); err != nil {
				errs = append(errs, err)
			}
		}
		for _, k := range names.max {
			if err := maxConstraint(t, k, item.Max[k], req, lim); err != nil {
				errs = append(errs, err)
			}
		}
		for _, k := range names.ratio {
			if err := limitRequestRatioConstraint(t, k, item.MaxLimitRequestRatio[k], req, lim); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for i := range p.LimitRange.Spec.Limits {
		switch p.LimitRange.Spec.Limits[i].Type {
		case corev1.LimitTypeContainer:
			for j := range pod.Spec.Containers {
				c := &pod.Spec.Containers[j]
				check(i, c.Resources.Requests, c.Resources.Limits)
			}
			for j := range pod.Spec.InitContainers {
				c := &pod.Spec.InitContainers[j]
				check(i, c.Resources.Requests, c.Resources.Limits)
			}
		case corev1.LimitTypePod:
			podLevel := gates.Enabled(features.PodLevelResources)
			// Small lists of the function's own (on its stack).
			req, lim := make(corev1.ResourceList, 4), make(corev1.ResourceList, 4)
			limitRangerPodAggregate(req, pod, podLevel, func(r *corev1.ResourceRequirements) corev1.ResourceList { return r.Requests })
			limitRangerPodAggregate(lim, pod, podLevel, func(r *corev1.ResourceRequirements) corev1.ResourceList { return r.Limits })
			check(i, req, lim)
		}
	}
	return errs
}

// ValidateClaim checks a PVC's requests against the LimitRange's
// PersistentVolumeClaim items (LR-19).
func (p *Policy) ValidateClaim(pvc *corev1.PersistentVolumeClaim) []error {
	var errs []error
	for i := range p.LimitRange.Spec.Limits {
		item := &p.LimitRange.Spec.Limits[i]
		if item.Type != corev1.LimitTypePersistentVolumeClaim {
			continue
		}
		t := string(item.Type)
		for _, k := range p.items[i].min {
			if err := minConstraint(t, k, item.Min[k], pvc.Spec.Resources.Requests, corev1.ResourceList{}); err != nil {
				errs = append(errs, err)
			}
		}
		for _, k := range p.items[i].max {
			if err := maxRequestConstraint(t, k, item.Max[k], pvc.Spec.Resources.Requests); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errs
}

// limitRangerPodAggregate is LimitRanger's own pod aggregate (LR-17, LR-18): sum of
// containers, sidecar-aware maximum over init containers, pod-level cpu/memory
// override; overhead is not counted. It is added into sum, which is empty.
func limitRangerPodAggregate(sum corev1.ResourceList, pod *corev1.Pod, podLevel bool, pick func(*corev1.ResourceRequirements) corev1.ResourceList) {
	for i := range pod.Spec.Containers {
		resources.AddResourceList(sum, pick(&pod.Spec.Containers[i].Resources))
	}
	if len(pod.Spec.InitContainers) > 0 {
		addInitContainers(sum, pod, pick)
	}
	if podLevel && pod.Spec.Resources != nil {
		for k, v := range pick(pod.Spec.Resources) {
			if k == corev1.ResourceCPU || k == corev1.ResourceMemory {
				sum[k] = v
			}
		}
	}
}

// addInitContainers adds the init containers' part of the pod aggregate to
// sum: each sidecar's own, then the largest of what each init container
// needs while it runs (its own and the sidecars started before it).
func addInitContainers(sum corev1.ResourceList, pod *corev1.Pod, pick func(*corev1.ResourceRequirements) corev1.ResourceList) {
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
