package eval

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
)

// TestPodDependents: WL-06. Each case admits its documents in order; want
// lists the last one's created objects as "Kind name allowed", and replicas
// its "admitted of replicas".
func TestPodDependents(t *testing.T) {
	const quota = "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec: {hard: {requests.storage: 25Gi, gpu.example.com.deviceclass.resource.k8s.io/devices: \"2\"}}\n"
	const tpl = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: one-gpu}\nspec: {metadata: {labels: {gpu: \"yes\"}}, spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]}}}\n"
	const podSpec = `containers: [{name: c, image: i, resources: {claims: [{name: gpu}]}}]
      resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
      volumes: [{name: work, ephemeral: {volumeClaimTemplate: {metadata: {labels: {tier: scratch}}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}}}}]`
	deployment := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: runner}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: r}}\n  template:\n    metadata: {labels: {app: r}}\n    spec:\n      " + podSpec + "\n"
	statefulSet := "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  replicas: 4\n  selector: {matchLabels: {app: r}}\n  template:\n    metadata: {labels: {app: r}}\n    spec:\n      " + podSpec + "\n"
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: solo}\nspec:\n      " + podSpec + "\n"
	for _, tc := range []struct {
		name     string
		docs     []string
		want     []string
		replicas string
	}{
		{name: "deployment: the third replica's claims do not fit", docs: []string{quota, tpl, deployment},
			want: []string{"ReplicaSet runner-5b77d95b9 true",
				"Pod runner-5b77d95b9-xxxxx true", "PersistentVolumeClaim runner-5b77d95b9-xxxxx-work true", "ResourceClaim runner-5b77d95b9-xxxxx-gpu-xxxxx true",
				"Pod runner-5b77d95b9-xxxxx true", "PersistentVolumeClaim runner-5b77d95b9-xxxxx-work true", "ResourceClaim runner-5b77d95b9-xxxxx-gpu-xxxxx true",
				"Pod runner-5b77d95b9-xxxxx true", "PersistentVolumeClaim runner-5b77d95b9-xxxxx-work false", "ResourceClaim runner-5b77d95b9-xxxxx-gpu-xxxxx false"},
			replicas: "2 of 3"},
		{name: "no template in the input: only the volume claims", docs: []string{deployment},
			want: []string{"ReplicaSet runner-5b77d95b9 true",
				"Pod runner-5b77d95b9-xxxxx true", "PersistentVolumeClaim runner-5b77d95b9-xxxxx-work true",
				"Pod runner-5b77d95b9-xxxxx true", "PersistentVolumeClaim runner-5b77d95b9-xxxxx-work true",
				"Pod runner-5b77d95b9-xxxxx true", "PersistentVolumeClaim runner-5b77d95b9-xxxxx-work true"},
			replicas: "3 of 3"},
		{name: "statefulset (OrderedReady) stops at the Pod whose claim is refused", docs: []string{quota, tpl, statefulSet},
			want: []string{
				"Pod db-0 true", "PersistentVolumeClaim db-0-work true", "ResourceClaim db-0-gpu-xxxxx true",
				"Pod db-1 true", "PersistentVolumeClaim db-1-work true", "ResourceClaim db-1-gpu-xxxxx true",
				"Pod db-2 true", "PersistentVolumeClaim db-2-work false", "ResourceClaim db-2-gpu-xxxxx false"},
			replicas: "2 of 4"},
		{name: "the input's own Pod", docs: []string{quota, tpl, pod},
			want:     []string{"PersistentVolumeClaim solo-work true", "ResourceClaim solo-gpu-xxxxx true"},
			replicas: "1 of 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "ns1"})
			var res Result
			for _, d := range tc.docs {
				res = e.Admit(decode(t, d))
			}
			w := res.Workload
			if w == nil {
				t.Fatalf("no workload: %+v", res)
			}
			var got []string
			for _, c := range w.Created {
				got = append(got, fmt.Sprintf("%s %s %v", c.Kind, c.Name, c.Allowed))
				if c.Repeat > 0 {
					t.Errorf("%s %s folded %d replicas", c.Kind, c.Name, c.Repeat)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("created:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if r := fmt.Sprintf("%d of %d", w.Admitted, w.Replicas); r != tc.replicas {
				t.Errorf("replicas admitted %s, want %s", r, tc.replicas)
			}
			if res.Allowed != (w.Admitted == w.Replicas) {
				t.Errorf("allowed %v with %d of %d", res.Allowed, w.Admitted, w.Replicas)
			}
			for _, c := range w.Created {
				switch o := c.Object.(type) {
				case *corev1.PersistentVolumeClaim:
					if o.Labels["tier"] != "scratch" || len(o.OwnerReferences) != 1 || o.OwnerReferences[0].Name != c.Pod || *o.OwnerReferences[0].BlockOwnerDeletion != true {
						t.Errorf("claim %s: labels %v owners %+v", o.Name, o.Labels, o.OwnerReferences)
					}
				case *resourcev1.ResourceClaim:
					if o.Labels["gpu"] != "yes" || o.Annotations[resourcev1.PodResourceClaimAnnotation] != "gpu" || o.OwnerReferences[0].Name != c.Pod {
						t.Errorf("claim %s: labels %v annotations %v owners %+v", o.Name, o.Labels, o.Annotations, o.OwnerReferences)
					}
				}
			}
			if !strings.Contains(tc.name, "no template") && !res.Allowed {
				last := w.Created[len(w.Created)-1]
				want := `resourceclaims.resource.k8s.io "` + last.Name + `" is forbidden: exceeded quota: q, requested: gpu.example.com.deviceclass.resource.k8s.io/devices=1, used: gpu.example.com.deviceclass.resource.k8s.io/devices=2, limited: gpu.example.com.deviceclass.resource.k8s.io/devices=2`
				if last.Denial == nil || last.Denial.Message != want {
					t.Errorf("refused claim: %+v\nwant %s", last.Denial, want)
				}
			}
		})
	}
}

// TestClaimGenerateName: the resource claim controller's generateName.
func TestClaimGenerateName(t *testing.T) {
	for _, tc := range []struct{ pod, claim, want string }{
		{"web-0", "gpu", "web-0-gpu-"},
		{strings.Repeat("p", 40), strings.Repeat("c", 20), strings.Repeat("p", 36) + "-" + strings.Repeat("c", 18)},
		{strings.Repeat("p", 63), "gpu", strings.Repeat("p", 52) + "-gp"},
	} {
		if got := claimGenerateName(tc.pod, tc.claim); got != tc.want {
			t.Errorf("claimGenerateName(%d bytes, %d bytes) = %q, want %q", len(tc.pod), len(tc.claim), got, tc.want)
		}
	}
}
