package defaults

import (
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// HorizontalPodAutoscalers (VAL-50): both served versions are defaulted and
// converted to the shape of the internal type, which autoscaling/v2 has.

// defaultCPUUtilization is autoscaling.DefaultCPUUtilization.
const defaultCPUUtilization int32 = 80

// HorizontalPodAutoscaler returns obj, an autoscaling/v2 or autoscaling/v1
// HorizontalPodAutoscaler, defaulted as the API does and in the internal
// type's shape (as autoscaling/v2): SetDefaults_HorizontalPodAutoscaler of
// v2 (minReplicas 1, a CPU utilization metric of 80% when none is given,
// every unset field of a given behavior's scaleUp and scaleDown filled in)
// or of v1 (minReplicas 1) followed by the v1 conversion
// (targetCPUUtilizationPercentage is the CPU utilization metric, 80% when
// unset). The v1 annotations that carry v2 fields
// (autoscaling.alpha.kubernetes.io/metrics, .../behavior) are not read.
// nil for other objects.
func HorizontalPodAutoscaler(obj any) *autoscalingv2.HorizontalPodAutoscaler {
	switch o := obj.(type) {
	case *autoscalingv2.HorizontalPodAutoscaler:
		defaultHPAv2(o)
		return o
	case *autoscalingv1.HorizontalPodAutoscaler:
		if o.Spec.MinReplicas == nil {
			o.Spec.MinReplicas = ptr.To[int32](1)
		}
		out := &autoscalingv2.HorizontalPodAutoscaler{TypeMeta: o.TypeMeta, ObjectMeta: o.ObjectMeta}
		out.APIVersion = autoscalingv2.SchemeGroupVersion.String()
		out.Spec = autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{Kind: o.Spec.ScaleTargetRef.Kind,
				Name: o.Spec.ScaleTargetRef.Name, APIVersion: o.Spec.ScaleTargetRef.APIVersion},
			MinReplicas: o.Spec.MinReplicas,
			MaxReplicas: o.Spec.MaxReplicas,
		}
		util := defaultCPUUtilization
		if o.Spec.TargetCPUUtilizationPercentage != nil {
			util = *o.Spec.TargetCPUUtilizationPercentage
		}
		out.Spec.Metrics = []autoscalingv2.MetricSpec{cpuUtilization(util)}
		return out
	}
	return nil
}

func cpuUtilization(util int32) autoscalingv2.MetricSpec {
	return autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType,
		Resource: &autoscalingv2.ResourceMetricSource{Name: corev1.ResourceCPU,
			Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr.To(util)}}}
}

// defaultHPAv2 is autoscaling/v2 SetDefaults_HorizontalPodAutoscaler.
func defaultHPAv2(o *autoscalingv2.HorizontalPodAutoscaler) {
	if o.Spec.MinReplicas == nil {
		o.Spec.MinReplicas = ptr.To[int32](1)
	}
	if len(o.Spec.Metrics) == 0 {
		o.Spec.Metrics = []autoscalingv2.MetricSpec{cpuUtilization(defaultCPUUtilization)}
	}
	if b := o.Spec.Behavior; b != nil {
		maxPolicy := autoscalingv2.MaxChangePolicySelect
		up := &autoscalingv2.HPAScalingRules{StabilizationWindowSeconds: ptr.To[int32](0), SelectPolicy: &maxPolicy,
			Policies: []autoscalingv2.HPAScalingPolicy{
				{Type: autoscalingv2.PodsScalingPolicy, Value: 4, PeriodSeconds: 15},
				{Type: autoscalingv2.PercentScalingPolicy, Value: 100, PeriodSeconds: 15}}}
		maxPolicy2 := autoscalingv2.MaxChangePolicySelect
		down := &autoscalingv2.HPAScalingRules{SelectPolicy: &maxPolicy2,
			Policies: []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PercentScalingPolicy, Value: 100, PeriodSeconds: 15}}}
		b.ScaleUp = copyScalingRules(b.ScaleUp, up)
		b.ScaleDown = copyScalingRules(b.ScaleDown, down)
	}
}

// copyScalingRules is copyHPAScalingRules: every non-nil field of from over to.
func copyScalingRules(from, to *autoscalingv2.HPAScalingRules) *autoscalingv2.HPAScalingRules {
	if from == nil {
		return to
	}
	if from.SelectPolicy != nil {
		to.SelectPolicy = from.SelectPolicy
	}
	if from.StabilizationWindowSeconds != nil {
		to.StabilizationWindowSeconds = from.StabilizationWindowSeconds
	}
	if from.Policies != nil {
		to.Policies = from.Policies
	}
	if from.Tolerance != nil {
		to.Tolerance = from.Tolerance
	}
	return to
}
