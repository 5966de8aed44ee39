package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestRealKubectl runs the kubectl found on PATH against a small stand-in
// API server: the command lines limitcheck builds must be accepted by a real
// kubectl, and its output and error messages read as the tests with a fake
// kubectl assume. Skipped where no kubectl is installed.
func TestRealKubectl(t *testing.T) {
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Skip("no kubectl on PATH")
	}
	srv := httptest.NewServer(http.HandlerFunc(apiServer))
	defer srv.Close()
	home := t.TempDir()
	t.Setenv("HOME", home) // kubectl's discovery cache
	t.Setenv("KUBECONFIG", "")
	kubeconfig := filepath.Join(home, "config")
	config := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: stand-in
  cluster: {server: %q}
contexts:
- name: stand-in
  context: {cluster: stand-in, user: jane}
current-context: stand-in
users:
- name: jane
  user: {token: not-checked}
`, srv.URL)
	if err := os.WriteFile(kubeconfig, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := New(Options{Kubeconfig: kubeconfig, RequestTimeout: "10s"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Context() != "stand-in" {
		t.Errorf("context %q, want stand-in", c.Context())
	}
	docs, err := c.Policies([]string{"shop"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		got = append(got, d.Pos.File)
	}
	want := []string{
		"cluster:stand-in/namespaces/shop/limitranges/limits",
		"cluster:stand-in/namespaces/shop/resourcequotas/compute",
		"cluster:stand-in/priorityclasses/high",
	}
	if !slices.Equal(got, want) {
		t.Errorf("documents\n%q\nwant\n%q", got, want)
	}
	if len(docs) == 3 {
		q, ok := docs[1].Object.(*corev1.ResourceQuota)
		if !ok {
			t.Fatalf("quota decoded as %T", docs[1].Object)
		}
		if used := q.Status.Used[corev1.ResourceRequestsCPU]; used.String() != "3700m" {
			t.Errorf("status.used requests.cpu = %s, want 3700m", used.String())
		}
	}
	names, err := c.Names("shop", "pods")
	if err != nil || !slices.Equal(names, []string{"api-7d4b9c-x2x8q", "web"}) {
		t.Errorf("pods: %q, %v", names, err)
	}
	names, err = c.Names("shop", "deployments.apps")
	if err != nil || !slices.Equal(names, []string{"web"}) {
		t.Errorf("deployments.apps: %q, %v", names, err)
	}
	// A custom resource the server does not serve: no names, no error.
	names, err = c.Names("shop", "widgets.example.com")
	if err != nil || len(names) != 0 {
		t.Errorf("widgets.example.com: %q, %v", names, err)
	}
	_, err = c.Policies([]string{"secret"})
	var ce *Error
	wantMsg := `cannot list resourcequotas in namespace secret: forbidden (kubectl: Error from server (Forbidden): resourcequotas is forbidden: User "jane" cannot list resource "resourcequotas" in API group "" in the namespace "secret")`
	if !errors.As(err, &ce) || ce.Msg != wantMsg {
		t.Errorf("forbidden:\n%v\nwant\n%s", err, wantMsg)
	}

	// A context the kubeconfig does not have.
	nope, err := New(Options{Kubeconfig: kubeconfig, Context: "nope"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = nope.Names("shop", "pods")
	if !errors.As(err, &ce) || !strings.HasPrefix(ce.Msg, `no context "nope" in the kubeconfig (kubectl: `) {
		t.Errorf("unknown context:\n%v", err)
	}

	srv.Close()
	_, err = c.Policies([]string{"shop"})
	wantPrefix := `cannot reach the cluster of context "stand-in" (kubectl: `
	if !errors.As(err, &ce) || !strings.HasPrefix(ce.Msg, wantPrefix) || strings.Contains(ce.Msg, "memcache.go") {
		t.Errorf("unreachable:\n%v\nwant %s…, klog's lines left out", err, wantPrefix)
	}
}

// apiServer answers the discovery and list requests kubectl makes.
func apiServer(w http.ResponseWriter, r *http.Request) {
	resources := func(gv string, list ...string) any {
		var rs []map[string]any
		for _, l := range list {
			name, kind, _ := strings.Cut(l, ":")
			rs = append(rs, map[string]any{"name": name, "singularName": strings.ToLower(kind), "namespaced": kind != "PriorityClass" && kind != "StorageClass" && kind != "RuntimeClass",
				"kind": kind, "verbs": []string{"get", "list"}})
		}
		return map[string]any{"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": rs}
	}
	group := func(name string) map[string]any {
		v := map[string]any{"groupVersion": name + "/v1", "version": "v1"}
		return map[string]any{"name": name, "versions": []any{v}, "preferredVersion": v}
	}
	list := func(apiVersion, kind string, items ...string) any {
		var its []json.RawMessage
		for _, i := range items {
			its = append(its, json.RawMessage(i))
		}
		if its == nil {
			its = []json.RawMessage{}
		}
		return map[string]any{"apiVersion": apiVersion, "kind": kind + "List", "metadata": map[string]any{"resourceVersion": "1"}, "items": its}
	}
	var body any
	switch r.URL.Path {
	case "/api":
		body = map[string]any{"kind": "APIVersions", "versions": []string{"v1"}, "serverAddressByClientCIDRs": []any{map[string]any{"clientCIDR": "0.0.0.0/0", "serverAddress": r.Host}}}
	case "/apis":
		body = map[string]any{"kind": "APIGroupList", "apiVersion": "v1", "groups": []any{group("apps"), group("scheduling.k8s.io"), group("storage.k8s.io"), group("node.k8s.io")}}
	case "/api/v1":
		body = resources("v1", "limitranges:LimitRange", "resourcequotas:ResourceQuota", "pods:Pod", "configmaps:ConfigMap")
	case "/apis/apps/v1":
		body = resources("apps/v1", "deployments:Deployment")
	case "/apis/scheduling.k8s.io/v1":
		body = resources("scheduling.k8s.io/v1", "priorityclasses:PriorityClass")
	case "/apis/storage.k8s.io/v1":
		body = resources("storage.k8s.io/v1", "storageclasses:StorageClass")
	case "/apis/node.k8s.io/v1":
		body = resources("node.k8s.io/v1", "runtimeclasses:RuntimeClass")
	case "/api/v1/namespaces/shop/limitranges":
		body = list("v1", "LimitRange", `{"metadata":{"name":"limits","namespace":"shop"},"spec":{"limits":[{"type":"Container","max":{"cpu":"1"}}]}}`)
	case "/api/v1/namespaces/shop/resourcequotas":
		body = list("v1", "ResourceQuota", `{"metadata":{"name":"compute","namespace":"shop"},"spec":{"hard":{"requests.cpu":"4"}},"status":{"hard":{"requests.cpu":"4"},"used":{"requests.cpu":"3700m"}}}`)
	case "/api/v1/namespaces/secret/limitranges":
		body = list("v1", "LimitRange")
	case "/api/v1/namespaces/secret/resourcequotas":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"resourcequotas is forbidden: User \"jane\" cannot list resource \"resourcequotas\" in API group \"\" in the namespace \"secret\"","reason":"Forbidden","details":{"kind":"resourcequotas"},"code":403}`)
		return
	case "/api/v1/namespaces/shop/pods":
		body = list("v1", "Pod", `{"metadata":{"name":"api-7d4b9c-x2x8q","namespace":"shop"}}`, `{"metadata":{"name":"web","namespace":"shop"}}`)
	case "/apis/apps/v1/namespaces/shop/deployments":
		body = list("apps/v1", "Deployment", `{"metadata":{"name":"web","namespace":"shop"}}`)
	case "/apis/scheduling.k8s.io/v1/priorityclasses":
		body = list("scheduling.k8s.io/v1", "PriorityClass", `{"metadata":{"name":"high"},"value":1000}`)
	case "/apis/storage.k8s.io/v1/storageclasses":
		body = list("storage.k8s.io/v1", "StorageClass")
	case "/apis/node.k8s.io/v1/runtimeclasses":
		body = list("node.k8s.io/v1", "RuntimeClass")
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource (%s)","reason":"NotFound","code":404}`, r.URL.Path)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(body)
}
