package eval

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestClassValidation: VAL-72 (PriorityClass), VAL-73 (StorageClass) and
// VAL-74 (RuntimeClass), whole messages as a kube-apiserver 1.36.3 control
// plane returned them; a refused class is not part of the cluster, so what
// refers to it is refused as an unknown class would be.
func TestClassValidation(t *testing.T) {
	const (
		pc = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
		sc = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\n"
		rc = "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\n"
	)
	for _, tc := range []struct {
		name, class string
		want        string // "" valid: the class is skipped as cluster state
	}{
		{name: "VAL-72 valid", class: pc + "metadata: {name: medium}\nvalue: 1000000000\npreemptionPolicy: Never\n"},
		{name: "VAL-72 value above the user maximum", class: pc + "metadata: {name: high}\nvalue: 2000000000\n",
			want: `PriorityClass.scheduling.k8s.io "high" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000`},
		{name: "VAL-72 preemptionPolicy lowercase", class: pc + "metadata: {name: batch-low}\nvalue: 100\npreemptionPolicy: never\n",
			want: `PriorityClass.scheduling.k8s.io "batch-low" is invalid: preemptionPolicy: Unsupported value: "never": supported values: "PreemptLowerPriority", "Never"`},
		{name: "VAL-72 reserved prefix", class: pc + "metadata: {name: system-custom}\nvalue: 1000\n",
			want: `PriorityClass.scheduling.k8s.io "system-custom" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-custom is not a known system priority class`},
		{name: "VAL-72 system class with another value", class: pc + "metadata: {name: system-node-critical}\nvalue: 1000\n",
			want: `PriorityClass.scheduling.k8s.io "system-node-critical" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000`},
		{name: "VAL-72 name and empty preemptionPolicy", class: pc + "metadata: {name: Team_Critical}\nvalue: 5000\npreemptionPolicy: \"\"\n",
			want: `PriorityClass.scheduling.k8s.io "Team_Critical" is invalid: [metadata.name: Invalid value: "Team_Critical": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), preemptionPolicy: Required value]`},
		{name: "VAL-72 a namespace on a cluster-scoped class is ignored", class: pc + "metadata: {name: low, namespace: Not_A_Namespace}\nvalue: 1\n"},

		{name: "VAL-73 valid, provisioner lowercased for the check", class: sc + "metadata: {name: ebs}\nprovisioner: kubernetes.io/AWS-EBS\nreclaimPolicy: Retain\nvolumeBindingMode: WaitForFirstConsumer\n"},
		{name: "VAL-73 provisioner empty", class: sc + "metadata: {name: fast}\nprovisioner: \"\"\n",
			want: `StorageClass.storage.k8s.io "fast" is invalid: provisioner: Required value`},
		{name: "VAL-73 Recycle and a misspelt binding mode", class: sc + "metadata: {name: ebs}\nprovisioner: ebs.csi.aws.com\nreclaimPolicy: Recycle\nvolumeBindingMode: WaitForFirstconsumer\n",
			want: `StorageClass.storage.k8s.io "ebs" is invalid: [reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain", volumeBindingMode: Unsupported value: "WaitForFirstconsumer": supported values: "Immediate", "WaitForFirstConsumer"]`},
		{name: "VAL-73 provisioner with a space, empty parameter key, lowercase policy",
			class: sc + "metadata: {name: local-path}\nprovisioner: rancher.io/local path\nreclaimPolicy: delete\nparameters: {\"\": x, type: gp3}\n",
			want:  `StorageClass.storage.k8s.io "local-path" is invalid: [provisioner: Invalid value: "rancher.io/local path": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), parameters: Invalid value: "": field can not be empty., reclaimPolicy: Unsupported value: "delete": supported values: "Delete", "Retain"]`},

		{name: "VAL-73 allowedTopologies: duplicate value, missing values, bad key, repeated key",
			class: sc + "metadata: {name: zonal}\nprovisioner: ebs.csi.aws.com\nallowedTopologies:\n- matchLabelExpressions:\n  - {key: topology.ebs.csi.aws.com/zone, values: [us-east-1a, us-east-1b, us-east-1a]}\n  - {key: \"bad key!\", values: []}\n  - {key: topology.ebs.csi.aws.com/zone, values: [us-east-1c]}\n",
			want:  `StorageClass.storage.k8s.io "zonal" is invalid: [allowedTopologies[0].matchLabelExpressions[0].values[2]: Duplicate value: "us-east-1a", allowedTopologies[0].matchLabelExpressions[1].values: Required value, allowedTopologies[0].matchLabelExpressions[1].key: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), allowedTopologies[0].matchLabelExpressions[2].key: Duplicate value: "topology.ebs.csi.aws.com/zone"]`},
		{name: "VAL-73 allowedTopologies: an empty term and a repeated term are duplicates",
			class: sc + "metadata: {name: empty-term}\nprovisioner: ebs.csi.aws.com\nallowedTopologies:\n- {}\n- matchLabelExpressions: [{key: zone, values: [a]}]\n- matchLabelExpressions: [{key: zone, values: [a]}]\n",
			want:  `StorageClass.storage.k8s.io "empty-term" is invalid: [allowedTopologies[0].matchLabelExpressions: Duplicate value: "", allowedTopologies[2].matchLabelExpressions: Duplicate value: ""]`},
		{name: "VAL-73 allowedTopologies valid", class: sc + "metadata: {name: fine}\nprovisioner: ebs.csi.aws.com\nallowedTopologies:\n- matchLabelExpressions: [{key: zone, values: [a, b]}]\n- matchLabelExpressions: [{key: zone, values: [c]}]\n"},

		{name: "VAL-74 valid", class: rc + "metadata: {name: gvisor}\nhandler: runsc\nscheduling: {tolerations: [{key: runtime, operator: Exists}]}\n"},
		{name: "VAL-74 handler not a DNS label", class: rc + "metadata: {name: kata}\nhandler: Kata_Containers\n",
			want: `RuntimeClass.node.k8s.io "kata" is invalid: handler: Invalid value: "Kata_Containers": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
		{name: "VAL-74 negative overhead, at upstream's limits path", class: rc + "metadata: {name: kata}\nhandler: kata\noverhead: {podFixed: {cpu: \"-250m\", memory: 120Mi}}\n",
			want: `RuntimeClass.node.k8s.io "kata" is invalid: overhead.limits[cpu]: Invalid value: "-250m": must be greater than or equal to 0`},
		{name: "VAL-74 overhead resource names and hugepages", class: rc + "metadata: {name: gvisor}\nhandler: runsc\noverhead: {podFixed: {gpu: \"1\", example.com/dev: \"1\", hugepages-2Mi: 3Mi}}\n",
			want: `RuntimeClass.node.k8s.io "gvisor" is invalid: [overhead.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified, overhead.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers, overhead.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi, overhead: Forbidden: HugePages require cpu or memory]`},
		{name: "VAL-74 handler empty", class: rc + "metadata: {name: runc}\nhandler: \"\"\n",
			want: `RuntimeClass.node.k8s.io "runc" is invalid: handler: Required value`},
		{name: "VAL-74 scheduling: label value, operator, duplicate toleration",
			class: rc + "metadata: {name: gvisor}\nhandler: runsc\nscheduling:\n  nodeSelector: {runtime: \"g visor\"}\n  tolerations:\n  - {key: runtime, operator: Equal, value: gvisor, effect: NoSchedule}\n  - {key: runtime, operator: Equal, value: gvisor, effect: NoSchedule}\n  - {key: other, operator: exists}\n",
			want:  `RuntimeClass.node.k8s.io "gvisor" is invalid: [scheduling.nodeSelector: Invalid value: "g visor": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'), scheduling.tolerations[2].operator: Unsupported value: "exists": supported values: "Equal", "Exists", scheduling.tolerations[1]: Duplicate value: {"Key":"runtime","Operator":"Equal","Value":"gvisor","Effect":"NoSchedule","TolerationSeconds":null}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "ns1"})
			obj := decode(t, tc.class)
			if !e.AddClusterObject(obj) {
				t.Fatal("not a cluster class")
			}
			res := e.Admit(obj)
			switch {
			case tc.want == "":
				if res.Denial != nil || !res.Skipped {
					t.Fatalf("got denial %+v skipped %v, want a valid class", res.Denial, res.Skipped)
				}
			case res.Denial == nil:
				t.Fatalf("admitted, want %s", tc.want)
			case res.Denial.Message != tc.want || res.Denial.Code != 422:
				t.Fatalf("got %d %s\nwant 422 %s", res.Denial.Code, res.Denial.Message, tc.want)
			}
		})
	}
}

// TestRefusedClassIsNotInTheCluster: a PriorityClass or RuntimeClass
// kube-apiserver refuses does not exist for the Pods after it, and a refused
// globalDefault class defaults nothing (VAL-72, VAL-74, RQ-34).
func TestRefusedClassIsNotInTheCluster(t *testing.T) {
	e := New(Options{DefaultNamespace: "ns1"})
	for _, c := range []string{
		"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 2000000000\n",
		"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: default-big}\nvalue: 1500000000\nglobalDefault: true\n",
		"apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: kata}\nhandler: Kata_Containers\n",
	} {
		e.AddClusterObject(decode(t, c))
	}
	res := e.Admit(decode(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: p-high}\nspec:\n  priorityClassName: high\n  containers: [{name: c, image: i}]\n"))
	if want := `pods "p-high" is forbidden: no PriorityClass with name high was found`; res.Denial == nil || res.Denial.Message != want {
		t.Errorf("got %+v, want %s", res.Denial, want)
	}
	res = e.Admit(decode(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: p-kata}\nspec:\n  runtimeClassName: kata\n  containers: [{name: c, image: i}]\n"))
	if want := `pods "p-kata" is forbidden: pod rejected: RuntimeClass "kata" not found`; res.Denial == nil || res.Denial.Message != want {
		t.Errorf("got %+v, want %s", res.Denial, want)
	}
	res = e.Admit(decode(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: i}]\n"))
	if res.Denial != nil {
		t.Fatalf("denied: %s", res.Denial.Message)
	}
	if p := res.Object.(*corev1.Pod); p.Spec.PriorityClassName != "" || *p.Spec.Priority != 0 {
		t.Errorf("defaulted to class %q priority %d, want none (the default class was refused)", p.Spec.PriorityClassName, *p.Spec.Priority)
	}
}

// TestSecondGlobalDefault: the Priority plugin refuses a second globalDefault
// PriorityClass (VAL-72); the first stays the default.
func TestSecondGlobalDefault(t *testing.T) {
	e := New(Options{DefaultNamespace: "ns1"})
	first := decode(t, "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 100\nglobalDefault: true\n")
	second := decode(t, "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 10\nglobalDefault: true\n")
	e.AddClusterObject(first)
	e.AddClusterObject(second)
	if res := e.Admit(first); res.Denial != nil || !res.Skipped {
		t.Fatalf("first default: %+v", res.Denial)
	}
	res := e.Admit(second)
	if want := `priorityclasses.scheduling.k8s.io "low" is forbidden: PriorityClass high is already marked as default. Only one default can exist`; res.Denial == nil || res.Denial.Message != want || res.Denial.Code != 403 {
		t.Fatalf("got %+v, want 403 %s", res.Denial, want)
	}
	res = e.Admit(decode(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: i}]\n"))
	if p := res.Object.(*corev1.Pod); p.Spec.PriorityClassName != "high" || *p.Spec.Priority != 100 {
		t.Errorf("defaulted to %q %d, want high 100", p.Spec.PriorityClassName, *p.Spec.Priority)
	}
}
