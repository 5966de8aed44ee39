package eval

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
)

// TestPolicyRBACValidation: VAL-69 (PodDisruptionBudget), VAL-70 (Role) and
// VAL-71 (RoleBinding), whole messages as kube-apiserver 1.36 words them
// (taken from the real strategies; the conformance module's
// TestPolicyRBACValidationParity compares random documents).
func TestPolicyRBACValidation(t *testing.T) {
	const (
		pdb   = `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"web"},"spec":{`
		sel   = `"selector":{"matchLabels":{"app":"web"}}`
		role  = `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"reader"},"rules":[`
		rb    = `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"read"},`
		toRef = `"roleRef":{"kind":"Role","name":"reader"},`
	)
	for _, tc := range []struct {
		name, doc string
		want      string // "" admitted
	}{
		{name: "VAL-69 valid PDB", doc: pdb + `"minAvailable":"50%",` + sel + `,"unhealthyPodEvictionPolicy":"AlwaysAllow"}}`},
		{name: "VAL-69 both minAvailable and maxUnavailable",
			doc:  pdb + `"minAvailable":1,"maxUnavailable":"25%",` + sel + `}}`,
			want: `PodDisruptionBudget.policy "web" is invalid: spec: Invalid value: {"MinAvailable":1,"Selector":{"matchLabels":{"app":"web"}},"MaxUnavailable":"25%","UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set`},
		{name: "VAL-69 negative minAvailable",
			doc:  pdb + `"minAvailable":-1,` + sel + `}}`,
			want: `PodDisruptionBudget.policy "web" is invalid: spec.minAvailable: Invalid value: -1: must be greater than or equal to 0`},
		{name: "VAL-69 maxUnavailable over 100%",
			doc:  pdb + `"maxUnavailable":"150%",` + sel + `}}`,
			want: `PodDisruptionBudget.policy "web" is invalid: spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%`},
		{name: "VAL-69 minAvailable neither int nor percentage",
			doc:  pdb + `"minAvailable":"half",` + sel + `}}`,
			want: `PodDisruptionBudget.policy "web" is invalid: spec.minAvailable: Invalid value: "half": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		{name: "VAL-69 selector expression without values",
			doc:  pdb + `"minAvailable":1,"selector":{"matchExpressions":[{"key":"tier","operator":"In"}]}}}`,
			want: "PodDisruptionBudget.policy \"web\" is invalid: spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"},
		{name: "VAL-69 unknown unhealthyPodEvictionPolicy",
			doc:  pdb + `"minAvailable":1,` + sel + `,"unhealthyPodEvictionPolicy":"Never"}}`,
			want: `PodDisruptionBudget.policy "web" is invalid: spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"`},
		{name: "VAL-69 a PDB name is only a path segment",
			doc: `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"Web_PDB"},"spec":{"minAvailable":1}}`},
		{name: "VAL-69 a name that is no path segment, checked after the spec",
			doc:  `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"a/b"},"spec":{"minAvailable":1}}`,
			want: `PodDisruptionBudget.policy "a/b" is invalid: metadata.name: Invalid value: "a/b": may not contain '/'`},
		{name: "VAL-69 the v1beta1 label is dropped from a selector that is not the match-none one",
			doc: pdb + `"minAvailable":1,"selector":{"matchExpressions":[{"key":"pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match","operator":"In"},{"key":"tier","operator":"Exists"}]}}}`},

		{name: "VAL-70 valid Role", doc: role + `{"apiGroups":["","apps"],"resources":["pods","deployments"],"verbs":["get","list"]}]}`},
		{name: "VAL-70 rule without verbs",
			doc:  role + `{"apiGroups":[""],"resources":["pods"]}]}`,
			want: `Role.rbac.authorization.k8s.io "reader" is invalid: rules[0].verbs: Required value: verbs must contain at least one value`},
		{name: "VAL-70 rule without apiGroups",
			doc:  role + `{"resources":["pods"],"verbs":["get"]}]}`,
			want: `Role.rbac.authorization.k8s.io "reader" is invalid: rules[0].apiGroups: Required value: resource rules must supply at least one api group`},
		{name: "VAL-70 nonResourceURLs in a namespaced Role",
			doc:  role + `{"nonResourceURLs":["/healthz"],"verbs":["get"]}]}`,
			want: `Role.rbac.authorization.k8s.io "reader" is invalid: rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs`},
		{name: "VAL-70 nonResourceURLs beside resources",
			doc:  role + `{"apiGroups":[""],"resources":["pods"],"nonResourceURLs":["/healthz","/metrics"],"verbs":["get"]}]}`,
			want: `Role.rbac.authorization.k8s.io "reader" is invalid: [rules[0].nonResourceURLs: Invalid value: ["/healthz","/metrics"]: namespaced rules cannot apply to non-resource URLs, rules[0].nonResourceURLs: Invalid value: ["/healthz","/metrics"]: rules cannot apply to both regular resources and non-resource URLs]`},
		{name: "VAL-70 a generateName prefix is held to the whole-name rule",
			doc:  `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"generateName":"."},"rules":[]}`,
			want: `Role.rbac.authorization.k8s.io ".xxxxx" is invalid: metadata.generateName: Invalid value: ".": may not be '.'`},
		{name: "VAL-70 a Role name may have capitals and colons",
			doc: `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"Team:Reader"}}`},

		{name: "VAL-71 valid RoleBinding, apiGroups defaulted",
			doc: rb + `"roleRef":{"kind":"ClusterRole","name":"system:aggregate-to-view"},"subjects":[{"kind":"ServiceAccount","name":"default"},{"kind":"User","name":"alice@example.com"},{"kind":"Group","name":"Dev Team"}]}`},
		{name: "VAL-71 roleRef kind not Role or ClusterRole",
			doc:  rb + `"roleRef":{"kind":"Group","name":"reader"},"subjects":[{"kind":"ServiceAccount","name":"default"}]}`,
			want: `RoleBinding.rbac.authorization.k8s.io "read" is invalid: roleRef.kind: Unsupported value: "Group": supported values: "Role", "ClusterRole"`},
		{name: "VAL-71 roleRef apiGroup with a version",
			doc:  rb + `"roleRef":{"apiGroup":"rbac.authorization.k8s.io/v1","kind":"Role","name":"reader"}}`,
			want: `RoleBinding.rbac.authorization.k8s.io "read" is invalid: roleRef.apiGroup: Unsupported value: "rbac.authorization.k8s.io/v1": supported values: "rbac.authorization.k8s.io"`},
		{name: "VAL-71 roleRef without name",
			doc:  rb + `"roleRef":{"kind":"Role"}}`,
			want: `RoleBinding.rbac.authorization.k8s.io "read" is invalid: roleRef.name: Required value`},
		{name: "VAL-71 subject of an unknown kind",
			doc:  rb + toRef + `"subjects":[{"kind":"Team","name":"devs"}]}`,
			want: `RoleBinding.rbac.authorization.k8s.io "read" is invalid: subjects[0].kind: Unsupported value: "Team": supported values: "ServiceAccount", "User", "Group"`},
		{name: "VAL-71 ServiceAccount subject in the RBAC group",
			doc:  rb + toRef + `"subjects":[{"kind":"ServiceAccount","apiGroup":"rbac.authorization.k8s.io","name":"builder"}]}`,
			want: `RoleBinding.rbac.authorization.k8s.io "read" is invalid: subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""`},
		{name: "VAL-71 ServiceAccount subject without namespace is fine in a RoleBinding",
			doc: rb + toRef + `"subjects":[{"kind":"ServiceAccount","name":"builder"}]}`},
		{name: "VAL-71 User subject with a wrong apiGroup",
			doc:  rb + toRef + `"subjects":[{"kind":"User","apiGroup":"v1","name":"alice"}]}`,
			want: `RoleBinding.rbac.authorization.k8s.io "read" is invalid: subjects[0].apiGroup: Unsupported value: "v1": supported values: "rbac.authorization.k8s.io"`},
		{name: "VAL-71 ServiceAccount name not a DNS subdomain; a subject without name",
			doc:  rb + toRef + `"subjects":[{"kind":"ServiceAccount","name":"CI_Bot"},{"kind":"User"}]}`,
			want: `RoleBinding.rbac.authorization.k8s.io "read" is invalid: [subjects[0].name: Invalid value: "CI_Bot": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), subjects[1].name: Required value]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "ns1", OmitNamespaceObjects: true, DisableControllers: true})
			res := e.Admit(decode(t, tc.doc))
			if res.Internal != "" {
				t.Fatalf("internal: %s", res.Internal)
			}
			switch {
			case tc.want == "" && res.Denial != nil:
				t.Fatalf("denied: %s", res.Denial.Message)
			case tc.want != "" && res.Denial == nil:
				t.Fatalf("admitted, want %s", tc.want)
			case tc.want != "" && (res.Denial.Code != 422 || res.Denial.Reason != "Invalid" || res.Denial.Message != tc.want):
				t.Fatalf("got  %d %s %s\nwant 422 Invalid %s", res.Denial.Code, res.Denial.Reason, res.Denial.Message, tc.want)
			}
		})
	}
}

// TestPolicyRBACStoredAndCharged: what VAL-69..VAL-71 store (status cleared,
// generation 1, the v1beta1 label dropped, apiGroups defaulted) and that an
// admitted object is charged to its object-count quota (RQ-31).
func TestPolicyRBACStoredAndCharged(t *testing.T) {
	e := New(Options{DefaultNamespace: "ns1"})
	for _, doc := range []string{
		`{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q"},"spec":{"hard":{"count/poddisruptionbudgets.policy":"1","count/rolebindings.rbac.authorization.k8s.io":"5"}}}`,
	} {
		if r := e.Admit(decode(t, doc)); !r.Allowed {
			t.Fatalf("%s: %+v", doc, r.Denial)
		}
	}
	r := e.Admit(decode(t, `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"web","generation":7},"spec":{"minAvailable":1,"selector":{"matchExpressions":[{"key":"pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match","operator":"DoesNotExist"}]}},"status":{"disruptionsAllowed":3}}`))
	if !r.Allowed {
		t.Fatalf("pdb: %+v", r.Denial)
	}
	p := r.Object.(*policyv1.PodDisruptionBudget)
	if p.Generation != 1 || p.Status.DisruptionsAllowed != 0 || len(p.Spec.Selector.MatchExpressions) != 0 {
		t.Errorf("stored PDB: generation %d, status %+v, selector %+v", p.Generation, p.Status, p.Spec.Selector)
	}
	r = e.Admit(decode(t, `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"api"},"spec":{"maxUnavailable":1}}`))
	if r.Denial == nil || r.Denial.Code != 403 {
		t.Fatalf("second pdb: want quota's 403, got %+v", r.Denial)
	}
	r = e.Admit(decode(t, `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"read"},"roleRef":{"kind":"Role","name":"reader"},"subjects":[{"kind":"Group","name":"devs"},{"kind":"ServiceAccount","name":"default"}]}`))
	if !r.Allowed {
		t.Fatalf("rolebinding: %+v", r.Denial)
	}
	b := r.Object.(*rbacv1.RoleBinding)
	if b.RoleRef.APIGroup != rbacv1.GroupName || b.Subjects[0].APIGroup != rbacv1.GroupName || b.Subjects[1].APIGroup != "" {
		t.Errorf("stored RoleBinding: %+v", b)
	}
	used := e.Quotas()[0].Quota.Status.Used
	for name, want := range map[corev1.ResourceName]string{"count/poddisruptionbudgets.policy": "1", "count/rolebindings.rbac.authorization.k8s.io": "1"} {
		if got := used[name]; got.String() != want {
			t.Errorf("%s used = %s, want %s", name, got.String(), want)
		}
	}
}

// TestClusterRBACValidation: VAL-75, whole messages as a kube-apiserver
// 1.36.3 control plane returned them; a valid one stays skipped.
func TestClusterRBACValidation(t *testing.T) {
	const (
		cr  = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n"
		crb = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\n"
	)
	for _, tc := range []struct {
		name, doc string
		want      string // "" valid: skipped
	}{
		{name: "valid ClusterRole with nonResourceURLs", doc: cr + "metadata: {name: \"system:metrics-reader\"}\nrules: [{nonResourceURLs: [/metrics], verbs: [get]}]\n"},
		{name: "rule without verbs and apiGroups", doc: cr + "metadata: {name: reader}\nrules:\n- resources: [pods]\n- nonResourceURLs: [/metrics]\n  verbs: [get]\n",
			want: `ClusterRole.rbac.authorization.k8s.io "reader" is invalid: [rules[0].verbs: Required value: verbs must contain at least one value, rules[0].apiGroups: Required value: resource rules must supply at least one api group]`},
		{name: "nonResourceURLs beside resources", doc: cr + "metadata: {name: Cluster Reader}\nrules: [{apiGroups: [\"\"], resources: [pods], verbs: [get], nonResourceURLs: [/healthz]}]\n",
			want: `ClusterRole.rbac.authorization.k8s.io "Cluster Reader" is invalid: rules[0].nonResourceURLs: Invalid value: ["/healthz"]: rules cannot apply to both regular resources and non-resource URLs`},
		{name: "aggregation rule without selectors", doc: cr + "metadata: {name: agg-empty}\naggregationRule: {}\n",
			want: `ClusterRole.rbac.authorization.k8s.io "agg-empty" is invalid: aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil`},
		{name: "aggregation selectors that cannot be built", doc: cr + "metadata: {name: \"agg:view\"}\naggregationRule:\n  clusterRoleSelectors:\n  - matchLabels: {rbac.example.com/aggregate-to-view: \"yes please\"}\n  - matchExpressions: [{key: a, operator: in, values: [x]}]\n",
			want: `ClusterRole.rbac.authorization.k8s.io "agg:view" is invalid: [aggregationRule.clusterRoleSelectors[0].matchLabels: Invalid value: "yes please": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'), aggregationRule.clusterRoleSelectors[0]: Invalid value: null: invalid label selector., aggregationRule.clusterRoleSelectors[1].matchExpressions[0].operator: Invalid value: "in": not a valid selector operator, aggregationRule.clusterRoleSelectors[1]: Invalid value: null: invalid label selector.]`},
		{name: "valid ClusterRoleBinding, apiGroups defaulted", doc: crb + "metadata: {name: ok}\nroleRef: {kind: ClusterRole, name: view}\nsubjects:\n- {kind: ServiceAccount, name: app, namespace: default}\n- {kind: Group, name: \"system:authenticated\"}\n"},
		{name: "roleRef Role, ServiceAccount without namespace, User apiGroup v1",
			doc:  crb + "metadata: {name: reader}\nroleRef: {kind: Role, name: reader}\nsubjects:\n- {kind: ServiceAccount, name: app}\n- {kind: User, name: jane, apiGroup: v1}\n",
			want: `ClusterRoleBinding.rbac.authorization.k8s.io "reader" is invalid: [roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole", subjects[0].namespace: Required value, subjects[1].apiGroup: Unsupported value: "v1": supported values: "rbac.authorization.k8s.io"]`},
		{name: "names and kinds",
			doc:  crb + "metadata: {name: \"bad/name\"}\nroleRef: {kind: ClusterRole, name: \"a/b\", apiGroup: rbac.authorization.k8s.io/v1}\nsubjects:\n- {kind: serviceaccount, name: app}\n- {kind: ServiceAccount, name: My_SA, namespace: default, apiGroup: rbac.authorization.k8s.io}\n",
			want: `ClusterRoleBinding.rbac.authorization.k8s.io "bad/name" is invalid: [metadata.name: Invalid value: "bad/name": may not contain '/', roleRef.apiGroup: Unsupported value: "rbac.authorization.k8s.io/v1": supported values: "rbac.authorization.k8s.io", roleRef.name: Invalid value: "a/b": may not contain '/', subjects[0].kind: Unsupported value: "serviceaccount": supported values: "ServiceAccount", "User", "Group", subjects[1].name: Invalid value: "My_SA": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), subjects[1].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clusterScopedOutcome(t, New(Options{DefaultNamespace: "ns1"}).Admit(decode(t, tc.doc)), tc.want)
		})
	}
}
