package eval

import (
	"slices"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval/features"
)

// VAL-104: the warnings kube-apiserver gives with a create, whole, in its
// order, for the input's objects only.
func TestAPIWarnings(t *testing.T) {
	quota := "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec: {hard: {pods: '0'}}"
	for _, tc := range []struct {
		name string
		docs []string
		want []string
	}{{
		name: "fractional memory in a Pod",
		docs: []string{"apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: app\n    image: app:1\n    resources: {requests: {memory: 1.5}, limits: {memory: 1.2Gi}}"},
		want: []string{
			`spec.containers[0].resources.limits[memory]: fractional byte value "1288490188800m" is invalid, must be an integer`,
			`spec.containers[0].resources.requests[memory]: fractional byte value "1500m" is invalid, must be an integer`,
		},
	}, {
		name: "a Deployment's template: deprecated node labels, duplicate env, a name that is no DNS label",
		docs: []string{`apiVersion: apps/v1
kind: Deployment
metadata: {name: web.v2}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {beta.kubernetes.io/os: linux, beta.kubernetes.io/arch: amd64}
      containers:
      - name: app
        image: app:1
        env: [{name: A, value: "1"}, {name: A, value: "2"}, {name: A, value: "$(A)-x"}]`},
		want: []string{
			`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]`,
			`spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead`,
			`spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead`,
			`spec.template.spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply`,
		},
	}, {
		name: "a PVC's deprecated class annotation and fractional storage",
		docs: []string{"apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, annotations: {volume.beta.kubernetes.io/storage-class: fast}}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1.5}}}"},
		want: []string{
			`metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead`,
			`spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer`,
		},
	}, {
		name: "a PersistentVolume: deprecated annotations, Recycle, node label, plugin",
		docs: []string{`apiVersion: v1
kind: PersistentVolume
metadata:
  name: shared
  annotations: {volume.beta.kubernetes.io/storage-class: slow, volume.beta.kubernetes.io/mount-options: hard}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteMany]
  persistentVolumeReclaimPolicy: Recycle
  glusterfs: {endpoints: gluster, path: vol1}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions: [{key: failure-domain.beta.kubernetes.io/zone, operator: In, values: [a]}]`},
		want: []string{
			`metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead`,
			`metadata.annotations[volume.beta.kubernetes.io/mount-options]: deprecated since v1.31; use "mountOptions" attribute instead`,
			`spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.`,
			`spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
			`spec.glusterfs: deprecated in v1.25, non-functional in v1.26+`,
		},
	}, {
		name: "a StorageClass's deprecated topology key",
		docs: []string{"apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: zonal}\nprovisioner: ebs.csi.aws.com\nallowedTopologies:\n- matchLabelExpressions:\n  - {key: topology.kubernetes.io/region, values: [us-east-1]}\n  - {key: failure-domain.beta.kubernetes.io/zone, values: [us-east-1a]}"},
		want: []string{`allowedTopologies[0].matchLabelExpressions[1].key: deprecated since v1.17; use "topology.kubernetes.io/zone" instead`},
	}, {
		name: "a CSIDriver's token requests without serviceAccountTokenInSecrets",
		docs: []string{"apiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata: {name: csi.example.com}\nspec: {tokenRequests: [{audience: vault}]}"},
		want: []string{`spec.serviceAccountTokenInSecrets is unset; if supported by this CSI driver, set to true to prevent possible logging of tokens in volume attributes`},
	}, {
		name: "a CSIStorageCapacity's deprecated node labels",
		docs: []string{"apiVersion: storage.k8s.io/v1\nkind: CSIStorageCapacity\nmetadata: {name: cap}\nstorageClassName: zonal\nnodeTopology:\n  matchLabels: {failure-domain.beta.kubernetes.io/zone: a, beta.kubernetes.io/arch: amd64}\n  matchExpressions: [{key: beta.kubernetes.io/os, operator: In, values: [linux]}]"},
		want: []string{
			`nodeTopology.matchExpressions[0].key: beta.kubernetes.io/os is deprecated since v1.14; use "kubernetes.io/os" instead`,
			`nodeTopology.matchLabels.beta.kubernetes.io/arch: deprecated since v1.14; use "kubernetes.io/arch" instead`,
			`nodeTopology.matchLabels.failure-domain.beta.kubernetes.io/zone: deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
		},
	}, {
		name: "a Pod's AppArmor annotation, copied to its container",
		docs: []string{"apiVersion: v1\nkind: Pod\nmetadata: {name: web, annotations: {container.apparmor.security.beta.kubernetes.io/app: runtime/default}}\nspec:\n  containers: [{name: app, image: app:1}]"},
		want: []string{`metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: deprecated since v1.30; use the "appArmorProfile" field instead`},
	}, {
		name: "refused by the quota: the warnings were sent before",
		docs: []string{quota, "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  terminationGracePeriodSeconds: -1\n  containers:\n  - {name: app, image: app:1, ports: [{containerPort: 80}, {containerPort: 80}]}"},
		want: []string{`spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]`},
	}, {
		name: "a Service with externalIPs",
		docs: []string{"apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  externalIPs: [203.0.113.10]\n  externalName: web.example.com\n  ports: [{port: 80}]"},
		want: []string{
			`spec.externalIPs is deprecated and may no longer be implemented in some clusters`,
			`spec.externalName is ignored when spec.type is not "ExternalName"`,
		},
	}, {
		name: "an Ingress with the class annotation only",
		docs: []string{"apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: web, annotations: {kubernetes.io/ingress.class: nginx}}\nspec:\n  defaultBackend: {service: {name: web, port: {number: 80}}}"},
		want: []string{`annotation "kubernetes.io/ingress.class" is deprecated, please use 'spec.ingressClassName' instead`},
	}, {
		name: "a NetworkPolicy's IPv6 CIDR not in canonical form",
		docs: []string{"apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: np}\nspec:\n  podSelector: {}\n  egress: [{to: [{ipBlock: {cidr: '2001:DB8::/32'}}]}]"},
		want: []string{`spec.egress[0].to[0].ipBlock.cidr: IPv6 CIDR value "2001:DB8::/32" should be in RFC 5952 canonical format ("2001:db8::/32")`},
	}, {
		name: "v1 Endpoints: the endpoint's deprecation warning comes first",
		docs: []string{"apiVersion: v1\nkind: Endpoints\nmetadata: {name: ext}\nsubsets:\n- addresses: [{ip: 10.1.2.3}]\n  ports: [{port: 80}, {port: 80}]"},
		want: []string{`v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice`},
	}, {
		name: "refused v1 Endpoints: the deprecation warning is sent all the same",
		docs: []string{"apiVersion: v1\nkind: Endpoints\nmetadata: {name: ext}\nsubsets:\n- addresses: [{ip: 'not an IP'}]\n  ports: [{port: 80}]"},
		want: []string{`v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice`},
	}, {
		name: "a CRD: formats its node's type does not take, each once, versions in order, properties by name",
		docs: []string{`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: string, format: int64}
              count: {type: integer, format: uint8}
              ratio: {type: number, format: int32}
              since: {type: string, format: date-time}
              total: {type: integer, format: int64}
              name: {type: string, format: k8s-short-name}
              ips: {type: array, items: {type: string, format: ipv4}}
              nets: {type: object, additionalProperties: {type: integer, format: cidr}}
              port: {x-kubernetes-int-or-string: true, format: int-or-string}
              again: {type: string, format: int64}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {big: {type: string, format: uint64}}}`},
		want: []string{
			`unrecognized format "int64"`,
			`unrecognized format "uint8"`,
			`unrecognized format "cidr"`,
			`unrecognized format "int-or-string"`,
			`unrecognized format "int32"`,
			`unrecognized format "uint64"`,
		},
	}, {
		name: "a CRD whose formats all fit their types: none",
		docs: []string{"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: gadgets.example.com}\nspec:\n  group: example.com\n  names: {kind: Gadget, plural: gadgets}\n  scope: Cluster\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {type: object, properties: {a: {type: string, format: date-time}, b: {type: integer, format: int32}, c: {type: number, format: double}, d: {type: string, format: k8s-long-name}}}"},
	}, {
		name: "a refused CRD: none",
		docs: []string{"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: gizmos.example.com}\nspec:\n  group: example.com\n  names: {kind: Gizmo, plural: gizmos}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: false\n    schema:\n      openAPIV3Schema: {type: object, properties: {a: {type: string, format: int64}}}"},
	}, {
		name: "refused by validation: none",
		docs: []string{"apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - {name: app, image: app:1, resources: {requests: {memory: 1.5, cpu: '2'}, limits: {cpu: '1'}}}"},
	}, {
		// The ResourceQuota strategy: a hard request above the hard limit, in
		// the order cpu, memory, storage, ephemeral-storage; bare cpu and
		// memory stand for the request only when requests.<r> is absent.
		name: "a quota whose requests are above its limits",
		docs: []string{"apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec:\n  hard: {requests.ephemeral-storage: 2Gi, limits.ephemeral-storage: 1536Mi, memory: 2Gi, limits.memory: 1Gi, requests.cpu: 1500m, cpu: '1', limits.cpu: '1', requests.storage: 10Gi}"},
		want: []string{
			`ResourceQuota requests.cpu (1500m) should be less than limits.cpu (1)`,
			`ResourceQuota memory (2Gi) should be less than limits.memory (1Gi)`,
			`ResourceQuota requests.ephemeral-storage (2Gi) should be less than limits.ephemeral-storage (1536Mi)`,
		},
	}, {
		name: "a quota whose requests equal its limits: none",
		docs: []string{"apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec:\n  hard: {requests.cpu: '1', limits.cpu: 1000m, requests.memory: 1Gi, memory: 4Gi, limits.memory: 1Gi}"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, features.Default(), tc.docs...)
			if !slices.Equal(res.APIWarnings, tc.want) {
				t.Errorf("warnings\n%q\nwant\n%q", res.APIWarnings, tc.want)
			}
		})
	}
}

// What controllers create carries no warnings: the controller reads them.
func TestAPIWarningsNotOnCreatedObjects(t *testing.T) {
	res := run(t, features.Default(), "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: app, image: app:1, resources: {limits: {memory: 1.5}}}]")
	if want := []string{`spec.template.spec.containers[0].resources.limits[memory]: fractional byte value "1500m" is invalid, must be an integer`}; !slices.Equal(res.APIWarnings, want) {
		t.Errorf("Deployment's warnings %q, want %q", res.APIWarnings, want)
	}
	if res.Workload == nil || len(res.Workload.Created) == 0 {
		t.Fatal("nothing created")
	}
	for _, c := range res.Workload.Created {
		if len(c.APIWarnings) > 0 {
			t.Errorf("created %s %s has warnings %q", c.Kind, c.Name, c.APIWarnings)
		}
	}
}

// limitcheck's own warnings: units left out, whole messages; quantities
// that are plausible as written are not warned of.
func TestUnitWarnings(t *testing.T) {
	for _, tc := range []struct {
		resources string
		want      []string
	}{
		{"{requests: {cpu: 250, memory: 256}, limits: {cpu: '500', memory: 512}}", []string{
			`spec.containers[0].resources.requests[cpu]: 250 is 250 CPUs: a cpu quantity without a unit counts whole CPUs; did you mean 250m?`,
			`spec.containers[0].resources.requests[memory]: 256 is 256 bytes: far less memory than a container needs; a memory quantity without a unit counts bytes; did you mean 256Mi?`,
			`spec.containers[0].resources.limits[cpu]: 500 is 500 CPUs: a cpu quantity without a unit counts whole CPUs; did you mean 500m?`,
			`spec.containers[0].resources.limits[memory]: 512 is 512 bytes: far less memory than a container needs; a memory quantity without a unit counts bytes; did you mean 512Mi?`,
		}},
		{"{limits: {memory: 500k}}", []string{
			`spec.containers[0].resources.limits[memory]: 500k is 500000 bytes: far less memory than a container needs`,
		}},
		{"{requests: {cpu: 64, memory: 1Mi}, limits: {cpu: 64.5, memory: 1048576}}", nil},
		// A large container says so by its memory; 1048575 is no MiB count.
		{"{requests: {cpu: 96, memory: 64Gi}, limits: {cpu: 192}}", nil},
		{"{limits: {memory: 1048575}}", []string{
			`spec.containers[0].resources.limits[memory]: 1048575 is 1048575 bytes: far less memory than a container needs`,
		}},
		{"{requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: '2', memory: 2G}}", nil},
	} {
		res := run(t, features.Default(), "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: c:1, resources: "+tc.resources+"}]")
		if !slices.Equal(res.Warnings, tc.want) {
			t.Errorf("%s: warnings\n%q\nwant\n%q", tc.resources, res.Warnings, tc.want)
		}
	}
}

// limitcheck's own warning: a cpu quantity with a byte unit.
func TestCPUByteUnitWarnings(t *testing.T) {
	res := run(t, features.Default(), "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: nightly}\nspec:\n  schedule: '0 0 * * *'\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers: [{name: c, image: c:1, resources: {requests: {cpu: 500Mi, memory: 1Gi}, limits: {cpu: '2'}}}]")
	want := []string{`spec.jobTemplate.spec.template.spec.containers[0].resources.requests[cpu]: 500Mi is 524288000 CPUs: Ki, Mi and Gi are units of bytes; millicores take m (250m is a quarter of a CPU)`}
	if !slices.Equal(res.Warnings, want) {
		t.Errorf("warnings %q, want %q", res.Warnings, want)
	}
}

// PL-12: admission limitcheck does not run is said, not passed over.
func TestUnsimulatedAdmissionWarnings(t *testing.T) {
	vap := run(t, features.Default(), "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: replicas}\nspec:\n  matchConstraints: {resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]}\n  validations: [{expression: \"true\"}]")
	want := []string{"not evaluated: limitcheck does not run admission policies, so what this policy refuses is reported admitted",
		"its CEL expressions were not compiled: limitcheck was run without a CEL evaluator"}
	if !slices.Equal(vap.Warnings, want) {
		t.Errorf("ValidatingAdmissionPolicy: warnings %q, want %q", vap.Warnings, want)
	}
	mp := run(t, features.Default(), "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\nmetadata: {name: defaults}\nspec:\n  matchConstraints: {resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]}\n  mutations: [{patchType: JSONPatch, jsonPatch: {expression: \"[]\"}}]\n  reinvocationPolicy: Never")
	if want := []string{"not applied: limitcheck does not run admission policies, so what this policy changes (resources, labels, …) is not part of the check",
		"its CEL expressions were not compiled: limitcheck was run without a CEL evaluator"}; !slices.Equal(mp.Warnings, want) {
		t.Errorf("MutatingAdmissionPolicy: warnings %q, want %q", mp.Warnings, want)
	}
	// PodSecurity is run (PS-01): a Namespace's labels are no longer warned of.
	ns := run(t, features.Default(), "apiVersion: v1\nkind: Namespace\nmetadata: {name: apps, labels: {pod-security.kubernetes.io/enforce: restricted}}")
	if len(ns.Warnings) > 0 {
		t.Errorf("Namespace with an enforce label: warnings %q", ns.Warnings)
	}
}

// NS-01: a quota refusal whose count includes what every namespace holds
// says so; one on other resources, or with the objects left out, does not.
func TestNamespaceObjectsCounted(t *testing.T) {
	quota := "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: objects}\nspec:\n  hard: {configmaps: '1', requests.cpu: 100m}"
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}"
	res := run(t, features.Default(), quota, cm)
	want := []string{"used counts the ConfigMap kube-root-ca.crt, which every namespace holds (--namespace-objects=false leaves it out)"}
	if res.Denial == nil || !slices.Equal(res.Warnings, want) {
		t.Errorf("ConfigMap: denial %v, warnings %q, want %q", res.Denial != nil, res.Warnings, want)
	}
	sys := run(t, features.Default(), strings.Replace(quota, "metadata: {name: objects}", "metadata: {name: objects, namespace: kube-system}", 1),
		strings.Replace(cm, "metadata: {name: settings}", "metadata: {name: settings, namespace: kube-system}", 1))
	want = []string{"used counts the ConfigMaps kube-root-ca.crt, extension-apiserver-authentication and kube-apiserver-legacy-service-account-token-tracking, which namespace kube-system holds in every cluster (--namespace-objects=false leaves them out)"}
	if !slices.Equal(sys.Warnings, want) {
		t.Errorf("kube-system: warnings %q, want %q", sys.Warnings, want)
	}
	pod := run(t, features.Default(), quota, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i, resources: {requests: {cpu: 200m}}}]}")
	if pod.Denial == nil || len(pod.Warnings) > 0 {
		t.Errorf("Pod over requests.cpu: warnings %q", pod.Warnings)
	}
	e := New(Options{DefaultNamespace: "ns1", OmitNamespaceObjects: true})
	e.Admit(decode(t, quota))
	e.Admit(decode(t, cm))
	if r := e.Admit(decode(t, strings.Replace(cm, "settings", "more", 1))); r.Denial == nil || len(r.Warnings) > 0 {
		t.Errorf("objects left out: warnings %q", r.Warnings)
	}
}

// limitcheck's own warning: a field 1.36 drops because its gate is off.
func TestDroppedFieldWarnings(t *testing.T) {
	sts := "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  replicas: 1\n  selector: {matchLabels: {app: db}}\n  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 2}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: c, image: i}]}"
	res := run(t, features.Default(), sts)
	want := "spec.updateStrategy.rollingUpdate.maxUnavailable is dropped: kube-apiserver 1.36 keeps it only with the MaxUnavailableStatefulSet feature gate (beta, off by default), so the StatefulSet updates one Pod at a time"
	if !slices.Contains(res.Warnings, want) {
		t.Errorf("warnings %q, want %q", res.Warnings, want)
	}
	plain := run(t, features.Default(), strings.Replace(sts, ", rollingUpdate: {maxUnavailable: 2}", "", 1))
	if slices.Contains(plain.Warnings, want) {
		t.Errorf("without maxUnavailable: %q", plain.Warnings)
	}
}

// RQ-17: a Job's own activeDeadlineSeconds does not make its Pods
// Terminating; a NotTerminating quota refusing them says so.
func TestJobDeadlineScopeHint(t *testing.T) {
	quota := "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: services}\nspec: {hard: {pods: '1'}, scopes: [NotTerminating]}"
	job := "apiVersion: batch/v1\nkind: Job\nmetadata: {name: report}\nspec:\n  activeDeadlineSeconds: 600\n  parallelism: 2\n  completions: 2\n  template:\n    spec: {restartPolicy: Never, containers: [{name: r, image: i}]}"
	res := run(t, features.Default(), quota, job)
	want := "spec.activeDeadlineSeconds bounds the Job, not its Pods: quota services (NotTerminating) counts them; spec.template.spec.activeDeadlineSeconds makes them Terminating"
	if !slices.Contains(res.Warnings, want) {
		t.Errorf("warnings %q, want %q", res.Warnings, want)
	}
	// The template's deadline: its Pods are Terminating, and nothing refuses them.
	ok := run(t, features.Default(), quota, strings.Replace(job, "spec: {restartPolicy: Never,", "spec: {activeDeadlineSeconds: 600, restartPolicy: Never,", 1))
	if slices.Contains(ok.Warnings, want) || !ok.Allowed {
		t.Errorf("template deadline: allowed %v, warnings %q", ok.Allowed, ok.Warnings)
	}
}
