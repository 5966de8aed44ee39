package eval

import "testing"

// TestNamespaceValidation: NS-03, whole messages as a kube-apiserver 1.36.3
// control plane returned them, and the objects of a refused Namespace.
func TestNamespaceValidation(t *testing.T) {
	const ns = "apiVersion: v1\nkind: Namespace\n"
	for _, tc := range []struct {
		name, doc string
		want      string // "" valid: skipped
	}{
		{name: "valid", doc: ns + "metadata: {name: team-c, labels: {team: platform}}\nspec: {finalizers: [kubernetes, example.com/x]}\n"},
		{name: "label value and unqualified finalizer", doc: ns + "metadata:\n  name: team-a\n  labels: {team: \"platform team\"}\nspec:\n  finalizers: [custom, example.com/x]\n",
			want: `Namespace "team-a" is invalid: [metadata.labels: Invalid value: "platform team": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'), spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified]`},
		{name: "name not a DNS label", doc: ns + "metadata: {name: Team_B}\n",
			want: `Namespace "Team_B" is invalid: metadata.name: Invalid value: "Team_B": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
		{name: "the metadata.name label is overwritten", doc: ns + "metadata: {name: team-e, labels: {kubernetes.io/metadata.name: \"not valid\"}}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clusterScopedOutcome(t, New(Options{DefaultNamespace: "ns1"}).Admit(decode(t, tc.doc)), tc.want)
		})
	}

	e := New(Options{DefaultNamespace: "ns1"})
	e.Admit(decode(t, ns+"metadata: {name: team-a, labels: {team: \"platform team\"}}\n"))
	e.Admit(decode(t, ns+"metadata: {name: default, labels: {env: \"prod env\"}}\n"))
	res := e.Admit(decode(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: team-a}\n"))
	if want := `namespaces "team-a" not found`; res.Denial == nil || res.Denial.Message != want || res.Denial.Code != 404 {
		t.Errorf("object in a refused Namespace: got %+v, want 404 %s", res.Denial, want)
	}
	if res := e.Admit(decode(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d, namespace: default}\n")); res.Denial != nil {
		t.Errorf("object in default, whose refused document leaves it in place: %s", res.Denial.Message)
	}
}

// clusterScopedOutcome checks a cluster-scoped document's result: skipped
// (LimitRanges and quotas do not apply) when want is "", else denied with
// the whole message want.
func clusterScopedOutcome(t *testing.T, res Result, want string) {
	t.Helper()
	switch {
	case want == "":
		if res.Denial != nil || !res.Skipped {
			t.Fatalf("got denial %+v skipped %v, want skipped", res.Denial, res.Skipped)
		}
	case res.Denial == nil:
		t.Fatalf("not denied, want %s", want)
	case res.Denial.Message != want:
		t.Fatalf("got  %s\nwant %s", res.Denial.Message, want)
	}
}
