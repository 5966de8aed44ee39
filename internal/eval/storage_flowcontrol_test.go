package eval

import (
	"cmp"
	"strings"
	"testing"

	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	storagev1 "k8s.io/api/storage/v1"
)

// subdomainMsg is the DNS-subdomain message of apimachinery.
const subdomainMsg = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`

// clusterCase is one document of a validated cluster-scoped (or, for
// CSIStorageCapacity, namespaced) kind and the whole message of its denial
// (a 422 unless code says otherwise); "" when the create succeeds.
type clusterCase struct {
	name, doc string
	want      string
	code      int32 // of want; 0 means 422
}

func runClusterCases(t *testing.T, cases []clusterCase, check func(t *testing.T, obj any)) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "ns1"})
			obj := decode(t, tc.doc)
			res := e.Admit(obj)
			switch {
			case tc.want == "":
				if res.Denial != nil {
					t.Fatalf("denied %s, want a valid object", res.Denial.Message)
				}
				if check != nil {
					check(t, obj)
				}
			case res.Denial == nil:
				t.Fatalf("admitted, want %s", tc.want)
			case res.Denial.Message != tc.want || res.Denial.Code != cmp.Or(tc.code, 422):
				t.Fatalf("got %d %s\nwant %d %s", res.Denial.Code, res.Denial.Message, cmp.Or(tc.code, 422), tc.want)
			}
		})
	}
}

// TestStorageValidation: VAL-87..VAL-90 and VAL-100, whole messages; the
// defaults a valid CSIDriver gets are checked on the object.
func TestStorageValidation(t *testing.T) {
	const st = "apiVersion: storage.k8s.io/v1\n"
	runClusterCases(t, []clusterCase{
		{name: "CSIDriver from a driver chart", doc: st + "kind: CSIDriver\nmetadata: {name: ebs.csi.aws.com}\nspec: {attachRequired: true, podInfoOnMount: false, fsGroupPolicy: File}\n"},
		{name: "CSIDriver spec mistakes", doc: st + "kind: CSIDriver\nmetadata: {name: secrets-store.csi.k8s.io}\nspec:\n  fsGroupPolicy: bogus\n  tokenRequests: [{audience: vault, expirationSeconds: 300}, {audience: vault}, {audience: sts, expirationSeconds: 4294967297}]\n  volumeLifecycleModes: [Ephemeral, inline]\n  nodeAllocatableUpdatePeriodSeconds: 5\n",
			want: `CSIDriver.storage.k8s.io "secrets-store.csi.k8s.io" is invalid: [spec.fsGroupPolicy: Unsupported value: "bogus": supported values: "File", "None", "ReadWriteOnceWithFSType", spec.tokenRequests[0].expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes, spec.tokenRequests[1].audience: Duplicate value: "vault", spec.tokenRequests[2].expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds, spec.volumeLifecycleModes: Unsupported value: "inline": supported values: "Persistent", "Ephemeral", spec.nodeAllocatableUpdatePeriodSeconds: Invalid value: 5: must be greater than or equal to 10 seconds]`},
		{name: "CSIDriver bad name, token secrets without requests", doc: st + "kind: CSIDriver\nmetadata: {name: Bad_Driver}\nspec: {serviceAccountTokenInSecrets: true}\n",
			want: `CSIDriver.storage.k8s.io "Bad_Driver" is invalid: [metadata.name: Invalid value: "Bad_Driver": ` + subdomainMsg + `, spec.serviceAccountTokenInSecrets: Invalid value: true: serviceAccountTokenInSecrets is set but no tokenRequests are specified]`},
		{name: "CSIDriver preventPodSchedulingIfMissing dropped", doc: st + "kind: CSIDriver\nmetadata: {name: d.example.com}\nspec: {preventPodSchedulingIfMissing: true}\n"},
		{name: "VolumeAttributesClass", doc: st + "kind: VolumeAttributesClass\nmetadata: {name: gold}\ndriverName: ebs.csi.aws.com\nparameters: {iops: \"3000\"}\n"},
		{name: "VolumeAttributesClass without parameters", doc: st + "kind: VolumeAttributesClass\nmetadata: {name: silver}\ndriverName: EBS_CSI\n",
			want: `VolumeAttributesClass.storage.k8s.io "silver" is invalid: parameters: Required value: must contain at least one key/value pair`},
		{name: "VolumeAttributesClass without driver, empty key", doc: st + "kind: VolumeAttributesClass\nmetadata: {name: bronze}\nparameters: {\"\": x}\n",
			want: `VolumeAttributesClass.storage.k8s.io "bronze" is invalid: [driverName: Required value, parameters: Invalid value: "": field can not be empty.]`},
		{name: "VolumeAttributesClass driver lower-cased", doc: st + "kind: VolumeAttributesClass\nmetadata: {name: v}\ndriverName: Bad_Driver!\nparameters: {a: b}\n",
			want: `VolumeAttributesClass.storage.k8s.io "v" is invalid: driverName: Invalid value: "bad_driver!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
		{name: "VolumeAttachment", doc: st + "kind: VolumeAttachment\nmetadata: {name: csi-123}\nspec: {attacher: ebs.csi.aws.com, nodeName: node-1, source: {persistentVolumeName: pv-1}}\nstatus: {attached: true, attachError: {errorCode: -1}}\n"},
		{name: "VolumeAttachment empty volume name, no node", doc: st + "kind: VolumeAttachment\nmetadata: {name: csi-456}\nspec: {attacher: ebs.csi.aws.com, source: {persistentVolumeName: \"\"}}\n",
			want: `VolumeAttachment.storage.k8s.io "csi-456" is invalid: [spec.source.persistentVolumeName: Required value: must specify non empty persistentVolumeName, spec.nodeName: Invalid value: "": ` + subdomainMsg + `, spec.source.persistentVolumeName: Invalid value: "": ` + subdomainMsg + `]`},
		{name: "VolumeAttachment inline spec rules", doc: st + "kind: VolumeAttachment\nmetadata: {name: csi-789}\nspec:\n  attacher: ebs.csi.aws.com\n  nodeName: node-1\n  source:\n    inlineVolumeSpec:\n      accessModes: [ReadWriteOnce]\n      capacity: {storage: 1Gi}\n      storageClassName: gp3\n      volumeMode: Block\n      persistentVolumeReclaimPolicy: Delete\n      volumeAttributesClassName: Bad_VAC\n      hostPath: {path: /mnt}\n",
			want: `VolumeAttachment.storage.k8s.io "csi-789" is invalid: [spec.source.inlineVolumeSpec.capacity: Forbidden: may not be specified in the context of inline volumes, spec.source.inlineVolumeSpec.csi: Required value: has to be specified in the context of inline volumes, spec.source.inlineVolumeSpec.persistentVolumeReclaimPolicy: Forbidden: may only be Retain in the context of inline volumes, spec.source.inlineVolumeSpec.storageClassName: Forbidden: may not be specified in the context of inline volumes, spec.source.inlineVolumeSpec.volumeMode: Forbidden: may not specify volumeMode other than Filesystem in the context of inline volumes]`},
		{name: "VolumeAttachment both sources, long attacher", doc: st + "kind: VolumeAttachment\nmetadata: {name: csi-1}\nspec:\n  attacher: " + strings.Repeat("d", 64) + "\n  nodeName: node-1\n  source: {persistentVolumeName: pv-1, inlineVolumeSpec: {accessModes: [ReadWriteOnce], csi: {driver: d, volumeHandle: h}}}\n",
			want: `VolumeAttachment.storage.k8s.io "csi-1" is invalid: [spec.attacher: Too long: may not be more than 63 bytes, spec.source: Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName]`},
		{name: "CSINode", doc: st + "kind: CSINode\nmetadata: {name: node-1}\nspec:\n  drivers:\n  - {name: ebs.csi.aws.com, nodeID: i-1, topologyKeys: [topology.ebs.csi.aws.com/zone], allocatable: {count: 25}}\n"},
		{name: "CSINode driver mistakes", doc: st + "kind: CSINode\nmetadata: {name: node-2}\nspec:\n  drivers:\n  - {name: ebs.csi.aws.com, nodeID: \"\", allocatable: {count: -1}}\n  - {name: ebs.csi.aws.com, nodeID: i-2, topologyKeys: [zone, zone, \"bad key!\"]}\n",
			want: `CSINode.storage.k8s.io "node-2" is invalid: [spec.drivers[0].nodeID: Required value, spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0, spec.drivers[1].name: Duplicate value: "ebs.csi.aws.com", spec.drivers[1]: Duplicate value: "zone", spec.drivers[1]: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')]`},
		{name: "CSIStorageCapacity", doc: st + "kind: CSIStorageCapacity\nmetadata: {name: cap-1, namespace: ns1}\nstorageClassName: gp3\ncapacity: 100Gi\nnodeTopology: {matchLabels: {topology.kubernetes.io/zone: us-east-1a}}\n"},
		{name: "CSIStorageCapacity mistakes", doc: st + "kind: CSIStorageCapacity\nmetadata: {name: cap-2, namespace: ns1}\ncapacity: -1Gi\nnodeTopology: {matchExpressions: [{key: zone, operator: in, values: [a]}]}\n",
			want: `CSIStorageCapacity.storage.k8s.io "cap-2" is invalid: [nodeTopology.matchExpressions[0].operator: Invalid value: "in": not a valid selector operator, storageClassName: Invalid value: "": ` + subdomainMsg + `, capacity: Invalid value: "-1Gi": must be greater than or equal to 0]`},
	}, func(t *testing.T, obj any) {
		d, ok := obj.(*storagev1.CSIDriver)
		if !ok {
			return
		}
		s := d.Spec
		if s.AttachRequired == nil || s.PodInfoOnMount == nil || s.StorageCapacity == nil || *s.StorageCapacity || s.RequiresRepublish == nil ||
			s.SELinuxMount == nil || *s.SELinuxMount || s.FSGroupPolicy == nil || len(s.VolumeLifecycleModes) != 1 ||
			s.VolumeLifecycleModes[0] != storagev1.VolumeLifecyclePersistent || s.PreventPodSchedulingIfMissing != nil {
			t.Errorf("CSIDriver defaults and prepare: %+v", s)
		}
	})
}

// TestFlowcontrolValidation: VAL-101..VAL-103, whole messages; the defaults
// a valid PriorityLevelConfiguration gets are checked on the object.
func TestFlowcontrolValidation(t *testing.T) {
	const fc = "apiVersion: flowcontrol.apiserver.k8s.io/v1\n"
	const allRules = "  - subjects: [{kind: Group, group: {name: \"system:unauthenticated\"}}, {kind: Group, group: {name: \"system:authenticated\"}}]\n    resourceRules: [{verbs: [\"*\"], apiGroups: [\"*\"], resources: [\"*\"], namespaces: [\"*\"], clusterScope: true}]\n    nonResourceRules: [{verbs: [\"*\"], nonResourceURLs: [\"*\"]}]\n"
	runClusterCases(t, []clusterCase{
		{name: "FlowSchema", doc: fc + "kind: FlowSchema\nmetadata: {name: monitoring}\nspec:\n  priorityLevelConfiguration: {name: workload-low}\n  distinguisherMethod: {type: ByUser}\n  rules:\n  - subjects: [{kind: ServiceAccount, serviceAccount: {name: \"*\", namespace: monitoring}}]\n    resourceRules: [{verbs: [list, watch], apiGroups: [\"*\"], resources: [pods], namespaces: [\"*\"]}]\n    nonResourceRules: [{verbs: [get], nonResourceURLs: [/metrics, /healthz/*]}]\n"},
		{name: "FlowSchema mistakes", doc: fc + "kind: FlowSchema\nmetadata: {name: noisy}\nspec:\n  matchingPrecedence: 1\n  distinguisherMethod: {type: byUser}\n  priorityLevelConfiguration: {name: \"\"}\n  rules:\n  - subjects: [{kind: Group}, {kind: user, user: {name: bob}}]\n    resourceRules: [{verbs: [\"*\", get], apiGroups: [], resources: [\"*\", pods], namespaces: [Team_A]}]\n    nonResourceRules: [{verbs: [fly], nonResourceURLs: [metrics, /a//b, /x*]}]\n  - subjects: [{kind: ServiceAccount, serviceAccount: {name: Bad_SA}, user: {name: x}}]\n",
			want: `FlowSchema.flowcontrol.apiserver.k8s.io "noisy" is invalid: [spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1, spec.distinguisherMethod.type: Unsupported value: {"Type":"byUser"}: supported values: "ByNamespace", "ByUser", spec.priorityLevelConfiguration.name: Required value: must reference a priority level, spec.rules[0].subjects[0].group: Required value: group is required when subject kind is 'Group', spec.rules[0].subjects[1].kind: Unsupported value: "user": supported values: "Group", "ServiceAccount", "User", spec.rules[0].resourceRules[0].verbs: Invalid value: ["*","get"]: if '*' is present, must not specify other verbs, spec.rules[0].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group, spec.rules[0].resourceRules[0].resources: Invalid value: ["*","pods"]: if '*' is present, must not specify other resources, spec.rules[0].resourceRules[0].namespaces[0]: Invalid value: "Team_A": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), spec.rules[0].nonResourceRules[0].verbs: Unsupported value: ["fly"]: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch", spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "metrics": must start with slash, spec.rules[0].nonResourceRules[0].nonResourceURLs[1]: Invalid value: "/a//b": must not contain double slash, spec.rules[0].nonResourceRules[0].nonResourceURLs[2]: Invalid value: "/x*": wildcard can only do suffix matching, spec.rules[1].subjects[0].serviceAccount.name: Invalid value: "Bad_SA": ` + subdomainMsg + `, spec.rules[1].subjects[0].serviceAccount.namespace: Required value: must specify namespace for service account, spec.rules[1].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User', spec.rules[1]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty]`},
		{name: "the mandatory catch-all FlowSchema, fixed spec: valid, but every cluster has it", doc: fc + "kind: FlowSchema\nmetadata: {name: catch-all}\nspec:\n  priorityLevelConfiguration: {name: catch-all}\n  matchingPrecedence: 10000\n  distinguisherMethod: {type: ByUser}\n  rules:\n" + allRules,
			want: `flowschemas.flowcontrol.apiserver.k8s.io "catch-all" already exists`, code: 409},
		{name: "a suggested FlowSchema's name is taken", doc: fc + "kind: FlowSchema\nmetadata: {name: probes}\nspec:\n  priorityLevelConfiguration: {name: exempt}\n",
			want: `flowschemas.flowcontrol.apiserver.k8s.io "probes" already exists`, code: 409},
		{name: "the mandatory catch-all FlowSchema, another precedence", doc: fc + "kind: FlowSchema\nmetadata: {name: catch-all}\nspec:\n  priorityLevelConfiguration: {name: catch-all}\n  matchingPrecedence: 9999\n  distinguisherMethod: {type: ByUser}\n  rules:\n" + allRules,
			want: `FlowSchema.flowcontrol.apiserver.k8s.io "catch-all" is invalid: spec: Invalid value: {"PriorityLevelConfiguration":{"Name":"catch-all"},"MatchingPrecedence":9999,"DistinguisherMethod":{"Type":"ByUser"},"Rules":[{"Subjects":[{"Kind":"Group","User":null,"Group":{"Name":"system:unauthenticated"},"ServiceAccount":null},{"Kind":"Group","User":null,"Group":{"Name":"system:authenticated"},"ServiceAccount":null}],"ResourceRules":[{"Verbs":["*"],"APIGroups":["*"],"Resources":["*"],"ClusterScope":true,"Namespaces":["*"]}],"NonResourceRules":[{"Verbs":["*"],"NonResourceURLs":["*"]}]}]}: spec of 'catch-all' must equal the fixed value`},
		{name: "PriorityLevelConfiguration", doc: fc + "kind: PriorityLevelConfiguration\nmetadata: {name: batch}\nspec:\n  type: Limited\n  limited:\n    limitResponse: {type: Queue, queuing: {queues: 64}}\n"},
		{name: "PriorityLevelConfiguration mistakes", doc: fc + "kind: PriorityLevelConfiguration\nmetadata: {name: greedy, annotations: {flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares: \"true\"}}\nspec:\n  type: Limited\n  exempt: {}\n  limited:\n    nominalConcurrencyShares: -1\n    lendablePercent: 101\n    borrowingLimitPercent: -1\n    limitResponse: {type: Queue, queuing: {queues: 64, handSize: 11, queueLengthLimit: -1}}\n",
			want: `PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "greedy" is invalid: [metadata.annotations: Forbidden: annotation 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares' is forbidden, spec.exempt: Forbidden: must be nil if the type is Limited, spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer, spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: -1: must be positive, spec.limited.limitResponse.queuing.handSize: Invalid value: 11: required entropy bits of deckSize 64 and handSize 11 should not be greater than 60, spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive, spec.limited.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer]`},
		{name: "the mandatory exempt level may change spec.exempt (and exists)", doc: fc + "kind: PriorityLevelConfiguration\nmetadata: {name: exempt}\nspec:\n  type: Exempt\n  exempt: {nominalConcurrencyShares: 10, lendablePercent: 50}\n",
			want: `prioritylevelconfigurations.flowcontrol.apiserver.k8s.io "exempt" already exists`, code: 409},
		{name: "the mandatory catch-all level, default shares", doc: fc + "kind: PriorityLevelConfiguration\nmetadata: {name: catch-all}\nspec:\n  type: Limited\n  limited:\n    limitResponse: {type: Reject}\n",
			want: `PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "catch-all" is invalid: spec: Invalid value: {"Type":"Limited","Limited":{"NominalConcurrencyShares":30,"LimitResponse":{"Type":"Reject","Queuing":null},"LendablePercent":0,"BorrowingLimitPercent":null},"Exempt":null}: spec of 'catch-all' must equal the fixed value`},
		{name: "Exempt type on another name, with limited", doc: fc + "kind: PriorityLevelConfiguration\nmetadata: {name: odd}\nspec:\n  type: Exempt\n  limited: {limitResponse: {type: Reject}}\n",
			want: "PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io \"odd\" is invalid: [spec.type: Invalid value: \"Exempt\": must be 'Exempt' if and only if `name` is 'exempt', spec.limited: Forbidden: must be nil if the type is not Limited]"},
	}, func(t *testing.T, obj any) {
		pl, ok := obj.(*flowcontrolv1.PriorityLevelConfiguration)
		if !ok || pl.Name != "batch" {
			return
		}
		l := pl.Spec.Limited
		if q := l.LimitResponse.Queuing; *l.NominalConcurrencyShares != 30 || *l.LendablePercent != 0 || q.Queues != 64 || q.HandSize != 8 || q.QueueLengthLimit != 50 || pl.Generation != 1 {
			t.Errorf("PriorityLevelConfiguration defaults: %+v %+v", l, q)
		}
	})
}

// TestStorageFlowcontrolNamesTaken: ST-01 for the kinds of VAL-87..VAL-103,
// a second object of a name is the 409 after its validation.
func TestStorageFlowcontrolNamesTaken(t *testing.T) {
	e := New(Options{DefaultNamespace: "ns1"})
	for _, tc := range []struct{ doc, want string }{
		{"apiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata: {name: d.example.com}\n", `csidrivers.storage.k8s.io "d.example.com" already exists`},
		{"apiVersion: storage.k8s.io/v1\nkind: VolumeAttributesClass\nmetadata: {name: gold}\ndriverName: d.example.com\nparameters: {a: b}\n", `volumeattributesclasses.storage.k8s.io "gold" already exists`},
		{"apiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: node-1}\n", `csinodes.storage.k8s.io "node-1" already exists`},
		{"apiVersion: storage.k8s.io/v1\nkind: VolumeAttachment\nmetadata: {name: csi-1}\nspec: {attacher: d.example.com, nodeName: n, source: {persistentVolumeName: pv}}\n", `volumeattachments.storage.k8s.io "csi-1" already exists`},
		{"apiVersion: storage.k8s.io/v1\nkind: CSIStorageCapacity\nmetadata: {name: cap}\nstorageClassName: gp3\n", `csistoragecapacities.storage.k8s.io "cap" already exists`},
		{"apiVersion: flowcontrol.apiserver.k8s.io/v1\nkind: PriorityLevelConfiguration\nmetadata: {name: batch}\nspec: {type: Limited, limited: {limitResponse: {type: Reject}}}\n", `prioritylevelconfigurations.flowcontrol.apiserver.k8s.io "batch" already exists`},
	} {
		if res := e.Admit(decode(t, tc.doc)); res.Denial != nil {
			t.Fatalf("first: %s", res.Denial.Message)
		}
		res := e.Admit(decode(t, tc.doc))
		if res.Denial == nil || res.Denial.Code != 409 || res.Denial.Message != tc.want {
			t.Errorf("second: got %+v, want 409 %s", res.Denial, tc.want)
		}
	}
}
