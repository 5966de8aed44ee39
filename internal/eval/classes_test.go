package eval

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestClusterClasses covers the Priority, DefaultStorageClass and RuntimeClass
// mutations that feed quota (RQ-34).
func TestClusterClasses(t *testing.T) {
	const (
		low     = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 10\nglobalDefault: true\n"
		high    = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 100\nglobalDefault: true\npreemptionPolicy: Never\n"
		oldSC   = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: old, creationTimestamp: \"2024-01-01T00:00:00Z\", annotations: {storageclass.kubernetes.io/is-default-class: \"true\"}}\nprovisioner: x\n"
		newSC   = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: new, creationTimestamp: \"2025-01-01T00:00:00Z\", annotations: {storageclass.beta.kubernetes.io/is-default-class: \"true\"}}\nprovisioner: x\n"
		plainSC = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: plain}\nprovisioner: x\n"
		kata    = "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: kata}\nhandler: kata\noverhead: {podFixed: {cpu: 250m}}\nscheduling: {nodeSelector: {sandbox: \"true\"}}\n"
		pod     = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: i}]\n"
		claim   = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: d}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n"
	)
	tests := []struct {
		name    string
		classes []string
		doc     string
		check   func(t *testing.T, res Result)
		denial  string
		// existing: the classes are the cluster's (CL-01), which can hold
		// two defaults; from the input the second is refused (VAL-72).
		existing bool
	}{
		{
			name: "lowest globalDefault of the cluster's wins", classes: []string{high, low}, existing: true, doc: pod,
			check: func(t *testing.T, res Result) {
				p := res.Object.(*corev1.Pod)
				if p.Spec.PriorityClassName != "low" || *p.Spec.Priority != 10 || *p.Spec.PreemptionPolicy != corev1.PreemptLowerPriority {
					t.Errorf("got class %q priority %d policy %s", p.Spec.PriorityClassName, *p.Spec.Priority, *p.Spec.PreemptionPolicy)
				}
			},
		},
		{
			name: "no default: priority 0", doc: pod,
			check: func(t *testing.T, res Result) {
				if p := res.Object.(*corev1.Pod); p.Spec.PriorityClassName != "" || *p.Spec.Priority != 0 {
					t.Errorf("got class %q priority %d", p.Spec.PriorityClassName, *p.Spec.Priority)
				}
			},
		},
		{
			name: "system class always exists", classes: []string{low},
			doc: "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priorityClassName: system-node-critical\n  containers: [{name: c, image: i}]\n",
			check: func(t *testing.T, res Result) {
				if p := res.Object.(*corev1.Pod); *p.Spec.Priority != 2000001000 {
					t.Errorf("priority %d", *p.Spec.Priority)
				}
			},
		},
		{
			name: "preemption policy set by the pod must match", classes: []string{high},
			doc:    "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priorityClassName: high\n  preemptionPolicy: PreemptLowerPriority\n  containers: [{name: c, image: i}]\n",
			denial: `pods "p" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name`,
		},
		{
			name: "newest default StorageClass, beta annotation counts", classes: []string{oldSC, newSC, plainSC}, doc: claim,
			check: func(t *testing.T, res Result) {
				if c := res.Object.(*corev1.PersistentVolumeClaim); c.Spec.StorageClassName == nil || *c.Spec.StorageClassName != "new" {
					t.Errorf("storageClassName %v", c.Spec.StorageClassName)
				}
			},
		},
		{
			name: "claim with the beta class annotation keeps it", classes: []string{oldSC},
			doc: "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: d, annotations: {volume.beta.kubernetes.io/storage-class: \"\"}}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n",
			check: func(t *testing.T, res Result) {
				if c := res.Object.(*corev1.PersistentVolumeClaim); c.Spec.StorageClassName != nil {
					t.Errorf("storageClassName %q", *c.Spec.StorageClassName)
				}
			},
		},
		{
			name: "RuntimeClass overhead and node selector", classes: []string{kata},
			doc: "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  runtimeClassName: kata\n  containers: [{name: c, image: i}]\n",
			check: func(t *testing.T, res Result) {
				p := res.Object.(*corev1.Pod)
				if cpu := p.Spec.Overhead[corev1.ResourceCPU]; cpu.String() != "250m" || p.Spec.NodeSelector["sandbox"] != "true" {
					t.Errorf("overhead %v nodeSelector %v", p.Spec.Overhead, p.Spec.NodeSelector)
				}
			},
		},
		{
			name: "RuntimeClass overhead differs", classes: []string{kata},
			doc:    "apiVersion: v1\nkind: Pod\nmetadata: {generateName: p-}\nspec:\n  runtimeClassName: kata\n  overhead: {cpu: 100m}\n  containers: [{name: c, image: i}]\n",
			denial: `pods "p-" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`,
		},
		{
			name: "RuntimeClass node selector conflict", classes: []string{kata},
			doc:    "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  runtimeClassName: kata\n  nodeSelector: {sandbox: \"false\"}\n  containers: [{name: c, image: i}]\n",
			denial: `pods "p" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = true; pod.spec.nodeSelector[sandbox] = false`,
		},
		{
			name: "unknown RuntimeClass with no classes in the input is trusted",
			doc:  "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  runtimeClassName: gvisor\n  containers: [{name: c, image: i}]\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "ns1"})
			for _, c := range tt.classes {
				add := e.AddClusterObject
				if tt.existing {
					add = e.addLiveClass
				}
				if !add(decode(t, c)) {
					t.Fatalf("not a cluster class: %s", c)
				}
			}
			res := e.Admit(decode(t, tt.doc))
			switch {
			case tt.denial != "":
				if res.Denial == nil || res.Denial.Message != tt.denial {
					t.Fatalf("denial = %+v, want %s", res.Denial, tt.denial)
				}
			case res.Denial != nil:
				t.Fatalf("unexpected denial: %s", res.Denial.Message)
			}
			if tt.check != nil {
				tt.check(t, res)
			}
		})
	}
}
