package eval

import (
	"slices"
	"testing"

	resourcev1 "k8s.io/api/resource/v1"

	"github.com/limitcheck/limitcheck/internal/rules/celserver"
)

// TestDRAValidation: VAL-32..VAL-35, whole messages. Each case admits its
// documents in order on a fresh engine; want is the last one's denial ("":
// admitted, or skipped for a DeviceClass).
func TestDRAValidation(t *testing.T) {
	const claim = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
	const tpl = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\n"
	const class = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\n"
	cel := celserver.Pipe() // the limitcheck-cel helper's server, in-process
	defer cel.Close()
	for _, tc := range []struct {
		name string
		docs []string
		want string
	}{
		{name: "one GPU, defaults", docs: []string{claim + "metadata: {name: gpu}\nspec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]}}\n"}},
		{name: "prioritized list with a constraint and a config", docs: []string{claim + `metadata: {name: gpu}
spec:
  devices:
    requests:
    - name: gpu
      firstAvailable:
      - {name: big, deviceClassName: gpu.example.com, selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model == "a100"'}}]}
      - {name: small, deviceClassName: gpu.example.com, allocationMode: ExactCount, count: 2}
    - {name: nic, exactly: {deviceClassName: nic.example.com, tolerations: [{key: maintenance, operator: Exists, effect: NoSchedule}]}}
    constraints:
    - {requests: [gpu/big, nic], matchAttribute: gpu.example.com/pcieRoot}
    config:
    - requests: [gpu]
      opaque: {driver: gpu.example.com, parameters: {sharing: timeSlicing}}
`}},
		{name: "request mistakes", docs: []string{claim + "metadata: {name: gpu}\nspec:\n  devices:\n    requests:\n    - {name: GPU, exactly: {allocationMode: All, count: 2, selectors: [{}]}}\n    - {name: GPU}\n"},
			want: `ResourceClaim.resource.k8s.io "gpu" is invalid: [spec.devices.requests[0].name: Invalid value: "GPU": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), spec.devices.requests[0].exactly.deviceClassName: Required value, spec.devices.requests[0].exactly.selectors[0].cel: Required value, spec.devices.requests[0].exactly.count: Invalid value: 2: must not be specified when allocationMode is 'All', spec.devices.requests[1].name: Invalid value: "GPU": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), spec.devices.requests[1]: Required value: exactly one of ` + "`exactly` or `firstAvailable`" + ` is required, spec.devices.requests[1]: Duplicate value: "GPU"]`},
		{name: "constraint and config references", docs: []string{claim + "metadata: {name: gpu}\nspec:\n  devices:\n    requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com, allocationMode: Some}}]\n    constraints: [{requests: [gpu/big, a/b/c]}]\n    config: [{requests: [gpu], opaque: {driver: Bad_Driver, parameters: [1, 2]}}]\n"},
			want: `ResourceClaim.resource.k8s.io "gpu" is invalid: [spec.devices.requests[0].exactly.allocationMode: Unsupported value: "Some": supported values: "All", "ExactCount", spec.devices.constraints[0].requests[0]: Invalid value: "gpu/big": must be the name of a request in the claim or the name of a request and a subrequest separated by '/', spec.devices.constraints[0].requests[1]: Invalid value: "a/b/c": must be the name of a request in the claim or the name of a request and a subrequest separated by '/', spec.devices.constraints[0]: Required value: exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set, spec.devices.config[0].opaque.driver: Invalid value: "Bad_Driver": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.devices.config[0].opaque.parameters: Invalid value: "<value omitted>": must be a valid JSON object]`},
		{name: "admin access without the namespace label", docs: []string{claim + "metadata: {name: debug}\nspec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com, adminAccess: true}}]}}\n"},
			want: "ResourceClaim.resource.k8s.io \"debug\" is invalid: spec.devices.requests[0].adminAccess: Forbidden: admin access to devices requires the `resource.kubernetes.io/admin-access: true` label on the containing namespace"},
		{name: "admin access in a labelled namespace", docs: []string{
			"apiVersion: v1\nkind: Namespace\nmetadata: {name: ns1, labels: {resource.kubernetes.io/admin-access: \"true\"}}\n",
			claim + "metadata: {name: debug}\nspec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com, adminAccess: true}}]}}\n"}},
		{name: "template: embedded metadata, upstream's admin-access path", docs: []string{tpl + "metadata: {name: gpu-tpl}\nspec:\n  metadata: {name: fixed}\n  spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com, adminAccess: true, count: -1}}]}}\n"},
			want: "ResourceClaimTemplate.resource.k8s.io \"gpu-tpl\" is invalid: [spec.devices.requests[0].adminAccess: Forbidden: admin access to devices requires the `resource.kubernetes.io/admin-access: true` label on the containing namespace, spec.metadata.name: Forbidden: cannot be set, spec.spec.devices.requests[0].exactly.count: Invalid value: -1: must be greater than zero]"},
		{name: "device class", docs: []string{class + "metadata: {name: gpu.example.com}\nspec: {selectors: [{cel: {expression: 'device.driver == \"gpu.example.com\"'}}], extendedResourceName: example.com/gpu}\n"}},
		{name: "selector that does not compile (VAL-35)", docs: []string{class + "metadata: {name: gpu.example.com}\nspec: {selectors: [{cel: {expression: 'dev.driver == \"gpu.example.com\"'}}]}\n"},
			want: `DeviceClass.resource.k8s.io "gpu.example.com" is invalid: spec.selectors[0].cel.expression: Invalid value: "dev.driver == \"gpu.example.com\"": compilation failed: ERROR: <input>:1:1: undeclared reference to 'dev' (in container '')
 | dev.driver == "gpu.example.com"
 | ^`},
		{name: "selectors: not a bool, too costly (VAL-35)", docs: []string{claim + `metadata: {name: big}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel: {expression: 'device.driver'}
        - cel: {expression: 'device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0'}
        - cel: {expression: 'device.attributes.all(d, device.attributes[d].all(a, device.attributes.all(e, device.attributes[e].all(b, true))))'}
`},
			want: `ResourceClaim.resource.k8s.io "big" is invalid: [spec.devices.requests[0].exactly.selectors[0].cel.expression: Invalid value: "device.driver": must evaluate to bool or the unknown type, not string, spec.devices.requests[0].exactly.selectors[2].cel.expression: Forbidden: too complex, exceeds cost limit]`},
		{name: "device class mistakes", docs: []string{class + "metadata: {name: Gpu}\nspec: {config: [{}], extendedResourceName: cpu}\n"},
			want: `DeviceClass.resource.k8s.io "Gpu" is invalid: [metadata.name: Invalid value: "Gpu": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.config[0].opaque: Required value, spec.extendedResourceName: Invalid value: "cpu": must be a valid extended resource name]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "ns1", Rules: cel})
			var res Result
			var last any
			for _, d := range tc.docs {
				obj := decode(t, d)
				last = obj
				res = e.Admit(obj)
			}
			switch {
			case tc.want == "":
				if res.Denial != nil || res.Internal != "" {
					t.Fatalf("got %+v, want admitted", res)
				}
				if c, ok := last.(*resourcev1.ResourceClaim); ok {
					for _, r := range c.Spec.Devices.Requests {
						if x := r.Exactly; x != nil && (x.AllocationMode != resourcev1.DeviceAllocationModeExactCount || x.Count != 1) {
							t.Errorf("defaults: %s %d", x.AllocationMode, x.Count)
						}
					}
				}
			case res.Denial == nil:
				t.Fatalf("admitted, want %s", tc.want)
			case res.Denial.Message != tc.want || res.Denial.Code != 422:
				t.Fatalf("got %d %s\nwant 422 %s", res.Denial.Code, res.Denial.Message, tc.want)
			}
		})
	}
}

// TestExpressionsNotCompiled: without CEL (no evaluator, or the helper
// missing) a selector or match condition is taken as compiling, and the
// object's warning says it was not compiled (VAL-35, VAL-83).
func TestExpressionsNotCompiled(t *testing.T) {
	const claim = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\nspec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com, selectors: [{cel: {expression: 'dev.driver'}}]}}]}}\n"
	const hook = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: h}\nwebhooks:\n- name: h.example.com\n  sideEffects: None\n  admissionReviewVersions: [v1]\n  clientConfig: {url: \"https://h.example.com\"}\n  matchConditions: [{name: a, expression: \"object.x\"}]\n"
	for _, tc := range []struct {
		name  string
		rules RuleEvaluator
		doc   string
		want  string
	}{
		{"no evaluator, claim", nil, claim, "its CEL expressions were not compiled: limitcheck was run without a CEL evaluator"},
		{"helper missing, claim", failingRules{}, claim, "its CEL expressions were not compiled: the limitcheck-cel helper was not found"},
		{"helper missing, webhook", failingRules{}, hook, "its CEL expressions were not compiled: the limitcheck-cel helper was not found"},
		{"helper missing, policy", failingRules{}, "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n  matchConstraints: {resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]}\n  validations: [{expression: \"object.x ==\"}]\n",
			"its CEL expressions were not compiled: the limitcheck-cel helper was not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := New(Options{DefaultNamespace: "ns1", Rules: tc.rules}).Admit(decode(t, tc.doc))
			if res.Denial != nil || res.Internal != "" {
				t.Fatalf("got %+v, want admitted", res)
			}
			if !slices.Contains(res.Warnings, tc.want) {
				t.Errorf("warnings %q, want %q among them", res.Warnings, tc.want)
			}
		})
	}
}
