package eval

import (
	"maps"
	"math"
	"slices"
	"sync/atomic"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/limitcheck/limitcheck/internal/eval/defaults"
	"github.com/limitcheck/limitcheck/internal/eval/status"
)

// What fits (FIT-01): how many replicas of a workload are admitted where it
// stands in the input, found by evaluating the workload on copies of the
// engine with its replica count replaced.

// Unbounded is the fit of a workload nothing limits: the most replicas a
// workload's spec can hold.
const Unbounded = math.MaxInt32

// fitBisections counts the fits found by bisection because the Unbounded
// probe's reading was not confirmed (never, so far: the tests check it).
var fitBisections atomic.Int64

// Fit is how far a workload scales where it stands in the input. Its
// replicas are spec.replicas for a Deployment, ReplicaSet,
// ReplicationController and StatefulSet (Options.Replicas when set), the
// nodes for a DaemonSet (Options.Nodes) and the parallelism for a Job or a
// CronJob's Job (Options.Parallelism); a Job starts no more Pods than its
// completions, so a parallelism beyond them always fits once they do.
type Fit struct {
	// Wanted is the replica count the workload asks for.
	Wanted int
	// Fit is the largest replica count with which the workload and everything
	// its controllers create are admitted; Unbounded when nothing limits it,
	// 0 when the workload is refused whatever its count.
	Fit int
	// Binding is what refuses replica Fit+1; nil when Unbounded.
	Binding *Binding
	// HPA is set for a workload an HPA of the input targets (FIT-04).
	HPA *FitHPA
}

// FitHPA is an HPA's range against what fits of its target.
type FitHPA struct {
	Name                     string
	MinReplicas, MaxReplicas int32
	// MaxFits says whether the target is admitted in full at maxReplicas.
	MaxFits bool
}

// Fits reports whether the workload is admitted with the replicas it wants
// (as many fit, and it is not refused whatever its count) and, when an HPA
// targets it, with the HPA's maxReplicas (FIT-04).
func (f *Fit) Fits() bool {
	return f.WantedFits() && (f.HPA == nil || f.HPA.MaxFits)
}

// WantedFits reports whether the workload is admitted with the replicas it
// wants, whatever its HPA's maxReplicas (FIT-04).
func (f *Fit) WantedFits() bool {
	return f.Wanted <= f.Fit && (f.Binding == nil || f.Binding.Replica > 0)
}

// Binding is the first refusal of a workload scaled one replica past its fit.
type Binding struct {
	// Replica is the refused replica (Fit+1), 0 when the workload itself or the
	// ReplicaSet or Job its controller creates first is refused.
	Replica int
	// Kind and Name identify the refused object; GenerateName is its prefix
	// when it was refused before it had a name (Result.UnnamedPrefix).
	Kind, Name, GenerateName string
	// Denial is its refusal; nil when limitcheck failed on it (Internal).
	Denial   *status.Denial
	Internal string
}

// Clone returns an engine in the state of e that evaluates objects without
// changing e: every namespace's quotas (their status included), stored
// objects, LimitRanges, orphan Pods and stored names, the ServiceAccounts
// the input refused or made to limit their Pods' secrets, and the Service
// allocations. Objects already admitted are shared: the engine never changes
// an object once it is stored.
func (e *Engine) Clone() *Engine {
	c := &Engine{opts: e.opts, classes: e.classes, quota: e.quota, order: slices.Clone(e.order), seeds: e.seeds, outlook: e.outlook, resourceIDs: maps.Clone(e.resourceIDs),
		namespaces:    make(map[string]*namespaceState, len(e.namespaces)),
		services:      serviceAllocations{ranges: e.services.ranges, ips: maps.Clone(e.services.ips), nodePorts: maps.Clone(e.services.nodePorts), next: e.services.next},
		clusterStored: e.clusterStored.clone(), clusterStoredSeeded: e.clusterStoredSeeded, refusedNamespaces: maps.Clone(e.refusedNamespaces), pending: maps.Clone(e.pending), newNamespaces: maps.Clone(e.newNamespaces),
		nsLabels: maps.Clone(e.nsLabels), podSecurity: maps.Clone(e.podSecurity), inputAccounts: e.inputAccounts}
	for name, ns := range e.namespaces {
		cn := &namespaceState{name: ns.name, stored: ns.stored.clone(), orphans: slices.Clone(ns.orphans),
			deployments: slices.Clone(ns.deployments), claimers: slices.Clone(ns.claimers), limitRanges: slices.Clone(ns.limitRanges), governed: ns.governed,
			claimTemplates: maps.Clone(ns.claimTemplates), refusedAccounts: maps.Clone(ns.refusedAccounts), enforcing: maps.Clone(ns.enforcing)}
		cn.Objects, cn.NoRecount, cn.ChargedBy = slices.Clone(ns.Objects), ns.NoRecount, maps.Clone(ns.ChargedBy)
		cn.Quotas = make([]*corev1.ResourceQuota, len(ns.Quotas))
		for i, q := range ns.Quotas {
			cn.Quotas[i] = q.DeepCopy()
		}
		c.namespaces[name] = cn
	}
	return c
}

// AdmitFit admits obj as Admit does and, for a workload whose controllers are
// simulated, also says how far it scales where it stands (nil otherwise):
// the workload is evaluated on copies of the engine as it was before obj,
// first with Unbounded replicas, which shows the first replica refused, then
// with that many and one fewer to confirm it; were the two ever to disagree,
// the count is found by bisection on copies. The engine itself goes on with
// the workload as written.
func (e *Engine) AdmitFit(obj runtime.Object) (Result, *Fit) {
	if _, path := defaults.PodTemplateOf(obj); path == "" || e.opts.DisableControllers {
		return e.Admit(obj), nil
	}
	// Admit takes ownership of obj, so the copies probe the input as written.
	orig := obj.DeepCopyObject()
	base := e.Clone()
	res := e.Admit(obj)
	if res.Skipped || res.Internal != "" {
		return res, nil
	}
	fit := &Fit{Wanted: e.wanted(obj)}
	fit.Fit, fit.Binding = base.fitOf(orig)
	return res, fit
}

// fitOf finds the fit of obj (as written) on copies of e.
func (e *Engine) fitOf(obj runtime.Object) (int, *Binding) {
	probe := func(n int) Result {
		c := e.Clone()
		count := int32(n)
		c.count = &count
		c.opts.EveryReplica = false // the arithmetic gives the same results (WL-03), at any count
		return c.Admit(obj.DeepCopyObject())
	}
	top := countLimit(obj)
	n, b := fitFrom(probe(top))
	if b == nil && top < Unbounded {
		// Admitted in full at the most its validation allows: one more is
		// the workload refused (an Indexed Job's parallelism, VAL-44).
		if _, b = fitFrom(probe(top + 1)); b != nil {
			b.Replica = top + 1
		}
		return top, b
	}
	if confirmFit(probe, n, b) {
		return n, b
	}
	fitBisections.Add(1)
	// Bisection: admitted in full is monotone in the count, as the replicas
	// a controller creates first do not depend on how many follow.
	lo, hi := -1, Unbounded+1 // lo admitted (or none), hi refused (or past the end)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if probe(mid).Allowed {
			lo = mid
		} else {
			hi = mid
		}
	}
	n = max(lo, 0)
	if hi > Unbounded {
		return n, nil
	}
	_, b = fitFrom(probe(hi))
	if b != nil && (b.Replica > 0 || lo >= 0) {
		// A workload admitted at lo and refused itself at hi (its
		// validation bounds the count) is refused at replica hi.
		b.Replica = hi
	}
	return n, b
}

// confirmFit reports whether n replicas are admitted in full and n+1 are
// refused with binding b (a workload refused whatever its count: 0 and 1 both).
func confirmFit(probe func(int) Result, n int, b *Binding) bool {
	if b == nil {
		return n == Unbounded // the Unbounded probe was admitted in full
	}
	if at := probe(n); at.Allowed == (b.Replica == 0) {
		return false
	}
	_, next := fitFrom(probe(n + 1))
	return next != nil && next.Replica == b.Replica && next.Kind == b.Kind && next.Internal == b.Internal &&
		(next.Denial == nil) == (b.Denial == nil) && (b.Denial == nil || next.Denial.Message == b.Denial.Message)
}

// newBinding is the Binding of r, a refused object.
func newBinding(r *Result) *Binding {
	return &Binding{Kind: r.Kind, Name: r.Name, GenerateName: r.UnnamedPrefix(), Denial: r.Denial, Internal: r.Internal}
}

// fitFrom reads, from a workload admitted with some replica count, how many
// replicas were admitted before the first refusal and that refusal.
func fitFrom(res Result) (int, *Binding) {
	refused := func(r *Result) *Binding {
		return newBinding(r)
	}
	if res.Denial != nil || res.Internal != "" {
		return 0, refused(&res)
	}
	w := res.Workload
	if w == nil {
		return Unbounded, nil
	}
	for i := range w.Created {
		c := &w.Created[i]
		if c.Allowed {
			continue
		}
		b := refused(c)
		if c.Replica == 0 {
			return 0, b
		}
		n := w.Adopted + c.Replica - 1
		b.Replica = n + 1
		return n, b
	}
	return Unbounded, nil
}

// wanted is the replica count a workload asks for (Fit.Wanted), read from
// the object as admitted (defaulted).
func (e *Engine) wanted(obj runtime.Object) int {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return int(e.scaled(o, o.Spec.Replicas))
	case *appsv1.ReplicaSet:
		return int(e.scaled(o, o.Spec.Replicas))
	case *corev1.ReplicationController:
		return int(e.scaled(o, o.Spec.Replicas))
	case *appsv1.StatefulSet:
		return int(e.scaled(o, o.Spec.Replicas))
	case *appsv1.DaemonSet:
		return e.nodes()
	case *batchv1.Job:
		return int(max(e.parallelism(&o.Spec), 0))
	case *batchv1.CronJob:
		return int(max(e.parallelism(&o.Spec.JobTemplate.Spec), 0))
	}
	return 0
}

// countLimit is the largest count a workload's own validation admits: an
// Indexed Job's (a CronJob's Indexed Job's) parallelism is at most 100000
// (VAL-44); Unbounded for the others.
func countLimit(obj runtime.Object) int {
	var spec *batchv1.JobSpec
	switch o := obj.(type) {
	case *batchv1.Job:
		spec = &o.Spec
	case *batchv1.CronJob:
		spec = &o.Spec.JobTemplate.Spec
	default:
		return Unbounded
	}
	if spec.CompletionMode != nil && *spec.CompletionMode == batchv1.IndexedCompletion {
		return maxIndexedParallelism
	}
	return Unbounded
}

// maxIndexedParallelism is job validation's bound on an Indexed Job's
// parallelism.
const maxIndexedParallelism = 100000
