package render

import (
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/check"
)

func TestKindPlural(t *testing.T) {
	for kind, want := range map[string]string{
		"ConfigMap": "ConfigMaps", "Ingress": "Ingresses", "NetworkPolicy": "NetworkPolicies",
		"PriorityClass": "PriorityClasses", "Gateway": "Gateways", "Mesh": "Meshes", "Box": "Boxes",
		"Y": "Ys",
	} {
		if got := kindPlural(kind); got != want {
			t.Errorf("kindPlural(%q) = %q, want %q", kind, got, want)
		}
	}
}

// TestSummaryWording: every count in the summary line agrees with its noun, and
// the verb of "do not fit" with the count before it.
func TestSummaryWording(t *testing.T) {
	for _, tt := range []struct {
		s    check.Summary
		want string
	}{
		{check.Summary{}, "0 objects: 0 admitted, 0 denied, 0 skipped"},
		{check.Summary{Objects: 1, Admitted: 1}, "1 object: 1 admitted, 0 denied, 0 skipped"},
		{check.Summary{Objects: 3, Admitted: 1, Denied: 1, Errors: 1}, "3 objects: 1 admitted, 1 denied, 0 skipped, 1 error"},
		{check.Summary{Objects: 4, Errors: 2, Internal: 1}, "4 objects: 0 admitted, 0 denied, 0 skipped, 2 errors, 1 internal error"},
		{check.Summary{Objects: 2, Internal: 2}, "2 objects: 0 admitted, 0 denied, 0 skipped, 2 internal errors"},
		{check.Summary{Objects: 1, Admitted: 1, Workloads: 1, Replicas: 1}, "1 object: 1 admitted, 0 denied, 0 skipped; 0 of 1 replica does not fit"},
		{check.Summary{Objects: 1, Denied: 1, Workloads: 1, Replicas: 1, Unfit: 1}, "1 object: 0 admitted, 1 denied, 0 skipped; 1 of 1 replica does not fit"},
		{check.Summary{Objects: 1, Denied: 1, Workloads: 1, Replicas: 5, Unfit: 1}, "1 object: 0 admitted, 1 denied, 0 skipped; 1 of 5 replicas does not fit"},
		{check.Summary{Objects: 1, Denied: 1, Workloads: 1, Replicas: 5, Unfit: 2}, "1 object: 0 admitted, 1 denied, 0 skipped; 2 of 5 replicas do not fit"},
		{check.Summary{Objects: 1, Admitted: 1, Workloads: 1, Replicas: 2}, "1 object: 1 admitted, 0 denied, 0 skipped; 0 of 2 replicas do not fit"},
		{check.Summary{Objects: 1, Admitted: 1, Workloads: 1}, "1 object: 1 admitted, 0 denied, 0 skipped; 0 of 0 replicas do not fit"},
	} {
		var b strings.Builder
		writeSummary(&b, newPalette(false), tt.s)
		if got := b.String(); got != tt.want+"\n" {
			t.Errorf("%+v:\n got %q\nwant %q", tt.s, got, tt.want+"\n")
		}
	}
}
