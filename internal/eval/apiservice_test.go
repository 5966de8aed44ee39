package eval

import "testing"

// TestAPIServiceValidation: VAL-92, whole messages (held to the
// aggregator's by conformance TestAPIServiceValidationParity).
func TestAPIServiceValidation(t *testing.T) {
	const as = "apiVersion: apiregistration.k8s.io/v1\nkind: APIService\n"
	for _, tc := range []struct{ name, doc, want string }{
		{"metrics-server's", as + "metadata: {name: v1beta1.metrics.k8s.io}\nspec: {group: metrics.k8s.io, version: v1beta1, groupPriorityMinimum: 100, versionPriority: 100, insecureSkipTLSVerify: true, service: {name: metrics-server, namespace: kube-system}}\n", ""},
		{"name, priorities, service", as + "metadata: {name: v1beta1.custom.metrics.k8s.io}\nspec: {group: custom.metrics.k8s.io, version: v1beta2, groupPriorityMinimum: 0, versionPriority: 2000, service: {name: adapter, port: 0}}\n",
			"APIService.apiregistration.k8s.io \"v1beta1.custom.metrics.k8s.io\" is invalid: [metadata.name: Invalid value: \"v1beta1.custom.metrics.k8s.io\": must be `spec.version+\".\"+spec.group`: \"v1beta2.custom.metrics.k8s.io\", spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000, spec.versionPriority: Invalid value: 2000: must be positive and less than 1000, spec.service.namespace: Required value, spec.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive]"},
		{"a local one with a caBundle", as + "metadata: {name: v1.example.com}\nspec: {group: example.com, version: v1, groupPriorityMinimum: 100, versionPriority: 10, caBundle: LS0tLQ==}\n",
			`APIService.apiregistration.k8s.io "v1.example.com" is invalid: spec.caBundle: Invalid value: "4 bytes": local APIServices may not have a caBundle`},
		{"both caBundle and insecureSkipTLSVerify", as + "metadata: {name: v1.example.com}\nspec: {group: example.com, version: v1, groupPriorityMinimum: 100, versionPriority: 10, caBundle: LS0tLQ==, insecureSkipTLSVerify: true, service: {name: api, namespace: ext}}\n",
			`APIService.apiregistration.k8s.io "v1.example.com" is invalid: spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := New(Options{DefaultNamespace: "ns1"}).Admit(decode(t, tc.doc))
			got := ""
			if res.Denial != nil {
				got = res.Denial.Message
			} else if !res.Skipped {
				t.Fatal("admitted, not skipped as cluster-scoped")
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
