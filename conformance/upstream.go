// Package conformance runs kube-apiserver's own code (k8s.io/kubernetes v1.36.3 as a
// library) on generated cases and compares it with limitcheck's engine. It is a
// separate module so the limitcheck binary never links k8s.io/kubernetes.
package conformance

import (
	"context"
	"encoding/json"
	"net/netip"
	"reflect"
	"slices"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	resourcev1 "k8s.io/api/resource/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/managedfields"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apiserver/pkg/admission"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"
	storeerr "k8s.io/apiserver/pkg/storage/errors"
	"k8s.io/apiserver/pkg/storage/names"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/apiserver/pkg/warning"
	"k8s.io/client-go/informers"
	coreinformers "k8s.io/client-go/informers/core"
	corev1informers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes/fake"
	corev1listers "k8s.io/client-go/listers/core/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	"k8s.io/kubernetes/pkg/apis/batch"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	api "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	resourceinternal "k8s.io/kubernetes/pkg/apis/resource"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	"k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/replicaset"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/batch/cronjob"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
	"k8s.io/kubernetes/pkg/registry/core/event"
	"k8s.io/kubernetes/pkg/registry/core/limitrange"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/pod"
	"k8s.io/kubernetes/pkg/registry/core/podtemplate"
	"k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	resourcequotastrategy "k8s.io/kubernetes/pkg/registry/core/resourcequota"
	"k8s.io/kubernetes/pkg/registry/core/secret"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/core/serviceaccount"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/plugin/pkg/admission/limitranger"
	saplugin "k8s.io/kubernetes/plugin/pkg/admission/serviceaccount"
	"k8s.io/kubernetes/plugin/pkg/admission/storage/storageobjectinuseprotection"

	"github.com/limitcheck/limitcheck/internal/eval/quota"

	"github.com/limitcheck/limitcheck/internal/eval/defaults"
)

// Outcome is what kube-apiserver answered for one object.
type Outcome struct {
	Allowed bool
	Code    int32
	Reason  metav1.StatusReason
	Message string
	Stage   string
	// Object is the object as it would be stored (v1), for the kinds with a REST
	// strategy here (Pods, PVCs, LimitRanges, quotas, workloads).
	Object runtime.Object

	Kind, Name string
	// Replica is, for an object a controller created, the 1-based ordinal of the
	// Pod it was created for (0 for a ReplicaSet or Job), as eval.Result.Replica.
	Replica int
	// Workload is what the controllers of a workload created (nil for other
	// kinds, and for every kind with controllers off).
	Workload *WorkloadOutcome
	// Warnings are the create's warnings (VAL-104), each text once, as
	// kube-apiserver's warning recorder keeps them; for an object of the
	// input only.
	Warnings []string
}

// warnings is a warning.Recorder that keeps each text once.
type warnings struct{ list *[]string }

func (w warnings) AddWarning(_, text string) {
	if text != "" && !slices.Contains(*w.list, text) {
		*w.list = append(*w.list, text)
	}
}

// Upstream is a simulated kube-apiserver for one case: the real REST strategies
// and the real LimitRanger plugin, fed LimitRanges in a fixed (input) order.
type Upstream struct {
	limitRanges map[string][]*corev1.LimitRange
	plugin      *limitranger.LimitRanger
	quota       *quotaSim
	classes     *classPlugins
	// serviceAccounts is the ServiceAccount plugin (PL-11).
	serviceAccounts *saplugin.Plugin
	// storageProtection is the StorageObjectInUseProtection plugin (ST-02).
	storageProtection admission.MutationInterface
	// Controllers says whether and how admitted workloads are followed by
	// what their controllers create (workloads_upstream.go).
	Controllers ControllerOptions
	// stored holds the storage keys of the input's objects: a second create
	// of a key fails in storage after admission (ST-01). Objects controllers
	// create are not tracked: limitcheck's names for them are placeholders.
	stored map[string]bool
	// services allocates cluster IPs and node ports (service_upstream.go).
	services *serviceAlloc
	// seeded lists the namespaces given their initial objects (seedNamespace).
	seeded map[string]bool
	// orphans are the input's admitted Pods without a controller, per
	// namespace, until a ReplicaSet or ReplicationController adopts them.
	orphans map[string][]*corev1.Pod
	// podSecurity is the PodSecurity plugin (PS-01), reading the labels of
	// the namespaces AddNamespace created (nsLabels); refusedNamespaces are
	// those whose Namespace document was refused: they do not exist (NS-03).
	podSecurity       admission.ValidationInterface
	nsLabels          map[string]map[string]string
	refusedNamespaces map[string]bool
}

// SetGates sets feature gates of the upstream code (process-wide).
func SetGates(gates map[string]bool) error {
	return utilfeature.DefaultMutableFeatureGate.SetFromMap(gates)
}

// NewUpstream returns a fresh apiserver with no objects and the given
// ResourceQuota plugin configuration (nil: none).
func NewUpstream(cfg *quota.Configuration) (*Upstream, error) {
	qs, err := newQuotaSim(cfg)
	if err != nil {
		return nil, err
	}
	u := &Upstream{limitRanges: map[string][]*corev1.LimitRange{}, quota: qs}
	p, err := limitranger.NewLimitRanger(&limitranger.DefaultLimitRangerActions{})
	if err != nil {
		return nil, err
	}
	client := fake.NewSimpleClientset()
	real := informers.NewSharedInformerFactory(client, 0)
	p.SetExternalKubeClientSet(client)
	p.SetExternalKubeInformerFactory(orderedFactory{SharedInformerFactory: real, u: u})
	if err := p.ValidateInitialization(); err != nil {
		return nil, err
	}
	u.plugin = p
	if u.services, err = newServiceAlloc(nil); err != nil {
		return nil, err
	}
	if u.classes, err = newClassPlugins(); err != nil {
		return nil, err
	}
	u.serviceAccounts = newServiceAccountPlugin()
	if u.podSecurity, err = newPodSecurityPlugin(func(ns string) map[string]string { return u.nsLabels[ns] }); err != nil {
		return nil, err
	}
	plugins := admission.NewPlugins()
	storageobjectinuseprotection.Register(plugins)
	sp, err := plugins.InitPlugin(storageobjectinuseprotection.PluginName, nil, noInitializer{})
	if err != nil {
		return nil, err
	}
	u.storageProtection = sp.(admission.MutationInterface)
	return u, nil
}

type noInitializer struct{}

func (noInitializer) Initialize(admission.Interface) {}

// newServiceAccountPlugin is upstream's ServiceAccount admission plugin
// (PL-11) over a cluster where every account with a valid name exists, as
// limitcheck takes them on trust; an account no ServiceAccount can be named
// is not found. The token volume it mounts is left out (not simulated).
func newServiceAccountPlugin() *saplugin.Plugin {
	client := fake.NewSimpleClientset()
	client.PrependReactor("get", "serviceaccounts", func(action k8stesting.Action) (bool, runtime.Object, error) {
		get := action.(k8stesting.GetAction)
		if len(utilvalidation.IsDNS1123Subdomain(get.GetName())) > 0 {
			return true, nil, apierrors.NewNotFound(corev1.Resource("serviceaccounts"), get.GetName())
		}
		return true, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: get.GetName(), Namespace: get.GetNamespace()}}, nil
	})
	p := saplugin.NewServiceAccount()
	p.MountServiceAccountToken = false
	p.SetExternalKubeClientSet(client)
	p.SetExternalKubeInformerFactory(informers.NewSharedInformerFactory(client, 0))
	return p
}

// Create runs one JSON document through decode+defaulting, mutating admission,
// the REST strategy (PrepareForCreate, validation) and validating admission; a
// workload is then followed by what its controllers create (runControllers).
func (u *Upstream) Create(doc []byte, namespace string) (Outcome, error) {
	out, err := u.createOne(doc, namespace, true)
	if err != nil || u.Controllers.Disable || !isWorkload(out.Kind) {
		return out, err
	}
	err = u.runControllers(&out)
	return out, err
}

// createOne is Create without the controllers.
func (u *Upstream) createOne(doc []byte, namespace string, fromInput bool) (Outcome, error) {
	var tm metav1.TypeMeta
	if err := json.Unmarshal(doc, &tm); err != nil {
		return Outcome{}, err
	}
	var (
		ext      runtime.Object
		internal runtime.Object
		strategy rest.RESTCreateStrategy
		resource schema.GroupResource
	)
	gvk := schema.FromAPIVersionAndKind(tm.APIVersion, tm.Kind)
	switch tm.Kind {
	case "Pod":
		ext, internal, strategy, resource = &corev1.Pod{}, &api.Pod{}, pod.Strategy, api.Resource("pods")
	case "LimitRange":
		ext, internal, strategy, resource = &corev1.LimitRange{}, &api.LimitRange{}, limitrange.Strategy, api.Resource("limitranges")
	case "PersistentVolumeClaim":
		ext, internal, strategy, resource = &corev1.PersistentVolumeClaim{}, &api.PersistentVolumeClaim{}, persistentvolumeclaim.Strategy, api.Resource("persistentvolumeclaims")
	case "ResourceQuota":
		ext, internal, strategy, resource = &corev1.ResourceQuota{}, &api.ResourceQuota{}, resourcequotastrategy.Strategy, api.Resource("resourcequotas")
	case "Service": // VAL-60: allocation emulated (service_upstream.go)
		ext, internal, strategy, resource = &corev1.Service{}, &api.Service{}, service.Strategy, api.Resource("services")
	case "ConfigMap": // VAL-61
		ext, internal, strategy, resource = &corev1.ConfigMap{}, &api.ConfigMap{}, configmap.Strategy, api.Resource("configmaps")
	case "Secret":
		ext, internal, strategy, resource = &corev1.Secret{}, &api.Secret{}, secret.Strategy, api.Resource("secrets")
	case "ServiceAccount":
		ext, internal, strategy, resource = &corev1.ServiceAccount{}, &api.ServiceAccount{}, serviceaccount.Strategy, api.Resource("serviceaccounts")
	case "Event": // VAL-06: core v1 Events here; events.k8s.io ones in TestMiscValidationParity
		if tm.APIVersion == "v1" {
			ext, internal, strategy, resource = &corev1.Event{}, &api.Event{}, event.Strategy, api.Resource("events")
		} else {
			ext = &metav1.PartialObjectMetadata{}
			plural, _ := apimeta.UnsafeGuessKindToResource(gvk)
			resource = plural.GroupResource()
		}
	case "ResourceClaim": // VAL-32; no generated claim asks for admin access, which reads the namespace
		ext, internal, resource = &resourcev1.ResourceClaim{}, &resourceinternal.ResourceClaim{}, resourceinternal.Resource("resourceclaims")
		strategy = resourceclaim.NewStrategy(fake.NewClientset().CoreV1().Namespaces(), nil)
	case "Deployment":
		ext, internal, strategy, resource = &appsv1.Deployment{}, &apps.Deployment{}, deployment.Strategy, apps.Resource("deployments")
	case "ReplicaSet":
		ext, internal, strategy, resource = &appsv1.ReplicaSet{}, &apps.ReplicaSet{}, replicaset.Strategy, apps.Resource("replicasets")
	case "StatefulSet":
		ext, internal, strategy, resource = &appsv1.StatefulSet{}, &apps.StatefulSet{}, statefulset.Strategy, apps.Resource("statefulsets")
	case "DaemonSet":
		ext, internal, strategy, resource = &appsv1.DaemonSet{}, &apps.DaemonSet{}, daemonset.Strategy, apps.Resource("daemonsets")
	case "ReplicationController":
		ext, internal, strategy, resource = &corev1.ReplicationController{}, &api.ReplicationController{}, replicationcontroller.Strategy, api.Resource("replicationcontrollers")
	case "PodTemplate": // VAL-105
		ext, internal, strategy, resource = &corev1.PodTemplate{}, &api.PodTemplate{}, podtemplate.Strategy, api.Resource("podtemplates")
	case "Job":
		ext, internal, strategy, resource = &batchv1.Job{}, &batch.Job{}, job.Strategy, batch.Resource("jobs")
	case "CronJob":
		ext, internal, strategy, resource = &batchv1.CronJob{}, &batch.CronJob{}, cronjob.Strategy, batch.Resource("cronjobs")
	default:
		ext = &metav1.PartialObjectMetadata{}
		plural, _ := apimeta.UnsafeGuessKindToResource(gvk)
		resource = plural.GroupResource()
	}
	if err := json.Unmarshal(doc, ext); err != nil {
		return Outcome{}, err
	}
	if m, ok := ext.(metav1.Object); ok && fromInput {
		// kubectl create clears a resourceVersion before it sends the
		// object (cli-runtime Helper.CreateWithOptions, ST-03).
		m.SetResourceVersion("")
	}
	if internal != nil {
		legacyscheme.Scheme.Default(ext)
		if err := legacyscheme.Scheme.Convert(ext, internal, nil); err != nil {
			return Outcome{}, err
		}
	} else {
		internal = ext
	}
	meta := internal.(metav1.Object)
	if meta.GetNamespace() == "" {
		meta.SetNamespace(namespace)
	}
	dropUndecodableManagedFields(meta)
	ns := meta.GetNamespace()
	out := Outcome{Kind: tm.Kind, Name: meta.GetName()}
	if len(utilvalidation.IsDNS1123Label(ns)) > 0 || u.refusedNamespaces[ns] {
		// NamespaceLifecycle, the first admission plugin, refuses a create
		// into a namespace that does not exist. Every namespace of a case
		// exists but those no cluster can have, whose names are no DNS label
		// (NS-02): the plugin's lookup answers this NotFound (e2e/ checks it
		// against the real kube-apiserver).
		st := apierrors.NewNotFound(api.Resource("namespaces"), ns).Status()
		out.Code, out.Reason, out.Message, out.Stage = st.Code, st.Reason, st.Message, "namespacelifecycle"
		if isWorkload(tm.Kind) {
			out.Object, _ = toV1(internal, ext) // the replicas it would have run
		}
		return out, nil // nothing is stored: no object to compare

	}
	u.seedNamespace(ns)
	given := meta.GetName() // before name generation
	ctx := genericapirequest.WithNamespace(context.Background(), ns)
	if fromInput {
		ctx = warning.WithWarningRecorder(ctx, warnings{&out.Warnings})
	}
	// Declarative validation (RC, CronJob strategies) takes the API version from
	// the request info; without it, it fails internally (only logged) and its
	// rules go unchecked.
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: "create", APIGroup: gvk.Group, APIVersion: gvk.Version,
		Namespace: ns, Resource: resource.Resource, Name: meta.GetName(),
	})
	attrs := func() admission.Attributes {
		return admission.NewAttributesRecord(internal, nil, gvk, ns, meta.GetName(),
			resource.WithVersion(gvk.Version), "", admission.Create, &metav1.CreateOptions{}, false, requester)
	}
	deny := func(err error, stage string) (Outcome, error) {
		st, ok := err.(apierrors.APIStatus)
		if ok {
			s := st.Status()
			out.Code, out.Reason, out.Message = s.Code, s.Reason, s.Message
		} else {
			out.Code, out.Message = 500, err.Error()
		}
		out.Stage = stage
		return out, nil
	}

	// Mutating admission.
	if err := u.plugin.Admit(ctx, attrs(), nil); err != nil {
		return deny(err, "limitranger")
	}
	if _, isPod := internal.(*api.Pod); isPod {
		if err := u.serviceAccounts.Admit(ctx, attrs(), nil); err != nil {
			return deny(err, "serviceaccount")
		}
	}
	if stage, err := u.classes.admit(ctx, attrs()); err != nil {
		return deny(err, stage)
	}
	if err := u.storageProtection.Admit(ctx, attrs(), nil); err != nil {
		return deny(err, "storage")
	}
	// Store.Create: name generation, system fields, BeforeCreate (PrepareForCreate + Validate).
	if meta.GetGenerateName() != "" && meta.GetName() == "" {
		meta.SetName(upstreamGeneratedName(meta.GetGenerateName()))
	}
	out.Name = meta.GetName()
	if strategy != nil {
		rest.FillObjectMetaSystemFields(meta)
		meta.SetUID(types.UID(defaults.GeneratedUID)) // limitcheck's placeholder for the random UID (a Job's generated selector shows it)
		if svc, ok := internal.(*api.Service); ok {   // Store.BeginCreate
			finish, err := u.services.begin(svc)
			if err != nil {
				return deny(err, "validation")
			}
			defer func() { finish(out.Allowed) }()
		}
		err := rest.BeforeCreate(strategy, ctx, internal)
		out.Object, _ = toV1(internal, ext)
		if err != nil {
			return deny(err, "validation")
		}
	}
	// Validating admission: LimitRanger, PodSecurity, RuntimeClass, then
	// ResourceQuota.
	if err := u.plugin.Validate(ctx, attrs(), nil); err != nil {
		return deny(err, "limitranger")
	}
	if err := u.podSecurity.Validate(ctx, attrs(), nil); err != nil {
		return deny(err, "podsecurity")
	}
	if err := u.classes.validate(ctx, attrs()); err != nil {
		return deny(err, "runtimeclass")
	}
	stored := out.Object
	if stored == nil {
		if stored, _ = toV1(internal, ext); stored == nil {
			stored = internal
		}
	}
	if err := u.quota.check(attrs(), stored); err != nil {
		return deny(err, "quota")
	}
	// Storage: the registry turns the store's key-exists error into the 409.
	if fromInput && given != "" {
		key := "/" + resource.String() + "/" + ns + "/" + given
		if u.stored[key] {
			u.quota.unadmit(ns, resource, stored) // charged, but never stored: recounts miss it
			return deny(storeerr.InterpretCreateError(storage.NewKeyExistsError(key, 0), resource, given), "storage")
		}
		if u.stored == nil {
			u.stored = map[string]bool{}
		}
		u.stored[key] = true
	}
	out.Allowed = true
	if pod, ok := out.Object.(*corev1.Pod); ok && fromInput && metav1.GetControllerOf(pod) == nil {
		if u.orphans == nil {
			u.orphans = map[string][]*corev1.Pod{}
		}
		u.orphans[ns] = append(u.orphans[ns], pod)
	}
	switch tm.Kind {
	case "LimitRange":
		lr := out.Object.(*corev1.LimitRange)
		u.limitRanges[ns] = append(u.limitRanges[ns], lr)
	case "ResourceQuota":
		if err := u.quota.activate(out.Object.(*corev1.ResourceQuota)); err != nil {
			return Outcome{}, err
		}
	}
	return out, nil
}

// seedNamespace gives a namespace, when first used, the objects a cluster
// creates in every namespace (NS-01): the ConfigMap kube-root-ca.crt
// (root-ca-cert-publisher), the ServiceAccount default (serviceaccount
// controller) and, in namespace default, the Service, Endpoints and
// EndpointSlice kubernetes (kube-apiserver's controlplane controller).
func (u *Upstream) seedNamespace(ns string) {
	if u.seeded[ns] {
		return
	}
	if u.seeded == nil {
		u.seeded = map[string]bool{}
	}
	u.seeded[ns] = true
	add := func(gr schema.GroupResource, obj runtime.Object) {
		name := obj.(metav1.Object).GetName()
		if u.stored == nil {
			u.stored = map[string]bool{}
		}
		u.stored["/"+gr.String()+"/"+ns+"/"+name] = true
		u.quota.admit(ns, gr, obj)
	}
	om := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Name: name, Namespace: ns} }
	add(api.Resource("configmaps"), &corev1.ConfigMap{ObjectMeta: om("kube-root-ca.crt"), Data: map[string]string{"ca.crt": "-----BEGIN CERTIFICATE-----"}})
	add(api.Resource("serviceaccounts"), &corev1.ServiceAccount{ObjectMeta: om("default")})
	if ns == metav1.NamespaceDefault {
		add(api.Resource("services"), &corev1.Service{ObjectMeta: om("kubernetes"), Spec: corev1.ServiceSpec{
			Type: corev1.ServiceTypeClusterIP, ClusterIP: u.services.ranges[0].Masked().Addr().Next().String(),
			Ports: []corev1.ServicePort{{Name: "https", Port: 443, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(6443)}}}})
		add(api.Resource("endpoints"), &corev1.Endpoints{ObjectMeta: om("kubernetes")})
		add(schema.GroupResource{Group: "discovery.k8s.io", Resource: "endpointslices"}, &discoveryv1.EndpointSlice{ObjectMeta: om("kubernetes"), AddressType: discoveryv1.AddressTypeIPv4})
	}
}

// SetServiceCIDRs makes the cluster's service CIDRs ranges (one per IP
// family, the primary first), before anything is created.
func (u *Upstream) SetServiceCIDRs(ranges []netip.Prefix) error {
	alloc, err := newServiceAlloc(ranges)
	if err != nil {
		return err
	}
	u.services = alloc
	return nil
}

// toV1 converts the internal object back to the v1 type it was decoded from
// (ext), as storage would return it; nil for kinds decoded without an internal type.
func toV1(internal, ext runtime.Object) (runtime.Object, error) {
	if internal == ext {
		return nil, nil
	}
	out := reflect.New(reflect.TypeOf(ext).Elem()).Interface().(runtime.Object)
	err := legacyscheme.Scheme.Convert(internal, out, nil)
	return out, err
}

// orderedFactory hands the plugin a LimitRange lister that lists in input order
// (upstream's informer index is a map, so its order is random: LR-22).
type orderedFactory struct {
	informers.SharedInformerFactory
	u *Upstream
}

func (f orderedFactory) Core() coreinformers.Interface {
	return orderedCore{Interface: f.SharedInformerFactory.Core(), u: f.u}
}

type orderedCore struct {
	coreinformers.Interface
	u *Upstream
}

func (c orderedCore) V1() corev1informers.Interface {
	return orderedCoreV1{Interface: c.Interface.V1(), u: c.u}
}

type orderedCoreV1 struct {
	corev1informers.Interface
	u *Upstream
}

func (c orderedCoreV1) LimitRanges() corev1informers.LimitRangeInformer {
	return orderedInformer{real: c.Interface.LimitRanges(), u: c.u}
}

type orderedInformer struct {
	real corev1informers.LimitRangeInformer
	u    *Upstream
}

func (i orderedInformer) Informer() cache.SharedIndexInformer { return i.real.Informer() }
func (i orderedInformer) Lister() corev1listers.LimitRangeLister {
	return orderedLister{u: i.u}
}

type orderedLister struct{ u *Upstream }

func (l orderedLister) List(labels.Selector) ([]*corev1.LimitRange, error) {
	var all []*corev1.LimitRange
	for _, lrs := range l.u.limitRanges {
		all = append(all, lrs...)
	}
	return all, nil
}

func (l orderedLister) LimitRanges(ns string) corev1listers.LimitRangeNamespaceLister {
	return nsLister{u: l.u, ns: ns}
}

// nsLister lists one namespace's LimitRanges in the order they were created.
type nsLister struct {
	u  *Upstream
	ns string
}

func (l nsLister) List(labels.Selector) ([]*corev1.LimitRange, error) {
	return append([]*corev1.LimitRange(nil), l.u.limitRanges[l.ns]...), nil
}

func (l nsLister) Get(name string) (*corev1.LimitRange, error) {
	for _, lr := range l.u.limitRanges[l.ns] {
		if lr.Name == name {
			return lr, nil
		}
	}
	return nil, apierrors.NewNotFound(corev1.Resource("limitranges"), name)
}

// dropUndecodableManagedFields is what the create handler's field manager
// does before admission (FieldManager.UpdateNoErrors on an empty live
// object): managedFields in the reset form, or that it cannot decode, are
// replaced by its own entry, which validation accepts; decodable ones are
// kept. The manager's own entry is left out (it is always valid).
func dropUndecodableManagedFields(meta metav1.Object) {
	mf := meta.GetManagedFields()
	if len(mf) == 0 {
		return
	}
	if (len(mf) == 1 && reflect.DeepEqual(mf[0], metav1.ManagedFieldsEntry{})) || managedfields.ValidateManagedFields(mf) != nil {
		meta.SetManagedFields(nil)
	}
}

// upstreamGeneratedName is kube-apiserver's name generation
// (names.SimpleNameGenerator) with limitcheck's placeholder for the random
// characters: the base cut to names.MaxGeneratedNameLength first.
func upstreamGeneratedName(base string) string {
	if len(base) > names.MaxGeneratedNameLength {
		base = base[:names.MaxGeneratedNameLength]
	}
	return base + "xxxxx" // eval.GeneratedNameSuffix
}
