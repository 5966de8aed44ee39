package check_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/check"
)

func TestUnread(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"a Pod", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priorityClassName: high\n  runtimeClassName: gvisor\n", true},
		{"kind first", "kind: Service\napiVersion: v1\n", true},
		{"a shell script", "apiVersion: v1\nkind: ConfigMap\ndata:\n  run.sh: |\n    #!/bin/sh\n    exit 0\n", true},
		{"a LimitRange", "apiVersion: v1\nkind: LimitRange\n", false},
		{"a ResourceQuota", "apiVersion: v1\nkind: ResourceQuota\n", false},
		{"a quota configuration", "apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\n", false},
		{"a legacy configuration", "apiVersion: resourcequota.admission.k8s.io/v1beta1\nkind: Configuration\n", false},
		{"classes", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n", false},
		{"an HPA", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n", false},
		{"a CRD", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n", false},
		{"an adopter", "apiVersion: apps/v1\nkind: Deployment\n", false},
		{"a List", "apiVersion: v1\nkind: PodList\nitems: []\n", false},
		{"the kind written with an escape", "apiVersion: v1\nkind: \"Limit\\x52ange\"\n", false},
		{"a tag", "apiVersion: v1\nkind: !!binary TGltaXRSYW5nZQ==\n", false},
		{"a verbatim tag", "apiVersion: v1\nkind: !<tag:yaml.org,2002:binary> TGltaXRSYW5nZQ==\n", false},
		{"a tag directive", "%TAG !e! tag:yaml.org,2002:\n---\nkind: !e!binary TGltaXRSYW5nZQ==\n", false},
		{"no top-level kind", "apiVersion: v1\n  kind: Pod\n", false},
		{"a flow mapping", "{apiVersion: v1, kind: Pod}\n", false},
		{"null", "~\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := check.Unread([]byte(tc.text)); got != tc.want {
				t.Fatalf("Unread(%q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}

// TestUnreadKeepTheirPlace: documents the first look leaves unread still
// count in their file's document indexes, so the policies after them are
// found where the second reading finds them, from a file read ahead and from
// stdin alike; the run is the run of a first look that reads everything.
func TestUnreadKeepTheirPlace(t *testing.T) {
	const input = `apiVersion: v1
kind: Pod
metadata: {name: before, namespace: ns}
spec: {containers: [{name: c, image: i, resources: {limits: {cpu: 200m}}}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm, namespace: ns}
---
apiVersion: v1
kind: LimitRange
metadata: {name: lr, namespace: ns}
spec: {limits: [{type: Container, max: {cpu: 100m}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: after, namespace: ns}
spec: {containers: [{name: c, image: i}]}
`
	dir := t.TempDir()
	path := filepath.Join(dir, "mixed.yaml")
	if err := os.WriteFile(path, []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	summarize := func(rep *check.Report, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		s := ""
		for _, e := range rep.Entries {
			s += fmt.Sprintf("%s:%d #%d %s/%s allowed=%v", e.Pos.File, e.Pos.Line, e.Pos.Index, e.Result.Kind, e.Result.Name, e.Result.Allowed)
			if d := e.Result.Denial; d != nil {
				s += " " + d.Message
			}
			s += "\n"
		}
		return s
	}
	for _, from := range []string{"file", "stdin"} {
		opts := check.Options{Paths: []string{path}}
		if from == "stdin" {
			opts = check.Options{Paths: []string{"-"}, Stdin: strings.NewReader(input)}
		}
		got := summarize(check.Run(opts))
		if from == "stdin" {
			opts.Stdin = strings.NewReader(input)
		}
		var want string
		check.ReadingEverythingFirst(func() { want = summarize(check.Run(opts)) })
		if got != want {
			t.Errorf("from %s:\n%s\nreading everything first:\n%s", from, got, want)
		}
		if !strings.Contains(got, `pods "before" is forbidden: maximum cpu usage per Container is 100m, but limit is 200m`) {
			t.Errorf("from %s: the LimitRange after the unread documents did not govern the Pod before it:\n%s", from, got)
		}
	}
}
