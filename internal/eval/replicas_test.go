package eval

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/limitcheck/limitcheck/internal/eval/resources"
)

var (
	replicaCases = flag.Int("replica-cases", 60, "random cases of TestReplicaArithmetic")
	replicaSeed  = flag.Int64("replica-seed", 1, "seed of TestReplicaArithmetic (0: time)")
)

// TestReplicaArithmetic (WL-03): the engine that computes runs of identical
// replicas gives, on random namespaces and workloads, exactly the results of
// the engine that creates every replica: verdicts, every created entry with
// its message, object and fold count, and the final quota usage.
func TestReplicaArithmetic(t *testing.T) {
	seed := *replicaSeed
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	rng := rand.New(rand.NewSource(seed))
	computed := 0
	cases := replicaRegressions
	for range *replicaCases {
		docs, nodes := randomReplicaCase(rng)
		cases = append(cases, replicaCase{docs, nodes})
	}
	for c, tc := range cases {
		docs, nodes := tc.docs, tc.nodes
		fast := New(Options{DefaultNamespace: "ns", Nodes: nodes})
		exact := New(Options{DefaultNamespace: "ns", Nodes: nodes, EveryReplica: true})
		for d, doc := range docs {
			got, want := fast.Admit(decode(t, doc)), exact.Admit(decode(t, doc))
			if g, w := resultJSON(t, got), resultJSON(t, want); g != w {
				t.Fatalf("seed %d case %d document %d:\n%s\ncomputed:\n%s\ncreated one by one:\n%s", seed, c, d, doc, g, w)
			}
			if got.Workload != nil {
				for _, cr := range got.Workload.Created {
					computed += cr.Repeat
				}
			}
		}
		if g, w := quotasJSON(t, fast), quotasJSON(t, exact); g != w {
			t.Fatalf("seed %d case %d: quotas differ:\n%s\ncomputed:\n%s\ncreated one by one:\n%s", seed, c, strings.Join(docs, "---\n"), g, w)
		}
	}
	if computed == 0 {
		t.Fatalf("seed %d: no replica was folded: the cases do not exercise the arithmetic", seed)
	}
	t.Logf("seed %d: %d cases, %d folded replicas", seed, *replicaCases, computed)
}

func resultJSON(t *testing.T, r Result) string {
	t.Helper()
	type entry struct {
		Result
		Object json.RawMessage
	}
	conv := func(r Result) entry {
		b, err := json.Marshal(r.Object)
		if err != nil {
			t.Fatal(err)
		}
		r.Object = nil
		return entry{r, b}
	}
	out := []entry{conv(r)}
	if r.Workload != nil {
		for _, c := range r.Workload.Created {
			out = append(out, conv(c))
		}
		out[0].Workload = &Workload{Replicas: r.Workload.Replicas, Admitted: r.Workload.Admitted, NotCreated: r.Workload.NotCreated, Adopted: r.Workload.Adopted, Note: r.Workload.Note}
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func quotasJSON(t *testing.T, e *Engine) string {
	t.Helper()
	var out []string
	for _, q := range e.Quotas() {
		for _, name := range resources.SortedNames(q.Quota.Status.Used) {
			used, hard := q.Quota.Status.Used[name], q.Quota.Status.Hard[name]
			out = append(out, fmt.Sprintf("%s %s used %s hard %s", q.Quota.Name, name, used.String(), hard.String()))
		}
	}
	return strings.Join(out, "\n")
}

type replicaCase struct {
	docs  []string
	nodes int
}

// replicaRegressions are cases the random ones reach rarely.
var replicaRegressions = []replicaCase{
	// A used amount in exponent format leaves it when it becomes an integer
	// (1000 × 1e-3 = 1, printed "1"): runs must not jump over that replica.
	{docs: []string{
		"apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec: {hard: {requests.cpu: '7', requests.memory: 1Ti}}",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1500\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: i, resources: {requests: {cpu: 1e-3, memory: 1.5e3}}}]",
	}, nodes: 1},
	// A quota created after the replicas recounts them (the folded ones too).
	{docs: []string{
		"apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web}\nspec:\n  replicas: 700\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: web, image: i, resources: {requests: {cpu: 1e-3, memory: 1Ki}}}]",
		"apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec: {hard: {requests.cpu: '7', requests.memory: 1Ti, pods: '1000'}}",
	}, nodes: 1},
	// A claim created for each Pod and refused (WL-06): the Pods go on being
	// created, each claim refused alike, until the Pods' own quota binds.
	{docs: []string{
		"apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: claims}\nspec: {hard: {persistentvolumeclaims: '2', requests.storage: 5Gi}}",
		"apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: pods}\nspec: {hard: {pods: '480', requests.cpu: '100'}}",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: scratch}\nspec:\n  replicas: 700\n  selector: {matchLabels: {app: s}}\n  template:\n    metadata: {labels: {app: s}}\n    spec:\n      containers: [{name: c, image: i, resources: {requests: {cpu: 10m}}, volumeMounts: [{name: tmp, mountPath: /tmp}]}]\n      volumes: [{name: tmp, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 2Gi}}}}}}]",
	}, nodes: 1},
	// The same with two claims per Pod, one a quota counts in both: the
	// second claim is refused from the first replica, the first from the
	// third; and a Job, whose Pods are not replaced.
	{docs: []string{
		"apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: claims}\nspec: {hard: {persistentvolumeclaims: '3', pods: '600'}}",
		"apiVersion: batch/v1\nkind: Job\nmetadata: {name: batch}\nspec:\n  parallelism: 650\n  completions: 650\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: i, volumeMounts: [{name: a, mountPath: /a}, {name: b, mountPath: /b}]}]\n      volumes:\n      - {name: a, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}}}\n      - {name: b, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 30Gi}}}}}}",
	}, nodes: 1},
}

func pick[T any](rng *rand.Rand, xs ...T) T { return xs[rng.Intn(len(xs))] }

// randomReplicaCase is a namespace's policies, some Pods, and workloads with
// replica counts around the created list's folding limit and across digit
// boundaries, in quantities of every format.
func randomReplicaCase(rng *rand.Rand) (docs []string, nodes int) {
	if rng.Intn(2) == 0 {
		docs = append(docs, fmt.Sprintf(`apiVersion: v1
kind: LimitRange
metadata: {name: lr}
spec:
  limits:
  - type: Container
    default: {cpu: %s, memory: %s}
    defaultRequest: {cpu: %s, memory: %s}
    max: {cpu: %s}
  - type: PersistentVolumeClaim
    max: {storage: %s}`,
			pick(rng, "500m", "1", "2e0"), pick(rng, "256Mi", "1e9", "300M"),
			pick(rng, "100m", "0.25", "1e-1"), pick(rng, "128Mi", "1e8", "100M", "1Ki"),
			pick(rng, "2", "4", "900m"), pick(rng, "1Ti", "5Gi", "2e12")))
	}
	for q := range rng.Intn(3) {
		var hard []string
		for _, r := range []struct{ name, values string }{
			{"pods", "0 1 7 150 1000 5000 20000"},
			{"requests.cpu", "1 7 250 2500m 1e3 100k"},
			{"requests.memory", "3Gi 1e9 5000Mi 700M 64Gi 1e12 1Ti"},
			{"limits.cpu", "5 500 2k"},
			{"limits.memory", "10Gi 1e11 256Gi"},
			{"count/pods", "300 3000"},
			{"requests.storage", "10Gi 1e12 3Ti 500G"},
			{"persistentvolumeclaims", "5 400 10000"},
		} {
			if rng.Intn(3) == 0 {
				hard = append(hard, fmt.Sprintf("%s: %q", r.name, pick(rng, strings.Fields(r.values)...)))
			}
		}
		if len(hard) == 0 {
			hard = append(hard, `pods: "400"`)
		}
		scope := pick(rng, "", "", "", "\n  scopes: [NotBestEffort]", "\n  scopes: [BestEffort]")
		docs = append(docs, fmt.Sprintf("apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q%d}\nspec:\n  hard: {%s}%s", q, strings.Join(hard, ", "), scope))
	}
	for p := range rng.Intn(3) {
		docs = append(docs, fmt.Sprintf("apiVersion: v1\nkind: Pod\nmetadata: {name: p%d}\nspec:\n  containers: [{name: c, image: i, resources: {requests: {memory: %s, cpu: %s}}}]",
			p, pick(rng, "100M", "1Mi", "1e6", "512Ki"), pick(rng, "10m", "1", "1e-2")))
	}
	resources := func() string {
		return pick(rng, "{}", "{requests: {cpu: 100m, memory: 128Mi}}", "{requests: {cpu: 250m, memory: 1e8}}",
			"{requests: {cpu: '0.3', memory: 100M}, limits: {cpu: '1', memory: 200M}}", "{limits: {cpu: 3}}",
			"{requests: {memory: 1Ki}}", "{requests: {cpu: 1e-3, memory: 1e3}}")
	}
	name := func() string {
		return pick(rng, "w", "web", strings.Repeat("n", 55), strings.Repeat("s", 61), strings.Repeat("l", 58))
	}
	replicas := func() int {
		return pick(rng, 0, 1, 5, 99, 100, 101, 102, 103, 150, 250, 1000, 1200, 2500)
	}
	nodes = pick(rng, 1, 3, 120, 1500)
	for w := range 1 + rng.Intn(3) {
		n := fmt.Sprintf("%s%d", name(), w)
		n = n[:min(len(n), 63)]
		tmpl := fmt.Sprintf("template:\n    metadata: {labels: {app: a%d}}\n    spec:\n      containers: [{name: c, image: i, resources: %s}]", w, resources())
		sel := fmt.Sprintf("selector: {matchLabels: {app: a%d}}", w)
		switch rng.Intn(6) {
		case 0:
			docs = append(docs, fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s}\nspec:\n  replicas: %d\n  %s\n  %s", n, replicas(), sel, tmpl))
		case 1:
			docs = append(docs, fmt.Sprintf("apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: %s}\nspec:\n  replicas: %d\n  %s\n  %s", n, replicas(), sel, tmpl))
		case 2:
			docs = append(docs, fmt.Sprintf("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: %s}\nspec:\n  %s\n  %s", n, sel, tmpl))
		case 3:
			mode := pick(rng, "NonIndexed", "Indexed")
			p := replicas()
			docs = append(docs, fmt.Sprintf("apiVersion: batch/v1\nkind: Job\nmetadata: {name: %s}\nspec:\n  parallelism: %d\n  completions: %d\n  completionMode: %s\n  %s",
				n, p, p+rng.Intn(3), mode, strings.Replace(tmpl, "containers:", "restartPolicy: Never\n      containers:", 1)))
		default:
			claims := ""
			for c := range rng.Intn(3) {
				claims += fmt.Sprintf("\n  - metadata: {name: d%d}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: %s}}}", c, pick(rng, "1Gi", "1e9", "500M", "2Ti"))
			}
			if claims != "" {
				claims = "\n  volumeClaimTemplates:" + claims
			}
			docs = append(docs, fmt.Sprintf("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: %s}\nspec:\n  replicas: %d\n  podManagementPolicy: %s\n  ordinals: {start: %d}\n  serviceName: s\n  %s\n  %s%s",
				n, replicas(), pick(rng, "OrderedReady", "Parallel"), pick(rng, 0, 0, 7, 95, 995, 9990), sel, tmpl, claims))
		}
	}
	if len(docs) > 1 && rng.Intn(3) == 0 {
		// Policies after the objects: the quota controller recounts them.
		docs = append(docs[1:], docs[0])
	}
	return docs, nodes
}

// WL-03, WL-06: a workload whose Pods are all admitted while the claim
// created for each is refused costs what there is to say, not its replica
// count: int32 max replicas under a claims-only quota.
func TestRefusedClaimsAtAnyCount(t *testing.T) {
	e := New(Options{DefaultNamespace: "ns"})
	e.Admit(decode(t, "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: claims}\nspec: {hard: {persistentvolumeclaims: '1'}}"))
	res := e.Admit(decode(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: scratch}\nspec:\n  replicas: 2147483647\n  selector: {matchLabels: {app: s}}\n  template:\n    metadata: {labels: {app: s}}\n    spec:\n      containers: [{name: c, image: i, volumeMounts: [{name: tmp, mountPath: /tmp}]}]\n      volumes: [{name: tmp, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 2Gi}}}}}}]"))
	w := res.Workload
	if w == nil || w.Replicas != 2147483647 || w.Admitted != 1 {
		t.Fatalf("workload: %v, want int32 max replicas, only the first running (its claim admitted)", w != nil)
	}
	if len(w.Created) > CreatedListLimit+8 {
		t.Errorf("%d created entries: the run was not folded", len(w.Created))
	}
	refused := 0
	for _, c := range w.Created {
		if c.Kind == "PersistentVolumeClaim" && !c.Allowed {
			refused += 1 + c.Repeat
		}
	}
	if refused != 2147483647-1 {
		t.Errorf("%d claims refused, want all but the first", refused)
	}
}
