// Package classes is the Priority, DefaultStorageClass and RuntimeClass
// admission plugins and the cluster classes they read. The plugins change
// what ResourceQuota sees (RQ-34, docs/behaviour.md Pipeline step 2): the default
// PriorityClass decides PriorityClass-scoped quotas, the default StorageClass the
// `<class>.storageclass.storage.k8s.io/*` names, a RuntimeClass's overhead the
// Pod's usage. They read cluster objects, which limitcheck takes from the input:
// every PriorityClass, StorageClass and RuntimeClass document applies to the whole
// run (they are cluster infrastructure, usually kept apart from the manifests).
//
// A cluster's set of classes is only known when the input has at least one of
// that kind: then a reference to a class not in the input is refused as the
// cluster refuses it. With none, references are taken on trust (no overhead, no
// default), since refusing every priorityClassName of every chart would be wrong.
package classes

import (
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/eval/validation"
	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// The PriorityClasses every cluster has (kube-apiserver creates them at start).
var systemPriorityClasses = func() []*schedulingv1.PriorityClass {
	preempt := corev1.PreemptLowerPriority
	return []*schedulingv1.PriorityClass{
		{ObjectMeta: metav1.ObjectMeta{Name: "system-cluster-critical"}, Value: 2000000000, PreemptionPolicy: &preempt},
		{ObjectMeta: metav1.ObjectMeta{Name: "system-node-critical"}, Value: 2000001000, PreemptionPolicy: &preempt},
	}
}()

// IsSystemPriorityClass reports whether a document is one of the
// PriorityClasses every cluster has, by name (kube-apiserver recreates them
// as they are).
func IsSystemPriorityClass(apiVersion, kind, name string) bool {
	if apiVersion != "scheduling.k8s.io/v1" || kind != "PriorityClass" {
		return false
	}
	for _, pc := range systemPriorityClasses {
		if pc.Name == name {
			return true
		}
	}
	return false
}

// noDefaultPriorityClass is what the Priority plugin gives a Pod when no
// class is the global default: priority 0, PreemptLowerPriority. Read only.
var noDefaultPriorityClass = func() *schedulingv1.PriorityClass {
	preempt := corev1.PreemptLowerPriority
	return &schedulingv1.PriorityClass{PreemptionPolicy: &preempt}
}()

// Default StorageClass annotations (storage/util IsDefaultAnnotation).
const (
	isDefaultStorageClassAnnotation     = "storageclass.kubernetes.io/is-default-class"
	betaIsDefaultStorageClassAnnotation = "storageclass.beta.kubernetes.io/is-default-class"
)

// Cluster is the simulated cluster's classes, as the plugins read them; the
// engine holds one for the whole run.
type Cluster struct {
	priority      []*schedulingv1.PriorityClass // from the input; the system ones are implied
	storage       []*storagev1.StorageClass
	runtime       []*nodev1.RuntimeClass
	priorityKnown bool
	runtimeKnown  bool
	// liveRead: the classes of a live cluster were added (AddExisting).
	liveRead bool
	// refused holds the classes kube-apiserver would not create (VAL-72..74),
	// with their denial; they are not part of the cluster.
	refused map[runtime.Object]*status.Denial
}

// IsClusterClass reports whether a kind is one of the cluster objects the
// plugins read (PriorityClass, StorageClass, RuntimeClass).
func IsClusterClass(apiVersion, kind string) bool {
	switch apiVersion + "/" + kind {
	case "scheduling.k8s.io/v1/PriorityClass", "storage.k8s.io/v1/StorageClass", "node.k8s.io/v1/RuntimeClass":
		return true
	}
	return false
}

// Add makes a PriorityClass, StorageClass or RuntimeClass part of the simulated
// cluster for every object admitted afterwards; callers add all of them before
// admitting anything. It returns false for other objects. A class is defaulted
// and validated as kube-apiserver creates it; one it would refuse is left out
// of the cluster, its denial kept for Refusal.
func (c *Cluster) Add(obj runtime.Object) bool { return c.add(obj, true) }

// AddExisting is Add for a class the cluster already stores (CL-01): it is
// not validated again.
func (c *Cluster) AddExisting(obj runtime.Object) bool { return c.add(obj, false) }

func (c *Cluster) add(obj runtime.Object, validate bool) bool {
	if !validate {
		c.liveRead = true
	}
	var errs field.ErrorList
	var gk schema.GroupKind
	var name string
	switch o := obj.(type) {
	case *schedulingv1.PriorityClass:
		if o.PreemptionPolicy == nil { // scheduling/v1 SetDefaults_PriorityClass
			p := corev1.PreemptLowerPriority
			o.PreemptionPolicy = &p
		}
		if validate {
			errs, gk, name = validation.PriorityClass(o), schedulingv1.SchemeGroupVersion.WithKind("PriorityClass").GroupKind(), o.Name
			if len(errs) == 0 && o.GlobalDefault {
				if d := c.defaultPriorityClass(); d != nil {
					// The Priority plugin's validation (VAL-72): one default only.
					c.refuse(obj, status.Forbidden(status.StagePriority, schedulingv1.SchemeGroupVersion.WithResource("priorityclasses").GroupResource(), o.Name,
						[]error{fmt.Errorf("PriorityClass %s is already marked as default. Only one default can exist", d.Name)}))
					c.priorityKnown = true
					return true
				}
			}
		}
		if len(errs) == 0 && validate && c.refuseTaken(obj) {
			return true
		}
		if len(errs) == 0 {
			c.priority = append(c.priority, o)
		}
		c.priorityKnown = true
	case *storagev1.StorageClass:
		if o.ReclaimPolicy == nil { // storage/v1 SetDefaults_StorageClass
			p := corev1.PersistentVolumeReclaimDelete
			o.ReclaimPolicy = &p
		}
		if o.VolumeBindingMode == nil {
			m := storagev1.VolumeBindingImmediate
			o.VolumeBindingMode = &m
		}
		if validate {
			errs, gk, name = validation.StorageClass(o), storagev1.SchemeGroupVersion.WithKind("StorageClass").GroupKind(), o.Name
		}
		if len(errs) == 0 && validate && c.refuseTaken(obj) {
			return true
		}
		if len(errs) == 0 {
			c.storage = append(c.storage, o)
		}
	case *nodev1.RuntimeClass:
		if validate {
			errs, gk, name = validation.RuntimeClass(o), nodev1.SchemeGroupVersion.WithKind("RuntimeClass").GroupKind(), o.Name
		}
		if len(errs) == 0 && validate && c.refuseTaken(obj) {
			return true
		}
		if len(errs) == 0 {
			c.runtime = append(c.runtime, o)
		}
		c.runtimeKnown = true
	default:
		return false
	}
	if len(errs) > 0 {
		c.refuse(obj, status.Invalid(gk, name, errs))
	}
	return true
}

// taken reports whether a class of the input named as obj would be storage's
// 409 (ST-01): an earlier class of its kind has the name, or, for a
// PriorityClass, one of the system classes every cluster has. It is asked
// once the class passed validation and admission.
func (c *Cluster) taken(obj runtime.Object) (schema.GroupResource, string, bool) {
	switch o := obj.(type) {
	case *schedulingv1.PriorityClass:
		gr := schedulingv1.SchemeGroupVersion.WithResource("priorityclasses").GroupResource()
		if o.Name == "" {
			return gr, "", false
		}
		// Read from a live cluster, the system classes are among the
		// others, unless the input replaces them (CL-01).
		for _, pc := range systemPriorityClasses {
			if pc.Name == o.Name && !c.liveRead {
				return gr, o.Name, true
			}
		}
		return gr, o.Name, slices.ContainsFunc(c.priority, func(pc *schedulingv1.PriorityClass) bool { return pc.Name == o.Name })
	case *storagev1.StorageClass:
		gr := storagev1.SchemeGroupVersion.WithResource("storageclasses").GroupResource()
		return gr, o.Name, o.Name != "" && slices.ContainsFunc(c.storage, func(sc *storagev1.StorageClass) bool { return sc.Name == o.Name })
	case *nodev1.RuntimeClass:
		gr := nodev1.SchemeGroupVersion.WithResource("runtimeclasses").GroupResource()
		return gr, o.Name, o.Name != "" && slices.ContainsFunc(c.runtime, func(rc *nodev1.RuntimeClass) bool { return rc.Name == o.Name })
	}
	return schema.GroupResource{}, "", false
}

// refuseTaken refuses obj with storage's 409 when its name is taken; the
// class is then not part of the cluster.
func (c *Cluster) refuseTaken(obj runtime.Object) bool {
	gr, name, ok := c.taken(obj)
	if ok {
		c.refuse(obj, status.AlreadyExists(gr, name))
	}
	return ok
}

func (c *Cluster) refuse(obj runtime.Object, d *status.Denial) {
	if c.refused == nil {
		c.refused = map[runtime.Object]*status.Denial{}
	}
	c.refused[obj] = d
}

// Refusal is the denial of a class Add was given and kube-apiserver would
// not create, or nil.
func (c *Cluster) Refusal(obj runtime.Object) *status.Denial {
	return c.refused[obj]
}

// RequestName is the name admission errors show before the apiserver has
// generated one: the name, else generateName (admission extractResourceName).
func RequestName(meta *metav1.ObjectMeta) string { return requestName(meta) }

func requestName(meta *metav1.ObjectMeta) string {
	if meta.Name != "" {
		return meta.Name
	}
	if meta.GenerateName != "" {
		return meta.GenerateName
	}
	return "Unknown"
}

// AdmitPriority is the Priority plugin's mutation of a new Pod (priority
// admission.go admitPod): an empty priorityClassName gets the globalDefault
// class (the lowest value if several), the Pod gets the class's value and
// preemption policy, and a value or policy the Pod sets itself must match.
func (c *Cluster) AdmitPriority(pod *corev1.Pod) *status.Denial {
	deny := func(msg string) *status.Denial {
		return status.Forbidden(status.StagePriority, corev1.Resource("pods"), requestName(&pod.ObjectMeta), []error{fmt.Errorf("%s", msg)})
	}
	var class *schedulingv1.PriorityClass
	if pod.Spec.PriorityClassName == "" {
		class = c.defaultPriorityClass()
		if class == nil {
			class = noDefaultPriorityClass
		}
	} else {
		class = c.priorityClass(pod.Spec.PriorityClassName)
		if class == nil {
			if c.priorityKnown || !canExist(pod.Spec.PriorityClassName) {
				return deny(fmt.Sprintf("no PriorityClass with name %v was found", pod.Spec.PriorityClassName))
			}
			return nil // the cluster's classes are unknown: taken on trust
		}
	}
	pod.Spec.PriorityClassName = class.Name
	if pod.Spec.Priority != nil && *pod.Spec.Priority != class.Value {
		return deny(fmt.Sprintf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *pod.Spec.Priority, class.Value))
	}
	value := class.Value
	pod.Spec.Priority = &value
	if class.PreemptionPolicy != nil {
		if pod.Spec.PreemptionPolicy != nil && *pod.Spec.PreemptionPolicy != *class.PreemptionPolicy {
			return deny(fmt.Sprintf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", *pod.Spec.PreemptionPolicy, *class.PreemptionPolicy))
		}
		policy := *class.PreemptionPolicy
		pod.Spec.PreemptionPolicy = &policy
	}
	return nil
}

// Trusted says which classes an admitted pod names that the cluster is
// taken to have (AdmitPriority, AdmitRuntimeClass): its PriorityClass and
// RuntimeClass when the run knows no class of that kind, "" otherwise.
func (c *Cluster) Trusted(pod *corev1.Pod) (priority, runtime string) {
	if n := pod.Spec.PriorityClassName; n != "" && !c.priorityKnown && c.priorityClass(n) == nil {
		priority = n
	}
	if rc := pod.Spec.RuntimeClassName; rc != nil && *rc != "" && !c.runtimeKnown {
		runtime = *rc
		for _, known := range c.runtime {
			if known.Name == *rc {
				runtime = ""
			}
		}
	}
	return priority, runtime
}

// canExist reports whether a class can have the name: PriorityClasses and
// RuntimeClasses are named by DNS subdomains, so the plugins' lookup of any
// other name fails whatever the cluster holds.
func canExist(name string) bool { return len(namecheck.IsDNS1123Subdomain(name)) == 0 }

// defaultPriorityClass is the globalDefault class, the lowest value if
// several (a cluster can hold more than one when they were created at once:
// the plugin's check reads an informer's cache), or nil.
func (c *Cluster) defaultPriorityClass() *schedulingv1.PriorityClass {
	var class *schedulingv1.PriorityClass
	for _, pc := range c.priority {
		if pc.GlobalDefault && (class == nil || pc.Value < class.Value) {
			class = pc
		}
	}
	return class
}

func (c *Cluster) priorityClass(name string) *schedulingv1.PriorityClass {
	for _, list := range [][]*schedulingv1.PriorityClass{c.priority, systemPriorityClasses} {
		for _, pc := range list {
			if pc.Name == name {
				return pc
			}
		}
	}
	return nil
}

// DefaultStorageClass is the DefaultStorageClass plugin: a claim that asks for no
// class (no storageClassName, no beta annotation) gets the default class, the
// newest if several, then by name (setdefault Admit, util.GetDefaultClass).
func (c *Cluster) DefaultStorageClass(pvc *corev1.PersistentVolumeClaim) {
	if pvc.Spec.StorageClassName != nil {
		return
	}
	if _, ok := pvc.Annotations[corev1.BetaStorageClassAnnotation]; ok {
		return
	}
	var def *storagev1.StorageClass
	for _, sc := range c.storage {
		if sc.Annotations[isDefaultStorageClassAnnotation] != "true" && sc.Annotations[betaIsDefaultStorageClassAnnotation] != "true" {
			continue
		}
		if def == nil || sc.CreationTimestamp.After(def.CreationTimestamp.Time) ||
			(sc.CreationTimestamp.Equal(&def.CreationTimestamp) && sc.Name < def.Name) {
			def = sc
		}
	}
	if def != nil {
		name := def.Name
		pvc.Spec.StorageClassName = &name
	}
}

// runtimeClassFor looks up the Pod's RuntimeClass; nil with no runtimeClassName
// or when the cluster's classes are unknown.
func (c *Cluster) runtimeClassFor(pod *corev1.Pod) (*nodev1.RuntimeClass, *status.Denial) {
	if pod.Spec.RuntimeClassName == nil {
		return nil, nil
	}
	for _, rc := range c.runtime {
		if rc.Name == *pod.Spec.RuntimeClassName {
			return rc, nil
		}
	}
	if name := *pod.Spec.RuntimeClassName; !c.runtimeKnown && (name == "" || canExist(name)) {
		return nil, nil // the cluster's classes are unknown: taken on trust
	}
	return nil, status.Forbidden(status.StageRuntimeClass, corev1.Resource("pods"), requestName(&pod.ObjectMeta),
		[]error{fmt.Errorf("pod rejected: RuntimeClass %q not found", *pod.Spec.RuntimeClassName)})
}

// AdmitRuntimeClass is the RuntimeClass plugin's mutation (runtimeclass Admit):
// the class's overhead becomes the Pod's (a different one set by the Pod is
// refused) and its nodeSelector is merged into the Pod's.
func (c *Cluster) AdmitRuntimeClass(pod *corev1.Pod) *status.Denial {
	rc, d := c.runtimeClassFor(pod)
	if rc == nil {
		return d
	}
	deny := func(err error) *status.Denial {
		return status.Forbidden(status.StageRuntimeClass, corev1.Resource("pods"), requestName(&pod.ObjectMeta), []error{err})
	}
	if rc.Overhead != nil {
		if len(pod.Spec.Overhead) > 0 && !equality.Semantic.DeepEqual(rc.Overhead.PodFixed, pod.Spec.Overhead) {
			return deny(fmt.Errorf("pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"))
		}
		pod.Spec.Overhead = rc.Overhead.PodFixed.DeepCopy()
	}
	if rc.Scheduling != nil && len(rc.Scheduling.NodeSelector) > 0 {
		if pod.Spec.NodeSelector == nil {
			pod.Spec.NodeSelector = map[string]string{}
		}
		keys := make([]string, 0, len(rc.Scheduling.NodeSelector))
		for k := range rc.Scheduling.NodeSelector {
			keys = append(keys, k)
		}
		slices.Sort(keys) // upstream reports the first conflict in map order
		for _, k := range keys {
			want := rc.Scheduling.NodeSelector[k]
			if have, ok := pod.Spec.NodeSelector[k]; ok && have != want {
				return deny(fmt.Errorf("conflict: runtimeClass.scheduling.nodeSelector[%s] = %s; pod.spec.nodeSelector[%s] = %s", k, want, k, have))
			}
			pod.Spec.NodeSelector[k] = want
		}
	}
	if rc.Scheduling != nil {
		pod.Spec.Tolerations = mergeTolerations(pod.Spec.Tolerations, rc.Scheduling.Tolerations)
	}
	return nil
}

// mergeTolerations is the Pod's tolerations and then the class's, less every
// one that another tolerates a superset of (the first of two equal ones is
// kept): what the RuntimeClass plugin sets, before validation sees them, so
// a Pod's invalid toleration that the class's covers is gone.
func mergeTolerations(pod, class []corev1.Toleration) []corev1.Toleration {
	all := append(slices.Clip(pod), class...)
	var merged []corev1.Toleration
	for i, t := range all {
		redundant := slices.ContainsFunc(merged, func(m corev1.Toleration) bool { return tolerates(m, t) })
		for _, later := range all[i+1:] {
			redundant = redundant || !equality.Semantic.DeepEqual(t, later) && tolerates(later, t)
		}
		if !redundant {
			merged = append(merged, t)
		}
	}
	return merged
}

// tolerates reports whether toleration ss tolerates every taint t does.
func tolerates(ss, t corev1.Toleration) bool {
	if equality.Semantic.DeepEqual(ss, t) {
		return true
	}
	if t.Key != ss.Key && (ss.Key != "" || ss.Operator != corev1.TolerationOpExists) {
		return false // an empty key with Exists matches every key
	}
	if t.Effect != ss.Effect && ss.Effect != "" {
		return false // an empty effect matches every effect
	}
	if ss.Effect == corev1.TaintEffectNoExecute && ss.TolerationSeconds != nil &&
		(t.TolerationSeconds == nil || *t.TolerationSeconds > *ss.TolerationSeconds) {
		return false
	}
	switch ss.Operator {
	case corev1.TolerationOpEqual, "":
		return t.Operator == corev1.TolerationOpEqual && t.Value == ss.Value
	case corev1.TolerationOpExists:
		return true
	}
	return false
}

// ValidateRuntimeClass is the RuntimeClass plugin's validation: the Pod's
// overhead must be the class's, and a Pod without a class with overhead may not
// set one.
func (c *Cluster) ValidateRuntimeClass(pod *corev1.Pod) *status.Denial {
	rc, d := c.runtimeClassFor(pod)
	if d != nil {
		return d
	}
	deny := func(msg string) *status.Denial {
		return status.Forbidden(status.StageRuntimeClass, corev1.Resource("pods"), pod.Name, []error{fmt.Errorf("%s", msg)})
	}
	if rc != nil && rc.Overhead != nil {
		if !equality.Semantic.DeepEqual(rc.Overhead.PodFixed, pod.Spec.Overhead) {
			return deny("pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead")
		}
		return nil
	}
	if pod.Spec.Overhead != nil && (rc != nil || pod.Spec.RuntimeClassName == nil || c.runtimeKnown) {
		return deny("pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead")
	}
	return nil
}
