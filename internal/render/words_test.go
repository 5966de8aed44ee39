package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/status"
)

// TestSummaryWording: every count in the summary line agrees with its noun, and
// the replicas admitted are counted as a workload's line counts them.
func TestSummaryWording(t *testing.T) {
	for _, tt := range []struct {
		s    check.Summary
		want string
	}{
		{check.Summary{}, "0 objects: 0 admitted, 0 denied, 0 skipped"},
		{check.Summary{Objects: 1, Admitted: 1}, "1 object: 1 admitted, 0 denied, 0 skipped"},
		{check.Summary{Objects: 3, Admitted: 1, Denied: 1, Errors: 1}, "3 objects: 1 admitted, 1 denied, 0 skipped, 1 error"},
		{check.Summary{Objects: 4, Errors: 2, Internal: 1}, "4 objects: 0 admitted, 0 denied, 0 skipped, 2 errors, 1 internal error"},
		{check.Summary{Objects: 2, Internal: 2}, "2 objects: 0 admitted, 0 denied, 0 skipped, 2 internal errors"},
		{check.Summary{Objects: 1, Admitted: 1, Workloads: 1, Replicas: 1}, "1 object: 1 admitted, 0 denied, 0 skipped; 1 of 1 replica admitted"},
		{check.Summary{Objects: 1, Denied: 1, Workloads: 1, Replicas: 1, Unfit: 1}, "1 object: 0 admitted, 1 denied, 0 skipped; 0 of 1 replica admitted"},
		{check.Summary{Objects: 1, Denied: 1, Workloads: 1, Replicas: 5, Unfit: 1}, "1 object: 0 admitted, 1 denied, 0 skipped; 4 of 5 replicas admitted"},
		{check.Summary{Objects: 1, Denied: 1, Workloads: 1, Replicas: 5, Unfit: 2}, "1 object: 0 admitted, 1 denied, 0 skipped; 3 of 5 replicas admitted"},
		{check.Summary{Objects: 1, Admitted: 1, Workloads: 1, Replicas: 2}, "1 object: 1 admitted, 0 denied, 0 skipped; 2 of 2 replicas admitted"},
		{check.Summary{Objects: 1, Admitted: 1, Workloads: 1}, "1 object: 1 admitted, 0 denied, 0 skipped; 0 of 0 replicas admitted"},
	} {
		var b strings.Builder
		writeSummary(&b, newPalette(false), tt.s)
		if got := b.String(); got != tt.want+"\n" {
			t.Errorf("%+v:\n got %q\nwant %q", tt.s, got, tt.want+"\n")
		}
	}
}

// TestWorkloadWording: a workload's line and the lines under it, every count
// with its noun.
func TestWorkloadWording(t *testing.T) {
	created := []eval.Result{{Kind: "ReplicaSet", Namespace: "shop", Name: "web", Allowed: true}}
	pod := func(i int, msg string) eval.Result {
		name := fmt.Sprintf("web-%d", i)
		r := eval.Result{Kind: "Pod", Namespace: "shop", Name: name, Pod: name, Allowed: msg == ""}
		if msg != "" {
			r.Denial = &status.Denial{Message: fmt.Sprintf("pods %q is forbidden: %s", name, msg)}
		}
		return r
	}
	created = append(created, pod(0, ""))
	for i := 1; i <= 3; i++ {
		created = append(created, pod(i, "exceeded quota: compute"))
	}
	for i := 4; i <= 8; i++ {
		created = append(created, pod(i, fmt.Sprintf("reason %d", i)))
	}
	res := &eval.Result{Kind: "Deployment", Namespace: "shop", Name: "web", Workload: &eval.Workload{Replicas: 9, Admitted: 1, Created: created}}
	var b strings.Builder
	writeDenial(&b, newPalette(false), "web.yaml:1:", "Deployment shop/web", res)
	want := `web.yaml:1: Deployment shop/web: 1 of 9 replicas admitted; Pod web-1: pods "web-1" is forbidden: exceeded quota: compute
    Pod web-4: pods "web-4" is forbidden: reason 4
    Pod web-5: pods "web-5" is forbidden: reason 5
    Pod web-6: pods "web-6" is forbidden: reason 6
    2 more Pods refused for the same reason
    2 more objects refused for other reasons (-o json lists them all)
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}

	b.Reset()
	one := &eval.Result{Kind: "StatefulSet", Namespace: "shop", Name: "db", Workload: &eval.Workload{Replicas: 1, NotCreated: 1, Created: []eval.Result{
		{Kind: "PersistentVolumeClaim", Name: "data-db-0", Pod: "db-0", Denial: &status.Denial{Message: `persistentvolumeclaims "data-db-0" is forbidden: x`}},
	}}}
	writeDenial(&b, newPalette(false), "db.yaml:1:", "StatefulSet shop/db", one)
	want = `db.yaml:1: StatefulSet shop/db: 0 of 1 replica admitted; PersistentVolumeClaim data-db-0: persistentvolumeclaims "data-db-0" is forbidden: x
    1 more replica not created: the StatefulSet controller (OrderedReady) waits for the refused one
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}
