package eval

import (
	"fmt"
	"strings"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

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
