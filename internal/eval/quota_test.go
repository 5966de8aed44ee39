package eval

import (
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval/resources"

	"github.com/limitcheck/limitcheck/internal/eval/features"
	"github.com/limitcheck/limitcheck/internal/eval/quota"
	"github.com/limitcheck/limitcheck/internal/eval/status"

	corev1 "k8s.io/api/core/v1"
)

func TestQuotaDenials(t *testing.T) {
	compute := `
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute}
spec:
  hard: {limits.memory: 1Gi, requests.cpu: "1", requests.nvidia.com/gpu: "1"}`
	tests := []struct {
		name    string
		cfg     *quota.Configuration
		docs    []string
		code    int32
		message string
	}{
		{
			name: "RQ-16 must specify, sorted keys and container names",
			docs: []string{`
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute}
spec: {hard: {requests.cpu: "10", limits.memory: 10Gi}}`, `
apiVersion: v1
kind: Pod
metadata: {name: p-missing}
spec:
  initContainers:
  - {name: i1, image: busybox, resources: {requests: {cpu: 100m}}}
  containers:
  - {name: b, image: nginx}
  - {name: a, image: nginx, resources: {requests: {cpu: 100m}}}`},
			code:    403,
			message: `pods "p-missing" is forbidden: failed quota: compute: must specify limits.memory for: a,b,i1; requests.cpu for: b`,
		},
		{
			name: "RQ-26 RQ-27 exceeded quota after an earlier pod used part of it",
			docs: []string{compute, `
apiVersion: v1
kind: Pod
metadata: {name: p-small}
spec:
  containers:
  - {name: a, image: nginx, resources: {requests: {cpu: 500m}, limits: {memory: 512Mi}}}`, `
apiVersion: v1
kind: Pod
metadata: {name: p-big}
spec:
  containers:
  - name: a
    image: nginx
    resources:
      requests: {cpu: 600m}
      limits: {memory: 600Mi, nvidia.com/gpu: "2"}`},
			code:    403,
			message: `pods "p-big" is forbidden: exceeded quota: compute, requested: limits.memory=600Mi,requests.cpu=600m,requests.nvidia.com/gpu=2, used: limits.memory=512Mi,requests.cpu=500m,requests.nvidia.com/gpu=0, limited: limits.memory=1Gi,requests.cpu=1,requests.nvidia.com/gpu=1`,
		},
		{
			name: "RQ-28 node ports counted per port",
			docs: []string{`
apiVersion: v1
kind: ResourceQuota
metadata: {name: objs}
spec: {hard: {services.nodeports: "2"}}`, `
apiVersion: v1
kind: Service
metadata: {name: first}
spec: {type: NodePort, ports: [{port: 80}]}`, `
apiVersion: v1
kind: Service
metadata: {name: np}
spec: {type: NodePort, ports: [{port: 80, name: a}, {port: 81, name: b}]}`},
			code:    403,
			message: `services "np" is forbidden: exceeded quota: objs, requested: services.nodeports=2, used: services.nodeports=1, limited: services.nodeports=2`,
		},
		{
			name: "RQ-21 limitedResources matchScopes without a covering quota: plain 500",
			cfg: &quota.Configuration{LimitedResources: []quota.LimitedResource{{Resource: "pods", MatchScopes: []corev1.ScopedResourceSelectorRequirement{
				{ScopeName: corev1.ResourceQuotaScopePriorityClass, Operator: corev1.ScopeSelectorOpIn, Values: []string{"cluster-services"}}}}}},
			docs: []string{`
apiVersion: v1
kind: Pod
metadata: {name: critical}
spec:
  priorityClassName: cluster-services
  containers: [{name: a, image: nginx}]`},
			code:    500,
			message: `insufficient quota to match these scopes: [{PriorityClass In [cluster-services]}]`,
		},
		{
			name: "RQ-20 limitedResources matchContains",
			cfg:  &quota.Configuration{LimitedResources: []quota.LimitedResource{{Resource: "persistentvolumeclaims", MatchContains: []string{".storageclass.storage.k8s.io/requests.storage"}}}},
			docs: []string{`
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {accessModes: [ReadWriteOnce], storageClassName: gold, resources: {requests: {storage: 1Gi}}}`},
			code:    403,
			message: `persistentvolumeclaims "data" is forbidden: insufficient quota to consume: gold.storageclass.storage.k8s.io/requests.storage`,
		},
		{
			name: "RQ-32 ResourceClaim device counts: ExactCount defaults to 1, All counts 32",
			docs: []string{`
apiVersion: v1
kind: ResourceQuota
metadata: {name: dra}
spec: {hard: {gpu.deviceclass.resource.k8s.io/devices: "4"}}`, `
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: gpus}
spec:
  devices:
    requests:
    - {name: one, exactly: {deviceClassName: gpu}}
    - {name: all, exactly: {deviceClassName: gpu, allocationMode: All}}`},
			code:    403,
			message: `resourceclaims.resource.k8s.io "gpus" is forbidden: exceeded quota: dra, requested: gpu.deviceclass.resource.k8s.io/devices=33, used: gpu.deviceclass.resource.k8s.io/devices=0, limited: gpu.deviceclass.resource.k8s.io/devices=4`,
		},
		{
			name: "RQ-31 object count with legacy alias; the new quota counts itself (RQ-08)",
			docs: []string{`
apiVersion: v1
kind: ResourceQuota
metadata: {name: counts}
spec: {hard: {resourcequotas: "1", configmaps: "1"}}`, `
apiVersion: v1
kind: ConfigMap
metadata: {name: one}`, `
apiVersion: v1
kind: ConfigMap
metadata: {name: two}`},
			code:    403,
			message: `configmaps "two" is forbidden: exceeded quota: counts, requested: configmaps=1, used: configmaps=1, limited: configmaps=1`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "ns1", QuotaConfig: tc.cfg})
			var res Result
			for _, d := range tc.docs {
				res = e.Admit(decode(t, d))
			}
			if res.Allowed || res.Denial == nil {
				t.Fatalf("admitted, want %q", tc.message)
			}
			if d := res.Denial; d.Code != tc.code || d.Stage != status.StageQuota || d.Message != tc.message {
				t.Errorf("got  %d %s %s\nwant %d quota %s", d.Code, d.Stage, d.Message, tc.code, tc.message)
			}
		})
	}
}

func TestQuotaUsageAccumulates(t *testing.T) {
	e := New(Options{DefaultNamespace: "ns1"})
	for _, d := range []string{`
apiVersion: v1
kind: Pod
metadata: {name: before}
spec: {containers: [{name: a, image: nginx, resources: {requests: {cpu: 250m, memory: 1G}}}]}`, `
apiVersion: v1
kind: ResourceQuota
metadata: {name: q}
spec: {hard: {requests.cpu: "2", requests.memory: 4Gi, pods: "10", count/deployments.apps: "1", example.com/foo: "1"}}`, `
apiVersion: v1
kind: Pod
metadata: {name: after}
spec: {containers: [{name: a, image: nginx, resources: {requests: {cpu: 500m, memory: 512Mi}}}]}`} {
		if res := e.Admit(decode(t, d)); !res.Allowed {
			t.Fatalf("denied: %s", res.Denial.Message)
		}
	}
	qs := e.Quotas()
	if len(qs) != 1 {
		t.Fatalf("quotas = %d", len(qs))
	}
	// The controller counted "before"; admission added "after". A hard resource
	// no evaluator tracks (example.com/foo) gets no used entry (RQ-08).
	if got, want := listString(qs[0].Quota.Status.Used), "count/deployments.apps=0,pods=2,requests.cpu=750m,requests.memory=1536870912"; got != want {
		t.Errorf("used = %s, want %s", got, want)
	}
}

// TestQuotaStatusStored: QS-02. The quota's status is re-read from its stored
// form after every charge: 500Mi + 100M is held in memory as 624288000 in
// binary format, stored as that string, read back as decimal, and printed from
// then on as 624288k.
func TestQuotaStatusStored(t *testing.T) {
	pod := func(name, mem string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + "}\nspec: {containers: [{name: c, image: i, resources: {limits: {memory: " + mem + "}}}]}"
	}
	got := run(t, features.Default(),
		"apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: mem}\nspec: {hard: {limits.memory: 700M}}",
		pod("a", "500Mi"), pod("b", "100M"), pod("c", "100M"))
	want := `pods "c" is forbidden: exceeded quota: mem, requested: limits.memory=100M, used: limits.memory=624288k, limited: limits.memory=700M`
	if got.Denial == nil || got.Denial.Message != want {
		t.Fatalf("got %+v\nwant %s", got.Denial, want)
	}
}

// listString is `key=value` pairs, keys sorted, joined by "," (the quota
// messages' form).
func listString(l corev1.ResourceList) string {
	parts := make([]string, 0, len(l))
	for _, k := range resources.SortedNames(l) {
		q := l[k]
		parts = append(parts, string(k)+"="+q.String())
	}
	return strings.Join(parts, ",")
}
