package eval

import (
	"fmt"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"maps"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/limitcheck/limitcheck/internal/eval/limitranger"
	"github.com/limitcheck/limitcheck/internal/eval/podsecurity"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Most of a Pod's admission depends on the Pod and on policies only: API
// defaulting, the mutating plugins (LimitRanger, ServiceAccount, Priority,
// RuntimeClass), validation, and LimitRanger's and RuntimeClass's checks.
// Once the caller has promised that no policy follows (Outlook.Settled),
// that part can run ahead, on any goroutine, while Admit goes on in input
// order: Prepare does it, AdmitPrepared admits the prepared Pod, and only
// quota, names and what follows stay in order. The result is the same as
// Admit's (check's FuzzPipeline compares the two).

// settled is what Prepare reads: fixed from Expect on.
type settled struct {
	limitRanges map[string][]*limitranger.Policy // by namespace
	podSecurity map[string]podsecurity.Policy    // by namespace
}

// settle fixes the policies Prepare reads.
func (e *Engine) settle() {
	s := &settled{limitRanges: map[string][]*limitranger.Policy{}, podSecurity: maps.Clone(e.podSecurity)}
	for name, ns := range e.namespaces {
		s.limitRanges[name] = ns.limitRanges
	}
	e.settled = s
}

// Prepared is a Pod's admission up to quota, done ahead by Prepare, or a
// CustomResourceDefinition's validation (PreparedCRD).
type Prepared struct {
	crd      *apiextensionsv1.CustomResourceDefinition
	crdCheck *CRDCheck

	pod    *corev1.Pod
	denial *status.Denial
	usage  corev1.ResourceList // the Pod's quota usage, when admitted so far
	// warnings are the create's (VAL-104); units, limitcheck's own on its
	// resources as written (unitWarnings)
	warnings, units []string
	panic           any // what Prepare panicked with
}

// Prepare runs a Pod's admission up to quota (beforeQuota), on policies
// Expect settled, and computes its quota usage. It is safe to call on any
// goroutine, for different objects, while the engine admits others. It
// returns nil, leaving obj as it was, for anything else: not a Pod,
// policies not settled, no name yet (generateName), a namespace no cluster
// can have. The engine owns obj from here on, as with Admit.
func (e *Engine) Prepare(obj runtime.Object) (p *Prepared) {
	s := e.settled
	pod, ok := obj.(*corev1.Pod)
	if s == nil || !ok || pod.Name == "" {
		return nil
	}
	ns := pod.Namespace
	if ns == "" {
		ns = e.opts.DefaultNamespace
	}
	if len(namecheck.IsDNS1123Label(ns)) > 0 {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			p = &Prepared{pod: pod, panic: r}
		}
	}()
	pod.Namespace = ns
	p = &Prepared{pod: pod, units: unitWarnings(pod)}
	p.denial = e.beforeQuota(ns, s.limitRanges[ns], e.opts.PodSecurity.Policy(ns, s.podSecurity), pod, &p.warnings)
	if p.denial == nil {
		p.usage = e.quota.UsageOf(podsResource, pod)
	}
	return p
}

// AdmitPrepared is Admit for an object Prepare has prepared (p nil: not
// prepared).
func (e *Engine) AdmitPrepared(obj runtime.Object, p *Prepared) Result {
	if p != nil && p.pod != nil && p.panic != nil {
		// Where Admit would have failed: in the Pod's namespace, now known.
		e.namespace(p.pod.Namespace)
		res := identify(obj)
		res.Internal = fmt.Sprintf("limitcheck failed on this object: %v", p.panic)
		return res
	}
	e.prep = p
	defer func() { e.prep = nil }()
	return e.Admit(obj)
}

// preparedCRD returns crd's validation, if AdmitPrepared was given it.
func (e *Engine) preparedCRD(crd *apiextensionsv1.CustomResourceDefinition) *CRDCheck {
	if p := e.prep; p != nil && p.crd == crd {
		e.prep = nil
		return p.crdCheck
	}
	return nil
}

// prepared returns pod's preparation, if AdmitPrepared was given it.
func (e *Engine) prepared(pod *corev1.Pod) *Prepared {
	if p := e.prep; p != nil && p.pod == pod {
		e.prep = nil // once: what pod's controllers create is not prepared
		return p
	}
	return nil
}
