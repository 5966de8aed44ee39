package defaults

import (
	"maps"
	"math"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/limitcheck/limitcheck/internal/eval/validation"
)

// GeneratedUID stands for the UID the apiserver gives every object it creates
// (PL-04); it shows in a Job's generated selector and labels (VAL-45).
const GeneratedUID = "00000000-0000-0000-0000-000000000000"

// prepareWorkload is what kube-apiserver does to a workload between decoding
// and validation (VAL-40..VAL-46): the v1 defaults validation reads
// (SetDefaults_Deployment, _DaemonSet, _StatefulSet, _ReplicaSet,
// _ReplicationController, _Job, _CronJob, the template's restartPolicy) and the
// REST strategies' PrepareForCreate (a Job's UID, generated selector and labels;
// a StatefulSet's maxUnavailable dropped while MaxUnavailableStatefulSet is off).
// A CronJob's job template is not defaulted as a Job: its Jobs are, when the
// controller creates them.
func prepareWorkload(obj runtime.Object) {
	if t, _ := PodTemplateOf(obj); t != nil && t.Spec.RestartPolicy == "" {
		t.Spec.RestartPolicy = corev1.RestartPolicyAlways
	}
	one := func(p **int32) {
		if *p == nil {
			*p = ptr.To[int32](1)
		}
	}
	ten := func(p **int32) {
		if *p == nil {
			*p = ptr.To[int32](10)
		}
	}
	switch o := obj.(type) {
	case *appsv1.Deployment:
		one(&o.Spec.Replicas)
		s := &o.Spec.Strategy
		if s.Type == "" {
			s.Type = appsv1.RollingUpdateDeploymentStrategyType
		}
		if s.Type == appsv1.RollingUpdateDeploymentStrategyType {
			if s.RollingUpdate == nil {
				s.RollingUpdate = &appsv1.RollingUpdateDeployment{}
			}
			if s.RollingUpdate.MaxUnavailable == nil {
				s.RollingUpdate.MaxUnavailable = ptr.To(intstr.FromString("25%"))
			}
			if s.RollingUpdate.MaxSurge == nil {
				s.RollingUpdate.MaxSurge = ptr.To(intstr.FromString("25%"))
			}
		}
		ten(&o.Spec.RevisionHistoryLimit)
		if o.Spec.ProgressDeadlineSeconds == nil {
			o.Spec.ProgressDeadlineSeconds = ptr.To[int32](600)
		}
	case *appsv1.ReplicaSet:
		one(&o.Spec.Replicas)
	case *appsv1.DaemonSet:
		s := &o.Spec.UpdateStrategy
		if s.Type == "" {
			s.Type = appsv1.RollingUpdateDaemonSetStrategyType
		}
		if s.Type == appsv1.RollingUpdateDaemonSetStrategyType {
			if s.RollingUpdate == nil {
				s.RollingUpdate = &appsv1.RollingUpdateDaemonSet{}
			}
			if s.RollingUpdate.MaxUnavailable == nil {
				s.RollingUpdate.MaxUnavailable = ptr.To(intstr.FromInt32(1))
			}
			if s.RollingUpdate.MaxSurge == nil {
				s.RollingUpdate.MaxSurge = ptr.To(intstr.FromInt32(0))
			}
		}
		ten(&o.Spec.RevisionHistoryLimit)
	case *appsv1.StatefulSet:
		spec := &o.Spec
		if spec.PodManagementPolicy == "" {
			spec.PodManagementPolicy = appsv1.OrderedReadyPodManagement
		}
		s := &spec.UpdateStrategy
		if s.Type == "" {
			s.Type = appsv1.RollingUpdateStatefulSetStrategyType
			if s.RollingUpdate == nil {
				s.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
			}
		}
		if s.Type == appsv1.RollingUpdateStatefulSetStrategyType && s.RollingUpdate != nil && s.RollingUpdate.Partition == nil {
			s.RollingUpdate.Partition = ptr.To[int32](0)
		}
		if s.RollingUpdate != nil {
			s.RollingUpdate.MaxUnavailable = nil // PrepareForCreate, MaxUnavailableStatefulSet off
		}
		if spec.PersistentVolumeClaimRetentionPolicy == nil {
			spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{}
		}
		if p := spec.PersistentVolumeClaimRetentionPolicy; p.WhenDeleted == "" {
			p.WhenDeleted = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
		}
		if p := spec.PersistentVolumeClaimRetentionPolicy; p.WhenScaled == "" {
			p.WhenScaled = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
		}
		one(&spec.Replicas)
		ten(&spec.RevisionHistoryLimit)
	case *corev1.ReplicationController:
		if t := o.Spec.Template; t != nil && t.Labels != nil {
			if len(o.Spec.Selector) == 0 {
				o.Spec.Selector = maps.Clone(t.Labels)
			}
			if len(o.Labels) == 0 {
				o.Labels = maps.Clone(t.Labels)
			}
		}
		one(&o.Spec.Replicas)
	case *batchv1.Job:
		defaultJob(o)
		prepareJob(o)
	case *batchv1.CronJob:
		if o.Spec.ConcurrencyPolicy == "" {
			o.Spec.ConcurrencyPolicy = batchv1.AllowConcurrent
		}
		if o.Spec.Suspend == nil {
			o.Spec.Suspend = ptr.To(false)
		}
		if o.Spec.SuccessfulJobsHistoryLimit == nil {
			o.Spec.SuccessfulJobsHistoryLimit = ptr.To[int32](3)
		}
		if o.Spec.FailedJobsHistoryLimit == nil {
			o.Spec.FailedJobsHistoryLimit = ptr.To[int32](1)
		}
		defaultPodFailurePolicy(o.Spec.JobTemplate.Spec.PodFailurePolicy)
	}
}

// defaultJob is SetDefaults_Job (JobPodReplacementPolicy is GA in 1.36).
func defaultJob(job *batchv1.Job) {
	spec := &job.Spec
	defaultJobSpec(spec)
	if spec.BackoffLimit == nil {
		if spec.BackoffLimitPerIndex != nil {
			spec.BackoffLimit = ptr.To[int32](math.MaxInt32)
		} else {
			spec.BackoffLimit = ptr.To[int32](6)
		}
	}
	if spec.Template.Labels != nil && len(job.Labels) == 0 {
		// The same map, as upstream: the labels PrepareForCreate adds to the
		// template show in the Job's own labels too.
		job.Labels = spec.Template.Labels
	}
	if spec.CompletionMode == nil {
		spec.CompletionMode = ptr.To(batchv1.NonIndexedCompletion)
	}
	if spec.Suspend == nil {
		spec.Suspend = ptr.To(false)
	}
	if spec.PodReplacementPolicy == nil {
		if spec.PodFailurePolicy != nil {
			spec.PodReplacementPolicy = ptr.To(batchv1.Failed)
		} else {
			spec.PodReplacementPolicy = ptr.To(batchv1.TerminatingOrFailed)
		}
	}
	if spec.ManualSelector == nil {
		spec.ManualSelector = ptr.To(false)
	}
	defaultPodFailurePolicy(spec.PodFailurePolicy)
}

// defaultPodFailurePolicy: an onPodConditions pattern's status defaults to True.
func defaultPodFailurePolicy(p *batchv1.PodFailurePolicy) {
	if p == nil {
		return
	}
	for i := range p.Rules {
		for j := range p.Rules[i].OnPodConditions {
			if c := &p.Rules[i].OnPodConditions[j]; c.Status == "" {
				c.Status = corev1.ConditionTrue
			}
		}
	}
}

// prepareJob is the Job strategy's PrepareForCreate: the UID the registry
// gives every new object, then, unless manualSelector, the generated selector
// and template labels (generateSelector); a label the user set is kept, and
// validation refuses it if it differs.
func prepareJob(job *batchv1.Job) {
	job.UID = types.UID(GeneratedUID)
	if job.Spec.ManualSelector != nil && *job.Spec.ManualSelector {
		return
	}
	t := &job.Spec.Template
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	for _, k := range []string{validation.LegacyJobNameLabel, batchv1.JobNameLabel} {
		if _, ok := t.Labels[k]; !ok {
			t.Labels[k] = job.Name
		}
	}
	for _, k := range []string{validation.LegacyControllerUIDLabel, batchv1.ControllerUidLabel} {
		if _, ok := t.Labels[k]; !ok {
			t.Labels[k] = string(job.UID)
		}
	}
	if job.Spec.Selector == nil {
		job.Spec.Selector = &metav1.LabelSelector{}
	}
	if job.Spec.Selector.MatchLabels == nil {
		job.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, ok := job.Spec.Selector.MatchLabels[batchv1.ControllerUidLabel]; !ok {
		job.Spec.Selector.MatchLabels[batchv1.ControllerUidLabel] = string(job.UID)
	}
}

// PodTemplateOf is where each workload keeps its Pod template, and the
// template's field path, for validation.
func PodTemplateOf(obj runtime.Object) (*corev1.PodTemplateSpec, string) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return &o.Spec.Template, "spec.template"
	case *appsv1.ReplicaSet:
		return &o.Spec.Template, "spec.template"
	case *appsv1.StatefulSet:
		return &o.Spec.Template, "spec.template"
	case *appsv1.DaemonSet:
		return &o.Spec.Template, "spec.template"
	case *corev1.ReplicationController:
		return o.Spec.Template, "spec.template"
	case *batchv1.Job:
		return &o.Spec.Template, "spec.template"
	case *batchv1.CronJob:
		return &o.Spec.JobTemplate.Spec.Template, "spec.jobTemplate.spec.template"
	}
	return nil, ""
}

// DefaultWorkload applies the v1 defaults and PrepareForCreate validation and
// the controllers read (prepareWorkload) and rounds the template's resources.
func DefaultWorkload(obj runtime.Object) {
	prepareWorkload(obj)
	one := func(p **int32) {
		if *p == nil {
			v := int32(1)
			*p = &v
		}
	}
	switch o := obj.(type) {
	case *appsv1.Deployment:
		one(&o.Spec.Replicas)
	case *appsv1.ReplicaSet:
		one(&o.Spec.Replicas)
	case *appsv1.StatefulSet:
		one(&o.Spec.Replicas)
		if o.Spec.PodManagementPolicy == "" {
			o.Spec.PodManagementPolicy = appsv1.OrderedReadyPodManagement
		}
		for i := range o.Spec.VolumeClaimTemplates {
			roundRequirementsVolume(&o.Spec.VolumeClaimTemplates[i].Spec.Resources)
		}
	case *corev1.ReplicationController:
		one(&o.Spec.Replicas)
		// SetDefaults_ReplicationController: selector and labels from the template's labels.
		if t := o.Spec.Template; t != nil && len(t.Labels) > 0 {
			if len(o.Spec.Selector) == 0 {
				o.Spec.Selector = maps.Clone(t.Labels)
			}
			if len(o.Labels) == 0 {
				o.Labels = maps.Clone(t.Labels)
			}
		}
	case *batchv1.Job:
		defaultJobSpec(&o.Spec)
	}
	if t, _ := PodTemplateOf(obj); t != nil {
		DefaultPodSpec(&t.Spec)
		roundPodSpec(&t.Spec)
	}
}

// DefaultPodTemplate applies a PodTemplate's v1 defaults (its template's
// Pod spec, SetObjectDefaults_PodTemplate) and rounds its resources.
func DefaultPodTemplate(t *corev1.PodTemplate) {
	DefaultPodSpec(&t.Template.Spec)
	roundPodSpec(&t.Template.Spec)
}

// defaultJobSpec: both parallelism and completions 1 when both are unset, else
// parallelism 1 (SetDefaults_Job).
func defaultJobSpec(spec *batchv1.JobSpec) {
	if spec.Completions == nil && spec.Parallelism == nil {
		c, p := int32(1), int32(1)
		spec.Completions, spec.Parallelism = &c, &p
	}
	if spec.Parallelism == nil {
		p := int32(1)
		spec.Parallelism = &p
	}
}
