package eval

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
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
		{schema.GroupVersionKind{Group: "storage.k8s.io", Version: "v1", Kind: "CSIStorageCapacity"}, "csistoragecapacities.storage.k8s.io"},
		// Not served: the served version's plural, else kubectl's guess.
		{schema.GroupVersionKind{Group: "apps", Version: "v1beta1", Kind: "Deployment"}, "deployments.apps"},
		{schema.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}, "scales.autoscaling"},
		// Custom resources without a CRD: kubectl's guess.
		{schema.GroupVersionKind{Group: "zoo.example.org", Version: "v1", Kind: "Octopus"}, "octopuses.zoo.example.org"},
	} {
		if got := resourceFor(tc.gvk).String(); got != tc.want {
			t.Errorf("resourceFor(%v) = %s, want %s", tc.gvk, got, tc.want)
		}
	}
}

func TestClusterScoped(t *testing.T) {
	for _, tc := range []struct {
		apiVersion, kind string
		want             bool
	}{
		{"v1", "Namespace", true},
		{"v1", "Pod", false},
		{"rbac.authorization.k8s.io/v1", "ClusterRole", true},
		{"rbac.authorization.k8s.io/v1beta1", "ClusterRole", true},  // scope of the served version
		{"certificates.k8s.io/v1beta1", "ClusterTrustBundle", true}, // off by default, cluster-scoped
		{"storage.k8s.io/v1", "CSIStorageCapacity", false},
		{"authentication.k8s.io/v1", "TokenReview", true},
		{"example.com/v1", "Widget", false},
	} {
		if got := ClusterScoped(tc.apiVersion, tc.kind); got != tc.want {
			t.Errorf("ClusterScoped(%s, %s) = %v, want %v", tc.apiVersion, tc.kind, got, tc.want)
		}
	}
}

// With Options.APIs, custom resources get their CRD's scope and plural: a
// cluster-scoped one is skipped, a namespaced one is charged to
// count/<spec.names.plural>.<group>.
func TestOptionsAPIs(t *testing.T) {
	cat := apis.New()
	for _, crd := range []string{`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: octopi.zoo.example.org}
spec:
  group: zoo.example.org
  names: {kind: Octopus, plural: octopi}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true}]`, `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: tanks.zoo.example.org}
spec:
  group: zoo.example.org
  names: {kind: Tank, plural: tanks}
  scope: Cluster
  versions: [{name: v1, served: true, storage: true}]`} {
		if err := cat.AddCRD([]byte(crd)); err != nil {
			t.Fatal(err)
		}
	}
	quota := `
apiVersion: v1
kind: ResourceQuota
metadata: {name: q}
spec: {hard: {count/octopi.zoo.example.org: "1"}}`
	octopus := func(name string) string {
		return "apiVersion: zoo.example.org/v1\nkind: Octopus\nmetadata: {name: " + name + "}\n"
	}
	tank := "apiVersion: zoo.example.org/v1\nkind: Tank\nmetadata: {name: t}\n"

	e := New(Options{DefaultNamespace: "ns1", APIs: cat})
	for _, d := range []string{quota, octopus("a")} {
		if res := e.Admit(decode(t, d)); !res.Allowed {
			t.Fatalf("denied: %+v", res.Denial)
		}
	}
	res := e.Admit(decode(t, octopus("b")))
	if res.Allowed || res.Denial == nil {
		t.Fatalf("second Octopus admitted: %+v", res)
	}
	if want := `octopi.zoo.example.org "b" is forbidden: exceeded quota: q, requested: count/octopi.zoo.example.org=1, used: count/octopi.zoo.example.org=1, limited: count/octopi.zoo.example.org=1`; res.Denial.Message != want {
		t.Errorf("message:\n got %s\nwant %s", res.Denial.Message, want)
	}
	if res := e.Admit(decode(t, tank)); !res.Skipped || res.Namespace != "" {
		t.Errorf("cluster-scoped Tank: %+v", res)
	}

	// Without the catalogue the same objects are namespaced, under kubectl's
	// plural guess ("octopuses"), so the quota on octopi does not see them.
	e = New(Options{DefaultNamespace: "ns1"})
	for _, d := range []string{quota, octopus("a"), octopus("b"), tank} {
		if res := e.Admit(decode(t, d)); !res.Allowed || res.Skipped {
			t.Errorf("built-ins only: %+v", res)
		}
	}
}
