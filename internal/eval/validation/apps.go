package validation

import (
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Workload validation on create (VAL-40..VAL-49): what the REST strategies of
// Deployments, ReplicaSets, StatefulSets, DaemonSets, ReplicationControllers,
// Jobs and CronJobs run. Upstream validates the internal type converted from
// v1 after v1 defaulting and PrepareForCreate; these functions take the v1
// object after the same defaulting (defaults.DefaultWorkload) and render
// values as the internal types would (their Go field names in JSON).

// Workload validates a workload on create; nil for other objects.
func Workload(obj runtime.Object, opts PodOptions) field.ErrorList {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		return Deployment(o, opts)
	case *appsv1.ReplicaSet:
		return ReplicaSet(o, opts)
	case *appsv1.StatefulSet:
		return StatefulSet(o, opts)
	case *appsv1.DaemonSet:
		return DaemonSet(o, opts)
	case *corev1.ReplicationController:
		return ReplicationController(o, opts)
	case *batchv1.Job:
		return Job(o, opts)
	case *batchv1.CronJob:
		return CronJob(o, opts)
	}
	return nil
}

// workloadMeta is core ValidateObjectMeta with the kind's name rule.
func workloadMeta(meta *metav1.ObjectMeta, gk schema.GroupKind) field.ErrorList {
	return ObjectMeta(meta, MetaRulesFor(gk), field.NewPath("metadata"))
}

func nonNegative(v int32, p *field.Path) field.ErrorList {
	return apivalidation.ValidateNonnegativeField(int64(v), p)
}

func deref(p *int32) int32 {
	if p == nil {
		return 0 // the conversion of an unset pointer to the internal int32
	}
	return *p
}

// strictSelector: unversioned ValidateLabelSelector without invalid label values.
var strictSelector = metav1validation.LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: false}

// requiredSelector is the selector block the Deployment, ReplicaSet and
// StatefulSet specs share: required, valid, not empty.
func requiredSelector(sel *metav1.LabelSelector, kind string, p *field.Path) field.ErrorList {
	if sel == nil {
		return field.ErrorList{field.Required(p, "")}
	}
	errs := metav1validation.ValidateLabelSelector(sel, strictSelector, p)
	if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
		errs = append(errs, field.Invalid(p, sel, "empty selector is invalid for "+kind))
	}
	return errs
}

// alwaysRestartTemplate: the restartPolicy and activeDeadlineSeconds rules of the
// controllers whose Pods run forever; kind names the controller in the message.
func alwaysRestartTemplate(spec *corev1.PodSpec, p *field.Path, kind string) field.ErrorList {
	var errs field.ErrorList
	if restartPolicy(spec) != corev1.RestartPolicyAlways {
		errs = append(errs, field.NotSupported(p.Child("restartPolicy"), spec.RestartPolicy, []corev1.RestartPolicy{corev1.RestartPolicyAlways}))
	}
	if spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.Forbidden(p.Child("activeDeadlineSeconds"), fmt.Sprintf("activeDeadlineSeconds in %s is not Supported", kind)))
	}
	return errs
}

// restartPolicy as v1 defaulting leaves it (SetDefaults_PodSpec: Always).
func restartPolicy(spec *corev1.PodSpec) corev1.RestartPolicy {
	if spec.RestartPolicy == "" {
		return corev1.RestartPolicyAlways
	}
	return spec.RestartPolicy
}

// templateMatches is the "`selector` does not match template `labels`" check
// of a non-empty selector.
func templateMatches(sel labels.Selector, t *corev1.PodTemplateSpec, p *field.Path) field.ErrorList {
	if !sel.Empty() && !sel.Matches(labels.Set(t.Labels)) {
		return field.ErrorList{field.Invalid(p.Child("metadata", "labels"), t.Labels, "`selector` does not match template `labels`")}
	}
	return nil
}

// replicaSetTemplate is ValidatePodTemplateSpecForReplicaSet (Deployments and
// ReplicaSets alike: the message names ReplicaSet for both).
func replicaSetTemplate(t *corev1.PodTemplateSpec, sel labels.Selector, p *field.Path, opts PodOptions) field.ErrorList {
	errs := templateMatches(sel, t, p)
	errs = append(errs, PodTemplate(t, p, opts)...)
	return append(errs, alwaysRestartTemplate(&t.Spec, p.Child("spec"), "ReplicaSet")...)
}

// VAL-40: Deployment.

// Deployment is ValidateDeployment: metadata (DNS subdomain name), then the spec.
func Deployment(d *appsv1.Deployment, opts PodOptions) field.ErrorList {
	errs := workloadMeta(&d.ObjectMeta, schema.GroupKind{Group: "apps", Kind: "Deployment"})
	return append(errs, deploymentSpec(d, field.NewPath("spec"), opts)...)
}

// deprecatedRollbackTo is the annotation the v1 conversion turns into the
// internal spec.rollbackTo.
const deprecatedRollbackTo = "deprecated.deployment.rollback.to"

func deploymentSpec(d *appsv1.Deployment, p *field.Path, opts PodOptions) field.ErrorList {
	spec := &d.Spec
	errs := nonNegative(deref(spec.Replicas), p.Child("replicas"))
	errs = append(errs, requiredSelector(spec.Selector, "deployment", p.Child("selector"))...)
	if sel, err := metav1.LabelSelectorAsSelector(spec.Selector); err != nil {
		errs = append(errs, field.Invalid(p.Child("selector"), spec.Selector, "invalid label selector"))
	} else {
		errs = append(errs, replicaSetTemplate(&spec.Template, sel, p.Child("template"), opts)...)
	}
	errs = append(errs, deploymentStrategy(&spec.Strategy, p.Child("strategy"))...)
	errs = append(errs, nonNegative(spec.MinReadySeconds, p.Child("minReadySeconds"))...)
	if spec.RevisionHistoryLimit != nil {
		errs = append(errs, nonNegative(*spec.RevisionHistoryLimit, p.Child("revisionHistoryLimit"))...)
	}
	if v, ok := d.Annotations[deprecatedRollbackTo]; ok && v != "" {
		if rev, err := strconv.ParseInt(v, 10, 64); err == nil {
			errs = append(errs, apivalidation.ValidateNonnegativeField(rev, p.Child("rollback", "version"))...)
		}
	}
	if spec.ProgressDeadlineSeconds != nil {
		errs = append(errs, nonNegative(*spec.ProgressDeadlineSeconds, p.Child("progressDeadlineSeconds"))...)
		if *spec.ProgressDeadlineSeconds <= spec.MinReadySeconds {
			errs = append(errs, field.Invalid(p.Child("progressDeadlineSeconds"), spec.ProgressDeadlineSeconds, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

// Internal shapes of the strategy structs, for the values messages print.
type (
	internalDeploymentStrategy struct {
		Type          appsv1.DeploymentStrategyType
		RollingUpdate *internalRollingUpdate
	}
	internalRollingUpdate struct {
		MaxUnavailable intstr.IntOrString
		MaxSurge       intstr.IntOrString
	}
	internalDaemonSetStrategy struct {
		Type          appsv1.DaemonSetUpdateStrategyType
		RollingUpdate *internalRollingUpdate
	}
	internalStatefulSetStrategy struct {
		Type          appsv1.StatefulSetUpdateStrategyType
		RollingUpdate *internalStatefulSetRollingUpdate
	}
	internalStatefulSetRollingUpdate struct {
		Partition      int32
		MaxUnavailable *intstr.IntOrString
	}
)

// intOrZero is the conversion of an unset *IntOrString to the internal value.
func intOrZero(v *intstr.IntOrString) intstr.IntOrString {
	if v == nil {
		return intstr.IntOrString{}
	}
	return *v
}

func internalRU(maxUnavailable, maxSurge *intstr.IntOrString) *internalRollingUpdate {
	return &internalRollingUpdate{MaxUnavailable: intOrZero(maxUnavailable), MaxSurge: intOrZero(maxSurge)}
}

func deploymentStrategy(s *appsv1.DeploymentStrategy, p *field.Path) field.ErrorList {
	switch s.Type {
	case appsv1.RecreateDeploymentStrategyType:
		if s.RollingUpdate != nil {
			return field.ErrorList{field.Forbidden(p.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'")}
		}
	case appsv1.RollingUpdateDeploymentStrategyType:
		if s.RollingUpdate == nil {
			return field.ErrorList{field.Required(p.Child("rollingUpdate"), "this should be defaulted and never be nil")}
		}
		ru := internalRU(s.RollingUpdate.MaxUnavailable, s.RollingUpdate.MaxSurge)
		rp := p.Child("rollingUpdate")
		errs := intOrPercent(ru.MaxUnavailable, rp.Child("maxUnavailable"))
		errs = append(errs, intOrPercent(ru.MaxSurge, rp.Child("maxSurge"))...)
		if intOrPercentValue(ru.MaxUnavailable) == 0 && intOrPercentValue(ru.MaxSurge) == 0 {
			errs = append(errs, field.Invalid(rp.Child("maxUnavailable"), ru.MaxUnavailable, "may not be 0 when `maxSurge` is 0"))
		}
		return append(errs, notOver100Percent(ru.MaxUnavailable, rp.Child("maxUnavailable"))...)
	default:
		var ru *internalRollingUpdate
		if s.RollingUpdate != nil {
			ru = internalRU(s.RollingUpdate.MaxUnavailable, s.RollingUpdate.MaxSurge)
		}
		return field.ErrorList{field.NotSupported(p, &internalDeploymentStrategy{Type: s.Type, RollingUpdate: ru},
			[]string{string(appsv1.RecreateDeploymentStrategyType), string(appsv1.RollingUpdateDeploymentStrategyType)})}
	}
	return nil
}

// intOrPercent is ValidatePositiveIntOrPercent: a percentage or a non-negative int.
func intOrPercent(v intstr.IntOrString, p *field.Path) field.ErrorList {
	switch v.Type {
	case intstr.String:
		var errs field.ErrorList
		for _, msg := range validation.IsValidPercent(v.StrVal) {
			errs = append(errs, field.Invalid(p, v, msg))
		}
		return errs
	case intstr.Int:
		return apivalidation.ValidateNonnegativeField(int64(v.IntValue()), p)
	}
	return field.ErrorList{field.Invalid(p, v, "must be an integer or percentage (e.g '5%%')")}
}

func percentValue(v intstr.IntOrString) (int, bool) {
	if v.Type != intstr.String || len(validation.IsValidPercent(v.StrVal)) != 0 {
		return 0, false
	}
	n, _ := strconv.Atoi(v.StrVal[:len(v.StrVal)-1])
	return n, true
}

func intOrPercentValue(v intstr.IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	return v.IntValue()
}

func notOver100Percent(v intstr.IntOrString, p *field.Path) field.ErrorList {
	if n, ok := percentValue(v); ok && n > 100 {
		return field.ErrorList{field.Invalid(p, v, "must not be greater than 100%")}
	}
	return nil
}

// VAL-41: ReplicaSet.

// ReplicaSet is ValidateReplicaSet.
func ReplicaSet(rs *appsv1.ReplicaSet, opts PodOptions) field.ErrorList {
	errs := workloadMeta(&rs.ObjectMeta, schema.GroupKind{Group: "apps", Kind: "ReplicaSet"})
	p := field.NewPath("spec")
	spec := &rs.Spec
	errs = append(errs, nonNegative(deref(spec.Replicas), p.Child("replicas"))...)
	errs = append(errs, nonNegative(spec.MinReadySeconds, p.Child("minReadySeconds"))...)
	// Upstream's message says deployment for ReplicaSets too.
	errs = append(errs, requiredSelector(spec.Selector, "deployment", p.Child("selector"))...)
	if sel, err := metav1.LabelSelectorAsSelector(spec.Selector); err != nil {
		errs = append(errs, field.Invalid(p.Child("selector"), spec.Selector, "invalid label selector"))
	} else {
		errs = append(errs, replicaSetTemplate(&spec.Template, sel, p.Child("template"), opts)...)
	}
	return errs
}

// VAL-42: StatefulSet.

// StatefulSet is ValidateStatefulSet: a DNS label name, then the spec.
func StatefulSet(set *appsv1.StatefulSet, opts PodOptions) field.ErrorList {
	errs := workloadMeta(&set.ObjectMeta, schema.GroupKind{Group: "apps", Kind: "StatefulSet"})
	p := field.NewPath("spec")
	spec := &set.Spec
	switch spec.PodManagementPolicy {
	case "":
		errs = append(errs, field.Required(p.Child("podManagementPolicy"), ""))
	case appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement:
	default:
		errs = append(errs, field.Invalid(p.Child("podManagementPolicy"), spec.PodManagementPolicy, fmt.Sprintf("must be '%s' or '%s'", appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement)))
	}
	errs = append(errs, statefulSetStrategy(&spec.UpdateStrategy, p.Child("updateStrategy"))...)
	if pol := spec.PersistentVolumeClaimRetentionPolicy; pol != nil {
		pp := p.Child("persistentVolumeClaimRetentionPolicy")
		errs = append(errs, retentionPolicyType(pol.WhenDeleted, pp.Child("whenDeleted"))...)
		errs = append(errs, retentionPolicyType(pol.WhenScaled, pp.Child("whenScaled"))...)
	}
	// Claim templates are validated as claims' specs; their metadata is not.
	for i := range spec.VolumeClaimTemplates {
		errs = append(errs, PersistentVolumeClaimSpec(&spec.VolumeClaimTemplates[i].Spec, p.Child("volumeClaimTemplates").Index(i).Child("spec"), CreateClaimOptions())...)
	}
	errs = append(errs, nonNegative(deref(spec.Replicas), p.Child("replicas"))...)
	errs = append(errs, nonNegative(spec.MinReadySeconds, p.Child("minReadySeconds"))...)
	if spec.Ordinals != nil {
		errs = append(errs, nonNegative(spec.Ordinals.Start, p.Child("ordinals.start"))...)
	}
	if spec.ServiceName != "" {
		for _, msg := range namecheck.IsDNS1123Label(spec.ServiceName) {
			errs = append(errs, field.Invalid(p.Child("serviceName"), spec.ServiceName, msg))
		}
	}
	errs = append(errs, requiredSelector(spec.Selector, "statefulset", p.Child("selector"))...)
	if sel, err := metav1.LabelSelectorAsSelector(spec.Selector); err != nil {
		errs = append(errs, field.Invalid(p.Child("selector"), spec.Selector, ""))
	} else {
		errs = append(errs, statefulSetTemplate(spec, sel, p.Child("template"), opts)...)
	}
	return append(errs, alwaysRestartTemplate(&spec.Template.Spec, p.Child("template", "spec"), "StatefulSet")...)
}

// statefulSetTemplate is ValidatePodTemplateSpecForStatefulSet on the template
// as the controller completes it: hostname and subdomain cleared, a volume per
// claim template in place of any of that name.
func statefulSetTemplate(spec *appsv1.StatefulSetSpec, sel labels.Selector, p *field.Path, opts PodOptions) field.ErrorList {
	t := &spec.Template
	if t.Spec.Subdomain != "" || t.Spec.Hostname != "" || len(spec.VolumeClaimTemplates) > 0 {
		t = t.DeepCopy()
		t.Spec.Subdomain, t.Spec.Hostname = "", ""
		if len(spec.VolumeClaimTemplates) > 0 {
			claims := map[string]bool{}
			var volumes []corev1.Volume
			for _, c := range spec.VolumeClaimTemplates {
				if claims[c.Name] {
					continue
				}
				claims[c.Name] = true
				volumes = append(volumes, corev1.Volume{Name: c.Name, VolumeSource: corev1.VolumeSource{
					PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: c.Name},
				}})
			}
			for _, v := range t.Spec.Volumes {
				if !claims[v.Name] {
					volumes = append(volumes, v)
				}
			}
			t.Spec.Volumes = volumes
		}
	}
	errs := templateMatches(sel, t, p)
	errs = append(errs, PodTemplate(t, p, opts)...)
	errs = append(errs, metav1validation.ValidateLabels(t.Labels, p.Child("labels"))...)
	return append(errs, apivalidation.ValidateAnnotations(t.Annotations, p.Child("annotations"))...)
}

func statefulSetStrategy(s *appsv1.StatefulSetUpdateStrategy, p *field.Path) field.ErrorList {
	// PrepareForCreate drops maxUnavailable while MaxUnavailableStatefulSet is off (its 1.36 default).
	var ru *internalStatefulSetRollingUpdate
	if s.RollingUpdate != nil {
		ru = &internalStatefulSetRollingUpdate{Partition: deref(s.RollingUpdate.Partition)}
	}
	switch s.Type {
	case "":
		return field.ErrorList{field.Required(p, "")}
	case appsv1.OnDeleteStatefulSetStrategyType:
		if ru != nil {
			return field.ErrorList{field.Invalid(p.Child("rollingUpdate"), ru, fmt.Sprintf("only allowed for updateStrategy '%s'", appsv1.RollingUpdateStatefulSetStrategyType))}
		}
	case appsv1.RollingUpdateStatefulSetStrategyType:
		if ru != nil {
			return nonNegative(ru.Partition, p.Child("rollingUpdate", "partition"))
		}
	default:
		return field.ErrorList{field.Invalid(p, &internalStatefulSetStrategy{Type: s.Type, RollingUpdate: ru},
			fmt.Sprintf("must be '%s' or '%s'", appsv1.RollingUpdateStatefulSetStrategyType, appsv1.OnDeleteStatefulSetStrategyType))}
	}
	return nil
}

func retentionPolicyType(t appsv1.PersistentVolumeClaimRetentionPolicyType, p *field.Path) field.ErrorList {
	switch t {
	case appsv1.RetainPersistentVolumeClaimRetentionPolicyType, appsv1.DeletePersistentVolumeClaimRetentionPolicyType:
		return nil
	}
	return field.ErrorList{field.NotSupported(p, t, []string{string(appsv1.RetainPersistentVolumeClaimRetentionPolicyType), string(appsv1.DeletePersistentVolumeClaimRetentionPolicyType)})}
}

// VAL-43: DaemonSet.

// DaemonSet is ValidateDaemonSet.
func DaemonSet(ds *appsv1.DaemonSet, opts PodOptions) field.ErrorList {
	errs := workloadMeta(&ds.ObjectMeta, schema.GroupKind{Group: "apps", Kind: "DaemonSet"})
	p := field.NewPath("spec")
	spec := &ds.Spec
	errs = append(errs, metav1validation.ValidateLabelSelector(spec.Selector, strictSelector, p.Child("selector"))...)
	// A missing selector selects nothing: the template never matches it.
	if sel, err := metav1.LabelSelectorAsSelector(spec.Selector); err == nil && !sel.Matches(labels.Set(spec.Template.Labels)) {
		errs = append(errs, field.Invalid(p.Child("template", "metadata", "labels"), spec.Template.Labels, "`selector` does not match template `labels`"))
	}
	if spec.Selector != nil && len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
		errs = append(errs, field.Invalid(p.Child("selector"), spec.Selector, "empty selector is invalid for daemonset"))
	}
	errs = append(errs, PodTemplate(&spec.Template, p.Child("template"), opts)...)
	errs = append(errs, alwaysRestartTemplate(&spec.Template.Spec, p.Child("template", "spec"), "DaemonSet")...)
	errs = append(errs, nonNegative(spec.MinReadySeconds, p.Child("minReadySeconds"))...)
	// templateGeneration is at least 1 after PrepareForCreate: never negative.
	errs = append(errs, daemonSetStrategy(&spec.UpdateStrategy, p.Child("updateStrategy"))...)
	if spec.RevisionHistoryLimit != nil {
		errs = append(errs, nonNegative(*spec.RevisionHistoryLimit, p.Child("revisionHistoryLimit"))...)
	}
	return errs
}

func daemonSetStrategy(s *appsv1.DaemonSetUpdateStrategy, p *field.Path) field.ErrorList {
	switch s.Type {
	case appsv1.OnDeleteDaemonSetStrategyType:
	case appsv1.RollingUpdateDaemonSetStrategyType:
		if s.RollingUpdate == nil {
			return field.ErrorList{field.Required(p.Child("rollingUpdate"), "")}
		}
		ru := internalRU(s.RollingUpdate.MaxUnavailable, s.RollingUpdate.MaxSurge)
		rp := p.Child("rollingUpdate")
		errs := intOrPercent(ru.MaxUnavailable, rp.Child("maxUnavailable"))
		errs = append(errs, intOrPercent(ru.MaxSurge, rp.Child("maxSurge"))...)
		errs = append(errs, notOver100Percent(ru.MaxUnavailable, rp.Child("maxUnavailable"))...)
		errs = append(errs, notOver100Percent(ru.MaxSurge, rp.Child("maxSurge"))...)
		unavailable, surge := intOrPercentValue(ru.MaxUnavailable) != 0, intOrPercentValue(ru.MaxSurge) != 0
		switch {
		case unavailable && surge:
			errs = append(errs, field.Invalid(rp.Child("maxSurge"), ru.MaxSurge, "may not be set when maxUnavailable is non-zero"))
		case !unavailable && !surge:
			errs = append(errs, field.Required(rp.Child("maxUnavailable"), "cannot be 0 when maxSurge is 0"))
		}
		return errs
	default:
		var ru *internalRollingUpdate
		if s.RollingUpdate != nil {
			ru = internalRU(s.RollingUpdate.MaxUnavailable, s.RollingUpdate.MaxSurge)
		}
		return field.ErrorList{field.NotSupported(p, &internalDaemonSetStrategy{Type: s.Type, RollingUpdate: ru},
			[]string{string(appsv1.RollingUpdateDaemonSetStrategyType), string(appsv1.OnDeleteDaemonSetStrategyType)})}
	}
	return nil
}

// VAL-44: ReplicationController.

// ReplicationController is core ValidateReplicationController. Its strategy
// also runs declarative validation, which on create in 1.36 only shadows the
// handwritten rules: the handwritten errors are the response.
func ReplicationController(rc *corev1.ReplicationController, opts PodOptions) field.ErrorList {
	errs := workloadMeta(&rc.ObjectMeta, schema.GroupKind{Kind: "ReplicationController"})
	p := field.NewPath("spec")
	spec := &rc.Spec
	errs = append(errs, nonNegative(spec.MinReadySeconds, p.Child("minReadySeconds"))...)
	if labels.Set(spec.Selector).AsSelector().Empty() {
		errs = append(errs, field.Required(p.Child("selector"), ""))
	}
	if spec.Replicas == nil {
		errs = append(errs, field.Required(p.Child("replicas"), ""))
	} else {
		errs = append(errs, nonNegative(*spec.Replicas, p.Child("replicas"))...)
	}
	tp := p.Child("template")
	t := spec.Template
	if t == nil {
		return append(errs, field.Required(tp, ""))
	}
	errs = append(errs, templateMatches(labels.Set(spec.Selector).AsSelector(), t, tp)...)
	errs = append(errs, PodTemplate(t, tp, opts)...)
	return append(errs, alwaysRestartTemplate(&t.Spec, tp.Child("spec"), "ReplicationController")...)
}
