package conformance

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/autoscaling"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	"k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/features"
)

var (
	flagHPACases = flag.Int("hpa-cases", 6000, "number of random HorizontalPodAutoscalers")
	flagHPASeed  = flag.Uint64("hpa-seed", 1, "HorizontalPodAutoscaler generator seed")
)

// upstreamHPACreate runs kube-apiserver's code on one HPA document: decode
// into the served version, its defaulting, conversion to the internal type
// (v1: the CPU metric), name generation, system fields and rest.BeforeCreate
// with the real strategy (PrepareForCreate, Validate with
// ValidateDeclarativelyWithMigrationChecks).
func upstreamHPACreate(doc []byte, apiVersion, namespace string) (rqOutcome, error) {
	var ext runtime.Object = &autoscalingv2.HorizontalPodAutoscaler{}
	if apiVersion == "autoscaling/v1" {
		ext = &autoscalingv1.HorizontalPodAutoscaler{}
	}
	return upstreamTypedCreate(doc, ext, &autoscaling.HorizontalPodAutoscaler{}, horizontalpodautoscaler.Strategy, nil,
		apiVersion, "horizontalpodautoscalers", namespace)
}

// mineHPACreate admits the same document on a fresh engine.
func mineHPACreate(doc []byte, apiVersion, namespace string, gates features.Gates) (rqOutcome, []string, error) {
	out, d, err := mineTypedCreate(doc, apiVersion, "HorizontalPodAutoscaler", namespace, gates)
	if d == nil {
		return out, nil, err
	}
	return out, d.Parts, err
}

type hpaGen struct {
	r *rand.Rand
	// unordered is set when a metric forbids two or more sources, which
	// upstream reports in random order.
	unordered bool
}

func (g *hpaGen) chance(p float64) bool { return g.r.Float64() < p }
func (g *hpaGen) pick(xs ...any) any    { return xs[g.r.IntN(len(xs))] }

func (g *hpaGen) target() map[string]any {
	t := map[string]any{}
	if g.chance(0.5) {
		t["type"] = g.pick("Utilization", "Value", "AverageValue", "", "Percent")
	} else {
		t["type"] = "Utilization"
	}
	if g.chance(0.3) {
		t["value"] = g.pick("1", "100m", "0", "-1", "2Gi")
	}
	if g.chance(0.4) {
		t["averageValue"] = g.pick("1", "500m", "0", "-2")
	}
	if g.chance(0.5) {
		t["averageUtilization"] = g.pick(80, 1, 0, -5, 150)
	}
	return t
}

func (g *hpaGen) metricID() map[string]any {
	id := map[string]any{"name": g.pick("requests", "", "a/b", "..", "queue-length", "%")}
	if g.chance(0.2) {
		id["selector"] = map[string]any{"matchLabels": map[string]any{"app": "web"}}
	}
	return id
}

func (g *hpaGen) ref() map[string]any {
	r := map[string]any{}
	if g.chance(0.85) {
		r["kind"] = g.pick("Deployment", "Deployment", "StatefulSet", "ReplicationController", "ReplicaSet", "a/b", "..", "%x")
	}
	if g.chance(0.85) {
		r["name"] = g.pick("web", "web", "api", "a/b", ".", "x%y", "Upper")
	}
	if g.chance(0.9) {
		r["apiVersion"] = g.pick("apps/v1", "apps/v1", "v1", "", "apps/v1/x", "/v1", "networking.k8s.io/v1")
	}
	return r
}

func (g *hpaGen) source(kind string) map[string]any {
	switch kind {
	case "object":
		return map[string]any{"describedObject": g.ref(), "metric": g.metricID(), "target": g.target()}
	case "external", "pods":
		return map[string]any{"metric": g.metricID(), "target": g.target()}
	case "resource":
		s := map[string]any{"target": g.target()}
		if g.chance(0.9) {
			s["name"] = g.pick("cpu", "memory", "foo", "example.com/gpu")
		}
		return s
	default: // containerResource
		s := map[string]any{"target": g.target()}
		if g.chance(0.9) {
			s["name"] = g.pick("cpu", "memory", "foo", "example.com/gpu", "requests.cpu", "Bad_Name")
		}
		if g.chance(0.9) {
			s["container"] = g.pick("app", "App", "a_b", "sidecar")
		}
		return s
	}
}

var metricSources = map[string]string{"Object": "object", "External": "external", "Pods": "pods", "Resource": "resource", "ContainerResource": "containerResource"}

func (g *hpaGen) metric() map[string]any {
	typ := g.pick("Object", "External", "Pods", "Resource", "ContainerResource", "Resource", "", "Bogus").(string)
	m := map[string]any{}
	if typ != "" {
		m["type"] = typ
	}
	present := map[string]bool{}
	if src, ok := metricSources[typ]; ok && g.chance(0.85) {
		present[src] = true
	}
	if g.chance(0.2) {
		present[g.pick("object", "external", "pods", "resource", "containerResource").(string)] = true
	}
	if g.chance(0.05) {
		present[g.pick("object", "external", "pods", "resource", "containerResource").(string)] = true
	}
	forbidden := 0
	for src := range present {
		m[src] = g.source(src)
		if src != metricSources[typ] {
			forbidden++
		}
	}
	if len(present) > 1 && forbidden > 1 {
		g.unordered = true
	}
	return m
}

func (g *hpaGen) rules() map[string]any {
	r := map[string]any{}
	if g.chance(0.4) {
		r["stabilizationWindowSeconds"] = g.pick(0, 300, -1, 3600, 3601)
	}
	if g.chance(0.3) {
		r["selectPolicy"] = g.pick("Max", "Min", "Disabled", "max", "")
	}
	if g.chance(0.6) {
		ps := []any{}
		for range g.r.IntN(3) {
			ps = append(ps, map[string]any{"type": g.pick("Pods", "Percent", "pods", ""), "value": g.pick(1, 4, 0, -1, 100),
				"periodSeconds": g.pick(15, 60, 0, -3, 1800, 1801)})
		}
		r["policies"] = ps
	}
	if g.chance(0.2) {
		r["tolerance"] = g.pick("0.1", "0", "-0.05", "50m")
	}
	return r
}

// valid is an HPA kube-apiserver admits, with the fields that vary most.
func (g *hpaGen) valid(i int) (map[string]any, string) {
	min := 1 + g.r.IntN(4)
	spec := map[string]any{"scaleTargetRef": map[string]any{"apiVersion": "apps/v1", "kind": g.pick("Deployment", "StatefulSet", "ReplicaSet"), "name": "web"},
		"maxReplicas": min + g.r.IntN(10)}
	if g.chance(0.7) {
		spec["minReplicas"] = min
	}
	apiVersion := "autoscaling/v2"
	if g.chance(0.3) {
		apiVersion = "autoscaling/v1"
		if g.chance(0.5) {
			spec["targetCPUUtilizationPercentage"] = 1 + g.r.IntN(100)
		}
	} else {
		if g.chance(0.5) {
			spec["metrics"] = []any{map[string]any{"type": "Resource", "resource": map[string]any{"name": g.pick("cpu", "memory"),
				"target": map[string]any{"type": "Utilization", "averageUtilization": 1 + g.r.IntN(100)}}}}
		}
		if g.chance(0.4) {
			spec["behavior"] = map[string]any{"scaleDown": map[string]any{"stabilizationWindowSeconds": g.r.IntN(3601),
				"policies": []any{map[string]any{"type": "Pods", "value": 1 + g.r.IntN(5), "periodSeconds": 1 + g.r.IntN(1800)}}}}
		}
	}
	return map[string]any{"apiVersion": apiVersion, "kind": "HorizontalPodAutoscaler", "metadata": map[string]any{"name": fmt.Sprintf("hpa-%d", i)}, "spec": spec}, apiVersion
}

func (g *hpaGen) hpa(i int) (map[string]any, string) {
	g.unordered = false
	if g.chance(0.25) {
		return g.valid(i)
	}
	apiVersion := "autoscaling/v2"
	if g.chance(0.3) {
		apiVersion = "autoscaling/v1"
	}
	meta := map[string]any{}
	switch {
	case g.chance(0.85):
		meta["name"] = fmt.Sprintf("hpa-%d", i)
	case g.chance(0.5):
		meta["name"] = g.pick("Bad_Name", "a..b", strings.Repeat("a", 254), "-x")
	default:
		meta["generateName"] = g.pick("hpa-", "Bad_")
	}
	spec := map[string]any{}
	if g.chance(0.92) {
		spec["scaleTargetRef"] = g.ref()
	}
	if g.chance(0.7) {
		spec["minReplicas"] = g.pick(1, 2, 3, 5, 0, -1)
	}
	if g.chance(0.95) {
		spec["maxReplicas"] = g.pick(1, 2, 4, 10, 0, -2)
	}
	if apiVersion == "autoscaling/v1" {
		if g.chance(0.5) {
			spec["targetCPUUtilizationPercentage"] = g.pick(50, 80, 0, -1)
		}
	} else {
		if g.chance(0.6) {
			var ms []any
			for range 1 + g.r.IntN(3) {
				ms = append(ms, g.metric())
			}
			spec["metrics"] = ms
		}
		if g.chance(0.35) {
			b := map[string]any{}
			if g.chance(0.6) {
				b["scaleUp"] = g.rules()
			}
			if g.chance(0.6) {
				b["scaleDown"] = g.rules()
			}
			spec["behavior"] = b
		}
	}
	return map[string]any{"apiVersion": apiVersion, "kind": "HorizontalPodAutoscaler", "metadata": meta, "spec": spec}, apiVersion
}

// hpaRules are messages the generated cases must reach.
var hpaRules = []string{
	"spec.maxReplicas: Invalid value: 1: must be greater than or equal to `minReplicas`",
	"spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
	"spec.maxReplicas: Required value: must be set and greater than 0",
	"spec.maxReplicas: Invalid value: -2: must be greater than or equal to 1",
	"spec.scaleTargetRef.kind: Required value",
	"spec.scaleTargetRef.name: Required value",
	"spec.scaleTargetRef.apiVersion: Invalid value: \"v1\": apiVersion must specify API group",
	"must populate information for the given metric source",
	"must populate the given metric source only",
	"must specify a metric name",
	"must be either Utilization, Value, or AverageValue",
	"must be positive",
	"must set either a target raw value or a target utilization",
	"must specify at least one Policy",
	"must be less than or equal to 1800",
	"must be less than or equal to 3600",
	"spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0",
	"selectPolicy: Unsupported value",
	"tolerance: Invalid value: \"-50m\": must be greater than or equal to 0",
	"metadata.name: Invalid value",
	"spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas",
}

// TestHorizontalPodAutoscalerValidationParity compares limitcheck's HPA
// create path (VAL-50: defaulting, the v1 conversion, PrepareForCreate,
// validation) with kube-apiserver's on random autoscaling/v2 and v1 HPAs:
// verdict, HTTP status and the whole message.
func TestHorizontalPodAutoscalerValidationParity(t *testing.T) {
	g := &hpaGen{r: rand.New(rand.NewPCG(*flagHPASeed, *flagHPASeed^0x2545f4914f6cdd1d))}
	p := newParity(t, *flagHPASeed)
	defer func() {
		if err := SetGates(map[string]bool{"HPAScaleToZero": false, "HPAConfigurableTolerance": true}); err != nil {
			t.Error(err)
		}
	}()
	for i := 0; i < *flagHPACases; i++ {
		// The gates the HPA strategy reads, in the default state most often.
		gateMap := map[string]bool{"HPAScaleToZero": g.chance(0.25), "HPAConfigurableTolerance": !g.chance(0.15)}
		if err := SetGates(gateMap); err != nil {
			t.Fatal(err)
		}
		gates := features.Default()
		for k, v := range gateMap {
			gates.Set(k, v)
			if v {
				p.stats[k+" on"]++
			} else {
				p.stats[k+" off"]++
			}
		}
		m, apiVersion := g.hpa(i)
		doc, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		want, err := upstreamHPACreate(doc, apiVersion, "ns1")
		if err != nil {
			t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
		}
		got, parts, err := mineHPACreate(doc, apiVersion, "ns1", gates)
		if err != nil {
			t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
		}
		same := func(want, got string) bool { return g.unordered && samePermutation(want, got, parts) }
		p.compare(i, apiVersion, doc, want, got, "", hpaRules, same)
	}
	p.finish("HorizontalPodAutoscalers", *flagHPACases, []string{""}, map[string][]string{"": hpaRules})
}

// TestHPAScalingReadsUpstreamDefaults checks that the bounds --scale reads
// are those kube-apiserver stores: minReplicas defaulted to 1 in both versions.
func TestHPAScalingReadsUpstreamDefaults(t *testing.T) {
	for _, apiVersion := range []string{"autoscaling/v2", "autoscaling/v1"} {
		doc := []byte(`{"apiVersion":"` + apiVersion + `","kind":"HorizontalPodAutoscaler","metadata":{"name":"web"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":7}}`)
		obj := eval.NewObject(apiVersion, "HorizontalPodAutoscaler")
		if err := json.Unmarshal(doc, obj); err != nil {
			t.Fatal(err)
		}
		s, ok := eval.HPAScaling(obj, "ns1", features.Default())
		if !ok || s.MinReplicas != 1 || s.MaxReplicas != 7 || s.Target != (eval.ScaleTarget{Namespace: "ns1", Group: "apps", Kind: "Deployment", Name: "web"}) {
			t.Errorf("%s: HPAScaling = %+v, %v", apiVersion, s, ok)
		}
		var ext runtime.Object = &autoscalingv2.HorizontalPodAutoscaler{}
		if apiVersion == "autoscaling/v1" {
			ext = &autoscalingv1.HorizontalPodAutoscaler{}
		}
		_ = json.Unmarshal(doc, ext)
		legacyscheme.Scheme.Default(ext)
		internal := &autoscaling.HorizontalPodAutoscaler{}
		if err := legacyscheme.Scheme.Convert(ext, internal, nil); err != nil {
			t.Fatal(err)
		}
		if internal.Spec.MinReplicas == nil || *internal.Spec.MinReplicas != s.MinReplicas {
			t.Errorf("%s: upstream minReplicas %v, limitcheck %d", apiVersion, internal.Spec.MinReplicas, s.MinReplicas)
		}
	}
}
