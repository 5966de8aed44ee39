package eval

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
)

// TestClusterScopedNameTaken: ST-01 for cluster-scoped objects. A name the
// cluster already has (its initial namespaces, the RBAC bootstrap roles and
// bindings) or an earlier document of the input took is storage's 409, after
// validation; generateName is not checked; a refused object takes no name.
func TestClusterScopedNameTaken(t *testing.T) {
	const (
		cr  = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n"
		crb = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\n"
		ns  = "apiVersion: v1\nkind: Namespace\n"
		pv  = "apiVersion: v1\nkind: PersistentVolume\n"
		pvs = "spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /data}}\n"
	)
	type step struct {
		doc  string
		want string // "" skipped as a valid cluster-scoped object
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"the same ClusterRole twice", []step{
			{cr + "metadata: {name: reader}\n", ""},
			{cr + "metadata: {name: reader}\n", `409 clusterroles.rbac.authorization.k8s.io "reader" already exists`},
		}},
		{"a bootstrap role and binding", []step{
			{cr + "metadata: {name: view}\n", `409 clusterroles.rbac.authorization.k8s.io "view" already exists`},
			{crb + "metadata: {name: cluster-admin}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}\n",
				`409 clusterrolebindings.rbac.authorization.k8s.io "cluster-admin" already exists`},
			{cr + "metadata: {name: \"system:controller:my-operator\"}\n", ""},
		}},
		{"a role and a binding may share a name", []step{
			{cr + "metadata: {name: app}\n", ""},
			{crb + "metadata: {name: app}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: app}\n", ""},
		}},
		{"namespaces", []step{
			{ns + "metadata: {name: team-a}\n", ""},
			{ns + "metadata: {name: team-a}\n", `409 namespaces "team-a" already exists`},
			{ns + "metadata: {name: kube-system}\n", `409 namespaces "kube-system" already exists`},
			{ns + "metadata: {name: default}\n", `409 namespaces "default" already exists`},
		}},
		{"validation comes first; a refused object takes no name", []step{
			{pv + "metadata: {name: data}\nspec: {hostPath: {path: /data}}\n",
				`422 PersistentVolume "data" is invalid: [spec.accessModes: Required value, spec.capacity: Required value, spec.capacity: Unsupported value: null: supported values: "storage"]`},
			{pv + "metadata: {name: data}\n" + pvs, ""},
			{pv + "metadata: {name: data}\nspec: {hostPath: {path: /data}}\n",
				`422 PersistentVolume "data" is invalid: [spec.accessModes: Required value, spec.capacity: Required value, spec.capacity: Unsupported value: null: supported values: "storage"]`},
			{pv + "metadata: {name: data}\n" + pvs, `409 persistentvolumes "data" already exists`},
		}},
		{"generated names are not checked", []step{
			{pv + "metadata: {generateName: data-}\n" + pvs, ""},
			{pv + "metadata: {generateName: data-}\n" + pvs, ""},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "ns1"})
			for i, s := range tc.steps {
				res := e.Admit(decode(t, s.doc))
				got := ""
				if d := res.Denial; d != nil {
					got = strconv.Itoa(int(d.Code)) + " " + d.Message
				} else if !res.Skipped {
					got = "admitted, not skipped"
				}
				if got != s.want {
					t.Errorf("step %d: got %q\nwant %q", i, got, s.want)
				}
			}
		})
	}
	// The cluster's namespaces are kube-apiserver's system namespaces.
	for _, n := range []string{metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic, corev1.NamespaceNodeLease} {
		if !slices.Contains(InitialNamespaces, n) {
			t.Errorf("InitialNamespaces lacks %q", n)
		}
	}
}

// TestClusterScopedCustomResource: a cluster-scoped custom resource whose
// CRD the input has is decoded and validated against its schema as a
// namespaced one is (VAL-76..VAL-78), without a namespace, then charged a
// name (ST-01).
func TestClusterScopedCustomResource(t *testing.T) {
	crd := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"clusterissuers.cert-manager.io"},
"spec":{"group":"cert-manager.io","scope":"Cluster","names":{"plural":"clusterissuers","singular":"clusterissuer","kind":"ClusterIssuer","listKind":"ClusterIssuerList"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
"properties":{"acme":{"type":"object","required":["server"],"properties":{"server":{"type":"string"},"email":{"type":"string"}}},"selfSigned":{"type":"object"}}}}}}}]}}`
	catalog := apis.New()
	if err := catalog.AddCRD([]byte(crd)); err != nil {
		t.Fatal(err)
	}
	e := New(Options{DefaultNamespace: "ns1", APIs: catalog})
	for i, tc := range []struct{ doc, want string }{
		{`{"metadata":{"name":"letsencrypt","namespace":"ignored"},"spec":{"acme":{"server":"https://acme.example/dir","email":"ops@example.com"}}}`, ""},
		{`{"metadata":{"name":"selfsigned"},"spec":{"selfSigned":{},"selfsigned":{}}}`,
			`ClusterIssuer in version "v1" cannot be handled as a ClusterIssuer: strict decoding error: unknown field "spec.selfsigned"`},
		{`{"metadata":{"name":"staging"},"spec":{"acme":{"email":"ops@example.com"}}}`,
			`ClusterIssuer.cert-manager.io "staging" is invalid: spec.acme.server: Required value`},
		{`{"metadata":{"name":"Bad_Name"},"spec":{}}`,
			`ClusterIssuer.cert-manager.io "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{`{"metadata":{"name":"letsencrypt"},"spec":{}}`, `clusterissuers.cert-manager.io "letsencrypt" already exists`},
	} {
		u := NewCustomObject(catalog, "cert-manager.io/v1", "ClusterIssuer")
		if err := json.Unmarshal([]byte(`{"apiVersion":"cert-manager.io/v1","kind":"ClusterIssuer",`+tc.doc[1:]), u); err != nil {
			t.Fatal(err)
		}
		res := e.Admit(u)
		got := ""
		if res.Denial != nil {
			got = res.Denial.Message
		} else if !res.Skipped {
			t.Errorf("case %d: admitted, not skipped as cluster-scoped", i)
		}
		if got != tc.want {
			t.Errorf("case %d: got %q\nwant %q", i, got, tc.want)
		}
	}
}

// TestClassNameTaken: ST-01 for the cluster classes. A second PriorityClass,
// StorageClass or RuntimeClass of a name, or a PriorityClass named as a
// system class, is storage's 409 and not part of the cluster (the Pod reads
// the first); the Priority plugin's one-default check comes before it. Read
// from a live cluster, the system classes are live ones an input class of
// their name replaces (CL-01).
func TestClassNameTaken(t *testing.T) {
	const (
		pc = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
		sc = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\n"
		rc = "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
	)
	docs := []struct{ doc, want string }{
		{pc + "metadata: {name: high}\nvalue: 1000\n", ""},
		{pc + "metadata: {name: high}\nvalue: 2000\n", `409 priorityclasses.scheduling.k8s.io "high" already exists`},
		{pc + "metadata: {name: system-node-critical}\nvalue: 2000001000\n", `409 priorityclasses.scheduling.k8s.io "system-node-critical" already exists`},
		{pc + "metadata: {name: default-a}\nvalue: 10\nglobalDefault: true\n", ""},
		{pc + "metadata: {name: default-a}\nvalue: 10\nglobalDefault: true\n",
			`403 priorityclasses.scheduling.k8s.io "default-a" is forbidden: PriorityClass default-a is already marked as default. Only one default can exist`},
		{sc + "metadata: {name: fast}\nprovisioner: ebs.csi.aws.com\n", ""},
		{sc + "metadata: {name: fast}\nprovisioner: ebs.csi.aws.com\n", `409 storageclasses.storage.k8s.io "fast" already exists`},
		{rc + "metadata: {name: gvisor}\nhandler: runsc\n", ""},
		{rc + "metadata: {name: gvisor}\nhandler: runsc\n", `409 runtimeclasses.node.k8s.io "gvisor" already exists`},
	}
	e := New(Options{DefaultNamespace: "ns1"})
	objs := make([]runtime.Object, len(docs))
	for i, d := range docs {
		objs[i] = decode(t, d.doc)
		if !e.AddClusterObject(objs[i]) {
			t.Fatalf("doc %d: not a class", i)
		}
	}
	for i, d := range docs {
		res := e.Admit(objs[i])
		got := ""
		if res.Denial != nil {
			got = strconv.Itoa(int(res.Denial.Code)) + " " + res.Denial.Message
		}
		if got != d.want {
			t.Errorf("doc %d: got %q\nwant %q", i, got, d.want)
		}
	}
	res := e.Admit(decode(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {priorityClassName: high, containers: [{name: c, image: nginx}]}\n"))
	if p := res.Object.(*corev1.Pod).Spec.Priority; res.Denial != nil || p == nil || *p != 1000 {
		t.Errorf("Pod: denial %+v, priority %v, want the first class's 1000", res.Denial, p)
	}

	live := New(Options{DefaultNamespace: "ns1"})
	live.addLiveClass(decode(t, pc+"metadata: {name: system-cluster-critical}\nvalue: 2000000000\n"))
	replacing := decode(t, pc+"metadata: {name: system-node-critical}\nvalue: 2000001000\n")
	live.AddClusterObject(replacing)
	if res := live.Admit(replacing); res.Denial != nil {
		t.Errorf("with live classes read, an input system class replaces the live one: got %s", res.Denial.Message)
	}
}
