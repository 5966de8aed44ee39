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
	"time"

	"github.com/limitcheck/limitcheck/internal/readme"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// fromCluster runs limitcheck with --from-cluster against kubeconfig through
// the plane's kubectl, in dir; it returns stdout, stderr and the exit code.
func fromCluster(t *testing.T, dir, kubeconfig string, args ...string) (string, string, int) {
	t.Helper()
	full := append([]string{"check", "--from-cluster", "--kubectl", env.kubectl, "--kubeconfig", kubeconfig}, args...)
	cmd := exec.Command(env.limitcheck, full...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// pod is a bare Pod whose one container requests cpu and memory, with
// limits (cpu 1, memory 512Mi) so that LimitRange defaults leave it alone.
func pod(ns, name, cpu, memory string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "app:1",
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(memory)},
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("512Mi")},
			}}}},
	}
}

// applyState creates objects in a namespace on the plane: policies (quotas
// waited for), then the rest; it fails t on any refusal.
func applyState(t *testing.T, ns string, yamlDocs string, pods ...*corev1.Pod) {
	t.Helper()
	ctx := context.Background()
	docs, err := SplitYAML([]byte(yamlDocs))
	if err != nil {
		t.Fatal(err)
	}
	c := &Case{Name: "state of " + ns, Namespace: ns, Docs: docs}
	rep, err := env.replayer.Run(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range rep.Outcomes {
		if !o.Allowed || o.Error != "" {
			t.Fatalf("state of %s: %s %s refused: %d %s %s", ns, o.Kind, o.Name, o.Code, o.Message, o.Error)
		}
	}
	for _, p := range pods {
		if _, err := env.replayer.Core.CoreV1().Pods(ns).Create(ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatalf("state of %s: %v", ns, err)
		}
	}
	// The quotas count the Pods: wait until status.used has them.
	if _, err := env.replayer.settledQuotas(ctx, ns); err != nil {
		t.Fatal(err)
	}
}

// verify replays the documents of files (in dir) on the plane and compares
// each verdict, created object and final quota with limitcheck's JSON
// report of the same input against the same cluster state.
func verify(t *testing.T, name, dir, kubeconfig string, files ...string) {
	t.Helper()
	out, stderr, code := fromCluster(t, dir, kubeconfig, append([]string{"-o", "json"}, files...)...)
	if code != 0 && code != 1 {
		t.Fatalf("%s: limitcheck exit %d: %s", name, code, stderr)
	}
	var rep Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	c := &Case{Name: name, Namespace: "default", ReplaceLive: true}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		docs, err := SplitYAML(b)
		if err != nil {
			t.Fatal(err)
		}
		for i := range docs {
			c.Sources = append(c.Sources, Source{File: f, Index: i})
		}
		c.Docs = append(c.Docs, docs...)
	}
	real, err := env.replayer.Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	var st Stats
	if diffs := Compare(c, real, &rep, &st); len(diffs) > 0 {
		t.Errorf("%s: the cluster differs from limitcheck --from-cluster:\n  %s\nlimitcheck: %s", name, strings.Join(diffs, "\n  "), out)
	}
	if st.Objects == 0 {
		t.Errorf("%s: nothing compared", name)
	}
}

// TestFromCluster checks --from-cluster against the plane: live quota usage
// counted, a live LimitRange applied, an existing name refused with 409, an
// input LimitRange replacing the live one; then an unreachable server and a
// list RBAC forbids.
func TestFromCluster(t *testing.T) {
	needPlane(t)
	if *flagReplay != "" {
		t.Skip("-replay")
	}
	const policy = `
apiVersion: v1
kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    defaultRequest: {cpu: 200m}
    default: {cpu: 500m}
    max: {cpu: "1"}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute}
spec:
  hard: {requests.cpu: "4", pods: "10"}
`
	app := func(ns string) string {
		return strings.ReplaceAll(`apiVersion: v1
kind: Pod
metadata: {name: small, namespace: NS}
spec:
  containers: [{name: app, image: app:1}]
---
apiVersion: v1
kind: Pod
metadata: {name: worker, namespace: NS}
spec:
  containers:
  - name: app
    image: app:1
    resources: {requests: {cpu: 300m}, limits: {cpu: 500m}}
---
apiVersion: v1
kind: Pod
metadata: {name: big, namespace: NS}
spec:
  containers:
  - name: app
    image: app:1
    resources: {requests: {cpu: 100m}, limits: {cpu: "2"}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: NS}
data: {k: v}
`, "NS", ns)
	}
	// Two namespaces in the same state: one to check and replay the input
	// as it is, one with a replacing LimitRange.
	dir := t.TempDir()
	for _, ns := range []string{"fc-live", "fc-replace"} {
		var pods []*corev1.Pod
		for i := 0; i < 4; i++ { // 3700m of the quota's 4 CPUs
			pods = append(pods, pod(ns, fmt.Sprintf("api-%d", i), "925m", "64Mi"))
		}
		applyState(t, ns, strings.ReplaceAll(policy, "{name: ", "{namespace: "+ns+", name: ")+`
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: `+ns+`}
data: {k: v}
`, pods...)
		if err := os.WriteFile(filepath.Join(dir, ns+".yaml"), []byte(app(ns)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	replacing := `apiVersion: v1
kind: LimitRange
metadata: {name: limits, namespace: fc-replace}
spec:
  limits:
  - type: Container
    defaultRequest: {cpu: 100m}
    default: {cpu: 500m}
    max: {cpu: "2"}
`
	if err := os.WriteFile(filepath.Join(dir, "replacing.yaml"), []byte(replacing), 0o644); err != nil {
		t.Fatal(err)
	}

	t.Run("live state", func(t *testing.T) {
		out, stderr, code := fromCluster(t, dir, env.plane.Kubeconfig, "fc-live.yaml")
		if code != 1 {
			t.Fatalf("exit %d, want 1\n%s%s", code, out, stderr)
		}
		for _, want := range []string{
			// small gets the live default request 200m: 3900m used.
			// worker's 300m no longer fits the live usage.
			`Pod fc-live/worker: pods "worker" is forbidden: exceeded quota: compute, requested: requests.cpu=300m, used: requests.cpu=3900m, limited: requests.cpu=4`,
			// The live LimitRange's max.
			`Pod fc-live/big: pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2`,
			// An existing name.
			`ConfigMap fc-live/settings: configmaps "settings" already exists`,
			"note: checked against the cluster: live LimitRange fc-live/limits, ResourceQuota fc-live/compute",
			"4 objects: 1 admitted, 3 denied, 0 skipped",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
		out, _, _ = fromCluster(t, dir, env.plane.Kubeconfig, "-o", "json", "fc-live.yaml")
		if !strings.Contains(out, `"code": 409`) {
			t.Errorf("no 409 in the JSON report:\n%s", out)
		}
		verify(t, "fc-live.yaml", dir, env.plane.Kubeconfig, "fc-live.yaml")
	})

	t.Run("input LimitRange replaces the live one", func(t *testing.T) {
		out, stderr, code := fromCluster(t, dir, env.plane.Kubeconfig, "replacing.yaml", "fc-replace.yaml")
		if code != 1 {
			t.Fatalf("exit %d, want 1\n%s%s", code, out, stderr)
		}
		for _, want := range []string{
			"LimitRange fc-replace/limits replaced by the input's",
			// small's request is now the input's 100m: 3800m used;
			// worker's 300m does not fit, big's 100m does.
			`Pod fc-replace/worker: pods "worker" is forbidden: exceeded quota: compute, requested: requests.cpu=300m, used: requests.cpu=3800m, limited: requests.cpu=4`,
			"5 objects: 3 admitted, 2 denied, 0 skipped",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
		if strings.Contains(out, `Pod fc-replace/big:`) {
			t.Errorf("big is refused, though the replacing LimitRange allows 2 CPUs:\n%s", out)
		}
		verify(t, "replacing.yaml fc-replace.yaml", dir, env.plane.Kubeconfig, "replacing.yaml", "fc-replace.yaml")
	})

	t.Run("unreachable server", func(t *testing.T) {
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		kc := filepath.Join(dir, "unreachable.kubeconfig")
		if err := WriteKubeconfig(kc, fmt.Sprintf("https://127.0.0.1:%d", port), env.plane.CAFile, env.plane.AdminToken, "gone"); err != nil {
			t.Fatal(err)
		}
		out, stderr, code := fromCluster(t, dir, kc, "--request-timeout=5s", "fc-live.yaml")
		if code != 2 || !strings.HasPrefix(stderr, `Error: cannot reach the cluster of context "gone" (kubectl: `) {
			t.Errorf("exit %d, want 2 and cannot reach the cluster\nstdout: %s\nstderr: %s", code, out, stderr)
		}
	})

	t.Run("forbidden list", func(t *testing.T) {
		// The restricted user may list LimitRanges in fc-live, nothing else.
		ctx := context.Background()
		rbac := env.replayer.Core.RbacV1()
		role := &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "limitranges-reader", Namespace: "fc-live"},
			Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"limitranges"}, Verbs: []string{"get", "list"}}}}
		if _, err := rbac.Roles("fc-live").Create(ctx, role, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		rb := &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "limitranges-reader", Namespace: "fc-live"},
			RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "limitranges-reader"},
			Subjects: []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: RestrictedUser}}}
		if _, err := rbac.RoleBindings("fc-live").Create(ctx, rb, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		// RBAC's authorizer reads bindings from an informer: wait until
		// the user may list LimitRanges.
		if err := waitFor(ctx, 30*time.Second, "the role binding to take effect", func() (bool, error) {
			out, err := exec.Command(env.kubectl, "--kubeconfig", env.plane.RestrictedKubeconfig, "auth", "can-i", "list", "limitranges", "-n", "fc-live").Output()
			return err == nil && strings.TrimSpace(string(out)) == "yes", nil
		}); err != nil {
			t.Fatal(err)
		}
		out, stderr, code := fromCluster(t, dir, env.plane.RestrictedKubeconfig, "fc-live.yaml")
		want := `Error: cannot list resourcequotas in namespace fc-live: forbidden (kubectl: `
		if code != 2 || !strings.HasPrefix(stderr, want) {
			t.Errorf("exit %d, want 2 and %q\nstdout: %s\nstderr: %s", code, want, out, stderr)
		}
	})
}

// readmeShop builds, in namespace shop of the plane, the cluster the README's
// "Against your cluster" section describes (and cmd/limitcheck's stand-in
// kubectl serves from cmd/limitcheck/testdata/readme-cluster): the quick
// start's LimitRange, quota compute with 14 Pods using 3950m CPU and 5376Mi,
// the ConfigMap web-config and the claim pgdata.
func readmeShop(t *testing.T, root string) {
	t.Helper()
	policy, err := os.ReadFile(filepath.Join(root, "examples/quickstart/policy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var pods []*corev1.Pod
	for i := 1; i <= 13; i++ {
		pods = append(pods, pod("shop", fmt.Sprintf("api-%d", i), "250m", "384Mi"))
	}
	pods = append(pods, pod("shop", "report", "700m", "384Mi"))
	applyState(t, "shop", string(policy)+`
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: shop}
spec:
  hard: {pods: "20", requests.cpu: "4", requests.memory: 8Gi}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: web-config, namespace: shop}
data: {greeting: hi}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: pgdata, namespace: shop}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
`, pods...)
}

// TestREADMEAgainstYourCluster runs the --from-cluster examples of the
// README's "Against your cluster" section against the plane holding the
// state they describe, with a kubeconfig whose context is prod, and compares
// their output with the README byte for byte; then it replays each example's
// input on the plane and compares the verdicts with limitcheck's.
func TestREADMEAgainstYourCluster(t *testing.T) {
	needPlane(t)
	if *flagReplay != "" {
		t.Skip("-replay")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	readmeText, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	section, ok := readme.Section(string(readmeText), "Against your cluster")
	if !ok {
		t.Fatal(`README has no "## Against your cluster" section`)
	}
	examples := readme.Examples(section)
	if len(examples) < 2 {
		t.Fatalf("the section has %d console examples, want 2", len(examples))
	}
	readmeShop(t, root)
	kc := filepath.Join(t.TempDir(), "prod.kubeconfig")
	if err := WriteKubeconfig(kc, env.plane.URL, env.plane.CAFile, env.plane.AdminToken, "prod"); err != nil {
		t.Fatal(err)
	}
	// kubectl on PATH and KUBECONFIG, as the reader runs the examples.
	t.Setenv("PATH", env.binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("KUBECONFIG", kc)
	for i, ex := range examples {
		cmd := exec.Command(env.limitcheck, ex.Args...)
		cmd.Dir = root
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		_ = cmd.Run()
		if out.String() != ex.Want {
			t.Errorf("README example %d (limitcheck %s) against the plane prints:\n%s\nthe README shows:\n%s\nstderr: %s",
				i+1, strings.Join(ex.Args, " "), out.String(), ex.Want, errOut.String())
		}
	}
	// The predictions, replayed: the first example changes nothing on the
	// cluster (every object is refused), the second replaces the quota.
	for i, ex := range examples {
		var files []string
		for _, a := range ex.Args {
			if strings.HasSuffix(a, ".yaml") {
				files = append(files, a)
			}
		}
		verify(t, fmt.Sprintf("README example %d", i+1), root, kc, files...)
	}
}
