package validation

import (
	"sort"
	"strings"

	"github.com/limitcheck/limitcheck/internal/eval/features"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// PodOptions are what Pod and Pod template validation depend on besides the
// object (upstream's PodValidationOptions, as the REST strategies derive them on
// create, plus the feature gates).
type PodOptions struct {
	Gates features.Gates
}

// PodTemplate validates a workload's Pod template at path (core
// ValidatePodTemplateSpec): the template's labels and annotations, its Pod
// spec, ephemeral containers. The workload validations call it where upstream
// calls ValidatePodTemplateSpec (VAL-40..VAL-47).
//
// Of the Pod spec only the resources are validated for now (PodSpecResources);
// the Pod spec validation replaces this body.
func PodTemplate(t *corev1.PodTemplateSpec, path *field.Path, opts PodOptions) field.ErrorList {
	errs := validateLabels(t.Labels, path.Child("labels"))
	errs = append(errs, validateAnnotations(t.Annotations, path.Child("annotations"))...)
	errs = append(errs, PodSpecResources(&t.Spec, path.Child("spec"), opts.Gates)...)
	if len(t.Spec.EphemeralContainers) > 0 {
		errs = append(errs, field.Forbidden(path.Child("spec", "ephemeralContainers"), "ephemeral containers not allowed in pod template"))
	}
	return errs
}

// validateLabels is metav1 ValidateLabels with the keys in sorted order
// (upstream visits them in map order).
func validateLabels(labels map[string]string, p *field.Path) field.ErrorList {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var errs field.ErrorList
	for _, k := range keys {
		errs = append(errs, metav1validation.ValidateLabels(map[string]string{k: labels[k]}, p)...)
	}
	return errs
}

// validateAnnotations is ValidateAnnotations with the keys in sorted order.
func validateAnnotations(annotations map[string]string, p *field.Path) field.ErrorList {
	keys := make([]string, 0, len(annotations))
	for k := range annotations {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var errs field.ErrorList
	for _, k := range keys {
		for _, msg := range validation.IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, field.Invalid(p, k, msg))
		}
	}
	if apivalidation.ValidateAnnotationsSize(annotations) != nil {
		errs = append(errs, field.TooLong(p, "", apivalidation.TotalAnnotationSizeLimitB))
	}
	return errs
}
