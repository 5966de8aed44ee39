package eval

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/eval/features"
)

func admitHPA(t *testing.T, e *Engine, doc string) Result {
	t.Helper()
	var tm struct{ APIVersion string }
	if err := json.Unmarshal([]byte(doc), &tm); err != nil {
		t.Fatal(err)
	}
	obj := NewObject(tm.APIVersion, "HorizontalPodAutoscaler")
	if obj == nil {
		t.Fatalf("%s HorizontalPodAutoscaler is not decoded typed", tm.APIVersion)
	}
	if err := json.Unmarshal([]byte(doc), obj); err != nil {
		t.Fatal(err)
	}
	return e.Admit(obj)
}

// TestHPAValidation: VAL-50, whole messages as kube-apiserver words them
// (the conformance module compares them with the real strategy).
func TestHPAValidation(t *testing.T) {
	const ref = `"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"}`
	scaleToZero := features.Default()
	scaleToZero.Set(features.HPAScaleToZero, true)
	for _, tc := range []struct {
		name, doc string
		gates     *features.Gates
		want      string // "" admitted
	}{
		{name: "valid v2", doc: `{"apiVersion":"autoscaling/v2","metadata":{"name":"web"},"spec":{` + ref + `,"maxReplicas":5}}`},
		{name: "valid v1", doc: `{"apiVersion":"autoscaling/v1","metadata":{"name":"web"},"spec":{` + ref + `,"maxReplicas":5,"targetCPUUtilizationPercentage":60}}`},
		{name: "maxReplicas below minReplicas",
			doc:  `{"apiVersion":"autoscaling/v2","metadata":{"name":"web"},"spec":{` + ref + `,"minReplicas":3,"maxReplicas":1}}`,
			want: "HorizontalPodAutoscaler.autoscaling \"web\" is invalid: spec.maxReplicas: Invalid value: 1: must be greater than or equal to `minReplicas`"},
		{name: "maxReplicas below the default minReplicas",
			doc:  `{"apiVersion":"autoscaling/v1","metadata":{"name":"web"},"spec":{` + ref + `,"maxReplicas":-1}}`,
			want: "HorizontalPodAutoscaler.autoscaling \"web\" is invalid: [spec.maxReplicas: Invalid value: -1: must be greater than or equal to 1, spec.maxReplicas: Invalid value: -1: must be greater than or equal to `minReplicas`]"},
		{name: "maxReplicas missing",
			doc:  `{"apiVersion":"autoscaling/v2","metadata":{"name":"web"},"spec":{` + ref + `}}`,
			want: "HorizontalPodAutoscaler.autoscaling \"web\" is invalid: [spec.maxReplicas: Required value: must be set and greater than 0, spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`]"},
		{name: "minReplicas 0 without HPAScaleToZero",
			doc:  `{"apiVersion":"autoscaling/v2","metadata":{"name":"web"},"spec":{` + ref + `,"minReplicas":0,"maxReplicas":2}}`,
			want: "HorizontalPodAutoscaler.autoscaling \"web\" is invalid: [spec.minReplicas: Invalid value: 0: must be greater than or equal to 1, spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas]"},
		{name: "minReplicas 0 with HPAScaleToZero and an External metric", gates: &scaleToZero,
			doc: `{"apiVersion":"autoscaling/v2","metadata":{"name":"web"},"spec":{` + ref + `,"minReplicas":0,"maxReplicas":2,"metrics":[{"type":"External","external":{"metric":{"name":"queue"},"target":{"type":"Value","value":"10"}}}]}}`},
		{name: "scaleTargetRef without kind and name, core group",
			doc:  `{"apiVersion":"autoscaling/v2","metadata":{"name":"web"},"spec":{"scaleTargetRef":{"apiVersion":"v1"},"maxReplicas":2}}`,
			want: "HorizontalPodAutoscaler.autoscaling \"web\" is invalid: [spec.scaleTargetRef.kind: Required value, spec.scaleTargetRef.name: Required value, spec.scaleTargetRef.apiVersion: Invalid value: \"v1\": apiVersion must specify API group]"},
		{name: "a ReplicationController in v1",
			doc: `{"apiVersion":"autoscaling/v2","metadata":{"name":"web"},"spec":{"scaleTargetRef":{"apiVersion":"v1","kind":"ReplicationController","name":"web"},"maxReplicas":2}}`},
		{name: "metric without its source; another one alone is not forbidden",
			doc:  `{"apiVersion":"autoscaling/v2","metadata":{"name":"web"},"spec":{` + ref + `,"maxReplicas":2,"metrics":[{"type":"Pods","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}]}}`,
			want: "HorizontalPodAutoscaler.autoscaling \"web\" is invalid: spec.metrics[0].pods: Required value: must populate information for the given metric source"},
		{name: "behavior defaults fill a partial rule; a bad window",
			doc:  `{"apiVersion":"autoscaling/v2","metadata":{"name":"web"},"spec":{` + ref + `,"maxReplicas":2,"behavior":{"scaleUp":{"stabilizationWindowSeconds":3601}}}}`,
			want: "HorizontalPodAutoscaler.autoscaling \"web\" is invalid: spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{OmitNamespaceObjects: true}
			if tc.gates != nil {
				opts.Gates = *tc.gates
			}
			res := admitHPA(t, New(opts), tc.doc)
			got := ""
			if res.Denial != nil {
				got = res.Denial.Message
				if res.Denial.Code != 422 {
					t.Errorf("code %d, want 422", res.Denial.Code)
				}
			}
			if got != tc.want || res.Internal != "" {
				t.Errorf("got %q (internal %q)\nwant %q", got, res.Internal, tc.want)
			}
		})
	}
}

// TestHPADefaults: the object as stored, for both versions (VAL-50).
func TestHPADefaults(t *testing.T) {
	res := admitHPA(t, New(Options{}), `{"apiVersion":"autoscaling/v1","metadata":{"name":"web"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":4}}`)
	hpa := res.Object.(*autoscalingv2.HorizontalPodAutoscaler)
	if *hpa.Spec.MinReplicas != 1 || len(hpa.Spec.Metrics) != 1 || *hpa.Spec.Metrics[0].Resource.Target.AverageUtilization != 80 {
		t.Errorf("v1 defaults: %+v", hpa.Spec)
	}
	res = admitHPA(t, New(Options{}), `{"apiVersion":"autoscaling/v2","metadata":{"name":"web"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":4,"behavior":{"scaleDown":{"stabilizationWindowSeconds":60}}}}`)
	b := res.Object.(*autoscalingv2.HorizontalPodAutoscaler).Spec.Behavior
	if *b.ScaleDown.StabilizationWindowSeconds != 60 || len(b.ScaleDown.Policies) != 1 || *b.ScaleUp.StabilizationWindowSeconds != 0 || len(b.ScaleUp.Policies) != 2 || *b.ScaleUp.SelectPolicy != autoscalingv2.MaxChangePolicySelect {
		t.Errorf("v2 behavior defaults: %+v %+v", b.ScaleUp, b.ScaleDown)
	}
}

// FIT-04: an HPA kube-apiserver creates but whose target the HPA controller
// cannot scale is warned about: a group/kind served in no version (as its
// REST mapper resolves it: any version, the kind as served or in lower case)
// or a kind without the scale subresource. A kind a CRD outside the input may
// serve is not.
func TestScaleTargetWarning(t *testing.T) {
	catalog := apis.New()
	for _, crd := range []string{
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"rollouts.argoproj.io"},"spec":{"group":"argoproj.io","scope":"Namespaced","names":{"plural":"rollouts","kind":"Rollout"},"versions":[{"name":"v1alpha1","served":true,"storage":true,"subresources":{"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas"}}}]}}`,
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"workflows.argoproj.io"},"spec":{"group":"argoproj.io","scope":"Namespaced","names":{"plural":"workflows","kind":"Workflow"},"versions":[{"name":"v1alpha1","served":true,"storage":true}]}}`,
	} {
		if err := catalog.AddCRD([]byte(crd)); err != nil {
			t.Fatal(err)
		}
	}
	const prefix = `its scaleTargetRef `
	for _, tc := range []struct{ ref, want string }{
		{`"apiVersion":"apps/v1","kind":"Deployment"`, ""},
		{`"apiVersion":"apps/v1beta2","kind":"StatefulSet"`, ""}, // the version does not matter
		{`"apiVersion":"apps/v1","kind":"replicaset"`, ""},
		{`"apiVersion":"argoproj.io/v1alpha1","kind":"Rollout"`, ""},
		{`"apiVersion":"keda.sh/v1alpha1","kind":"ScaledThing"`, ""}, // a CRD not in the input
		{`"apiVersion":"extensions/v1beta1","kind":"Deployment"`,
			prefix + `extensions/v1beta1 Deployment "web" cannot be scaled (the HorizontalPodAutoscaler controller reports FailedGetScale): no matches for kind "Deployment" in group "extensions"; kube-apiserver 1.36 serves Deployment as apps/v1`},
		{`"apiVersion":"apps/v1","kind":"DEPLOYMENT"`,
			prefix + `apps/v1 DEPLOYMENT "web" cannot be scaled (the HorizontalPodAutoscaler controller reports FailedGetScale): no matches for kind "DEPLOYMENT" in group "apps"; kube-apiserver 1.36 serves Deployment as apps/v1 (kinds are case-sensitive)`},
		{`"apiVersion":"apps/v1","kind":"DaemonSet"`,
			prefix + `apps/v1 DaemonSet "web" cannot be scaled (the HorizontalPodAutoscaler controller reports FailedGetScale): apps/v1 DaemonSet has no scale subresource`},
		{`"apiVersion":"argoproj.io/v1","kind":"workflow"`,
			prefix + `argoproj.io/v1 workflow "web" cannot be scaled (the HorizontalPodAutoscaler controller reports FailedGetScale): argoproj.io/v1alpha1 Workflow has no scale subresource`},
		{`"apiVersion":"argoproj.io/v1alpha1","kind":"AnalysisRun"`,
			prefix + `argoproj.io/v1alpha1 AnalysisRun "web" cannot be scaled (the HorizontalPodAutoscaler controller reports FailedGetScale): no matches for kind "AnalysisRun" in group "argoproj.io"`},
	} {
		e := New(Options{OmitNamespaceObjects: true, APIs: catalog})
		res := admitHPA(t, e, `{"apiVersion":"autoscaling/v2","metadata":{"name":"web"},"spec":{"scaleTargetRef":{`+tc.ref+`,"name":"web"},"maxReplicas":3}}`)
		if !res.Allowed || res.Denial != nil {
			t.Fatalf("%s: refused: %+v", tc.ref, res.Denial)
		}
		if got := strings.Join(res.Warnings, "\n"); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.ref, got, tc.want)
		}
	}
}

// TestUtilizationWarnings: FIT-06. An HPA with a utilization target whose
// workload's Pods lack the request the HorizontalPodAutoscaler controller
// divides by is warned of, in the controller's words, on whichever of the
// two comes second; a LimitRange's defaultRequest, an AverageValue target,
// pod-level requests or a named container with its request silence it.
func TestUtilizationWarnings(t *testing.T) {
	const deploy = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      initContainers:
      - {name: proxy, image: envoy, restartPolicy: Always, resources: {requests: {cpu: 10m}}}
      containers:
      - {name: app, image: nginx, resources: {limits: {memory: 64Mi}}}
%s`
	hpa := func(metrics string) string {
		return `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web-hpa}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 4
  metrics: ` + metrics
	}
	const cpu = `[{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}}]`
	const lr = `
apiVersion: v1
kind: LimitRange
metadata: {name: defaults}
spec: {limits: [{type: Container, defaultRequest: {cpu: 50m}}]}`
	const pod = `Pod web-f7b5ff79f-xxxxx`
	for _, tc := range []struct {
		name     string
		docs     []string
		hpaFirst bool
		want     string
	}{
		{"HPA after its Deployment", []string{fmt.Sprintf(deploy, ""), hpa(cpu)}, false,
			`its controller cannot compute the cpu utilization of Deployment "web" (FailedGetResourceMetric: failed to get cpu utilization: missing request for cpu in container app of ` + pod + `): give every container a cpu request, or the namespace a LimitRange with a defaultRequest for cpu (FIT-06)`},
		{"HPA before its Deployment", []string{hpa(cpu), fmt.Sprintf(deploy, "")}, true,
			`HorizontalPodAutoscaler "web-hpa" cannot compute the cpu utilization of Deployment "web" (FailedGetResourceMetric: failed to get cpu utilization: missing request for cpu in container app of ` + pod + `): give every container a cpu request, or the namespace a LimitRange with a defaultRequest for cpu (FIT-06)`},
		{"the LimitRange's defaultRequest", []string{lr, fmt.Sprintf(deploy, ""), hpa(cpu)}, false, ``},
		{"an AverageValue target", []string{fmt.Sprintf(deploy, ""), hpa(`[{type: Resource, resource: {name: cpu, target: {type: AverageValue, averageValue: 100m}}}]`)}, false, ``},
		{"memory: requests defaulted from limits; the sidecar has none", []string{fmt.Sprintf(deploy, ""), hpa(`[{type: Resource, resource: {name: memory, target: {type: Utilization, averageUtilization: 70}}}]`)}, false,
			`its controller cannot compute the memory utilization of Deployment "web" (FailedGetResourceMetric: failed to get memory utilization: missing request for memory in container proxy of ` + pod + `): give every container a memory request, or the namespace a LimitRange with a defaultRequest for memory (FIT-06)`},
		{"a named container with its request", []string{fmt.Sprintf(deploy, ""), hpa(`[{type: ContainerResource, containerResource: {name: cpu, container: proxy, target: {type: Utilization, averageUtilization: 70}}}]`)}, false, ``},
		{"a named container without", []string{fmt.Sprintf(deploy, ""), hpa(`[{type: ContainerResource, containerResource: {name: cpu, container: app, target: {type: Utilization, averageUtilization: 70}}}]`)}, false,
			`its controller cannot compute the cpu utilization of Deployment "web" (FailedGetContainerResourceMetric: failed to get cpu utilization: missing request for cpu in container app of ` + pod + `): give container app a cpu request, or the namespace a LimitRange with a defaultRequest for cpu (FIT-06)`},
		{"a container the Pod does not have", []string{fmt.Sprintf(deploy, ""), hpa(`[{type: ContainerResource, containerResource: {name: cpu, container: nginx, target: {type: Utilization, averageUtilization: 70}}}]`)}, false,
			`its controller cannot compute the cpu utilization of Deployment "web" (FailedGetContainerResourceMetric: failed to get cpu utilization: container nginx not found in ` + pod + `): name one of its containers (FIT-06)`},
		{"pod-level requests", []string{fmt.Sprintf(deploy, "      resources: {requests: {cpu: 200m}}"), hpa(cpu)}, false, ``},
		{"another namespace's Deployment", []string{fmt.Sprintf(strings.Replace(deploy, "name: web}", "name: web, namespace: other}", 1), ""), hpa(cpu)}, false, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "ns1"})
			var results []Result
			for _, d := range tc.docs {
				results = append(results, e.Admit(decode(t, d)))
			}
			last := results[len(results)-1]
			if !last.Allowed {
				t.Fatalf("refused: %+v", last.Denial)
			}
			if got := strings.Join(last.Warnings, "\n"); got != tc.want {
				t.Errorf("\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
