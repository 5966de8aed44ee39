package eval

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestResourceFor(t *testing.T) {
	for _, tc := range []struct {
		gvk  schema.GroupVersionKind
		want string
	}{
		{schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, "deployments.apps"},
		{schema.GroupVersionKind{Version: "v1", Kind: "Endpoints"}, "endpoints"},
		{schema.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicy"}, "networkpolicies.networking.k8s.io"},
		{schema.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"}, "ingresses.networking.k8s.io"},
		{schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, "configmaps"},
	} {
		if got := resourceFor(tc.gvk).String(); got != tc.want {
			t.Errorf("resourceFor(%v) = %s, want %s", tc.gvk, got, tc.want)
		}
	}
}
