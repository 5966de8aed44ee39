package e2e

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
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

func TestDescribeCase(t *testing.T) {
	fsys := fstest.MapFS{
		"lr.yaml":  {Data: []byte("apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr}\nspec: {limits: [{type: Container, max: {cpu: \"1\"}}]}\n")},
		"pod.yaml": {Data: []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: nginx}]}\n")},
	}
	cases := []struct {
		args       []string
		types, why string
		docs       int
		ns         string
		inputOrder bool
	}{
		{args: []string{"describe", "limits,quota", "-n", "demo", "-f", "lr.yaml", "-f", "pod.yaml"}, types: "limits,quota", docs: 2, ns: "demo"},
		{args: []string{"describe", "--order=input", "limitranges", "-f", "lr.yaml"}, types: "limitranges", docs: 1, ns: "default", inputOrder: true},
		{args: []string{"describe", "quota", "compute", "-f", "lr.yaml"}, why: "describe by name"},
		{args: []string{"describe", "quota/compute", "-f", "lr.yaml"}, why: "describe quota/compute (not only LimitRanges and ResourceQuotas, or a TYPE/NAME)"},
		{args: []string{"describe", "limits,pods", "-f", "lr.yaml"}, why: "describe limits,pods (not only LimitRanges and ResourceQuotas, or a TYPE/NAME)"},
		{args: []string{"describe", "-f", "lr.yaml"}, why: "describe without a type"},
		{args: []string{"describe", "quota", "--replicas", "3", "-f", "lr.yaml"}, types: "quota", why: "flag --replicas (not reproduced on a cluster)"},
		{args: []string{"check", "lr.yaml"}, why: "not limitcheck describe"},
	}
	for _, c := range cases {
		got, types, why := DescribeCase("x", fsys, c.args)
		if why != c.why || types != c.types {
			t.Errorf("%v: got types %q, why %q; want %q, %q", c.args, types, why, c.types, c.why)
			continue
		}
		if c.why != "" {
			continue
		}
		if len(got.Docs) != c.docs || got.Namespace != c.ns || got.InputOrder != c.inputOrder {
			t.Errorf("%v: got %d docs, namespace %q, input order %v", c.args, len(got.Docs), got.Namespace, got.InputOrder)
		}
	}
}

// kubectl prints a LimitRange item's resources in map order; the
// comparison sorts them within each item, and nothing else.
func TestDescribeRows(t *testing.T) {
	const kubectl = `Name:       mixed
Namespace:  ns
Type        Resource  Min  Max  Default Request  Default Limit  Max Limit/Request Ratio
----        --------  ---  ---  ---------------  -------------  -----------------------
Pod         memory    -    4Gi  -                -              -
Pod         cpu       -    4    -                -              -
Container   memory    -    2Gi  2Gi              2Gi            -
Container   cpu       -    2    2                2              -


Name:       quota
Namespace:  ns
Resource    Used  Hard
--------    ----  ----
pods        1     2
memory      0     1Gi
`
	want := strings.Replace(strings.Replace(kubectl,
		"Pod         memory    -    4Gi  -                -              -\nPod         cpu       -    4    -                -              -",
		"Pod         cpu       -    4    -                -              -\nPod         memory    -    4Gi  -                -              -", 1),
		"Container   memory    -    2Gi  2Gi              2Gi            -\nContainer   cpu       -    2    2                2              -",
		"Container   cpu       -    2    2                2              -\nContainer   memory    -    2Gi  2Gi              2Gi            -", 1)
	if got := describeRows(kubectl); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A StatefulSet's Pod event whose claims both failed aggregates their
// errors; each is a refusal of its own.
func TestRefusalsOfAggregate(t *testing.T) {
	msg := `Create Pod w-3-0 in StatefulSet w-3 failed error: [failed to create PVC data-w-3-0: persistentvolumeclaims "data-w-3-0" is forbidden: minimum storage usage per PersistentVolumeClaim is 10Gi, but request is 1G, failed to create PVC logs-w-3-0: persistentvolumeclaims "logs-w-3-0" is forbidden: minimum storage usage per PersistentVolumeClaim is 10Gi, but request is 1Gi]`
	got := RefusalsOf(msg)
	want := []string{
		`persistentvolumeclaims "data-w-3-0" is forbidden: minimum storage usage per PersistentVolumeClaim is 10Gi, but request is 1G`,
		`persistentvolumeclaims "logs-w-3-0" is forbidden: minimum storage usage per PersistentVolumeClaim is 10Gi, but request is 1Gi`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("RefusalsOf:\n got %q\nwant %q", got, want)
	}
	if got := RefusalsOf("Error creating: pods \"p\" is forbidden: x"); !slices.Equal(got, []string{`pods "p" is forbidden: x`}) {
		t.Errorf("one refusal: %q", got)
	}
}
