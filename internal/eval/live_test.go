package eval

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/limitcheck/limitcheck/internal/eval/status"
)

const liveQuota = `
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: shop}
spec: {hard: {requests.cpu: "4", pods: "10"}}
status:
  hard: {requests.cpu: "4", pods: "10"}
  used: {requests.cpu: 3700m, pods: "7"}`

const cpuPod = `
apiVersion: v1
kind: Pod
metadata: {name: worker, namespace: shop}
spec: {containers: [{name: c, image: i, resources: {requests: {cpu: 400m}}}]}`

// TestAdmitLive: a live quota keeps the usage the cluster reports under
// --quota-usage=computed, and the input's Pods are charged on top of it.
func TestAdmitLive(t *testing.T) {
	e := New(Options{})
	r := e.AdmitLive(decode(t, liveQuota))
	if !r.Allowed || len(r.Warnings) != 0 {
		t.Fatalf("live quota: %+v, warnings %q", r.Denial, r.Warnings)
	}
	r = e.Admit(decode(t, cpuPod))
	want := `pods "worker" is forbidden: exceeded quota: compute, requested: requests.cpu=400m, used: requests.cpu=3700m, limited: requests.cpu=4`
	if r.Denial == nil || r.Denial.Message != want {
		t.Fatalf("worker: %+v\nwant %s", r.Denial, want)
	}
	// The same quota from the input is computed from the input's objects:
	// the Pod fits.
	e = New(Options{})
	if r := e.Admit(decode(t, liveQuota)); !r.Allowed {
		t.Fatalf("input quota: %+v", r.Denial)
	}
	if r := e.Admit(decode(t, cpuPod)); !r.Allowed {
		t.Fatalf("worker against the input's quota: %+v", r.Denial)
	}
}

// TestAddExistingNames: an existing name is storage's 409 for the input's
// object of that resource, not for another resource or namespace, and
// nothing is charged for the existing objects themselves.
func TestAddExistingNames(t *testing.T) {
	e := New(Options{})
	e.AdmitLive(decode(t, liveQuota))
	e.AddExistingNames("shop", "v1", "Pod", []string{"worker"})
	e.AddExistingNames("shop", "apps/v1", "Deployment", []string{"web"})
	if used := e.Quotas()[0].Quota.Status.Used[corev1.ResourcePods]; used.String() != "7" {
		t.Errorf("pods used = %s after adding names, want 7", used.String())
	}
	r := e.Admit(decode(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: worker, namespace: shop}\nspec: {containers: [{name: c, image: i, resources: {requests: {cpu: 100m}}}]}"))
	if r.Denial == nil || r.Denial.Code != 409 || r.Denial.Stage != status.StageStorage || r.Denial.Message != `pods "worker" already exists` {
		t.Fatalf("existing Pod: %+v", r.Denial)
	}
	r = e.Admit(decode(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec: {replicas: 0, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}}"))
	if r.Denial == nil || r.Denial.Message != `deployments.apps "web" already exists` {
		t.Fatalf("existing Deployment: %+v", r.Denial)
	}
	for _, doc := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: worker, namespace: shop}",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: worker, namespace: other}\nspec: {containers: [{name: c, image: i}]}",
	} {
		if r := e.Admit(decode(t, doc)); !r.Allowed {
			t.Errorf("%s: %+v", doc, r.Denial)
		}
	}
}

// TestSeedQuotaUsage: an input quota replacing a live one starts the
// resources the live status.used has from it; the others are computed.
func TestSeedQuotaUsage(t *testing.T) {
	e := New(Options{})
	e.SeedQuotaUsage("shop", "compute", corev1.ResourceList{corev1.ResourceRequestsCPU: resource.MustParse("3700m"), "requests.memory": resource.MustParse("1Gi")})
	r := e.Admit(decode(t, "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: compute, namespace: shop}\nspec: {hard: {requests.cpu: '6', pods: '10'}}"))
	if !r.Allowed {
		t.Fatalf("quota: %+v", r.Denial)
	}
	used := e.Quotas()[0].Quota.Status.Used
	if got := used.Name(corev1.ResourceRequestsCPU, resource.DecimalSI); got.String() != "3700m" {
		t.Errorf("requests.cpu used = %s, want 3700m (seeded)", got.String())
	}
	if got := used[corev1.ResourcePods]; got.String() != "0" {
		t.Errorf("pods used = %s, want 0 (computed)", got.String())
	}
	if _, ok := used["requests.memory"]; ok {
		t.Errorf("requests.memory tracked, but the quota has no such hard limit")
	}
	if r := e.Admit(decode(t, cpuPod)); !r.Allowed {
		t.Fatalf("worker: %+v", r.Denial)
	}
	if got := e.Quotas()[0].Quota.Status.Used.Name(corev1.ResourceRequestsCPU, resource.DecimalSI); got.String() != "4100m" {
		t.Errorf("requests.cpu used = %s after worker, want 4100m", got.String())
	}
}
