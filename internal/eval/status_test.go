package eval

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval/features"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestPartsInMessageOrder: a denial's parts are its distinct reasons in the
// order its message lists them (upstream's order, repeats dropped as the
// aggregate drops them).
func TestPartsInMessageOrder(t *testing.T) {
	p := field.NewPath("spec")
	inv := invalid(schema.GroupKind{Kind: "Pod"}, "web", field.ErrorList{
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

	fb := forbidden(StageLimitRanger, corev1.Resource("pods"), "web", []error{
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

// TestDenialPartsOrder runs the multi-part denials of TestDenials' kind through
// the engine: the parts appear in the message, in order.
func TestDenialPartsOrder(t *testing.T) {
	res := run(t, features.Default(), `
apiVersion: v1
kind: LimitRange
metadata: {name: lr-ratio}
spec:
  limits:
  - type: Container
    min: {cpu: 100m}
    max: {cpu: 200m}
    default: {cpu: 300m}
    defaultRequest: {cpu: 50m}
    maxLimitRequestRatio: {cpu: "3"}`)
	if res.Denial == nil || len(res.Denial.Parts) != 3 {
		t.Fatalf("want a denial with 3 parts, got %+v", res.Denial)
	}
	if !res.Denial.PartsInOrder() {
		t.Errorf("parts %q not in the order of %q", res.Denial.Parts, res.Denial.Message)
	}
	if !strings.HasPrefix(res.Denial.Parts[0], "spec.limits[0].defaultRequest[cpu]") {
		t.Errorf("first part %q, want the message's first (defaultRequest)", res.Denial.Parts[0])
	}
}
