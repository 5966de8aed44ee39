package defaults

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// admissionregistration.k8s.io/v1 webhook configurations (VAL-79): what the
// v1 defaulters fill in on every webhook, its rules and its Service
// reference. Both strategies' PrepareForCreate only set metadata.generation
// (validation.MetaRules.SetsGeneration).

// webhookCommon points at the fields validating and mutating webhooks share.
type webhookCommon struct {
	failurePolicy     **admissionregistrationv1.FailurePolicyType
	matchPolicy       **admissionregistrationv1.MatchPolicyType
	namespaceSelector **metav1.LabelSelector
	objectSelector    **metav1.LabelSelector
	timeoutSeconds    **int32
	rules             []admissionregistrationv1.RuleWithOperations
	clientConfig      *admissionregistrationv1.WebhookClientConfig
}

func (w webhookCommon) setDefaults() {
	if *w.failurePolicy == nil {
		p := admissionregistrationv1.Fail
		*w.failurePolicy = &p
	}
	if *w.matchPolicy == nil {
		p := admissionregistrationv1.Equivalent
		*w.matchPolicy = &p
	}
	if *w.namespaceSelector == nil {
		*w.namespaceSelector = &metav1.LabelSelector{}
	}
	if *w.objectSelector == nil {
		*w.objectSelector = &metav1.LabelSelector{}
	}
	if *w.timeoutSeconds == nil {
		t := int32(10)
		*w.timeoutSeconds = &t
	}
	for i := range w.rules {
		if w.rules[i].Scope == nil {
			s := admissionregistrationv1.AllScopes
			w.rules[i].Scope = &s
		}
	}
	if svc := w.clientConfig.Service; svc != nil && svc.Port == nil {
		port := int32(443)
		svc.Port = &port
	}
}

// DefaultValidatingWebhookConfiguration is the v1 defaulting of a
// ValidatingWebhookConfiguration (VAL-79): each webhook without them gets
// failurePolicy Fail, matchPolicy Equivalent, empty (match-all) namespace and
// object selectors and timeoutSeconds 10; each rule without a scope gets "*";
// a Service reference without a port gets 443.
func DefaultValidatingWebhookConfiguration(c *admissionregistrationv1.ValidatingWebhookConfiguration) {
	for i := range c.Webhooks {
		w := &c.Webhooks[i]
		webhookCommon{&w.FailurePolicy, &w.MatchPolicy, &w.NamespaceSelector, &w.ObjectSelector, &w.TimeoutSeconds, w.Rules, &w.ClientConfig}.setDefaults()
	}
}

// DefaultMutatingWebhookConfiguration is DefaultValidatingWebhookConfiguration
// for mutating webhooks, which also get reinvocationPolicy Never.
func DefaultMutatingWebhookConfiguration(c *admissionregistrationv1.MutatingWebhookConfiguration) {
	for i := range c.Webhooks {
		w := &c.Webhooks[i]
		webhookCommon{&w.FailurePolicy, &w.MatchPolicy, &w.NamespaceSelector, &w.ObjectSelector, &w.TimeoutSeconds, w.Rules, &w.ClientConfig}.setDefaults()
		if w.ReinvocationPolicy == nil {
			p := admissionregistrationv1.NeverReinvocationPolicy
			w.ReinvocationPolicy = &p
		}
	}
}

// DefaultValidatingAdmissionPolicy is the v1 defaulting of a
// ValidatingAdmissionPolicy (VAL-106): failurePolicy Fail; match
// constraints, when given, as DefaultMatchResources.
func DefaultValidatingAdmissionPolicy(p *admissionregistrationv1.ValidatingAdmissionPolicy) {
	defaultPolicy(&p.Spec.FailurePolicy, p.Spec.MatchConstraints)
}

// defaultPolicy is what both kinds of admission policy default: failurePolicy
// Fail, and the match constraints when given.
func defaultPolicy(fp **admissionregistrationv1.FailurePolicyType, mc *admissionregistrationv1.MatchResources) {
	if *fp == nil {
		f := admissionregistrationv1.Fail
		*fp = &f
	}
	defaultMatchResources(mc)
}

// DefaultValidatingAdmissionPolicyBinding is the v1 defaulting of a
// binding (VAL-107): its match resources, when given, as a policy's.
func DefaultValidatingAdmissionPolicyBinding(b *admissionregistrationv1.ValidatingAdmissionPolicyBinding) {
	defaultMatchResources(b.Spec.MatchResources)
}

// DefaultMutatingAdmissionPolicy is the v1 defaulting of a
// MutatingAdmissionPolicy (VAL-108): failurePolicy Fail; match
// constraints, when given, as DefaultMatchResources. reinvocationPolicy
// has no default.
func DefaultMutatingAdmissionPolicy(p *admissionregistrationv1.MutatingAdmissionPolicy) {
	defaultPolicy(&p.Spec.FailurePolicy, p.Spec.MatchConstraints)
}

// DefaultMutatingAdmissionPolicyBinding is the v1 defaulting of a
// binding (VAL-109): its match resources, when given, as a policy's.
func DefaultMutatingAdmissionPolicyBinding(b *admissionregistrationv1.MutatingAdmissionPolicyBinding) {
	defaultMatchResources(b.Spec.MatchResources)
}

// defaultMatchResources gives match resources without them matchPolicy
// Equivalent and empty (match-all) namespace and object selectors, and each
// rule, included or excluded, without a scope "*".
func defaultMatchResources(m *admissionregistrationv1.MatchResources) {
	if m == nil {
		return
	}
	if m.MatchPolicy == nil {
		p := admissionregistrationv1.Equivalent
		m.MatchPolicy = &p
	}
	if m.NamespaceSelector == nil {
		m.NamespaceSelector = &metav1.LabelSelector{}
	}
	if m.ObjectSelector == nil {
		m.ObjectSelector = &metav1.LabelSelector{}
	}
	for _, rules := range [][]admissionregistrationv1.NamedRuleWithOperations{m.ResourceRules, m.ExcludeResourceRules} {
		for i := range rules {
			if rules[i].Scope == nil {
				s := admissionregistrationv1.AllScopes
				rules[i].Scope = &s
			}
		}
	}
}
