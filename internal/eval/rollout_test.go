package eval

import (
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// TestResolveFenceposts (FIT-03): the Deployment controller's rounding,
// maxSurge up and maxUnavailable down, and maxUnavailable 1 when both come
// out 0.
func TestResolveFenceposts(t *testing.T) {
	tests := []struct {
		surge, unavailable string
		replicas           int
		want               [2]int
	}{
		{"25%", "25%", 4, [2]int{1, 1}},
		{"25%", "25%", 10, [2]int{3, 2}},
		{"25%", "25%", 3, [2]int{1, 0}},
		{"0", "1", 4, [2]int{0, 1}},
		{"1%", "1%", 4, [2]int{1, 0}},
		{"0%", "10%", 5, [2]int{0, 1}}, // both 0: maxUnavailable 1
		{"2", "50%", 7, [2]int{2, 3}},
	}
	for _, tc := range tests {
		ru := &appsv1.RollingUpdateDeployment{MaxSurge: ptrIntOrString(tc.surge), MaxUnavailable: ptrIntOrString(tc.unavailable)}
		s, u := resolveFenceposts(ru, tc.replicas)
		if [2]int{s, u} != tc.want {
			t.Errorf("maxSurge %s, maxUnavailable %s of %d: %d, %d; want %v", tc.surge, tc.unavailable, tc.replicas, s, u, tc.want)
		}
	}
}

func ptrIntOrString(s string) *intstr.IntOrString {
	v := intstr.Parse(s)
	return &v
}

// TestRollout: worked rollouts, whole results.
func TestRollout(t *testing.T) {
	quota := func(hard string) string {
		return "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: compute}\nspec: {hard: {" + hard + "}}"
	}
	deploy := func(replicas int, strategy string) string {
		return fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: %d\n  strategy: %s\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: c, image: i, resources: {requests: {cpu: 500m}}}]", replicas, strategy)
	}
	tests := []struct {
		name                string
		docs                []string
		surge, unavailable  int
		complete            bool
		new, old            int
		peak, note, binding string
	}{{
		name:  "maxSurge 25% of 4, room for the surge",
		docs:  []string{quota("pods: '5', requests.cpu: '10'"), deploy(4, "{}")},
		surge: 1, unavailable: 1, complete: true, new: 4,
		peak: "compute pods 4 → 5 of 5, compute requests.cpu 2 → 2500m of 10",
	}, {
		name:  "maxSurge 25% of 10",
		docs:  []string{quota("pods: '20'"), deploy(10, "{}")},
		surge: 3, unavailable: 2, complete: true, new: 10,
		peak: "compute pods 10 → 13 of 20",
	}, {
		name:  "maxSurge 0, maxUnavailable 1: one Pod replaced at a time",
		docs:  []string{quota("pods: '4'"), deploy(4, "{rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}")},
		surge: 0, unavailable: 1, complete: true, new: 4,
	}, {
		name:  "a quota of exactly 4 replicas: maxUnavailable 25% of 4 lets it through",
		docs:  []string{quota("pods: '4'"), deploy(4, "{}")},
		surge: 1, unavailable: 1, complete: true, new: 4,
	}, {
		name:  "a quota of exactly 3 replicas: maxUnavailable 25% of 3 is 0, stuck",
		docs:  []string{quota("requests.cpu: 1500m"), deploy(3, "{}")},
		surge: 1, unavailable: 0, old: 3,
		binding: `pods "web-7cbdd4f54b-xxxxx" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=1500m, limited: requests.cpu=1500m`,
	}, {
		name:  "a quota on ReplicaSets: the new one is refused",
		docs:  []string{quota("count/replicasets.apps: '1'"), deploy(2, "{}")},
		surge: 1, unavailable: 0, old: 2,
		binding: `replicasets.apps "web-7cbdd4f54b" is forbidden: exceeded quota: compute, requested: count/replicasets.apps=1, used: count/replicasets.apps=1, limited: count/replicasets.apps=1`,
	}, {
		name:     "Recreate",
		docs:     []string{quota("pods: '2'"), deploy(2, "{type: Recreate}")},
		complete: true, new: 2, note: "Recreate: the old Pods go before the new ones are created; it needs no extra Pod",
	}, {
		name: "not every replica runs",
		docs: []string{quota("pods: '1'"), deploy(2, "{}")},
		note: "only 1 of 2 replicas run: fix that first",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "shop"})
			var res Result
			for _, d := range tc.docs {
				res = e.Admit(decode(t, d))
			}
			usedBefore := quotasJSON(t, e)
			r := e.Rollout(&res)
			if r == nil {
				t.Fatal("no rollout")
			}
			if quotasJSON(t, e) != usedBefore {
				t.Error("the rollout changed the engine's quotas")
			}
			if r.Note != tc.note {
				t.Fatalf("note %q, want %q", r.Note, tc.note)
			}
			if tc.note != "" {
				return
			}
			if r.MaxSurge != tc.surge || r.MaxUnavailable != tc.unavailable || r.Complete != tc.complete || r.New != tc.new || r.Old != tc.old {
				t.Errorf("surge %d, unavailable %d, complete %v, new %d, old %d; want %d, %d, %v, %d, %d",
					r.MaxSurge, r.MaxUnavailable, r.Complete, r.New, r.Old, tc.surge, tc.unavailable, tc.complete, tc.new, tc.old)
			}
			var peaks []string
			for _, p := range r.Peak {
				if p.Resource == "count/replicasets.apps" {
					continue
				}
				peaks = append(peaks, fmt.Sprintf("%s %s %s → %s of %s", p.Quota, p.Resource, p.Used.String(), p.Peak.String(), p.Hard.String()))
			}
			if got := strings.Join(peaks, ", "); got != tc.peak {
				t.Errorf("peak %q, want %q", got, tc.peak)
			}
			got := ""
			if r.Binding != nil && r.Binding.Denial != nil {
				got = r.Binding.Denial.Message
			}
			if got != tc.binding {
				t.Errorf("binding %q, want %q", got, tc.binding)
			}
		})
	}
}
