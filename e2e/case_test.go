package e2e

import (
	"strings"
	"testing"
)

// A List is replayed item by item, as kubectl create -f creates it; SplitYAML
// (the Sources of --from-cluster cases index documents) still refuses it.
func TestSplitYAMLItems(t *testing.T) {
	const list = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ResourceQuota
  metadata: {name: pvcs-gold}
  spec: {hard: {persistentvolumeclaims: "10"}}
- apiVersion: v1
  kind: ResourceQuota
  metadata: {name: pvcs-silver}
  spec: {hard: {persistentvolumeclaims: "10"}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: gold-vac-pvc}
`
	cases := []struct {
		name  string
		split func([]byte) ([][]byte, error)
		want  []string
		err   string
	}{
		{"items", SplitYAMLItems, []string{"ResourceQuota/pvcs-gold", "ResourceQuota/pvcs-silver", "PersistentVolumeClaim/gold-vac-pvc"}, ""},
		{"documents", SplitYAML, nil, "a List: not replayed"},
	}
	for _, c := range cases {
		docs, err := c.split([]byte(list))
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []string
		for _, d := range docs {
			m := metaOf(d)
			got = append(got, m.Kind+"/"+m.Metadata.Name)
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}
