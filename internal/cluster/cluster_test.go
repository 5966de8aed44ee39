package cluster

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// fakeRun answers kubectl command lines from a table, and records them.
type fakeRun struct {
	answers map[string]answer
	ran     []string
}

type answer struct {
	stdout, stderr string
	fail           bool
}

func (f *fakeRun) run(_ string, args []string) ([]byte, []byte, error) {
	line := strings.Join(args, " ")
	f.ran = append(f.ran, line)
	a, ok := f.answers[line]
	if !ok {
		return nil, []byte("no answer for " + line), errors.New("exit status 1")
	}
	if a.fail {
		return nil, []byte(a.stderr), errors.New("exit status 1")
	}
	return []byte(a.stdout), []byte(a.stderr), nil
}

// withKubectl puts an executable named kubectl first on PATH.
func withKubectl(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "kubectl"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
}

func TestArgs(t *testing.T) {
	withKubectl(t)
	f := &fakeRun{answers: map[string]answer{"config current-context --kubeconfig=/home/jane/.kube/dev --request-timeout=20s": {stdout: "kind-dev\n"}}}
	c, err := New(Options{Kubeconfig: "/home/jane/.kube/dev", RequestTimeout: "20s"}, f.run)
	if err != nil {
		t.Fatal(err)
	}
	if c.Context() != "kind-dev" || c.Where() != "cluster:kind-dev" {
		t.Errorf("context %q, where %q; want kind-dev, cluster:kind-dev", c.Context(), c.Where())
	}
	// Without --context, kubectl talks to the current context: no --context
	// flag is added, so the kubeconfig stays the only authority.
	for _, tc := range []struct {
		got  []string
		want string
	}{
		{c.PoliciesArgs("shop"), "get limitranges,resourcequotas -n shop -o json --kubeconfig=/home/jane/.kube/dev --request-timeout=20s"},
		{c.ClassesArgs(), "get priorityclasses.scheduling.k8s.io,storageclasses.storage.k8s.io,runtimeclasses.node.k8s.io -o json --kubeconfig=/home/jane/.kube/dev --request-timeout=20s"},
		{c.NamesArgs("shop", "deployments.apps"), "get deployments.apps -n shop -o name --kubeconfig=/home/jane/.kube/dev --request-timeout=20s"},
	} {
		if got := strings.Join(tc.got, " "); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}

	// With --context, no current-context is asked for.
	f = &fakeRun{}
	c, err = New(Options{Context: "prod"}, f.run)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.ran) != 0 {
		t.Errorf("ran %q, want nothing", f.ran)
	}
	if got, want := strings.Join(c.NamesArgs("shop", "pods"), " "), "get pods -n shop -o name --context=prod"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestPoliciesAndNames(t *testing.T) {
	withKubectl(t)
	quota := `{"apiVersion":"v1","items":[` +
		`{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"limits","namespace":"shop"},"spec":{"limits":[{"type":"Container","max":{"cpu":"1"}}]}},` +
		`{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"compute","namespace":"shop","managedFields":[{"manager":"kubectl","operation":"Update"}]},"spec":{"hard":{"pods":"10"}},"status":{"hard":{"pods":"10"},"used":{"pods":"7"}}}` +
		`],"kind":"List","metadata":{"resourceVersion":""}}`
	classes := `{"apiVersion":"v1","items":[{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"high"},"value":1000}],"kind":"List","metadata":{"resourceVersion":""}}`
	f := &fakeRun{answers: map[string]answer{
		"get limitranges,resourcequotas -n shop -o json --context=prod":  {stdout: quota},
		"get limitranges,resourcequotas -n empty -o json --context=prod": {stdout: `{"apiVersion":"v1","items":[],"kind":"List","metadata":{"resourceVersion":""}}`},
		"get " + ClassResources + " -o json --context=prod":              {stdout: classes},
		"get pods -n shop -o name --context=prod":                        {stdout: "pod/web\npod/api-7d4b9c-x2x8q\n"},
		"get deployments.apps -n empty -o name --context=prod":           {stderr: "No resources found in empty namespace.\n"},
		"get widgets.example.com -n shop -o name --context=prod":         {stderr: `error: the server doesn't have a resource type "widgets"` + "\n", fail: true},
	}}
	c, err := New(Options{Context: "prod"}, f.run)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := c.Policies([]string{"empty", "shop"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		got = append(got, d.Pos.File+" "+d.Kind)
	}
	want := []string{
		"cluster:prod/namespaces/shop/limitranges/limits LimitRange",
		"cluster:prod/namespaces/shop/resourcequotas/compute ResourceQuota",
		"cluster:prod/priorityclasses/high PriorityClass",
	}
	if !slices.Equal(got, want) {
		t.Errorf("documents\n%q\nwant\n%q", got, want)
	}
	q, ok := docs[1].Object.(*corev1.ResourceQuota)
	if !ok {
		t.Fatalf("quota decoded as %T", docs[1].Object)
	}
	if used := q.Status.Used[corev1.ResourcePods]; used.String() != "7" {
		t.Errorf("status.used pods = %s, want 7", used.String())
	}
	names, err := c.Names("shop", "pods")
	if err != nil || !slices.Equal(names, []string{"web", "api-7d4b9c-x2x8q"}) {
		t.Errorf("Names = %q, %v", names, err)
	}
	names, err = c.Names("empty", "deployments.apps")
	if err != nil || len(names) != 0 {
		t.Errorf("Names of nothing = %q, %v", names, err)
	}
	// A custom resource whose CRD is not installed yet: nothing exists.
	names, err = c.Names("shop", "widgets.example.com")
	if err != nil || len(names) != 0 {
		t.Errorf("Names of an unserved resource = %q, %v", names, err)
	}
}

func TestParseNames(t *testing.T) {
	names, err := ParseNames([]byte("deployment.apps/web\nwidget.example.com/a-b\n\n"))
	if err != nil || !slices.Equal(names, []string{"web", "a-b"}) {
		t.Errorf("ParseNames = %q, %v", names, err)
	}
	_, err = ParseNames([]byte("web\n"))
	if got, want := errString(err), `reading kubectl get -o name: "web" is not KIND/NAME`; got != want {
		t.Errorf("error %q\nwant  %q", got, want)
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func TestErrors(t *testing.T) {
	withKubectl(t)
	for _, tc := range []struct {
		name, stderr, want string
		namespaces         []string
	}{
		{
			name:       "forbidden",
			stderr:     `Error from server (Forbidden): resourcequotas is forbidden: User "jane" cannot list resource "resourcequotas" in API group "" in the namespace "shop"` + "\n",
			namespaces: []string{"shop"},
			want:       `cannot list resourcequotas in namespace shop: forbidden (kubectl: Error from server (Forbidden): resourcequotas is forbidden: User "jane" cannot list resource "resourcequotas" in API group "" in the namespace "shop")`,
		},
		{
			name:   "forbidden classes",
			stderr: `Error from server (Forbidden): runtimeclasses.node.k8s.io is forbidden: User "jane" cannot list resource "runtimeclasses" in API group "node.k8s.io" at the cluster scope` + "\n",
			want:   `cannot list runtimeclasses.node.k8s.io at the cluster scope: forbidden (kubectl: Error from server (Forbidden): runtimeclasses.node.k8s.io is forbidden: User "jane" cannot list resource "runtimeclasses" in API group "node.k8s.io" at the cluster scope)`,
		},
		{
			name: "unreachable",
			stderr: `E1122 10:00:00.000000   12345 memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \"https://127.0.0.1:6443/api?timeout=32s\": dial tcp 127.0.0.1:6443: connect: connection refused"` + "\n" +
				"The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?\n",
			namespaces: []string{"shop"},
			want:       `cannot reach the cluster of context "prod" (kubectl: The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?)`,
		},
		{
			name:       "no such context",
			stderr:     "error: context \"prod\" does not exist\n",
			namespaces: []string{"shop"},
			want:       `no context "prod" in the kubeconfig (kubectl: error: context "prod" does not exist)`,
		},
		{
			name:       "other",
			stderr:     "error: You must be logged in to the server (Unauthorized)\n",
			namespaces: []string{"shop"},
			want:       `kubectl get limitranges,resourcequotas -n shop -o json --context=prod (context "prod"): error: You must be logged in to the server (Unauthorized)`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answers := map[string]answer{
				"get " + ClassResources + " -o json --context=prod": {stderr: tc.stderr, fail: true},
			}
			for _, ns := range tc.namespaces {
				answers["get limitranges,resourcequotas -n "+ns+" -o json --context=prod"] = answer{stderr: tc.stderr, fail: true}
			}
			c, err := New(Options{Context: "prod"}, (&fakeRun{answers: answers}).run)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Policies(tc.namespaces)
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T), want *Error", err, err)
			}
			if ce.Msg != tc.want {
				t.Errorf("error\n%s\nwant\n%s", ce.Msg, tc.want)
			}
		})
	}
}

func TestMissingKubectl(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := New(Options{}, nil)
	want := `--from-cluster needs kubectl on PATH (or --kubectl): ` + (&exec.Error{Name: "kubectl", Err: exec.ErrNotFound}).Error()
	if got := errString(err); got != want {
		t.Errorf("error %q\nwant  %q", got, want)
	}
	if HasContext(Options{}, nil) {
		t.Error("HasContext without kubectl = true")
	}
}

func TestNoCurrentContext(t *testing.T) {
	withKubectl(t)
	f := &fakeRun{answers: map[string]answer{"config current-context": {stderr: "error: current-context is not set\n", fail: true}}}
	_, err := New(Options{}, f.run)
	if got, want := errString(err), "--from-cluster: no current context in the kubeconfig; give --context (kubectl: error: current-context is not set)"; got != want {
		t.Errorf("error %q\nwant  %q", got, want)
	}
	if HasContext(Options{}, f.run) {
		t.Error("HasContext with no current context = true")
	}
	if !HasContext(Options{Context: "prod"}, f.run) {
		t.Error("HasContext with --context = false")
	}
}
