package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// TestReplicaSetNames creates Deployments of templates that exercise what
// the pod-template hash reads (defaults, a deprecated serviceAccount,
// quantities in non-canonical forms, images without tags or that do not
// parse, probes, volumes) on the control plane, and compares the name of the
// ReplicaSet kube-controller-manager creates, and the generateName of its
// Pods, with limitcheck's (WL-08).
func TestReplicaSetNames(t *testing.T) {
	needPlane(t)
	ctx := context.Background()
	const ns = "rs-names"
	if err := env.replayer.CreateNamespace(ctx, ns); err != nil {
		t.Fatal(err)
	}
	templates := []string{
		`{containers: [{name: app, image: nginx}]}`,
		`{containers: [{name: app, image: "nginx:1.25", resources: {requests: {cpu: "0.5", memory: 1.5Gi}, limits: {cpu: "1", memory: 2G}}}]}`,
		`{serviceAccountName: builder, containers: [{name: app, image: "ko://example.com/cmd/app"}]}`,
		`{serviceAccount: legacy, containers: [{name: app, image: REGISTRY/app, ports: [{containerPort: 80}], env: [{name: A, value: "1"}]}]}`,
		`{volumes: [{name: data, emptyDir: {}}], initContainers: [{name: init, image: "busybox:1.36", command: [sh, -c, "true"]}], containers: [{name: app, image: "app@sha256:` + strings.Repeat("ab", 32) + `", volumeMounts: [{name: data, mountPath: /data}], readinessProbe: {httpGet: {path: /healthz, port: 8080}}}]}`,
		`{nodeSelector: {kubernetes.io/os: linux}, tolerations: [{key: k, operator: Exists}], securityContext: {runAsNonRoot: true}, containers: [{name: app, image: "app:1", securityContext: {allowPrivilegeEscalation: false}}]}`,
	}
	for i, tmpl := range templates {
		name := fmt.Sprintf("web-%d", i)
		doc := fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s, namespace: %s}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: %s}}\n  template:\n    metadata: {labels: {app: %s}, annotations: {team: a}}\n    spec: %s\n", name, ns, name, name, strings.TrimSpace(tmpl))
		var d appsv1.Deployment
		if err := yaml.UnmarshalStrict([]byte(doc), &d); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, doc)
		}
		if _, err := env.replayer.Core.AppsV1().Deployments(ns).Create(ctx, &d, metav1.CreateOptions{}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var real string
		if err := waitFor(ctx, env.replayer.Timeout, "the ReplicaSet of "+name, func() (bool, error) {
			list, err := env.replayer.Core.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				return false, err
			}
			for _, rs := range list.Items {
				if c := metav1.GetControllerOf(&rs); c != nil && c.Name == name {
					real = rs.Name
					return true, nil
				}
			}
			return false, nil
		}); err != nil {
			t.Fatal(err)
		}
		mine := limitcheckReplicaSet(t, doc)
		if mine != real {
			t.Errorf("%s: kube-controller-manager's ReplicaSet %q, limitcheck's %q\n%s", name, real, mine, doc)
		} else {
			t.Logf("%s: ReplicaSet %s", name, real)
		}
	}
}

// limitcheckReplicaSet is the name of the ReplicaSet limitcheck creates for
// the Deployment doc, and checks that its Pod is named from it.
func limitcheckReplicaSet(t *testing.T, doc string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "d.yaml")
	if err := os.WriteFile(f, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(env.limitcheck, "check", "-o", "json", f)
	var out bytes.Buffer
	cmd.Stdout = &out
	_ = cmd.Run()
	var rep struct {
		Results []struct {
			Created []struct{ Kind, Name string } `json:"created"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Results) != 1 {
		t.Fatalf("limitcheck -o json: %v\n%s", err, out.String())
	}
	rs := ""
	for _, c := range rep.Results[0].Created {
		switch c.Kind {
		case "ReplicaSet":
			rs = c.Name
		case "Pod":
			if want := rs + "-xxxxx"; c.Name != want {
				t.Errorf("Pod %q, want %q", c.Name, want)
			}
		}
	}
	return rs
}
