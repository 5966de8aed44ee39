package eval

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// TestStatefulSetRevisionLabel (WL-07): every Pod of a StatefulSet is
// labelled with the set's first ControllerRevision, "<set>-<hash>"; past 63
// bytes the label refuses every Pod. The hash is the one kube-apiserver's
// StatefulSet controller computes for this template (conformance:
// TestRealManifestsParity on the same document); it does not depend on the
// set's name, which is not in the template.
func TestStatefulSetRevisionLabel(t *testing.T) {
	const hash = "5685d99b96"
	set := func(name string) string {
		return "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: " + name + "}\n" +
			"spec: {replicas: 1, serviceName: x, selector: {matchLabels: {app: db}}, template: {metadata: {labels: {app: db}}, spec: {containers: [{name: c, image: nginx}]}}}"
	}
	for _, tt := range []struct {
		name, denial string
	}{
		{name: strings.Repeat("d", 52)},
		{name: strings.Repeat("d", 53), denial: `Pod "` + strings.Repeat("d", 53) + `-0" is invalid: metadata.labels: Invalid value: "` +
			strings.Repeat("d", 53) + "-" + hash + `": must be no more than 63 bytes`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := New(Options{DefaultNamespace: "ns1", OmitNamespaceObjects: true}).Admit(decode(t, set(tt.name)))
			if r.Workload == nil || len(r.Workload.Created) != 1 {
				t.Fatalf("want one created Pod, got %+v (denial %+v)", r.Workload, r.Denial)
			}
			pod := r.Workload.Created[0]
			switch {
			case tt.denial == "" && pod.Denial != nil:
				t.Fatalf("Pod refused: %s", pod.Denial.Message)
			case tt.denial != "" && (pod.Denial == nil || pod.Denial.Message != tt.denial):
				t.Fatalf("Pod denial %+v, want %s", pod.Denial, tt.denial)
			}
			if tt.denial == "" {
				if got := pod.Object.(*corev1.Pod).Labels[appsv1.StatefulSetRevisionLabel]; got != tt.name+"-"+hash {
					t.Errorf("label %s = %q, want %q", appsv1.StatefulSetRevisionLabel, got, tt.name+"-"+hash)
				}
			}
		})
	}
}
