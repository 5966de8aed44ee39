package lint

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/eval/defaults"
	"github.com/limitcheck/limitcheck/internal/eval/quota"
	"github.com/limitcheck/limitcheck/internal/eval/validation"
)

// policies decodes YAML documents into stored LimitRanges and quotas (API
// defaulting applied, namespace "shop" when none is given).
func policies(t *testing.T, docs string) Input {
	t.Helper()
	var in Input
	for _, doc := range strings.Split(docs, "\n---\n") {
		var meta struct{ Kind string }
		if err := yaml.Unmarshal([]byte(doc), &meta); err != nil {
			t.Fatal(err)
		}
		switch meta.Kind {
		case "LimitRange":
			lr := &corev1.LimitRange{}
			if err := yaml.UnmarshalStrict([]byte(doc), lr); err != nil {
				t.Fatal(err)
			}
			if lr.Namespace == "" {
				lr.Namespace = "shop"
			}
			defaults.DefaultLimitRange(lr)
			if errs := validation.LimitRange(lr); len(errs) > 0 {
				t.Fatalf("kube-apiserver refuses LimitRange %s: %v", lr.Name, errs.ToAggregate())
			}
			in.LimitRanges = append(in.LimitRanges, lr)
		case "ResourceQuota":
			q := &corev1.ResourceQuota{}
			if err := yaml.UnmarshalStrict([]byte(doc), q); err != nil {
				t.Fatal(err)
			}
			if q.Namespace == "" {
				q.Namespace = "shop"
			}
			defaults.DefaultResourceQuota(q)
			if errs := validation.ResourceQuota(q); len(errs) > 0 {
				t.Fatalf("kube-apiserver refuses ResourceQuota %s: %v", q.Name, errs.ToAggregate())
			}
			in.Quotas = append(in.Quotas, q)
		default:
			t.Fatalf("unexpected kind %q", meta.Kind)
		}
	}
	return in
}

// render is one finding on one line, as the tests compare them.
func render(f Finding) string {
	o := f.Object
	return string(f.Severity) + " " + f.Rule + " " + o.Kind + " " + o.Namespace + "/" + o.Name + ": " + f.Message + " (fix: " + f.Fix + ")"
}

func TestRules(t *testing.T) {
	tests := []struct {
		name    string
		docs    string
		classes []string
		config  *quota.Configuration
		want    []string
	}{
		// LINT-01
		{
			name: "ratio broken by the defaults",
			docs: `kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    max: {cpu: "2"}
    defaultRequest: {cpu: 100m}
    maxLimitRequestRatio: {cpu: "4"}`,
			want: []string{`error lint/default-refused LimitRange shop/limits: spec.limits[0] (Container): a container that sets no cpu gets request 100m and limit 2 and is refused: cpu max limit to request ratio per Container is 4, but provided ratio is 20.000000 (fix: give the Container item a defaultRequest.cpu of at least 500m, or raise maxLimitRequestRatio.cpu to 20)`},
		},
		{
			// Verified on kube-apiserver 1.36.3: a Pod without resources is
			// refused with this 422; one that requests memory is created.
			name: "hugepages defaults without cpu or memory make every bare container invalid",
			docs: `kind: LimitRange
metadata: {name: huge}
spec:
  limits:
  - type: Pod
    max: {cpu: "4"}
  - type: Container
    default: {hugepages-2Mi: 100Mi}`,
			want: []string{
				`error lint/default-refused LimitRange shop/huge: spec.limits[1] (Container): a container that sets no resources gets requests hugepages-2Mi=100Mi and limits hugepages-2Mi=100Mi and the Pod is refused: Pod "example" is invalid: spec.containers[0].resources: Forbidden: HugePages require cpu or memory (fix: change the Container item's defaults so that a Pod given them is valid, as the message says)`,
				`error lint/default-refused LimitRange shop/huge: spec.limits[0] (Pod): a Pod of one container that sets no cpu gets no request and no limit and is refused: maximum cpu usage per Pod is 4.  No limit is specified (fix: give the Container item a default.cpu (or a max.cpu, which API defaulting copies into default.cpu))`,
			},
		},
		{
			name: "hugepages defaults with a memory default: valid",
			docs: `kind: LimitRange
metadata: {name: huge}
spec:
  limits:
  - type: Container
    default: {hugepages-2Mi: 100Mi, memory: 128Mi}`,
		},
		{
			// Verified on kube-apiserver 1.36.3, both errors.
			name: "the second LimitRange's hugepages default makes the Pod invalid: the finding is on it",
			docs: `kind: LimitRange
metadata: {name: plain}
spec:
  limits:
  - type: Container
    defaultRequest: {ephemeral-storage: 1Gi}
---
kind: LimitRange
metadata: {name: huge}
spec:
  limits:
  - type: Container
    defaultRequest: {hugepages-1Gi: 1Gi}`,
			want: []string{`error lint/default-refused LimitRange shop/huge: spec.limits[0] (Container): a container that sets no resources gets requests ephemeral-storage=1Gi,hugepages-1Gi=1Gi and no limits and the Pod is refused: Pod "example" is invalid: [spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources, spec.containers[0].resources: Forbidden: HugePages require cpu or memory] (fix: change the Container item's defaults so that a Pod given them is valid, as the message says)`},
		},
		{
			name: "memory ratio: the smallest request is rounded up to a byte",
			docs: `kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    default: {memory: 1Gi}
    defaultRequest: {memory: 100Mi}
    maxLimitRequestRatio: {memory: "3"}`,
			want: []string{`error lint/default-refused LimitRange shop/limits: spec.limits[0] (Container): a container that sets no memory gets request 100Mi and limit 1Gi and is refused: memory max limit to request ratio per Container is 3, but provided ratio is 10.240000 (fix: give the Container item a defaultRequest.memory of at least 357913942, or raise maxLimitRequestRatio.memory to 10.24)`},
		},
		{
			name: "the defaults come from another LimitRange: the fix names it",
			docs: `kind: LimitRange
metadata: {name: defaults}
spec:
  limits:
  - type: Container
    default: {cpu: 700m}
    defaultRequest: {cpu: 250m}
---
kind: LimitRange
metadata: {name: caps}
spec:
  limits:
  - type: Container
    max: {cpu: 100m}
    default: {cpu: 70m}`,
			want: []string{
				`error lint/default-refused LimitRange shop/caps: spec.limits[0] (Container): a container that sets no cpu gets request 250m and limit 700m and is refused: maximum cpu usage per Container is 100m, but limit is 700m (fix: lower default.cpu and defaultRequest.cpu of the Container item of LimitRange shop/defaults to at most 100m, or raise max.cpu here)`,
				`warning lint/overlapping-defaults LimitRange shop/caps: defaults conflict with LimitRange shop/defaults for cpu request (70m here, 250m there), cpu limit (70m here, 700m there): kube-apiserver applies the one it lists first, in no fixed order (fix: give each resource's container defaults in one LimitRange of the namespace)`,
			},
		},
		{
			name: "a Pod item alone: the fix adds a Container item",
			docs: `kind: LimitRange
metadata: {name: pod-max}
spec:
  limits:
  - type: Pod
    max: {cpu: "1"}`,
			want: []string{`error lint/default-refused LimitRange shop/pod-max: spec.limits[0] (Pod): a Pod of one container that sets no cpu gets no request and no limit and is refused: maximum cpu usage per Pod is 1.  No limit is specified (fix: add a Container item with default.cpu (or a max.cpu, which API defaulting copies into default.cpu))`},
		},
		{
			name: "ratio without a default limit",
			docs: `kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    defaultRequest: {memory: 128Mi}
    maxLimitRequestRatio: {memory: "2"}`,
			want: []string{`error lint/default-refused LimitRange shop/limits: spec.limits[0] (Container): a container that sets no memory gets request 128Mi and no limit and is refused: memory max limit to request ratio per Container is 2, but no limit is specified or limit is 0 (fix: give the Container item a default.memory (or a max.memory, which API defaulting copies into default.memory))`},
		},
		{
			name: "Pod max below one container's default",
			docs: `kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    default: {cpu: "2"}
    defaultRequest: {memory: 512Mi}
  - type: Pod
    max: {cpu: "1"}
    min: {memory: 1Gi}`,
			// A Pod min one defaulted container does not meet, two do: a
			// warning (verified on kube-apiserver 1.36.3: a one-container
			// Pod that sets nothing is refused with this message).
			want: []string{
				`warning lint/default-refused LimitRange shop/limits: spec.limits[1] (Pod): a Pod of one container that sets no memory gets request 512Mi and no limit and is refused: minimum memory usage per Pod is 1Gi, but request is 512Mi; only a Pod of 2 or more such containers meets min.memory (fix: give the Container item a defaultRequest.memory of at least 1Gi, or lower min.memory to at most 512Mi)`,
				`error lint/default-refused LimitRange shop/limits: spec.limits[1] (Pod): a Pod of one container that sets no cpu gets request 2 and limit 2 and is refused: maximum cpu usage per Pod is 1, but limit is 2 (fix: lower the Container default.cpu to at most 1, or raise the Pod item's max.cpu)`,
			},
		},
		{
			name: "defaults within their own bounds",
			docs: `kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    max: {cpu: "2", memory: 1Gi}
    min: {cpu: 100m}
    default: {cpu: 500m, memory: 512Mi}
    defaultRequest: {cpu: 250m, memory: 256Mi}
    maxLimitRequestRatio: {cpu: "4"}
  - type: Pod
    max: {cpu: "4"}`,
		},
		// LINT-02
		{
			name: "quota makes requests mandatory, no default",
			docs: `kind: ResourceQuota
metadata: {name: compute}
spec:
  hard: {requests.cpu: "2", limits.memory: 2Gi, pods: "10"}`,
			want: []string{`error lint/quota-must-specify ResourceQuota shop/compute: a Pod whose container sets no limits.memory, requests.cpu is refused unless it sets pod-level resources, and no LimitRange of namespace shop defaults it: pods "example" is forbidden: failed quota: compute: must specify limits.memory for: app; requests.cpu for: app (fix: give a LimitRange of namespace shop a Container item with default.memory, defaultRequest.cpu)`},
		},
		{
			name: "quota naming cpu twice: one default to give",
			docs: `kind: ResourceQuota
metadata: {name: compute}
spec:
  hard: {cpu: "2", requests.cpu: "2"}`,
			want: []string{`error lint/quota-must-specify ResourceQuota shop/compute: a Pod whose container sets no cpu, requests.cpu is refused unless it sets pod-level resources, and no LimitRange of namespace shop defaults it: pods "example" is forbidden: failed quota: compute: must specify cpu for: app; requests.cpu for: app (fix: give a LimitRange of namespace shop a Container item with defaultRequest.cpu)`},
		},
		{
			name: "quota with defaults for what it requires",
			docs: `kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    default: {memory: 512Mi}
    defaultRequest: {cpu: 250m}
---
kind: ResourceQuota
metadata: {name: compute}
spec:
  hard: {requests.cpu: "2", limits.memory: 2Gi, pods: "10"}`,
		},
		{
			name: "priority-class quota probed with its class",
			docs: `kind: ResourceQuota
metadata: {name: critical}
spec:
  hard: {cpu: "1"}
  scopeSelector:
    matchExpressions:
    - {scopeName: PriorityClass, operator: In, values: [high]}`,
			want: []string{`error lint/quota-must-specify ResourceQuota shop/critical: a Pod the quota selects (PriorityClass In [high]) whose container sets no cpu is refused unless it sets pod-level resources, and no LimitRange of namespace shop defaults it: pods "example" is forbidden: failed quota: critical: must specify cpu for: app (fix: give a LimitRange of namespace shop a Container item with defaultRequest.cpu)`},
		},
		// LINT-03
		{
			name: "default above the quota",
			docs: `kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    default: {memory: 4Gi}
---
kind: ResourceQuota
metadata: {name: compute}
spec:
  hard: {limits.memory: 2Gi, pods: "0"}`,
			want: []string{`error lint/default-exceeds-quota ResourceQuota shop/compute: a Pod of one container that sets no resources gets the LimitRange defaults and is refused even in an empty namespace: pods "example" is forbidden: exceeded quota: compute, requested: limits.memory=4Gi, used: limits.memory=0, limited: limits.memory=2Gi (fix: lower the LimitRange's container defaults below the quota's hard, or raise the quota)`},
		},
		// LINT-04, LINT-05
		{
			name: "min and max above the quota",
			docs: `kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    min: {memory: 3Gi}
    max: {memory: 4Gi, cpu: "8"}
    default: {memory: 3Gi, cpu: "1"}
---
kind: ResourceQuota
metadata: {name: compute}
spec:
  hard: {requests.memory: 2Gi, requests.cpu: "4", limits.cpu: "4"}`,
			want: []string{
				`error lint/min-exceeds-quota LimitRange shop/limits: spec.limits[0] (Container): min memory 3Gi is above requests.memory=2Gi of ResourceQuota shop/compute: no Pod the quota covers can pass both (fix: lower min.memory below the quota's hard, or raise the quota)`,
				`warning lint/max-exceeds-quota LimitRange shop/limits: spec.limits[0] (Container): max cpu 8 is above requests.cpu=4, limits.cpu=4 of ResourceQuota shop/compute: the LimitRange admits what the quota never holds (fix: lower max.cpu to the quota's hard, or raise the quota)`,
				`error lint/default-exceeds-quota ResourceQuota shop/compute: a Pod of one container that sets no resources gets the LimitRange defaults and is refused even in an empty namespace: pods "example" is forbidden: exceeded quota: compute, requested: requests.memory=3Gi, used: requests.memory=0, limited: requests.memory=2Gi (fix: lower the LimitRange's container defaults below the quota's hard, or raise the quota)`,
			},
		},
		{
			name: "claim minimum above the quota",
			docs: `kind: LimitRange
metadata: {name: storage}
spec:
  limits:
  - type: PersistentVolumeClaim
    min: {storage: 10Gi}
    max: {storage: 50Gi}
---
kind: ResourceQuota
metadata: {name: storage}
spec:
  hard: {requests.storage: 5Gi, persistentvolumeclaims: "3"}`,
			want: []string{`error lint/min-exceeds-quota LimitRange shop/storage: spec.limits[0] (PersistentVolumeClaim): min storage 10Gi is above requests.storage=5Gi of ResourceQuota shop/storage: no claim the quota covers can pass both (fix: lower min.storage below the quota's hard, or raise the quota)`},
		},
		{
			// Verified on kube-apiserver 1.36.3: a gold claim of 5Gi is refused
			// by LimitRanger, one of 25Gi by the quota.
			name: "claim minimum above one StorageClass's requests.storage, maximum above another's",
			docs: `kind: LimitRange
metadata: {name: storage}
spec:
  limits:
  - type: PersistentVolumeClaim
    min: {storage: 20Gi}
    max: {storage: 100Gi}
---
kind: ResourceQuota
metadata: {name: gold}
spec:
  hard: {gold.storageclass.storage.k8s.io/requests.storage: 10Gi}
---
kind: ResourceQuota
metadata: {name: silver}
spec:
  hard: {silver.storageclass.storage.k8s.io/requests.storage: 50Gi, bronze.storageclass.storage.k8s.io/persistentvolumeclaims: "1"}`,
			want: []string{
				`error lint/min-exceeds-quota LimitRange shop/storage: spec.limits[0] (PersistentVolumeClaim): min storage 20Gi is above gold.storageclass.storage.k8s.io/requests.storage=10Gi of ResourceQuota shop/gold: no claim the quota covers can pass both (fix: lower min.storage below the quota's hard, or raise the quota)`,
				`warning lint/max-exceeds-quota LimitRange shop/storage: spec.limits[0] (PersistentVolumeClaim): max storage 100Gi is above silver.storageclass.storage.k8s.io/requests.storage=50Gi of ResourceQuota shop/silver: the LimitRange admits what the quota never holds (fix: lower max.storage to the quota's hard, or raise the quota)`,
			},
		},
		{
			name: "bounds within the quota",
			docs: `kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    min: {memory: 64Mi}
    max: {memory: 1Gi}
---
kind: ResourceQuota
metadata: {name: compute}
spec:
  hard: {requests.memory: 2Gi, limits.memory: 2Gi}`,
		},
		// LINT-06
		{
			name: "two LimitRanges default cpu differently",
			docs: `kind: LimitRange
metadata: {name: a}
spec:
  limits:
  - type: Container
    default: {cpu: "1"}
---
kind: LimitRange
metadata: {name: b}
spec:
  limits:
  - type: Container
    default: {cpu: 500m, memory: 256Mi}`,
			want: []string{`warning lint/overlapping-defaults LimitRange shop/b: defaults conflict with LimitRange shop/a for cpu request (500m here, 1 there), cpu limit (500m here, 1 there): kube-apiserver applies the one it lists first, in no fixed order (fix: give each resource's container defaults in one LimitRange of the namespace)`},
		},
		{
			name: "two LimitRanges defaulting different resources",
			docs: `kind: LimitRange
metadata: {name: a}
spec:
  limits:
  - type: Container
    default: {cpu: "1"}
---
kind: LimitRange
metadata: {name: b}
spec:
  limits:
  - type: Container
    default: {memory: 256Mi}
  - type: Pod
    max: {cpu: "4"}`,
		},
		// LINT-07
		{
			name: "two quotas on the same name",
			docs: `kind: ResourceQuota
metadata: {name: a}
spec:
  hard: {pods: "10", configmaps: "5"}
---
kind: ResourceQuota
metadata: {name: b}
spec:
  hard: {pods: "20", secrets: "5"}`,
			want: []string{`warning lint/quota-order ResourceQuota shop/b: limits pods as ResourceQuota shop/a does: an object refused by both is told about the one kube-apiserver lists first, in no fixed order (fix: limit each resource in one quota, or give the quotas scopes no Pod matches together)`},
		},
		{
			name: "two quotas with disjoint scopes",
			docs: `kind: ResourceQuota
metadata: {name: long}
spec:
  hard: {pods: "10"}
  scopes: [NotTerminating]
---
kind: ResourceQuota
metadata: {name: short}
spec:
  hard: {pods: "20"}
  scopes: [Terminating]`,
		},
		{
			name: "quotas on different volume attributes classes",
			docs: `kind: ResourceQuota
metadata: {name: pvcs-gold}
spec:
  hard: {requests.storage: 10Gi, persistentvolumeclaims: "10"}
  scopeSelector:
    matchExpressions:
    - {operator: In, scopeName: VolumeAttributesClass, values: [gold]}
---
kind: ResourceQuota
metadata: {name: pvcs-silver}
spec:
  hard: {requests.storage: 20Gi, persistentvolumeclaims: "10"}
  scopeSelector:
    matchExpressions:
    - {operator: In, scopeName: VolumeAttributesClass, values: [silver]}`,
		},
		{
			name: "quotas on a shared volume attributes class",
			docs: `kind: ResourceQuota
metadata: {name: pvcs-gold}
spec:
  hard: {requests.storage: 10Gi, persistentvolumeclaims: "10"}
  scopeSelector:
    matchExpressions:
    - {operator: In, scopeName: VolumeAttributesClass, values: [gold]}
---
kind: ResourceQuota
metadata: {name: pvcs-any}
spec:
  hard: {requests.storage: 20Gi, persistentvolumeclaims: "10"}
  scopeSelector:
    matchExpressions:
    - {operator: In, scopeName: VolumeAttributesClass, values: [gold, silver]}`,
			want: []string{`warning lint/quota-order ResourceQuota shop/pvcs-any: limits persistentvolumeclaims, requests.storage as ResourceQuota shop/pvcs-gold does: an object refused by both is told about the one kube-apiserver lists first, in no fixed order (fix: limit each resource in one quota, or give the quotas scopes no claim matches together)`},
		},
		// LINT-08
		{
			name: "Terminating in scopes, NotTerminating in the selector",
			docs: `kind: ResourceQuota
metadata: {name: odd}
spec:
  hard: {pods: "10"}
  scopes: [Terminating]
  scopeSelector:
    matchExpressions:
    - {scopeName: NotTerminating, operator: Exists}`,
			want: []string{`error lint/scope-unmatchable ResourceQuota shop/odd: scopes Terminating and NotTerminating together: no Pod is both, so the quota limits nothing (fix: drop the contradicting scope, or split the quota in two)`},
		},
		{
			// Verified on kube-apiserver 1.36.3: three Pods without resources
			// created under pods: "2", used stays 0 (QoS Burstable).
			name: "BestEffort scope in a namespace whose LimitRange defaults cpu",
			docs: `kind: LimitRange
metadata: {name: defaults}
spec:
  limits:
  - type: Container
    defaultRequest: {cpu: 100m}
---
kind: ResourceQuota
metadata: {name: free-tier}
spec:
  hard: {pods: "2"}
  scopes: [BestEffort]`,
			want: []string{`error lint/scope-unmatchable ResourceQuota shop/free-tier: scope BestEffort: a container that sets no cpu gets request 100m and no limit from LimitRange shop/defaults, so no Pod is BestEffort and the quota limits nothing (fix: drop the quota, or remove the cpu defaults of the Container items of namespace shop, with the max and min that API defaulting copies into them)`},
		},
		{
			name: "BestEffort selector, a max that API defaulting makes the default limit",
			docs: `kind: LimitRange
metadata: {name: caps}
spec:
  limits:
  - type: Container
    max: {memory: 1Gi, cpu: "2"}
---
kind: ResourceQuota
metadata: {name: free-tier}
spec:
  hard: {pods: "1"}
  scopeSelector:
    matchExpressions:
    - {scopeName: BestEffort, operator: Exists}`,
			want: []string{`error lint/scope-unmatchable ResourceQuota shop/free-tier: scope BestEffort: a container that sets no cpu gets request 2 and limit 2 from LimitRange shop/caps, so no Pod is BestEffort and the quota limits nothing (fix: drop the quota, or remove the cpu and memory defaults of the Container items of namespace shop, with the max and min that API defaulting copies into them)`},
		},
		{
			// QoS looks at cpu and memory only: such Pods stay BestEffort.
			name: "BestEffort scope, defaults of ephemeral-storage only",
			docs: `kind: LimitRange
metadata: {name: defaults}
spec:
  limits:
  - type: Container
    default: {ephemeral-storage: 1Gi}
---
kind: ResourceQuota
metadata: {name: free-tier}
spec:
  hard: {pods: "2"}
  scopes: [BestEffort]`,
		},
		{
			name: "In and NotIn on the same class",
			docs: `kind: ResourceQuota
metadata: {name: odd}
spec:
  hard: {pods: "10"}
  scopeSelector:
    matchExpressions:
    - {scopeName: PriorityClass, operator: In, values: [high]}
    - {scopeName: PriorityClass, operator: NotIn, values: [high, low]}`,
			want: []string{`error lint/scope-unmatchable ResourceQuota shop/odd: scopes PriorityClass In [high] and PriorityClass NotIn [high low]: no priority class satisfies them all, so the quota limits nothing (fix: drop the contradicting scope, or split the quota in two)`},
		},
		{
			// A claim being modified from gold to silver matches both.
			name: "two volume attributes classes at once",
			docs: `kind: ResourceQuota
metadata: {name: odd}
spec:
  hard: {persistentvolumeclaims: "10"}
  scopeSelector:
    matchExpressions:
    - {scopeName: VolumeAttributesClass, operator: In, values: [gold]}
    - {scopeName: VolumeAttributesClass, operator: In, values: [silver]}`,
		},
		{
			name: "In and NotIn leaving a class",
			docs: `kind: ResourceQuota
metadata: {name: fine}
spec:
  hard: {pods: "10"}
  scopes: [NotBestEffort]
  scopeSelector:
    matchExpressions:
    - {scopeName: PriorityClass, operator: In, values: [high, low]}
    - {scopeName: PriorityClass, operator: NotIn, values: [low]}`,
		},
		// LINT-09
		{
			name:   "limitedResources no quota covers",
			config: &quota.Configuration{LimitedResources: []quota.LimitedResource{{Resource: "pods", MatchContains: []string{"cpu"}, MatchScopes: []corev1.ScopedResourceSelectorRequirement{{ScopeName: corev1.ResourceQuotaScopePriorityClass, Operator: corev1.ScopeSelectorOpIn, Values: []string{"system-node-critical"}}}}}},
			docs: `kind: ResourceQuota
metadata: {name: count}
spec:
  hard: {pods: "10"}`,
			want: []string{
				`warning lint/limited-resource-uncovered ResourceQuotaConfiguration /: limitedResources[0]: pods whose usage names contain "cpu" are refused with "insufficient quota to consume" wherever no quota covers them, and no ResourceQuota in the input limits such a name (fix: add a ResourceQuota limiting such a name (e.g. requests.cpu) to each namespace, or drop the entry)`,
				`warning lint/limited-resource-uncovered ResourceQuotaConfiguration /: limitedResources[0]: pods matching {PriorityClass In [system-node-critical]} are refused with "insufficient quota to match these scopes" wherever no quota covers them, and no ResourceQuota in the input has a PriorityClass scope (fix: add a ResourceQuota with a PriorityClass scope selector to each namespace, or drop the entry)`,
			},
		},
		{
			name:   "limitedResources covered",
			config: &quota.Configuration{LimitedResources: []quota.LimitedResource{{Resource: "pods", MatchContains: []string{"cpu"}, MatchScopes: []corev1.ScopedResourceSelectorRequirement{{ScopeName: corev1.ResourceQuotaScopePriorityClass, Operator: corev1.ScopeSelectorOpIn, Values: []string{"system-node-critical"}}}}}},
			docs: `kind: ResourceQuota
metadata: {name: critical}
spec:
  hard: {pods: "10", requests.cpu: "4"}
  scopeSelector:
    matchExpressions:
    - {scopeName: PriorityClass, operator: In, values: [system-node-critical]}
---
kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    defaultRequest: {cpu: 100m}`,
		},
		// LINT-10
		{
			name:    "selector names a class not in the input",
			classes: []string{"high"},
			docs: `kind: ResourceQuota
metadata: {name: classes}
spec:
  hard: {pods: "10"}
  scopeSelector:
    matchExpressions:
    - {scopeName: PriorityClass, operator: In, values: [hihg, system-node-critical]}`,
			want: []string{`warning lint/unknown-priority-class ResourceQuota shop/classes: scopeSelector PriorityClass In names PriorityClass "hihg", which the input does not define: the Priority plugin refuses Pods naming it, so the value matches no Pod (fix: correct the name, or add PriorityClass "hihg" to the input)`},
		},
		{
			name: "selector names a class when the input has none",
			docs: `kind: ResourceQuota
metadata: {name: classes}
spec:
  hard: {pods: "10"}
  scopeSelector:
    matchExpressions:
    - {scopeName: PriorityClass, operator: In, values: [hihg]}`,
		},
		// LINT-13
		{
			name: "a claim item's defaults and ratio are never applied",
			docs: `kind: LimitRange
metadata: {name: storage}
spec:
  limits:
  - type: Container
    default: {cpu: 500m}
  - type: PersistentVolumeClaim
    min: {storage: 1Gi}
    max: {storage: 10Gi}
    default: {storage: 5Gi}
    defaultRequest: {storage: 5Gi}
    maxLimitRequestRatio: {storage: "1"}`,
			want: []string{`warning lint/ineffective-field LimitRange shop/storage: spec.limits[1] (PersistentVolumeClaim): default.storage, defaultRequest.storage, maxLimitRequestRatio.storage have no effect: LimitRanger never fills in a claim's size and checks a claim against min and max only (fix: remove them; each claim must set spec.resources.requests.storage itself, which validation requires)`},
		},
		{
			name: "a claim item with one default",
			docs: `kind: LimitRange
metadata: {name: storage}
spec:
  limits:
  - type: PersistentVolumeClaim
    max: {storage: 10Gi}
    default: {storage: 5Gi}`,
			want: []string{`warning lint/ineffective-field LimitRange shop/storage: spec.limits[0] (PersistentVolumeClaim): default.storage has no effect: LimitRanger never fills in a claim's size and checks a claim against min and max only (fix: remove them; each claim must set spec.resources.requests.storage itself, which validation requires)`},
		},
		{
			name: "a claim item with bounds only",
			docs: `kind: LimitRange
metadata: {name: storage}
spec:
  limits:
  - type: PersistentVolumeClaim
    min: {storage: 1Gi}
    max: {storage: 10Gi}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := policies(t, tt.docs)
			in.PriorityClasses, in.Config = tt.classes, tt.config
			var got []string
			for _, f := range Run(in) {
				got = append(got, render(f))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// LINT-12: names kube-apiserver admits in a quota that nothing is charged
// against, with the name meant; names that count, and count/ names of
// groups nothing is known about, are left alone.
func TestQuotaCountsNothing(t *testing.T) {
	cat := apis.New()
	if err := cat.AddCRD([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true}]`)); err != nil {
		t.Fatal(err)
	}
	if err := cat.AddCRD([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gizmos.example.com}
spec:
  group: example.com
  names: {kind: Gizmo, plural: gizmos}
  scope: Cluster
  versions: [{name: v1, served: true, storage: true}]`)); err != nil {
		t.Fatal(err)
	}
	in := policies(t, `kind: ResourceQuota
metadata: {name: counts}
spec:
  hard:
    count/namespaces: "5"
    count/namespace: "5"
    count/apiservices.apiregistration.k8s.io: "1"
    count/gizmos.example.com: "1"
    count/deployments: "5"
    count/deployment.apps: "5"
    count/jobs: "5"
    count/Ingresses.networking.k8s.io: "2"
    count/widget.example.com: "1"
    count/frobs: "1"
    count/services.loadbalancers: "1"
    count/secrets.v1: "1"
    nvidia.com/gpu: "4"
    limits.nvidia.com/gpu: "4"
    gold.storageclass.storage.k8s.io/requests.storag: 10Gi
    count/deployments.apps: "5"
    count/pods: "10"
    count/widgets.example.com: "1"
    count/gateways.gateway.networking.k8s.io: "1"
    requests.nvidia.com/gpu: "4"
    services.loadbalancers: "1"
    gold.storageclass.storage.k8s.io/requests.storage: 10Gi
    gpu.deviceclass.resource.k8s.io/devices: "2"
    configmaps: "10"
    hugepages-2Mi: 4Mi`)
	in.APIs = cat
	var got []string
	for _, f := range Run(in) {
		got = append(got, render(f))
	}
	want := []string{
		`error lint/quota-counts-nothing ResourceQuota shop/counts: count/Ingresses.networking.k8s.io counts nothing: no kind is served as "Ingresses" in group networking.k8s.io (fix: write count/ingresses.networking.k8s.io)`,
		`error lint/quota-counts-nothing ResourceQuota shop/counts: count/apiservices.apiregistration.k8s.io counts nothing: apiservices.apiregistration.k8s.io is cluster-scoped, and a quota counts only the objects of its own namespace (fix: remove it: no quota limits cluster-scoped objects)`,
		`error lint/quota-counts-nothing ResourceQuota shop/counts: count/deployment.apps counts nothing: no kind is served as "deployment" in group apps (fix: write count/deployments.apps)`,
		`error lint/quota-counts-nothing ResourceQuota shop/counts: count/deployments counts nothing: no kind is served as "deployments" in the core group (fix: write count/deployments.apps)`,
		`error lint/quota-counts-nothing ResourceQuota shop/counts: count/frobs counts nothing: no kind is served as "frobs" in the core group (fix: name a served resource, count/<plural>.<group> as kubectl api-resources lists it)`,
		`error lint/quota-counts-nothing ResourceQuota shop/counts: count/gizmos.example.com counts nothing: gizmos.example.com is cluster-scoped, and a quota counts only the objects of its own namespace (fix: remove it: no quota limits cluster-scoped objects)`,
		`error lint/quota-counts-nothing ResourceQuota shop/counts: count/jobs counts nothing: no kind is served as "jobs" in the core group (fix: write count/jobs.batch)`,
		`error lint/quota-counts-nothing ResourceQuota shop/counts: count/namespace counts nothing: no kind is served as "namespace" in the core group (fix: name a served resource, count/<plural>.<group> as kubectl api-resources lists it)`,
		`error lint/quota-counts-nothing ResourceQuota shop/counts: count/namespaces counts nothing: namespaces is cluster-scoped, and a quota counts only the objects of its own namespace (fix: remove it: no quota limits cluster-scoped objects)`,
		`error lint/quota-counts-nothing ResourceQuota shop/counts: count/secrets.v1 counts nothing: no kind is served as "secrets" in group v1 (fix: write count/secrets)`,
		`error lint/quota-counts-nothing ResourceQuota shop/counts: count/services.loadbalancers counts nothing: no kind is served as "services" in group loadbalancers (fix: write services.loadbalancers)`,
		`error lint/quota-counts-nothing ResourceQuota shop/counts: count/widget.example.com counts nothing: no kind is served as "widget" in group example.com (fix: write count/widgets.example.com)`,
		`error lint/quota-counts-nothing ResourceQuota shop/counts: gold.storageclass.storage.k8s.io/requests.storag counts nothing: no quota evaluator of kube-apiserver 1.36 tracks it (fix: remove it, or name a resource quota tracks)`,
		`error lint/quota-counts-nothing ResourceQuota shop/counts: limits.nvidia.com/gpu counts nothing: quota limits an extended resource only by its requests (a container's request and limit of one are equal) (fix: write requests.nvidia.com/gpu)`,
		`error lint/quota-counts-nothing ResourceQuota shop/counts: nvidia.com/gpu counts nothing: quota limits an extended resource only as requests.<name> (fix: write requests.nvidia.com/gpu)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// LINT-09: the fix's example is a name a quota may limit.
func TestQuotaNameExample(t *testing.T) {
	for term, want := range map[string]string{
		"cpu":                    " (e.g. requests.cpu)",
		"requests.cpu":           " (e.g. requests.cpu)",
		"limits.memory":          " (e.g. limits.memory)",
		"requests.storage":       " (e.g. requests.storage)",
		"persistentvolumeclaims": " (e.g. persistentvolumeclaims)",
		"example.com/gpu":        " (e.g. requests.example.com/gpu)",
		"Bad Name":               "",
	} {
		if got := quotaNameExample(term); got != want {
			t.Errorf("%q: %q, want %q", term, got, want)
		}
	}
}
