package eval

import (
	"fmt"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestPrepare: Pods prepared ahead on other goroutines (Prepare, then
// AdmitPrepared in input order) are admitted exactly as Admit admits them:
// same results, same mutated Pods, same quota usage.
func TestPrepare(t *testing.T) {
	policies := []string{
		"apiVersion: v1\nkind: LimitRange\nmetadata: {name: l, namespace: a}\nspec: {limits: [{type: Container, default: {cpu: 500m, memory: 256Mi}, defaultRequest: {cpu: 100m}, max: {cpu: '1'}}]}",
		"apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: a}\nspec: {hard: {pods: '5', requests.cpu: '1', limits.memory: 1Gi}}",
		"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000",
		"apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: sandbox}\nhandler: runsc\noverhead: {podFixed: {memory: 1Gi}}",
	}
	objects := []string{
		"apiVersion: v1\nkind: Pod\nmetadata: {name: ok, namespace: a}\nspec: {containers: [{name: c, image: i}]}",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: too-big, namespace: a}\nspec: {containers: [{name: c, image: i, resources: {limits: {cpu: '2'}}}]}",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: Invalid_Name, namespace: a}\nspec: {containers: [{name: c, image: i}]}",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: prio, namespace: a}\nspec: {priorityClassName: high, containers: [{name: c, image: i}]}",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: no-class, namespace: a}\nspec: {priorityClassName: nope, containers: [{name: c, image: i}]}",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: ok, namespace: a}\nspec: {containers: [{name: c, image: i}]}",
		"apiVersion: v1\nkind: Pod\nmetadata: {generateName: gen-, namespace: a}\nspec: {containers: [{name: c, image: i}]}",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: elsewhere}\nspec: {containers: [{name: c, image: i}]}",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: Bad_NS}\nspec: {containers: [{name: c, image: i}]}",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: bad-sa, namespace: a}\nspec: {serviceAccountName: Not_An_Account, containers: [{name: c, image: i}]}",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: a}",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: last, namespace: a}\nspec: {containers: [{name: c, image: i}]}",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: over, namespace: a}\nspec: {containers: [{name: c, image: i}]}",
		// Computing the usage adds the overhead to 1.5Gi itself (RQ-12): once
		// where a quota charges it, never where none does.
		"apiVersion: v1\nkind: Pod\nmetadata: {name: overhead, namespace: a}\nspec: {runtimeClassName: sandbox, resources: {requests: {memory: 1.5Gi}}, containers: [{name: c, image: i}]}",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: overhead, namespace: b}\nspec: {runtimeClassName: sandbox, resources: {requests: {memory: 1.5Gi}}, containers: [{name: c, image: i}]}",
	}
	start := func() *Engine {
		e := New(Options{})
		for _, d := range policies {
			obj := decode(t, d)
			if !e.AddClusterObject(obj) {
				if r := e.Admit(obj); !r.Allowed {
					t.Fatalf("policy refused: %+v", r.Denial)
				}
			}
		}
		return e
	}
	want := start()
	wantObjs := make([]runtime.Object, len(objects))
	var wantRes []string
	for i, d := range objects {
		wantObjs[i] = decode(t, d)
		wantRes = append(wantRes, summarize(want.Admit(wantObjs[i])))
	}

	e := start()
	e.Expect(Outlook{NoQuotas: true, Settled: true})
	objs := make([]runtime.Object, len(objects))
	preps := make([]*Prepared, len(objects))
	var wg sync.WaitGroup
	for i, d := range objects {
		objs[i] = decode(t, d)
		wg.Go(func() { preps[i] = e.Prepare(objs[i]) })
	}
	wg.Wait()
	prepared := 0
	for i := range objects {
		if preps[i] != nil {
			prepared++
		}
		if got := summarize(e.AdmitPrepared(objs[i], preps[i])); got != wantRes[i] {
			t.Errorf("object %d prepared=%v:\n got %s\nwant %s", i, preps[i] != nil, got, wantRes[i])
		}
		if !equality.Semantic.DeepEqual(objs[i], wantObjs[i]) {
			t.Errorf("object %d: prepared object differs:\n got %+v\nwant %+v", i, objs[i], wantObjs[i])
		}
	}
	// Everything but the generateName Pod, the impossible namespace and the
	// ConfigMap.
	if prepared != len(objects)-3 {
		t.Errorf("%d objects prepared, want %d", prepared, len(objects)-3)
	}
	if got, want := fmt.Sprint(e.Quotas()[0].Quota.Status.Used), fmt.Sprint(want.Quotas()[0].Quota.Status.Used); got != want {
		t.Errorf("quota used %s, want %s", got, want)
	}

	// Nothing is prepared before the policies are settled.
	if p := start().Prepare(decode(t, objects[0])); p != nil {
		t.Errorf("prepared without settled policies")
	}
	// A LimitRange after the promise is a bug, never a silent difference.
	if r := e.Admit(decode(t, policies[0])); r.Internal == "" {
		t.Errorf("LimitRange after Settled: %+v", r)
	}
}
