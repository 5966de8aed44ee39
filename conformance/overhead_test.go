package conformance

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/features"
	"github.com/limitcheck/limitcheck/internal/eval/quota"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestUsageAddsOverheadToPodLevel (RQ-12): computing a Pod's quota usage adds
// its overhead to a pod-level amount held as an arbitrary-precision decimal
// (1.5Gi), so the stored Pod and the quota's usage depend on how many times
// admission computes it: never without a quota, once with one, twice when the
// configuration limits pods too. Both sides are compared on the created Pod
// and the final quotas.
func TestUsageAddsOverheadToPodLevel(t *testing.T) {
	class := `{"apiVersion":"node.k8s.io/v1","kind":"RuntimeClass","metadata":{"name":"sandbox"},"handler":"runsc","overhead":{"podFixed":{"memory":"1Gi"}}}`
	pod := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"runtimeClassName":"sandbox","resources":{"requests":{"memory":"1.5Gi"}},"containers":[{"name":"c","image":"i"}]}}`
	q := `{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q"},"spec":{"hard":{"requests.memory":"10Gi"}}}`
	limited := &quota.Configuration{LimitedResources: []quota.LimitedResource{{Resource: "pods", MatchContains: []string{"requests.memory"}}}}
	for _, tc := range []struct {
		name string
		docs []string
		cfg  *quota.Configuration
		want string // the created Pod's pod-level memory request
	}{
		{"no quota", []string{pod}, nil, "1536Mi"},
		{"a quota", []string{q, pod}, nil, "2560Mi"},
		{"a quota, pods limited", []string{q, pod}, limited, "3584Mi"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := SetGates(map[string]bool{"PodLevelResources": true, "InPlacePodLevelResourcesVerticalScaling": true}); err != nil {
				t.Fatal(err)
			}
			up, err := NewUpstream(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			gates := features.Default()
			gates.Set(features.PodLevelResources, true)
			engine := eval.New(eval.Options{DefaultNamespace: "ns1", Gates: gates, QuotaConfig: tc.cfg})
			if err := up.AddClass([]byte(class)); err != nil {
				t.Fatal(err)
			}
			if err := AddClass(engine, []byte(class)); err != nil {
				t.Fatal(err)
			}
			var got eval.Result
			var want Outcome
			for _, d := range tc.docs {
				if want, err = up.Create([]byte(d), "ns1"); err != nil {
					t.Fatal(err)
				}
				if got, err = Mine(engine, []byte(d)); err != nil {
					t.Fatal(err)
				}
				if diff := Diff(want, got); len(diff) > 0 {
					t.Errorf("%s:\n  %s", d, strings.Join(diff, "\n  "))
				}
			}
			if d := DiffQuotas(up.Quotas([]string{"ns1"}), engine.Quotas()); len(d) > 0 {
				t.Errorf("final quotas:\n  %s", strings.Join(d, "\n  "))
			}
			if !got.Allowed || !want.Allowed {
				t.Fatalf("the Pod was not created: limitcheck %+v, upstream %s", got.Denial, want.Message)
			}
			if g, w := podLevelMemory(got.Object), podLevelMemory(want.Object); g != tc.want || w != tc.want {
				t.Errorf("the Pod asks for %s in limitcheck, %s upstream; want %s", g, w, tc.want)
			}
		})
	}
}

// podLevelMemory is a Pod's pod-level memory request.
func podLevelMemory(obj runtime.Object) string {
	pod, ok := obj.(*corev1.Pod)
	if !ok || pod.Spec.Resources == nil {
		return "none"
	}
	q := pod.Spec.Resources.Requests[corev1.ResourceMemory]
	return q.String()
}
