package eval

import (
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/limitcheck/limitcheck/internal/eval/defaults"
	"github.com/limitcheck/limitcheck/internal/rules/celserver"
)

// TestWebhookIngressClassValidation: VAL-79..VAL-84, whole messages as
// kube-apiserver 1.36.3's create path (defaulting, the strategies'
// PrepareForCreate and Validate) returned them; a valid one stays skipped.
func TestWebhookIngressClassValidation(t *testing.T) {
	cel := celserver.Pipe() // the limitcheck-cel helper's server, in-process
	defer cel.Close()
	for _, tc := range []struct {
		name, doc string
		want      string // "" valid: skipped
	}{
		{name: "valid VWC, service port and scope defaulted",
			doc: "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: cert-manager-webhook}\nwebhooks:\n- name: webhook.cert-manager.io\n  rules: [{apiGroups: [cert-manager.io], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [\"*/*\"]}]\n  admissionReviewVersions: [v1]\n  sideEffects: None\n  clientConfig: {service: {name: cert-manager-webhook, namespace: cert-manager, path: /validate}, caBundle: Zm9v}\n  matchConditions: [{name: not-leases, expression: \"request.resource.resource != 'leases'\"}]\n"},
		{name: "valid MWC from generateName, resources pods before *",
			doc: "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata: {generateName: inject-}\nwebhooks:\n- name: inject.sidecar.example.com\n  rules: [{apiGroups: [\"\"], apiVersions: [\"*\"], operations: [\"*\"], resources: [pods, \"*\"], scope: Namespaced}]\n  admissionReviewVersions: [v1beta1, v2]\n  sideEffects: NoneOnDryRun\n  reinvocationPolicy: IfNeeded\n  clientConfig: {url: \"https://10.0.0.1:8443/inject\"}\n"},
		{name: "webhook names, sideEffects, admissionReviewVersions",
			doc:  "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata: {name: bad}\nwebhooks:\n- name: mutate\n  clientConfig: {url: \"http://x.example.com/mutate\"}\n  rules: [{operations: [\"*\", CREATE], apiGroups: [\"\"], apiVersions: [v1], resources: [\"*\", pods]}]\n- name: check.example.com\n  sideEffects: Some\n  admissionReviewVersions: [v1, v1, V2]\n  clientConfig: {url: \"https://x.example.com\"}\n- name: check.example.com\n  sideEffects: None\n  admissionReviewVersions: [v2]\n  clientConfig: {url: \"https://x.example.com\"}\n",
			want: `MutatingWebhookConfiguration.admissionregistration.k8s.io "bad" is invalid: [webhooks[0].name: Invalid value: "mutate": should be a domain with at least three segments separated by dots, webhooks[0].rules[0].operations: Invalid value: ["*","CREATE"]: if '*' is present, must not specify other operations, webhooks[0].rules[0].resources: Invalid value: ["*","pods"]: if '*' is present, must not specify other resources without subresources, webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun, webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path], webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1, webhooks[1].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun", webhooks[1].admissionReviewVersions[1]: Invalid value: "v1": duplicate version, webhooks[1].admissionReviewVersions[2]: Invalid value: "V2": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?'), webhooks[2].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1, webhooks[2].name: Duplicate value: "check.example.com"]`},
		{name: "clientConfig: both, service fields swapped, port and path, url parts",
			doc:  "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: client-config}\nwebhooks:\n- name: a.example.com\n  sideEffects: None\n  admissionReviewVersions: [v1]\n  clientConfig: {url: \"https://x.example.com\", service: {name: s, namespace: ns1}}\n- name: b.example.com\n  sideEffects: None\n  admissionReviewVersions: [v1]\n  clientConfig: {service: {name: hooks, port: 0, path: \"validate//Pods_V1/\"}}\n- name: c.example.com\n  sideEffects: None\n  admissionReviewVersions: [v1]\n  clientConfig: {url: \"https://user:pw@x.example.com/v?a=1#top\"}\n- name: d.example.com\n  sideEffects: None\n  admissionReviewVersions: [v1]\n  clientConfig: {url: \"://x\"}\n",
			want: `ValidatingWebhookConfiguration.admissionregistration.k8s.io "client-config" is invalid: [webhooks[0].clientConfig: Required value: exactly one of url or service is required, webhooks[1].clientConfig.service.name: Required value, webhooks[1].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive, webhooks[1].clientConfig.service.path: Invalid value: "validate//Pods_V1/": must start with a '/', webhooks[1].clientConfig.service.path: Invalid value: "validate//Pods_V1/": segment[1] may not be empty, webhooks[1].clientConfig.service.path: Invalid value: "validate//Pods_V1/": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), webhooks[2].clientConfig.url: Invalid value: "user:pw": user information is not permitted in the URL, webhooks[2].clientConfig.url: Invalid value: "top": fragments are not permitted in the URL, webhooks[2].clientConfig.url: Invalid value: "a=1": query parameters are not permitted in the URL, webhooks[3].clientConfig.url: Required value: url must be a valid URL: parse "://x": missing protocol scheme; desired format: https://host[/path]]`},
		{name: "rules",
			doc:  "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: rules}\nwebhooks:\n- name: rules.example.com\n  sideEffects: None\n  admissionReviewVersions: [v1]\n  clientConfig: {service: {name: hooks, namespace: system}}\n  rules:\n  - {operations: [create, PATCH], apiGroups: [\"*\", apps], apiVersions: [\"\", \"*\"], resources: [\"pods/*\", \"pods/status\", \"*/scale\", \"deployments/scale\"], scope: cluster}\n  - {resources: [\"*/*\", pods, \"\"]}\n",
			want: `ValidatingWebhookConfiguration.admissionregistration.k8s.io "rules" is invalid: [webhooks[0].rules[0].operations[0]: Unsupported value: "create": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE", webhooks[0].rules[0].operations[1]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE", webhooks[0].rules[0].apiGroups: Invalid value: ["*","apps"]: if '*' is present, must not specify other API groups, webhooks[0].rules[0].apiVersions: Invalid value: ["","*"]: if '*' is present, must not specify other API versions, webhooks[0].rules[0].apiVersions[0]: Required value, webhooks[0].rules[0].resources[1]: Invalid value: "pods/status": if 'pods/*' is present, must not specify pods/status, webhooks[0].rules[0].resources[3]: Invalid value: "deployments/scale": if '*/scale' is present, must not specify deployments/scale, webhooks[0].rules[0].scope: Unsupported value: "cluster": supported values: "*", "Cluster", "Namespaced", webhooks[0].rules[1].operations: Required value, webhooks[0].rules[1].apiGroups: Required value, webhooks[0].rules[1].apiVersions: Required value, webhooks[0].rules[1].resources[2]: Required value, webhooks[0].rules[1].resources: Invalid value: ["*/*","pods",""]: if '*/*' is present, must not specify other resources]`},
		{name: "policies, timeout, selectors, matchConditions",
			doc:  "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingWebhookConfiguration\nmetadata: {name: policies}\nwebhooks:\n- name: policies.example.com\n  sideEffects: None\n  admissionReviewVersions: [v1]\n  clientConfig: {service: {name: hooks, namespace: system}}\n  failurePolicy: \"\"\n  matchPolicy: exact\n  timeoutSeconds: 31\n  reinvocationPolicy: Always\n  namespaceSelector: {matchExpressions: [{key: control-plane, operator: exists}]}\n  objectSelector: {matchLabels: {app: \"-web-\"}}\n  matchConditions:\n  - {name: \"Bad Name\", expression: \"true\"}\n  - {name: skip, expression: \"   \"}\n  - {name: skip, expression: \"true\"}\n  - {expression: \"true\"}\n",
			want: `MutatingWebhookConfiguration.admissionregistration.k8s.io "policies" is invalid: [webhooks[0].failurePolicy: Unsupported value: "": supported values: "Fail", "Ignore", webhooks[0].matchPolicy: Unsupported value: "exact": supported values: "Equivalent", "Exact", webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds, webhooks[0].namespaceSelector.matchExpressions[0].operator: Invalid value: "exists": not a valid selector operator, webhooks[0].objectSelector.matchLabels: Invalid value: "-web-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'), webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never", webhooks[0].matchConditions[0].name: Invalid value: "Bad Name": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), webhooks[0].matchConditions[1].expression: Required value, webhooks[0].matchConditions[2].name: Duplicate value: "skip", webhooks[0].matchConditions[3].name: Required value]`},
		{name: "matchConditions that do not compile (VAL-83)",
			doc: "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: policy}\nwebhooks:\n- name: policy.example.com\n  sideEffects: None\n  admissionReviewVersions: [v1]\n  clientConfig: {service: {name: policy, namespace: system}}\n  matchConditions:\n  - {name: not-leases, expression: \"!(request.resource.group == 'coordination.k8s.io' && request.resource.resource == 'leases')\"}\n  - {name: can-get, expression: \"authorizer.group('').resource('pods').check('get').allowed()\"}\n  - {name: team, expression: \"  object.metadata.labels['team'] \"}\n  - {name: enabled, expression: \"params.enabled\"}\n",
			want: `ValidatingWebhookConfiguration.admissionregistration.k8s.io "policy" is invalid: [webhooks[0].matchConditions[2].expression: Invalid value: "object.metadata.labels['team']": must evaluate to bool but got dyn, webhooks[0].matchConditions[3].expression: Invalid value: "params.enabled": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')
 | params.enabled
 | ^]`},
		{name: "valid IngressClass, parameters in a namespace",
			doc: "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: nginx, annotations: {ingressclass.kubernetes.io/is-default-class: \"true\"}}\nspec:\n  controller: k8s.io/ingress-nginx\n  parameters: {apiGroup: k8s.example.com, kind: IngressParameters, name: external-lb, scope: Namespace, namespace: ingress}\n"},
		{name: "IngressClass without controller, parameters incomplete",
			doc:  "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: Bad_Class, namespace: default}\nspec:\n  parameters: {kind: \"\", name: \".\", scope: Namespace}\n",
			want: "IngressClass.networking.k8s.io \"Bad_Class\" is invalid: [metadata.name: Invalid value: \"Bad_Class\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.controller: Required value, spec.parameters.kind: Required value, spec.parameters.name: Invalid value: \".\": may not be '.', spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace']"},
		{name: "IngressClass controller and parameters scope",
			doc:  "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: haproxy}\nspec:\n  controller: Haproxy.org/ingress controller\n  parameters: {apiGroup: Bad_Group, kind: \"a/b\", name: p, scope: namespace, namespace: x}\n",
			want: `IngressClass.networking.k8s.io "haproxy" is invalid: [spec.controller: Invalid value: "Haproxy.org": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.controller: Invalid value: "ingress controller": Invalid path (regex used for validation is '[A-Za-z0-9/\-._~%!$&'()*+,;=:]+'), spec.parameters.apiGroup: Invalid value: "Bad_Group": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.parameters.kind: Invalid value: "a/b": may not contain '/', spec.parameters.scope: Unsupported value: "namespace": supported values: "Cluster", "Namespace"]`},
		{name: "IngressClass parameters namespace with Cluster scope, bad domain",
			doc:  "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: traefik}\nspec:\n  controller: nginx\n  parameters: {kind: IngressParameters, name: p, namespace: Bad_NS}\n",
			want: "IngressClass.networking.k8s.io \"traefik\" is invalid: [spec.controller: Invalid value: \"nginx\": must be a domain-prefixed path (such as \"acme.io/foo\"), spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster']"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clusterScopedOutcome(t, New(Options{DefaultNamespace: "ns1", Rules: cel}).Admit(decode(t, tc.doc)), tc.want)
		})
	}
}

// TestWebhookDefaults: VAL-79 and VAL-84's defaults fill in what is absent
// and leave what is given, an explicit empty string included.
func TestWebhookDefaults(t *testing.T) {
	empty := admissionregistrationv1.FailurePolicyType("")
	m := &admissionregistrationv1.MutatingWebhookConfiguration{Webhooks: []admissionregistrationv1.MutatingWebhook{
		{Name: "a.example.com", Rules: []admissionregistrationv1.RuleWithOperations{{}},
			ClientConfig: admissionregistrationv1.WebhookClientConfig{Service: &admissionregistrationv1.ServiceReference{Name: "s", Namespace: "n"}}},
		{Name: "b.example.com", FailurePolicy: &empty, TimeoutSeconds: ptr.To[int32](3),
			ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: ptr.To("https://x.example.com")}},
	}}
	defaults.DefaultMutatingWebhookConfiguration(m)
	a, b := m.Webhooks[0], m.Webhooks[1]
	switch {
	case *a.FailurePolicy != admissionregistrationv1.Fail, *a.MatchPolicy != admissionregistrationv1.Equivalent,
		a.NamespaceSelector == nil || len(a.NamespaceSelector.MatchLabels)+len(a.NamespaceSelector.MatchExpressions) != 0,
		a.ObjectSelector == nil, *a.TimeoutSeconds != 10, *a.ReinvocationPolicy != admissionregistrationv1.NeverReinvocationPolicy,
		*a.Rules[0].Scope != admissionregistrationv1.AllScopes, *a.ClientConfig.Service.Port != 443, a.SideEffects != nil:
		t.Errorf("defaulted webhook: %+v", a)
	case *b.FailurePolicy != "", *b.TimeoutSeconds != 3:
		t.Errorf("given values changed: %+v", b)
	}
	v := &admissionregistrationv1.ValidatingWebhookConfiguration{Webhooks: []admissionregistrationv1.ValidatingWebhook{{}}}
	defaults.DefaultValidatingWebhookConfiguration(v)
	if w := v.Webhooks[0]; w.FailurePolicy == nil || w.MatchPolicy == nil || w.TimeoutSeconds == nil || w.NamespaceSelector == nil || w.ObjectSelector == nil {
		t.Errorf("defaulted validating webhook: %+v", w)
	}
	ic := &networkingv1.IngressClass{ObjectMeta: metav1.ObjectMeta{Name: "c"}, Spec: networkingv1.IngressClassSpec{
		Parameters: &networkingv1.IngressClassParametersReference{Kind: "K", Name: "n"}}}
	defaults.IngressClass(ic)
	if s := ic.Spec.Parameters.Scope; s == nil || *s != networkingv1.IngressClassParametersReferenceScopeCluster {
		t.Errorf("IngressClass parameters scope = %v, want Cluster", s)
	}
}

// TestPolicyValidation: VAL-106 and VAL-107, whole messages; the policy's
// expressions compiled together, variables and params declared.
func TestPolicyValidation(t *testing.T) {
	cel := celserver.Pipe() // the limitcheck-cel helper's server, in-process
	defer cel.Close()
	for _, tc := range []struct {
		name, doc string
		want      string // "": valid, skipped
	}{
		{name: "valid policy, defaults", doc: "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: replicas}\nspec:\n  matchConstraints: {resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]}\n  validations: [{expression: \"object.spec.replicas <= 5\"}]\n"},
		{name: "policy: compile errors after variables and params", doc: "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: replica-limit\nspec:\n  paramKind: {apiVersion: rules.example.com/v1, kind: ReplicaLimit}\n  matchConstraints:\n    resourceRules:\n    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}\n  variables:\n  - {name: replicas, expression: \"object.spec.replicas\"}\n  validations:\n  - expression: \"variables.replicas <= params.maxReplicas\"\n    messageExpression: \"'at most ' + string(params.maxReplicas) + ' replicas'\"\n  - expression: \"variables.replica <= 5\"\n    message: \"too many\"\n  auditAnnotations:\n  - {key: high-replicas, valueExpression: \"variables.replicas\"}\n",
			want: `ValidatingAdmissionPolicy.admissionregistration.k8s.io "replica-limit" is invalid: [spec.validations[1].expression: Invalid value: "variables.replica <= 5": compilation failed: ERROR: <input>:1:10: undefined field 'replica'
 | variables.replica <= 5
 | .........^, spec.auditAnnotations[0].valueExpression: Invalid value: "variables.replicas": must evaluate to one of [string null_type] but got dyn]`},
		{name: "binding mistakes", doc: "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: replica-limit\nspec:\n  policyName: replica-limit\n  paramRef: {name: default, selector: {}}\n  validationActions: [Deny, Warn]\n",
			want: `ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io "replica-limit" is invalid: [spec.paramRef.name: Forbidden: name and selector are mutually exclusive, spec.paramRef.selector: Forbidden: name and selector are mutually exclusive, spec.paramRef.parameterNotFoundAction: Required value, spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)]`},
		{name: "policy without rules or validations", doc: "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: empty}\nspec: {failurePolicy: fail, matchConstraints: {}}\n",
			want: `ValidatingAdmissionPolicy.admissionregistration.k8s.io "empty" is invalid: [spec.failurePolicy: Unsupported value: "fail": supported values: "Fail", "Ignore", spec.matchConstraints.resourceRules: Required value, spec.validations: Required value: validations or auditAnnotations must contain at least one item, spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item]`},
		// VAL-108, VAL-109.
		{name: "valid mutating policy: an apply configuration using a variable", doc: "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\nmetadata: {name: team-label}\nspec:\n  matchConstraints: {resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]}\n  variables: [{name: team, expression: \"'a'\"}]\n  mutations:\n  - patchType: ApplyConfiguration\n    applyConfiguration: {expression: 'Object{metadata: Object.metadata{labels: {\"team\": variables.team}}}'}\n  reinvocationPolicy: Never\n"},
		{name: "mutating policy mistakes", doc: "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\nmetadata: {name: sidecar}\nspec:\n  matchConstraints: {resourceRules: [{apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE, DELETE], resources: [pods]}]}\n  mutations:\n  - patchType: JSONPatch\n    jsonPatch: {expression: object.spec}\n  - patchType: ApplyConfiguration\n    jsonPatch: {expression: '[]'}\n",
			want: `MutatingAdmissionPolicy.admissionregistration.k8s.io "sidecar" is invalid: [spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE", spec.mutations[0].jsonPatch.expression: Invalid value: "object.spec": must evaluate to list(JSONPatch) but got dyn, spec.mutations[1].applyConfiguration: Required value: must be specified when patchType is ApplyConfiguration, spec.mutations[1].jsonPatch: Invalid value: "{jsonPatch}": must not be specified when patchType is ApplyConfiguration, spec.reinvocationPolicy: Required value]`},
		{name: "mutating binding that matches deletes", doc: "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicyBinding\nmetadata: {name: sidecar}\nspec:\n  policyName: sidecar\n  matchResources: {resourceRules: [{apiGroups: [\"\"], apiVersions: [v1], operations: [\"*\", DELETE], resources: [pods]}]}\n",
			want: `MutatingAdmissionPolicyBinding.admissionregistration.k8s.io "sidecar" is invalid: [spec.matchResources.resourceRules[0].operations: Invalid value: ["*","DELETE"]: if '*' is present, must not specify other operations, spec.matchResources.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clusterScopedOutcome(t, New(Options{DefaultNamespace: "ns1", Rules: cel}).Admit(decode(t, tc.doc)), tc.want)
		})
	}
}
