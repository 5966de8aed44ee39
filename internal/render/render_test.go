package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval/limitranger"
	"github.com/limitcheck/limitcheck/internal/eval/quota"
	"github.com/limitcheck/limitcheck/internal/eval/status"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/load"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden with the current output")

func TestFormats(t *testing.T) {
	got := Formats()
	want := []string{"codeclimate", "github", "json", "junit", "markdown", "sarif", "text"}
	if len(got) != len(want) {
		t.Fatalf("Formats() = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Formats() = %q, want %q", got, want)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, name := range Formats() {
		f, err := Lookup(name)
		if err != nil || f == nil {
			t.Errorf("Lookup(%q) = %v, %v", name, f, err)
		}
	}
	_, err := Lookup("xml")
	const want = `unknown output format "xml": valid formats are codeclimate, github, json, junit, markdown, sarif, text`
	if err == nil || err.Error() != want {
		t.Errorf("Lookup(\"xml\") error = %v, want %s", err, want)
	}
}

func TestGolden(t *testing.T) {
	for _, name := range Formats() {
		t.Run(name, func(t *testing.T) {
			f, err := Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := f.Render(&buf, sampleReport(), Options{}); err != nil {
				t.Fatal(err)
			}
			assertGolden(t, filepath.Join("testdata", "report."+name+".golden"), buf.Bytes())
		})
	}
}

// TestGoldenColor: the text report with colour on; every other byte is the same
// as without (colour never shifts the quota table's columns).
func TestGoldenColor(t *testing.T) {
	var plain, colored bytes.Buffer
	if err := (textFormat{}).Render(&plain, sampleReport(), Options{}); err != nil {
		t.Fatal(err)
	}
	if err := (textFormat{}).Render(&colored, sampleReport(), Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	assertGolden(t, filepath.Join("testdata", "report.text-color.golden"), colored.Bytes())
	if got := ansi.ReplaceAll(colored.Bytes(), nil); !bytes.Equal(got, plain.Bytes()) {
		t.Errorf("colour changed more than escapes:\n%s\nvs\n%s", got, plain.Bytes())
	}
	if !ansi.Match(colored.Bytes()) {
		t.Error("no colour in the coloured report")
	}
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// TestEmptyReport: no entries still yields a summary line and a valid document.
func TestEmptyReport(t *testing.T) {
	cases := map[string]string{
		"text": "0 objects: 0 admitted, 0 denied, 0 skipped\n",
		"json": "{\n  \"schemaVersion\": 1,\n  \"version\": \"\",\n  \"summary\": {\n    \"objects\": 0,\n    \"admitted\": 0,\n    \"denied\": 0,\n    \"skipped\": 0,\n    \"errors\": 0,\n    \"internal\": 0,\n    \"workloads\": 0,\n    \"replicas\": 0,\n    \"unfit\": 0\n  },\n  \"results\": [],\n  \"notes\": [],\n  \"quotas\": []\n}\n",
	}
	for name, want := range cases {
		f, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := f.Render(&buf, &check.Report{}, Options{}); err != nil {
			t.Fatal(err)
		}
		if buf.String() != want {
			t.Errorf("%s: got %q, want %q", name, buf.String(), want)
		}
	}
}

// A quota without hard names (a scope selector alone, as the Resource Quotas
// page's pods-cluster-services) has no row, and a namespace with only such
// quotas no table.
func TestQuotaTableRows(t *testing.T) {
	selectorOnly := func(ns string) quota.State {
		return quota.State{Quota: &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "pods-cluster-services", Namespace: ns}}}
	}
	pods := quota.State{Quota: &corev1.ResourceQuota{
		ObjectMeta: metav1.ObjectMeta{Name: "pod-demo", Namespace: "team-a"},
		Status: corev1.ResourceQuotaStatus{
			Hard: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("2")},
			Used: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("2")},
		},
	}}
	cases := []struct {
		name   string
		quotas []quota.State
		want   string
	}{
		{"only a selector quota", []quota.State{selectorOnly("kube-system")}, "0 objects: 0 admitted, 0 denied, 0 skipped\n"},
		{"a selector quota beside one with hard names", []quota.State{selectorOnly("kube-system"), selectorOnly("team-a"), pods},
			"quota usage in namespace team-a:\n  QUOTA     RESOURCE  USED  HARD  FREE\n  pod-demo  pods      2     2     0\n0 objects: 0 admitted, 0 denied, 0 skipped\n"},
	}
	f, err := Lookup("text")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		var buf bytes.Buffer
		if err := f.Render(&buf, &check.Report{Quotas: c.quotas}, Options{}); err != nil {
			t.Fatal(err)
		}
		if buf.String() != c.want {
			t.Errorf("%s: got %q, want %q", c.name, buf.String(), c.want)
		}
	}
}

func assertGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/render -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (run with -update and read the diff):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

func q(s string) resource.Quantity { return resource.MustParse(s) }

// sampleReport covers every shape a renderer meets: a Pod denied with several
// reasons, an admitted Pod defaulted by a LimitRange (init sidecar, pod-level
// resources), a rejected LimitRange, a denied PVC from a Helm chart, skipped kinds
// with two reasons, and a document that could not be read. The messages are the
// upstream texts of docs/behaviour.md (LR).
func sampleReport() *check.Report {
	always := corev1.ContainerRestartPolicyAlways
	webPod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "team-a"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "app",
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: q("2"), corev1.ResourceMemory: q("2Gi")},
				Limits:   corev1.ResourceList{corev1.ResourceCPU: q("2"), corev1.ResourceMemory: q("2Gi")},
			},
		}}},
	}
	apiPod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "api", Namespace: "team-a", Annotations: map[string]string{
			limitranger.Annotation: "LimitRanger plugin set: cpu request for container api; cpu limit for container api; cpu request for init container proxy; cpu limit for init container proxy",
		}},
		Spec: corev1.PodSpec{
			InitContainers: []corev1.Container{
				{Name: "migrate", Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: q("100m")},
					Limits:   corev1.ResourceList{corev1.ResourceCPU: q("100m")},
				}},
				{Name: "proxy", RestartPolicy: &always, Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: q("250m")},
					Limits:   corev1.ResourceList{corev1.ResourceCPU: q("500m")},
				}},
			},
			Containers: []corev1.Container{{Name: "api", Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: q("250m"), corev1.ResourceMemory: q("1536Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceCPU: q("500m"), corev1.ResourceMemory: q("1.5Gi")},
			}}},
			Resources: &corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: q("2Gi")}},
		},
	}
	compute := &corev1.ResourceQuota{
		ObjectMeta: metav1.ObjectMeta{Name: "compute", Namespace: "team-a"},
		Status: corev1.ResourceQuotaStatus{
			Hard: corev1.ResourceList{corev1.ResourceRequestsCPU: q("2"), corev1.ResourcePods: q("10"), "example.com/foo": q("1")},
			Used: corev1.ResourceList{corev1.ResourceRequestsCPU: q("750m"), corev1.ResourcePods: q("2")},
		},
	}
	return &check.Report{Quotas: []quota.State{{Quota: compute}}, Entries: []check.Entry{
		{
			Pos: load.Position{File: "deploy/web.yaml", Line: 1, Index: 0, Item: -1},
			Result: eval.Result{
				APIVersion: "v1", Kind: "Pod", Namespace: "team-a", Name: "web",
				Denial: &status.Denial{
					Code: 403, Reason: metav1.StatusReasonForbidden, Stage: status.StageLimitRanger,
					Message: `pods "web" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi]`,
					Parts:   []string{"maximum cpu usage per Container is 1, but limit is 2", "maximum memory usage per Container is 1Gi, but limit is 2Gi"},
				},
				Object: webPod,
			},
		},
		{
			Pos:    load.Position{File: "deploy/web.yaml", Line: 18, Index: 1, Item: -1},
			Result: eval.Result{APIVersion: "v1", Kind: "Pod", Namespace: "team-a", Name: "api", Allowed: true, Object: apiPod},
		},
		{
			Pos: load.Position{File: "deploy/limits.yaml", Line: 1, Index: 0, Item: -1},
			Result: eval.Result{
				APIVersion: "v1", Kind: "LimitRange", Namespace: "team-a", Name: "lr-ratio",
				Denial: &status.Denial{
					Code: 422, Reason: metav1.StatusReasonInvalid, Stage: status.StageValidation,
					Message: `LimitRange "lr-ratio" is invalid: [spec.limits[0].defaultRequest[cpu]: Invalid value: "50m": min value 100m is greater than default request value 50m, spec.limits[0].default[cpu]: Invalid value: "200m": default value 300m is greater than max value 200m, spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000]`,
					Parts: []string{
						`spec.limits[0].defaultRequest[cpu]: Invalid value: "50m": min value 100m is greater than default request value 50m`,
						`spec.limits[0].default[cpu]: Invalid value: "200m": default value 300m is greater than max value 200m`,
						`spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000`,
					},
				},
				Object: &corev1.LimitRange{},
			},
		},
		{
			Pos: load.Position{File: load.StdinName, Line: 40, Index: 3, Item: -1, Source: "mychart/templates/pvc.yaml"},
			Result: eval.Result{
				APIVersion: "v1", Kind: "PersistentVolumeClaim", Namespace: "team-a", Name: "data",
				Denial: &status.Denial{
					Code: 403, Reason: metav1.StatusReasonForbidden, Stage: status.StageLimitRanger,
					Message: `persistentvolumeclaims "data" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi`,
					Parts:   []string{"minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi"},
				},
				Object: &corev1.PersistentVolumeClaim{},
			},
		},
		{
			Pos: load.Position{File: load.StdinName, Line: 52, Index: 4, Item: -1, Source: "mychart/templates/config.yaml"},
			Result: eval.Result{
				APIVersion: "v1", Kind: "ConfigMap", Namespace: "team-a", Name: "settings",
				Skipped: true, SkipReason: "no LimitRange applies to this kind; quota admission is not simulated yet",
			},
		},
		{
			// A Deployment admitted while 2 of its 4 Pods exceed the quota.
			Pos: load.Position{File: load.StdinName, Line: 60, Index: 5, Item: -1, Source: "mychart/templates/deployment.yaml"},
			Result: eval.Result{
				APIVersion: "apps/v1", Kind: "Deployment", Namespace: "team-a", Name: "shop",
				Workload: &eval.Workload{Replicas: 4, Admitted: 2, Created: []eval.Result{
					{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "team-a", Name: "shop", Allowed: true},
					{APIVersion: "v1", Kind: "Pod", Namespace: "team-a", Name: "shop-0", Replica: 1, Pod: "shop-0", Allowed: true, Object: &corev1.Pod{}},
					{APIVersion: "v1", Kind: "Pod", Namespace: "team-a", Name: "shop-1", Replica: 2, Pod: "shop-1", Allowed: true, Object: &corev1.Pod{}},
					{APIVersion: "v1", Kind: "Pod", Namespace: "team-a", Name: "shop-2", Replica: 3, Pod: "shop-2", Object: &corev1.Pod{}, Denial: &status.Denial{
						Code: 403, Reason: metav1.StatusReasonForbidden, Stage: status.StageQuota,
						Message: `pods "shop-2" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=1750m, limited: requests.cpu=2`,
						Parts:   []string{"exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=1750m, limited: requests.cpu=2"},
					}},
					{APIVersion: "v1", Kind: "Pod", Namespace: "team-a", Name: "shop-3", Replica: 4, Pod: "shop-3", Object: &corev1.Pod{}, Denial: &status.Denial{
						Code: 403, Reason: metav1.StatusReasonForbidden, Stage: status.StageQuota,
						Message: `pods "shop-3" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=1750m, limited: requests.cpu=2`,
						Parts:   []string{"exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=1750m, limited: requests.cpu=2"},
					}},
				}},
			},
		},
		{
			Pos: load.Position{File: "list.yaml", Line: 5, Index: 0, Item: 0},
			Result: eval.Result{
				APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "extra",
				Skipped: true, SkipReason: "no LimitRange applies to this kind; quota admission is not simulated yet",
			},
		},
		{
			Pos: load.Position{File: "list.yaml", Line: 10, Index: 0, Item: 1},
			Result: eval.Result{
				APIVersion: "v1", Kind: "Namespace", Name: "team-a",
				Skipped: true, SkipReason: "cluster-scoped kind: LimitRanges and quotas do not apply",
			},
		},
		{
			Pos: load.Position{File: "deploy/bad.yaml", Line: 1, Index: 0, Item: -1},
			Result: eval.Result{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "bad",
				Warnings: []string{`duplicate key "resources" (line 7 and line 11): kubectl keeps the last value`}},
			Err: &load.Error{
				File: "deploy/bad.yaml", Line: 9, Field: "spec.containers[0].resources.limits.memory",
				Msg: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' (got \"1.5.Gi\")",
			},
		},
	}}
}

// TestJSONStreamed: -o json written result by result is byte for byte the
// JSON document encoded whole, for a report with results and for none.
func TestJSONStreamed(t *testing.T) {
	for _, rep := range []*check.Report{sampleReport(), {}} {
		var streamed, whole bytes.Buffer
		if err := (jsonFormat{}).Render(&streamed, rep, Options{Version: "v1.2.3"}); err != nil {
			t.Fatal(err)
		}
		enc := json.NewEncoder(&whole)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(newJSONReport(rep, Options{Version: "v1.2.3"}, true)); err != nil {
			t.Fatal(err)
		}
		if streamed.String() != whole.String() {
			t.Errorf("streamed:\n%s\nwhole:\n%s", streamed.String(), whole.String())
		}
	}
}
