package eval

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/utils/ptr"

	"github.com/limitcheck/limitcheck/internal/eval/defaults"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/eval/validation"
)

// Controller simulation: what the controller manager creates for an admitted
// workload, each created object run through the same admission pipeline, in the
// order the controllers create them.
//
// Names are the controllers' own (WL-08): a Deployment's ReplicaSet is
// "<deployment>-<pod-template-hash>", Pods are sent with the controller's
// generateName and named by the pipeline, GeneratedNameSuffix standing for the
// random part; StatefulSet Pods are "<set>-<ordinal>", their claims
// "<template>-<set>-<ordinal>". The Job of CronJob "nightly" is
// "nightly-xxxxxxxx", ScheduledMinutesPlaceholder standing for the minute.

// Workload is the part of a Result describing what the controllers created.
type Workload struct {
	// Replicas is the number of Pods the controllers want to run.
	Replicas int
	// Admitted counts the created Pods that were admitted.
	Admitted int
	// Created lists every object the controllers tried to create, in creation
	// order (a Deployment's ReplicaSet, a StatefulSet's claims, the Pods).
	Created []Result
	// NotCreated counts Pods a controller never got to create because an
	// earlier one failed: a StatefulSet, which waits for the refused Pod
	// (OrderedReady) or stops after the slow-start batch that holds it
	// (Parallel, WL-01), as Parallel says.
	NotCreated int
	Parallel   bool
	// Adopted counts the existing Pods a ReplicaSet or ReplicationController
	// adopted instead of creating them (WL-02); they are counted in Admitted.
	Adopted int
	// Note says why the controllers create fewer Pods than the spec asks for
	// (paused Deployment, suspended Job), if they do.
	Note string

	run replicaRun // where Created folds identical replicas (addStep)
}

// replicaRun tracks the replicas at the end of a created list that went
// alike: last and carrier are 1-based indexes into Created (0: none) of the
// last replica's first object and of the replica later ones fold into.
type replicaRun struct {
	last, carrier, alike int
}

// desiredPods is how many Pods the controllers of a workload want to run, and
// why it is fewer than the spec asks for, if it is (paused, suspended).
func (e *Engine) desiredPods(obj runtime.Object) (n int, note string) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		if o.Spec.Paused {
			return 0, "paused: the Deployment controller creates no ReplicaSet until it is resumed"
		}
		return int(e.scaled(o, o.Spec.Replicas)), ""
	case *appsv1.ReplicaSet:
		return int(e.scaled(o, o.Spec.Replicas)), ""
	case *corev1.ReplicationController:
		return int(e.scaled(o, o.Spec.Replicas)), ""
	case *appsv1.StatefulSet:
		return int(e.scaled(o, o.Spec.Replicas)), ""
	case *appsv1.DaemonSet:
		return e.nodes(), ""
	case *batchv1.Job:
		return e.jobPods(&o.Spec)
	case *batchv1.CronJob:
		if note := cronJobIdle(o); note != "" {
			return 0, note
		}
		return e.jobPods(&o.Spec.JobTemplate.Spec)
	}
	return 0, ""
}

// cronJobIdle says why the CronJob controller never creates a Job for cj,
// "" when it does (WL-11): suspended; a startingDeadlineSeconds of 0, which
// puts the earliest time it schedules at the present, so that every
// scheduled time is found missed; a schedule with no time that exists (the
// 30th of February), for which it records an InvalidSchedule event.
func cronJobIdle(cj *batchv1.CronJob) string {
	switch {
	case cj.Spec.Suspend != nil && *cj.Spec.Suspend:
		return "suspended: the CronJob controller creates no Job until it is resumed"
	case cj.Spec.StartingDeadlineSeconds != nil && *cj.Spec.StartingDeadlineSeconds == 0:
		return "startingDeadlineSeconds 0: the CronJob controller finds every scheduled time already past its deadline and creates no Job"
	case !validation.ScheduleFires(cj.Spec.Schedule):
		return fmt.Sprintf("schedule %q names no time that exists: the CronJob controller creates no Job (event InvalidSchedule: time difference between two schedules is less than 1 second)", cj.Spec.Schedule)
	}
	return ""
}

// jobPods: a new Job runs parallelism Pods at once, capped by completions when
// set (Job controller manageJob); none for a Job another controller manages
// (spec.managedBy: syncJob leaves it alone), none while suspended, and none when its
// activeDeadlineSeconds is 0: the first sync sets the start time and finds
// the deadline already past, so the Job fails with DeadlineExceeded before
// any Pod is created (WL-04).
func (e *Engine) jobPods(spec *batchv1.JobSpec) (int, string) {
	if m := spec.ManagedBy; m != nil && *m != batchv1.JobControllerName {
		return 0, fmt.Sprintf("managed by %s: the Job controller creates no Pods for it", *m)
	}
	if spec.Suspend != nil && *spec.Suspend {
		return 0, "suspended: the Job controller creates no Pods until it is resumed"
	}
	if spec.ActiveDeadlineSeconds != nil && *spec.ActiveDeadlineSeconds == 0 {
		return 0, "activeDeadlineSeconds 0: the Job controller fails the Job (DeadlineExceeded) before creating any Pod"
	}
	want := e.parallelism(spec)
	if spec.Completions != nil && *spec.Completions < want {
		want = *spec.Completions
	}
	return int(max(want, 0)), ""
}

// runControllers creates, for an admitted workload, what its controllers would.
func (e *Engine) runControllers(obj runtime.Object) *Workload {
	if t, _ := defaults.PodTemplateOf(obj); t == nil {
		return nil
	}
	n, note := e.desiredPods(obj)
	w := &Workload{Replicas: n, Note: note}
	switch o := obj.(type) {
	case *appsv1.Deployment:
		// The ReplicaSet of an unpaused Deployment is created whatever its
		// replica count, 0 included (deployment/sync.go getNewReplicaSet).
		if o.Spec.Paused {
			return w
		}
		if sel, err := metav1.LabelSelectorAsSelector(o.Spec.Selector); err == nil && !sel.Empty() {
			ns := e.namespace(o.Namespace)
			ns.deployments = append(ns.deployments, adopter{name: o.Name, sel: sel})
		}
		res := e.admitCreated(replicaSetFor(o, int32(n)), 0)
		w.Created = append(w.Created, res)
		if res.Allowed {
			rs := res.Object.(*appsv1.ReplicaSet)
			// Its ReplicaSet claims orphans too: a Pod exported from a
			// Deployment carries the same pod-template-hash (WL-02).
			sel, err := metav1.LabelSelectorAsSelector(rs.Spec.Selector)
			if err == nil {
				e.adopt(w, rs.Namespace, sel)
			}
			e.createPods(w, &rs.Spec.Template, rs.Namespace, rs.Name, n-w.Adopted, nil)
			if err == nil {
				e.addClaimer(rs.Namespace, "ReplicaSet", rs.Name, sel, w)
			}
			w.Note = releasedNote(o.Spec.Selector, rs.Labels, "Deployment", "ReplicaSet and its Pods", "ReplicaSet",
				appsv1.DefaultDeploymentUniqueLabelKey)
		}
	case *appsv1.ReplicaSet:
		if d := e.adoptingDeployment(o); d != "" {
			w.Replicas = 0
			w.Note = fmt.Sprintf("Deployment %q adopts this ReplicaSet (its selector matches the ReplicaSet's labels) and scales it down to 0: its Pods do not stay", d)
			return w
		}
		sel, err := metav1.LabelSelectorAsSelector(o.Spec.Selector)
		if err == nil {
			e.adopt(w, o.Namespace, sel)
		}
		e.createPods(w, &o.Spec.Template, o.Namespace, o.Name, n-w.Adopted, nil)
		if err == nil {
			e.addClaimer(o.Namespace, "ReplicaSet", o.Name, sel, w)
		}
	case *corev1.ReplicationController:
		sel := labels.SelectorFromValidatedSet(o.Spec.Selector)
		e.adopt(w, o.Namespace, sel)
		e.createPods(w, o.Spec.Template, o.Namespace, o.Name, n-w.Adopted, nil)
		e.addClaimer(o.Namespace, "ReplicationController", o.Name, sel, w)
	case *appsv1.DaemonSet:
		// The history first, whatever the nodes (daemonset constructHistory).
		hash := podTemplateHash(&o.Spec.Template)
		read := overTheWire(o).(*appsv1.DaemonSet)
		read.Spec.Template.Spec.DeprecatedServiceAccount = read.Spec.Template.Spec.ServiceAccountName
		rev := controllerRevision(o, o.Name+"-"+hash, hash, &o.Spec.Template, templatePatch(&read.Spec.Template))
		rev.Annotations = o.Annotations // snapshot copies the DaemonSet's
		if !e.createRevision(w, rev) {
			return w
		}
		e.createPods(w, &o.Spec.Template, o.Namespace, o.Name, n, nil)
		if sel := nodeChoice(&o.Spec.Template.Spec); sel != "" {
			nodes := fmt.Sprintf("each of the %d nodes it assumes (--nodes)", n)
			if n == 1 {
				nodes = "the one node it assumes (--nodes)"
			}
			w.Note = fmt.Sprintf("its Pods choose their nodes (%s): limitcheck runs one on %s, the cluster only on the nodes that match", sel, nodes)
		}
		if n > 0 {
			if note := releasedNote(o.Spec.Selector, daemonPodLabels(o), "DaemonSet", "Pods", "Pod",
				appsv1.DefaultDaemonSetUniqueLabelKey, daemonSetTemplateGenerationKey); note != "" {
				w.Note = strings.Join(slices.DeleteFunc([]string{w.Note, note}, func(s string) bool { return s == "" }), "; ")
			}
		}
	case *appsv1.StatefulSet:
		e.runStatefulSet(w, o)
	case *batchv1.Job:
		e.runJob(w, o, n)
	case *batchv1.CronJob:
		// The Job of an unsuspended CronJob is created even when it runs no
		// Pods: suspended, parallelism or completions 0 (cronjob_controllerv2.go
		// syncCronJob looks only at the CronJob's own suspend); none when
		// the CronJob never runs (WL-11).
		if cronJobIdle(o) != "" {
			return w
		}
		ns := e.namespace(o.Namespace)
		before := usedOf(ns.Quotas)
		job := jobFor(o)
		res := e.admitCreated(job, 0)
		w.Created = append(w.Created, res)
		if res.Allowed {
			e.runJob(w, res.Object.(*batchv1.Job), n)
		}
		if quotaMet(before, ns.Quotas, w.Created) {
			w.Note = fmt.Sprintf("the CronJob controller creates its Job at the next time schedule %q names, after kubectl has sent the rest of the input; limitcheck charges that Job and its Pods to the namespace's quotas here, before the objects that follow, which a cluster charges first: there a quota may admit one of those that is refused here and refuse the Job instead (Warning FailedCreate on the CronJob)", o.Spec.Schedule)
		}
	}
	return w
}

// usedOf copies the status.used of each quota, to tell afterwards whether
// something was charged to them (quotaMet).
func usedOf(quotas []*corev1.ResourceQuota) []corev1.ResourceList {
	used := make([]corev1.ResourceList, len(quotas))
	for i, q := range quotas {
		used[i] = q.Status.Used.DeepCopy()
	}
	return used
}

// quotaMet says whether what a controller created met a quota of the
// namespace (WL-13): one of created was refused by a quota, or a quota's
// status.used differs from before, its copy from before the controller ran
// (a controller creates no quota: before has one entry per quota).
func quotaMet(before []corev1.ResourceList, quotas []*corev1.ResourceQuota, created []Result) bool {
	for _, c := range created {
		if c.Denial != nil && c.Denial.Stage == status.StageQuota {
			return true
		}
	}
	for i, q := range quotas {
		if len(q.Status.Used) != len(before[i]) {
			return true
		}
		for name, v := range q.Status.Used {
			if old, ok := before[i][name]; !ok || old.Cmp(v) != 0 {
				return true
			}
		}
	}
	return false
}

// releasedNote is the warning for a workload whose selector does not match
// the labels its controller gives what it creates (WL-10): the selector
// names one of the keys the controller sets (a value copied from a running
// cluster's pod-template-hash or controller-revision-hash), so the
// controller releases each object it creates as not its own and, finding
// none, creates another, without end. "" when the selector matches.
func releasedNote(selector *metav1.LabelSelector, set map[string]string, controller, objects, object string, keys ...string) string {
	sel, err := metav1.LabelSelectorAsSelector(selector)
	if err != nil || sel.Matches(labels.Set(set)) {
		return ""
	}
	var given []string
	for _, k := range keys {
		given = append(given, k+"="+set[k])
	}
	return fmt.Sprintf("its selector does not match the labels the %s controller gives its %s (%s): the controller releases each %s it creates and creates another, without end, until a quota refuses them",
		controller, objects, strings.Join(given, ", "), object)
}

// daemonSetTemplateGenerationKey is the label the DaemonSet controller puts
// the template generation under (extensions/v1beta1 names it; apps/v1 does
// not).
const daemonSetTemplateGenerationKey = "pod-template-generation"

// daemonPodLabels are the labels the DaemonSet controller gives a new
// DaemonSet's Pods: the template's, the hash of the template under
// controller-revision-hash and the template generation, 1 (WL-10).
func daemonPodLabels(ds *appsv1.DaemonSet) map[string]string {
	set := withLabel(ds.Spec.Template.Labels, appsv1.DefaultDaemonSetUniqueLabelKey, podTemplateHash(&ds.Spec.Template))
	set[daemonSetTemplateGenerationKey] = "1"
	return set
}

// adopter is an admitted Deployment that claims orphan ReplicaSets its
// selector matches (WL-05).
type adopter struct {
	name string
	sel  labels.Selector
}

// adoptingDeployment is the Deployment controller's claim of an orphan
// ReplicaSet (WL-05): the first admitted, unpaused Deployment of the
// namespace, earlier in the input, whose selector matches the labels of a
// ReplicaSet that no controller owns. The Deployment keeps its own ReplicaSet
// as the new one and scales the adopted, older one down to 0.
func (e *Engine) adoptingDeployment(rs *appsv1.ReplicaSet) string {
	if metav1.GetControllerOfNoCopy(rs) != nil {
		return ""
	}
	for _, d := range e.namespace(rs.Namespace).deployments {
		if d.sel.Matches(labels.Set(rs.Labels)) {
			return d.name
		}
	}
	return ""
}

// nodeChoice says how a DaemonSet's Pod template limits the nodes it runs
// on (a nodeName, a nodeSelector, a required node affinity), or "" when
// it does not:
// the DaemonSet controller creates a Pod only for the nodes that match
// (WL-09).
func nodeChoice(spec *corev1.PodSpec) string {
	if spec.NodeName != "" {
		// The controller's predicates: a Pod that names its node fits no
		// other (NodeShouldRunDaemonPod), so at most one Pod runs.
		return "nodeName " + spec.NodeName
	}
	if len(spec.NodeSelector) > 0 {
		keys := slices.Sorted(maps.Keys(spec.NodeSelector))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + "=" + spec.NodeSelector[k]
		}
		return "nodeSelector " + strings.Join(parts, ",")
	}
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		return "a required node affinity"
	}
	return ""
}

// adopt is the ReplicaSet and ReplicationController controllers' claim of
// existing Pods (WL-02): every active Pod of the namespace that no controller
// owns and that the selector matches becomes the workload's, and only the rest
// of its replicas are created. An empty selector matches nothing. Pods adopted
// beyond the replica count would be deleted by the controller; limitcheck
// keeps charging them and says so.
func (e *Engine) adopt(w *Workload, namespace string, sel labels.Selector) {
	ns := e.namespace(namespace)
	if sel.Empty() {
		return
	}
	kept := ns.orphans[:0]
	for _, pod := range ns.orphans {
		if activePod(pod) && sel.Matches(labels.Set(pod.Labels)) {
			w.Adopted++
			continue
		}
		kept = append(kept, pod)
	}
	ns.orphans = kept
	w.Admitted += w.Adopted
	if extra := w.Adopted - w.Replicas; extra > 0 {
		w.Note = fmt.Sprintf("adopts %d existing Pods, %d more than its replicas: the controller deletes the surplus, which limitcheck keeps charged to quota", w.Adopted, extra)
	}
}

// claimer is an admitted ReplicaSet or ReplicationController: its
// controller goes on claiming the orphan Pods its selector matches, those of
// the input created after it too (WL-02).
type claimer struct {
	kind, name string
	sel        labels.Selector
	replicas   int // the replicas it wants
	pods       int // the Pods it has: admitted, adopted, claimed
}

// addClaimer records an admitted ReplicaSet or ReplicationController with
// what its controller did (w), for the Pods of the input after it.
func (e *Engine) addClaimer(namespace, kind, name string, sel labels.Selector, w *Workload) {
	if sel.Empty() {
		return
	}
	ns := e.namespace(namespace)
	ns.claimers = append(ns.claimers, claimer{kind: kind, name: name, sel: sel, replicas: w.Replicas, pods: w.Admitted})
}

// claim is the claim of a ReplicaSet or ReplicationController of the input
// on an orphan Pod the input creates after it (WL-02): the first whose
// selector matches the Pod's labels adopts it, and if it then has more Pods
// than replicas, deletes the surplus. The warning on the Pod that says so,
// or "" when no controller claims it.
func (ns *namespaceState) claim(pod *corev1.Pod) string {
	if !activePod(pod) {
		return ""
	}
	for i := range ns.claimers {
		c := &ns.claimers[i]
		if !c.sel.Matches(labels.Set(pod.Labels)) {
			continue
		}
		c.pods++
		adopts := fmt.Sprintf("%s %q, earlier in the input, adopts this Pod (its selector matches the Pod's labels and no controller owns the Pod)", c.kind, c.name)
		replicas := fmt.Sprintf("%d replicas", c.replicas)
		if c.replicas == 1 {
			replicas = "1 replica"
		}
		if c.pods > c.replicas {
			return fmt.Sprintf("%s and then has %d Pods for %s: its controller deletes the surplus, this Pod or one it created, which limitcheck keeps charged to quota", adopts, c.pods, replicas)
		}
		return fmt.Sprintf("%s: the Pod counts as one of its %s, in place of one its controller could not create", adopts, replicas)
	}
	return ""
}

// activePod reports whether a controller may claim pod: not finished, not
// being deleted (controller.FilterActivePods).
func activePod(pod *corev1.Pod) bool {
	return pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed && pod.DeletionTimestamp == nil
}

// parallelism is a Job's parallelism (default 1), or Options.Parallelism.
func (e *Engine) parallelism(spec *batchv1.JobSpec) int32 {
	switch {
	case e.count != nil:
		return *e.count
	case e.opts.Parallelism != nil:
		return max(*e.opts.Parallelism, 0)
	case spec.Parallelism != nil:
		return *spec.Parallelism
	}
	return 1
}

// writeParallelism writes the parallelism that replaces a Job's (a
// CronJob's Job's), Options.Parallelism or a fit probe's count, into the
// object as `kubectl patch` would, so that its validation sees it: an
// Indexed Job's is at most 100000 (VAL-44). A negative parallelism as
// written is left: validation refuses the Job whatever its count.
func (e *Engine) writeParallelism(obj runtime.Object) {
	var n int32
	switch {
	case e.count != nil:
		n = *e.count
	case e.opts.Parallelism != nil:
		n = max(*e.opts.Parallelism, 0)
	default:
		return
	}
	var p **int32
	switch o := obj.(type) {
	case *batchv1.Job:
		p = &o.Spec.Parallelism
	case *batchv1.CronJob:
		p = &o.Spec.JobTemplate.Spec.Parallelism
	default:
		return
	}
	if *p == nil || **p >= 0 {
		*p = &n
	}
}

// scaled is the replicas of a scalable workload obj: replicas, unless an
// HPA of Options.Scale targets obj (--scale, FIT-04).
func (e *Engine) scaled(obj runtime.Object, spec *int32) int32 {
	if e.count == nil && e.opts.Replicas == nil && len(e.opts.Scale) > 0 {
		if n, ok := e.opts.Scale[scaleTargetOf(obj)]; ok {
			return max(n, 0)
		}
	}
	return e.replicas(spec)
}

// replicas applies --replicas to a scalable workload; a negative count (a
// workload validation refuses, VAL-40) wants no Pods.
func (e *Engine) replicas(spec *int32) int32 {
	if e.count != nil {
		return *e.count
	}
	if e.opts.Replicas != nil {
		return max(*e.opts.Replicas, 0)
	}
	if spec == nil {
		return 1 // the API default
	}
	return max(*spec, 0)
}

func (e *Engine) nodes() int {
	if e.count != nil {
		return int(*e.count)
	}
	if e.opts.Nodes > 0 {
		return e.opts.Nodes
	}
	return 1
}

// createRevision creates the ControllerRevision a StatefulSet or DaemonSet
// controller records its template in before it creates anything else
// (WL-12). It is charged to quota (count/controllerrevisions.apps) and
// stored; it joins w.Created only when refused, and then the controller
// creates nothing more: its sync fails there, on every retry, with no event
// (the error is in the controller manager's log only).
func (e *Engine) createRevision(w *Workload, rev *appsv1.ControllerRevision) bool {
	res := e.admitCreated(rev, 0)
	if res.Allowed {
		return true
	}
	w.Created = append(w.Created, res)
	w.Note = "its ControllerRevision " + rev.Name + " is refused: the controller creates no Pod and records no event (only the controller manager's log says why)"
	return false
}

// admitCreated runs a controller-created object through the pipeline; replica is
// the 1-based ordinal of the Pod it belongs to (0 for ReplicaSets and Jobs).
func (e *Engine) admitCreated(obj runtime.Object, replica int) Result {
	res := e.admitObject(overTheWire(obj), false)
	res.Replica = replica
	if _, ok := obj.(*corev1.Pod); ok {
		res.Pod = res.Name
	}
	return res
}

// createPods creates n Pods from a template, as the ReplicaSet, ReplicationController,
// DaemonSet and Job controllers do (controller.GetPodFromTemplate): labels,
// annotations and finalizers of the template, its spec, the owner's namespace,
// and generateName "<owner>-" (decorate may change it), from which the
// apiserver names each Pod (PL-04).
func (e *Engine) createPods(w *Workload, t *corev1.PodTemplateSpec, namespace, owner string, n int, decorate func(*corev1.Pod, int)) {
	e.replicate(w, namespace, replicaPlan{n: n, create: func(i int) []Result {
		pod := podFromTemplate(t, namespace, owner+"-")
		if decorate != nil {
			decorate(pod, i)
		}
		res := e.admitCreated(pod, i+1)
		return append([]Result{res}, e.podDependents(&res, i+1)...)
	}})
}

// replicaPlan is how a controller creates the replicas of a workload.
type replicaPlan struct {
	n int // replicas to create, numbered 0 … n-1
	// firstOrdinal is the number in the name of replica 0 (a StatefulSet's
	// ordinals.start); names of replica i end in firstOrdinal+i.
	firstOrdinal int
	// create creates replica i: what the controller creates for it, in order.
	create func(i int) []Result
	// halt, when set, says after replica i whether the controller stops
	// creating (a StatefulSet after a refused Pod).
	halt func(i int, step []Result) bool
	// room, when set, is how many replicas from i on the controller creates
	// whatever happens to them (a StatefulSet finishing a batch).
	room func(i int) int
}

// replicate creates the replicas of a plan in order (WL-03). Replicas differ
// only in their name, so once a replica is created exactly as the ones
// before it (same outcome, messages equal but for the name), the following
// ones are computed instead of created: while every object of a replica is
// admitted, as many more replicas as every quota has room for
// (quota.Namespace.Repeat); once a replica is refused and changes nothing,
// every further one is refused the same way. Either run stops where names
// grow by a digit (a longer name may be refused where a shorter was not);
// the next replica is then created for real again.
func (e *Engine) replicate(w *Workload, namespace string, p replicaPlan) {
	ns := e.namespace(namespace)
	for i := 0; i < p.n; {
		before := ns.Snapshot()
		step := p.create(i)
		after := ns.Snapshot()
		folded := w.addStep(step)
		i++
		if p.halt != nil && p.halt(i-1, step) {
			w.NotCreated = p.n - i
			return
		}
		if !folded || i >= p.n || e.opts.EveryReplica {
			continue
		}
		admitted := allAdmitted(step)
		limit := min(p.n-i, sameDigits(i-1)-i, sameDigits(p.firstOrdinal+i-1)-(p.firstOrdinal+i))
		if p.room != nil {
			limit = min(limit, p.room(i))
		}
		var k int
		switch {
		case admitted:
			k = ns.Repeat(before, after, limit, !e.quota.Unenforced, nil)
		case p.halt == nil && before.Same(after):
			k = limit // refused, and refused again for the same reason
		case p.halt == nil && podCreated(step):
			// The Pod was admitted, a claim created for it refused (WL-06):
			// the next replica is the same while the Pods' charges fit and
			// touch nothing the refused claim asks for.
			k = ns.Repeat(before, after, limit, !e.quota.Unenforced, e.refusedUsage(step))
		}
		if k <= 0 {
			continue
		}
		w.repeatStep(step, k)
		ns.governed += k * governedIn(step)
		i += k
	}
}

// refusedUsage lists the quota resources of what step created and admission
// refused.
func (e *Engine) refusedUsage(step []Result) []corev1.ResourceName {
	var names []corev1.ResourceName
	for i := range step {
		r := &step[i]
		if r.Allowed || r.Object == nil {
			continue
		}
		gr := resourceIn(e.catalog(), schema.FromAPIVersionAndKind(r.APIVersion, r.Kind))
		for name := range e.quota.UsageOf(gr, r.Object) {
			names = append(names, name)
		}
	}
	return names
}

// sameDigits is the first number after x with more digits than x.
func sameDigits(x int) int {
	p := 10
	for p <= x {
		p *= 10
	}
	return p
}

// podRuns reports whether the replica of step runs: its Pod was created and
// admitted, and so was everything created for the Pod after it (WL-06: a
// Pod whose ephemeral volume claim or resource claim was refused stays
// Pending).
func podRuns(step []Result) bool {
	for i := range step {
		if step[i].Kind == "Pod" {
			return allAdmitted(step[i:])
		}
	}
	return false
}

// podCreated reports whether step created its Pod.
func podCreated(step []Result) bool {
	for i := range step {
		if step[i].Kind == "Pod" {
			return step[i].Allowed
		}
	}
	return false
}

// governedIn counts the Pods and PersistentVolumeClaims of step, the kinds a
// LimitRange governs.
func governedIn(step []Result) int {
	n := 0
	for i := range step {
		if k := step[i].Kind; k == "Pod" || k == "PersistentVolumeClaim" {
			n++
		}
	}
	return n
}

// podDependents creates what controllers create for an admitted Pod, in
// this order (WL-06): the ephemeral volume controller a
// PersistentVolumeClaim "<pod>-<volume>" per ephemeral volume, then the
// resource claim controller a ResourceClaim per claim the Pod takes from a
// ResourceClaimTemplate the input created in its namespace.
func (e *Engine) podDependents(res *Result, replica int) []Result {
	pod, ok := res.Object.(*corev1.Pod)
	if !ok || !res.Allowed || !hasDependents(pod) {
		return nil
	}
	uid := pod.UID
	if uid == "" {
		uid = defaults.GeneratedUID // the random UID the Pod was stored with
	}
	owner := []metav1.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: pod.Name, UID: uid, Controller: ptr.To(true)}}
	var out []Result
	add := func(obj runtime.Object) {
		r := e.admitCreated(obj, replica)
		r.Pod = pod.Name
		out = append(out, r)
	}
	for i := range pod.Spec.Volumes {
		v := &pod.Spec.Volumes[i]
		if v.Ephemeral == nil || v.Ephemeral.VolumeClaimTemplate == nil {
			continue
		}
		t := v.Ephemeral.VolumeClaimTemplate
		pvcOwner := slices.Clone(owner)
		pvcOwner[0].BlockOwnerDeletion = ptr.To(true)
		add(&corev1.PersistentVolumeClaim{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
			ObjectMeta: metav1.ObjectMeta{Name: pod.Name + "-" + v.Name, Namespace: pod.Namespace, OwnerReferences: pvcOwner,
				Labels: maps.Clone(t.Labels), Annotations: maps.Clone(t.Annotations)},
			Spec: *t.Spec.DeepCopy(),
		})
	}
	templates := e.namespace(pod.Namespace).claimTemplates
	for i := range pod.Spec.ResourceClaims {
		c := &pod.Spec.ResourceClaims[i]
		if c.ResourceClaimTemplateName == nil {
			continue
		}
		t := templates[*c.ResourceClaimTemplateName]
		if t == nil {
			// Not in the input: taken not to exist. The controller's sync
			// of the Pod fails here, before the Pod's later claims.
			break
		}
		annotations := maps.Clone(t.Spec.Annotations)
		if annotations == nil {
			annotations = map[string]string{}
		}
		annotations[resourcev1.PodResourceClaimAnnotation] = c.Name
		add(&resourcev1.ResourceClaim{
			TypeMeta: metav1.TypeMeta{APIVersion: "resource.k8s.io/v1", Kind: "ResourceClaim"},
			ObjectMeta: metav1.ObjectMeta{GenerateName: claimGenerateName(pod.Name, c.Name), Namespace: pod.Namespace,
				OwnerReferences: owner, Labels: maps.Clone(t.Spec.Labels), Annotations: annotations},
			Spec: *t.Spec.Spec.DeepCopy(),
		})
	}
	return out
}

// hasDependents reports whether a controller creates anything for pod: it
// has an ephemeral volume or a claim from a template.
func hasDependents(pod *corev1.Pod) bool {
	for i := range pod.Spec.Volumes {
		if pod.Spec.Volumes[i].Ephemeral != nil {
			return true
		}
	}
	for i := range pod.Spec.ResourceClaims {
		if pod.Spec.ResourceClaims[i].ResourceClaimTemplateName != nil {
			return true
		}
	}
	return false
}

// claimGenerateName is the resource claim controller's generateName for a
// Pod's claim: "<pod>-<claim>-", or, past 57 bytes, both names cut in
// proportion to their lengths and joined by "-".
func claimGenerateName(pod, claim string) string {
	const maxBase = 57
	g := pod + "-" + claim + "-"
	if len(g) <= maxBase {
		return g
	}
	return pod[:len(pod)*maxBase/len(g)] + "-" + claim[:len(claim)*maxBase/len(g)]
}

func allAdmitted(step []Result) bool {
	for i := range step {
		if !step[i].Allowed {
			return false
		}
	}
	return true
}

// CreatedListLimit is how many objects a workload's created list holds one by
// one; after it, replicas created exactly as the two before them are folded
// into the third (Result.Repeat), so a list stays short whatever the
// replica count (WL-03).
const CreatedListLimit = 100

// addStep records what the controller created for one replica and reports
// whether it was folded into the run of identical replicas before it.
func (w *Workload) addStep(step []Result) bool {
	if podRuns(step) {
		w.Admitted++
	}
	r := &w.run
	if r.carrier > 0 && alikeSteps(w.Created[r.carrier-1:], step) {
		for j := range step {
			w.Created[r.carrier-1+j].Repeat++
		}
		return true
	}
	r.carrier = 0
	start := len(w.Created)
	if r.last > 0 && alikeSteps(w.Created[r.last-1:], step) {
		r.alike++
	} else {
		r.alike = 1
	}
	w.Created = append(w.Created, step...)
	r.last = start + 1
	if r.alike >= 3 && start >= CreatedListLimit {
		r.carrier = start + 1
	}
	return false
}

// repeatStep records k more replicas created exactly as step, which was just
// folded into its run.
func (w *Workload) repeatStep(step []Result, k int) {
	for j := range step {
		w.Created[w.run.carrier-1+j].Repeat += k
	}
	if podRuns(step) {
		w.Admitted += k
	}
}

// alikeSteps reports whether b (one replica's creates) went exactly as a
// (the previous one's, at the end of the created list): same kinds and
// outcomes, messages and warnings equal once the names are swapped.
func alikeSteps(a, b []Result) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range b {
		if !alike(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

func alike(a, b *Result) bool {
	if a.Kind != b.Kind || a.APIVersion != b.APIVersion || a.Allowed != b.Allowed || a.Internal != b.Internal ||
		len(a.Warnings) != len(b.Warnings) || (a.Denial == nil) != (b.Denial == nil) {
		return false
	}
	swap := func(s string) string { return strings.ReplaceAll(s, `"`+a.Name+`"`, `"`+b.Name+`"`) }
	for i := range a.Warnings {
		if swap(a.Warnings[i]) != b.Warnings[i] {
			return false
		}
	}
	if a.Denial == nil {
		return true
	}
	da, db := a.Denial, b.Denial
	if da.Code != db.Code || da.Reason != db.Reason || da.Stage != db.Stage || swap(da.Message) != db.Message || len(da.Parts) != len(db.Parts) {
		return false
	}
	for i := range da.Parts {
		if swap(da.Parts[i]) != db.Parts[i] {
			return false
		}
	}
	return true
}

// podFromTemplate is the Pod a controller sends for template t:
// generateName is set, and the name left to the apiserver.
func podFromTemplate(t *corev1.PodTemplateSpec, namespace, generateName string) *corev1.Pod {
	pod := &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			GenerateName: generateName,
			Namespace:    namespace,
			Labels:       maps.Clone(t.Labels),
			Annotations:  maps.Clone(t.Annotations),
			Finalizers:   slices.Clone(t.Finalizers),
		},
	}
	t.Spec.DeepCopyInto(&pod.Spec)
	return pod
}

// replicaSetName is the name of a Deployment's ReplicaSet,
// "<deployment>-<hash>", the Deployment's name cut so that the whole fits a
// DNS subdomain (generateReplicaSetName; WL-08).
func replicaSetName(deployment, hash string) string {
	if room := utilvalidation.DNS1123SubdomainMaxLength - 1 - len(hash); len(deployment) > room && room > 0 {
		deployment = deployment[:room]
	}
	return deployment + "-" + hash
}

// replicaSetFor is the ReplicaSet the Deployment controller creates for a new
// Deployment (sync.go getNewReplicaSet): named "<deployment>-<hash>" after
// the hash of its template (podTemplateHash), which it also adds to the
// labels, the selector and the template's labels as pod-template-hash, and
// the replica count.
func replicaSetFor(d *appsv1.Deployment, replicas int32) *appsv1.ReplicaSet {
	hash := podTemplateHash(&d.Spec.Template)
	rs := &appsv1.ReplicaSet{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      replicaSetName(d.Name, hash),
			Namespace: d.Namespace,
		},
		Spec: appsv1.ReplicaSetSpec{
			Replicas:        &replicas,
			MinReadySeconds: d.Spec.MinReadySeconds,
			Selector:        d.Spec.Selector.DeepCopy(),
		},
	}
	d.Spec.Template.DeepCopyInto(&rs.Spec.Template)
	rs.Spec.Template.Labels = withLabel(d.Spec.Template.Labels, appsv1.DefaultDeploymentUniqueLabelKey, hash)
	rs.Labels = rs.Spec.Template.Labels
	if sel := rs.Spec.Selector; sel != nil {
		// labelsutil.CloneSelectorAndAddLabel: match labels only.
		sel.MatchLabels = withLabel(sel.MatchLabels, appsv1.DefaultDeploymentUniqueLabelKey, hash)
	}
	return rs
}

// withLabel is a copy of labels with key set to value.
func withLabel(labels map[string]string, key, value string) map[string]string {
	out := make(map[string]string, len(labels)+1)
	maps.Copy(out, labels)
	out[key] = value
	return out
}

// runStatefulSet creates, per ordinal, the claims of every volumeClaimTemplate and
// then the Pod (StatefulPodControl.CreateStatefulPod). With OrderedReady pod
// management the controller stops at the first ordinal that fails. With
// Parallel it works in slow-start batches of 1, 2, 4, … (at most 500) ordinals
// and stops after the batch in which one fails; every later sync starts again
// from the lowest ordinal, meets the same failure in the same batch, and so
// never reaches the ordinals after it (WL-01).
func (e *Engine) runStatefulSet(w *Workload, set *appsv1.StatefulSet) {
	start := 0
	if set.Spec.Ordinals != nil {
		start = int(set.Spec.Ordinals.Start)
	}
	ordered := set.Spec.PodManagementPolicy != appsv1.ParallelPodManagement
	w.Parallel = !ordered
	revision, hash, data := statefulSetRevisionData(set)
	if !e.createRevision(w, controllerRevision(set, revision, hash, &set.Spec.Template, data)) {
		return
	}
	stopAfter := -1 // Parallel: the last index of the batch in which a Pod failed
	ns := e.namespace(set.Namespace)
	claimsID, podsID := e.resourceID(corev1.Resource("persistentvolumeclaims")), e.resourceID(podsResource)
	adopted := map[int]bool{} // indexes whose Pod the input already has (WL-02)
	e.replicate(w, set.Namespace, replicaPlan{
		n:            w.Replicas,
		firstOrdinal: start,
		create: func(i int) []Result {
			ordinal := start + i
			podName := set.Name + "-" + strconv.Itoa(ordinal)
			var step []Result
			claimsOK := true
			for _, t := range claimTemplates(set) {
				claim := claimFor(set, t, ordinal)
				if ns.stored.has(claimsID, claim.Name) {
					continue // the input's claim of that name: used as it is
				}
				res := e.admitCreated(claim, i+1)
				res.Pod = podName
				step = append(step, res)
				claimsOK = claimsOK && res.Allowed
			}
			if claimsOK && ns.stored.has(podsID, podName) && e.adoptMember(ns, set, podName) {
				adopted[i] = true
				w.Adopted++
				w.Admitted++
				return step
			}
			// Another Pod of the name, which it cannot adopt, makes the
			// create fail after admission (ST-01): the controller's sync
			// stops there.
			if claimsOK {
				pod := podFromTemplate(&set.Spec.Template, set.Namespace, set.Name+"-")
				pod.Name = podName
				if pod.Labels == nil {
					pod.Labels = map[string]string{}
				}
				pod.Labels[appsv1.StatefulSetPodNameLabel] = podName
				pod.Labels[appsv1.PodIndexLabel] = strconv.Itoa(ordinal)
				pod.Labels[appsv1.StatefulSetRevisionLabel] = revision
				setPodIdentity(set, pod, ordinal)
				res := e.admitCreated(pod, i+1)
				step = append(step, res)
				step = append(step, e.podDependents(&res, i+1)...)
			}
			return step
		},
		halt: func(i int, step []Result) bool {
			// OrderedReady waits for each Pod to run, its claims created
			// (WL-06); Parallel stops only where a create failed.
			if adopted[i] {
				return stopAfter >= 0 && i >= stopAfter
			}
			if ordered && !podRuns(step) || !ordered && !podCreated(step) {
				if ordered {
					return true
				}
				if stopAfter < 0 {
					stopAfter = statefulSetBatchEnd(i)
				}
			}
			return stopAfter >= 0 && i >= stopAfter
		},
		room: func(i int) int {
			if stopAfter < 0 {
				return math.MaxInt
			}
			return stopAfter - i + 1
		},
	})
}

// adoptMember is the StatefulSet controller's claim of the input's Pod
// podName, one of set's ordinals (WL-02): an orphan, active Pod that the
// selector matches is adopted and not created again; it reports false for
// any other Pod of that name, whose name the create then finds taken.
func (e *Engine) adoptMember(ns *namespaceState, set *appsv1.StatefulSet, podName string) bool {
	sel, err := metav1.LabelSelectorAsSelector(set.Spec.Selector)
	if err != nil || sel.Empty() {
		return false
	}
	for i, pod := range ns.orphans {
		if pod.Name != podName {
			continue
		}
		if !activePod(pod) || !sel.Matches(labels.Set(pod.Labels)) {
			return false
		}
		ns.orphans = slices.Delete(ns.orphans, i, i+1)
		return true
	}
	return false
}

// statefulSetBatchEnd is the index of the last ordinal in the slow-start batch
// of ordinal index i: batches of 1, 2, 4, … 256 ordinals (511 in all), then
// of statefulSetMaxBatch.
func statefulSetBatchEnd(i int) int {
	if i < 511 {
		end := 0
		for size := 1; end < i; {
			size *= 2
			end += size
		}
		return end
	}
	return 511 + (i-511)/statefulSetMaxBatch*statefulSetMaxBatch + statefulSetMaxBatch - 1
}

// statefulSetMaxBatch is the largest slow-start batch of the StatefulSet
// controller (stateful_set_control.go MaxBatchSize).
const statefulSetMaxBatch = 500

// claimTemplates are set's volumeClaimTemplates as the StatefulSet controller
// uses them (getPersistentVolumeClaims keys them by name): one per name, in
// the order names first appear, each with the last template of its name, so
// that two templates of one name make one claim and one volume (WL-14).
func claimTemplates(set *appsv1.StatefulSet) []*corev1.PersistentVolumeClaim {
	out := make([]*corev1.PersistentVolumeClaim, 0, len(set.Spec.VolumeClaimTemplates))
	at := map[string]int{}
	for j := range set.Spec.VolumeClaimTemplates {
		t := &set.Spec.VolumeClaimTemplates[j]
		if i, ok := at[t.Name]; ok {
			out[i] = t
			continue
		}
		at[t.Name] = len(out)
		out = append(out, t)
	}
	return out
}

// claimFor is the claim a StatefulSet creates for one template and ordinal.
func claimFor(set *appsv1.StatefulSet, t *corev1.PersistentVolumeClaim, ordinal int) *corev1.PersistentVolumeClaim {
	claim := t.DeepCopy()
	claim.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"}
	claim.Name = fmt.Sprintf("%s-%s-%d", t.Name, set.Name, ordinal)
	claim.Namespace = set.Namespace
	claim.GenerateName = ""
	if set.Spec.Selector != nil && len(set.Spec.Selector.MatchLabels) > 0 {
		if claim.Labels == nil {
			claim.Labels = map[string]string{}
		}
		maps.Copy(claim.Labels, set.Spec.Selector.MatchLabels)
	}
	return claim
}

// runJob creates the n Pods a new Job starts with; an Indexed Job's Pods carry
// their completion index.
func (e *Engine) runJob(w *Workload, job *batchv1.Job, n int) {
	indexed := job.Spec.CompletionMode != nil && *job.Spec.CompletionMode == batchv1.IndexedCompletion
	e.createPods(w, &job.Spec.Template, job.Namespace, job.Name, n, func(pod *corev1.Pod, i int) {
		pod.Finalizers = appendIfMissing(pod.Finalizers, batchv1.JobTrackingFinalizer)
		if indexed {
			index := strconv.Itoa(i)
			if pod.Annotations == nil {
				pod.Annotations = map[string]string{}
			}
			pod.Annotations[batchv1.JobCompletionIndexAnnotation] = index
			if pod.Labels == nil {
				pod.Labels = map[string]string{}
			}
			pod.Labels[batchv1.JobCompletionIndexAnnotation] = index
			pod.Spec.Hostname = job.Name + "-" + index
			pod.GenerateName = indexedPodGenerateName(job.Name, i)
		}
	})
}

// indexedPodGenerateName is the Job controller's generateName for the Pod of
// completion index i: "<job>-<i>-", the job name cut so that the whole fits
// the 58 bytes the apiserver keeps.
func indexedPodGenerateName(job string, i int) string {
	suffix := "-" + strconv.Itoa(i) + "-"
	if len(job)+len(suffix) > maxGeneratedPrefix {
		job = job[:maxGeneratedPrefix-len(suffix)]
	}
	return job + suffix
}

func appendIfMissing(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// ScheduledMinutesPlaceholder stands for the scheduled time in minutes
// since 1970 that the CronJob controller appends to its Job's name (8 digits
// from 1989 to 2160): its length decides what validation makes of the name
// (an Indexed Job's "<job>-<index>" must be a DNS label).
const ScheduledMinutesPlaceholder = "xxxxxxxx"

// jobFor is the Job the CronJob controller creates from jobTemplate,
// "<cronjob>-<scheduled minute>" (getJobName).
func jobFor(cj *batchv1.CronJob) *batchv1.Job {
	job := &batchv1.Job{
		TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: metav1.ObjectMeta{
			Name:        cj.Name + "-" + ScheduledMinutesPlaceholder,
			Namespace:   cj.Namespace,
			Labels:      maps.Clone(cj.Spec.JobTemplate.Labels),
			Annotations: maps.Clone(cj.Spec.JobTemplate.Annotations),
		},
	}
	cj.Spec.JobTemplate.Spec.DeepCopyInto(&job.Spec)
	return job
}

// setPodIdentity is what the StatefulSet controller gives each Pod before
// creating it (initIdentity, updateStorage; VAL-10): its name as hostname,
// the service as subdomain, and a claim volume per volumeClaimTemplate
// replacing a template volume of the same name.
func setPodIdentity(set *appsv1.StatefulSet, pod *corev1.Pod, ordinal int) {
	pod.Spec.Hostname = pod.Name
	pod.Spec.Subdomain = set.Spec.ServiceName
	if len(set.Spec.VolumeClaimTemplates) == 0 {
		return
	}
	vols := make([]corev1.Volume, 0, len(set.Spec.VolumeClaimTemplates)+len(pod.Spec.Volumes))
	templates := map[string]bool{}
	for _, t := range claimTemplates(set) {
		templates[t.Name] = true
		vols = append(vols, corev1.Volume{Name: t.Name, VolumeSource: corev1.VolumeSource{
			PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: claimFor(set, t, ordinal).Name}}})
	}
	for _, v := range pod.Spec.Volumes {
		if !templates[v.Name] {
			vols = append(vols, v)
		}
	}
	pod.Spec.Volumes = vols
}
