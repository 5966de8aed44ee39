package eval

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/defaults"
)

// cpuByteUnitWarnings are limitcheck's own warnings (VAL-104) for a cpu
// request or limit of a Pod or a workload's template written with a byte
// unit: "500Mi" for 500m is 524288000 CPUs, which kube-apiserver takes
// without a word and no node can run.
func cpuByteUnitWarnings(obj runtime.Object) []string {
	var spec *corev1.PodSpec
	var specPath *field.Path
	switch o := obj.(type) {
	case *corev1.Pod:
		spec, specPath = &o.Spec, field.NewPath("spec")
	default:
		t, path := defaults.PodTemplateOf(obj)
		if t == nil {
			return nil
		}
		spec, specPath = &t.Spec, field.NewPath(path).Child("spec")
	}
	var w []string
	check := func(c *corev1.Container, p func() *field.Path) {
		for _, l := range []struct {
			name string
			list corev1.ResourceList
		}{{"requests", c.Resources.Requests}, {"limits", c.Resources.Limits}} {
			if q, ok := l.list[corev1.ResourceCPU]; ok && q.Format == resource.BinarySI && q.Sign() > 0 {
				w = append(w, fmt.Sprintf("%s: %s is %s CPUs: Ki, Mi and Gi are units of bytes; millicores take m (250m is a quarter of a CPU)",
					p().Child("resources", l.name).Key(string(corev1.ResourceCPU)), q.String(), q.AsDec().String()))
			}
		}
	}
	for i := range spec.InitContainers {
		check(&spec.InitContainers[i], func() *field.Path { return specPath.Child("initContainers").Index(i) })
	}
	for i := range spec.Containers {
		check(&spec.Containers[i], func() *field.Path { return specPath.Child("containers").Index(i) })
	}
	return w
}
