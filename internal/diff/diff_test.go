package diff

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/quota"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/load"
)

// entry is a Pod in namespace shop at file:1, admitted when msg is "".
func entry(file, name, msg string) check.Entry {
	e := check.Entry{Pos: load.Position{File: file, Line: 1}, Result: eval.Result{APIVersion: "v1", Kind: "Pod", Namespace: "shop", Name: name, Allowed: msg == ""}}
	if msg != "" {
		e.Result.Denial = &status.Denial{Message: msg}
	}
	return e
}

func quotaState(used string) quota.State {
	return quota.State{Quota: &corev1.ResourceQuota{
		ObjectMeta: metav1.ObjectMeta{Name: "compute", Namespace: "shop"},
		Status: corev1.ResourceQuotaStatus{
			Hard: corev1.ResourceList{corev1.ResourceRequestsCPU: resource.MustParse("2")},
			Used: corev1.ResourceList{corev1.ResourceRequestsCPU: resource.MustParse(used)},
		},
	}}
}

func names(cs []Change) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return strings.Join(out, ",")
}

func TestCompare(t *testing.T) {
	base := &check.Report{
		Entries: []check.Entry{
			entry("a.yaml", "stays", ""),
			entry("a.yaml", "breaks", ""),
			entry("a.yaml", "fixed", "too big"),
			entry("a.yaml", "same", "too big"),
			entry("a.yaml", "other", "too big"),
			entry("a.yaml", "gone", "too big"),
		},
		Quotas: []quota.State{quotaState("1500m")},
	}
	head := &check.Report{
		Entries: []check.Entry{
			entry("b.yaml", "stays", ""),
			entry("b.yaml", "breaks", "exceeded"),
			entry("b.yaml", "fixed", ""),
			entry("b.yaml", "same", "too big"),
			entry("b.yaml", "other", "much too big"),
			entry("b.yaml", "new", "exceeded"),
		},
		Quotas: []quota.State{quotaState("1")},
	}
	web := entry("b.yaml", "web", "")
	web.Result.Kind, web.Result.Allowed = "Deployment", false
	web.Result.Workload = &eval.Workload{Replicas: 3, Admitted: 2}
	head.Entries = append(head.Entries, web)
	d := Compare(base, head)
	if len(d.Namespaces) != 1 {
		t.Fatalf("namespaces: %+v", d.Namespaces)
	}
	n := d.Namespaces[0]
	for what, got := range map[string][2]string{
		"newly denied":   {names(n.NewlyDenied), "breaks,new,web"},
		"newly admitted": {names(n.NewlyAdmitted), "fixed"},
		"removed":        {names(n.Removed), "gone"},
		"reason changed": {names(n.ReasonChanged), "other"},
		"denied in both": {names(n.DeniedInBoth), "same"},
	} {
		if got[0] != got[1] {
			t.Errorf("%s: %q, want %q", what, got[0], got[1])
		}
	}
	if c := n.NewlyDenied[2]; c.Head.Message != "2 of 3 replicas admitted" {
		t.Errorf("workload message %q", c.Head.Message)
	}
	if n.Base != (Fit{}) || n.Head != (Fit{Replicas: 3, Admitted: 2}) {
		t.Errorf("replicas: %+v, %+v", n.Base, n.Head)
	}
	if d.NewlyDenied != 3 || d.HeadDenied != 5 || d.Removed != 1 {
		t.Errorf("counts: %+v", d)
	}
	if c := n.ReasonChanged[0]; c.Base.File != "a.yaml" || c.Base.Message != "too big" || c.Head.File != "b.yaml" || c.Head.Message != "much too big" {
		t.Errorf("reason changed: %+v %+v", c.Base, c.Head)
	}
	want := QuotaRow{Quota: "compute", Resource: "requests.cpu", Before: "1500m", After: "1", Delta: "-500m", Hard: "2"}
	if len(n.Quotas) != 1 || n.Quotas[0] != want {
		t.Errorf("quotas: %+v, want %+v", n.Quotas, want)
	}

	// Identical sides: nothing but the quota rows, delta 0.
	d = Compare(base, base)
	if d.NewlyDenied+d.NewlyAdmitted+d.Removed+d.ReasonChanged != 0 || d.DeniedInBoth != 4 || d.Namespaces[0].Quotas[0].Delta != "0" {
		t.Errorf("identical sides: %+v", d)
	}
}
