package conformance

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/controller/podautoscaler"
	metricsclient "k8s.io/kubernetes/pkg/controller/podautoscaler/metrics"

	"github.com/limitcheck/limitcheck/internal/eval"
)

var (
	flagUtilCases = flag.Int("util-cases", 3000, "number of random Deployment and HPA pairs (FIT-06)")
	flagUtilSeed  = flag.Uint64("util-seed", 1, "FIT-06 generator seed")
)

// podMetrics is a metrics client that reports a usage of 100m for every
// Pod it is asked about, fresh: the controller then reaches the requests.
type podMetrics struct{ pods []string }

func (m podMetrics) GetResourceMetric(_ context.Context, _ corev1.ResourceName, _ string, _ labels.Selector, _ string) (metricsclient.PodMetricsInfo, time.Time, error) {
	out := metricsclient.PodMetricsInfo{}
	now := time.Now()
	for _, p := range m.pods {
		out[p] = metricsclient.PodMetric{Timestamp: now, Window: 30 * time.Second, Value: 100}
	}
	return out, now, nil
}

func (podMetrics) GetRawMetric(string, string, labels.Selector, labels.Selector) (metricsclient.PodMetricsInfo, time.Time, error) {
	return nil, time.Time{}, fmt.Errorf("not used")
}

func (podMetrics) GetObjectMetric(string, string, *autoscalingv2.CrossVersionObjectReference, labels.Selector) (int64, time.Time, error) {
	return 0, time.Time{}, fmt.Errorf("not used")
}

func (podMetrics) GetExternalMetric(string, string, labels.Selector) ([]int64, time.Time, error) {
	return nil, time.Time{}, fmt.Errorf("not used")
}

// upstreamUtilization runs the HorizontalPodAutoscaler controller's
// replica calculation for a utilization metric on pod, made Running and
// Ready long ago, and returns its error ("" when it computes).
func upstreamUtilization(pod *corev1.Pod, resource corev1.ResourceName, container string) string {
	p := pod.DeepCopy()
	long := metav1.NewTime(time.Now().Add(-time.Hour))
	p.Status = corev1.PodStatus{Phase: corev1.PodRunning, StartTime: &long,
		Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: long}}}
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	if err := idx.Add(p); err != nil {
		return err.Error()
	}
	calc := podautoscaler.NewReplicaCalculator(podMetrics{pods: []string{p.Name}}, corelisters.NewPodLister(idx), 5*time.Minute, 30*time.Second)
	_, _, _, _, err := calc.GetResourceReplicas(context.Background(), 1, 70, resource, podautoscaler.Tolerances{}, p.Namespace, labels.Everything(), container)
	if err != nil {
		return err.Error()
	}
	return ""
}

type utilGen struct{ r *rand.Rand }

func (g *utilGen) chance(p float64) bool { return g.r.Float64() < p }
func (g *utilGen) pick(xs ...any) any    { return xs[g.r.IntN(len(xs))] }

func (g *utilGen) resources() map[string]any {
	out := map[string]any{}
	for _, kind := range []string{"requests", "limits"} {
		l := map[string]any{}
		if g.chance(0.45) {
			l["cpu"] = g.pick("100m", "1", "0", "250m")
		}
		if g.chance(0.45) {
			l["memory"] = g.pick("64Mi", "1Gi", "0")
		}
		if len(l) > 0 {
			out[kind] = l
		}
	}
	return out
}

// pair is a Deployment with random containers, sidecars and pod-level
// resources, an HPA on it with one utilization metric, and sometimes a
// LimitRange with defaults before them.
func (g *utilGen) pair(i int) (docs []string, resource, container string) {
	var containers, inits []any
	names := []string{"app", "proxy", "log"}
	for j := 0; j < 1+g.r.IntN(3); j++ {
		containers = append(containers, map[string]any{"name": names[j], "image": "i", "resources": g.resources()})
	}
	if g.chance(0.3) {
		init := map[string]any{"name": "sidecar", "image": "i", "resources": g.resources()}
		if g.chance(0.7) {
			init["restartPolicy"] = "Always"
		}
		inits = append(inits, init)
	}
	spec := map[string]any{"containers": containers}
	if inits != nil {
		spec["initContainers"] = inits
	}
	if g.chance(0.15) {
		spec["resources"] = g.resources()
	}
	deploy := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": fmt.Sprintf("web-%d", i)},
		"spec": map[string]any{"replicas": 1, "selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}}, "spec": spec}}}
	resource = g.pick("cpu", "memory").(string)
	target := map[string]any{"type": "Utilization", "averageUtilization": 70}
	metric := map[string]any{"type": "Resource", "resource": map[string]any{"name": resource, "target": target}}
	if g.chance(0.35) {
		container = g.pick("app", "proxy", "sidecar", "nginx").(string)
		metric = map[string]any{"type": "ContainerResource", "containerResource": map[string]any{"name": resource, "container": container, "target": target}}
	}
	hpa := map[string]any{"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": map[string]any{"name": fmt.Sprintf("hpa-%d", i)},
		"spec": map[string]any{"scaleTargetRef": map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": fmt.Sprintf("web-%d", i)},
			"maxReplicas": 3, "metrics": []any{metric}}}
	if g.chance(0.3) {
		item := map[string]any{"type": "Container"}
		if g.chance(0.6) {
			item["defaultRequest"] = map[string]any{resource: g.pick("50m", "32Mi").(string)}
		}
		if g.chance(0.5) {
			item["default"] = map[string]any{"cpu": "500m", "memory": "256Mi"}
		}
		docs = append(docs, docJSON(map[string]any{"apiVersion": "v1", "kind": "LimitRange", "metadata": map[string]any{"name": "lr"}, "spec": map[string]any{"limits": []any{item}}}))
	}
	docs = append(docs, docJSON(deploy), docJSON(hpa))
	return docs, resource, container
}

func docJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestUtilizationParity: FIT-06. limitcheck admits a Deployment and an HPA
// with a utilization metric; the HorizontalPodAutoscaler controller's own
// replica calculation runs on the Pod limitcheck created (defaulted and
// mutated by LimitRanger as kube-apiserver does: proven elsewhere). The
// HPA is warned of exactly when the controller fails, with its error.
func TestUtilizationParity(t *testing.T) {
	g := &utilGen{r: rand.New(rand.NewPCG(*flagUtilSeed, *flagUtilSeed^0x9e3779b97f4a7c15))}
	stats := map[string]int{}
	mismatches := 0
	for i := 0; i < *flagUtilCases; i++ {
		docs, resource, container := g.pair(i)
		e := eval.New(eval.Options{DefaultNamespace: "ns1"})
		var pod *corev1.Pod
		var last eval.Result
		for _, d := range docs {
			var tm metav1.TypeMeta
			if err := json.Unmarshal([]byte(d), &tm); err != nil {
				t.Fatal(err)
			}
			obj := eval.NewObject(tm.APIVersion, tm.Kind)
			if err := json.Unmarshal([]byte(d), obj); err != nil {
				t.Fatal(err)
			}
			last = e.Admit(obj)
			if w := last.Workload; w != nil {
				for _, c := range w.Created {
					if p, ok := c.Object.(*corev1.Pod); ok && pod == nil {
						pod = p
					}
				}
			}
		}
		if pod == nil || !last.Allowed {
			stats["no Pod or HPA refused"]++
			continue
		}
		want := upstreamUtilization(pod, corev1.ResourceName(resource), container)
		var got string
		for _, w := range last.Warnings {
			if strings.Contains(w, "(FIT-06)") {
				got = w
			}
		}
		ok := want == "" && got == "" || want != "" && strings.Contains(got, fmt.Sprintf(": failed to get %s utilization: %s): ", resource, want))
		stats[utilOutcome(want)]++
		if !ok {
			mismatches++
			if mismatches <= 10 {
				t.Errorf("case %d: controller %q, limitcheck %q\n%s", i, want, got, strings.Join(docs, "\n"))
			}
		}
	}
	t.Logf("seed %d: %d cases, %d mismatches; %v", *flagUtilSeed, *flagUtilCases, mismatches, stats)
	for _, k := range []string{"computed", "missing request", "missing pod-level request", "container not found", "no metrics returned matched known pods"} {
		if stats[k] == 0 {
			t.Errorf("no generated case where the controller says %q", k)
		}
	}
}

// utilOutcome names the kind of the controller's error (or "computed").
func utilOutcome(err string) string {
	switch {
	case err == "":
		return "computed"
	case strings.HasPrefix(err, "missing request"):
		return "missing request"
	case strings.HasPrefix(err, "missing pod-level request"):
		return "missing pod-level request"
	case strings.HasPrefix(err, "container "):
		return "container not found"
	}
	return err
}
