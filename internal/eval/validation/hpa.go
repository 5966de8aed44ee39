package validation

import (
	"fmt"
	"slices"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// HorizontalPodAutoscaler validation on create (VAL-50).

// HPAOptions are what the strategy's validation options depend on.
type HPAOptions struct {
	// ScaleToZero is the HPAScaleToZero gate: minReplicas may be 0.
	ScaleToZero bool
}

// HorizontalPodAutoscaler is the HorizontalPodAutoscaler strategy's Validate
// on a defaulted HPA in the internal type's shape (defaults.HorizontalPodAutoscaler):
// ValidateHorizontalPodAutoscaler with validationOptionsForHorizontalPodAutoscaler's
// create options. ValidateDeclarativelyWithMigrationChecks returns the
// handwritten errors unchanged (the strategy does not enforce the declarative ones).
func HorizontalPodAutoscaler(hpa *autoscalingv2.HorizontalPodAutoscaler, opts HPAOptions) field.ErrorList {
	errs := ObjectMeta(&hpa.ObjectMeta, MetaRulesFor(schema.GroupKind{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}), field.NewPath("metadata"))
	spec, p := &hpa.Spec, field.NewPath("spec")
	lower := int32(1)
	if opts.ScaleToZero {
		lower = 0
	}
	if spec.MinReplicas != nil && *spec.MinReplicas < lower {
		errs = append(errs, field.Invalid(p.Child("minReplicas"), *spec.MinReplicas, fmt.Sprintf("must be greater than or equal to %d", lower)))
	}
	if spec.MaxReplicas == 0 {
		errs = append(errs, field.Required(p.Child("maxReplicas"), "must be set and greater than 0"))
	} else if spec.MaxReplicas < 0 {
		errs = append(errs, field.Invalid(p.Child("maxReplicas"), spec.MaxReplicas, "must be greater than or equal to 1"))
	}
	if spec.MinReplicas != nil && spec.MaxReplicas < *spec.MinReplicas {
		errs = append(errs, field.Invalid(p.Child("maxReplicas"), spec.MaxReplicas, "must be greater than or equal to `minReplicas`"))
	}
	// Only a ReplicationController's reference may name the core group.
	errs = append(errs, crossVersionObjectReference(spec.ScaleTargetRef, p.Child("scaleTargetRef"), spec.ScaleTargetRef.Kind == "ReplicationController")...)
	errs = append(errs, hpaMetrics(spec.Metrics, p.Child("metrics"), spec.MinReplicas)...)
	if b := spec.Behavior; b != nil {
		errs = append(errs, scalingRules(b.ScaleUp, p.Child("behavior", "scaleUp"))...)
		errs = append(errs, scalingRules(b.ScaleDown, p.Child("behavior", "scaleDown"))...)
	}
	return errs
}

// crossVersionObjectReference is ValidateCrossVersionObjectReference.
func crossVersionObjectReference(ref autoscalingv2.CrossVersionObjectReference, p *field.Path, allowEmptyGroup bool) field.ErrorList {
	var errs field.ErrorList
	for _, f := range []struct{ name, value string }{{"kind", ref.Kind}, {"name", ref.Name}} {
		if f.value == "" {
			errs = append(errs, field.Required(p.Child(f.name), ""))
			continue
		}
		for _, msg := range content.IsPathSegmentName(f.value) {
			errs = append(errs, field.Invalid(p.Child(f.name), f.value, msg))
		}
	}
	if err := hpaAPIVersion(ref.APIVersion, allowEmptyGroup); err != nil {
		errs = append(errs, field.Invalid(p.Child("apiVersion"), ref.APIVersion, err.Error()))
	}
	return errs
}

// hpaAPIVersion is ValidateAPIVersion.
func hpaAPIVersion(apiVersion string, allowEmptyGroup bool) error {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return err
	}
	if !allowEmptyGroup && gv.Group == "" {
		return fmt.Errorf("apiVersion must specify API group")
	}
	return nil
}

func hpaMetrics(metrics []autoscalingv2.MetricSpec, p *field.Path, minReplicas *int32) field.ErrorList {
	var errs field.ErrorList
	objectOrExternal := false
	for i := range metrics {
		errs = append(errs, metricSpec(&metrics[i], p.Index(i))...)
		if t := metrics[i].Type; t == autoscalingv2.ObjectMetricSourceType || t == autoscalingv2.ExternalMetricSourceType {
			objectOrExternal = true
		}
	}
	if minReplicas != nil && *minReplicas == 0 && !objectOrExternal {
		errs = append(errs, field.Forbidden(p, "must specify at least one Object or External metric to support scaling to zero replicas"))
	}
	return errs
}

var (
	selectPolicies = []string{string(autoscalingv2.DisabledPolicySelect), string(autoscalingv2.MaxChangePolicySelect), string(autoscalingv2.MinChangePolicySelect)}
	policyTypes    = []string{string(autoscalingv2.PercentScalingPolicy), string(autoscalingv2.PodsScalingPolicy)}
	metricTypes    = []string{string(autoscalingv2.ContainerResourceMetricSourceType), string(autoscalingv2.ExternalMetricSourceType),
		string(autoscalingv2.ObjectMetricSourceType), string(autoscalingv2.PodsMetricSourceType), string(autoscalingv2.ResourceMetricSourceType)}
)

// scalingRules is validateScalingRules.
func scalingRules(r *autoscalingv2.HPAScalingRules, p *field.Path) field.ErrorList {
	if r == nil {
		return nil
	}
	var errs field.ErrorList
	if w := r.StabilizationWindowSeconds; w != nil && *w < 0 {
		errs = append(errs, field.Invalid(p.Child("stabilizationWindowSeconds"), w, "must be greater than or equal to zero"))
	}
	if w := r.StabilizationWindowSeconds; w != nil && *w > 3600 {
		errs = append(errs, field.Invalid(p.Child("stabilizationWindowSeconds"), w, "must be less than or equal to 3600"))
	}
	if s := r.SelectPolicy; s != nil && !slices.Contains(selectPolicies, string(*s)) {
		errs = append(errs, field.NotSupported(p.Child("selectPolicy"), s, selectPolicies))
	}
	pp := p.Child("policies")
	if len(r.Policies) == 0 {
		errs = append(errs, field.Required(pp, "must specify at least one Policy"))
	}
	for i, pol := range r.Policies {
		ip := pp.Index(i)
		if pol.Type != autoscalingv2.PodsScalingPolicy && pol.Type != autoscalingv2.PercentScalingPolicy {
			errs = append(errs, field.NotSupported(ip.Child("type"), pol.Type, policyTypes))
		}
		if pol.Value <= 0 {
			errs = append(errs, field.Invalid(ip.Child("value"), pol.Value, "must be greater than zero"))
		}
		if pol.PeriodSeconds <= 0 {
			errs = append(errs, field.Invalid(ip.Child("periodSeconds"), pol.PeriodSeconds, "must be greater than zero"))
		}
		if pol.PeriodSeconds > 1800 {
			errs = append(errs, field.Invalid(ip.Child("periodSeconds"), pol.PeriodSeconds, "must be less than or equal to 1800"))
		}
	}
	if t := r.Tolerance; t != nil && t.Cmp(resource.Quantity{}) < 0 {
		errs = append(errs, field.Invalid(p.Child("tolerance"), t.String(), msgNegative))
	}
	return errs
}

// metricSpec is validateMetricSpec.
func metricSpec(m *autoscalingv2.MetricSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if m.Type == "" {
		errs = append(errs, field.Required(p.Child("type"), "must specify a metric source type"))
	}
	if !slices.Contains(metricTypes, string(m.Type)) {
		errs = append(errs, field.NotSupported(p.Child("type"), m.Type, metricTypes))
	}
	// The first source set (in upstream's order) is validated; the others
	// are forbidden below unless the type names them.
	var present []string
	if m.Object != nil {
		present = append(present, "object")
		if len(present) == 1 {
			errs = append(errs, objectSource(m.Object, p.Child("object"))...)
		}
	}
	if m.External != nil {
		present = append(present, "external")
		if len(present) == 1 {
			errs = append(errs, externalSource(m.External, p.Child("external"))...)
		}
	}
	if m.Pods != nil {
		present = append(present, "pods")
		if len(present) == 1 {
			errs = append(errs, podsSource(m.Pods, p.Child("pods"))...)
		}
	}
	if m.Resource != nil {
		present = append(present, "resource")
		if len(present) == 1 {
			errs = append(errs, resourceSource(m.Resource, p.Child("resource"))...)
		}
	}
	if m.ContainerResource != nil {
		present = append(present, "containerResource")
		if len(present) == 1 {
			errs = append(errs, containerResourceSource(m.ContainerResource, p.Child("containerResource"))...)
		}
	}
	required := func(name string, set bool) {
		if !set {
			errs = append(errs, field.Required(p.Child(name), "must populate information for the given metric source"))
		}
	}
	var expected string
	switch m.Type {
	case autoscalingv2.ObjectMetricSourceType:
		required("object", m.Object != nil)
		expected = "object"
	case autoscalingv2.PodsMetricSourceType:
		required("pods", m.Pods != nil)
		expected = "pods"
	case autoscalingv2.ResourceMetricSourceType:
		required("resource", m.Resource != nil)
		expected = "resource"
	case autoscalingv2.ExternalMetricSourceType:
		required("external", m.External != nil)
		expected = "external"
	case autoscalingv2.ContainerResourceMetricSourceType:
		required("containerResource", m.ContainerResource != nil)
		expected = "containerResource"
	default:
		errs = append(errs, field.NotSupported(p.Child("type"), m.Type, metricTypes))
	}
	if len(present) != 1 {
		// Upstream ranges over a set: its order is random; sorted here.
		var others []string
		for _, t := range present {
			if t != expected {
				others = append(others, t)
			}
		}
		slices.Sort(others)
		for _, t := range others {
			errs = append(errs, field.Forbidden(p.Child(t), "must populate the given metric source only"))
		}
	}
	return errs
}

func objectSource(src *autoscalingv2.ObjectMetricSource, p *field.Path) field.ErrorList {
	errs := crossVersionObjectReference(src.DescribedObject, p.Child("describedObject"), true)
	errs = append(errs, metricIdentifier(src.Metric, p.Child("metric"))...)
	errs = append(errs, metricTarget(src.Target, p.Child("target"))...)
	if src.Target.Value == nil && src.Target.AverageValue == nil {
		errs = append(errs, field.Required(p.Child("target").Child("averageValue"), "must set either a target value or averageValue"))
	}
	return errs
}

func externalSource(src *autoscalingv2.ExternalMetricSource, p *field.Path) field.ErrorList {
	errs := metricIdentifier(src.Metric, p.Child("metric"))
	errs = append(errs, metricTarget(src.Target, p.Child("target"))...)
	if src.Target.Value == nil && src.Target.AverageValue == nil {
		errs = append(errs, field.Required(p.Child("target").Child("averageValue"), "must set either a target value for metric or a per-pod target"))
	}
	if src.Target.Value != nil && src.Target.AverageValue != nil {
		errs = append(errs, field.Forbidden(p.Child("target").Child("value"), "may not set both a target value for metric and a per-pod target"))
	}
	return errs
}

func podsSource(src *autoscalingv2.PodsMetricSource, p *field.Path) field.ErrorList {
	errs := metricIdentifier(src.Metric, p.Child("metric"))
	errs = append(errs, metricTarget(src.Target, p.Child("target"))...)
	if src.Target.AverageValue == nil {
		errs = append(errs, field.Required(p.Child("target").Child("averageValue"), "must specify a positive target averageValue"))
	}
	return errs
}

func containerResourceSource(src *autoscalingv2.ContainerResourceMetricSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if src.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), "must specify a resource name"))
	} else {
		errs = append(errs, validateContainerResourceName(src.Name, lazy(p.Child("name")))...)
	}
	if src.Container == "" {
		errs = append(errs, field.Required(p.Child("container"), "must specify a container"))
	} else {
		for _, msg := range namecheck.IsDNS1123Label(src.Container) {
			errs = append(errs, field.Invalid(p.Child("container"), src.Container, msg))
		}
	}
	errs = append(errs, metricTarget(src.Target, p.Child("target"))...)
	errs = append(errs, utilizationOrValue(src.Target, p.Child("target"))...)
	return errs
}

func resourceSource(src *autoscalingv2.ResourceMetricSource, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if src.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), "must specify a resource name"))
	}
	errs = append(errs, metricTarget(src.Target, p.Child("target"))...)
	errs = append(errs, utilizationOrValue(src.Target, p.Child("target"))...)
	return errs
}

func utilizationOrValue(t autoscalingv2.MetricTarget, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if t.AverageUtilization == nil && t.AverageValue == nil {
		errs = append(errs, field.Required(p.Child("averageUtilization"), "must set either a target raw value or a target utilization"))
	}
	if t.AverageUtilization != nil && t.AverageValue != nil {
		errs = append(errs, field.Forbidden(p.Child("averageValue"), "may not set both a target raw value and a target utilization"))
	}
	return errs
}

// metricTarget is validateMetricTarget.
func metricTarget(t autoscalingv2.MetricTarget, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if t.Type == "" {
		errs = append(errs, field.Required(p.Child("type"), "must specify a metric target type"))
	}
	if t.Type != autoscalingv2.UtilizationMetricType && t.Type != autoscalingv2.ValueMetricType && t.Type != autoscalingv2.AverageValueMetricType {
		errs = append(errs, field.Invalid(p.Child("type"), t.Type, "must be either Utilization, Value, or AverageValue"))
	}
	if t.Value != nil && t.Value.Sign() != 1 {
		errs = append(errs, field.Invalid(p.Child("value"), t.Value, "must be positive"))
	}
	if t.AverageValue != nil && t.AverageValue.Sign() != 1 {
		errs = append(errs, field.Invalid(p.Child("averageValue"), t.AverageValue, "must be positive"))
	}
	if t.AverageUtilization != nil && *t.AverageUtilization < 1 {
		errs = append(errs, field.Invalid(p.Child("averageUtilization"), t.AverageUtilization, "must be greater than 0"))
	}
	return errs
}

// metricIdentifier is validateMetricIdentifier.
func metricIdentifier(id autoscalingv2.MetricIdentifier, p *field.Path) field.ErrorList {
	if id.Name == "" {
		return field.ErrorList{field.Required(p.Child("name"), "must specify a metric name")}
	}
	var errs field.ErrorList
	for _, msg := range content.IsPathSegmentName(id.Name) {
		errs = append(errs, field.Invalid(p.Child("name"), id.Name, msg))
	}
	return errs
}
