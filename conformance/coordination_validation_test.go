package conformance

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/apis/apps"
	"k8s.io/kubernetes/pkg/apis/coordination"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	core "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/events/install"
	"k8s.io/kubernetes/pkg/registry/apps/controllerrevision"
	"k8s.io/kubernetes/pkg/registry/coordination/lease"
	"k8s.io/kubernetes/pkg/registry/core/event"

	"github.com/limitcheck/limitcheck/internal/eval/features"
)

var (
	flagMiscCases = flag.Int("misc-cases", 4000, "number of random Leases, ControllerRevisions and events.k8s.io Events")
	flagMiscSeed  = flag.Uint64("misc-seed", 1, "Lease, ControllerRevision and events.k8s.io Event generator seed")
)

// miscKinds are the namespaced kinds of TestMiscValidationParity: the
// served version, the upstream types, the strategy and the resource.
var miscKinds = map[string]struct {
	apiVersion, resource string
	ext, internal        func() runtime.Object
	strategy             rest.RESTCreateStrategy
}{
	"Lease": {"coordination.k8s.io/v1", "leases",
		func() runtime.Object { return &coordinationv1.Lease{} }, func() runtime.Object { return &coordination.Lease{} }, lease.Strategy},
	"ControllerRevision": {"apps/v1", "controllerrevisions",
		func() runtime.Object { return &appsv1.ControllerRevision{} }, func() runtime.Object { return &apps.ControllerRevision{} }, controllerrevision.Strategy},
	"Event": {"events.k8s.io/v1", "events",
		func() runtime.Object { return &eventsv1.Event{} }, func() runtime.Object { return &core.Event{} }, event.Strategy},
}

type miscGen struct{ r *rand.Rand }

func (g *miscGen) chance(p float64) bool { return g.r.Float64() < p }
func (g *miscGen) pick(xs ...any) any    { return xs[g.r.IntN(len(xs))] }

func (g *miscGen) meta(i int, prefix string) map[string]any {
	m := map[string]any{"name": fmt.Sprintf("%s-%d", prefix, i)}
	switch {
	case g.chance(0.88):
	case g.chance(0.5):
		m["name"] = g.pick("Bad_Name", "a..b", "-x", strings.Repeat("a", 254), "a/b")
	case g.chance(0.5):
		delete(m, "name")
		m["generateName"] = g.pick(prefix+"-", "Gen_")
	default:
		delete(m, "name")
	}
	if g.chance(0.05) {
		m["labels"] = map[string]any{"bad key!": "x"}
	}
	if g.chance(0.05) {
		m["finalizers"] = []any{g.pick("custom", "example.com/keep", "kubernetes")}
	}
	if g.chance(0.1) {
		m["namespace"] = g.pick("ns1", "other")
	}
	return m
}

func (g *miscGen) lease(i int) map[string]any {
	spec := map[string]any{}
	if g.chance(0.7) {
		spec["holderIdentity"] = g.pick("node-1", "controller-abc")
	}
	if g.chance(0.6) {
		spec["leaseDurationSeconds"] = g.pick(15, 40, 0, -1, 1)
	}
	if g.chance(0.4) {
		spec["leaseTransitions"] = g.pick(0, 3, -1, -100)
	}
	if g.chance(0.3) {
		spec["acquireTime"] = "2026-01-02T03:04:05.000000Z"
		spec["renewTime"] = "2026-01-02T03:05:05.123456Z"
	}
	if g.chance(0.15) {
		spec["strategy"] = g.pick("OldestEmulationVersion", "Bad", "example.com/custom", "a/b/c")
	}
	if g.chance(0.15) {
		spec["preferredHolder"] = g.pick("node-2", "")
	}
	return map[string]any{"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": g.meta(i, "lease"), "spec": spec}
}

func (g *miscGen) controllerRevision(i int) map[string]any {
	m := map[string]any{"apiVersion": "apps/v1", "kind": "ControllerRevision", "metadata": g.meta(i, "rev")}
	switch {
	case g.chance(0.7):
		m["data"] = map[string]any{"spec": map[string]any{"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "a"}}}}}
	case g.chance(0.2):
	default:
		m["data"] = g.pick(nil, "text", 5, []any{1, 2}, true, map[string]any{})
	}
	if g.chance(0.8) {
		m["revision"] = g.pick(1, 2, 0, -1, 9007199254740991)
	}
	return m
}

func (g *miscGen) event(i int) map[string]any {
	m := map[string]any{"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": g.meta(i, "ev")}
	if g.chance(0.93) {
		m["eventTime"] = "2026-01-02T03:04:05.000000Z"
	}
	reg := map[string]any{"kind": "Pod", "name": "web-0"}
	if g.chance(0.9) {
		reg["namespace"] = "ns1"
	} else if g.chance(0.5) {
		reg["namespace"] = g.pick("other", "")
	}
	if g.chance(0.9) {
		m["regarding"] = reg
	}
	if g.chance(0.95) {
		m["reportingController"] = g.pick("example.com/my-controller", "kubelet", "example.com/my-controller", "kubelet", "bad controller!", strings.Repeat("c", 70))
	}
	if g.chance(0.95) {
		m["reportingInstance"] = g.pick("node-1", "node-2", "node-3", strings.Repeat("i", 129))
	}
	if g.chance(0.95) {
		m["action"] = g.pick("Scheduling", "Binding", "Pulling", strings.Repeat("a", 129))
	}
	if g.chance(0.95) {
		m["reason"] = g.pick("Started", "BackOff", "Pulled", strings.Repeat("r", 129))
	}
	if g.chance(0.6) {
		m["note"] = g.pick("container started", strings.Repeat("n", 1025))
	}
	if g.chance(0.9) {
		m["type"] = g.pick("Normal", "Warning", "Normal", "Warning", "Info", "normal")
	}
	if g.chance(0.15) {
		m["series"] = map[string]any{"count": g.pick(1, 2, 5), "lastObservedTime": g.pick("2026-01-02T03:04:05.000000Z", nil)}
	}
	if g.chance(0.08) {
		m["deprecatedCount"] = g.pick(0, 3)
	}
	if g.chance(0.08) {
		m["deprecatedSource"] = map[string]any{"component": "kubelet"}
	}
	if g.chance(0.06) {
		m["deprecatedFirstTimestamp"] = "2026-01-02T03:04:05Z"
	}
	if g.chance(0.06) {
		m["deprecatedLastTimestamp"] = "2026-01-02T03:04:05Z"
	}
	return m
}

// miscRules are messages the generated cases must produce.
var miscRules = map[string][]string{
	"Lease":              {"spec.leaseDurationSeconds: Invalid value", "spec.leaseTransitions: Invalid value", "metadata.name"},
	"ControllerRevision": {"data: Required value: data is mandatory", "data must be a valid JSON object", "revision: Invalid value"},
	"Event": {"involvedObject.namespace", "reportingController: Required value", "reportingController: Invalid value",
		"reportingInstance: Invalid value", "action: Required value", "reason: Invalid value", "message: Invalid value",
		"eventTime: Required value", "has invalid value", "series.count", "series.lastObservedTime", "needs to be unset", "metadata.name"},
}

// TestMiscValidationParity compares limitcheck's create of random Leases,
// ControllerRevisions (VAL-111) and events.k8s.io/v1 Events (VAL-06) with
// kube-apiserver's strategies.
func TestMiscValidationParity(t *testing.T) {
	g := &miscGen{r: rand.New(rand.NewPCG(*flagMiscSeed, *flagMiscSeed^0x3c6ef372fe94f82b))}
	p := newParity(t, *flagMiscSeed)
	for i := 0; i < *flagMiscCases; i++ {
		var m map[string]any
		switch r := g.r.Float64(); {
		case r < 0.3:
			m = g.lease(i)
		case r < 0.55:
			m = g.controllerRevision(i)
		default:
			m = g.event(i)
		}
		kind := m["kind"].(string)
		k := miscKinds[kind]
		doc, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		want, err := upstreamTypedCreate(doc, k.ext(), k.internal(), k.strategy, nil, k.apiVersion, k.resource, "ns1")
		if err != nil {
			t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
		}
		got, _, err := mineTypedCreate(doc, k.apiVersion, kind, "ns1", features.Default())
		if err != nil {
			t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
		}
		p.compare(i, kind, doc, want, got, kind, miscRules[kind], nil)
	}
	p.finish("Leases, ControllerRevisions and events.k8s.io Events", *flagMiscCases, []string{"Lease", "ControllerRevision", "Event"}, miscRules)
}
