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
	// namespaces are the live Namespaces by name ("forbidden": not readable).
	namespaces map[string]string
	asked      []string
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

func (f *fakeLive) Namespaces(names []string) ([]load.Document, []string, error) {
	f.asked = append(f.asked, "namespaces "+strings.Join(names, ","))
	var docs []load.Document
	var forbidden []string
	for _, name := range names {
		text, ok := f.namespaces[name]
		switch {
		case !ok:
			continue
		case text == "forbidden":
			forbidden = append(forbidden, name)
			continue
		}
		err := load.ReadStream("cluster:test", strings.NewReader(text), load.Options{NewObject: eval.NewObject}, func(d load.Document) bool {
			if d.Err != nil {
				f.t.Fatal(d.Err)
			}
			d.Pos = load.Position{File: "cluster:test/namespaces/" + d.Name, Item: -1}
			docs = append(docs, d)
			return true
		})
		if err != nil {
			return nil, nil, err
		}
	}
	return docs, forbidden, nil
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
	want := []string{"policies quiet,shop", "namespaces quiet,shop", "names shop deployments.apps", "names shop pods"}
	if !slices.Equal(live.asked, want) {
		t.Errorf("asked\n%q\nwant\n%q", live.asked, want)
	}

	live = &fakeLive{t: t, policies: livePolicies}
	runLive(t, live, check.Options{Engine: eval.Options{DefaultNamespace: "team"}}, map[string]string{
		"a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\n",
	})
	want = []string{"policies team", "namespaces team", "names team configmaps"}
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

// TestLivePodSecurity (PS-01, CL-01): a live namespace's pod-security labels
// govern the input's Pods; the input's Namespace of the name replaces it;
// a namespace the credentials may not read is said, not an error.
func TestLivePodSecurity(t *testing.T) {
	const restricted = "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop, resourceVersion: '42', uid: 5b2f, labels: {kubernetes.io/metadata.name: shop, pod-security.kubernetes.io/enforce: restricted}}\nspec: {finalizers: [kubernetes]}\nstatus: {phase: Active}\n"
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\nspec: {containers: [{name: c, image: i}]}\n"
	firstDenial := func(rep *check.Report) string {
		for _, e := range rep.Entries {
			if e.Result.Kind == "Pod" && e.Result.Denial != nil {
				return e.Result.Denial.Message
			}
		}
		return ""
	}

	live := &fakeLive{t: t, namespaces: map[string]string{"shop": restricted}}
	rep := runLive(t, live, check.Options{}, map[string]string{"pod.yaml": pod})
	if got := firstDenial(rep); !strings.HasPrefix(got, `pods "web" is forbidden: violates PodSecurity "restricted:latest": `) {
		t.Errorf("Pod in the live restricted namespace: %q", got)
	}
	if n := noteOf(rep, "cluster:test"); !strings.Contains(n, "live Namespace shop") {
		t.Errorf("note %q does not say the namespace was read", n)
	}

	live = &fakeLive{t: t, namespaces: map[string]string{"shop": restricted}}
	rep = runLive(t, live, check.Options{}, map[string]string{"pod.yaml": pod, "ns.yaml": "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop, labels: {pod-security.kubernetes.io/enforce: privileged}}\n"})
	if got := firstDenial(rep); got != "" {
		t.Errorf("the input's privileged Namespace replaces the live one; the Pod was refused: %q", got)
	}
	if n := noteOf(rep, "cluster:test"); !strings.Contains(n, "Namespace shop replaced by the input's") {
		t.Errorf("note %q", n)
	}

	// Labels that do not parse on an existing namespace: the plugin fails
	// closed for enforce (restricted, latest).
	live = &fakeLive{t: t, namespaces: map[string]string{"shop": strings.Replace(restricted, "enforce: restricted", "enforce: strict", 1)}}
	rep = runLive(t, live, check.Options{}, map[string]string{"pod.yaml": pod})
	if got := firstDenial(rep); !strings.HasPrefix(got, `pods "web" is forbidden: violates PodSecurity "restricted:latest": `) {
		t.Errorf("Pod in a live namespace with enforce: strict: %q", got)
	}

	live = &fakeLive{t: t, namespaces: map[string]string{"shop": "forbidden"}}
	rep = runLive(t, live, check.Options{}, map[string]string{"pod.yaml": pod})
	if got := firstDenial(rep); got != "" {
		t.Errorf("unreadable namespace: the Pod was refused: %q", got)
	}
	if n, want := noteOf(rep, "cluster:test"), "namespace shop not readable (forbidden): only the input's Namespaces set Pod Security levels"; !strings.Contains(n, want) {
		t.Errorf("note %q, want it to contain %q", n, want)
	}
}

func noteOf(rep *check.Report, file string) string {
	for _, n := range rep.Notes {
		if n.File == file {
			return n.Msg
		}
	}
	return ""
}
