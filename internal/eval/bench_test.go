package eval

import (
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
)

// BenchmarkAdmitPod is the engine's cost per Pod, decoding excluded: a
// namespace with a LimitRange and two quotas, Pods with two containers.
func BenchmarkAdmitPod(b *testing.B) {
	policies := []string{
		"apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr, namespace: ns}\nspec: {limits: [{type: Container, default: {cpu: 500m, memory: 256Mi}, defaultRequest: {cpu: 100m, memory: 128Mi}, max: {cpu: '2'}}]}",
		"apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: compute, namespace: ns}\nspec: {hard: {pods: '1e9', requests.cpu: 1M, requests.memory: 1Ei, limits.cpu: 1M}}",
		"apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: count, namespace: ns}\nspec: {hard: {count/pods: '1e9', services: '10'}}",
	}
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {generateName: p%d-, namespace: ns, labels: {app: web}}\nspec: {containers: [{name: app, image: web:1, resources: {requests: {cpu: 250m}}}, {name: proxy, image: envoy:1}]}"
	pods := make([]runtime.Object, 1024)
	for i := range pods {
		pods[i] = decode(b, fmt.Sprintf(pod, i))
	}
	e := New(Options{DefaultNamespace: "ns"})
	for _, p := range policies {
		if r := e.Admit(decode(b, p)); !r.Allowed {
			b.Fatal(r.Denial)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		obj := pods[i%len(pods)].DeepCopyObject()
		i++
		if r := e.Admit(obj); !r.Allowed {
			b.Fatal(r.Denial)
		}
	}
}
