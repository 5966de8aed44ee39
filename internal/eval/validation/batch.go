package validation

import (
	"fmt"
	"strconv"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Labels the Job strategy puts on the template of a Job whose selector it
// generates (PrepareForCreate generateSelector); the legacy ones have no
// constant in k8s.io/api.
const (
	LegacyJobNameLabel       = "job-name"
	LegacyControllerUIDLabel = "controller-uid"
)

const (
	maxParallelismForIndexedJob             = 100000
	maxFailedIndexesForIndexedJob           = 100_000
	completionsSoftLimit                    = 100_000
	parallelismLimitForHighCompletions      = 10_000
	maxFailedIndexesLimitForHighCompletions = 10_000
	maxPodFailurePolicyRules                = 20
	maxPodFailurePolicyOnExitCodesValues    = 255
	maxPodFailurePolicyOnPodConditions      = 20
	maxManagedByLength                      = 63
	maxSucceededIndexesLength               = 64 * 1024
	maxSuccessPolicyRules                   = 20
)

// Sorted, as upstream lists its sets.
var (
	podFailurePolicyActions = []batchv1.PodFailurePolicyAction{batchv1.PodFailurePolicyActionCount, batchv1.PodFailurePolicyActionFailIndex,
		batchv1.PodFailurePolicyActionFailJob, batchv1.PodFailurePolicyActionIgnore}
	exitCodesOperators  = []batchv1.PodFailurePolicyOnExitCodesOperator{batchv1.PodFailurePolicyOnExitCodesOpIn, batchv1.PodFailurePolicyOnExitCodesOpNotIn}
	podConditionStatus  = []corev1.ConditionStatus{corev1.ConditionFalse, corev1.ConditionTrue, corev1.ConditionUnknown}
	podReplacementsJob  = []batchv1.PodReplacementPolicy{batchv1.Failed, batchv1.TerminatingOrFailed}
	completionModesJob  = []batchv1.CompletionMode{batchv1.NonIndexedCompletion, batchv1.IndexedCompletion}
	concurrencyPolicies = []batchv1.ConcurrencyPolicy{batchv1.AllowConcurrent, batchv1.ForbidConcurrent, batchv1.ReplaceConcurrent}
)

// VAL-45: Job.

// Job is ValidateJob on create: metadata, the generated selector and labels
// (unless manualSelector), the spec, and an Indexed Job's longest Pod hostname.
// job must carry what PrepareForCreate set: UID, generated selector and labels.
func Job(job *batchv1.Job, opts PodOptions) field.ErrorList {
	errs := workloadMeta(&job.ObjectMeta, schema.GroupKind{Group: "batch", Kind: "Job"})
	errs = append(errs, generatedSelector(job)...)
	p := field.NewPath("spec")
	spec := &job.Spec
	errs = append(errs, jobSpec(spec, p, opts)...)
	if spec.Selector == nil {
		errs = append(errs, field.Required(p.Child("selector"), ""))
	} else {
		errs = append(errs, metav1validation.ValidateLabelSelector(spec.Selector, strictSelector, p.Child("selector"))...)
	}
	if sel, err := metav1.LabelSelectorAsSelector(spec.Selector); err == nil && !sel.Matches(labels.Set(spec.Template.Labels)) {
		errs = append(errs, field.Invalid(p.Child("template", "metadata", "labels"), spec.Template.Labels, "`selector` does not match template `labels`"))
	}
	if indexed(spec) && spec.Completions != nil && *spec.Completions > 0 {
		// The Job controller names the hostname of Pod i <name>-<i>.
		host := fmt.Sprintf("%s-%d", job.Name, *spec.Completions-1)
		if len(namecheck.IsDNS1123Label(host)) > 0 {
			errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), job.Name, "will not able to create pod with invalid DNS label: "+host))
		}
	}
	return errs
}

func indexed(spec *batchv1.JobSpec) bool {
	return spec.CompletionMode != nil && *spec.CompletionMode == batchv1.IndexedCompletion
}

// generatedSelector is validateGeneratedSelector with the batch.kubernetes.io labels required.
func generatedSelector(job *batchv1.Job) field.ErrorList {
	if job.Spec.ManualSelector != nil && *job.Spec.ManualSelector || job.Spec.Selector == nil {
		return nil
	}
	var errs field.ErrorList
	if job.UID == "" {
		errs = append(errs, field.Required(field.NewPath("metadata", "uid"), ""))
	}
	mp := field.NewPath("spec", "template", "metadata")
	uid, name := string(job.UID), job.Name
	for _, l := range []struct{ key, value string }{
		{LegacyControllerUIDLabel, uid}, {LegacyJobNameLabel, name}, {batchv1.ControllerUidLabel, uid}, {batchv1.JobNameLabel, name},
	} {
		errs = append(errs, hasLabel(&job.Spec.Template.ObjectMeta, mp, l.key, l.value)...)
	}
	want := labels.Set{batchv1.ControllerUidLabel: uid, batchv1.JobNameLabel: name, LegacyControllerUIDLabel: uid, LegacyJobNameLabel: name}
	if sel, err := metav1.LabelSelectorAsSelector(job.Spec.Selector); err == nil && !sel.Matches(want) {
		errs = append(errs, field.Invalid(field.NewPath("spec", "selector"), job.Spec.Selector, "`selector` not auto-generated"))
	}
	return errs
}

// hasLabel is core ValidateHasLabel.
func hasLabel(meta *metav1.ObjectMeta, p *field.Path, key, want string) field.ErrorList {
	got, ok := meta.Labels[key]
	if !ok {
		return field.ErrorList{field.Required(p.Child("labels").Key(key), fmt.Sprintf("must be '%s'", want))}
	}
	if got != want {
		return field.ErrorList{field.Invalid(p.Child("labels").Key(key), meta.Labels, fmt.Sprintf("must be '%s'", want))}
	}
	return nil
}

// jobSpec is validateJobSpec, shared by Jobs and CronJobs' job templates (VAL-45, VAL-46).
func jobSpec(spec *batchv1.JobSpec, p *field.Path, opts PodOptions) field.ErrorList {
	var errs field.ErrorList
	for _, f := range []struct {
		v    *int32
		name string
	}{{spec.Parallelism, "parallelism"}, {spec.Completions, "completions"}} {
		if f.v != nil {
			errs = append(errs, nonNegative(*f.v, p.Child(f.name))...)
		}
	}
	if spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(*spec.ActiveDeadlineSeconds, p.Child("activeDeadlineSeconds"))...)
	}
	for _, f := range []struct {
		v    *int32
		name string
	}{{spec.BackoffLimit, "backoffLimit"}, {spec.TTLSecondsAfterFinished, "ttlSecondsAfterFinished"}, {spec.BackoffLimitPerIndex, "backoffLimitPerIndex"}} {
		if f.v != nil {
			errs = append(errs, nonNegative(*f.v, p.Child(f.name))...)
		}
	}
	if spec.MaxFailedIndexes != nil {
		errs = append(errs, nonNegative(*spec.MaxFailedIndexes, p.Child("maxFailedIndexes"))...)
		if spec.BackoffLimitPerIndex == nil {
			errs = append(errs, field.Required(p.Child("backoffLimitPerIndex"), "when maxFailedIndexes is specified"))
		}
	}
	if spec.ManagedBy != nil {
		errs = append(errs, validation.IsDomainPrefixedPath(p.Child("managedBy"), *spec.ManagedBy)...)
		if len(*spec.ManagedBy) > maxManagedByLength {
			errs = append(errs, field.TooLong(p.Child("managedBy"), "", maxManagedByLength))
		}
	}
	if spec.CompletionMode != nil {
		errs = append(errs, completionMode(spec, p)...)
	}
	// Only NonIndexed: an unknown mode is refused above, not here.
	if spec.CompletionMode == nil || *spec.CompletionMode == batchv1.NonIndexedCompletion {
		if spec.BackoffLimitPerIndex != nil {
			errs = append(errs, field.Invalid(p.Child("backoffLimitPerIndex"), *spec.BackoffLimitPerIndex, "requires indexed completion mode"))
		}
		if spec.MaxFailedIndexes != nil {
			errs = append(errs, field.Invalid(p.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, "requires indexed completion mode"))
		}
	}
	if spec.PodFailurePolicy != nil {
		errs = append(errs, podFailurePolicy(spec, p.Child("podFailurePolicy"))...)
	}
	if spec.SuccessPolicy != nil {
		if !indexed(spec) {
			errs = append(errs, field.Invalid(p.Child("successPolicy"), internalSuccessPolicyOf(spec.SuccessPolicy), "requires indexed completion mode"))
		} else {
			errs = append(errs, successPolicy(spec, p.Child("successPolicy"))...)
		}
	}
	if r := spec.PodReplacementPolicy; r != nil {
		rp := p.Child("podReplacementPolicy")
		if spec.PodFailurePolicy != nil {
			if *r != batchv1.Failed {
				errs = append(errs, field.NotSupported(rp, *r, []batchv1.PodReplacementPolicy{batchv1.Failed}))
			}
		} else if *r != batchv1.Failed && *r != batchv1.TerminatingOrFailed {
			errs = append(errs, field.NotSupported(rp, *r, podReplacementsJob))
		}
	}
	errs = append(errs, PodTemplate(&spec.Template, p.Child("template"), opts)...)
	// restartPolicy: an unset one is defaulted to Always, which Jobs refuse.
	rp := p.Child("template", "spec", "restartPolicy")
	switch r := spec.Template.Spec.RestartPolicy; {
	case r == corev1.RestartPolicyAlways || r == "":
		errs = append(errs, field.Required(rp, fmt.Sprintf("valid values: %q, %q", corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever)))
	case r != corev1.RestartPolicyOnFailure && r != corev1.RestartPolicyNever:
		errs = append(errs, field.NotSupported(rp, r, []corev1.RestartPolicy{corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever}))
	case spec.PodFailurePolicy != nil && r != corev1.RestartPolicyNever:
		errs = append(errs, field.Invalid(rp, r, fmt.Sprintf("only %q is supported when podFailurePolicy is specified", corev1.RestartPolicyNever)))
	}
	return errs
}

func completionMode(spec *batchv1.JobSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	mode := *spec.CompletionMode
	if mode != batchv1.NonIndexedCompletion && mode != batchv1.IndexedCompletion {
		errs = append(errs, field.NotSupported(p.Child("completionMode"), spec.CompletionMode, completionModesJob))
	}
	if mode != batchv1.IndexedCompletion {
		return errs
	}
	if spec.Completions == nil {
		errs = append(errs, field.Required(p.Child("completions"), "when completion mode is Indexed"))
	}
	if spec.Parallelism != nil && *spec.Parallelism > maxParallelismForIndexedJob {
		errs = append(errs, field.Invalid(p.Child("parallelism"), *spec.Parallelism, fmt.Sprintf("must be less than or equal to %d when completion mode is Indexed", maxParallelismForIndexedJob)))
	}
	if spec.Completions != nil && spec.MaxFailedIndexes != nil && *spec.MaxFailedIndexes > *spec.Completions {
		errs = append(errs, field.Invalid(p.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, "must be less than or equal to completions"))
	}
	if spec.MaxFailedIndexes != nil && *spec.MaxFailedIndexes > maxFailedIndexesForIndexedJob {
		errs = append(errs, field.Invalid(p.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, fmt.Sprintf("must be less than or equal to %d", maxFailedIndexesForIndexedJob)))
	}
	if spec.Completions != nil && *spec.Completions > completionsSoftLimit && spec.BackoffLimitPerIndex != nil {
		if spec.MaxFailedIndexes == nil {
			errs = append(errs, field.Required(p.Child("maxFailedIndexes"), fmt.Sprintf("must be specified when completions is above %d", completionsSoftLimit)))
		}
		if spec.Parallelism != nil && *spec.Parallelism > parallelismLimitForHighCompletions {
			errs = append(errs, field.Invalid(p.Child("parallelism"), *spec.Parallelism, fmt.Sprintf("must be less than or equal to %d when completions are above %d and used with backoff limit per index", parallelismLimitForHighCompletions, completionsSoftLimit)))
		}
		if spec.MaxFailedIndexes != nil && *spec.MaxFailedIndexes > maxFailedIndexesLimitForHighCompletions {
			errs = append(errs, field.Invalid(p.Child("maxFailedIndexes"), *spec.MaxFailedIndexes, fmt.Sprintf("must be less than or equal to %d when completions are above %d and used with backoff limit per index", maxFailedIndexesLimitForHighCompletions, completionsSoftLimit)))
		}
	}
	return errs
}

func podFailurePolicy(spec *batchv1.JobSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	rulesPath := p.Child("rules")
	rules := spec.PodFailurePolicy.Rules
	if len(rules) > maxPodFailurePolicyRules {
		errs = append(errs, field.TooMany(rulesPath, len(rules), maxPodFailurePolicyRules))
	}
	names := map[string]bool{}
	for _, c := range spec.Template.Spec.Containers {
		names[c.Name] = true
	}
	for _, c := range spec.Template.Spec.InitContainers {
		names[c.Name] = true
	}
	for i := range rules {
		errs = append(errs, podFailurePolicyRule(spec, &rules[i], rulesPath.Index(i), names)...)
	}
	return errs
}

func podFailurePolicyRule(spec *batchv1.JobSpec, rule *batchv1.PodFailurePolicyRule, p *field.Path, containers map[string]bool) field.ErrorList {
	var errs field.ErrorList
	ap := p.Child("action")
	switch {
	case rule.Action == "":
		errs = append(errs, field.Required(ap, fmt.Sprintf("valid values: %q", podFailurePolicyActions)))
	case rule.Action == batchv1.PodFailurePolicyActionFailIndex:
		if spec.BackoffLimitPerIndex == nil {
			errs = append(errs, field.Invalid(ap, rule.Action, "requires the backoffLimitPerIndex to be set"))
		}
	case !oneOf(rule.Action, podFailurePolicyActions):
		errs = append(errs, field.NotSupported(ap, rule.Action, podFailurePolicyActions))
	}
	if rule.OnExitCodes != nil {
		errs = append(errs, onExitCodes(rule.OnExitCodes, p.Child("onExitCodes"), containers)...)
	}
	if len(rule.OnPodConditions) > 0 {
		cp := p.Child("onPodConditions")
		if len(rule.OnPodConditions) > maxPodFailurePolicyOnPodConditions {
			errs = append(errs, field.TooMany(cp, len(rule.OnPodConditions), maxPodFailurePolicyOnPodConditions))
		}
		for j, pattern := range rule.OnPodConditions {
			pp := cp.Index(j)
			for _, msg := range namecheck.IsQualifiedName(string(pattern.Type)) {
				errs = append(errs, field.Invalid(pp.Child("type"), string(pattern.Type), msg))
			}
			switch {
			case pattern.Status == "":
				errs = append(errs, field.Required(pp.Child("status"), fmt.Sprintf("valid values: %q", podConditionStatus)))
			case !oneOf(pattern.Status, podConditionStatus):
				errs = append(errs, field.NotSupported(pp.Child("status"), pattern.Status, podConditionStatus))
			}
		}
	}
	if rule.OnExitCodes != nil && len(rule.OnPodConditions) > 0 {
		errs = append(errs, field.Invalid(p, field.OmitValueType{}, "specifying both OnExitCodes and OnPodConditions is not supported"))
	}
	if rule.OnExitCodes == nil && len(rule.OnPodConditions) == 0 {
		errs = append(errs, field.Invalid(p, field.OmitValueType{}, "specifying one of OnExitCodes and OnPodConditions is required"))
	}
	return errs
}

func onExitCodes(r *batchv1.PodFailurePolicyOnExitCodesRequirement, p *field.Path, containers map[string]bool) field.ErrorList {
	var errs field.ErrorList
	op := p.Child("operator")
	switch {
	case r.Operator == "":
		errs = append(errs, field.Required(op, fmt.Sprintf("valid values: %q", exitCodesOperators)))
	case !oneOf(r.Operator, exitCodesOperators):
		errs = append(errs, field.NotSupported(op, r.Operator, exitCodesOperators))
	}
	if r.ContainerName != nil && !containers[*r.ContainerName] {
		errs = append(errs, field.Invalid(p.Child("containerName"), *r.ContainerName, "must be one of the container or initContainer names in the pod template"))
	}
	vp := p.Child("values")
	if len(r.Values) == 0 {
		errs = append(errs, field.Invalid(vp, r.Values, "at least one value is required"))
	} else if len(r.Values) > maxPodFailurePolicyOnExitCodesValues {
		errs = append(errs, field.TooMany(vp, len(r.Values), maxPodFailurePolicyOnExitCodesValues))
	}
	ordered := true
	seen := map[int32]bool{}
	for j, v := range r.Values {
		if r.Operator == batchv1.PodFailurePolicyOnExitCodesOpIn && v == 0 {
			errs = append(errs, field.Invalid(vp.Index(j), v, "must not be 0 for the In operator"))
		}
		if seen[v] {
			errs = append(errs, field.Duplicate(vp.Index(j), v))
		}
		seen[v] = true
		if j > 0 && r.Values[j-1] > v {
			ordered = false
		}
	}
	if !ordered {
		errs = append(errs, field.Invalid(vp, r.Values, "must be ordered"))
	}
	return errs
}

func oneOf[T comparable](v T, list []T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// Internal shape of a success policy, for the value a message prints.
type (
	internalSuccessPolicy struct {
		Rules []internalSuccessPolicyRule
	}
	internalSuccessPolicyRule struct {
		SucceededIndexes *string
		SucceededCount   *int32
	}
)

func internalSuccessPolicyOf(sp *batchv1.SuccessPolicy) internalSuccessPolicy {
	out := internalSuccessPolicy{}
	if sp.Rules != nil {
		out.Rules = make([]internalSuccessPolicyRule, len(sp.Rules))
		for i, r := range sp.Rules {
			out.Rules[i] = internalSuccessPolicyRule{SucceededIndexes: r.SucceededIndexes, SucceededCount: r.SucceededCount}
		}
	}
	return out
}

func successPolicy(spec *batchv1.JobSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	rp := p.Child("rules")
	rules := spec.SuccessPolicy.Rules
	if len(rules) == 0 {
		errs = append(errs, field.Required(rp, "at least one rules must be specified when the successPolicy is specified"))
	}
	if len(rules) > maxSuccessPolicyRules {
		errs = append(errs, field.TooMany(rp, len(rules), maxSuccessPolicyRules))
	}
	// Indexed: completions is set, or already refused (upstream would
	// dereference nil here).
	completions := deref(spec.Completions)
	for i, rule := range rules {
		p := rp.Index(i)
		if rule.SucceededCount == nil && rule.SucceededIndexes == nil {
			errs = append(errs, field.Required(p, "at least one of succeededCount or succeededIndexes must be specified"))
		}
		var total int32
		if rule.SucceededIndexes != nil {
			ip := p.Child("succeededIndexes")
			if len(*rule.SucceededIndexes) > maxSucceededIndexesLength {
				errs = append(errs, field.TooLong(ip, "", maxSucceededIndexesLength))
			}
			var err error
			if total, err = indexesFormat(*rule.SucceededIndexes, completions); err != nil {
				errs = append(errs, field.Invalid(ip, *rule.SucceededIndexes, "error parsing succeededIndexes: "+err.Error()))
			}
		}
		if rule.SucceededCount != nil {
			cp := p.Child("succeededCount")
			errs = append(errs, nonNegative(*rule.SucceededCount, cp)...)
			if *rule.SucceededCount > completions {
				errs = append(errs, field.Invalid(cp, *rule.SucceededCount, fmt.Sprintf("must be less than or equal to %d (the number of specified completions)", completions)))
			}
			if rule.SucceededIndexes != nil && *rule.SucceededCount > total {
				errs = append(errs, field.Invalid(cp, *rule.SucceededCount, fmt.Sprintf("must be less than or equal to %d (the number of indexes in the specified succeededIndexes field)", total)))
			}
		}
	}
	return errs
}

// indexesFormat is validateIndexesFormat: "1,3-5,7" with increasing indexes
// below completions; it returns how many indexes the string names.
func indexesFormat(s string, completions int32) (int32, error) {
	if s == "" {
		return 0, nil
	}
	var last *int32
	var total int32
	for _, interval := range strings.Split(s, ",") {
		x, y, err := indexInterval(interval, completions)
		if err != nil {
			return 0, err
		}
		if last != nil && *last >= x {
			return 0, fmt.Errorf("non-increasing order, previous: %d, current: %d", *last, x)
		}
		total += y - x + 1
		last = &y
	}
	return total, nil
}

func indexInterval(s string, completions int32) (int32, int32, error) {
	parts := strings.Split(s, "-")
	if len(parts) > 2 {
		return 0, 0, fmt.Errorf("the fragment %q violates the requirement that an index interval can have at most two parts separated by '-'", s)
	}
	x, err := strconv.Atoi(parts[0])
	if err != nil {
		return 0, 0, fmt.Errorf("cannot convert string to integer for index: %q", parts[0])
	}
	if x >= int(completions) {
		return 0, 0, fmt.Errorf("too large index: %q", parts[0])
	}
	if len(parts) == 1 {
		return int32(x), int32(x), nil
	}
	y, err := strconv.Atoi(parts[1])
	if err != nil {
		return 0, 0, fmt.Errorf("cannot convert string to integer for index: %q", parts[1])
	}
	if y >= int(completions) {
		return 0, 0, fmt.Errorf("too large index: %q", parts[1])
	}
	if x >= y {
		return 0, 0, fmt.Errorf("non-increasing order, previous: %d, current: %d", x, y)
	}
	return int32(x), int32(y), nil
}

// VAL-46: CronJob.

// CronJob is ValidateCronJobCreate: metadata, the spec, and a name short enough
// for the controller's 11-character suffix on its Jobs.
func CronJob(cj *batchv1.CronJob, opts PodOptions) field.ErrorList {
	errs := workloadMeta(&cj.ObjectMeta, schema.GroupKind{Group: "batch", Kind: "CronJob"})
	p := field.NewPath("spec")
	spec := &cj.Spec
	if spec.Schedule == "" {
		errs = append(errs, field.Required(p.Child("schedule"), ""))
	} else {
		errs = append(errs, Schedule(spec.Schedule, p.Child("schedule"))...)
	}
	if spec.StartingDeadlineSeconds != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(*spec.StartingDeadlineSeconds, p.Child("startingDeadlineSeconds"))...)
	}
	errs = append(errs, TimeZone(spec.TimeZone, p.Child("timeZone"))...)
	cp := p.Child("concurrencyPolicy")
	switch {
	case spec.ConcurrencyPolicy == "":
		errs = append(errs, field.Required(cp, ""))
	case !oneOf(spec.ConcurrencyPolicy, concurrencyPolicies):
		errs = append(errs, field.NotSupported(cp, spec.ConcurrencyPolicy, concurrencyPolicies))
	}
	// ValidateJobTemplateSpec: the job template's metadata is not validated.
	jp := p.Child("jobTemplate", "spec")
	js := &spec.JobTemplate.Spec
	errs = append(errs, jobSpec(js, jp, opts)...)
	if js.Selector != nil {
		errs = append(errs, field.Invalid(jp.Child("selector"), js.Selector, "`selector` will be auto-generated"))
	}
	if js.ManualSelector != nil && *js.ManualSelector {
		errs = append(errs, field.NotSupported(jp.Child("manualSelector"), js.ManualSelector, []string{"nil", "false"}))
	}
	if spec.SuccessfulJobsHistoryLimit != nil {
		errs = append(errs, nonNegative(*spec.SuccessfulJobsHistoryLimit, p.Child("successfulJobsHistoryLimit"))...)
	}
	if spec.FailedJobsHistoryLimit != nil {
		errs = append(errs, nonNegative(*spec.FailedJobsHistoryLimit, p.Child("failedJobsHistoryLimit"))...)
	}
	if len(cj.Name) > validation.DNS1035LabelMaxLength-11 {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), cj.Name, "must be no more than 52 characters"))
	}
	return errs
}
