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
		"error: unable to recognize \"crd.yaml\": no matches for kind \"Widget\" in version \"example.org/v1\"\n"
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
