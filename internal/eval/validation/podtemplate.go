package validation

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/features"
)

// PodOptions are what Pod and Pod template validation depend on besides the
// object (upstream's PodValidationOptions, as the REST strategies derive them on
// create, plus the feature gates).
type PodOptions struct {
	Gates features.Gates
	// DisallowPrivileged is kube-apiserver's --allow-privileged=false (its
	// own default): a privileged container is refused. Clusters set it true
	// (kubeadm, kind, minikube, the managed services), hence the zero value.
	DisallowPrivileged bool
}

// PodTemplate validates a workload's Pod template at path where upstream calls
// ValidatePodTemplateSpec (VAL-40..VAL-47): PodTemplateSpec with the options'
// gates.
func PodTemplate(t *corev1.PodTemplateSpec, path *field.Path, opts PodOptions) field.ErrorList {
	return PodTemplateSpec(t, path, opts)
}

// PodTemplateObject is a v1 PodTemplate's create validation (VAL-105): its
// metadata as a Pod's, then its template at template.
func PodTemplateObject(t *corev1.PodTemplate, opts PodOptions) field.ErrorList {
	errs := ObjectMeta(&t.ObjectMeta, MetaRulesFor(schema.GroupKind{Kind: "PodTemplate"}), field.NewPath("metadata"))
	return append(errs, PodTemplateSpec(&t.Template, field.NewPath("template"), opts)...)
}
