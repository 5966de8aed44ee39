// Package podsecurity is the PodSecurity admission plugin (PS-01..PS-04):
// the Pod Security Standards a namespace's pod-security.kubernetes.io labels
// name, enforced on the Pods created in it and warned of on Pods and
// workload templates.
//
// The standards themselves (which fields each level forbids, from which
// version, and the words of every violation) are the upstream library's
// (k8s.io/pod-security-admission/policy), so that they are the cluster's by
// construction; this package is the plugin around them: which policy a
// namespace has, which objects are evaluated at which level, and the
// messages and warnings a create gets.
package podsecurity

import (
	"fmt"
	"slices"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	psadmissionapi "k8s.io/pod-security-admission/admission/api"
	psvalidation "k8s.io/pod-security-admission/admission/api/validation"
	psapi "k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
)

// emulated is the version "latest" stands for: the cluster limitcheck
// simulates. A label naming a later version is evaluated as this one, as a
// kube-apiserver of this version does.
var emulated = psapi.MajorMinorVersion(1, 36)

// Policy is a namespace's policy: the level and version each mode uses.
type Policy struct{ p psapi.Policy }

// Default is the policy of a namespace without labels on a cluster with the
// plugin's default configuration: privileged in every mode.
func Default() Policy {
	lv := psapi.LevelVersion{Level: psapi.LevelPrivileged, Version: psapi.LatestVersion()}
	return Policy{psapi.Policy{Enforce: lv, Audit: lv, Warn: lv}}
}

// FromLabels reads a namespace's labels over the cluster default (PS-01): a
// level or version that does not parse is an error, which a Namespace create
// is refused for (NamespaceErrors); read from an existing namespace it fails
// closed for enforce (restricted, latest) and open for warn.
func FromLabels(labels map[string]string) (Policy, field.ErrorList) {
	return (*Config)(nil).Labels(labels)
}

// Privileged reports whether the policy checks nothing a create shows:
// enforce and warn both privileged (audit reaches only the audit log).
func (p Policy) Privileged() bool {
	return checksNothing(p.p.Enforce.Level) && checksNothing(p.p.Warn.Level)
}

// checksNothing: privileged, or the zero Policy's empty level.
func checksNothing(l psapi.Level) bool { return l == psapi.LevelPrivileged || l == "" }

// Enforce is the enforce level and version, as messages print it
// ("restricted:latest").
func (p Policy) Enforce() string { return p.p.Enforce.String() }

var (
	evaluatorOnce sync.Once
	evaluator     policy.Evaluator
	evaluatorErr  error
)

// evaluate runs the checks of lv on a Pod's metadata and spec.
func evaluate(lv psapi.LevelVersion, meta *metav1.ObjectMeta, spec *corev1.PodSpec) policy.AggregateCheckResult {
	evaluatorOnce.Do(func() {
		evaluator, evaluatorErr = policy.NewEvaluator(policy.DefaultChecks(), &emulated)
	})
	if evaluatorErr != nil {
		panic(fmt.Sprintf("the Pod Security Standards' checks: %v", evaluatorErr))
	}
	return policy.AggregateCheckResults(evaluator.EvaluatePod(lv, meta, spec))
}

// ValidatePod is the plugin on a Pod create (PS-02): the error the create is
// forbidden with when the Pod breaks the enforce level, else the warning it
// gets when it breaks the warn level ("" for none).
func (p Policy) ValidatePod(meta *metav1.ObjectMeta, spec *corev1.PodSpec) (forbidden error, warning string) {
	if p.Privileged() {
		return nil, ""
	}
	results := map[psapi.LevelVersion]policy.AggregateCheckResult{}
	if !checksNothing(p.p.Enforce.Level) {
		r := evaluate(p.p.Enforce, meta, spec)
		if !r.Allowed {
			return fmt.Errorf("violates PodSecurity %q: %s", p.p.Enforce.String(), r.ForbiddenDetail()), ""
		}
		results[p.p.Enforce] = r
	}
	return nil, p.warn(meta, spec, results)
}

// WarnTemplate is the plugin on a workload's create (PS-03): only the warn
// level applies to a Pod template, never enforce.
func (p Policy) WarnTemplate(meta *metav1.ObjectMeta, spec *corev1.PodSpec) string {
	if checksNothing(p.p.Warn.Level) {
		return ""
	}
	return p.warn(meta, spec, nil)
}

// warn is the warning of the warn level, reusing a result of the same level
// and version.
func (p Policy) warn(meta *metav1.ObjectMeta, spec *corev1.PodSpec, results map[psapi.LevelVersion]policy.AggregateCheckResult) string {
	if checksNothing(p.p.Warn.Level) {
		return ""
	}
	r, ok := results[p.p.Warn]
	if !ok {
		r = evaluate(p.p.Warn, meta, spec)
	}
	if r.Allowed {
		return ""
	}
	return fmt.Sprintf("would violate PodSecurity %q: %s", p.p.Warn.String(), r.ForbiddenDetail())
}

// NamespaceErrors are the errors a Namespace create is refused for: labels
// that do not parse as a level or version (PS-01).
func NamespaceErrors(ns *corev1.Namespace) field.ErrorList {
	_, errs := FromLabels(ns.Labels)
	return errs
}

// Template is the Pod template of a workload the plugin warns of (PS-03):
// nil for any other object, and for a ReplicationController without one.
func Template(obj runtime.Object) *corev1.PodTemplateSpec {
	switch o := obj.(type) {
	case *corev1.PodTemplate:
		return &o.Template
	case *corev1.ReplicationController:
		return o.Spec.Template
	case *appsv1.ReplicaSet:
		return &o.Spec.Template
	case *appsv1.Deployment:
		return &o.Spec.Template
	case *appsv1.DaemonSet:
		return &o.Spec.Template
	case *appsv1.StatefulSet:
		return &o.Spec.Template
	case *batchv1.Job:
		return &o.Spec.Template
	case *batchv1.CronJob:
		return &o.Spec.JobTemplate.Spec.Template
	}
	return nil
}

// Config is the plugin's PodSecurityConfiguration (PS-04): the policy of a
// namespace without labels, and what is exempt. (Decoding the document is
// internal/admissionconfig's: the library's loader registers a scheme at
// start-up, which every run would pay.)
type Config struct {
	defaults Policy
	// ExemptNamespaces, ExemptRuntimeClasses and ExemptUsernames are
	// never evaluated.
	ExemptNamespaces, ExemptRuntimeClasses, ExemptUsernames []string
}

// Settings are the fields of a PodSecurityConfiguration, as decoded.
type Settings struct {
	Enforce, EnforceVersion, Audit, AuditVersion, Warn, WarnVersion string
	Usernames, Namespaces, RuntimeClasses                           []string
}

// NewConfig is the configuration of settings as kube-apiserver takes it:
// defaulted (privileged, latest) and validated.
func NewConfig(s Settings) (*Config, error) {
	or := func(v string, def string) string {
		if v == "" {
			return def
		}
		return v
	}
	priv, latest := string(psapi.LevelPrivileged), string(psapi.VersionLatest)
	c := &psadmissionapi.PodSecurityConfiguration{
		Defaults: psadmissionapi.PodSecurityDefaults{
			Enforce: or(s.Enforce, priv), EnforceVersion: or(s.EnforceVersion, latest),
			Audit: or(s.Audit, priv), AuditVersion: or(s.AuditVersion, latest),
			Warn: or(s.Warn, priv), WarnVersion: or(s.WarnVersion, latest),
		},
		Exemptions: psadmissionapi.PodSecurityExemptions{Usernames: s.Usernames, Namespaces: s.Namespaces, RuntimeClasses: s.RuntimeClasses},
	}
	if errs := psvalidation.ValidatePodSecurityConfiguration(c); len(errs) > 0 {
		return nil, errs.ToAggregate()
	}
	p, err := psadmissionapi.ToPolicy(c.Defaults)
	if err != nil {
		return nil, err
	}
	return &Config{defaults: Policy{p}, ExemptNamespaces: s.Namespaces, ExemptRuntimeClasses: s.RuntimeClasses, ExemptUsernames: s.Usernames}, nil
}

// Defaults is the policy of a namespace without labels: the configuration's,
// or privileged everywhere without one.
func (c *Config) Defaults() Policy {
	if c == nil {
		return Default()
	}
	return c.defaults
}

// NamespaceExempt reports whether the configuration exempts a namespace.
func (c *Config) NamespaceExempt(ns string) bool {
	return c != nil && ns != "" && slices.Contains(c.ExemptNamespaces, ns)
}

// RuntimeClassExempt reports whether the configuration exempts the Pods of
// a RuntimeClass.
func (c *Config) RuntimeClassExempt(name *string) bool {
	return c != nil && name != nil && *name != "" && slices.Contains(c.ExemptRuntimeClasses, *name)
}

// Labels reads a namespace's labels over the configuration's defaults (see
// FromLabels).
func (c *Config) Labels(labels map[string]string) (Policy, field.ErrorList) {
	p, errs := psapi.PolicyToEvaluate(labels, c.Defaults().p)
	return Policy{p}, errs
}

// Policy is the policy of namespace ns, given the policies the namespaces'
// labels set (labelled): its own, else the defaults; the zero Policy, which
// checks nothing, for an exempt namespace or a privileged one.
func (c *Config) Policy(ns string, labelled map[string]Policy) Policy {
	if c.NamespaceExempt(ns) {
		return Policy{}
	}
	p, ok := labelled[ns]
	if !ok {
		p = c.Defaults()
	}
	if p.Privileged() {
		return Policy{}
	}
	return p
}
