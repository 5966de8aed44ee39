package conformance

// The controller manager's side of a workload: what the Deployment, ReplicaSet,
// ReplicationController, DaemonSet, StatefulSet, Job and CronJob controllers of
// k8s.io/kubernetes v1.36.3 create for a newly admitted workload, each object
// run through Create (upstream admission) in creation order. Upstream code is
// called where it is exported; the rest follows the cited controller sources.
//
// Names are the cluster's: a Deployment's ReplicaSet "<deployment>-<pod
// template hash>", Pods from their generateName, whose random part is
// limitcheck's placeholder (createOne). A CronJob's Job is
// "<cronjob>-<scheduled minute>", the minute limitcheck's 8-character
// placeholder.
//
// Timing is left out, as limitcheck leaves it out: every Pod a controller wants
// is attempted in ordinal order, created Pods become ready at once (so an
// OrderedReady StatefulSet moves on), and a CronJob's first schedule comes.
// Upstream creates the Pods of one slow-start batch concurrently and retries a
// failed batch on later syncs; since Pods of one template are admitted alike,
// that changes which Pod of a batch is refused, not how many.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage/names"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/controller"
	daemonutil "k8s.io/kubernetes/pkg/controller/daemon/util"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"
	"k8s.io/kubernetes/pkg/controller/history"
	labelsutil "k8s.io/kubernetes/pkg/util/labels"

	"github.com/limitcheck/limitcheck/internal/eval"
)

// ControllerOptions are eval.Options' controller settings.
type ControllerOptions struct {
	Disable  bool   // workloads are object counts only
	Replicas *int32 // replaces spec.replicas of Deployments, ReplicaSets, RCs, StatefulSets
	Nodes    int    // nodes a DaemonSet runs on (default 1)
}

// WorkloadOutcome is what the controllers of one workload created (eval.Workload).
type WorkloadOutcome struct {
	Replicas   int       // Pods the controllers want
	Adopted    int       // existing Pods a ReplicaSet or RC claimed (WL-02)
	Admitted   int       // created Pods admitted, and the adopted ones
	NotCreated int       // Pods an OrderedReady StatefulSet never got to
	Created    []Outcome // every object created, in creation order
}

func isWorkload(kind string) bool {
	switch kind {
	case "Deployment", "ReplicaSet", "ReplicationController", "DaemonSet", "StatefulSet", "Job", "CronJob":
		return true
	}
	return false
}

// runControllers fills out.Workload for a workload; out.Object is the workload
// as stored (v1, defaulted by the REST strategy), set even when it was refused.
func (u *Upstream) runControllers(out *Outcome) error {
	w := &WorkloadOutcome{}
	out.Workload = w
	allowed := out.Allowed
	switch o := out.Object.(type) {
	case *appsv1.Deployment:
		return u.runDeployment(w, o, allowed)
	case *appsv1.ReplicaSet:
		w.Replicas = int(u.replicas(o.Spec.Replicas))
		if allowed {
			sel, err := metav1.LabelSelectorAsSelector(o.Spec.Selector)
			if err != nil {
				return err
			}
			if err := u.adopt(w, o, sel, appsv1.SchemeGroupVersion.WithKind("ReplicaSet")); err != nil {
				return err
			}
			return u.createPods(w, o.Namespace, max(w.Replicas-w.Adopted, 0), func(int) (*corev1.PodTemplateSpec, runtime.Object, string) { return &o.Spec.Template, o, "" })
		}
	case *corev1.ReplicationController:
		w.Replicas = int(u.replicas(o.Spec.Replicas))
		if allowed {
			sel := labels.Set(o.Spec.Selector).AsSelectorPreValidated()
			if err := u.adopt(w, o, sel, corev1.SchemeGroupVersion.WithKind("ReplicationController")); err != nil {
				return err
			}
			return u.createPods(w, o.Namespace, max(w.Replicas-w.Adopted, 0), func(int) (*corev1.PodTemplateSpec, runtime.Object, string) { return o.Spec.Template, o, "" })
		}
	case *appsv1.DaemonSet:
		w.Replicas = max(u.Controllers.Nodes, 1)
		if allowed {
			return u.runDaemonSet(w, o)
		}
	case *appsv1.StatefulSet:
		w.Replicas = int(u.replicas(o.Spec.Replicas))
		if allowed {
			return u.runStatefulSet(w, o)
		}
	case *batchv1.Job:
		w.Replicas = jobWantActive(o)
		if allowed {
			return u.runJob(w, o)
		}
	case *batchv1.CronJob:
		return u.runCronJob(w, o, allowed)
	default:
		return fmt.Errorf("%s %q: no stored object to run controllers on", out.Kind, out.Name)
	}
	return nil
}

// replicas: a negative count, which validation refuses, is reported as no Pods
// wanted (limitcheck's Workload.Replicas does the same).
func (u *Upstream) replicas(spec *int32) int32 {
	if u.Controllers.Replicas != nil {
		return max(*u.Controllers.Replicas, 0)
	}
	if spec == nil {
		return 1
	}
	return max(*spec, 0)
}

// adopt is replica_set.go syncReplicaSet's claim: the namespace's Pods,
// FilterActivePods, then PodControllerRefManager.ClaimPods with the
// controller's selector; the claimed Pods are the controller's from then on.
// The cluster's Pods here are the input's admitted Pods that no controller owns.
func (u *Upstream) adopt(w *WorkloadOutcome, owner metav1.Object, sel labels.Selector, kind schema.GroupVersionKind) error {
	ns := owner.GetNamespace()
	active := controller.FilterActivePods(klog.Background(), u.orphans[ns])
	m := controller.NewPodControllerRefManager(&controller.FakePodControl{}, owner, sel, kind, func(context.Context) error { return nil })
	claimed, err := m.ClaimPods(context.Background(), active)
	if err != nil {
		return err
	}
	var rest []*corev1.Pod
	for _, p := range u.orphans[ns] {
		if !slices.Contains(claimed, p) {
			rest = append(rest, p)
		}
	}
	if u.orphans != nil {
		u.orphans[ns] = rest
	}
	w.Adopted = len(claimed)
	w.Admitted += len(claimed)
	return nil
}

// createChild runs an object a controller creates through Create's admission
// (without controllers: the caller runs the next level itself).
func (u *Upstream) createChild(obj runtime.Object, namespace string, replica int) (Outcome, error) {
	doc, err := json.Marshal(obj)
	if err != nil {
		return Outcome{}, err
	}
	out, err := u.createOne(doc, namespace, false)
	out.Replica = replica
	return out, err
}

func (w *WorkloadOutcome) recordPod(out Outcome) {
	w.Created = append(w.Created, out)
	if out.Allowed {
		w.Admitted++
	}
}

// newPod is what a controller sends: controller.GetPodFromTemplate (labels,
// annotations, finalizers and spec of the template, generateName
// getPodsPrefix of the owner's name), generateName replaced when the
// controller gives its own (RealPodControl.CreatePodsWithGenerateName). The
// apiserver names it (createOne), with the placeholder for the random part.
func newPod(t *corev1.PodTemplateSpec, parent runtime.Object, generateName string) (*corev1.Pod, error) {
	pod, err := controller.GetPodFromTemplate(t, parent, nil)
	if err != nil {
		return nil, err
	}
	// RealPodControl.createPods refuses to send a Pod without labels.
	if len(pod.Labels) == 0 {
		return nil, fmt.Errorf("unable to create pods, no labels")
	}
	if generateName != "" {
		pod.GenerateName = generateName
	}
	pod.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}
	return pod, nil
}

// createPods creates n Pods, Pod i from the template, owner and generateName
// templateFor(i) returns ("": the owner's), as the ReplicaSet,
// ReplicationController, DaemonSet and Job controllers call
// RealPodControl.CreatePods.
func (u *Upstream) createPods(w *WorkloadOutcome, namespace string, n int, templateFor func(i int) (*corev1.PodTemplateSpec, runtime.Object, string)) error {
	for i := range n {
		t, parent, generateName := templateFor(i)
		pod, err := newPod(t, parent, generateName)
		if err != nil {
			return err
		}
		res, err := u.createChild(pod, namespace, i+1)
		if err != nil {
			return err
		}
		w.recordPod(res)
	}
	return nil
}

// runDeployment: syncDeployment (pkg/controller/deployment/deployment_controller.go)
// creates no ReplicaSet for a paused Deployment (sync → getAllReplicaSetsAndSyncRevision
// with createIfNotExisted=false); otherwise rolloutRolling/rolloutRecreate create
// the new ReplicaSet (sync.go getNewReplicaSet), whatever its replica count, and
// the ReplicaSet controller its Pods.
func (u *Upstream) runDeployment(w *WorkloadOutcome, d *appsv1.Deployment, allowed bool) error {
	if d.Spec.Paused {
		return nil
	}
	d = d.DeepCopy()
	n := u.replicas(d.Spec.Replicas)
	d.Spec.Replicas = &n
	w.Replicas = int(n)
	if !allowed {
		return nil
	}
	rs, err := newReplicaSet(d)
	if err != nil {
		return err
	}
	res, err := u.createChild(rs, d.Namespace, 0)
	if err != nil {
		return err
	}
	w.Created = append(w.Created, res)
	if !res.Allowed {
		return nil
	}
	stored := res.Object.(*appsv1.ReplicaSet)
	// The ReplicaSet controller (pkg/controller/replicaset/replica_set.go manageReplicas).
	return u.createPods(w, stored.Namespace, int(*stored.Spec.Replicas), func(int) (*corev1.PodTemplateSpec, runtime.Object, string) {
		return &stored.Spec.Template, stored, ""
	})
}

// newReplicaSet is pkg/controller/deployment/sync.go getNewReplicaSet for a
// Deployment with no ReplicaSets yet. The controller hashes the template as
// its informer decoded it from the apiserver's protobuf.
func newReplicaSet(d *appsv1.Deployment) (*appsv1.ReplicaSet, error) {
	wire, err := d.Marshal()
	if err != nil {
		return nil, err
	}
	read := &appsv1.Deployment{}
	if err := read.Unmarshal(wire); err != nil {
		return nil, err
	}
	hash := controller.ComputeHash(&read.Spec.Template, read.Status.CollisionCount)
	t := *d.Spec.Template.DeepCopy()
	t.Labels = labelsutil.CloneAndAddLabel(d.Spec.Template.Labels, appsv1.DefaultDeploymentUniqueLabelKey, hash)
	rs := &appsv1.ReplicaSet{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      d.Name + "-" + hash,
			Namespace: d.Namespace,
			Labels:    t.Labels,
		},
		Spec: appsv1.ReplicaSetSpec{
			Replicas:        new(int32),
			MinReadySeconds: d.Spec.MinReadySeconds,
			Selector:        labelsutil.CloneSelectorAndAddLabel(d.Spec.Selector, appsv1.DefaultDeploymentUniqueLabelKey, hash),
			Template:        t,
		},
	}
	n, err := deploymentutil.NewRSNewReplicas(d, []*appsv1.ReplicaSet{rs}, rs)
	if err != nil {
		return nil, err
	}
	*rs.Spec.Replicas = n
	deploymentutil.SetNewReplicaSetAnnotations(context.Background(), d, rs, "1", false, 2000)
	return rs, nil
}

// runDaemonSet: pkg/controller/daemon/daemon_controller.go syncNodes, one Pod per
// node needing one (util.CreatePodTemplate adds the daemon tolerations and the
// generation and hash labels; the node is pinned by node affinity).
func (u *Upstream) runDaemonSet(w *WorkloadOutcome, ds *appsv1.DaemonSet) error {
	generation, err := daemonutil.GetTemplateGeneration(ds)
	if err != nil {
		return err
	}
	template := daemonutil.CreatePodTemplate(ds.Spec.Template, generation, controller.ComputeHash(&ds.Spec.Template, ds.Status.CollisionCount))
	return u.createPods(w, ds.Namespace, w.Replicas, func(i int) (*corev1.PodTemplateSpec, runtime.Object, string) {
		t := template.DeepCopy()
		t.Spec.Affinity = daemonutil.ReplaceDaemonSetPodNodeNameNodeAffinity(t.Spec.Affinity, fmt.Sprintf("node-%d", i))
		return t, ds, ""
	})
}

// runStatefulSet: per ordinal, pkg/controller/statefulset/stateful_pod_control.go
// CreateStatefulPod: createPersistentVolumeClaims creates every missing claim
// (going on past a failed one), then the Pod only if all claims were created.
// stateful_set_control.go runForAll/processReplica: with OrderedReady
// (monotonic) the sync stops at the first ordinal that fails.
func (u *Upstream) runStatefulSet(w *WorkloadOutcome, set *appsv1.StatefulSet) error {
	set = set.DeepCopy()
	n := int32(w.Replicas)
	set.Spec.Replicas = &n
	start := 0 // stateful_set_utils.go getStartOrdinal
	if set.Spec.Ordinals != nil {
		start = int(set.Spec.Ordinals.Start)
	}
	monotonic := set.Spec.PodManagementPolicy != appsv1.ParallelPodManagement // allowsBurst
	revision, err := statefulSetRevision(set)
	if err != nil {
		return err
	}
	// runForAll without monotonic is slowStartBatch(1, replicas, fn): batches
	// of 1, 2, 4, … (MaxBatchSize 500), stopping after a batch with an error.
	// Inside a batch the controller runs fn concurrently; here in index order.
	batchSize, batchLeft, batchFailed := 0, 0, false
	for i := range w.Replicas {
		if !monotonic && batchLeft == 0 {
			if batchFailed {
				w.NotCreated = w.Replicas - i
				break
			}
			remaining := w.Replicas - i
			if batchSize == 0 {
				batchSize = min(remaining, 1)
			} else {
				batchSize = min(min(2*batchSize, remaining), 500)
			}
			batchLeft = batchSize
		}
		batchLeft--
		ordinal := start + i
		pod, err := newStatefulSetPod(set, revision.Name, ordinal)
		if err != nil {
			return err
		}
		claimsOK := true
		for _, claim := range statefulSetClaims(set, ordinal) {
			res, err := u.createChild(claim, set.Namespace, i+1)
			if err != nil {
				return err
			}
			w.Created = append(w.Created, res)
			claimsOK = claimsOK && res.Allowed
		}
		podOK := false
		if claimsOK {
			res, err := u.createChild(pod, set.Namespace, i+1)
			if err != nil {
				return err
			}
			w.recordPod(res)
			podOK = res.Allowed
		}
		if monotonic && !podOK {
			w.NotCreated = w.Replicas - i - 1
			break
		}
		batchFailed = batchFailed || !podOK
	}
	return nil
}

// newStatefulSetPod is stateful_set_utils.go newVersionedStatefulSetPod for a
// new set: newStatefulSetPod (GetPodFromTemplate, getPodName, initIdentity's
// pod-name and pod-index labels, hostname and subdomain, updateStorage's
// volume per claim template) and setPodRevision's label, the name of the
// set's first ControllerRevision (statefulSetRevision).
func newStatefulSetPod(set *appsv1.StatefulSet, revision string, ordinal int) (*corev1.Pod, error) {
	pod, err := controller.GetPodFromTemplate(&set.Spec.Template, set, nil)
	if err != nil {
		return nil, err
	}
	pod.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}
	pod.Name = fmt.Sprintf("%s-%d", set.Name, ordinal)
	pod.Namespace = set.Namespace
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels[appsv1.StatefulSetPodNameLabel] = pod.Name
	pod.Labels[appsv1.PodIndexLabel] = strconv.Itoa(ordinal)
	pod.Labels[appsv1.StatefulSetRevisionLabel] = revision
	pod.Spec.Hostname = pod.Name
	pod.Spec.Subdomain = set.Spec.ServiceName
	claims := statefulSetClaims(set, ordinal)
	volumes := make([]corev1.Volume, 0, len(claims)+len(pod.Spec.Volumes))
	templates := map[string]bool{}
	for j, claim := range claims {
		name := set.Spec.VolumeClaimTemplates[j].Name
		templates[name] = true
		volumes = append(volumes, corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{
			PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: claim.Name},
		}})
	}
	for _, v := range pod.Spec.Volumes {
		if !templates[v.Name] {
			volumes = append(volumes, v)
		}
	}
	pod.Spec.Volumes = volumes
	return pod, nil
}

// statefulSetRevision is the first ControllerRevision of a new set:
// stateful_set_control.go getStatefulSetRevisions calls newRevision (in
// stateful_set_utils.go) with the collision count 0, on the set as the
// controller reads it from the apiserver (a JSON encode and decode of the
// stored object). newRevision hashes getPatch's bytes, whose steps are
// repeated here (getPatch is unexported), with the controller's own codec.
func statefulSetRevision(stored *appsv1.StatefulSet) (*appsv1.ControllerRevision, error) {
	codec := clientscheme.Codecs.LegacyCodec(appsv1.SchemeGroupVersion)
	wire, err := runtime.Encode(codec, stored)
	if err != nil {
		return nil, err
	}
	set := &appsv1.StatefulSet{}
	if err := json.Unmarshal(wire, set); err != nil {
		return nil, err
	}
	data, err := runtime.Encode(codec, set)
	if err != nil {
		return nil, err
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	template := raw["spec"].(map[string]any)["template"].(map[string]any)
	template["$patch"] = "replace"
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"template": template}})
	if err != nil {
		return nil, err
	}
	var collisionCount int32
	return history.NewControllerRevision(set, appsv1.SchemeGroupVersion.WithKind("StatefulSet"), set.Spec.Template.Labels,
		runtime.RawExtension{Raw: patch}, 1, &collisionCount)
}

// statefulSetClaims is stateful_set_utils.go getPersistentVolumeClaims, in
// template order (upstream returns a map, so it creates them in random order).
func statefulSetClaims(set *appsv1.StatefulSet, ordinal int) []*corev1.PersistentVolumeClaim {
	var claims []*corev1.PersistentVolumeClaim
	for i := range set.Spec.VolumeClaimTemplates {
		claim := set.Spec.VolumeClaimTemplates[i].DeepCopy()
		claim.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"}
		claim.Name = fmt.Sprintf("%s-%s-%d", claim.Name, set.Name, ordinal) // getPersistentVolumeClaimName
		claim.Namespace = set.Namespace
		if claim.Labels != nil {
			for k, v := range set.Spec.Selector.MatchLabels {
				claim.Labels[k] = v
			}
		} else {
			claim.Labels = set.Spec.Selector.MatchLabels
		}
		claims = append(claims, claim)
	}
	return claims
}

// jobWantActive is pkg/controller/job/job_controller.go manageJob for a new Job
// (no active or succeeded Pods): none while suspended, else parallelism capped
// by completions when set.
func jobWantActive(job *batchv1.Job) int {
	// syncJob leaves a Job of another controller alone (managedByExternalController).
	if m := job.Spec.ManagedBy; m != nil && *m != batchv1.JobControllerName {
		return 0
	}
	if job.Spec.Suspend != nil && *job.Spec.Suspend {
		return 0
	}
	// syncJob sets the start time, then pastActiveDeadline (since start >=
	// 0s) fails the Job with DeadlineExceeded before manageJob runs.
	if d := job.Spec.ActiveDeadlineSeconds; d != nil && *d == 0 {
		return 0
	}
	parallelism := *job.Spec.Parallelism
	if job.Spec.Completions == nil {
		return int(max(parallelism, 0)) // negative: refused, reported as none
	}
	return int(max(min(*job.Spec.Completions, parallelism), 0))
}

// runJob is manageJob's creation branch: the template with the tracking
// finalizer (appendJobCompletionFinalizerIfNotFound) and, for an Indexed Job,
// the completion index env variable, annotation, label and hostname of
// firstPendingIndexes 0, 1, … (indexed_job_utils.go).
func (u *Upstream) runJob(w *WorkloadOutcome, job *batchv1.Job) error {
	indexed := job.Spec.CompletionMode != nil && *job.Spec.CompletionMode == batchv1.IndexedCompletion
	base := job.Spec.Template.DeepCopy()
	if indexed {
		for _, cs := range [][]corev1.Container{base.Spec.InitContainers, base.Spec.Containers} {
			for i := range cs {
				addCompletionIndexEnvVariable(&cs[i])
			}
		}
	}
	if !slices.Contains(base.Finalizers, batchv1.JobTrackingFinalizer) {
		base.Finalizers = append(base.Finalizers, batchv1.JobTrackingFinalizer)
	}
	return u.createPods(w, job.Namespace, jobWantActive(job), func(i int) (*corev1.PodTemplateSpec, runtime.Object, string) {
		if !indexed {
			return base, job, ""
		}
		t := base.DeepCopy()
		if t.Annotations == nil {
			t.Annotations = map[string]string{}
		}
		t.Annotations[batchv1.JobCompletionIndexAnnotation] = strconv.Itoa(i)
		if t.Labels == nil {
			t.Labels = map[string]string{}
		}
		t.Labels[batchv1.JobCompletionIndexAnnotation] = strconv.Itoa(i)
		t.Spec.Hostname = fmt.Sprintf("%s-%d", job.Name, i)
		return t, job, podGenerateNameWithIndex(job.Name, i)
	})
}

// podGenerateNameWithIndex is indexed_job_utils.go's (unexported):
// "<job>-<index>-", the job name cut to fit names.MaxGeneratedNameLength.
func podGenerateNameWithIndex(jobName string, index int) string {
	appendIndex := "-" + strconv.Itoa(index) + "-"
	generateNamePrefix := jobName + appendIndex
	if len(generateNamePrefix) > names.MaxGeneratedNameLength {
		generateNamePrefix = generateNamePrefix[:names.MaxGeneratedNameLength-len(appendIndex)] + appendIndex
	}
	return generateNamePrefix
}

func addCompletionIndexEnvVariable(c *corev1.Container) {
	for _, v := range c.Env {
		if v.Name == "JOB_COMPLETION_INDEX" {
			return
		}
	}
	c.Env = append(c.Env, corev1.EnvVar{Name: "JOB_COMPLETION_INDEX", ValueFrom: &corev1.EnvVarSource{
		FieldRef: &corev1.ObjectFieldSelector{FieldPath: fmt.Sprintf("metadata.labels['%s']", batchv1.JobCompletionIndexAnnotation)},
	}})
}

// runCronJob: pkg/controller/cronjob/cronjob_controllerv2.go syncCronJob creates
// nothing for a suspended CronJob; otherwise, at the first schedule, the Job of
// utils.go getJobFromTemplate2 (named like the CronJob instead of
// <name>-<minutes>), then the Job controller its Pods.
func (u *Upstream) runCronJob(w *WorkloadOutcome, cj *batchv1.CronJob, allowed bool) error {
	if cj.Spec.Suspend != nil && *cj.Spec.Suspend {
		return nil
	}
	job := jobFromTemplate(cj)
	defaulted := job.DeepCopy()
	legacyscheme.Scheme.Default(defaulted)
	w.Replicas = jobWantActive(defaulted)
	if !allowed {
		return nil
	}
	res, err := u.createChild(job, cj.Namespace, 0)
	if err != nil {
		return err
	}
	w.Created = append(w.Created, res)
	if !res.Allowed {
		return nil
	}
	return u.runJob(w, res.Object.(*batchv1.Job))
}

// jobFromTemplate is getJobFromTemplate2 without the owner reference.
func jobFromTemplate(cj *batchv1.CronJob) *batchv1.Job {
	labels := map[string]string{}
	for k, v := range cj.Spec.JobTemplate.Labels {
		labels[k] = v
	}
	annotations := map[string]string{}
	for k, v := range cj.Spec.JobTemplate.Annotations {
		annotations[k] = v
	}
	scheduled := time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC)
	annotations[batchv1.CronJobScheduledTimestampAnnotation] = scheduled.Format(time.RFC3339)
	job := &batchv1.Job{
		TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: metav1.ObjectMeta{
			// getJobName: "<cronjob>-<scheduled time in minutes>", 8 digits
			// from 1989 to 2160, which limitcheck's placeholder stands for.
			Name:        cj.Name + "-" + eval.ScheduledMinutesPlaceholder,
			Namespace:   cj.Namespace,
			Labels:      labels,
			Annotations: annotations,
		},
	}
	cj.Spec.JobTemplate.Spec.DeepCopyInto(&job.Spec)
	return job
}
