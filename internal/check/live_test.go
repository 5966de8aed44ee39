package check_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/load"
)

// fakeLive serves policies from YAML and names from a table, and records
// what it was asked.
type fakeLive struct {
	t        *testing.T
	policies string
	names    map[string][]string // "namespace resource"
	asked    []string
}

func (f *fakeLive) Where() string { return "cluster:test" }

func (f *fakeLive) Policies(namespaces []string) ([]load.Document, error) {
	f.asked = append(f.asked, "policies "+strings.Join(namespaces, ","))
	var docs []load.Document
	err := load.ReadStream("cluster:test", strings.NewReader(f.policies), load.Options{NewObject: eval.NewObject}, func(d load.Document) bool {
		if d.Err != nil {
			f.t.Fatal(d.Err)
		}
		d.Pos = load.Position{File: "cluster:test/" + d.Kind + "/" + d.Name, Item: -1}
		docs = append(docs, d)
		return true
	})
	return docs, err
}

func (f *fakeLive) Names(namespace, resource string) ([]string, error) {
	f.asked = append(f.asked, "names "+namespace+" "+resource)
	return f.names[namespace+" "+resource], nil
}

const livePolicies = `
apiVersion: v1
kind: LimitRange
metadata: {name: limits, namespace: shop}
spec: {limits: [{type: Container, max: {cpu: "1"}, default: {cpu: 500m}, defaultRequest: {cpu: 200m}}]}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: shop}
spec: {hard: {requests.cpu: "4", pods: "10"}}
status: {hard: {requests.cpu: "4", pods: "10"}, used: {requests.cpu: 3700m, pods: "7"}}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: best-effort, namespace: shop}
spec: {hard: {pods: "3"}, scopes: [BestEffort]}
status: {hard: {pods: "3"}, used: {pods: "2"}}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
`

func runLive(t *testing.T, live *fakeLive, opts check.Options, files map[string]string) *check.Report {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		opts.Paths = append(opts.Paths, p)
	}
	slices.Sort(opts.Paths)
	opts.Live = live
	rep, err := check.Run(opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestLiveAsks: the namespaces the input writes to are read (the default
// one only when an object names none), names only for the namespaced kinds
// the input creates there, each resource once.
func TestLiveAsks(t *testing.T) {
	live := &fakeLive{t: t, policies: livePolicies}
	runLive(t, live, check.Options{Engine: eval.Options{DefaultNamespace: "team"}}, map[string]string{
		"a.yaml": `
apiVersion: v1
kind: Pod
metadata: {name: a, namespace: shop}
spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: b, namespace: shop}
spec: {containers: [{name: c, image: i}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec: {replicas: 0, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}}
---
apiVersion: v1
kind: LimitRange
metadata: {name: lr, namespace: quiet}
spec: {limits: [{type: Container, max: {cpu: "1"}}]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: reader}
`})
	want := []string{"policies quiet,shop", "names shop deployments.apps", "names shop pods"}
	if !slices.Equal(live.asked, want) {
		t.Errorf("asked\n%q\nwant\n%q", live.asked, want)
	}

	live = &fakeLive{t: t, policies: livePolicies}
	runLive(t, live, check.Options{Engine: eval.Options{DefaultNamespace: "team"}}, map[string]string{
		"a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n",
	})
	want = []string{"policies team", "names team configmaps"}
	if !slices.Equal(live.asked, want) {
		t.Errorf("asked\n%q\nwant\n%q", live.asked, want)
	}
}

// TestLiveReplaces: the input's quota of a live one's name replaces it and,
// with the same scopes, starts from its usage; the live quota of other
// scopes and the live LimitRange stay; an existing name is a 409.
func TestLiveReplaces(t *testing.T) {
	live := &fakeLive{t: t, policies: livePolicies, names: map[string][]string{"shop pods": {"taken"}}}
	rep := runLive(t, live, check.Options{}, map[string]string{
		"a.yaml": `
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: shop}
spec: {hard: {requests.cpu: "6", pods: "20"}}
---
apiVersion: v1
kind: Pod
metadata: {name: worker, namespace: shop}
spec: {containers: [{name: c, image: i, resources: {requests: {cpu: 300m}, limits: {cpu: 300m}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: taken, namespace: shop}
spec: {containers: [{name: c, image: i, resources: {requests: {cpu: 100m}}}]}
`})
	var got []string
	for _, e := range rep.Entries {
		v := "admitted"
		switch {
		case e.Result.Skipped:
			v = "skipped"
		case !e.Result.Allowed:
			v = e.Result.Denial.Message
		}
		got = append(got, filepath.Base(e.Pos.File)+" "+e.Result.Kind+" "+e.Result.Name+": "+v)
	}
	want := []string{
		"limits LimitRange limits: admitted",
		"best-effort ResourceQuota best-effort: admitted",
		"high PriorityClass high: skipped",
		"a.yaml ResourceQuota compute: admitted",
		"a.yaml Pod worker: admitted",
		`a.yaml Pod taken: pods "taken" already exists`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("entries\n%q\nwant\n%q", got, want)
	}
	var used []string
	for _, q := range rep.Quotas {
		for _, name := range []string{"requests.cpu", "pods"} {
			if v, ok := q.Quota.Status.Used[corev1.ResourceName(name)]; ok {
				used = append(used, q.Quota.Name+" "+name+"="+v.String())
			}
		}
	}
	// compute: 3700m live + 300m + 100m charged before the 409; pods 7 + 2.
	wantUsed := []string{"best-effort pods=2", "compute requests.cpu=4100m", "compute pods=9"}
	if !slices.Equal(used, wantUsed) {
		t.Errorf("used %q, want %q", used, wantUsed)
	}
	for _, e := range rep.Entries {
		if e.Result.Kind == "ResourceQuota" && len(e.Result.Warnings) > 0 {
			t.Errorf("%s warns %q; its usage is the live one", e.Result.Name, e.Result.Warnings)
		}
	}
	if s := rep.Summary(); s.Objects != 3 || s.Admitted != 2 || s.Denied != 1 {
		t.Errorf("summary %+v, want 3 objects, 2 admitted, 1 denied", s)
	}
	wantNote := "cluster:test: checked against the cluster: live LimitRange shop/limits, ResourceQuota shop/best-effort, PriorityClass high; ResourceQuota shop/compute replaced by the input's; existing names in shop: pods 1"
	if len(rep.Notes) == 0 || rep.Notes[0].String() != wantNote {
		t.Errorf("notes %q\nwant %q", rep.Notes, wantNote)
	}
}

// TestLiveReplacesOtherScopes: a replacing quota with other scopes than the
// live one counts nothing of the live usage (the cluster's objects it would
// match are unknown), and an input class replaces the live one.
func TestLiveReplacesOtherScopes(t *testing.T) {
	live := &fakeLive{t: t, policies: livePolicies}
	rep := runLive(t, live, check.Options{}, map[string]string{
		"a.yaml": `
apiVersion: v1
kind: ResourceQuota
metadata: {name: best-effort, namespace: shop}
spec: {hard: {pods: "3"}, scopes: [NotBestEffort]}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 5
`})
	for _, q := range rep.Quotas {
		if q.Quota.Name == "best-effort" {
			if v := q.Quota.Status.Used[corev1.ResourcePods]; v.String() != "0" {
				t.Errorf("best-effort pods used = %s, want 0", v.String())
			}
		}
	}
	wantWarning := []string{"usage of pods counts the input's objects only: the cluster's existing objects, which the quota controller would count, are not read"}
	for _, e := range rep.Entries {
		if e.Result.Kind == "ResourceQuota" && !e.Live && !slices.Equal(e.Result.Warnings, wantWarning) {
			t.Errorf("%s warnings %q, want %q", e.Result.Name, e.Result.Warnings, wantWarning)
		}
	}
	wantNote := "cluster:test: checked against the cluster: live LimitRange shop/limits, ResourceQuota shop/compute; ResourceQuota shop/best-effort, PriorityClass high replaced by the input's"
	if len(rep.Notes) == 0 || rep.Notes[0].String() != wantNote {
		t.Errorf("notes %q\nwant %q", rep.Notes, wantNote)
	}
}
