package check

import (
	"testing"
)

// VAL-76: the note on custom resources checked without their CRD's schema.
func TestSchemalessNote(t *testing.T) {
	const tail = ` checked without a schema: metadata, namespace and quota only; give their CRDs with the input to validate them as kube-apiserver would`
	for _, tc := range []struct {
		counts map[string]int
		want   string
	}{
		{nil, ""},
		{map[string]int{"monitoring.coreos.com/v1 ServiceMonitor": 1},
			`1 custom resource of a kind no CustomResourceDefinition of the input defines (monitoring.coreos.com/v1 ServiceMonitor)` + tail},
		{map[string]int{"cert-manager.io/v1 Certificate": 2, "monitoring.coreos.com/v1 ServiceMonitor": 1, "a.example.com/v1 A": 1, "b.example.com/v1 B": 1},
			`5 custom resources of kinds no CustomResourceDefinition of the input defines (a.example.com/v1 A, b.example.com/v1 B, cert-manager.io/v1 Certificate, 1 more)` + tail},
	} {
		rep := &Report{}
		schemalessNote(rep, tc.counts)
		got := ""
		if len(rep.Notes) == 1 {
			got = rep.Notes[0].Msg
		} else if len(rep.Notes) > 1 {
			t.Fatalf("%d notes", len(rep.Notes))
		}
		if got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}
