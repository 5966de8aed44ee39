package load

import (
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestLastAppliedWarning: the size of kubectl apply's annotation, to the
// byte (ST-05). The boundary is the one kube-apiserver 1.36.3 showed for
// this ConfigMap under kubectl apply -n s36z: refused from 261940 bytes of
// data on, created at 261939.
func TestLastAppliedWarning(t *testing.T) {
	cm := func(n int, extra string) []byte {
		y := fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big%d\n  annotations: {note: \"<&>\"%s}\ndata:\n  x: %q\n", n, extra, strings.Repeat("a", n))
		js, err := yaml.YAMLToJSON([]byte(y))
		if err != nil {
			t.Fatal(err)
		}
		return js
	}
	const refused = `kubectl apply refuses it unless --server-side: it would keep the whole object, 262090 bytes, in the annotation kubectl.kubernetes.io/last-applied-configuration, and kube-apiserver answers metadata.annotations: Too long: may not be more than 262144 bytes (kubectl create, or kubectl apply --server-side, creates it)`
	for _, tc := range []struct {
		name      string
		js        []byte
		namespace string
		want      string
	}{
		{"last created", cm(261939, ""), "s36z", ""},
		{"first refused", cm(261940, ""), "s36z", refused},
		// The namespace kubectl sets is in the annotation; one the
		// object names is already in its JSON.
		{"no namespace set", cm(261940, ""), "", ""},
		{"a longer one", cm(261939, ""), "s36zz", refused},
		// An earlier annotation of kubectl's is left out of the new one,
		// though it counts while the object holds it.
		{"an earlier annotation replaced", cm(261939, `, kubectl.kubernetes.io/last-applied-configuration: "`+strings.Repeat("b", 1000)+`"`), "s36z", ""},
		{"small", []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`), "default", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := LastAppliedWarning(tc.js, tc.namespace); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
