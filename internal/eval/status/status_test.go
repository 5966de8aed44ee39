package status

import (
	"errors"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestPartsInMessageOrder: a denial's parts are its distinct reasons in the
// order its message lists them (upstream's order, repeats dropped as the
// aggregate drops them).
func TestPartsInMessageOrder(t *testing.T) {
	p := field.NewPath("spec")
	inv := Invalid(schema.GroupKind{Kind: "Pod"}, "web", field.ErrorList{
		field.Invalid(p.Child("z"), "1", "zeta"),
		field.Invalid(p.Child("a"), "2", "alpha"),
		field.Invalid(p.Child("z"), "1", "zeta"),
	})
	if want := `Pod "web" is invalid: [spec.z: Invalid value: "1": zeta, spec.a: Invalid value: "2": alpha]`; inv.Message != want {
		t.Errorf("message %q, want %q", inv.Message, want)
	}
	if want := []string{`spec.z: Invalid value: "1": zeta`, `spec.a: Invalid value: "2": alpha`}; !slices.Equal(inv.Parts, want) {
		t.Errorf("parts %q, want %q", inv.Parts, want)
	}

	fb := Forbidden(StageLimitRanger, corev1.Resource("pods"), "web", []error{
		errors.New("maximum memory usage per Container is 1Gi, but limit is 2Gi"),
		errors.New("maximum cpu usage per Container is 1, but limit is 2"),
	})
	if want := `pods "web" is forbidden: [maximum memory usage per Container is 1Gi, but limit is 2Gi, maximum cpu usage per Container is 1, but limit is 2]`; fb.Message != want {
		t.Errorf("message %q, want %q", fb.Message, want)
	}
	if want := []string{"maximum memory usage per Container is 1Gi, but limit is 2Gi", "maximum cpu usage per Container is 1, but limit is 2"}; !slices.Equal(fb.Parts, want) {
		t.Errorf("parts %q, want %q", fb.Parts, want)
	}
}
