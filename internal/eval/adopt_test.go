package eval

import (
	"fmt"
	"testing"
)

// TestDeploymentAdoptsReplicaSets: an orphan ReplicaSet whose labels an
// earlier, admitted, unpaused Deployment selects is adopted and scaled to 0
// (WL-05).
func TestDeploymentAdoptsReplicaSets(t *testing.T) {
	const deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {%sselector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: i}]}}}"
	const rs = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web-copy, labels: {%s}%s}\nspec: {replicas: 2, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: i}]}}}"
	const note = `Deployment "web" adopts this ReplicaSet (its selector matches the ReplicaSet's labels) and scales it down to 0: its Pods do not stay`
	owned := ", ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: other, uid: u1, controller: true}]"
	tests := []struct {
		name      string
		docs      []string
		wantPods  int
		wantNote  string
		wantRepls int
	}{
		{"Deployment first, labels match", []string{fmt.Sprintf(deploy, ""), fmt.Sprintf(rs, "app: web", "")}, 0, note, 0},
		{"labels do not match", []string{fmt.Sprintf(deploy, ""), fmt.Sprintf(rs, "app: web-old", "")}, 2, "", 2},
		{"ReplicaSet owned by another controller", []string{fmt.Sprintf(deploy, ""), fmt.Sprintf(rs, "app: web", owned)}, 2, "", 2},
		{"paused Deployment (not simulated)", []string{fmt.Sprintf(deploy, "paused: true, "), fmt.Sprintf(rs, "app: web", "")}, 2, "", 2},
		{"ReplicaSet first (not simulated)", []string{fmt.Sprintf(rs, "app: web", ""), fmt.Sprintf(deploy, "")}, 2, "", 2},
		{"Deployment in another namespace", []string{fmt.Sprintf(deploy, "") + "\n", "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web-copy, namespace: other, labels: {app: web}}\nspec: {replicas: 2, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: i}]}}}"}, 2, "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "ns1"})
			var r Result
			for _, d := range tt.docs {
				res := e.Admit(decode(t, d))
				if !res.Allowed {
					t.Fatalf("%s: %+v", d, res.Denial)
				}
				if res.Kind == "ReplicaSet" {
					r = res
				}
			}
			if r.Workload == nil {
				t.Fatalf("no workload for the ReplicaSet: %+v", r)
			}
			pods := 0
			for _, c := range r.Workload.Created {
				if c.Kind == "Pod" && c.Allowed {
					pods++
				}
			}
			if pods != tt.wantPods || r.Workload.Note != tt.wantNote || r.Workload.Replicas != tt.wantRepls {
				t.Errorf("pods %d, replicas %d, note %q; want %d, %d, %q", pods, r.Workload.Replicas, r.Workload.Note, tt.wantPods, tt.wantRepls, tt.wantNote)
			}
		})
	}
}

// TestDeploymentReplicaSetAdoptsPods: WL-02. A Deployment's ReplicaSet
// claims the input's orphan Pods its selector matches, pod-template-hash
// included: a Pod exported from the same Deployment (its ownerReferences
// dropped) is adopted and one Pod fewer is created (kube-controller-manager
// 1.36.3: two Pods for replicas 2 under a pods: "2" quota). A Pod with the
// Deployment's labels but not the hash is not.
func TestDeploymentReplicaSetAdoptsPods(t *testing.T) {
	const deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 2, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: i}]}}}"
	scratch := New(Options{DefaultNamespace: "ns1"}).Admit(decode(t, deploy))
	if scratch.Workload == nil || len(scratch.Workload.Created) == 0 {
		t.Fatalf("no ReplicaSet: %+v", scratch)
	}
	rs := scratch.Workload.Created[0].Name
	hash := rs[len("web-"):]
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: %s, labels: {%s}}\nspec: {containers: [{name: c, image: i}]}"
	for _, tt := range []struct {
		name, labels       string
		adopted, createdOK int
	}{
		{"exported Pod with the hash", "app: web, pod-template-hash: " + hash, 1, 1},
		{"Pod without the hash", "app: web", 0, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "ns1"})
			if res := e.Admit(decode(t, fmt.Sprintf(pod, rs+"-abcde", tt.labels))); !res.Allowed {
				t.Fatalf("Pod: %+v", res.Denial)
			}
			r := e.Admit(decode(t, deploy))
			if r.Workload == nil {
				t.Fatalf("no workload: %+v", r.Denial)
			}
			pods := 0
			for _, c := range r.Workload.Created {
				if c.Kind == "Pod" && c.Allowed {
					pods++
				}
			}
			if r.Workload.Adopted != tt.adopted || pods != tt.createdOK || r.Workload.Admitted != 2 {
				t.Errorf("adopted %d, created %d, admitted %d; want %d, %d, 2", r.Workload.Adopted, pods, r.Workload.Admitted, tt.adopted, tt.createdOK)
			}
		})
	}
}
