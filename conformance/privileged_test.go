package conformance

import (
	"testing"

	"k8s.io/kubernetes/pkg/capabilities"

	"github.com/limitcheck/limitcheck/internal/eval"
)

// TestAllowPrivilegedFalse (VAL-18): with kube-apiserver's own default,
// --allow-privileged=false, a privileged container (in a Pod or a Deployment's
// template) is refused with the same 422 on both sides.
func TestAllowPrivilegedFalse(t *testing.T) {
	capabilities.ResetForTest()
	capabilities.Initialize(capabilities.Capabilities{AllowPrivileged: false})
	defer func() {
		capabilities.ResetForTest()
		capabilities.Initialize(capabilities.Capabilities{AllowPrivileged: true})
	}()
	docs := []string{
		`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i","securityContext":{"privileged":true}}]}}`,
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"initContainers":[{"name":"i","image":"i","securityContext":{"privileged":true}}],"containers":[{"name":"c","image":"i"}]}}}}`,
	}
	for _, d := range docs {
		up, err := NewUpstream(nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := up.Create([]byte(d), "ns1")
		if err != nil {
			t.Fatal(err)
		}
		got, err := Mine(eval.New(eval.Options{DefaultNamespace: "ns1", DisallowPrivileged: true}), []byte(d))
		if err != nil {
			t.Fatal(err)
		}
		if want.Allowed || want.Code != 422 {
			t.Fatalf("upstream admitted a privileged container: %+v", want)
		}
		if got.Denial == nil || got.Denial.Message != want.Message {
			t.Errorf("limitcheck %+v\nupstream  %s", got.Denial, want.Message)
		}
	}
}
