package apis

import (
	"fmt"
	"testing"
)

func TestTyped(t *testing.T) {
	for _, tc := range []struct {
		apiVersion, kind string
		want             string // %T, "<nil>" for none
	}{
		{"networking.k8s.io/v1", "Ingress", "*v1.Ingress"},
		{"policy/v1", "PodDisruptionBudget", "*v1.PodDisruptionBudget"},
		{"rbac.authorization.k8s.io/v1", "ClusterRole", "*v1.ClusterRole"},
		{"v1", "Endpoints", "*v1.Endpoints"},
		{"extensions/v1beta1", "Ingress", "<nil>"},                       // not served
		{"certificates.k8s.io/v1beta1", "ClusterTrustBundle", "<nil>"},   // off by default
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition", "<nil>"}, // no Go type here
		{"example.com/v1", "Widget", "<nil>"},
		{"v1", "NoSuchKind", "<nil>"},
		{"a/b/c", "Ingress", "<nil>"},
	} {
		if got := fmt.Sprintf("%T", Typed(tc.apiVersion, tc.kind)); got != tc.want {
			t.Errorf("Typed(%q, %q) = %s, want %s", tc.apiVersion, tc.kind, got, tc.want)
		}
	}
}
