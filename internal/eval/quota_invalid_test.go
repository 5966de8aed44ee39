package eval

import (
	"encoding/json"
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval/defaults"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/eval/validation"

	corev1 "k8s.io/api/core/v1"
)

// rfc1123Msg is apimachinery's DNS-subdomain message, shared by the name cases.
const rfc1123Msg = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`

const mustBeExistsMsg = "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"

// quotaForCreate decodes a ResourceQuota JSON document and brings it to the state
// validation sees on create: request namespace, API defaulting, generated name.
func quotaForCreate(t *testing.T, doc string) *corev1.ResourceQuota {
	t.Helper()
	q := &corev1.ResourceQuota{}
	if err := json.Unmarshal([]byte(doc), q); err != nil {
		t.Fatal(err)
	}
	if q.Namespace == "" {
		q.Namespace = "ns1"
	}
	defaults.DefaultResourceQuota(q)
	if q.Name == "" && q.GenerateName != "" {
		q.Name = q.GenerateName + GeneratedNameSuffix
	}
	return q
}

// TestValidateResourceQuota: every message below except "hard keys in sorted
// order" was produced by kube-apiserver v1.36.3's create path (rest.BeforeCreate
// with the resourcequota strategy) for the same document; that one case differs
// only in the order of spec.hard keys, which upstream visits in random map order.
func TestValidateResourceQuota(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want string // "" = valid
	}{
		{
			name: "valid: scoped pods and cpu, object count, fractional requests.<extended>",
			doc:  `{"metadata":{"name":"ok"},"spec":{"hard":{"pods":"10","requests.cpu":"4","count/deployments.apps":"5","requests.example.com/gpu":"1.5"},"scopes":["NotTerminating"]}}`,
		},
		{
			name: "RQ-01 invalid name",
			doc:  `{"metadata":{"name":"Bad_Name"},"spec":{"hard":{"pods":"1"}}}`,
			want: `ResourceQuota "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ` + rfc1123Msg,
		},
		{
			name: "RQ-01 missing name",
			doc:  `{"metadata":{},"spec":{}}`,
			want: `ResourceQuota "" is invalid: metadata.name: Required value: name or generateName is required`,
		},
		{
			name: "RQ-01 finalizer neither standard nor qualified",
			doc:  `{"metadata":{"name":"q","finalizers":["kubernetes","foo","example.com/x"]},"spec":{}}`,
			want: `ResourceQuota "q" is invalid: metadata.finalizers[1]: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified`,
		},
		{
			name: "RQ-01 generated name in the message",
			doc:  `{"metadata":{"generateName":"rq-"},"spec":{"hard":{"pods":"1.5"}}}`,
			want: `ResourceQuota "rq-xxxxx" is invalid: spec.hard[pods]: Invalid value: "1500m": must be an integer`,
		},
		{
			name: "RQ-01 unknown name: two errors",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"foo":"1"}}}`,
			want: `ResourceQuota "q" is invalid: [spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified, spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota]`,
		},
		{
			name: "RQ-01 storage: standard resource but not for quota",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"storage":"1Gi"}}}`,
			want: `ResourceQuota "q" is invalid: spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota`,
		},
		{
			name: "RQ-01 limits.hugepages-2Mi: two errors",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"limits.hugepages-2Mi":"2Mi"}}}`,
			want: `ResourceQuota "q" is invalid: [spec.hard[limits.hugepages-2Mi]: Invalid value: "limits.hugepages-2Mi": must be a standard resource type or fully qualified, spec.hard[limits.hugepages-2Mi]: Invalid value: "limits.hugepages-2Mi": must be a standard resource for quota]`,
		},
		{
			name: "RQ-01 qualified name with a bad name part",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"example.com/Bad_":"1"}}}`,
			want: `ResourceQuota "q" is invalid: spec.hard[example.com/Bad_]: Invalid value: "example.com/Bad_": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
		},
		{
			name: "RQ-02 negative",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"cpu":"-1"}}}`,
			want: `ResourceQuota "q" is invalid: spec.hard[cpu]: Invalid value: "-1": must be greater than or equal to 0`,
		},
		{
			name: "RQ-02 negative and fractional pods",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"-1.5"}}}`,
			want: `ResourceQuota "q" is invalid: [spec.hard[pods]: Invalid value: "-1500m": must be greater than or equal to 0, spec.hard[pods]: Invalid value: "-1500m": must be an integer]`,
		},
		{
			name: "RQ-02 pods not integer",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"1500m"}}}`,
			want: `ResourceQuota "q" is invalid: spec.hard[pods]: Invalid value: "1500m": must be an integer`,
		},
		{
			name: "RQ-02 defaulting rounds 0.0001 up to 1m first",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"0.0001"}}}`,
			want: `ResourceQuota "q" is invalid: spec.hard[pods]: Invalid value: "1m": must be an integer`,
		},
		{
			name: "RQ-02 count/deployments.apps not integer",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"count/deployments.apps":"1.5"}}}`,
			want: `ResourceQuota "q" is invalid: spec.hard[count/deployments.apps]: Invalid value: "1500m": must be an integer`,
		},
		{
			name: "RQ-02 requests.example.com/gpu may be fractional",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"requests.example.com/gpu":"1.5"}}}`,
		},
		{
			name: "RQ-02 hard keys in sorted order",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"services":"0.5","foo":"1","cpu":"-1"}}}`,
			want: `ResourceQuota "q" is invalid: [spec.hard[cpu]: Invalid value: "-1": must be greater than or equal to 0, spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified, spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota, spec.hard[services]: Invalid value: "500m": must be an integer]`,
		},
		{
			name: "RQ-03 unsupported scope: value is the whole list",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"1"},"scopes":["BestEffort","Bogus"]}}`,
			want: `ResourceQuota "q" is invalid: spec.scopes: Invalid value: ["BestEffort","Bogus"]: unsupported scope`,
		},
		{
			name: "RQ-03 BestEffort with cpu (identical errors merged)",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"cpu":"1","pods":"1"},"scopes":["BestEffort"]}}`,
			want: `ResourceQuota "q" is invalid: spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource`,
		},
		{
			name: "RQ-03 Terminating with ephemeral-storage; count/pods not checked",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"ephemeral-storage":"1Gi","count/pods":"1"},"scopes":["Terminating"]}}`,
			want: `ResourceQuota "q" is invalid: spec.scopes: Invalid value: ["Terminating"]: unsupported scope applied to resource`,
		},
		{
			name: "RQ-03 conflicting scopes",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"1"},"scopes":["Terminating","NotTerminating"]}}`,
			want: `ResourceQuota "q" is invalid: spec.scopes: Invalid value: ["Terminating","NotTerminating"]: conflicting scopes`,
		},
		{
			name: "RQ-04 scopeSelector unknown scope name",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"Bogus","operator":"Exists"}]}}}`,
			want: `ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Bogus": unsupported scope`,
		},
		{
			name: "RQ-04 operator must be Exists",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"BestEffort","operator":"In","values":["a"]}]}}}`,
			want: `ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions.operator: Invalid value: "In": ` + mustBeExistsMsg,
		},
		{
			name: "RQ-04 In without values",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"In"}]}}}`,
			want: "ResourceQuota \"q\" is invalid: spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
		},
		{
			name: "RQ-04 Exists with values",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"Exists","values":["a"]}]}}}`,
			want: "ResourceQuota \"q\" is invalid: spec.scopeSelector.matchExpressions.values: Invalid value: [\"a\"]: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
		},
		{
			name: "RQ-04 bad operator",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"Equals","values":["a"]}]}}}`,
			want: `ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions.operator: Invalid value: "Equals": not a valid selector operator`,
		},
		{
			name: "RQ-05 conflicting scopeSelector pair: value is spec.scopes (null)",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"Terminating","operator":"Exists"},{"scopeName":"NotTerminating","operator":"Exists"}]}}}`,
			want: `ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions: Invalid value: null: conflicting scopes`,
		},
		{
			name: "RQ-05 conflicting scopeSelector pair: value is spec.scopes (set)",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"1"},"scopes":["PriorityClass"],"scopeSelector":{"matchExpressions":[{"scopeName":"BestEffort","operator":"Exists"},{"scopeName":"NotBestEffort","operator":"Exists"}]}}}`,
			want: `ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions: Invalid value: ["PriorityClass"]: conflicting scopes`,
		},
		{
			name: "RQ-05 scopeSelector BestEffort with cpu: internal selector JSON, nil values",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"cpu":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"BestEffort","operator":"Exists"}]}}}`,
			want: `ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions: Invalid value: {"MatchExpressions":[{"ScopeName":"BestEffort","Operator":"Exists","Values":null}]}: unsupported scope applied to resource`,
		},
		{
			name: "RQ-05 scopeSelector with empty values renders []",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"memory":"1Gi"},"scopeSelector":{"matchExpressions":[{"scopeName":"BestEffort","operator":"Exists","values":[]}]}}}`,
			want: `ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions: Invalid value: {"MatchExpressions":[{"ScopeName":"BestEffort","Operator":"Exists","Values":[]}]}: unsupported scope applied to resource`,
		},
		{
			name: "RQ-05 VolumeAttributesClass with requests.storage and persistentvolumeclaims",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"requests.storage":"10Gi","persistentvolumeclaims":"5"},"scopeSelector":{"matchExpressions":[{"scopeName":"VolumeAttributesClass","operator":"In","values":["gold"]}]}}}`,
		},
		{
			name: "RQ-05 VolumeAttributesClass with pods",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"5"},"scopeSelector":{"matchExpressions":[{"scopeName":"VolumeAttributesClass","operator":"In","values":["gold"]}]}}}`,
			want: `ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions: Invalid value: {"MatchExpressions":[{"ScopeName":"VolumeAttributesClass","Operator":"In","Values":["gold"]}]}: unsupported scope applied to resource`,
		},
		{
			name: "RQ-05 PriorityClass In [high] with pods, cpu, limits.memory",
			doc:  `{"metadata":{"name":"q"},"spec":{"hard":{"pods":"10","cpu":"4","limits.memory":"8Gi"},"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"In","values":["high"]}]}}}`,
		},
		{
			name: "RQ-01..05 upstream order: metadata, hard, scopes, scopeSelector",
			doc:  `{"metadata":{"name":"Q"},"spec":{"hard":{"cpu":"1","foo":"-1"},"scopes":["BestEffort","NotBestEffort"],"scopeSelector":{"matchExpressions":[{"scopeName":"Terminating","operator":"NotIn"},{"scopeName":"Nope","operator":"Exists","values":["x"]}]}}}`,
			want: `ResourceQuota "Q" is invalid: [metadata.name: Invalid value: "Q": ` + rfc1123Msg + `, ` +
				`spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified, ` +
				`spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota, ` +
				`spec.hard[foo]: Invalid value: "-1": must be greater than or equal to 0, ` +
				`spec.scopes: Invalid value: ["BestEffort","NotBestEffort"]: unsupported scope applied to resource, ` +
				`spec.scopes: Invalid value: ["BestEffort","NotBestEffort"]: conflicting scopes, ` +
				`spec.scopeSelector.matchExpressions.operator: Invalid value: "NotIn": ` + mustBeExistsMsg + `, ` +
				"spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector, " +
				`spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Nope": unsupported scope, ` +
				"spec.scopeSelector.matchExpressions.values: Invalid value: [\"x\"]: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector]",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := quotaForCreate(t, tt.doc)
			errs := validation.ResourceQuota(q)
			got := ""
			if len(errs) > 0 {
				got = status.Invalid(corev1.SchemeGroupVersion.WithKind("ResourceQuota").GroupKind(), q.Name, errs).Message
			}
			if got != tt.want {
				t.Errorf("message:\n got: %s\nwant: %s", got, tt.want)
			}
			d := ResourceQuotaInvalid(quotaForCreate(t, tt.doc))
			switch {
			case tt.want == "" && d != nil:
				t.Errorf("ResourceQuotaInvalid: unexpected denial %q", d.Message)
			case tt.want != "" && (d == nil || d.Message != tt.want || d.Code != 422 || d.Stage != status.StageValidation):
				t.Errorf("ResourceQuotaInvalid: got %+v, want 422 %q", d, tt.want)
			}
		})
	}
}

// TestResourceQuotaInvalidCreatePath: the helper generates the placeholder name
// and ignores status, which PrepareForCreate clears.
func TestResourceQuotaInvalidCreatePath(t *testing.T) {
	q := &corev1.ResourceQuota{}
	doc := `{"metadata":{"generateName":"rq-","namespace":"ns1"},"spec":{"hard":{"pods":"2"}},"status":{"hard":{"foo":"-1"}}}`
	if err := json.Unmarshal([]byte(doc), q); err != nil {
		t.Fatal(err)
	}
	defaults.DefaultResourceQuota(q)
	if d := ResourceQuotaInvalid(q); d != nil {
		t.Fatalf("unexpected denial: %s", d.Message)
	}
	if q.Name != "rq-"+GeneratedNameSuffix {
		t.Errorf("name = %q", q.Name)
	}
	if len(q.Status.Hard) != 0 {
		t.Errorf("status not cleared: %v", q.Status)
	}
}
