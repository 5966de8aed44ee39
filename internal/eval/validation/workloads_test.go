package validation

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// The objects below are as the engine hands them to Workload: v1 defaults
// and PrepareForCreate applied (replicas, strategies, a Job's UID, generated
// selector and labels).

const uid = "00000000-0000-0000-0000-000000000000"

// template is a Pod template with the v1 defaults validation reads (the
// engine applies them before validation; VAL-10).
func template(labels map[string]string, restart corev1.RestartPolicy) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labels},
		Spec: corev1.PodSpec{RestartPolicy: restart, DNSPolicy: corev1.DNSClusterFirst,
			TerminationGracePeriodSeconds: ptr.To[int64](30),
			Containers: []corev1.Container{{Name: "c", Image: "x", ImagePullPolicy: corev1.PullAlways,
				TerminationMessagePath: corev1.TerminationMessagePathDefault, TerminationMessagePolicy: corev1.TerminationMessageReadFile}}},
	}
}

func appLabels() map[string]string { return map[string]string{"app": "web"} }

func deployment(mut func(*appsv1.Deployment)) runtime.Object {
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: appLabels()},
			Template: template(appLabels(), corev1.RestartPolicyAlways),
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{
				MaxUnavailable: ptr.To(intstr.FromString("25%")), MaxSurge: ptr.To(intstr.FromString("25%"))}},
			RevisionHistoryLimit:    ptr.To[int32](10),
			ProgressDeadlineSeconds: ptr.To[int32](600),
		},
	}
	mut(d)
	return d
}

func replicaSet(mut func(*appsv1.ReplicaSet)) runtime.Object {
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"},
		Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To[int32](1), Selector: &metav1.LabelSelector{MatchLabels: appLabels()},
			Template: template(appLabels(), corev1.RestartPolicyAlways)},
	}
	mut(rs)
	return rs
}

func statefulSet(mut func(*appsv1.StatefulSet)) runtime.Object {
	s := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "ns"},
		Spec: appsv1.StatefulSetSpec{
			Replicas: ptr.To[int32](1), Selector: &metav1.LabelSelector{MatchLabels: appLabels()},
			Template:            template(appLabels(), corev1.RestartPolicyAlways),
			PodManagementPolicy: appsv1.OrderedReadyPodManagement,
			UpdateStrategy: appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: ptr.To[int32](0)}},
			PersistentVolumeClaimRetentionPolicy: &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: appsv1.RetainPersistentVolumeClaimRetentionPolicyType, WhenScaled: appsv1.RetainPersistentVolumeClaimRetentionPolicyType},
			RevisionHistoryLimit: ptr.To[int32](10),
		},
	}
	mut(s)
	return s
}

func daemonSet(mut func(*appsv1.DaemonSet)) runtime.Object {
	ds := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "ns"},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: appLabels()},
			Template: template(appLabels(), corev1.RestartPolicyAlways),
			UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType, RollingUpdate: &appsv1.RollingUpdateDaemonSet{
				MaxUnavailable: ptr.To(intstr.FromInt32(1)), MaxSurge: ptr.To(intstr.FromInt32(0))}},
			RevisionHistoryLimit: ptr.To[int32](10),
		},
	}
	mut(ds)
	return ds
}

func replicationController(mut func(*corev1.ReplicationController)) runtime.Object {
	t := template(appLabels(), corev1.RestartPolicyAlways)
	rc := &corev1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{Name: "rc", Namespace: "ns"},
		Spec:       corev1.ReplicationControllerSpec{Replicas: ptr.To[int32](1), Selector: appLabels(), Template: &t},
	}
	mut(rc)
	return rc
}

// job is a Job as PrepareForCreate leaves it: generated selector and labels.
func job(mut func(*batchv1.Job)) runtime.Object {
	j := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "pi", Namespace: "ns", UID: uid},
		Spec: batchv1.JobSpec{
			Parallelism: ptr.To[int32](1), Completions: ptr.To[int32](1), BackoffLimit: ptr.To[int32](6),
			CompletionMode: ptr.To(batchv1.NonIndexedCompletion), Suspend: ptr.To(false), ManualSelector: ptr.To(false),
			PodReplacementPolicy: ptr.To(batchv1.TerminatingOrFailed),
			Selector:             &metav1.LabelSelector{MatchLabels: map[string]string{batchv1.ControllerUidLabel: uid}},
			Template: template(map[string]string{batchv1.ControllerUidLabel: uid, batchv1.JobNameLabel: "pi",
				LegacyControllerUIDLabel: uid, LegacyJobNameLabel: "pi"}, corev1.RestartPolicyNever),
		},
	}
	mut(j)
	return j
}

// cronJob: its job template is not defaulted as a Job.
func cronJob(mut func(*batchv1.CronJob)) runtime.Object {
	cj := &batchv1.CronJob{
		ObjectMeta: metav1.ObjectMeta{Name: "nightly", Namespace: "ns"},
		Spec: batchv1.CronJobSpec{
			Schedule: "0 3 * * *", ConcurrencyPolicy: batchv1.AllowConcurrent, Suspend: ptr.To(false),
			SuccessfulJobsHistoryLimit: ptr.To[int32](3), FailedJobsHistoryLimit: ptr.To[int32](1),
			JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: template(nil, corev1.RestartPolicyOnFailure)}},
		},
	}
	mut(cj)
	return cj
}

func TestWorkload(t *testing.T) {
	for _, tc := range []struct {
		name string
		obj  runtime.Object
		want string // the whole 422 message; "" when valid
	}{
		{"valid Deployment", deployment(func(*appsv1.Deployment) {}), ""},
		{"Deployment: negative replicas, selector mismatch, Never, deadline",
			deployment(func(d *appsv1.Deployment) {
				d.Spec.Replicas = ptr.To[int32](-1)
				d.Spec.Selector.MatchLabels = map[string]string{"app": "other"}
				d.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever
				d.Spec.Template.Spec.ActiveDeadlineSeconds = ptr.To[int64](5)
			}),
			`Deployment.apps "web" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.template.metadata.labels: Invalid value: {"app":"web"}: ` + "`selector` does not match template `labels`" + `, spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always", spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported]`},
		{"Deployment: selector missing",
			deployment(func(d *appsv1.Deployment) { d.Spec.Selector = nil }),
			`Deployment.apps "web" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {"app":"web"}: ` + "`selector` does not match template `labels`]"},
		{"Deployment: selector empty",
			deployment(func(d *appsv1.Deployment) { d.Spec.Selector = &metav1.LabelSelector{} }),
			`Deployment.apps "web" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment`},
		{"Deployment: maxSurge and maxUnavailable 0",
			deployment(func(d *appsv1.Deployment) {
				d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxUnavailable: ptr.To(intstr.FromInt32(0)), MaxSurge: ptr.To(intstr.FromString("0%"))}
			}),
			"Deployment.apps \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"},
		{"Deployment: maxUnavailable 150%, maxSurge 50",
			deployment(func(d *appsv1.Deployment) {
				d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxUnavailable: ptr.To(intstr.FromString("150%")), MaxSurge: ptr.To(intstr.FromString("50"))}
			}),
			`Deployment.apps "web" is invalid: [spec.strategy.rollingUpdate.maxSurge: Invalid value: "50": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%'), spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%]`},
		{"Deployment: Recreate with rollingUpdate",
			deployment(func(d *appsv1.Deployment) { d.Spec.Strategy.Type = appsv1.RecreateDeploymentStrategyType }),
			"Deployment.apps \"web\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"},
		{"Deployment: unknown strategy, printed as the internal type",
			deployment(func(d *appsv1.Deployment) {
				d.Spec.Strategy = appsv1.DeploymentStrategy{Type: "Rolling", RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: ptr.To(intstr.FromInt32(1))}}
			}),
			`Deployment.apps "web" is invalid: spec.strategy: Unsupported value: {"Type":"Rolling","RollingUpdate":{"MaxUnavailable":0,"MaxSurge":1}}: supported values: "Recreate", "RollingUpdate"`},
		{"Deployment: minReadySeconds not below progressDeadlineSeconds",
			deployment(func(d *appsv1.Deployment) { d.Spec.MinReadySeconds = 600 }),
			`Deployment.apps "web" is invalid: spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds`},
		{"Deployment: rollback annotation",
			deployment(func(d *appsv1.Deployment) { d.Annotations = map[string]string{deprecatedRollbackTo: "-1"} }),
			`Deployment.apps "web" is invalid: spec.rollback.version: Invalid value: -1: must be greater than or equal to 0`},
		{"ReplicaSet: empty selector says deployment",
			replicaSet(func(rs *appsv1.ReplicaSet) {
				rs.Spec.MinReadySeconds = -5
				rs.Spec.Selector = &metav1.LabelSelector{}
			}),
			`ReplicaSet.apps "web" is invalid: [spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0, spec.selector: Invalid value: {}: empty selector is invalid for deployment]`},
		{"ReplicaSet: bad operator",
			replicaSet(func(rs *appsv1.ReplicaSet) {
				rs.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Equals", Values: []string{"x"}}}}
			}),
			`ReplicaSet.apps "web" is invalid: [spec.selector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator, spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Equals","values":["x"]}]}: invalid label selector]`},
		{"StatefulSet: name, policy, strategy, claim, ordinals, serviceName",
			statefulSet(func(s *appsv1.StatefulSet) {
				s.Name = "db.v2"
				s.Spec.PodManagementPolicy = "Sequential"
				s.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType,
					RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: ptr.To[int32](1)}}
				s.Spec.PersistentVolumeClaimRetentionPolicy.WhenScaled = "Keep"
				s.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"},
					Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}}}}
				s.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: -1}
				s.Spec.ServiceName = "My_Service"
				s.Spec.Template.Spec.ActiveDeadlineSeconds = ptr.To[int64](1)
			}),
			`StatefulSet.apps "db.v2" is invalid: [metadata.name: Invalid value: "db.v2": must not contain dots, spec.podManagementPolicy: Invalid value: "Sequential": must be 'OrderedReady' or 'Parallel', spec.updateStrategy.rollingUpdate: Invalid value: {"Partition":1,"MaxUnavailable":null}: only allowed for updateStrategy 'RollingUpdate', spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: "Keep": supported values: "Retain", "Delete", spec.volumeClaimTemplates[0].spec.resources[storage]: Required value, spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0, spec.serviceName: Invalid value: "My_Service": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported]`},
		{"StatefulSet: unknown update strategy, negative partition not reached",
			statefulSet(func(s *appsv1.StatefulSet) { s.Spec.UpdateStrategy.Type = "Rolling" }),
			`StatefulSet.apps "db" is invalid: spec.updateStrategy: Invalid value: {"Type":"Rolling","RollingUpdate":{"Partition":0,"MaxUnavailable":null}}: must be 'RollingUpdate' or 'OnDelete'`},
		{"StatefulSet: no selector, invalid selector detail empty",
			statefulSet(func(s *appsv1.StatefulSet) {
				s.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "In"}}}
			}),
			`StatefulSet.apps "db" is invalid: [spec.selector.matchExpressions[0].values: Required value: must be specified when ` + "`operator`" + ` is 'In' or 'NotIn', spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"In"}]}]`},
		{"DaemonSet: maxSurge with default maxUnavailable",
			daemonSet(func(ds *appsv1.DaemonSet) {
				ds.Spec.UpdateStrategy.RollingUpdate.MaxSurge = ptr.To(intstr.FromInt32(1))
			}),
			`DaemonSet.apps "agent" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero`},
		{"DaemonSet: both 0, no selector",
			daemonSet(func(ds *appsv1.DaemonSet) {
				ds.Spec.Selector = nil
				ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = ptr.To(intstr.FromInt32(0))
			}),
			`DaemonSet.apps "agent" is invalid: [spec.template.metadata.labels: Invalid value: {"app":"web"}: ` + "`selector` does not match template `labels`" + `, spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0]`},
		{"DaemonSet: unknown strategy",
			daemonSet(func(ds *appsv1.DaemonSet) {
				ds.Spec.UpdateStrategy = appsv1.DaemonSetUpdateStrategy{Type: "Rolling"}
				ds.Spec.RevisionHistoryLimit = ptr.To[int32](-1)
			}),
			`DaemonSet.apps "agent" is invalid: [spec.updateStrategy: Unsupported value: {"Type":"Rolling","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete", spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0]`},
		{"ReplicationController without template",
			replicationController(func(rc *corev1.ReplicationController) { rc.Spec.Template, rc.Spec.Selector = nil, nil }),
			`ReplicationController "rc" is invalid: [spec.selector: Required value, spec.template: Required value]`},
		{"ReplicationController: selector mismatch, OnFailure",
			replicationController(func(rc *corev1.ReplicationController) {
				rc.Spec.Selector = map[string]string{"app": "other"}
				rc.Spec.Replicas = ptr.To[int32](-2)
				rc.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
			}),
			`ReplicationController "rc" is invalid: [spec.replicas: Invalid value: -2: must be greater than or equal to 0, spec.template.metadata.labels: Invalid value: {"app":"web"}: ` + "`selector` does not match template `labels`" + `, spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"]`},
		{"valid Job", job(func(*batchv1.Job) {}), ""},
		{"Job: restartPolicy Always, negative parallelism",
			job(func(j *batchv1.Job) {
				j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways
				j.Spec.Parallelism = ptr.To[int32](-1)
			}),
			`Job.batch "pi" is invalid: [spec.parallelism: Invalid value: -1: must be greater than or equal to 0, spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"]`},
		{"Job: Indexed without completions, maxFailedIndexes without backoffLimitPerIndex",
			job(func(j *batchv1.Job) {
				j.Spec.CompletionMode = ptr.To(batchv1.IndexedCompletion)
				j.Spec.Completions = nil
				j.Spec.MaxFailedIndexes = ptr.To[int32](2)
			}),
			`Job.batch "pi" is invalid: [spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified, spec.completions: Required value: when completion mode is Indexed]`},
		{"Job: backoffLimitPerIndex NonIndexed, bad completionMode",
			job(func(j *batchv1.Job) {
				j.Spec.BackoffLimitPerIndex = ptr.To[int32](1)
				j.Spec.CompletionMode = ptr.To(batchv1.CompletionMode("Sequential"))
			}),
			`Job.batch "pi" is invalid: spec.completionMode: Unsupported value: "Sequential": supported values: "NonIndexed", "Indexed"`},
		{"Job: backoffLimitPerIndex NonIndexed",
			job(func(j *batchv1.Job) { j.Spec.BackoffLimitPerIndex = ptr.To[int32](1) }),
			`Job.batch "pi" is invalid: spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode`},
		{"Job: podFailurePolicy rule without requirement, OnFailure",
			job(func(j *batchv1.Job) {
				j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
				j.Spec.PodReplacementPolicy = ptr.To(batchv1.TerminatingOrFailed)
				j.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{Action: "Retry"}}}
			}),
			`Job.batch "pi" is invalid: [spec.podFailurePolicy.rules[0].action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore", spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required, spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed", spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified]`},
		{"Job: exit codes",
			job(func(j *batchv1.Job) {
				j.Spec.PodReplacementPolicy = ptr.To(batchv1.Failed)
				j.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{Action: "",
					OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{Operator: "In", Values: []int32{0, 3, 2, 2}}}}}
			}),
			`Job.batch "pi" is invalid: [spec.podFailurePolicy.rules[0].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"], spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator, spec.podFailurePolicy.rules[0].onExitCodes.values[3]: Duplicate value: 2, spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [0,3,2,2]: must be ordered]`},
		{"Job: user selector without manualSelector (the UID shows)",
			job(func(j *batchv1.Job) { j.Spec.Selector.MatchLabels["role"] = "batch" }),
			`Job.batch "pi" is invalid: [spec.selector: Invalid value: {"matchLabels":{"batch.kubernetes.io/controller-uid":"00000000-0000-0000-0000-000000000000","role":"batch"}}: ` + "`selector` not auto-generated" + `, spec.template.metadata.labels: Invalid value: {"batch.kubernetes.io/controller-uid":"00000000-0000-0000-0000-000000000000","batch.kubernetes.io/job-name":"pi","controller-uid":"00000000-0000-0000-0000-000000000000","job-name":"pi"}: ` + "`selector` does not match template `labels`]"},
		{"Job: job-name label set by the user",
			job(func(j *batchv1.Job) { j.Spec.Template.Labels[LegacyJobNameLabel] = "other" }),
			`Job.batch "pi" is invalid: spec.template.metadata.labels[job-name]: Invalid value: {"batch.kubernetes.io/controller-uid":"00000000-0000-0000-0000-000000000000","batch.kubernetes.io/job-name":"pi","controller-uid":"00000000-0000-0000-0000-000000000000","job-name":"other"}: must be 'pi'`},
		{"Job: manualSelector without selector",
			job(func(j *batchv1.Job) { j.Spec.ManualSelector, j.Spec.Selector = ptr.To(true), nil }),
			`Job.batch "pi" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {"batch.kubernetes.io/controller-uid":"00000000-0000-0000-0000-000000000000","batch.kubernetes.io/job-name":"pi","controller-uid":"00000000-0000-0000-0000-000000000000","job-name":"pi"}: ` + "`selector` does not match template `labels`]"},
		{"Job: Indexed hostname too long",
			job(func(j *batchv1.Job) {
				name := strings.Repeat("x", 62)
				j.Name = name
				for _, k := range []string{LegacyJobNameLabel, batchv1.JobNameLabel} {
					j.Spec.Template.Labels[k] = name
				}
				j.Spec.CompletionMode, j.Spec.Completions = ptr.To(batchv1.IndexedCompletion), ptr.To[int32](10)
			}),
			`Job.batch "` + strings.Repeat("x", 62) + `" is invalid: metadata.name: Invalid value: "` + strings.Repeat("x", 62) + `": will not able to create pod with invalid DNS label: ` + strings.Repeat("x", 62) + `-9`},
		{"Job: successPolicy without Indexed",
			job(func(j *batchv1.Job) {
				j.Spec.SuccessPolicy = &batchv1.SuccessPolicy{Rules: []batchv1.SuccessPolicyRule{{SucceededIndexes: ptr.To("0-1")}}}
			}),
			`Job.batch "pi" is invalid: spec.successPolicy: Invalid value: {"Rules":[{"SucceededIndexes":"0-1","SucceededCount":null}]}: requires indexed completion mode`},
		{"Job: successPolicy rules",
			job(func(j *batchv1.Job) {
				j.Spec.CompletionMode, j.Spec.Completions = ptr.To(batchv1.IndexedCompletion), ptr.To[int32](4)
				j.Spec.SuccessPolicy = &batchv1.SuccessPolicy{Rules: []batchv1.SuccessPolicyRule{{SucceededIndexes: ptr.To("3-1")}, {SucceededIndexes: ptr.To("0-1"), SucceededCount: ptr.To[int32](3)}}}
			}),
			`Job.batch "pi" is invalid: [spec.successPolicy.rules[0].succeededIndexes: Invalid value: "3-1": error parsing succeededIndexes: non-increasing order, previous: 3, current: 1, spec.successPolicy.rules[1].succeededCount: Invalid value: 3: must be less than or equal to 2 (the number of indexes in the specified succeededIndexes field)]`},
		{"valid CronJob", cronJob(func(*batchv1.CronJob) {}), ""},
		{"CronJob: 4 fields, time zone, policy, deadline",
			cronJob(func(cj *batchv1.CronJob) {
				cj.Spec.Schedule = "*/5 * * *"
				cj.Spec.TimeZone = ptr.To("Mars/Olympus")
				cj.Spec.ConcurrencyPolicy = "Sometimes"
				cj.Spec.StartingDeadlineSeconds = ptr.To[int64](-10)
			}),
			`CronJob.batch "nightly" is invalid: [spec.schedule: Invalid value: "*/5 * * *": expected exactly 5 fields, found 4: [*/5 * * *], spec.startingDeadlineSeconds: Invalid value: -10: must be greater than or equal to 0, spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus, spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"]`},
		{"CronJob: minute out of range",
			cronJob(func(cj *batchv1.CronJob) { cj.Spec.Schedule = "61 * * * *" }),
			`CronJob.batch "nightly" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61`},
		{"CronJob: TZ in the schedule",
			cronJob(func(cj *batchv1.CronJob) { cj.Spec.Schedule = "TZ=UTC 0 * * * *" }),
			`CronJob.batch "nightly" is invalid: spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead`},
		{"CronJob: TZ= panics the parser",
			cronJob(func(cj *batchv1.CronJob) { cj.Spec.Schedule = "TZ=0" }),
			`CronJob.batch "nightly" is invalid: [spec.schedule: Invalid value: "TZ=0": invalid schedule format: runtime error: slice bounds out of range [:-1], spec.schedule: Invalid value: "TZ=0": cannot use TZ or CRON_TZ in schedule, use timeZone field instead]`},
		{"CronJob: empty and Local time zones",
			cronJob(func(cj *batchv1.CronJob) { cj.Spec.TimeZone = ptr.To("Local") }),
			`CronJob.batch "nightly" is invalid: spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones`},
		{"CronJob: job template not defaulted: Indexed needs completions; selector; Always",
			cronJob(func(cj *batchv1.CronJob) {
				js := &cj.Spec.JobTemplate.Spec
				js.CompletionMode = ptr.To(batchv1.IndexedCompletion)
				js.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}}
				js.ManualSelector = ptr.To(true)
				js.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways
				cj.Spec.FailedJobsHistoryLimit = ptr.To[int32](-1)
			}),
			`CronJob.batch "nightly" is invalid: [spec.jobTemplate.spec.completions: Required value: when completion mode is Indexed, spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never", spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: ` + "`selector` will be auto-generated" + `, spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false", spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0]`},
		{"CronJob: name over 52 characters",
			cronJob(func(cj *batchv1.CronJob) { cj.Name = strings.Repeat("n", 53) }),
			`CronJob.batch "` + strings.Repeat("n", 53) + `" is invalid: metadata.name: Invalid value: "` + strings.Repeat("n", 53) + `": must be no more than 52 characters`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := Workload(tc.obj, PodOptions{})
			got := ""
			if len(errs) > 0 {
				gvk := groupKindOf(tc.obj)
				got = apierrors.NewInvalid(gvk, tc.obj.(metav1.Object).GetName(), errs).Error()
			}
			if got != tc.want {
				t.Errorf("got\n  %s\nwant\n  %s", got, tc.want)
			}
		})
	}
}

func groupKindOf(obj runtime.Object) schema.GroupKind {
	switch obj.(type) {
	case *appsv1.Deployment:
		return schema.GroupKind{Group: "apps", Kind: "Deployment"}
	case *appsv1.ReplicaSet:
		return schema.GroupKind{Group: "apps", Kind: "ReplicaSet"}
	case *appsv1.StatefulSet:
		return schema.GroupKind{Group: "apps", Kind: "StatefulSet"}
	case *appsv1.DaemonSet:
		return schema.GroupKind{Group: "apps", Kind: "DaemonSet"}
	case *corev1.ReplicationController:
		return schema.GroupKind{Kind: "ReplicationController"}
	case *batchv1.Job:
		return schema.GroupKind{Group: "batch", Kind: "Job"}
	case *batchv1.CronJob:
		return schema.GroupKind{Group: "batch", Kind: "CronJob"}
	}
	return schema.GroupKind{}
}

// A claim template is validated as a claim's spec at its own path, and its
// name as the name of the volume the template gets for it.
func TestStatefulSetClaimTemplateStorage(t *testing.T) {
	s := statefulSet(func(s *appsv1.StatefulSet) {
		s.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "Bad_Name"},
			Spec: corev1.PersistentVolumeClaimSpec{Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("0")}}}}}
	}).(*appsv1.StatefulSet)
	got := StatefulSet(s, PodOptions{}).ToAggregate().Error()
	want := `[spec.volumeClaimTemplates[0].spec.accessModes: Required value: at least 1 access mode is required, spec.volumeClaimTemplates[0].spec.resources[storage]: Invalid value: "0": must be greater than zero, spec.template.spec.volumes[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
