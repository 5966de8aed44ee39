// Package eval simulates what kube-apiserver runs on a create request for the
// objects limitcheck reads (docs/behaviour.md, Pipeline): API defaulting,
// object validation, the admission plugins, storage's name check, and what
// the controllers create for a workload. It knows nothing of files, flags or
// terminals: callers hand it decoded objects in input order and get one Result
// per object.
//
// The Engine (engine.go) composes the stages, each in its own package:
//
//	defaults     API defaulting and the REST strategies' PrepareForCreate
//	validation   object validation on create (the 422s)
//	limitranger  the LimitRanger plugin
//	classes      the Priority, DefaultStorageClass and RuntimeClass plugins
//	quota        the ResourceQuota plugin and the quota controller's count
//	status       the Denial every stage returns
//	apis, features, resources  what is served, the feature gates, resource names
//
// What stays here reads and writes the engine's per-namespace state: the
// controllers that create a workload's objects through the engine
// (controllers.go), the Service allocation that precedes its validation
// (service.go), the objects every namespace holds, and the 409 of a name taken.
package eval

import (
	"fmt"
	"net/netip"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/limitcheck/limitcheck/internal/eval/classes"
	crdschema "github.com/limitcheck/limitcheck/internal/eval/crd"
	"github.com/limitcheck/limitcheck/internal/eval/defaults"
	"github.com/limitcheck/limitcheck/internal/eval/limitranger"
	"github.com/limitcheck/limitcheck/internal/eval/podsecurity"
	"github.com/limitcheck/limitcheck/internal/eval/quota"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/namecheck"

	"github.com/limitcheck/limitcheck/internal/eval/validation"

	"github.com/limitcheck/limitcheck/internal/eval/features"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	networkingv1 "k8s.io/api/networking/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	resourcev1 "k8s.io/api/resource/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	apiregistrationv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/rules"
)

// Placeholders for names the apiserver would generate at random (PL-04). They are
// valid names, so validation treats them as it would the real ones.
const (
	// GeneratedNameSuffix stands for the 5 random characters appended to metadata.generateName.
	GeneratedNameSuffix = "xxxxx"
	// UnnamedLimitRange stands for the UUID an unnamed LimitRange is given.
	UnnamedLimitRange = "00000000-0000-0000-0000-000000000000"
)

// Options configure an Engine.
type Options struct {
	// Rules evaluates the x-kubernetes-validations (CEL) rules of custom
	// resources (VAL-78); without it they are not evaluated and a warning
	// says so on each custom resource they would have run on.
	Rules RuleEvaluator
	// DefaultNamespace is given to namespaced objects without metadata.namespace
	// (kubectl's -n; "default" when empty).
	DefaultNamespace string
	// Gates are the feature gates to evaluate with; zero value = Kubernetes 1.36 defaults.
	Gates features.Gates
	// DisableLimitRanger and DisableResourceQuota switch the admission plugins off
	// (kube-apiserver's --disable-admission-plugins); both are on by default.
	DisableLimitRanger   bool
	DisableResourceQuota bool
	// UnenforcedQuota keeps the ResourceQuota plugin charging every object
	// but refusing none for exceeding a hard limit (quota.Checker.Unenforced):
	// the usage `fit --quota` suggests hard values from (FIT-02).
	UnenforcedQuota bool
	// DisablePriority, DisableDefaultStorageClass and DisableRuntimeClass switch
	// off the plugins whose mutations feed quota (RQ-34); on by default.
	DisablePriority            bool
	DisableDefaultStorageClass bool
	DisableRuntimeClass        bool
	// DisablePodSecurity switches off the PodSecurity plugin (PS-01); on by
	// default. PodSecurity is its configuration (PS-04); nil: the default,
	// privileged unless a namespace's labels say otherwise, no exemptions.
	DisablePodSecurity bool
	PodSecurity        *podsecurity.Config
	// Autoscaled are the workloads the input's HPAs target: only theirs is
	// a created Pod kept, to tell an HPA that comes later whether its
	// controller can compute a utilization (FIT-06). Nil: every workload's.
	Autoscaled map[ScaleTarget]bool
	// DisableCertificateSubjectRestriction switches off the
	// CertificateSubjectRestriction plugin (VAL-110); on by default.
	DisableCertificateSubjectRestriction bool
	// CreatedNamespaces are namespaces the input creates with a Namespace
	// document and that do not exist before it: until that document is
	// admitted, NamespaceLifecycle refuses every object in them (NS-04). Nil
	// when every namespace is taken to exist (policies first: the
	// Namespaces come first anyway).
	CreatedNamespaces []string
	// CreatedAccounts are the ServiceAccounts the input creates, wherever
	// they are in it: a Pod naming one is not noted as taking it on trust
	// (Result.Assumed). With AccountsInOrder, one is created only where its
	// document is: a Pod of the input before it is refused by the
	// ServiceAccount plugin's lookup, as kubectl create -f sends the Pod
	// first (PL-11); policies first, as Helm and Argo CD apply, it exists.
	CreatedAccounts []Reference
	AccountsInOrder bool
	// AccountPullSecrets are the imagePullSecrets of those of
	// CreatedAccounts that list some (the first document of each): the
	// ServiceAccount plugin gives them to a Pod that names the account and
	// lists none, and the Pod's create warnings then see them (PL-11).
	AccountPullSecrets map[Reference][]corev1.LocalObjectReference
	// QuotaConfig is the ResourceQuota plugin's configuration (limitedResources).
	QuotaConfig *quota.Configuration
	// QuotaUsage says where a quota's status.used starts (default computed).
	QuotaUsage quota.Usage
	// DisableControllers admits every object as it is and nothing more, as
	// kube-apiserver does without a controller manager; by default an admitted
	// workload is followed by what its controllers create (controllers.go).
	DisableControllers bool
	// Replicas, when set, replaces spec.replicas of every Deployment, ReplicaSet,
	// ReplicationController and StatefulSet ("what if it scales to N").
	Replicas *int32
	// Scale, when set, replaces spec.replicas of the Deployments,
	// ReplicaSets, ReplicationControllers and StatefulSets it names with the
	// count it gives (--scale=max|min: an HPA's maxReplicas or minReplicas,
	// FIT-04); Replicas takes precedence.
	Scale map[ScaleTarget]int32
	// Parallelism, when set, replaces the defaulted spec.parallelism of every
	// Job and of the Job a CronJob creates; the Job still starts no more Pods
	// than its completions.
	Parallelism *int32
	// Nodes is the number of nodes a DaemonSet runs a Pod on (default 1).
	Nodes int
	// ServiceCIDRs are the cluster's service IP ranges, kube-apiserver's
	// --service-cluster-ip-range: one, or two of different families for a
	// dual-stack cluster, the primary first (default DefaultServiceCIDRs;
	// VAL-64). ParseServiceCIDRs reads the flag's form.
	ServiceCIDRs []netip.Prefix
	// EveryReplica creates every replica of a workload for real instead of
	// computing runs of identical ones (WL-03): slow, the same results; the
	// tests that prove the arithmetic compare against it.
	EveryReplica bool
	// DisallowPrivileged is kube-apiserver's --allow-privileged=false: a
	// privileged container is refused (VAL-18). Clusters allow them.
	DisallowPrivileged bool
	// OmitNamespaceObjects leaves out the objects every namespace of a cluster
	// holds before anything is created in it (NS-01: the ConfigMap
	// kube-root-ca.crt, the ServiceAccount default; in namespace default the
	// Service, Endpoints and EndpointSlice kubernetes). By default they exist:
	// quotas count them and their names are taken.
	OmitNamespaceObjects bool
	// APIs says which kinds are served, their scope and resource (plural);
	// nil means the built-in kinds only (custom resources namespaced, plural
	// guessed). Give one that read the input's CRDs (apis.Catalog.AddCRD).
	APIs *apis.Catalog
}

// UnnamedPrefix is, for an object refused before its name was generated (a
// mutating plugin's refusal, PL-04), the generateName it had, which the
// message names it by; "" for any other.
func (r *Result) UnnamedPrefix() string {
	if r.Name != "" {
		return ""
	}
	if m, ok := r.Object.(metav1.Object); ok {
		return m.GetGenerateName()
	}
	return ""
}

// Result is the outcome of one object.
type Result struct {
	APIVersion string
	Kind       string
	Namespace  string // "" for cluster-scoped objects
	Name       string // the name the object is stored under (generated names use placeholders)

	Allowed    bool
	Skipped    bool
	SkipReason string
	// Denial is set when the object was refused.
	Denial *status.Denial
	// Warnings point at input that is admitted but probably not what the user
	// meant (kube-apiserver says nothing in these cases).
	Warnings []string
	// APIWarnings are kube-apiserver's warnings on the create (VAL-104),
	// which kubectl prints as "Warning: …": for an object of the input.
	APIWarnings []string

	// Object is the object after API defaulting and admission mutation, for the
	// kinds limitcheck decodes (see NewObject); nil otherwise.
	Object runtime.Object
	// raced is, for an object a quota refused, the warning noteRace gave it
	// (WL-03, WL-13), which its workload repeats.
	raced string

	// Workload is set for an admitted workload whose controllers were simulated.
	// Allowed is then false when anything the controllers created was refused.
	Workload *Workload
	// Replica is, for a controller-created object, the 1-based ordinal of the Pod
	// it was created for (0 for a ReplicaSet or Job).
	Replica int
	// Repeat counts, for a controller-created object, the replicas after its
	// own whose object came out exactly like it but for the name (the
	// ordinals that follow): a workload's created list folds long runs of
	// identical replicas into one entry (WL-03). 0 for every other object.
	Repeat int
	// Pod is, for a controller-created object, the name of the Pod it was
	// created for: a Pod's own name, the Pod a StatefulSet claim is for; "" for
	// a ReplicaSet or Job.
	Pod string

	// Internal is set when limitcheck itself failed on this object (a bug): the
	// verdict is unknown. The engine stays usable for the objects after it.
	Internal string
	// Assumed are, for an admitted Pod, what it names that the run takes to
	// exist without knowing it (PL-11, RQ-34): a ServiceAccount the input
	// does not create, a PriorityClass or RuntimeClass when the input has
	// none of that kind. A cluster without one refuses the Pod.
	Assumed []Reference
}

// Reference names an object: a ServiceAccount (namespaced), a PriorityClass
// or a RuntimeClass.
type Reference struct {
	Kind, Namespace, Name string
}

// Engine evaluates objects one after another; state (the active LimitRanges of each
// namespace) accumulates across calls, as in a cluster receiving `kubectl create -f`.
type Engine struct {
	opts Options
	// creator names the workload whose controllers are creating objects
	// ("Deployment shop/web"; quota.Namespace.Creator), "" between them;
	// cron says it is a CronJob, whose Job a cluster creates at its
	// schedule, after the rest of the input (WL-13): its refusals are no
	// race (WL-03).
	creator string
	cron    bool
	// autoscaling pairs HPAs with the workloads they scale (FIT-06).
	autoscaling map[ScaleTarget]*autoscaled
	classes     classes.Cluster
	quota       quota.Checker
	namespaces  map[string]*namespaceState
	order       []string // namespaces in order of first appearance
	// refusedNamespaces are the input's Namespaces kube-apiserver refuses
	// (NS-03): the objects in them are refused as in no namespace. pending
	// are the CreatedNamespaces whose Namespace is not created yet (NS-04).
	refusedNamespaces, pending map[string]bool
	// newNamespaces are the namespaces whose Namespace document of the input
	// was created: they hold no ServiceAccount but default and the input's
	// (PL-11).
	newNamespaces map[string]bool
	// nsLabels are the labels of the input's admitted Namespaces: the
	// admin-access check of claims reads them (VAL-32).
	nsLabels map[string]map[string]string
	// podSecurity are the policies of the input's admitted Namespaces whose
	// labels ask for more than privileged (PS-01); any other namespace is
	// privileged, the plugin's default.
	podSecurity map[string]podsecurity.Policy
	services    serviceAllocations
	// count, when set, replaces the replicas, nodes or parallelism of every
	// workload: what Fit probes a copy of the engine with (FIT-01).
	count *int32
	// live is set while AdmitLive admits a live cluster's policy (CL-01).
	live bool
	// uncompiled is why the CEL expressions of the object being admitted
	// were not compiled, if they were not (VAL-35, VAL-83).
	uncompiled string
	// seeds are the live usages of quotas the input replaces (SeedQuotaUsage).
	seeds map[string]corev1.ResourceList
	// resourceIDs number the resources of storedNames.
	resourceIDs map[schema.GroupResource]uint32
	// clusterStored are the names of the cluster-scoped objects that exist
	// (ST-01): the cluster's own (initialClusterObjects) once seeded, and
	// the input's.
	clusterStored       storedNames
	clusterStoredSeeded bool
	// outlook is what the caller promised of the objects still to come (Expect).
	outlook *Outlook
	// settled is the policies Prepare reads, once Expect settled them.
	settled *settled
	// prep is the preparation of the object AdmitPrepared admits.
	prep *Prepared
	// inputAccounts are Options.CreatedAccounts.
	inputAccounts map[Reference]bool
}

// Outlook is what a caller knows of the objects it has still to admit. With
// it the engine keeps only the state those objects can need, so that its
// memory no longer grows with every object admitted.
type Outlook struct {
	// NoQuotas promises that no ResourceQuota follows: the admitted objects
	// are charged to the quotas as always but no longer kept for the quota
	// controller's recount, which only a new quota runs (RQ-08). A quota
	// admitted anyway is an internal error, never a silent miscount.
	NoQuotas bool
	// Adopters are the namespaces where a ReplicaSet, ReplicationController,
	// Deployment or StatefulSet may still be admitted; elsewhere the input's orphan Pods
	// are not kept for adoption (WL-02). Nil means any namespace.
	Adopters map[string]bool
	// Settled promises that no LimitRange and no cluster class follows
	// either: what mutates and validates a Pod is settled, so Pods can be
	// prepared on other goroutines (Prepare). A LimitRange admitted anyway
	// is an internal error.
	Settled bool
}

// Expect records what the caller knows of the objects still to come (see
// Outlook) and lets go of the state they cannot need.
func (e *Engine) Expect(o Outlook) {
	e.outlook = &o
	if o.Settled {
		e.settle()
	}
	for name, ns := range e.namespaces {
		if o.NoQuotas {
			ns.NoRecount = true
			ns.Objects = nil
		}
		if o.Adopters != nil && !o.Adopters[name] {
			ns.orphans, ns.deployments, ns.claimers = nil, nil, nil
		}
	}
}

type namespaceState struct {
	name            string
	stored          storedNames                                  // names of the input's objects, for kube-apiserver's 409
	orphans         []*corev1.Pod                                // the input's admitted Pods no controller owns, for adoption (WL-02)
	deployments     []adopter                                    // the input's admitted, unpaused Deployments, for ReplicaSet adoption (WL-05)
	claimers        []claimer                                    // the input's admitted ReplicaSets and ReplicationControllers, which claim the orphan Pods after them (WL-02)
	limitRanges     []*limitranger.Policy                        // admitted LimitRanges, in input order (LR-21, LR-22)
	governed        int                                          // Pods and PVCs evaluated so far: a later LimitRange misses them
	claimTemplates  map[string]*resourcev1.ResourceClaimTemplate // the input's admitted templates, for the claims of Pods (WL-06)
	refusedAccounts map[string]bool                              // the input's ServiceAccounts kube-apiserver refused, which Pods cannot use (PL-11)
	enforcing       map[string]*corev1.ServiceAccount            // the input's admitted ServiceAccounts that limit their Pods' secrets (PL-11)
	quota.Namespace                                              // admitted quotas and every admitted object, for the quota controller's recount
}

// New returns an Engine with no objects admitted yet.
func New(opts Options) *Engine {
	if opts.DefaultNamespace == "" {
		opts.DefaultNamespace = metav1.NamespaceDefault
	}
	if opts.QuotaUsage == "" {
		opts.QuotaUsage = quota.UsageComputed
	}
	e := &Engine{opts: opts, namespaces: map[string]*namespaceState{},
		quota: quota.Checker{Gates: opts.Gates, Config: opts.QuotaConfig, Disabled: opts.DisableResourceQuota, Usage: opts.QuotaUsage, Unenforced: opts.UnenforcedQuota,
			Counted: opts.APIs.Counted}}
	for _, r := range opts.CreatedAccounts {
		if e.inputAccounts == nil {
			e.inputAccounts = map[Reference]bool{}
		}
		e.inputAccounts[r] = true
	}
	for _, ns := range opts.CreatedNamespaces {
		if !IsInitialNamespace(ns) {
			if e.pending == nil {
				e.pending = map[string]bool{}
			}
			e.pending[ns] = true
		}
	}
	return e
}

// podOptions are the options of Pod and Pod template validation.
func (e *Engine) podOptions() validation.PodOptions {
	return validation.PodOptions{Gates: e.opts.Gates, DisallowPrivileged: e.opts.DisallowPrivileged}
}

// namespaceNotCreated records that the input's Namespace name was refused
// (NS-03): unless every cluster has it, the namespace does not exist, and
// every object in it is refused as in a namespace that does not (not as
// one still to come, NS-04).
func (e *Engine) namespaceNotCreated(name string) {
	delete(e.pending, name)
	if IsInitialNamespace(name) || e.live {
		return
	}
	if e.refusedNamespaces == nil {
		e.refusedNamespaces = map[string]bool{}
	}
	e.refusedNamespaces[name] = true
}

// NotYetCreated reports whether ns is one of Options.CreatedNamespaces whose
// Namespace has not been created yet (NS-04).
func (e *Engine) NotYetCreated(ns string) bool { return e.pending[ns] }

// AccountNotYetCreated reports whether the ServiceAccount ns/name is one of
// Options.CreatedAccounts, taken in order, that is not created yet (PL-11):
// not one whose document came and was refused, which does not exist either
// but is not to come.
func (e *Engine) AccountNotYetCreated(ns, name string) bool {
	if !e.opts.AccountsInOrder || !e.inputAccounts[Reference{Kind: "ServiceAccount", Namespace: ns, Name: name}] {
		return false
	}
	st := e.namespaces[ns]
	return st == nil || !st.stored.has(e.resourceID(serviceAccountsResource), name) && !st.refusedAccounts[name]
}

// DefaultNamespace is the namespace of objects that name none.
func (e *Engine) DefaultNamespace() string { return e.opts.DefaultNamespace }

// LimitRanges returns every admitted LimitRange as stored (after API
// defaulting): namespaces in order of first appearance, LimitRanges in input order.
func (e *Engine) LimitRanges() []*corev1.LimitRange {
	var out []*corev1.LimitRange
	for _, name := range e.order {
		for _, p := range e.namespaces[name].limitRanges {
			out = append(out, p.LimitRange)
		}
	}
	return out
}

// Quotas returns every admitted quota in its current state: namespaces in order of
// first appearance, quotas in input order.
func (e *Engine) Quotas() []quota.State {
	var out []quota.State
	for _, name := range e.order {
		for _, q := range e.namespaces[name].Quotas {
			out = append(out, quota.State{Quota: q})
		}
	}
	return out
}

// NewObject returns an empty typed object for the kinds the engine evaluates, so a
// loader can decode them strictly; nil for every other kind.
func NewObject(apiVersion, kind string) runtime.Object {
	if apiVersion == "resource.k8s.io/v1" || apiVersion == "resource.k8s.io/v1beta2" {
		switch kind { // v1beta2 has the same shape as v1
		case "ResourceClaim":
			return &resourcev1.ResourceClaim{}
		case "ResourceClaimTemplate": // VAL-33
			return &resourcev1.ResourceClaimTemplate{}
		case "DeviceClass": // VAL-34
			return &resourcev1.DeviceClass{}
		}
	}
	switch apiVersion + "/" + kind {
	case "scheduling.k8s.io/v1/PriorityClass":
		return &schedulingv1.PriorityClass{}
	case "storage.k8s.io/v1/StorageClass":
		return &storagev1.StorageClass{}
	case "node.k8s.io/v1/RuntimeClass":
		return &nodev1.RuntimeClass{}
	case "autoscaling/v2/HorizontalPodAutoscaler": // VAL-50
		return &autoscalingv2.HorizontalPodAutoscaler{}
	case "autoscaling/v1/HorizontalPodAutoscaler":
		return &autoscalingv1.HorizontalPodAutoscaler{}
	case "policy/v1/PodDisruptionBudget": // VAL-69 (policy/v1beta1 is not served)
		return &policyv1.PodDisruptionBudget{}
	case "rbac.authorization.k8s.io/v1/Role": // VAL-70
		return &rbacv1.Role{}
	case "rbac.authorization.k8s.io/v1/RoleBinding": // VAL-71
		return &rbacv1.RoleBinding{}
	case "networking.k8s.io/v1/Ingress": // VAL-65, VAL-66
		return &networkingv1.Ingress{}
	case "networking.k8s.io/v1/NetworkPolicy": // VAL-67, VAL-68
		return &networkingv1.NetworkPolicy{}
	case "discovery.k8s.io/v1/EndpointSlice": // VAL-86
		return &discoveryv1.EndpointSlice{}
	case "v1/Namespace": // NS-03
		return &corev1.Namespace{}
	case "v1/PersistentVolume": // VAL-91
		return &corev1.PersistentVolume{}
	case "apiregistration.k8s.io/v1/APIService": // VAL-92
		return &apiregistrationv1.APIService{}
	case "apiextensions.k8s.io/v1/CustomResourceDefinition": // VAL-93..VAL-99
		return &apiextensionsv1.CustomResourceDefinition{}
	case "rbac.authorization.k8s.io/v1/ClusterRole": // VAL-75
		return &rbacv1.ClusterRole{}
	case "rbac.authorization.k8s.io/v1/ClusterRoleBinding": // VAL-75
		return &rbacv1.ClusterRoleBinding{}
	case "admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration": // VAL-79..VAL-83
		return &admissionregistrationv1.ValidatingWebhookConfiguration{}
	case "admissionregistration.k8s.io/v1/MutatingWebhookConfiguration":
		return &admissionregistrationv1.MutatingWebhookConfiguration{}
	case "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy": // VAL-106
		return &admissionregistrationv1.ValidatingAdmissionPolicy{}
	case "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding": // VAL-107
		return &admissionregistrationv1.ValidatingAdmissionPolicyBinding{}
	case "admissionregistration.k8s.io/v1/MutatingAdmissionPolicy": // VAL-108
		return &admissionregistrationv1.MutatingAdmissionPolicy{}
	case "admissionregistration.k8s.io/v1/MutatingAdmissionPolicyBinding": // VAL-109
		return &admissionregistrationv1.MutatingAdmissionPolicyBinding{}
	case "networking.k8s.io/v1/IngressClass": // VAL-84
		return &networkingv1.IngressClass{}
	case "certificates.k8s.io/v1/CertificateSigningRequest": // VAL-110
		return &certificatesv1.CertificateSigningRequest{}
	case "coordination.k8s.io/v1/Lease": // VAL-111
		return &coordinationv1.Lease{}
	case "apps/v1/ControllerRevision": // VAL-111
		return &appsv1.ControllerRevision{}
	case "events.k8s.io/v1/Event": // VAL-06
		return &eventsv1.Event{}
	case "storage.k8s.io/v1/CSIDriver": // VAL-87
		return &storagev1.CSIDriver{}
	case "storage.k8s.io/v1/VolumeAttributesClass": // VAL-88
		return &storagev1.VolumeAttributesClass{}
	case "storage.k8s.io/v1/CSINode": // VAL-89
		return &storagev1.CSINode{}
	case "storage.k8s.io/v1/CSIStorageCapacity": // VAL-90
		return &storagev1.CSIStorageCapacity{}
	case "storage.k8s.io/v1/VolumeAttachment": // VAL-100
		return &storagev1.VolumeAttachment{}
	case "flowcontrol.apiserver.k8s.io/v1/FlowSchema": // VAL-101
		return &flowcontrolv1.FlowSchema{}
	case "flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration": // VAL-102
		return &flowcontrolv1.PriorityLevelConfiguration{}
	}
	switch apiVersion {
	case "apps/v1":
		switch kind {
		case "Deployment":
			return &appsv1.Deployment{}
		case "ReplicaSet":
			return &appsv1.ReplicaSet{}
		case "StatefulSet":
			return &appsv1.StatefulSet{}
		case "DaemonSet":
			return &appsv1.DaemonSet{}
		}
		return nil
	case "batch/v1":
		switch kind {
		case "Job":
			return &batchv1.Job{}
		case "CronJob":
			return &batchv1.CronJob{}
		}
		return nil
	case "v1":
	default:
		return nil
	}
	switch kind {
	case "ReplicationController":
		return &corev1.ReplicationController{}
	case "PodTemplate": // VAL-105: decoded to be validated
		return &corev1.PodTemplate{}
	case "Pod":
		return &corev1.Pod{}
	case "LimitRange":
		return &corev1.LimitRange{}
	case "PersistentVolumeClaim":
		return &corev1.PersistentVolumeClaim{}
	case "Service":
		return &corev1.Service{}
	case "ConfigMap": // VAL-61, VAL-63: decoded to be validated
		return &corev1.ConfigMap{}
	case "Secret":
		return &corev1.Secret{}
	case "ServiceAccount":
		return &corev1.ServiceAccount{}
	case "Event": // VAL-06: the legacy Event validation reads its fields
		return &corev1.Event{}
	case "Endpoints": // VAL-85
		return &corev1.Endpoints{}
	case "ResourceQuota":
		return &corev1.ResourceQuota{}
	}
	return nil
}

// Admit runs one object through the pipeline. obj is a typed object from NewObject,
// or any runtime.Object exposing metav1.Object (e.g. *metav1.PartialObjectMetadata)
// for other kinds. The engine takes ownership of obj and may mutate it. An
// admitted workload is followed by what its controllers create, unless
// Options.DisableControllers.
//
// Admit never panics: a failure inside limitcheck is reported in
// Result.Internal, and the objects after it are evaluated as usual.
func (e *Engine) Admit(obj runtime.Object) (res Result) {
	defer func() {
		if r := recover(); r != nil {
			res = identify(obj)
			res.Internal = fmt.Sprintf("limitcheck failed on this object: %v", r)
		}
	}()
	dropped := droppedFieldWarnings(obj) // before PrepareForCreate drops them
	// As written: before defaults copy limits to requests (Prepare saw
	// a prepared Pod so).
	var units []string
	if p := e.prep; p != nil && p.pod == obj {
		units = p.units
	} else {
		units = unitWarnings(obj)
	}
	// ST-03: kubectl create and apply clear a resourceVersion before they
	// send the object (a copy saved from a cluster keeps the server's).
	versioned := false
	if m, ok := obj.(metav1.Object); ok && m.GetResourceVersion() != "" && !e.live {
		versioned = storageRefusesVersion(m.GetResourceVersion())
		m.SetResourceVersion("")
	}
	e.uncompiled = ""
	res = e.admitObject(obj, true)
	if w := e.catalog().Deprecation(res.APIVersion, res.Kind); w != "" && res.Internal == "" {
		// The endpoint's own warning, sent before anything the create adds.
		res.APIWarnings = appendWarnings([]string{w}, res.APIWarnings)
	}
	if e.uncompiled != "" {
		res.Warnings = append(res.Warnings, "its CEL expressions were not compiled: "+e.uncompiled)
	}
	if m, ok := obj.(metav1.Object); ok && len(m.GetOwnerReferences()) > 0 && res.Allowed && !e.live {
		res.Warnings = append(res.Warnings, ownerWarning(m.GetOwnerReferences()))
	}
	if versioned && res.Internal == "" {
		res.Warnings = append(res.Warnings, "metadata.resourceVersion is set (saved with kubectl get -o yaml?): kubectl create and apply clear it; a client that sends it as written gets `resourceVersion should not be set on objects to be created`: remove it (ST-03)")
	}
	if res.Object != nil {
		res.Warnings = append(res.Warnings, units...)
	}
	if res.Denial == nil && !res.Skipped && res.Internal == "" {
		res.Warnings = append(res.Warnings, dropped...)
		if w := e.scaleTargetWarning(obj); w != "" {
			res.Warnings = append(res.Warnings, w)
		}
	}
	if e.opts.DisableControllers || res.Skipped || res.Internal != "" {
		return res
	}
	if _, hpa := res.Object.(*autoscalingv2.HorizontalPodAutoscaler); hpa && res.Allowed {
		res.Warnings = append(res.Warnings, e.noteAutoscaling(obj, &res)...) // FIT-06
	}
	if !res.Allowed {
		// A refused workload runs none of its Pods.
		if _, path := defaults.PodTemplateOf(obj); path != "" {
			n, _ := e.desiredPods(obj)
			res.Workload = &Workload{Replicas: n}
		}
		return res
	}
	late, before := e.lateAccount(obj, res.Namespace)
	_, e.cron = obj.(*batchv1.CronJob)
	e.creator = res.Kind + " " + res.Namespace + "/" + res.Name
	w := e.runControllers(obj)
	e.creator, e.cron = "", false
	if late != "" && w != nil && quotaMet(before, e.namespace(res.Namespace).Quotas, w.Created) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("its Pods name ServiceAccount %q, which the input creates after this %s: kubectl create -f sends the %s first and its controller's Pods are refused (FailedCreate: error looking up service account %s/%s: serviceaccount %q not found) until the account exists, so a quota charges the objects in between first, while limitcheck charges its Pods here; put the ServiceAccount before it (--order=policies-first checks the input as Helm and Argo CD apply it, ServiceAccounts before Pods)",
			late, res.Kind, res.Kind, res.Namespace, late, late))
	}
	if _, pod := obj.(*corev1.Pod); pod {
		// The input's own Pod: what controllers create for it (WL-06).
		if deps := e.podDependents(&res, 0); len(deps) > 0 {
			w = &Workload{Replicas: 1, Created: deps}
			if allAdmitted(deps) {
				w.Admitted = 1
			}
		}
	}
	if w != nil {
		res.Workload = w
		if w.Note != "" {
			res.Warnings = append(res.Warnings, w.Note)
		}
		raced := ""
		for _, c := range w.Created {
			res.Allowed = res.Allowed && c.Allowed
			if raced == "" {
				raced = c.raced
			}
		}
		if raced != "" {
			res.Warnings = append(res.Warnings, raced)
		}
		res.Warnings = append(res.Warnings, e.jobDeadlineScopeHint(obj, w)...)
		res.Warnings = append(res.Warnings, e.noteAutoscaling(obj, &res)...) // FIT-06
	}
	return res
}

// lateAccount is the ServiceAccount a workload's Pod template names when the
// input creates it later (AccountNotYetCreated, PL-11), with the status.used
// of the namespace's quotas before the workload's controllers run, for
// quotaMet; "" otherwise.
func (e *Engine) lateAccount(obj runtime.Object, namespace string) (string, []corev1.ResourceList) {
	t, _ := defaults.PodTemplateOf(obj)
	if t == nil {
		return "", nil
	}
	name, _ := podAccount(&corev1.Pod{ObjectMeta: t.ObjectMeta, Spec: t.Spec})
	if name == "" || !e.AccountNotYetCreated(namespace, name) {
		return "", nil
	}
	return name, usedOf(e.namespace(namespace).Quotas)
}

// identify is the identity of obj as written, for results that say nothing else.
func identify(obj runtime.Object) Result {
	if obj == nil {
		return Result{}
	}
	gvk := obj.GetObjectKind().GroupVersionKind()
	res := Result{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind}
	if meta, ok := obj.(metav1.Object); ok {
		res.Namespace, res.Name = meta.GetNamespace(), meta.GetName()
	}
	return res
}

// admitObject runs one object through defaulting, validation and admission.
// fromInput is false for what a controller creates: only the input's own
// objects are checked for a name already taken (storage's 409), because the
// names limitcheck gives created objects are placeholders.
func (e *Engine) admitObject(obj runtime.Object, fromInput bool) Result {
	if obj == nil {
		return Result{Internal: "no object"}
	}
	gvk := obj.GetObjectKind().GroupVersionKind()
	apiVersion, kind := gvk.GroupVersion().String(), gvk.Kind
	res := Result{APIVersion: apiVersion, Kind: kind}
	meta, ok := obj.(metav1.Object)
	if !ok {
		res.Skipped, res.SkipReason = true, "object has no metadata"
		return res
	}
	res.Name = meta.GetName()
	if fromInput {
		e.writeParallelism(obj)
	}
	switch obj.(type) {
	case *schedulingv1.PriorityClass, *storagev1.StorageClass, *nodev1.RuntimeClass:
		if d := e.classes.Refusal(obj); d != nil {
			// VAL-72..74: a class kube-apiserver refuses is not in the cluster.
			res.Denial = d
			return res
		}
		res.Skipped, res.SkipReason = true, "cluster class: read by the Priority, DefaultStorageClass and RuntimeClass plugins for the whole run"
		if fromInput {
			res.APIWarnings = appendWarnings(res.APIWarnings, validation.WarningsOnCreate(obj))
		}
		return res
	}
	written := meta.GetName() // before name generation (ST-01)
	var clusterErrs field.ErrorList
	specUnchecked := false
	switch o := obj.(type) {
	case *rbacv1.ClusterRole: // VAL-75
		assignName(o)
		clusterErrs = validation.ClusterRole(o)
	case *rbacv1.ClusterRoleBinding:
		defaults.DefaultClusterRoleBinding(o)
		assignName(o)
		clusterErrs = validation.ClusterRoleBinding(o)
	case *apiregistrationv1.APIService: // VAL-92
		validation.PrepareAPIServiceForCreate(o)
		assignName(o)
		clusterErrs = validation.APIService(o)
	case *apiextensionsv1.CustomResourceDefinition: // VAL-93..VAL-99
		var err error
		assignName(o)
		if c := e.preparedCRD(o); c != nil {
			// Checked by a first look of the run: o is only defaulted, as
			// crdErrors would have.
			apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(o)
			clusterErrs, err = c.errs, c.err
			if c.uncompiled != "" {
				e.uncompiled = c.uncompiled
			}
		} else {
			clusterErrs, err = crdErrors(o, crdCompiler(e.opts.Rules, func(reason string) { e.uncompiled = reason }))
		}
		if err != nil {
			res.Internal = err.Error()
			return res
		}
	case *corev1.PersistentVolume: // VAL-91
		defaults.DefaultPersistentVolume(o)
		validation.PreparePersistentVolumeForCreate(o)
		assignName(&o.ObjectMeta)
		clusterErrs = validation.PersistentVolume(o)
	case *admissionregistrationv1.ValidatingWebhookConfiguration: // VAL-79..VAL-83
		defaults.DefaultValidatingWebhookConfiguration(o)
		assignName(o)
		clusterErrs = validation.ValidatingWebhookConfiguration(o, e.compiler(rules.MatchCondition))
	case *admissionregistrationv1.MutatingWebhookConfiguration:
		defaults.DefaultMutatingWebhookConfiguration(o)
		assignName(o)
		clusterErrs = validation.MutatingWebhookConfiguration(o, e.compiler(rules.MatchCondition))
	case *admissionregistrationv1.ValidatingAdmissionPolicy: // VAL-106
		defaults.DefaultValidatingAdmissionPolicy(o)
		validation.PrepareValidatingAdmissionPolicyForCreate(o)
		assignName(o)
		clusterErrs = validation.ValidatingAdmissionPolicy(o, e.compilePolicy(validation.PolicyExpressions(o)))
	case *admissionregistrationv1.ValidatingAdmissionPolicyBinding: // VAL-107
		defaults.DefaultValidatingAdmissionPolicyBinding(o)
		assignName(o)
		clusterErrs = validation.ValidatingAdmissionPolicyBinding(o)
	case *admissionregistrationv1.MutatingAdmissionPolicy: // VAL-108
		defaults.DefaultMutatingAdmissionPolicy(o)
		assignName(o)
		clusterErrs = validation.MutatingAdmissionPolicy(o, e.compilePolicy(validation.MutatingPolicyExpressions(o)))
	case *admissionregistrationv1.MutatingAdmissionPolicyBinding: // VAL-109
		defaults.DefaultMutatingAdmissionPolicyBinding(o)
		assignName(o)
		clusterErrs = validation.MutatingAdmissionPolicyBinding(o)
	case *networkingv1.IngressClass: // VAL-84
		defaults.IngressClass(o)
		assignName(o)
		clusterErrs = validation.IngressClass(o)
	case *storagev1.CSIDriver: // VAL-87
		defaults.CSIDriver(o)
		validation.PrepareCSIDriverForCreate(o)
		assignName(o)
		clusterErrs = validation.CSIDriver(o)
	case *storagev1.VolumeAttributesClass: // VAL-88
		assignName(o)
		clusterErrs = validation.VolumeAttributesClass(o)
	case *storagev1.CSINode: // VAL-89
		assignName(o)
		clusterErrs = validation.CSINode(o)
	case *storagev1.VolumeAttachment: // VAL-100
		defaults.VolumeAttachment(o)
		validation.PrepareVolumeAttachmentForCreate(o)
		assignName(o)
		clusterErrs = validation.VolumeAttachment(o)
	case *flowcontrolv1.FlowSchema: // VAL-101, VAL-103
		defaults.FlowSchema(o)
		validation.PrepareFlowSchemaForCreate(o)
		assignName(o)
		clusterErrs = validation.FlowSchema(o)
	case *flowcontrolv1.PriorityLevelConfiguration: // VAL-102, VAL-103
		defaults.PriorityLevelConfiguration(o)
		validation.PreparePriorityLevelConfigurationForCreate(o)
		assignName(o)
		clusterErrs = validation.PriorityLevelConfiguration(o)
	case *certificatesv1.CertificateSigningRequest: // VAL-110
		validation.PrepareCSRForCreate(o)
		assignName(o)
		if clusterErrs = validation.CertificateSigningRequest(o); len(clusterErrs) == 0 && !e.opts.DisableCertificateSubjectRestriction {
			if err := validation.CertificateSubjectRestriction(o); err != nil {
				res.Denial = status.Forbidden(status.StageCertificateSubjectRestriction, certificatesv1.Resource("certificatesigningrequests"), o.Name, []error{err})
				return res
			}
		}
	case *resourcev1.DeviceClass: // VAL-34
		validation.PrepareDeviceClassForCreate(o)
		assignName(o)
		clusterErrs = validation.DeviceClass(o, e.compiler(rules.DeviceSelector))
	case *corev1.Namespace: // NS-03
		if o.Name != "" { // SetDefaults_Namespace
			if o.Labels == nil {
				o.Labels = map[string]string{}
			}
			o.Labels[corev1.LabelMetadataName] = o.Name
		}
		assignName(o) // after defaulting, which happens at decoding
		clusterErrs = validation.Namespace(o)
		if len(clusterErrs) == 0 && !e.opts.DisablePodSecurity && !e.live {
			// PS-01: the PodSecurity plugin's check of the labels, in
			// validating admission (after validation passed).
			clusterErrs = podsecurity.NamespaceErrors(o)
		}
		if len(clusterErrs) > 0 {
			e.namespaceNotCreated(o.Name)
		}
	case *unstructured.Unstructured:
		// a custom resource: its CRD's schema, below
	default:
		specUnchecked = true // a Node, a ServiceCIDR, …: metadata only
	}
	if len(clusterErrs) > 0 {
		res.Denial = status.Invalid(gvk.GroupKind(), meta.GetName(), clusterErrs)
		return res
	}
	if clusterScopedIn(e.catalog(), gvk) {
		if u, ok := obj.(*unstructured.Unstructured); ok {
			// VAL-76..VAL-78: a cluster-scoped custom resource against its
			// CRD's schema, as a namespaced one.
			custom, customStatus, err := e.customSchema(u)
			if err != nil {
				res.Internal = err.Error()
				return res
			}
			if custom != nil {
				if res.Denial = decodeCustom(u, custom); res.Denial != nil {
					return res
				}
				assignName(meta)
				errs, warnings := e.validateCustom(u, custom, customStatus, true)
				res.Warnings = append(res.Warnings, warnings...)
				if len(errs) > 0 {
					res.Denial = status.Invalid(gvk.GroupKind(), meta.GetName(), errs)
					return res
				}
			}
		}
		if fromInput && written != "" {
			// ST-01: a name the cluster or an earlier document has taken.
			gr := resourceIn(e.catalog(), gvk)
			id := e.resourceID(gr)
			if e.clusterNames().has(id, written) && !e.live {
				res.Denial = status.AlreadyExists(gr, written)
				return res
			}
			e.clusterStored.add(id, written)
		}
		res.Skipped, res.SkipReason = true, "cluster-scoped kind: LimitRanges and quotas do not apply"
		if specUnchecked {
			res.SkipReason = "cluster-scoped kind limitcheck does not validate beyond its metadata; LimitRanges and quotas do not apply"
		}
		if ns, ok := obj.(*corev1.Namespace); ok {
			delete(e.pending, ns.Name) // created: it exists from here on (NS-04)
			if fromInput && !e.live {
				// New: its only ServiceAccount is default (PL-11).
				if e.newNamespaces == nil {
					e.newNamespaces = map[string]bool{}
				}
				e.newNamespaces[ns.Name] = true
			}
			// Only a Namespace the cluster creates (or has, live) gives its
			// namespace labels: not one refused, nor a second of a name.
			if e.namespaceLabels(ns.Name, ns.Labels) {
				res.SkipReason = "cluster-scoped kind: its pod-security labels set the Pod Security levels of its namespace; LimitRanges and quotas do not apply"
			}
		}
		if fromInput {
			res.Warnings = append(res.Warnings, unsimulatedAdmission(gvk)...)
			res.APIWarnings = appendWarnings(res.APIWarnings, validation.WarningsOnCreate(obj))
		}
		return res
	}
	if u, ok := obj.(*unstructured.Unstructured); ok && u.Object["metadata"] == nil {
		// metadata: null. kube-apiserver cannot set the request's namespace
		// in it, but admits by the request's namespace all the same; with
		// no name, validation refuses it (VAL-76).
		u.Object["metadata"] = map[string]any{}
	}
	if meta.GetNamespace() == "" {
		meta.SetNamespace(e.opts.DefaultNamespace)
	}
	res.Namespace = meta.GetNamespace()
	var custom *crdschema.Schema
	var customStatus bool
	if u, ok := obj.(*unstructured.Unstructured); ok {
		// VAL-76, VAL-77: the body is decoded before any admission plugin.
		var err error
		if custom, customStatus, err = e.customSchema(u); err != nil {
			res.Internal = err.Error()
			return res
		}
		if custom != nil {
			res.Object = u
			if res.Denial = decodeCustom(u, custom); res.Denial != nil {
				return res
			}
		}
	}
	if len(namecheck.IsDNS1123Label(res.Namespace)) > 0 || e.refusedNamespaces[res.Namespace] || e.pending[res.Namespace] {
		// No namespace can have this name, or the namespace is not created
		// (yet), so none exists: NamespaceLifecycle, the first admission
		// plugin, refuses the create (NS-02, NS-03, NS-04).
		res.Denial = status.NamespaceNotFound(res.Namespace)
		return res
	}
	ns := e.namespace(res.Namespace)
	ns.Creator, ns.Raced = e.creator, ""

	gr := resourceIn(e.catalog(), gvk)
	if want, ok := evaluatedTypes[gr]; ok && reflect.TypeOf(obj) != want {
		// Only the versions limitcheck decodes reach an evaluator that reads
		// the object's fields; anything else is a bug in the caller.
		res.Internal = fmt.Sprintf("%s %s reached the %s evaluator as %T", apiVersion, kind, gr.String(), obj)
		return res
	}
	// The object's name before admission: a name already taken is refused by
	// storage after admission, when quota has charged it (the charge stays).
	storedAs, resourceID := meta.GetName(), e.resourceID(gr)
	// (A controller's object of a name the input took, a StatefulSet's Pod,
	// fails so too.)
	dup := storedAs != "" && ns.stored.has(resourceID, storedAs)
	refused := dup
	charged := len(ns.Objects)
	var commit func() // keeps what an admitted Service reserved (VAL-64)
	switch o := obj.(type) {
	case *corev1.Pod:
		res.Object = o
		var warnings []string
		if name, ok := podAccount(o); ok && fromInput && e.AccountNotYetCreated(ns.name, name) {
			// The input creates it, after this Pod (PL-11).
			res.Denial = accountNotFound(ns.name, name, o)
		} else {
			res.Denial, warnings = e.admitPod(ns, o)
			e.noteRace(ns, &res, fromInput)
		}
		if fromInput { // a controller's are the controller's to read
			res.APIWarnings = appendWarnings(res.APIWarnings, warnings)
		}
		if res.Denial == nil && !e.live {
			res.Assumed = e.assumed(ns, o)
		}
		ns.governed++
	case *corev1.PersistentVolumeClaim:
		res.Object = o
		res.Denial = e.admitClaim(ns, o)
		e.noteRace(ns, &res, fromInput)
		if fromInput && (res.Denial == nil || res.Denial.Stage != status.StageValidation) {
			res.APIWarnings = appendWarnings(res.APIWarnings, validation.WarningsOnCreate(o))
		}
		ns.governed++
	case *corev1.LimitRange:
		if e.settled != nil {
			res.Internal = "a LimitRange was admitted after the caller promised none would follow (Engine.Expect)"
			return res
		}
		res.Object = o
		res.Denial = e.admitLimitRange(ns, o, refused)
		if res.Denial == nil && ns.governed > 0 {
			what := "Pods or PersistentVolumeClaims were"
			if ns.governed == 1 {
				what = "Pod or PersistentVolumeClaim was"
			}
			res.Warnings = append(res.Warnings, fmt.Sprintf("this LimitRange governs only the objects after it in input order: %d earlier %s evaluated without it in namespace %q", ns.governed, what, res.Namespace))
		}
	case *corev1.ResourceQuota:
		if ns.NoRecount {
			res.Internal = "a ResourceQuota was admitted after the caller promised none would follow (Engine.Expect)"
			return res
		}
		res.Object = o
		observedUsed := o.Status.Used
		res.Denial = e.admitQuota(ns, o, refused)
		if fromInput && (res.Denial == nil || res.Denial.Stage != status.StageValidation) {
			res.APIWarnings = appendWarnings(res.APIWarnings, validation.WarningsOnCreate(o))
		}
		if res.Denial == nil && !refused && e.opts.QuotaUsage != quota.UsageObserved && !e.live && len(observedUsed) > 0 {
			res.Warnings = append(res.Warnings, "its status.used (from a live cluster?) is ignored: usage is computed from the objects in the input; give --quota-usage=observed to start from it")
		}
	case *resourcev1.ResourceClaim:
		res.Object = o
		defaults.DefaultResourceClaim(o)
		o.Status = resourcev1.ResourceClaimStatus{} // PrepareForCreate
		assignName(&o.ObjectMeta)
		// VAL-32: validated before the ResourceQuota plugin charges it.
		errs := validation.AdminAccess(&o.Spec.Devices, adminAccessPath, e.labelsOf(ns.name))
		if errs = append(errs, validation.ResourceClaim(o, e.compiler(rules.DeviceSelector))...); len(errs) > 0 {
			res.Denial = status.Invalid(gvk.GroupKind(), o.Name, errs)
			break
		}
		res.Denial = e.quota.Check(&ns.Namespace, quota.ResourceClaims, o.Name, o)
	case *corev1.Service:
		res.Object = o
		res.Denial, commit = e.admitService(ns, gr, o)
		if fromInput && (res.Denial == nil || res.Denial.Stage != status.StageValidation) {
			res.APIWarnings = appendWarnings(res.APIWarnings, validation.WarningsOnCreate(o))
		}
	default:
		// Every other namespaced kind is charged as an object count (RQ-31)
		// once created: defaulted, prepared and validated as its kind is.
		assignName(meta)
		stored, gk, errs := obj, gvk.GroupKind(), field.ErrorList(nil)
		if custom != nil {
			// VAL-78: a custom resource against its CRD's schema.
			var warnings []string
			errs, warnings = e.validateCustom(obj.(*unstructured.Unstructured), custom, customStatus, false)
			res.Warnings = append(res.Warnings, warnings...)
		} else {
			stored, gk, errs = e.validateCounted(obj, gvk, ns.name)
		}
		res.Object = stored
		if len(errs) > 0 {
			res.Denial = status.Invalid(gk, meta.GetName(), errs)
			break
		}
		if fromInput {
			res.APIWarnings = appendWarnings(res.APIWarnings, validation.WarningsOnCreate(stored))
			if t := podsecurity.Template(stored); t != nil && !e.opts.DisablePodSecurity && !e.opts.PodSecurity.RuntimeClassExempt(t.Spec.RuntimeClassName) {
				// PS-03: a workload's template is warned of, never refused.
				if w := e.podSecurityOf(ns.name).WarnTemplate(&t.ObjectMeta, &t.Spec); w != "" {
					res.APIWarnings = appendWarnings(res.APIWarnings, []string{w})
				}
			}
		}
		res.Denial = e.quota.Check(&ns.Namespace, gr, meta.GetName(), obj)
		e.noteRace(ns, &res, fromInput)
	}
	res.Name = meta.GetName()
	if res.Denial == nil && refused {
		res.Denial = status.AlreadyExists(gr, storedAs)
		ns.Objects = ns.Objects[:charged] // not stored: the quota controller's recount misses it
	}
	if res.Denial == nil && commit != nil {
		commit()
	}
	if res.Denial == nil && fromInput && storedAs != "" {
		ns.stored.add(resourceID, storedAs)
	}
	if sa, ok := obj.(*corev1.ServiceAccount); ok && fromInput && storedAs != "" {
		ns.noteAccount(storedAs, res.Denial != nil, dup)
		if res.Denial == nil {
			ns.noteEnforcing(sa)
		}
	}
	if t, ok := obj.(*resourcev1.ResourceClaimTemplate); ok && res.Denial == nil {
		if ns.claimTemplates == nil {
			ns.claimTemplates = map[string]*resourcev1.ResourceClaimTemplate{}
		}
		ns.claimTemplates[t.Name] = t
	}
	if pod, ok := obj.(*corev1.Pod); ok && res.Denial == nil && fromInput && metav1.GetControllerOf(pod) == nil {
		if note := ns.claim(pod); note != "" {
			res.Warnings = append(res.Warnings, note)
		} else if e.outlook == nil || e.outlook.Adopters == nil || e.outlook.Adopters[res.Namespace] {
			ns.orphans = append(ns.orphans, pod)
		}
	}
	res.Allowed = res.Denial == nil
	if d := res.Denial; d != nil && d.Stage == status.StageQuota && fromInput && !e.opts.OmitNamespaceObjects {
		res.Warnings = append(res.Warnings, namespaceObjectsCounted(res.Namespace, gvk.Kind, d)...)
	}
	return res
}

// adminAccessPath is where the admin-access check reports, for claims and
// templates alike (upstream's path for both).
var adminAccessPath = field.NewPath("spec", "devices", "requests")

// namespaceLabels records the labels of a namespace the cluster has, and
// reports whether they give it a Pod Security policy (PS-01). A live
// namespace's labels that do not parse are read as the plugin reads them,
// failing closed for enforce; the input's are refused before this.
func (e *Engine) namespaceLabels(name string, labels map[string]string) bool {
	if e.nsLabels == nil {
		e.nsLabels = map[string]map[string]string{}
	}
	e.nsLabels[name] = labels
	if e.opts.DisablePodSecurity {
		return false
	}
	p, errs := e.opts.PodSecurity.Labels(labels)
	if len(errs) > 0 && !e.live {
		return false
	}
	if e.podSecurity == nil {
		e.podSecurity = map[string]podsecurity.Policy{}
	}
	e.podSecurity[name] = p // privileged too: it overrides a configured default
	return !p.Privileged()
}

// podSecurityOf is the Pod Security policy of a namespace (PS-01, PS-04):
// its Namespace's labels, else the configuration's defaults; the zero
// Policy, which checks nothing, for an exempt namespace.
func (e *Engine) podSecurityOf(ns string) podsecurity.Policy {
	return e.opts.PodSecurity.Policy(ns, e.podSecurity)
}

// labelsOf returns a namespace's labels: its Namespace document's in the
// input, else none (a namespace the input does not create is taken to have
// no label that matters here).
func (e *Engine) labelsOf(namespace string) map[string]string {
	return e.nsLabels[namespace]
}

// clusterNames returns the names of the cluster-scoped objects that exist,
// seeded with the cluster's own on first use.
func (e *Engine) clusterNames() *storedNames {
	if !e.clusterStoredSeeded {
		e.clusterStoredSeeded = true
		for _, o := range initialClusterObjects {
			id := e.resourceID(o.resource)
			for _, name := range o.names {
				e.clusterStored.add(id, name)
			}
		}
	}
	return &e.clusterStored
}

// resourceID numbers resource gr for the names stored under it (storedNames).
func (e *Engine) resourceID(gr schema.GroupResource) uint32 {
	id, ok := e.resourceIDs[gr]
	if !ok {
		if e.resourceIDs == nil {
			e.resourceIDs = map[schema.GroupResource]uint32{}
		}
		id = uint32(len(e.resourceIDs))
		e.resourceIDs[gr] = id
	}
	return id
}

// evaluatedTypes are the resources whose admission reads the object's fields,
// with the Go type each needs.
var evaluatedTypes = map[schema.GroupResource]reflect.Type{
	{Resource: "pods"}:                   reflect.TypeOf(&corev1.Pod{}),
	{Resource: "services"}:               reflect.TypeOf(&corev1.Service{}),
	{Resource: "persistentvolumeclaims"}: reflect.TypeOf(&corev1.PersistentVolumeClaim{}),
	{Resource: "limitranges"}:            reflect.TypeOf(&corev1.LimitRange{}),
	{Resource: "resourcequotas"}:         reflect.TypeOf(&corev1.ResourceQuota{}),
	quota.ResourceClaims:                 reflect.TypeOf(&resourcev1.ResourceClaim{}),
}

func (e *Engine) namespace(name string) *namespaceState {
	ns := e.namespaces[name]
	if ns == nil {
		ns = &namespaceState{name: name}
		ns.NoRecount = e.outlook != nil && e.outlook.NoQuotas
		e.namespaces[name] = ns
		e.order = append(e.order, name)
		if !e.opts.OmitNamespaceObjects {
			for _, obj := range namespaceObjects(name) {
				gr := resourceFor(obj.GetObjectKind().GroupVersionKind())
				ns.stored.add(e.resourceID(gr), obj.(metav1.Object).GetName())
				e.quota.Add(&ns.Namespace, gr, obj)
			}
		}
	}
	return ns
}

// HeldCharge is what one object a namespace holds before anything is created
// in it (NS-01) charges to a quota.
type HeldCharge struct {
	Kind, Name string
	Usage      corev1.ResourceList
}

// HeldCharges is what each object namespace ns holds before anything is
// created in it (NS-01) charges to q, for those that charge it something,
// as the quota controller counts them: what lint holds a quota's hard
// values against (LINT-14).
func HeldCharges(gates features.Gates, ns string, q *corev1.ResourceQuota) []HeldCharge {
	checker := quota.Checker{Gates: gates, Usage: quota.UsageComputed}
	var out []HeldCharge
	for _, obj := range namespaceObjects(ns) {
		gvk := obj.GetObjectKind().GroupVersionKind()
		var space quota.Namespace
		checker.Add(&space, resourceFor(gvk), obj)
		c := q.DeepCopy()
		checker.ComputeStatus(&space, c)
		used := corev1.ResourceList{}
		for k, v := range c.Status.Used {
			if v.Sign() > 0 {
				used[k] = v
			}
		}
		if len(used) > 0 {
			out = append(out, HeldCharge{Kind: gvk.Kind, Name: obj.(metav1.Object).GetName(), Usage: used})
		}
	}
	return out
}

// namespaceObjects are the objects a namespace holds before anything is created
// in it (NS-01): kube-controller-manager's root-ca-cert-publisher creates the
// ConfigMap kube-root-ca.crt and its serviceaccount controller the ServiceAccount
// default; kube-apiserver keeps the Service kubernetes, its Endpoints and its
// EndpointSlice in namespace default, two ConfigMaps and its bootstrap Roles
// and RoleBindings in kube-system, a Role and RoleBinding in kube-public.
func namespaceObjects(ns string) []runtime.Object {
	meta := func(apiVersion, kind, name string) (metav1.TypeMeta, metav1.ObjectMeta) {
		return metav1.TypeMeta{APIVersion: apiVersion, Kind: kind}, metav1.ObjectMeta{Name: name, Namespace: ns}
	}
	partial := func(apiVersion, kind, name string) runtime.Object {
		tm, om := meta(apiVersion, kind, name)
		return &metav1.PartialObjectMetadata{TypeMeta: tm, ObjectMeta: om}
	}
	objs := []runtime.Object{
		partial("v1", "ConfigMap", "kube-root-ca.crt"),
		partial("v1", "ServiceAccount", "default"),
	}
	const rbac = "rbac.authorization.k8s.io/v1"
	switch ns {
	case metav1.NamespaceSystem:
		// kube-apiserver's own: the ConfigMaps of its cluster-authentication
		// trust and legacy-token tracking controllers, and the namespaced
		// roles and bindings of its RBAC bootstrap policy.
		objs = append(objs,
			partial("v1", "ConfigMap", "extension-apiserver-authentication"),
			partial("v1", "ConfigMap", "kube-apiserver-legacy-service-account-token-tracking"))
		for _, r := range []string{"extension-apiserver-authentication-reader", "system::leader-locking-kube-controller-manager",
			"system::leader-locking-kube-scheduler", "system:controller:bootstrap-signer", "system:controller:cloud-provider",
			"system:controller:token-cleaner"} {
			objs = append(objs, partial(rbac, "Role", r))
		}
		for _, b := range []string{"system::extension-apiserver-authentication-reader", "system::leader-locking-kube-controller-manager",
			"system::leader-locking-kube-scheduler", "system:controller:bootstrap-signer", "system:controller:cloud-provider",
			"system:controller:token-cleaner"} {
			objs = append(objs, partial(rbac, "RoleBinding", b))
		}
	case metav1.NamespacePublic:
		objs = append(objs, partial(rbac, "Role", "system:controller:bootstrap-signer"),
			partial(rbac, "RoleBinding", "system:controller:bootstrap-signer"))
	}
	if ns == metav1.NamespaceDefault {
		tm, om := meta("v1", "Service", "kubernetes")
		objs = append(objs,
			&corev1.Service{TypeMeta: tm, ObjectMeta: om, Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP,
				Ports: []corev1.ServicePort{{Name: "https", Port: 443, Protocol: corev1.ProtocolTCP}}}},
			partial("v1", "Endpoints", "kubernetes"),
			partial("discovery.k8s.io/v1", "EndpointSlice", "kubernetes"))
	}
	return objs
}

// appendWarnings adds the warnings of a create not already given:
// kube-apiserver sends each text once (its warning recorder dedupes).
func appendWarnings(dst, warnings []string) []string {
	for _, w := range warnings {
		if !slices.Contains(dst, w) {
			dst = append(dst, w)
		}
	}
	return dst
}

// assignName performs the generic registry's name generation (placeholder suffix).
func assignName(meta metav1.Object) {
	if meta.GetName() == "" && meta.GetGenerateName() != "" {
		meta.SetName(GeneratedName(meta.GetGenerateName()))
	}
}

// maxGeneratedPrefix is the longest prefix the name generator keeps: 63 bytes
// less the 5 random characters (PL-04).
const maxGeneratedPrefix = 63 - len(GeneratedNameSuffix)

// GeneratedName is the name generated from prefix (metadata.generateName):
// the prefix cut to 58 bytes, then the placeholder for the random suffix.
func GeneratedName(prefix string) string {
	if len(prefix) > maxGeneratedPrefix {
		prefix = prefix[:maxGeneratedPrefix]
	}
	return prefix + GeneratedNameSuffix
}

// admitPod: defaulting → LimitRanger mutate → PrepareForCreate → validation →
// LimitRanger validate (docs/behaviour.md Pipeline).
// A Pod prepared by Prepare has been through every step but quota.
// It returns the warnings of the create too (VAL-104).
func (e *Engine) admitPod(ns *namespaceState, pod *corev1.Pod) (*status.Denial, []string) {
	var usage corev1.ResourceList
	var warnings []string
	if d := ns.refusedAccount(pod); d != nil {
		return d, nil
	}
	if d := e.accountOfNewNamespace(ns, pod); d != nil {
		return d, nil
	}
	var d *status.Denial
	if p := e.prepared(pod); p != nil {
		d, usage, warnings = p.denial, p.usage, p.warnings
	} else {
		d = e.beforeQuota(ns.name, ns.limitRanges, e.podSecurityOf(ns.name), pod, &warnings)
	}
	if d == nil || d.Stage != status.StageServiceAccount {
		// The ServiceAccount plugin's check of the secrets, right after its
		// lookup and before any later stage's refusal; here, on this
		// goroutine, as it reads the input's ServiceAccounts (PL-11). (A
		// Pod without image pull secrets gets the account's: listed.)
		if sd := ns.mountableSecrets(pod); sd != nil {
			return sd, nil
		}
	}
	if d != nil {
		return d, warnings
	}
	return e.quota.CheckUsage(&ns.Namespace, podsResource, pod.Name, pod, usage), warnings
}

// noteRace warns of res, a Pod or claim just checked in ns, when a quota
// refused it that holds what another workload's controller created
// (quota.Namespace.Raced, WL-03): a cluster's controllers create Pods and
// claims while kubectl creates the objects after them and while other
// controllers create theirs, so which of them the quota refuses is a race
// there; limitcheck decides it in input order. A CronJob's, created at its
// schedule, are no race. The workload repeats its first refused object's.
func (e *Engine) noteRace(ns *namespaceState, res *Result, fromInput bool) {
	if ns.Raced == "" || res.Denial == nil || e.cron {
		return
	}
	if strings.HasPrefix(ns.Raced, "CronJob ") {
		// No race: the CronJob's Job comes later (WL-13).
		this := "this " + res.Kind + ": there the quota charges this one"
		if !fromInput {
			this = "what this workload's controller creates: there the quota charges those"
		}
		res.raced = fmt.Sprintf("quota %s also holds objects created for %s, which a cluster creates only at its schedule, after %s first and may refuse the CronJob's instead (WL-13)", res.Denial.Quota, ns.Raced, this)
	} else {
		when := "the two controllers create theirs at the same time"
		if fromInput {
			when = "its controller creates them while kubectl creates this " + res.Kind
		}
		res.raced = fmt.Sprintf("quota %s also holds objects created for %s: in a cluster %s, so which the quota refuses is a race (WL-03)", res.Denial.Quota, ns.Raced, when)
	}
	res.Warnings = append(res.Warnings, res.raced)
}

var podsResource = corev1.Resource("pods")

// beforeQuota is a Pod's admission up to quota, in namespace ns governed by
// limitRanges and the Pod Security policy ps: what only the Pod and the
// settled policies decide (Prepare).
func (e *Engine) beforeQuota(ns string, limitRanges []*limitranger.Policy, ps podsecurity.Policy, pod *corev1.Pod, warnings *[]string) *status.Denial {
	gates := e.opts.Gates
	defaults.DefaultPod(pod, gates)
	if !e.opts.DisableLimitRanger {
		for _, lr := range limitRanges {
			lr.Mutate(pod)
		}
	}
	// Mutating plugins after LimitRanger (docs/behaviour.md Pipeline step 2, RQ-34).
	if d := admitServiceAccount(ns, pod); d != nil {
		return d
	}
	e.accountPullSecrets(ns, pod)
	if !e.opts.DisablePriority {
		if d := e.classes.AdmitPriority(pod); d != nil {
			return d
		}
	}
	if !e.opts.DisableRuntimeClass {
		if d := e.classes.AdmitRuntimeClass(pod); d != nil {
			return d
		}
	}
	// PrepareForCreate: status reset, but for a QoS class the body gives,
	// which is kept (VAL-10, RQ-17); pod-level resources dropped with the
	// gate off.
	pod.Status = corev1.PodStatus{Phase: corev1.PodPending, QOSClass: pod.Status.QOSClass}
	dropGatedFields(&pod.Spec, gates)
	assignName(&pod.ObjectMeta)
	*warnings = append(*warnings, validation.AppArmorWarnings(pod)...)
	validation.PrepareForCreate(pod)
	if errs := validation.Pod(pod, e.podOptions()); len(errs) > 0 {
		return status.Invalid(schema.GroupKind{Kind: "Pod"}, pod.Name, errs)
	}
	*warnings = append(*warnings, validation.WarningsOnCreate(pod)...)
	if !e.opts.DisableLimitRanger {
		for _, lr := range limitRanges {
			if errs := lr.ValidatePod(pod, gates); len(errs) > 0 {
				d := status.Forbidden(status.StageLimitRanger, corev1.Resource("pods"), pod.Name, errs)
				d.LimitRange = lr.LimitRange.Name
				return d
			}
		}
	}
	if !e.opts.DisablePodSecurity && ps != (podsecurity.Policy{}) && !e.opts.PodSecurity.RuntimeClassExempt(pod.Spec.RuntimeClassName) {
		// PS-02: the validating plugins' order puts PodSecurity after
		// LimitRanger and before RuntimeClass.
		forbidden, warning := ps.ValidatePod(&pod.ObjectMeta, &pod.Spec)
		if forbidden != nil {
			return status.Forbidden(status.StagePodSecurity, podsResource, pod.Name, []error{forbidden})
		}
		if warning != "" {
			*warnings = append(*warnings, warning)
		}
	}
	if !e.opts.DisableRuntimeClass {
		return e.classes.ValidateRuntimeClass(pod)
	}
	return nil
}

// pvcProtectionFinalizer is the finalizer the StorageObjectInUseProtection
// plugin gives every new claim (ST-02).
const pvcProtectionFinalizer = "kubernetes.io/pvc-protection"

func (e *Engine) admitClaim(ns *namespaceState, pvc *corev1.PersistentVolumeClaim) *status.Denial {
	defaults.DefaultPersistentVolumeClaim(pvc)
	if !e.opts.DisableDefaultStorageClass {
		e.classes.DefaultStorageClass(pvc)
	}
	// ST-02: StorageObjectInUseProtection adds its finalizer (mutating,
	// default on), which validation of the finalizers then lists.
	if !slices.Contains(pvc.Finalizers, pvcProtectionFinalizer) {
		pvc.Finalizers = append(pvc.Finalizers, pvcProtectionFinalizer)
	}
	pvc.Status = corev1.PersistentVolumeClaimStatus{} // PrepareForCreate
	validation.PrepareClaimForCreate(&pvc.Spec)
	assignName(&pvc.ObjectMeta)
	if errs := validation.PersistentVolumeClaim(pvc); len(errs) > 0 {
		return status.Invalid(schema.GroupKind{Kind: "PersistentVolumeClaim"}, pvc.Name, errs)
	}
	if !e.opts.DisableLimitRanger {
		for _, lr := range ns.limitRanges {
			if errs := lr.ValidateClaim(pvc); len(errs) > 0 {
				d := status.Forbidden(status.StageLimitRanger, corev1.Resource("persistentvolumeclaims"), pvc.Name, errs)
				d.LimitRange = lr.LimitRange.Name
				return d
			}
		}
	}
	return e.quota.Check(&ns.Namespace, corev1.Resource("persistentvolumeclaims"), pvc.Name, pvc)
}

// admitLimitRange defaults and validates a LimitRange; a valid one governs every
// later object of its namespace.
// A LimitRange storage refuses (ST-01) is charged to quota and
// governs nothing.
func (e *Engine) admitLimitRange(ns *namespaceState, lr *corev1.LimitRange, refused bool) *status.Denial {
	defaults.DefaultLimitRange(lr)
	assignName(&lr.ObjectMeta)
	if lr.Name == "" {
		lr.Name = UnnamedLimitRange // what the LimitRange strategy's PrepareForCreate does
	}
	if errs := validation.LimitRange(lr); len(errs) > 0 {
		return status.Invalid(schema.GroupKind{Kind: "LimitRange"}, lr.Name, errs)
	}
	if d := e.quota.Check(&ns.Namespace, corev1.Resource("limitranges"), lr.Name, lr); d != nil || refused {
		return d
	}
	ns.limitRanges = append(ns.limitRanges, limitranger.NewPolicy(lr))
	return nil
}

// admitQuota defaults and validates a ResourceQuota, charges it to the existing
// quotas, and activates it with the status a quota controller would give it.
// A quota storage refuses (ST-01) is charged to the others and never
// active.
func (e *Engine) admitQuota(ns *namespaceState, q *corev1.ResourceQuota, refused bool) *status.Denial {
	defaults.DefaultResourceQuota(q)
	observed := q.Status
	if d := ResourceQuotaInvalid(q); d != nil { // clears status as create does (RQ-07)
		return d
	}
	if d := e.quota.Check(&ns.Namespace, corev1.Resource("resourcequotas"), q.Name, q); d != nil || refused {
		return d
	}
	if e.opts.QuotaUsage == quota.UsageObserved || e.live {
		q.Status = observed
		e.quota.ObservedStatus(q)
	} else {
		e.quota.ComputeStatus(&ns.Namespace, q)
	}
	e.seed(q, observed.Used)
	ns.Quotas = append(ns.Quotas, q)
	return nil
}

// validateCounted runs the create path of a namespaced kind charged as an
// object count, once its name is assigned: the kind's defaulting and
// PrepareForCreate, then its validation. It returns the object as stored (nil
// when only its metadata is looked at), the group/kind the errors are
// reported under, and the errors.
func (e *Engine) validateCounted(obj runtime.Object, gvk schema.GroupVersionKind, namespace string) (runtime.Object, schema.GroupKind, field.ErrorList) {
	gk := gvk.GroupKind()
	meta := obj.(metav1.Object)
	metaErrs := func() field.ErrorList {
		return validation.ObjectMeta(meta, validation.MetaRulesFor(gk), field.NewPath("metadata"))
	}
	switch o := obj.(type) {
	case *corev1.ConfigMap, *corev1.Secret, *corev1.ServiceAccount:
		return o, gk, validateCoreObject(o)
	case *corev1.Event:
		// VAL-06: the strategy's legacy checks; the generic metadata
		// check of rest.BeforeCreate (VAL-04) runs only after them.
		errs := validation.LegacyEvent(o, namespace)
		if len(errs) == 0 {
			errs = metaErrs()
		}
		return o, gk, errs
	case *eventsv1.Event:
		// VAL-06: through the events.k8s.io API, the legacy checks and the
		// strict ones, on the internal Event it converts to.
		// Its errors name the internal kind, the core group's Event.
		errs := validation.EventsV1(validation.EventsV1ToCore(o), namespace)
		if len(errs) == 0 {
			errs = metaErrs()
		}
		return o, schema.GroupKind{Kind: "Event"}, errs
	case *coordinationv1.Lease:
		// VAL-111: strategy and preferred holder dropped (gate off).
		validation.PrepareLeaseForCreate(o)
		return o, gk, validation.Lease(o)
	case *appsv1.ControllerRevision:
		return o, gk, validation.ControllerRevision(o) // VAL-111
	case *autoscalingv2.HorizontalPodAutoscaler, *autoscalingv1.HorizontalPodAutoscaler:
		// VAL-50: defaulted (v1 converted to v2), then validated.
		hpa := prepareHPA(obj, e.opts.Gates)
		return hpa, hpaKind, validateHPA(hpa, e.opts.Gates)
	case *policyv1.PodDisruptionBudget:
		// VAL-69: prepared, the spec validated, then (when that passes)
		// rest.BeforeCreate's generic metadata check.
		defaults.PreparePodDisruptionBudget(o)
		errs := validation.PodDisruptionBudget(o)
		if len(errs) == 0 {
			errs = metaErrs()
		}
		return o, gk, errs
	case *rbacv1.Role:
		// VAL-70. RBAC's escalation checks are not simulated: the applier
		// is taken to be cluster-admin.
		return o, gk, validation.Role(o)
	case *rbacv1.RoleBinding:
		// VAL-71: the apiGroups defaulted, then validated.
		defaults.DefaultRoleBinding(o)
		return o, gk, validation.RoleBinding(o)
	case *networkingv1.Ingress, *networkingv1.NetworkPolicy:
		// VAL-65..VAL-68: defaulted, prepared, validated.
		return o, gk, validateNetworking(obj, e.opts.Gates)
	case *resourcev1.ResourceClaimTemplate:
		// VAL-33: defaulted, then the admin-access check and validation.
		defaults.DefaultResourceClaimTemplate(o)
		errs := validation.AdminAccess(&o.Spec.Spec.Devices, adminAccessPath, e.labelsOf(namespace))
		return o, gk, append(errs, validation.ResourceClaimTemplate(o, e.compiler(rules.DeviceSelector))...)
	case *corev1.Endpoints:
		// VAL-85: defaulted (protocol), validated.
		validation.DefaultEndpoints(o)
		return o, gk, validation.Endpoints(o)
	case *discoveryv1.EndpointSlice:
		// VAL-86: defaulted and prepared for a v1 request, validated.
		validation.PrepareEndpointSlice(o)
		return o, gk, validation.EndpointSlice(o)
	case *storagev1.CSIStorageCapacity:
		// VAL-90: nothing defaulted or prepared; validated.
		return o, gk, validation.CSIStorageCapacity(o)
	case *corev1.PodTemplate:
		// VAL-105: its template defaulted and prepared as a workload's,
		// then the metadata and the template validated.
		defaults.DefaultPodTemplate(o)
		validation.DropDisabledFields(&o.Template.Spec)
		dropGatedFields(&o.Template.Spec, e.opts.Gates)
		return o, gk, validation.PodTemplateObject(o, e.podOptions())
	}
	if t, path := defaults.PodTemplateOf(obj); path != "" {
		defaults.DefaultWorkload(obj)
		// VAL-40..VAL-48: the workload's own validation, its metadata and
		// Pod template's included, after the template's PrepareForCreate.
		if t != nil { // a ReplicationController may have none
			validation.DropDisabledFields(&t.Spec)
			dropGatedFields(&t.Spec, e.opts.Gates)
		}
		return obj, gk, validation.Workload(obj, e.podOptions())
	}
	// VAL-04: any other kind has its metadata validated.
	return nil, gk, metaErrs()
}

// dropGatedFields clears what PrepareForCreate drops, in a Pod or a
// workload's template, for a gate the run turned off: pod-level resources
// with PodLevelResources off. (A workload's stored template matters to the
// StatefulSet revision its Pods are labelled with, WL-07.)
func dropGatedFields(spec *corev1.PodSpec, gates features.Gates) {
	if !gates.Enabled(features.PodLevelResources) {
		spec.Resources = nil
	}
}

// ResourceQuotaInvalid runs the create path of a defaulted ResourceQuota from name
// generation on (placeholder suffix, PL-04) and returns the 422 kube-apiserver
// would answer, or nil when the quota is valid. The namespace must already be set.
func ResourceQuotaInvalid(q *corev1.ResourceQuota) *status.Denial {
	assignName(&q.ObjectMeta)
	q.Status = corev1.ResourceQuotaStatus{} // PrepareForCreate
	if errs := validation.ResourceQuota(q); len(errs) > 0 {
		return status.Invalid(corev1.SchemeGroupVersion.WithKind("ResourceQuota").GroupKind(), q.Name, errs)
	}
	return nil
}

// validateCoreObject runs the create validation of a ConfigMap, Secret or
// ServiceAccount, after decoding's normalization (VAL-61, VAL-63).
func validateCoreObject(obj runtime.Object) field.ErrorList {
	switch o := obj.(type) {
	case *corev1.ConfigMap:
		return validation.ConfigMap(o)
	case *corev1.Secret:
		validation.NormalizeSecret(o)
		return validation.Secret(o)
	case *corev1.ServiceAccount:
		return validation.ServiceAccount(o)
	}
	return nil
}

// AddClusterObject makes a PriorityClass, StorageClass or RuntimeClass part of
// the simulated cluster for every object admitted afterwards (classes.Cluster.Add);
// callers add all of them before admitting anything. It returns false for other
// objects. Once Expect has settled the policies, adding one is a bug.
func (e *Engine) AddClusterObject(obj runtime.Object) bool {
	if e.settled != nil {
		panic("eval: a cluster class was added after Expect settled the policies")
	}
	return e.classes.Add(obj)
}

// addLiveClass is AddClusterObject for a class the cluster stores (CL-01),
// which is not validated again.
func (e *Engine) addLiveClass(obj runtime.Object) bool {
	if e.settled != nil {
		panic("eval: a cluster class was added after Expect settled the policies")
	}
	return e.classes.AddExisting(obj)
}

// IsInitialNamespace reports whether every cluster already has the namespace
// (kube-apiserver creates them): a Namespace document for it that is refused
// leaves it in place.
func IsInitialNamespace(name string) bool {
	return slices.Contains(InitialNamespaces, name)
}

// storageRefusesVersion reports whether storage would refuse to create an
// object sent with resourceVersion rv (ST-03): one that reads as a number
// other than 0.
func storageRefusesVersion(rv string) bool {
	v, err := strconv.ParseUint(rv, 10, 64)
	return err == nil && v != 0
}
