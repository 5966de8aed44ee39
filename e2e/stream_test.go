package e2e

import (
	"strings"
	"testing"
)

func TestCompareStream(t *testing.T) {
	yes := true
	rep := &Report{Results: []Result{
		{Kind: "ConfigMap", Name: "before", Allowed: &yes},
		{Error: "a.yaml:11: error parsing a.yaml: error converting YAML to JSON: yaml: line 5: did not find expected key"},
		{Error: "b.json:3: error parsing b.json: invalid character '}' looking for beginning of object key string; the remaining 71 bytes of b.json were not read"},
		{Kind: "ConfigMap", Name: "after", Skipped: true},
	}}
	same := "configmap/before created\nerror parsing a.yaml: error converting YAML to JSON: yaml: line 5: did not find expected key\nerror parsing b.json: invalid character '}' looking for beginning of object key string\n"
	if d, _ := CompareStream(same, rep); len(d) != 0 {
		t.Errorf("same input: %q", d)
	}
	other := "configmap/before created\nconfigmap/after created\nerror: error parsing a.yaml: error converting YAML to JSON: yaml: line 4: did not find expected key\n"
	want := []string{
		`kubectl: "error parsing a.yaml: error converting YAML to JSON: yaml: line 4: did not find expected key"; limitcheck has no such error`,
		`limitcheck: "error parsing a.yaml: error converting YAML to JSON: yaml: line 5: did not find expected key"; kubectl has no such error`,
		`limitcheck: "error parsing b.json: invalid character '}' looking for beginning of object key string; the remaining 71 bytes of b.json were not read"; kubectl has no such error`,
		`kubectl created [configmap/after configmap/before]; limitcheck admitted [configmap/before]`,
	}
	if d, _ := CompareStream(other, rep); strings.Join(d, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(d, "\n"), strings.Join(want, "\n"))
	}
}

func TestCompareStreamOtherErrors(t *testing.T) {
	rep := &Report{Results: []Result{
		{File: "chart/devcontainer.json", Skipped: true, SkipReason: `not a Kubernetes object: not valid JSON, and no "kind"`},
		{File: "workflow.yml", Error: `workflow.yml:1: kind: error validating "workflow.yml": error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false`},
		{Kind: "Pod", Name: "p"},
	}}
	out := "error parsing chart/devcontainer.json: json: offset 5: invalid character '/' looking for beginning of object key string\n" +
		"error validating \"workflow.yml\": error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false\n" +
		"Error from server (Forbidden): error when creating \"pod.yaml\": pods \"p\" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1\n"
	d, why := CompareStream(out, rep)
	if len(d) != 0 || why == "" {
		t.Errorf("got %q, %q; want no differences, created objects not compared", d, why)
	}
}

// TestSplitAggregate: kubectl prints several errors as one line "[e1, e2]".
func TestSplitAggregate(t *testing.T) {
	l := `[error validating "a.yml": error validating data: [apiVersion not set, kind not set]; if you choose to ignore these errors, turn validation off with --validate=false, error parsing b.yaml: error converting YAML to JSON: yaml: line 2: x, y, unable to decode "c.yaml": Object 'Kind' is missing in '{"a":1,"kind":""}']`
	got := splitAggregate(l)
	want := []string{
		`error validating "a.yml": error validating data: [apiVersion not set, kind not set]; if you choose to ignore these errors, turn validation off with --validate=false`,
		`error parsing b.yaml: error converting YAML to JSON: yaml: line 2: x, y`,
		`unable to decode "c.yaml": Object 'Kind' is missing in '{"a":1,"kind":""}'`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := splitAggregate("configmap/x created"); len(got) != 1 || got[0] != "configmap/x created" {
		t.Errorf("a plain line: %q", got)
	}
}

// TestCompareStreamDecodeErrors: kubectl's "unable to decode" lines are
// compared with limitcheck's errors, as reading and validation errors are.
func TestCompareStreamDecodeErrors(t *testing.T) {
	rep := &Report{Results: []Result{
		{File: "a.yaml", Error: `a.yaml:1: kind: unable to decode "a.yaml": Object 'Kind' is missing in '{"apiVersion":"v1","kind":""}' (kind is empty)`},
		{Kind: "ConfigMap", Name: "b", Allowed: ptrTrue()},
	}}
	same := "configmap/b created\nerror: unable to decode \"a.yaml\": Object 'Kind' is missing in '{\"apiVersion\":\"v1\",\"kind\":\"\"}'\n"
	if d, why := CompareStream(same, rep); len(d) != 0 || why != "" {
		t.Errorf("same errors: %q, %q", d, why)
	}
	other := "configmap/b created\nerror: unable to decode \"a.yaml\": Object 'Kind' is missing in '{\"kind\":\"\"}'\n"
	if d, _ := CompareStream(other, rep); len(d) != 2 {
		t.Errorf("other words: %q, want a difference each way", d)
	}
}

func ptrTrue() *bool { t := true; return &t }

// TestCompareStreamMappingErrors: kubectl's errors for a kind its REST
// mapper does not find, "resource mapping not found …" and the line after
// it, and "unable to recognize …" for a list's items (in an aggregate), are
// compared with limitcheck's errors; a custom resource limitcheck takes on
// trust (API-01) is not, and is left out of the objects compared.
func TestCompareStreamMappingErrors(t *testing.T) {
	rep := &Report{Results: []Result{
		{File: "a.yaml", Error: `a.yaml:1: error: resource mapping not found for name: "old" namespace: "" from "a.yaml": no matches for kind "Deployment" in version "apps/v1beta1" (ensure CRDs are installed first; kube-apiserver 1.36 serves Deployment as apps/v1)`},
		{File: "a.yaml", Error: `a.yaml:9: error: resource mapping not found for name: "f" namespace: "" from "a.yaml": no matches for kind "Foo" in version "v1" (ensure CRDs are installed first)`},
		{File: "b.yaml", Error: `b.yaml:4: error: unable to recognize no matches for kind "CronJob" in version "batch/v1beta1"; kube-apiserver 1.36 serves CronJob as batch/v1`},
		{File: "b.yaml", Error: `b.yaml:7: error: unable to recognize no matches for kind "Foo" in version "v1"`},
		{File: "c.yaml", APIVersion: "example.org/v1", Kind: "Widget", Name: "w", Allowed: ptrTrue()},
		{File: "d.yaml", APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClass", Name: "high", Skipped: true, SkipReason: "cluster class: read by the Priority, DefaultStorageClass and RuntimeClass plugins for the whole run"},
		{File: "d.yaml", APIVersion: "apps/v1", Kind: "Deployment", Name: "web", Allowed: ptrTrue()},
		{File: "k/kustomization.yaml", APIVersion: "kustomize.config.k8s.io/v1beta1", Kind: "Kustomization", Skipped: true, SkipReason: "a tool's configuration file, not an API object"},
	}}
	same := "deployment.apps/web created\npriorityclass.scheduling.k8s.io/high created\n" +
		"resource mapping not found for name: \"old\" namespace: \"\" from \"a.yaml\": no matches for kind \"Deployment\" in version \"apps/v1beta1\"\nensure CRDs are installed first\n" +
		"resource mapping not found for name: \"f\" namespace: \"\" from \"a.yaml\": no matches for kind \"Foo\" in version \"v1\"\nensure CRDs are installed first\n" +
		"[unable to recognize no matches for kind \"CronJob\" in version \"batch/v1beta1\", unable to recognize no matches for kind \"Foo\" in version \"v1\"]\n" +
		"resource mapping not found for name: \"w\" namespace: \"\" from \"c.yaml\": no matches for kind \"Widget\" in version \"example.org/v1\"\nensure CRDs are installed first\n" +
		"resource mapping not found for name: \"\" namespace: \"\" from \"k/kustomization.yaml\": no matches for kind \"Kustomization\" in version \"kustomize.config.k8s.io/v1beta1\"\nensure CRDs are installed first\n"
	d, why := CompareStream(same, rep)
	if len(d) != 0 || !strings.Contains(why, "API-01") {
		t.Errorf("same errors: %q, %q", d, why)
	}
	other := "deployment.apps/web created\npriorityclass.scheduling.k8s.io/high created\n" +
		"resource mapping not found for name: \"old\" namespace: \"x\" from \"a.yaml\": no matches for kind \"Deployment\" in version \"apps/v1beta1\"\nensure CRDs are installed first\n" +
		"[unable to recognize no matches for kind \"CronJob\" in version \"batch/v1beta1\", unable to recognize no matches for kind \"Foo\" in version \"v2\"]\n"
	want := []string{
		`kubectl: "resource mapping not found for name: \"old\" namespace: \"x\" from \"a.yaml\": no matches for kind \"Deployment\" in version \"apps/v1beta1\" (ensure CRDs are installed first"; limitcheck has no such error`,
		`kubectl: "unable to recognize no matches for kind \"Foo\" in version \"v2\""; limitcheck has no such error`,
		`limitcheck: "resource mapping not found for name: \"old\" namespace: \"\" from \"a.yaml\": no matches for kind \"Deployment\" in version \"apps/v1beta1\" (ensure CRDs are installed first; kube-apiserver 1.36 serves Deployment as apps/v1)"; kubectl has no such error`,
		`limitcheck: "resource mapping not found for name: \"f\" namespace: \"\" from \"a.yaml\": no matches for kind \"Foo\" in version \"v1\" (ensure CRDs are installed first)"; kubectl has no such error`,
		`limitcheck: "unable to recognize no matches for kind \"Foo\" in version \"v1\""; kubectl has no such error`,
		`kubectl created [deployment/web priorityclass/high]; limitcheck admitted [deployment/web priorityclass/high widget/w]`,
	}
	if d, _ := CompareStream(other, rep); strings.Join(d, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(d, "\n"), strings.Join(want, "\n"))
	}
}
