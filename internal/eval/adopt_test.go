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
