package eval

import (
	"fmt"
	"strings"
	"testing"
)

// TestExpect: an engine told that no quota follows (Outlook.NoQuotas) and
// where adopters may come gives the same results and quota usage as one
// that keeps everything, without keeping the objects for the recount or
// the orphans where nothing can adopt them; a quota admitted despite the
// promise is an internal error, never a silent miscount.
func TestExpect(t *testing.T) {
	policies := []string{
		"apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: a}\nspec: {hard: {pods: '3', requests.cpu: '1'}}",
		"apiVersion: v1\nkind: LimitRange\nmetadata: {name: l, namespace: a}\nspec: {limits: [{type: Container, defaultRequest: {cpu: 300m}}]}",
	}
	var objects []string
	for i := range 4 {
		for _, ns := range []string{"a", "b"} {
			objects = append(objects, fmt.Sprintf("apiVersion: v1\nkind: Pod\nmetadata: {name: p%d, namespace: %s, labels: {app: x}}\nspec: {containers: [{name: c, image: i}]}", i, ns))
		}
	}
	objects = append(objects,
		"apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs, namespace: b}\nspec: {replicas: 5, selector: {matchLabels: {app: x}}, template: {metadata: {labels: {app: x}}, spec: {containers: [{name: c, image: i}]}}}",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p0, namespace: b}\nspec: {containers: [{name: c, image: i}]}")
	admitAll := func(e *Engine, expect bool) []string {
		var out []string
		for _, d := range policies {
			out = append(out, summarize(e.Admit(decode(t, d))))
		}
		if expect {
			e.Expect(Outlook{NoQuotas: true, Adopters: map[string]bool{"b": true}})
		}
		for _, d := range objects {
			out = append(out, summarize(e.Admit(decode(t, d))))
		}
		for _, q := range e.Quotas() {
			out = append(out, fmt.Sprintf("quota %s/%s used %v", q.Quota.Namespace, q.Quota.Name, q.Quota.Status.Used))
		}
		return out
	}
	want := admitAll(New(Options{}), false)
	if all := fmt.Sprint(want); !strings.Contains(all, "adopted=4") || !strings.Contains(all, "exceeded quota: q") || !strings.Contains(all, `pods "p0" already exists`) {
		t.Fatalf("the case lacks adoption, a quota refusal or a 409:\n%q", want)
	}
	e := New(Options{})
	got := admitAll(e, true)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("with Expect:\n%q\nwithout:\n%q", got, want)
	}
	if n := len(e.namespaces["a"].Objects) + len(e.namespaces["b"].Objects); n != 0 {
		t.Errorf("%d objects kept for a recount that cannot come", n)
	}
	if n := len(e.namespaces["a"].orphans); n != 0 {
		t.Errorf("%d orphans kept in a namespace nothing adopts in", n)
	}
	res := e.Admit(decode(t, policies[0]))
	if res.Internal != "a ResourceQuota was admitted after the caller promised none would follow (Engine.Expect)" {
		t.Errorf("quota after the promise: %+v", res)
	}
}

// summarize is a result's verdict and message, and what its controllers did.
func summarize(r Result) string {
	s := fmt.Sprintf("%s %s/%s allowed=%v", r.Kind, r.Namespace, r.Name, r.Allowed)
	if r.Denial != nil {
		s += " " + r.Denial.Message
	}
	if w := r.Workload; w != nil {
		s += fmt.Sprintf(" replicas=%d admitted=%d adopted=%d", w.Replicas, w.Admitted, w.Adopted)
	}
	return s
}
