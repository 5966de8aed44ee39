package e2e

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	flagCases  = flag.Int("cases", 500, "random cases of the conformance generators to replay")
	flagSeed   = flag.Uint64("seed", 1, "generator seed")
	flagReplay = flag.String("replay", "", "replay only the case saved in this directory")
	flagSave   = flag.String("save", "", "directory the cases that differ are saved to (default: a new temporary directory)")
	flagShow   = flag.Int("show", 10, "differences to print in full")
)

// env is the control plane and tools the tests share.
var env struct {
	plane      *Plane
	replayer   *Replayer
	limitcheck string // the limitcheck binary, built from ../
	kubectl    string
	binDir     string
	work       string
	save       string
	// classes is held exclusively by cases that bring cluster-scoped
	// classes, shared by the others.
	classes sync.RWMutex
}

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, "e2e: "+format+"\n", args...) }
	if testing.Short() {
		logf("-short: no control plane")
		return m.Run()
	}
	var err error
	if env.binDir, err = CacheDir(); err != nil {
		logf("%v", err)
		return 1
	}
	wd, _ := os.Getwd()
	if err := EnsureBinaries(env.binDir, wd, logf); err != nil {
		logf("%v", err)
		return 1
	}
	env.kubectl = Bin(env.binDir, "kubectl")
	if env.work, err = os.MkdirTemp("", "limitcheck-e2e-"); err != nil {
		logf("%v", err)
		return 1
	}
	defer os.RemoveAll(env.work)
	env.limitcheck = filepath.Join(env.work, "limitcheck")
	// limitcheck-cel beside it: the helper that evaluates CRDs' rules
	build := exec.Command("go", "build", "-o", env.work+string(os.PathSeparator), "./cmd/limitcheck", "./cmd/limitcheck-cel")
	build.Dir = filepath.Join(wd, "..")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		logf("building limitcheck: %v", err)
		return 1
	}
	env.save = *flagSave
	if env.save == "" {
		if env.save, err = os.MkdirTemp("", "limitcheck-e2e-diffs-"); err != nil {
			logf("%v", err)
			return 1
		}
	}
	ctx := context.Background()
	planeDir := filepath.Join(env.work, "plane")
	if err := os.MkdirAll(planeDir, 0o755); err != nil {
		logf("%v", err)
		return 1
	}
	env.plane, err = StartPlane(ctx, PlaneOptions{BinDir: env.binDir, Dir: planeDir, Logf: logf})
	if err != nil {
		logf("starting the control plane: %v", err)
		return 1
	}
	defer env.plane.Stop()
	// Interrupted: stop the plane and leave no process behind.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		logf("interrupted: stopping the control plane")
		env.plane.Stop()
		os.RemoveAll(env.work)
		os.Exit(2)
	}()
	if env.replayer, err = NewReplayer(env.plane.RESTConfig()); err != nil {
		logf("%v", err)
		return 1
	}
	// The plane answers: wait for the controllers to populate namespace
	// default, and register the one node DaemonSets run on.
	if err := env.replayer.CreateNamespace(ctx, "default"); err != nil {
		logf("%v\nkube-controller-manager:\n%s", err, env.plane.Log("kube-controller-manager"))
		return 1
	}
	if err := createNode(ctx); err != nil {
		logf("registering node: %v", err)
		return 1
	}
	logf("control plane up in %s (%s)", env.plane.Started.Round(100*time.Millisecond), env.plane.URL)
	return m.Run()
}

// needPlane skips a test that replays on the control plane when there is
// none (-short: the harness's own unit tests only).
func needPlane(t *testing.T) {
	t.Helper()
	if env.plane == nil {
		t.Skip("-short: no control plane")
	}
}

// nodeName is the one Node of the plane: no kubelet runs it, but DaemonSets
// create a Pod for it, as limitcheck does with --nodes 1.
const nodeName = "e2e-node"

func createNode(ctx context.Context) error {
	// The labels every kubelet sets (a DaemonSet selecting kubernetes.io/os:
	// linux, as most do, runs on it).
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: nodeName, Labels: map[string]string{
		"kubernetes.io/hostname": nodeName, "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64"}}}
	created, err := env.replayer.Core.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	if err == nil && len(created.Spec.Taints) > 0 {
		// TaintNodesByCondition taints a new node not-ready; a kubelet
		// would clear it.
		created.Spec.Taints = nil
		_, err = env.replayer.Core.CoreV1().Nodes().Update(ctx, created, metav1.UpdateOptions{})
	}
	return err
}

// cleanClasses deletes the classes a case created.
func cleanClasses(ctx context.Context) error {
	core := env.replayer.Core
	pcs, err := core.SchedulingV1().PriorityClasses().List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, pc := range pcs.Items {
		if !strings.HasPrefix(pc.Name, "system-") {
			if err := core.SchedulingV1().PriorityClasses().Delete(ctx, pc.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				return err
			}
		}
	}
	if err := core.StorageV1().StorageClasses().DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
		return err
	}
	if err := core.NodeV1().RuntimeClasses().DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
		return err
	}
	return cleanClusterObjects(ctx)
}

// cleanClusterObjects deletes the objects of clusterWide kinds a case
// created: every webhook configuration, IngressClass and PersistentVolume
// (the plane starts with none), the APIServices of a Service (the plane's
// own are local), and the ClusterRoles and ClusterRoleBindings that are not
// the RBAC bootstrap policy's.
func cleanClusterObjects(ctx context.Context) error {
	core := env.replayer.Core
	opts := metav1.ListOptions{}
	if err := core.AdmissionregistrationV1().ValidatingWebhookConfigurations().DeleteCollection(ctx, metav1.DeleteOptions{}, opts); err != nil {
		return err
	}
	if err := core.AdmissionregistrationV1().MutatingWebhookConfigurations().DeleteCollection(ctx, metav1.DeleteOptions{}, opts); err != nil {
		return err
	}
	if err := core.NetworkingV1().IngressClasses().DeleteCollection(ctx, metav1.DeleteOptions{}, opts); err != nil {
		return err
	}
	if err := core.CoreV1().PersistentVolumes().DeleteCollection(ctx, metav1.DeleteOptions{}, opts); err != nil {
		return err
	}
	notBootstrap := metav1.ListOptions{LabelSelector: "!kubernetes.io/bootstrapping"}
	if err := core.RbacV1().ClusterRoleBindings().DeleteCollection(ctx, metav1.DeleteOptions{}, notBootstrap); err != nil {
		return err
	}
	if err := core.RbacV1().ClusterRoles().DeleteCollection(ctx, metav1.DeleteOptions{}, notBootstrap); err != nil {
		return err
	}
	gvr := schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
	list, err := env.replayer.Dyn.Resource(gvr).List(ctx, opts)
	if err != nil {
		return err
	}
	for _, a := range list.Items {
		if svc, _, _ := unstructured.NestedMap(a.Object, "spec", "service"); svc != nil {
			if err := env.replayer.Dyn.Resource(gvr).Delete(ctx, a.GetName(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				return err
			}
		}
	}
	return nil
}

// isolate takes the cluster for c: alone when c brings classes, other
// cluster-wide objects or node ports (they apply to every namespace or are
// the cluster's; those of earlier cases must be gone, and c's are deleted
// when release is called), shared with other such cases otherwise.
func isolate(ctx context.Context, c *Case) (release func(), err error) {
	if !c.HasClasses() && !c.HasClusterObjects() && !c.HasNodePorts() {
		env.classes.RLock()
		return env.classes.RUnlock, nil
	}
	env.classes.Lock()
	release = func() {
		_ = cleanClasses(ctx)
		env.classes.Unlock()
	}
	if err := cleanClasses(ctx); err != nil {
		env.classes.Unlock()
		return nil, err
	}
	if c.HasNodePorts() {
		if err := waitNodePortsFree(ctx); err != nil {
			release()
			return nil, err
		}
	}
	return release, nil
}

// runCase replays c and checks it with limitcheck; it returns the
// differences (saving the case when there are some).
func runCase(ctx context.Context, c *Case, st *Stats) ([]string, error) {
	release, err := isolate(ctx, c)
	if err != nil {
		return nil, err
	}
	defer release()
	dir, err := os.MkdirTemp(env.work, "case-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	rep, raw, err := RunLimitcheck(env.limitcheck, dir, c)
	if err != nil {
		return nil, err
	}
	real, err := env.replayer.Run(ctx, c)
	if err != nil {
		return nil, err
	}
	defer deleteNamespaces(ctx, c)
	st.Cases++
	diffs := Compare(c, real, rep, &Stats{})
	if len(diffs) > 0 {
		// kube-apiserver lists a namespace's LimitRanges and quotas in
		// map order (docs/behaviour.md LR-21, LR-22): what limitcheck shows
		// under another order of them is not a difference.
		if diffs, err = orderExplained(c, real, dir, diffs, st); err != nil {
			return nil, err
		}
	}
	_ = Compare(c, real, rep, st) // the statistics, once
	if len(diffs) > 0 {
		out := filepath.Join(env.save, safeName(c.Name))
		if err := c.Save(out); err != nil {
			return diffs, err
		}
		_ = os.WriteFile(filepath.Join(out, "limitcheck.json"), raw, 0o644)
		_ = os.WriteFile(filepath.Join(out, "differences.txt"), []byte(strings.Join(diffs, "\n")+"\n"), 0o644)
		diffs = append(diffs, "case saved to "+out+" (go test -run TestReplay -replay "+out+")")
	}
	return diffs, nil
}

// orderExplained runs limitcheck on c with its LimitRanges, and its quotas,
// in every other order (each kind among its own positions) and keeps the
// differences found under every order.
func orderExplained(c *Case, real *Replay, dir string, diffs []string, st *Stats) ([]string, error) {
	var lrs, qs []int
	for i, d := range c.Docs {
		switch t := metaOf(d); {
		case t.APIVersion == "v1" && t.Kind == "LimitRange":
			lrs = append(lrs, i)
		case t.APIVersion == "v1" && t.Kind == "ResourceQuota":
			qs = append(qs, i)
		}
	}
	if len(lrs) < 2 && len(qs) < 2 || len(lrs) > 4 || len(qs) > 4 {
		return diffs, nil
	}
	left := map[string]bool{}
	for _, d := range diffs {
		left[d] = true
	}
	for _, pl := range permutations(len(lrs)) {
		for _, pq := range permutations(len(qs)) {
			alt := *c
			alt.Docs = append([][]byte(nil), c.Docs...)
			for k, j := range pl {
				alt.Docs[lrs[k]] = c.Docs[lrs[j]]
			}
			for k, j := range pq {
				alt.Docs[qs[k]] = c.Docs[qs[j]]
			}
			rep, _, err := RunLimitcheck(env.limitcheck, dir, &alt)
			if err != nil {
				return nil, err
			}
			now := map[string]bool{}
			for _, d := range Compare(&alt, real, rep, &Stats{}) {
				now[d] = true
			}
			for d := range left {
				if !now[d] {
					delete(left, d)
				}
			}
		}
	}
	var out []string
	for _, d := range diffs {
		if left[d] {
			out = append(out, d)
		}
	}
	if n := len(diffs) - len(out); n > 0 {
		st.OrderExplained += n
	}
	return out, nil
}

// permutations of 0..n-1, the identity first.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{nil}
	}
	var out [][]int
	var rec func(prefix []int, rest []int)
	rec = func(prefix, rest []int) {
		if len(rest) == 0 {
			out = append(out, append([]int(nil), prefix...))
			return
		}
		for i := range rest {
			r := append(append([]int(nil), rest[:i]...), rest[i+1:]...)
			rec(append(prefix, rest[i]), r)
		}
	}
	id := make([]int, n)
	for i := range id {
		id[i] = i
	}
	rec(nil, id)
	return out
}

// waitNodePortsFree waits until no Service holds a node port (earlier cases'
// namespaces are being deleted).
func waitNodePortsFree(ctx context.Context) error {
	return waitFor(ctx, 2*time.Minute, "the node ports of earlier cases to be released", func() (bool, error) {
		l, err := env.replayer.Core.CoreV1().Services("").List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		for _, s := range l.Items {
			for _, p := range s.Spec.Ports {
				if p.NodePort != 0 {
					return false, nil
				}
			}
		}
		return true, nil
	})
}

// deleteNamespaces deletes the case's namespaces without waiting, so that
// their controllers stop retrying; their Services first, whose node ports
// the next case with node ports waits for (waitNodePortsFree).
func deleteNamespaces(ctx context.Context, c *Case) {
	for _, ns := range c.Namespaces() {
		if ns == "default" {
			continue
		}
		if l, err := env.replayer.Core.CoreV1().Services(ns).List(ctx, metav1.ListOptions{}); err == nil {
			for _, svc := range l.Items {
				_ = env.replayer.Core.CoreV1().Services(ns).Delete(ctx, svc.Name, metav1.DeleteOptions{})
			}
		}
		_ = env.replayer.Core.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{})
	}
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '_':
			return r
		}
		return '_'
	}, s)
}

// report logs the differences of cases and fails t when there are some.
type tally struct {
	mu     sync.Mutex
	st     Stats
	diffs  int
	shown  int
	errors int
}

func (tl *tally) add(t *testing.T, c *Case, diffs []string) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	if len(diffs) == 0 {
		return
	}
	tl.diffs++
	if tl.shown < *flagShow {
		tl.shown++
		n := len(diffs)
		if strings.HasPrefix(diffs[n-1], "case saved to ") {
			n-- // where the case is, not a difference
		}
		t.Errorf("%s: %d differences:\n  %s", c.Name, n, strings.Join(diffs, "\n  "))
	} else {
		t.Fail()
	}
}

// fail records a case the harness could not replay, saving it.
func (tl *tally) fail(t *testing.T, c *Case, err error) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	tl.errors++
	out := filepath.Join(env.save, safeName(c.Name))
	_ = c.Save(out)
	t.Errorf("%s: not replayed: %v (case saved to %s)", c.Name, err, out)
}

func (tl *tally) merge(s Stats) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	tl.st.Cases += s.Cases
	tl.st.Objects += s.Objects
	tl.st.Workloads += s.Workloads
	tl.st.PodsCompared += s.PodsCompared
	tl.st.Quotas += s.Quotas
	tl.st.OrderExplained += s.OrderExplained
	tl.st.Described += s.Described
	tl.st.Streams += s.Streams
	for k, n := range s.NotCompared {
		tl.st.skip(k)
		tl.st.NotCompared[k] += n - 1
	}
}

func (tl *tally) summary(t *testing.T, what string, start time.Time) {
	s := &tl.st
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d cases, %d objects (%d workloads), %d created Pods compared, %d quotas, %d cases with differences, %s",
		what, s.Cases, s.Objects, s.Workloads, s.PodsCompared, s.Quotas, tl.diffs, time.Since(start).Round(time.Second))
	if s.Described > 0 {
		fmt.Fprintf(&b, "\n  describe commands compared with kubectl describe: %d", s.Described)
	}
	if s.Streams > 0 {
		fmt.Fprintf(&b, "\n  inputs given to kubectl create -f as they are (syntax errors, IN-14; kinds kubectl maps, API-01): %d", s.Streams)
	}
	if tl.errors > 0 {
		fmt.Fprintf(&b, "\n  cases the harness failed to replay: %d", tl.errors)
	}
	if s.OrderExplained > 0 {
		fmt.Fprintf(&b, "\n  differences accepted as LimitRange/quota listing order (limitcheck agrees under another order, LR-22): %d", s.OrderExplained)
	}
	for k, n := range s.NotCompared {
		fmt.Fprintf(&b, "\n  not compared: %s: %d", k, n)
	}
	t.Log(b.String())
	fmt.Println("E2E " + b.String())
}

func TestReplay(t *testing.T) {
	needPlane(t)
	if *flagReplay == "" {
		t.Skip("-replay DIR not given")
	}
	c, err := LoadCase(*flagReplay)
	if err != nil {
		t.Fatal(err)
	}
	var tl tally
	start := time.Now()
	diffs, err := runCase(context.Background(), c, &tl.st)
	if err != nil {
		t.Fatal(err)
	}
	tl.add(t, c, diffs)
	tl.summary(t, "replay", start)
}

// runDescribe replays c and compares, namespace by namespace, kubectl
// describe TYPES on the plane with limitcheck describe TYPES of the same
// input; it returns the differences.
func runDescribe(ctx context.Context, c *Case, types string) ([]string, error) {
	release, err := isolate(ctx, c)
	if err != nil {
		return nil, err
	}
	defer release()
	dir, err := os.MkdirTemp(env.work, "describe-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if _, err := env.replayer.Run(ctx, c); err != nil {
		return nil, err
	}
	defer deleteNamespaces(ctx, c)
	var diffs []string
	for _, ns := range c.Namespaces() {
		// limitcheck -n, like kubectl, refuses objects of other namespaces:
		// its input is the namespace's documents and the cluster-scoped ones.
		sub := *c
		sub.Docs = nil
		for _, d := range c.Docs {
			switch m := metaOf(d); {
			case m.Kind == "Namespace" && m.Metadata.Name != ns:
			case m.Metadata.Namespace == "" || m.Metadata.Namespace == ns:
				sub.Docs = append(sub.Docs, d)
			}
		}
		if !slices.ContainsFunc(sub.Docs, func(d []byte) bool { return metaOf(d).Metadata.Namespace == ns }) {
			continue // nothing of the input is in it
		}
		in := filepath.Join(dir, ns+".yaml")
		if err := os.WriteFile(in, sub.Stream(), 0o644); err != nil {
			return nil, err
		}
		real, err := exec.Command(env.kubectl, "--kubeconfig", env.plane.Kubeconfig, "describe", types, "-n", ns).Output()
		if err != nil {
			return nil, fmt.Errorf("kubectl describe %s -n %s: %v", types, ns, err)
		}
		args := append([]string{"describe", types, "-n", ns}, c.Flags...)
		if c.InputOrder {
			args = append(args, "--order=input")
		}
		lc, err := exec.Command(env.limitcheck, append(args, "-f", in)...).Output()
		if ee, ok := err.(*exec.ExitError); ok && (ee.ExitCode() == 1 || ee.ExitCode() == 2) {
			// Something was denied (1) or could not be read (2): it is
			// not part of the state described, as with check (RunLimitcheck).
			err = nil
		}
		if err != nil {
			return nil, fmt.Errorf("limitcheck %s: %v", strings.Join(args, " "), err)
		}
		if r, l := describeRows(string(real)), describeRows(string(lc)); r != l {
			diffs = append(diffs, fmt.Sprintf("describe %s -n %s: kubectl prints\n%s\nlimitcheck prints\n%s", types, ns, real, lc))
		}
	}
	return diffs, nil
}

// describeRows is kubectl describe's output with the rows of each
// LimitRange item sorted: kubectl prints an item's resources in map order
// (limitcheck sorts them, docs/behaviour.md DESC-01).
func describeRows(s string) string {
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "----") || i == 0 || !strings.HasPrefix(lines[i-1], "Type ") {
			continue
		}
		start := i + 1
		for j := start; j <= len(lines); j++ {
			if j == len(lines) || lines[j] == "" || strings.Fields(lines[j])[0] != strings.Fields(lines[start])[0] {
				sort.Strings(lines[start:j])
				if j == len(lines) || lines[j] == "" {
					i = j
					break
				}
				start = j
			}
		}
	}
	return strings.Join(lines, "\n")
}
