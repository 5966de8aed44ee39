package conformance

import (
	"context"
	"encoding/json"
	"fmt"

	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apiserver/pkg/admission"
	genericadmissioninitializer "k8s.io/apiserver/pkg/admission/initializer"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	nodeapi "k8s.io/kubernetes/pkg/apis/node"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	nodevalidation "k8s.io/kubernetes/pkg/apis/node/validation"
	"k8s.io/kubernetes/pkg/apis/scheduling"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	schedulingvalidation "k8s.io/kubernetes/pkg/apis/scheduling/validation"
	"k8s.io/kubernetes/pkg/apis/storage"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	storagevalidation "k8s.io/kubernetes/pkg/apis/storage/validation"
	"k8s.io/kubernetes/plugin/pkg/admission/priority"
	"k8s.io/kubernetes/plugin/pkg/admission/runtimeclass"
	"k8s.io/kubernetes/plugin/pkg/admission/storage/storageclass/setdefault"
)

// classPlugins are upstream's Priority, DefaultStorageClass and RuntimeClass
// admission plugins (RQ-34), fed the case's class objects through informer
// stores (and, for RuntimeClass's live lookup, a fake clientset).
type classPlugins struct {
	client                     *fake.Clientset
	factory                    informers.SharedInformerFactory
	priority, storage, runtime admission.Interface
	// priorityKnown: the case has PriorityClasses. Without, limitcheck trusts
	// names it does not know, so the Priority plugin is not run for Pods that
	// name a class other than a system one.
	priorityKnown bool
	// runtimeKnown: the case has RuntimeClasses. Without, limitcheck trusts
	// a class a Pod names (no overhead, no node selector), so the
	// RuntimeClass plugin is not run for Pods that name one.
	runtimeKnown bool
}

// initializer hands plugins the client and informer factory, as kube-apiserver's
// generic initializer does.
type initializer struct {
	client  kubernetes.Interface
	factory informers.SharedInformerFactory
}

func (i initializer) Initialize(p admission.Interface) {
	if w, ok := p.(genericadmissioninitializer.WantsExternalKubeClientSet); ok {
		w.SetExternalKubeClientSet(i.client)
	}
	if w, ok := p.(genericadmissioninitializer.WantsExternalKubeInformerFactory); ok {
		w.SetExternalKubeInformerFactory(i.factory)
	}
}

func newClassPlugins() (*classPlugins, error) {
	c := &classPlugins{client: fake.NewSimpleClientset()}
	c.factory = informers.NewSharedInformerFactory(c.client, 0)
	plugins := admission.NewPlugins()
	priority.Register(plugins)
	setdefault.Register(plugins)
	runtimeclass.Register(plugins)
	init := initializer{client: c.client, factory: c.factory}
	var err error
	if c.priority, err = plugins.InitPlugin(priority.PluginName, nil, init); err != nil {
		return nil, err
	}
	if c.storage, err = plugins.InitPlugin(setdefault.PluginName, nil, init); err != nil {
		return nil, err
	}
	if c.runtime, err = plugins.InitPlugin(runtimeclass.PluginName, nil, init); err != nil {
		return nil, err
	}
	// The PriorityClasses kube-apiserver creates at start.
	for name, value := range map[string]int32{"system-cluster-critical": 2000000000, "system-node-critical": 2000001000} {
		pc := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value}
		legacyscheme.Scheme.Default(pc)
		if err := c.factory.Scheduling().V1().PriorityClasses().Informer().GetStore().Add(pc); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// IsClassDoc reports whether a document is a PriorityClass, StorageClass or
// RuntimeClass (cluster state, not admitted).
func IsClassDoc(doc []byte) bool {
	var tm metav1.TypeMeta
	if json.Unmarshal(doc, &tm) != nil {
		return false
	}
	switch tm.APIVersion + "/" + tm.Kind {
	case "scheduling.k8s.io/v1/PriorityClass", "storage.k8s.io/v1/StorageClass", "node.k8s.io/v1/RuntimeClass":
		return true
	}
	return false
}

// AddClass makes a class document part of the cluster (before any object is created).
func (u *Upstream) AddClass(doc []byte) error {
	var tm metav1.TypeMeta
	if err := json.Unmarshal(doc, &tm); err != nil {
		return err
	}
	c := u.classes
	switch tm.Kind {
	case "PriorityClass":
		pc := &schedulingv1.PriorityClass{}
		if err := json.Unmarshal(doc, pc); err != nil {
			return err
		}
		legacyscheme.Scheme.Default(pc)
		c.priorityKnown = true
		// Created as a document (VAL-72): the strategy's validation, then the
		// Priority plugin's (one globalDefault only); a refused one is not
		// in the cluster.
		internal := &scheduling.PriorityClass{}
		if err := legacyscheme.Scheme.Convert(pc, internal, nil); err != nil {
			return err
		}
		if len(schedulingvalidation.ValidatePriorityClass(internal)) > 0 {
			return nil
		}
		attrs := admission.NewAttributesRecord(internal, nil, scheduling.Kind("PriorityClass").WithVersion("v1"), "", pc.Name,
			scheduling.Resource("priorityclasses").WithVersion("v1"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
		if err := c.priority.(admission.ValidationInterface).Validate(context.Background(), attrs, nil); err != nil {
			return nil
		}
		store := c.factory.Scheduling().V1().PriorityClasses().Informer().GetStore()
		if _, taken, _ := store.GetByKey(pc.Name); taken {
			return nil // the 409 of a name taken: the first stays (ST-01)
		}
		return store.Add(pc)
	case "StorageClass":
		sc := &storagev1.StorageClass{}
		if err := json.Unmarshal(doc, sc); err != nil {
			return err
		}
		legacyscheme.Scheme.Default(sc)
		internal := &storage.StorageClass{}
		if err := legacyscheme.Scheme.Convert(sc, internal, nil); err != nil {
			return err
		}
		if len(storagevalidation.ValidateStorageClass(internal)) > 0 {
			return nil // refused (VAL-73): not in the cluster
		}
		store := c.factory.Storage().V1().StorageClasses().Informer().GetStore()
		if _, taken, _ := store.GetByKey(sc.Name); taken {
			return nil // the 409 of a name taken: the first stays (ST-01)
		}
		return store.Add(sc)
	case "RuntimeClass":
		rc := &nodev1.RuntimeClass{}
		if err := json.Unmarshal(doc, rc); err != nil {
			return err
		}
		legacyscheme.Scheme.Default(rc)
		c.runtimeKnown = true
		internal := &nodeapi.RuntimeClass{}
		if err := legacyscheme.Scheme.Convert(rc, internal, nil); err != nil {
			return err
		}
		if len(nodevalidation.ValidateRuntimeClass(internal)) > 0 {
			return nil // refused (VAL-74): not in the cluster
		}
		if _, err := c.client.NodeV1().RuntimeClasses().Create(context.Background(), rc, metav1.CreateOptions{}); apierrors.IsAlreadyExists(err) {
			return nil // the 409 of a name taken: the first stays (ST-01)
		} else if err != nil {
			return err
		}
		return c.factory.Node().V1().RuntimeClasses().Informer().GetStore().Add(rc)
	}
	return fmt.Errorf("not a class: %s", tm.Kind)
}

// admit runs the mutating plugins after LimitRanger: Priority, DefaultStorageClass,
// RuntimeClass (docs/behaviour.md Pipeline, RQ-34). It returns the error and the stage.
func (c *classPlugins) admit(ctx context.Context, attrs admission.Attributes) (string, error) {
	if pod, ok := attrs.GetObject().(*api.Pod); ok && c.runPriority(pod) {
		if err := c.priority.(admission.MutationInterface).Admit(ctx, attrs, nil); err != nil {
			return "priority", err
		}
	}
	if err := c.storage.(admission.MutationInterface).Admit(ctx, attrs, nil); err != nil {
		return "defaultstorageclass", err
	}
	if pod, ok := attrs.GetObject().(*api.Pod); ok && !c.runRuntimeClass(pod) {
		return "", nil
	}
	if err := c.runtime.(admission.MutationInterface).Admit(ctx, attrs, nil); err != nil {
		return "runtimeclass", err
	}
	return "", nil
}

// runRuntimeClass: limitcheck trusts a class it does not know, unless no
// class can have its name (the plugin's lookup then fails on any cluster).
func (c *classPlugins) runRuntimeClass(pod *api.Pod) bool {
	n := pod.Spec.RuntimeClassName
	return n == nil || c.runtimeKnown || *n != "" && len(utilvalidation.IsDNS1123Subdomain(*n)) > 0
}

func (c *classPlugins) runPriority(pod *api.Pod) bool {
	switch n := pod.Spec.PriorityClassName; n {
	case "", "system-cluster-critical", "system-node-critical":
		return true
	default:
		return c.priorityKnown || len(utilvalidation.IsDNS1123Subdomain(n)) > 0
	}
}

// validate runs RuntimeClass's validation (after LimitRanger's).
func (c *classPlugins) validate(ctx context.Context, attrs admission.Attributes) error {
	if pod, ok := attrs.GetObject().(*api.Pod); ok && !c.runRuntimeClass(pod) {
		return nil
	}
	return c.runtime.(admission.ValidationInterface).Validate(ctx, attrs, nil)
}
