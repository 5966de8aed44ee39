package eval

import (
	"fmt"
	"slices"
	"strings"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/eval/defaults"
	"github.com/limitcheck/limitcheck/internal/eval/features"
	"github.com/limitcheck/limitcheck/internal/eval/validation"
)

// HorizontalPodAutoscalers (VAL-50, FIT-04).

// hpaKind is the group and kind of both served versions.
var hpaKind = schema.GroupKind{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}

// prepareHPA defaults an autoscaling/v2 or v1 HPA (name already generated)
// and runs the strategy's PrepareForCreate: status cleared, behavior
// tolerances dropped while HPAConfigurableTolerance is off. The result has
// the internal type's shape (defaults.HorizontalPodAutoscaler).
func prepareHPA(obj runtime.Object, gates features.Gates) *autoscalingv2.HorizontalPodAutoscaler {
	hpa := defaults.HorizontalPodAutoscaler(obj)
	if hpa == nil {
		return nil
	}
	hpa.Status = autoscalingv2.HorizontalPodAutoscalerStatus{}
	if b := hpa.Spec.Behavior; b != nil && !gates.Enabled(features.HPAConfigurableTolerance) {
		for _, r := range []*autoscalingv2.HPAScalingRules{b.ScaleUp, b.ScaleDown} {
			if r != nil {
				r.Tolerance = nil
			}
		}
	}
	return hpa
}

func validateHPA(hpa *autoscalingv2.HorizontalPodAutoscaler, gates features.Gates) field.ErrorList {
	return validation.HorizontalPodAutoscaler(hpa, validation.HPAOptions{ScaleToZero: gates.Enabled(features.HPAScaleToZero)})
}

// ScaleTarget identifies a workload an HPA scales: its namespace, API group,
// kind and name (the version of scaleTargetRef.apiVersion does not matter).
type ScaleTarget struct {
	Namespace, Group, Kind, Name string
}

// Scaling is what an HPA says about its target.
type Scaling struct {
	// HPA is the HPA's name (generated names use the placeholder suffix).
	HPA                      string
	MinReplicas, MaxReplicas int32
	Target                   ScaleTarget
}

// HPAScaling reads an autoscaling/v2 or v1 HorizontalPodAutoscaler as
// kube-apiserver would store it, on a copy: ok is false when obj is no HPA
// or kube-apiserver refuses it as invalid (it never exists, so it scales
// nothing). A namespace-less HPA is in defaultNamespace.
func HPAScaling(obj runtime.Object, defaultNamespace string, gates features.Gates) (s Scaling, ok bool) {
	c := obj.DeepCopyObject()
	hpaMeta, isMeta := c.(interface {
		GetNamespace() string
		SetNamespace(string)
	})
	if !isMeta || defaults.HorizontalPodAutoscaler(obj.DeepCopyObject()) == nil {
		return s, false
	}
	if hpaMeta.GetNamespace() == "" {
		hpaMeta.SetNamespace(defaultNamespace)
	}
	if m, ok := c.(interface {
		GetName() string
		GetGenerateName() string
		SetName(string)
	}); ok && m.GetName() == "" && m.GetGenerateName() != "" {
		m.SetName(GeneratedName(m.GetGenerateName()))
	}
	hpa := prepareHPA(c, gates)
	if len(validateHPA(hpa, gates)) > 0 {
		return s, false
	}
	ref := hpa.Spec.ScaleTargetRef
	gv, _ := schema.ParseGroupVersion(ref.APIVersion) // valid: validated
	min := int32(1)
	if hpa.Spec.MinReplicas != nil {
		min = *hpa.Spec.MinReplicas
	}
	return Scaling{HPA: hpa.Name, MinReplicas: min, MaxReplicas: hpa.Spec.MaxReplicas,
		Target: ScaleTarget{Namespace: hpa.Namespace, Group: gv.Group, Kind: mappedKind(gv.Group, ref.Kind), Name: ref.Name}}, true
}

// scalableKinds are the workloads an HPA can scale whose Pods limitcheck
// creates.
var scalableKinds = []schema.GroupKind{
	{Group: "apps", Kind: "Deployment"}, {Group: "apps", Kind: "ReplicaSet"},
	{Group: "apps", Kind: "StatefulSet"}, {Kind: "ReplicationController"},
}

// Scalable reports whether t is of a kind whose replicas limitcheck creates
// Pods for.
func Scalable(t ScaleTarget) bool {
	for _, gk := range scalableKinds {
		if gk.Group == t.Group && gk.Kind == t.Kind {
			return true
		}
	}
	return false
}

// mappedKind is the kind the HPA controller's REST mapper resolves a
// scaleTargetRef kind to: discovery maps a kind as served and in all lower
// case, so "deployment" names Deployment but "DEPLOYMENT" nothing (FIT-04).
func mappedKind(group, kind string) string {
	if strings.ToLower(kind) != kind {
		return kind
	}
	for _, gk := range scalableKinds {
		if gk.Group == group && strings.ToLower(gk.Kind) == kind {
			return gk.Kind
		}
	}
	return kind
}

// scaleTargetOf is the ScaleTarget identity of a workload as admitted.
func scaleTargetOf(obj runtime.Object) ScaleTarget {
	gvk := obj.GetObjectKind().GroupVersionKind()
	t := ScaleTarget{Group: gvk.Group, Kind: gvk.Kind}
	if m, ok := obj.(interface {
		GetNamespace() string
		GetName() string
	}); ok {
		t.Namespace, t.Name = m.GetNamespace(), m.GetName()
	}
	return t
}

// ScaleTargetOf is the identity an HPA's scaleTargetRef names a result by.
func ScaleTargetOf(res *Result) ScaleTarget {
	gv, _ := schema.ParseGroupVersion(res.APIVersion)
	return ScaleTarget{Namespace: res.Namespace, Group: gv.Group, Kind: res.Kind, Name: res.Name}
}

// scaleTargetWarning says why the HorizontalPodAutoscaler controller cannot
// scale the target of an HPA kube-apiserver creates, or "": its REST mapper
// finds the group and kind in no served version, or the kind has no scale
// subresource (the controller reports FailedGetScale either way). A kind a
// CRD outside the input may serve is taken as scalable.
func (e *Engine) scaleTargetWarning(obj runtime.Object) string {
	var ref autoscalingv2.CrossVersionObjectReference
	switch o := obj.(type) {
	case *autoscalingv2.HorizontalPodAutoscaler:
		ref = o.Spec.ScaleTargetRef
	case *autoscalingv1.HorizontalPodAutoscaler:
		ref = autoscalingv2.CrossVersionObjectReference(o.Spec.ScaleTargetRef)
	default:
		return ""
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil || ref.Kind == "" {
		return ""
	}
	c := e.catalog()
	k, st, scalable := c.MapGroupKind(gv.Group, ref.Kind)
	target := fmt.Sprintf("its scaleTargetRef %s %s %q", ref.APIVersion, ref.Kind, ref.Name)
	switch {
	case st == apis.NotServed:
		msg := fmt.Sprintf("%s cannot be scaled (the HorizontalPodAutoscaler controller reports FailedGetScale): no matches for kind %q in group %q", target, ref.Kind, gv.Group)
		if s := c.Suggest(ref.APIVersion, ref.Kind); s != "" {
			msg += "; " + s
		}
		return msg
	case st == apis.Served && !scalable:
		return fmt.Sprintf("%s cannot be scaled (the HorizontalPodAutoscaler controller reports FailedGetScale): %s %s has no scale subresource",
			target, k.APIVersion(), k.Kind)
	}
	return ""
}

// utilizationMetric is a metric of an HPA whose target is a utilization:
// the share of the Pods' requests of resource in use (a ContainerResource
// metric: of container's request only).
type utilizationMetric struct {
	source    autoscalingv2.MetricSourceType
	resource  corev1.ResourceName
	container string
}

// utilizationMetrics lists the metrics of a prepared HPA whose target is an
// average utilization: the only ones for which the HorizontalPodAutoscaler
// controller reads the Pods' requests (an AverageValue target is compared
// with the usage as it is).
func utilizationMetrics(hpa *autoscalingv2.HorizontalPodAutoscaler) []utilizationMetric {
	var out []utilizationMetric
	for _, m := range hpa.Spec.Metrics {
		switch {
		case m.Type == autoscalingv2.ResourceMetricSourceType && m.Resource != nil && m.Resource.Target.AverageValue == nil && m.Resource.Target.AverageUtilization != nil:
			out = append(out, utilizationMetric{source: m.Type, resource: m.Resource.Name})
		case m.Type == autoscalingv2.ContainerResourceMetricSourceType && m.ContainerResource != nil && m.ContainerResource.Target.AverageValue == nil && m.ContainerResource.Target.AverageUtilization != nil:
			out = append(out, utilizationMetric{source: m.Type, resource: m.ContainerResource.Name, container: m.ContainerResource.Container})
		}
	}
	return out
}

// requestError is the error of the HorizontalPodAutoscaler controller's
// calculateRequests for pod, a Pod its target runs, and metric: a container
// without a request for the resource (every container counts, restartable
// init containers included, or the one the metric names), a container the
// Pod does not have, or pod-level requests without the resource; then that
// of GetResourceUtilizationRatio when the requests add up to zero. "" when
// the controller can divide by them. With PodLevelResources on, pod-level
// requests stand for the containers' unless the metric names a container.
func requestError(pod *corev1.Pod, m utilizationMetric, podLevel bool) string {
	var total int64
	if podLevel && m.container == "" && resourcehelper.IsPodLevelRequestsSet(pod) {
		q, ok := resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{})[m.resource]
		if !ok {
			return fmt.Sprintf("missing pod-level request for %s in Pod %s", m.resource, pod.Name)
		}
		total = q.MilliValue()
	} else {
		containers := slices.Clone(pod.Spec.Containers)
		for _, c := range pod.Spec.InitContainers {
			if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
				containers = append(containers, c)
			}
		}
		found := false
		for _, c := range containers {
			if m.container != "" && m.container != c.Name {
				continue
			}
			q, ok := c.Resources.Requests[m.resource]
			if !ok {
				return fmt.Sprintf("missing request for %s in container %s of Pod %s", m.resource, c.Name, pod.Name)
			}
			total += q.MilliValue()
			if m.container != "" {
				found = true
				break
			}
		}
		if m.container != "" && !found {
			return fmt.Sprintf("container %s not found in Pod %s", m.container, pod.Name)
		}
	}
	if total == 0 {
		return "no metrics returned matched known pods"
	}
	return ""
}

// autoscaled is what the engine keeps to tell an HPA that its controller
// cannot compute a utilization (FIT-06), whichever of the HPA and its
// target comes first: the target's first created Pod, or the HPAs that
// wait for it.
type autoscaled struct {
	pod  *corev1.Pod
	kind string // the target's kind, for the message
	hpas []waitingHPA
}

type waitingHPA struct {
	name    string
	metrics []utilizationMetric
}

// utilizationWarnings says, for each utilization metric of an HPA that the
// HorizontalPodAutoscaler controller cannot compute on pod (a Pod of the
// target, kind name), why, in the controller's words, and what to do. who
// begins each: the HPA as its own entry or its target's names it.
func (e *Engine) utilizationWarnings(who string, metrics []utilizationMetric, pod *corev1.Pod, kind, name string) []string {
	var out []string
	podLevel := e.opts.Gates.Enabled(features.PodLevelResources)
	for _, m := range metrics {
		msg := requestError(pod, m, podLevel)
		if msg == "" {
			continue
		}
		reason := "FailedGetResourceMetric"
		if m.source == autoscalingv2.ContainerResourceMetricSourceType {
			reason = "FailedGetContainerResourceMetric"
		}
		var fix string
		switch {
		case strings.HasPrefix(msg, "no metrics"):
			fix = fmt.Sprintf("its Pods request no %s: give them a %s request above zero", m.resource, m.resource)
		case strings.HasPrefix(msg, "container "):
			fix = "name one of its containers"
		case m.container != "":
			fix = fmt.Sprintf("give container %s a %s request, or the namespace a LimitRange with a defaultRequest for %s", m.container, m.resource, m.resource)
		case strings.HasPrefix(msg, "missing pod-level"):
			fix = fmt.Sprintf("give the Pod template's pod-level resources a %s request", m.resource)
		default:
			fix = fmt.Sprintf("give every container a %s request, or the namespace a LimitRange with a defaultRequest for %s", m.resource, m.resource)
		}
		out = append(out, fmt.Sprintf("%s cannot compute the %s utilization of %s %q (%s: failed to get %s utilization: %s): %s (FIT-06)",
			who, m.resource, kind, name, reason, m.resource, msg, fix))
	}
	return out
}

// noteAutoscaling records an admitted HPA or scalable workload (res) and
// returns the utilization warnings (FIT-06) that its pair, admitted
// earlier, makes possible: on an HPA, about its target; on a workload,
// about the HPAs that target it.
func (e *Engine) noteAutoscaling(obj runtime.Object, res *Result) []string {
	if hpa, ok := res.Object.(*autoscalingv2.HorizontalPodAutoscaler); ok {
		metrics := utilizationMetrics(hpa)
		if len(metrics) == 0 {
			return nil
		}
		ref := hpa.Spec.ScaleTargetRef
		gv, _ := schema.ParseGroupVersion(ref.APIVersion)
		t := ScaleTarget{Namespace: hpa.Namespace, Group: gv.Group, Kind: mappedKind(gv.Group, ref.Kind), Name: ref.Name}
		if !Scalable(t) {
			return nil
		}
		a := e.autoscaledFor(t)
		if a.pod != nil {
			return e.utilizationWarnings("its controller", metrics, a.pod, t.Kind, t.Name)
		}
		a.hpas = append(a.hpas, waitingHPA{name: hpa.Name, metrics: metrics})
		return nil
	}
	w := res.Workload
	if w == nil {
		return nil
	}
	t := scaleTargetOf(obj)
	if !Scalable(t) || e.opts.Autoscaled != nil && !e.opts.Autoscaled[t] {
		return nil
	}
	var pod *corev1.Pod
	for _, c := range w.Created {
		if p, ok := c.Object.(*corev1.Pod); ok {
			pod = p
			break
		}
	}
	if pod == nil {
		return nil
	}
	a := e.autoscaledFor(t)
	if a.pod != nil {
		return nil // a second workload of that name was refused (ST-01)
	}
	a.pod, a.kind = pod, t.Kind
	var out []string
	for _, h := range a.hpas {
		out = append(out, e.utilizationWarnings(fmt.Sprintf("HorizontalPodAutoscaler %q", h.name), h.metrics, pod, t.Kind, t.Name)...)
	}
	a.hpas = nil
	return out
}

// autoscaledFor is the record of target t, made on first use.
func (e *Engine) autoscaledFor(t ScaleTarget) *autoscaled {
	if e.autoscaling == nil {
		e.autoscaling = map[ScaleTarget]*autoscaled{}
	}
	a := e.autoscaling[t]
	if a == nil {
		a = &autoscaled{}
		e.autoscaling[t] = a
	}
	return a
}
