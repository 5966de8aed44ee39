package eval

import (
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval/limitranger"
	"github.com/limitcheck/limitcheck/internal/eval/status"

	"github.com/limitcheck/limitcheck/internal/eval/features"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// decode turns a YAML document into the typed object the engine expects.
func decode(t testing.TB, doc string) runtime.Object {
	t.Helper()
	var tm struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := yaml.Unmarshal([]byte(doc), &tm); err != nil {
		t.Fatal(err)
	}
	obj := NewObject(tm.APIVersion, tm.Kind)
	if obj == nil {
		obj = &metav1.PartialObjectMetadata{}
	}
	if err := yaml.UnmarshalStrict([]byte(doc), obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

// run admits every document in order and returns the last result.
func run(t *testing.T, gates features.Gates, docs ...string) Result {
	t.Helper()
	e := New(Options{DefaultNamespace: "ns1", Gates: gates})
	var last Result
	for _, d := range docs {
		last = e.Admit(decode(t, d))
	}
	return last
}

func TestDenials(t *testing.T) {
	tests := []struct {
		name    string
		docs    []string
		code    int32
		stage   status.Stage
		message string
	}{
		{
			name: "NS-02 a namespace no cluster can have: 404 before validation",
			docs: []string{`
apiVersion: apps/v1
kind: Deployment
metadata: {name: Bad_Name, namespace: Team_A}
spec: {replicas: -1, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}}`},
			code:    404,
			stage:   status.StageNamespaceLifecycle,
			message: `namespaces "Team_A" not found`,
		},
		{
			name: "RQ-17 a QoS class the body gives is kept, whatever LimitRanger's defaults make of the Pod",
			docs: []string{`
apiVersion: v1
kind: LimitRange
metadata: {name: defaults}
spec: {limits: [{type: Container, default: {cpu: 500m, memory: 512Mi}}]}`, `
apiVersion: v1
kind: ResourceQuota
metadata: {name: best-effort}
spec: {hard: {pods: "1"}, scopes: [BestEffort]}`, `
apiVersion: v1
kind: Pod
metadata: {name: copied-1}
spec: {containers: [{name: c, image: i}]}
status: {phase: Running, qosClass: BestEffort}`, `
apiVersion: v1
kind: Pod
metadata: {name: computed}
spec: {containers: [{name: c, image: i}]}`, `
apiVersion: v1
kind: Pod
metadata: {name: copied-2}
spec: {containers: [{name: c, image: i}]}
status: {qosClass: BestEffort}`},
			code:    403,
			stage:   status.StageQuota,
			message: `pods "copied-2" is forbidden: exceeded quota: best-effort, requested: pods=1, used: pods=1, limited: pods=1`,
		},
		{
			name: "NS-02 a namespace name over 63 characters",
			docs: []string{`
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa}`},
			code:    404,
			stage:   status.StageNamespaceLifecycle,
			message: `namespaces "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" not found`,
		},
		{
			name: "LR-06 LR-07 LimitRange cross checks, value-field quirks",
			docs: []string{`
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
    maxLimitRequestRatio: {cpu: "3"}`},
			code:    422,
			stage:   status.StageValidation,
			message: `LimitRange "lr-ratio" is invalid: [spec.limits[0].defaultRequest[cpu]: Invalid value: "50m": min value 100m is greater than default request value 50m, spec.limits[0].default[cpu]: Invalid value: "200m": default value 300m is greater than max value 200m, spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000]`,
		},
		{
			name: "LR-02 LR-03 LR-05 type and resource names",
			docs: []string{`
apiVersion: v1
kind: LimitRange
metadata: {name: names}
spec:
  limits:
  - type: Container
    max: {foo: "1"}
  - type: Bogus
  - type: PersistentVolumeClaim`},
			code:  422,
			stage: status.StageValidation,
			message: `LimitRange "names" is invalid: [spec.limits[0].max[foo]: Invalid value: "foo": must be a standard resource type or fully qualified, ` +
				`spec.limits[0].max[foo]: Invalid value: "foo": must be a standard resource for containers, ` +
				`spec.limits[0].default[foo]: Invalid value: "foo": must be a standard resource type or fully qualified, ` +
				`spec.limits[0].default[foo]: Invalid value: "foo": must be a standard resource for containers, ` +
				`spec.limits[0].defaultRequest[foo]: Invalid value: "foo": must be a standard resource type or fully qualified, ` +
				`spec.limits[0].defaultRequest[foo]: Invalid value: "foo": must be a standard resource for containers, ` +
				`spec.limits[1].type: Invalid value: "Bogus": must be a standard limit type or fully qualified, ` +
				`spec.limits[2].limits: Required value: either minimum or maximum storage value is required, but neither was provided]`,
		},
		{
			name: "LR-12 LR-13 LR-14 Pod item: two spaces before No, aggregate in spec order",
			docs: []string{`
apiVersion: v1
kind: LimitRange
metadata: {name: pod-limits}
spec:
  limits:
  - type: Pod
    min: {cpu: 100m, memory: 64Mi}
    max: {memory: 1Gi}
    maxLimitRequestRatio: {memory: "2"}`, `
apiVersion: v1
kind: Pod
metadata: {name: p-none}
spec:
  containers: [{name: app, image: nginx}]`},
			code:    403,
			stage:   status.StageLimitRanger,
			message: `pods "p-none" is forbidden: [minimum cpu usage per Pod is 100m.  No request is specified, minimum memory usage per Pod is 64Mi.  No request is specified, maximum memory usage per Pod is 1Gi.  No limit is specified, memory max limit to request ratio per Pod is 2, but no request is specified or request is 0]`,
		},
		{
			name: "PL-05 a default limit below an explicit request makes the pod invalid",
			docs: []string{`
apiVersion: v1
kind: LimitRange
metadata: {name: defaults}
spec:
  limits:
  - type: Container
    default: {cpu: 500m}`, `
apiVersion: v1
kind: Pod
metadata: {name: p-req-over}
spec:
  containers:
  - name: app
    image: nginx
    resources: {requests: {cpu: "1"}}`},
			code:    422,
			stage:   status.StageValidation,
			message: `Pod "p-req-over" is invalid: spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit of 500m`,
		},
		{
			name: "LR-13 Container max against limit, init containers included (LR-16)",
			docs: []string{`
apiVersion: v1
kind: LimitRange
metadata: {name: max}
spec:
  limits:
  - type: Container
    max: {cpu: "1"}`, `
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  initContainers:
  - {name: init, image: busybox, resources: {limits: {cpu: "2"}}}
  containers:
  - {name: app, image: nginx}`},
			code:    403,
			stage:   status.StageLimitRanger,
			message: `pods "web" is forbidden: maximum cpu usage per Container is 1, but limit is 2`,
		},
		{
			name: "LR-19 PVC min and max on the storage request",
			docs: []string{`
apiVersion: v1
kind: LimitRange
metadata: {name: storage}
spec:
  limits:
  - type: PersistentVolumeClaim
    min: {storage: 1Gi}
    max: {storage: 10Gi}`, `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 20Gi}}`},
			code:    403,
			stage:   status.StageLimitRanger,
			message: `persistentvolumeclaims "data" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi`,
		},
		{
			name: "LR-21 only the first failing LimitRange is reported",
			docs: []string{`
apiVersion: v1
kind: LimitRange
metadata: {name: b-first}
spec: {limits: [{type: Container, max: {memory: 128Mi}}]}`, `
apiVersion: v1
kind: LimitRange
metadata: {name: a-second}
spec: {limits: [{type: Container, max: {memory: 64Mi}}]}`, `
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: app, image: nginx, resources: {limits: {memory: 256Mi}}}]`},
			code:    403,
			stage:   status.StageLimitRanger,
			message: `pods "web" is forbidden: maximum memory usage per Container is 128Mi, but limit is 256Mi`,
		},
		{
			name: "PL-06 generated names use the placeholder suffix",
			docs: []string{`
apiVersion: v1
kind: LimitRange
metadata: {name: max}
spec: {limits: [{type: Container, max: {cpu: 100m}}]}`, `
apiVersion: v1
kind: Pod
metadata: {generateName: web-}
spec:
  containers: [{name: app, image: nginx, resources: {limits: {cpu: 200m}}}]`},
			code:    403,
			stage:   status.StageLimitRanger,
			message: `pods "web-xxxxx" is forbidden: maximum cpu usage per Container is 100m, but limit is 200m`,
		},
		{
			name: "PL-07 identical messages are de-duplicated, leaving no brackets",
			docs: []string{`
apiVersion: v1
kind: LimitRange
metadata: {name: min}
spec: {limits: [{type: Container, min: {cpu: 100m}}]}`, `
apiVersion: v1
kind: Pod
metadata: {name: twins}
spec:
  containers:
  - {name: a, image: nginx, resources: {requests: {cpu: 10m}}}
  - {name: b, image: nginx, resources: {requests: {cpu: 10m}}}`},
			code:    403,
			stage:   status.StageLimitRanger,
			message: `pods "twins" is forbidden: minimum cpu usage per Container is 100m, but request is 10m`,
		},
		{
			name: "LR-17 sidecar formula: sidecars add to the regular sum",
			docs: []string{`
apiVersion: v1
kind: LimitRange
metadata: {name: pod-max}
spec: {limits: [{type: Pod, max: {cpu: "1"}}]}`, `
apiVersion: v1
kind: Pod
metadata: {name: sidecar}
spec:
  initContainers:
  - {name: proxy, image: envoy, restartPolicy: Always, resources: {limits: {cpu: 600m}}}
  containers:
  - {name: app, image: nginx, resources: {limits: {cpu: 600m}}}`},
			code:    403,
			stage:   status.StageLimitRanger,
			message: `pods "sidecar" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m`,
		},
		{
			name: "LR-15 LR-14 ratio printed with %f",
			docs: []string{`
apiVersion: v1
kind: LimitRange
metadata: {name: ratio}
spec: {limits: [{type: Container, maxLimitRequestRatio: {memory: "2"}}]}`, `
apiVersion: v1
kind: Pod
metadata: {name: bursty}
spec:
  containers: [{name: app, image: nginx, resources: {requests: {memory: 100Mi}, limits: {memory: 1Gi}}}]`},
			code:    403,
			stage:   status.StageLimitRanger,
			message: `pods "bursty" is forbidden: memory max limit to request ratio per Container is 2, but provided ratio is 10.240000`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, features.Default(), tc.docs...)
			if res.Allowed || res.Denial == nil {
				t.Fatalf("admitted, want denial %q", tc.message)
			}
			d := res.Denial
			if d.Code != tc.code || d.Stage != tc.stage || d.Message != tc.message {
				t.Errorf("got  %d %s %s\nwant %d %s %s", d.Code, d.Stage, d.Message, tc.code, tc.stage, tc.message)
			}
		})
	}
}

func TestMutation(t *testing.T) {
	lr := `
apiVersion: v1
kind: LimitRange
metadata: {name: defaults}
spec:
  limits:
  - type: Container
    default: {cpu: 500m, memory: 256Mi}
    defaultRequest: {cpu: 100m, memory: 128Mi}`
	pod := `
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  initContainers:
  - {name: init1, image: busybox}
  - {name: side1, image: envoy, restartPolicy: Always, resources: {requests: {memory: 64Mi}}}
  containers:
  - {name: c1, image: nginx}
  - {name: c2, image: nginx, resources: {requests: {cpu: 50m}, limits: {cpu: 200m}}}`
	res := run(t, features.Default(), lr, pod)
	if !res.Allowed {
		t.Fatalf("denied: %s", res.Denial.Message)
	}
	p := res.Object.(*corev1.Pod)
	// LR-11: per container in order, request part then limit part, keys sorted.
	want := "LimitRanger plugin set: cpu, memory request for container c1; cpu, memory limit for container c1; " +
		"memory request for container c2; memory limit for container c2; " +
		"cpu, memory request for init container init1; cpu, memory limit for init container init1; " +
		"cpu request for init container side1; cpu, memory limit for init container side1"
	if got := p.Annotations[limitranger.Annotation]; got != want {
		t.Errorf("annotation\n got %s\nwant %s", got, want)
	}
	// LR-10: defaults never overwrite.
	c2 := p.Spec.Containers[1].Resources
	if got := c2.Requests.Cpu().String() + " " + c2.Limits.Cpu().String() + " " + c2.Limits.Memory().String(); got != "50m 200m 256Mi" {
		t.Errorf("c2 resources = %s, want 50m 200m 256Mi", got)
	}
}

func TestLimitRangeDefaulting(t *testing.T) {
	// LR-01: default := max; defaultRequest := default, else min.
	res := run(t, features.Default(), `
apiVersion: v1
kind: LimitRange
metadata: {name: d}
spec:
  limits:
  - type: Container
    max: {memory: 1Gi, cpu: "2"}
    min: {memory: 128Mi, ephemeral-storage: 1Gi}`)
	if !res.Allowed {
		t.Fatal(res.Denial.Message)
	}
	item := res.Object.(*corev1.LimitRange).Spec.Limits[0]
	got := []string{item.Default.Memory().String(), item.Default.Cpu().String(), item.DefaultRequest.Memory().String(), item.DefaultRequest.Cpu().String(), item.DefaultRequest.StorageEphemeral().String()}
	if want := "1Gi 2 1Gi 2 1Gi"; strings.Join(got, " ") != want {
		t.Errorf("defaults = %v, want %s", got, want)
	}
}

func TestPodRounding(t *testing.T) {
	// PL-01, PL-02: sub-milli values round up; requests default to limits.
	res := run(t, features.Default(), `
apiVersion: v1
kind: Pod
metadata: {name: tiny}
spec:
  containers: [{name: app, image: nginx, resources: {limits: {cpu: "0.0001"}}}]`)
	c := res.Object.(*corev1.Pod).Spec.Containers[0].Resources
	if c.Requests.Cpu().String() != "1m" || c.Limits.Cpu().String() != "1m" {
		t.Errorf("requests %s limits %s, want 1m 1m", c.Requests.Cpu(), c.Limits.Cpu())
	}
}

func TestPodLevelGate(t *testing.T) {
	lr := `
apiVersion: v1
kind: LimitRange
metadata: {name: pod-max}
spec: {limits: [{type: Pod, max: {cpu: "1"}}]}`
	pod := `
apiVersion: v1
kind: Pod
metadata: {name: pl}
spec:
  resources: {limits: {cpu: 800m}}
  containers:
  - {name: a, image: nginx, resources: {requests: {cpu: 300m}, limits: {cpu: 600m}}}
  - {name: b, image: nginx, resources: {requests: {cpu: 300m}, limits: {cpu: 600m}}}`
	// LR-18: gate on, the pod-level limit overrides the 1200m aggregate.
	if res := run(t, features.Default(), lr, pod); !res.Allowed {
		t.Errorf("gate on: denied: %s", res.Denial.Message)
	}
	off, err := features.Parse("PodLevelResources=false,InPlacePodLevelResourcesVerticalScaling=false")
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, off, lr, pod)
	want := `pods "pl" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m`
	if res.Allowed || res.Denial.Message != want {
		t.Errorf("gate off: got %+v, want %s", res.Denial, want)
	}
	if res.Object.(*corev1.Pod).Spec.Resources != nil {
		t.Error("gate off: pod-level resources must be dropped")
	}
}

func TestScope(t *testing.T) {
	e := New(Options{})
	ns := &corev1.Namespace{}
	ns.APIVersion, ns.Kind, ns.Name = "v1", "Namespace", "team-a"
	if res := e.Admit(ns); !res.Skipped || res.Namespace != "" {
		t.Errorf("Namespace: %+v, want skipped cluster-scoped", res)
	}
	cm := &corev1.ConfigMap{}
	cm.APIVersion, cm.Kind, cm.Name = "v1", "ConfigMap", "cfg"
	// RQ-31: every namespaced kind is charged as an object count, so it is evaluated.
	if res := e.Admit(cm); res.Skipped || !res.Allowed || res.Namespace != "default" {
		t.Errorf("ConfigMap: %+v, want admitted in namespace default", res)
	}
}

// TestAlreadyExists: ST-01. A second object of the same resource, namespace and
// name is refused by storage after admission; quota has charged it and the
// charge stays; a LimitRange refused this way governs nothing.
func TestAlreadyExists(t *testing.T) {
	e := New(Options{DefaultNamespace: "ns1"})
	quota := `
apiVersion: v1
kind: ResourceQuota
metadata: {name: q}
spec: {hard: {services: "5", count/configmaps: "5"}}`
	svc := `
apiVersion: v1
kind: Service
metadata: {name: tracing}
spec: {ports: [{port: 80}]}`
	if r := e.Admit(decode(t, quota)); !r.Allowed {
		t.Fatalf("quota: %+v", r.Denial)
	}
	if r := e.Admit(decode(t, svc)); !r.Allowed {
		t.Fatalf("first service: %+v", r.Denial)
	}
	r := e.Admit(decode(t, svc))
	if r.Allowed || r.Denial == nil || r.Denial.Code != 409 || r.Denial.Stage != status.StageStorage ||
		r.Denial.Message != `services "tracing" already exists` {
		t.Fatalf("second service: %+v", r.Denial)
	}
	// Another namespace, another resource, a generated name: no conflict.
	for _, doc := range []string{
		"apiVersion: v1\nkind: Service\nmetadata: {name: tracing, namespace: ns2}\nspec: {ports: [{port: 80}]}",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: tracing}",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: cm-}",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: cm-}",
	} {
		if r := e.Admit(decode(t, doc)); !r.Allowed {
			t.Errorf("%s: %+v", doc, r.Denial)
		}
	}
	if r := e.Admit(decode(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}}")); !r.Allowed {
		t.Fatalf("deployment: %+v", r.Denial)
	}
	r = e.Admit(decode(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}}"))
	if r.Denial == nil || r.Denial.Message != `deployments.apps "web" already exists` || r.Workload == nil || len(r.Workload.Created) != 0 {
		t.Fatalf("second deployment: %+v %+v", r.Denial, r.Workload)
	}
	used := e.Quotas()[0].Quota.Status.Used
	if got := used[corev1.ResourceServices]; got.String() != "2" {
		t.Errorf("services used = %s, want 2 (the refused create was charged)", got.String())
	}
	// Three of the input's and kube-root-ca.crt (NS-01).
	if got := used["count/configmaps"]; got.String() != "4" {
		t.Errorf("count/configmaps used = %s, want 4", got.String())
	}

	lr := "apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr}\nspec: {limits: [{type: Container, max: {cpu: '1'}}]}"
	e.Admit(decode(t, lr))
	r = e.Admit(decode(t, "apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr}\nspec: {limits: [{type: Container, max: {cpu: 100m}}]}"))
	if r.Denial == nil || r.Denial.Message != `limitranges "lr" already exists` {
		t.Fatalf("second LimitRange: %+v", r.Denial)
	}
	if n := len(e.LimitRanges()); n != 1 {
		t.Errorf("%d LimitRanges active, want 1", n)
	}
}

// TestAdmitNeverPanics: an object of an evaluated resource that was not decoded
// into its type (a caller's bug) is an internal error of that object alone.
func TestAdmitNeverPanics(t *testing.T) {
	e := New(Options{DefaultNamespace: "ns1"})
	e.Admit(decode(t, "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec: {hard: {pods: '5'}}"))
	for _, doc := range []string{
		"apiVersion: v2\nkind: Pod\nmetadata: {name: p}",
		"apiVersion: v1beta1\nkind: Service\nmetadata: {name: s}",
	} {
		r := e.Admit(decode(t, doc))
		if r.Internal == "" || r.Allowed {
			t.Errorf("%s: want an internal error, got %+v", doc, r)
		}
	}
	if r := e.Admit(nil); r.Internal == "" {
		t.Errorf("nil object: %+v", r)
	}
	r := e.Admit(decode(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: ok}\nspec: {containers: [{name: c, image: i}]}"))
	if !r.Allowed {
		t.Errorf("the engine is unusable after an internal error: %+v", r.Denial)
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

// TestInitialNamespaceObjects: kube-apiserver's own objects in kube-system and
// kube-public are counted by quotas and conflict with an input's (NS-01).
func TestInitialNamespaceObjects(t *testing.T) {
	const quota = "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec: {hard: {count/configmaps: '3', count/roles.rbac.authorization.k8s.io: '6', count/rolebindings.rbac.authorization.k8s.io: '7'}}"
	tests := []struct {
		ns, doc, want string
	}{
		{"kube-system", "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: autoscaler}",
			`roles.rbac.authorization.k8s.io "autoscaler" is forbidden: exceeded quota: q, requested: count/roles.rbac.authorization.k8s.io=1, used: count/roles.rbac.authorization.k8s.io=6, limited: count/roles.rbac.authorization.k8s.io=6`},
		{"kube-system", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: autoscaler-status}",
			`configmaps "autoscaler-status" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=3, limited: count/configmaps=3`},
		{"kube-system", "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: system::leader-locking-kube-scheduler}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}",
			`rolebindings.rbac.authorization.k8s.io "system::leader-locking-kube-scheduler" already exists`},
		{"kube-system", "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: autoscaler}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}", ""},
		{"kube-public", "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: system:controller:bootstrap-signer}",
			`roles.rbac.authorization.k8s.io "system:controller:bootstrap-signer" already exists`},
		{"kube-public", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cluster-info}", ""},
		{"team-a", "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: system:controller:bootstrap-signer}", ""},
	}
	for _, tt := range tests {
		t.Run(tt.ns+"/"+tt.doc[strings.LastIndex(tt.doc, "kind: "):], func(t *testing.T) {
			e := New(Options{DefaultNamespace: tt.ns})
			if r := e.Admit(decode(t, quota)); !r.Allowed {
				t.Fatalf("quota: %+v", r.Denial)
			}
			r := e.Admit(decode(t, tt.doc))
			got := ""
			if r.Denial != nil {
				got = r.Denial.Message
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
