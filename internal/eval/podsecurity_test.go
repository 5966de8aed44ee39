package eval

import (
	"slices"
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval/features"
	"github.com/limitcheck/limitcheck/internal/eval/status"
)

// restrictedPod runs as the restricted standard asks.
const restrictedPod = `apiVersion: v1
kind: Pod
metadata: {name: ok, namespace: apps}
spec:
  securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}
  containers:
  - name: app
    image: app:1
    securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}`

// plainPod sets no security context: baseline, not restricted.
const plainPod = `apiVersion: v1
kind: Pod
metadata: {name: plain, namespace: apps}
spec:
  containers: [{name: app, image: app:1}]`

// hostPod breaks baseline: host network and a privileged container.
const hostPod = `apiVersion: v1
kind: Pod
metadata: {name: host, namespace: apps}
spec:
  hostNetwork: true
  containers: [{name: app, image: app:1, securityContext: {privileged: true}}]`

const restrictedViolations = `allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`

func namespaceWith(labels string) string {
	return "apiVersion: v1\nkind: Namespace\nmetadata: {name: apps, labels: {" + labels + "}}"
}

func TestPodSecurity(t *testing.T) {
	tests := []struct {
		name     string
		docs     []string
		opts     Options
		code     int32
		stage    status.Stage
		message  string
		warnings []string
	}{
		{
			name: "PS-02 enforce restricted refuses a Pod without a security context",
			docs: []string{namespaceWith("pod-security.kubernetes.io/enforce: restricted"), plainPod},
			code: 403, stage: status.StagePodSecurity,
			message: `pods "plain" is forbidden: violates PodSecurity "restricted:latest": ` + restrictedViolations,
		},
		{
			name: "PS-02 enforce restricted admits a Pod that meets it",
			docs: []string{namespaceWith("pod-security.kubernetes.io/enforce: restricted"), restrictedPod},
		},
		{
			name: "PS-02 the version label is printed as given",
			docs: []string{namespaceWith("pod-security.kubernetes.io/enforce: baseline, pod-security.kubernetes.io/enforce-version: v1.30"), hostPod},
			code: 403, stage: status.StagePodSecurity,
			message: `pods "host" is forbidden: violates PodSecurity "baseline:v1.30": host namespaces (hostNetwork=true), privileged (container "app" must not set securityContext.privileged=true)`,
		},
		{
			name:     "PS-02 enforce baseline admits, warn restricted warns",
			docs:     []string{namespaceWith("pod-security.kubernetes.io/enforce: baseline, pod-security.kubernetes.io/warn: restricted"), plainPod},
			warnings: []string{`would violate PodSecurity "restricted:latest": ` + restrictedViolations},
		},
		{
			name: "PS-01 warn defaults to a stricter enforce level: a refusal carries no warning",
			docs: []string{namespaceWith("pod-security.kubernetes.io/enforce: baseline"), hostPod},
			code: 403, stage: status.StagePodSecurity,
			message: `pods "host" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true), privileged (container "app" must not set securityContext.privileged=true)`,
		},
		{
			name: "PS-02 a namespace the input does not label is privileged",
			docs: []string{plainPod, hostPod},
		},
		{
			name: "PS-02 --disable-admission-plugins=PodSecurity",
			docs: []string{namespaceWith("pod-security.kubernetes.io/enforce: restricted"), plainPod},
			opts: Options{DisablePodSecurity: true},
		},
		{
			name: "PS-02 LimitRanger's refusal comes first",
			docs: []string{namespaceWith("pod-security.kubernetes.io/enforce: restricted"),
				"apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr, namespace: apps}\nspec:\n  limits: [{type: Container, max: {cpu: 100m}}]",
				"apiVersion: v1\nkind: Pod\nmetadata: {name: big, namespace: apps}\nspec:\n  containers: [{name: app, image: app:1, resources: {limits: {cpu: '1'}}}]"},
			code: 403, stage: status.StageLimitRanger,
			message: `pods "big" is forbidden: maximum cpu usage per Container is 100m, but limit is 1`,
		},
		{
			name: "PS-01 a level that does not parse refuses the Namespace",
			docs: []string{namespaceWith("pod-security.kubernetes.io/enforce: strict, pod-security.kubernetes.io/warn-version: '1.30'")},
			code: 422, stage: status.StageValidation,
			message: `Namespace "apps" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.30": must be "latest" or "v1.x"]`,
		},
		{
			name: "PS-01 a refused Namespace is not created: its Pods find no namespace",
			docs: []string{namespaceWith("pod-security.kubernetes.io/enforce: strict"), restrictedPod},
			code: 404, stage: status.StageNamespaceLifecycle,
			message: `namespaces "apps" not found`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.DefaultNamespace, opts.Gates = "ns1", features.Default()
			e := New(opts)
			var res Result
			for _, d := range tt.docs {
				res = e.Admit(decode(t, d))
			}
			switch {
			case tt.message == "" && res.Denial != nil:
				t.Fatalf("denied: %s", res.Denial.Message)
			case tt.message != "" && res.Denial == nil:
				t.Fatalf("admitted, want %q", tt.message)
			case tt.message != "":
				if res.Denial.Code != tt.code || res.Denial.Stage != tt.stage || res.Denial.Message != tt.message {
					t.Errorf("got %d %s %q\nwant %d %s %q", res.Denial.Code, res.Denial.Stage, res.Denial.Message, tt.code, tt.stage, tt.message)
				}
			}
			if !slices.Equal(res.APIWarnings, tt.warnings) {
				t.Errorf("warnings %q, want %q", res.APIWarnings, tt.warnings)
			}
		})
	}
}

// PS-03: a workload's template is warned of, never refused; the Pods its
// controller creates are refused by enforce.
func TestPodSecurityWorkloads(t *testing.T) {
	e := New(Options{DefaultNamespace: "ns1", Gates: features.Default()})
	e.Admit(decode(t, namespaceWith("pod-security.kubernetes.io/enforce: restricted")))
	res := e.Admit(decode(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: apps}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: app, image: app:1}]"))
	if res.Denial != nil {
		t.Fatalf("Deployment denied: %s", res.Denial.Message)
	}
	if want := []string{`would violate PodSecurity "restricted:latest": ` + restrictedViolations}; !slices.Equal(res.APIWarnings, want) {
		t.Errorf("Deployment's warnings %q, want %q", res.APIWarnings, want)
	}
	if res.Workload == nil {
		t.Fatal("no workload")
	}
	pods := 0
	for _, c := range res.Workload.Created {
		if c.Kind != "Pod" {
			continue
		}
		pods++
		want := `pods "web-` // the hash and the generated part follow
		if c.Denial == nil || c.Denial.Stage != status.StagePodSecurity || len(c.Denial.Message) < len(want) || c.Denial.Message[:len(want)] != want {
			t.Errorf("created Pod %s: %+v, want refused by PodSecurity", c.Name, c.Denial)
		}
		if len(c.APIWarnings) > 0 {
			t.Errorf("created Pod %s has warnings %q", c.Name, c.APIWarnings)
		}
	}
	if pods == 0 {
		t.Error("the ReplicaSet created no Pod")
	}
}
