package validation

import (
	"fmt"
	"net/url"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Create validation of admissionregistration.k8s.io/v1
// ValidatingWebhookConfigurations and MutatingWebhookConfigurations
// (VAL-80..VAL-83), on objects defaulted as the v1 API does (VAL-79). Both
// are cluster-scoped; their metadata is checked by apimachinery's
// ValidateObjectMeta (no finalizer-name rule) with a DNS-subdomain name, and
// PrepareForCreate sets metadata.generation. Neither strategy has
// declarative validation.

var webhookConfigMeta = MetaRules{Name: NameDNSSubdomain, ClusterScoped: true, SetsGeneration: true}

// The values each enumerated field accepts, sorted as the NotSupported
// messages list them. A create allows only side-effect classes without side
// effects.
var (
	webhookFailurePolicies = []string{string(admissionregistrationv1.Fail), string(admissionregistrationv1.Ignore)}
	webhookMatchPolicies   = []string{string(admissionregistrationv1.Equivalent), string(admissionregistrationv1.Exact)}
	webhookSideEffects     = []string{string(admissionregistrationv1.SideEffectClassNone), string(admissionregistrationv1.SideEffectClassNoneOnDryRun)}
	webhookReinvocations   = []string{string(admissionregistrationv1.IfNeededReinvocationPolicy), string(admissionregistrationv1.NeverReinvocationPolicy)}
	webhookOperations      = []string{string(admissionregistrationv1.OperationAll), string(admissionregistrationv1.Connect),
		string(admissionregistrationv1.Create), string(admissionregistrationv1.Delete), string(admissionregistrationv1.Update)}
	webhookScopes = []string{string(admissionregistrationv1.AllScopes), string(admissionregistrationv1.ClusterScope), string(admissionregistrationv1.NamespacedScope)}
	// admissionReviewVersions kube-apiserver 1.36 understands.
	webhookReviewVersions = []string{"v1", "v1beta1"}
)

// maxMatchConditions is how many matchConditions a webhook may have.
const maxMatchConditions = 64

// webhook is what a validating and a mutating webhook share, plus the
// mutating one's reinvocation policy (mutating tells them apart).
type webhook struct {
	name                           string
	clientConfig                   *admissionregistrationv1.WebhookClientConfig
	rules                          []admissionregistrationv1.RuleWithOperations
	failurePolicy                  *admissionregistrationv1.FailurePolicyType
	matchPolicy                    *admissionregistrationv1.MatchPolicyType
	namespaceSelector, objSelector *metav1.LabelSelector
	sideEffects                    *admissionregistrationv1.SideEffectClass
	timeoutSeconds                 *int32
	admissionReviewVersions        []string
	matchConditions                []admissionregistrationv1.MatchCondition
	mutating                       bool
	reinvocationPolicy             *admissionregistrationv1.ReinvocationPolicyType
	compile                        ExpressionCompiler // of the match conditions; nil: not compiled
}

// ValidatingWebhookConfiguration is the strategy's Validate,
// ValidateValidatingWebhookConfiguration, on a defaulted configuration: the
// metadata, then every webhook (VAL-80..VAL-83). compile, when not nil,
// compiles the match conditions' expressions.
func ValidatingWebhookConfiguration(c *admissionregistrationv1.ValidatingWebhookConfiguration, compile ExpressionCompiler) field.ErrorList {
	hooks := make([]webhook, len(c.Webhooks))
	for i := range c.Webhooks {
		w := &c.Webhooks[i]
		hooks[i] = webhook{name: w.Name, clientConfig: &w.ClientConfig, rules: w.Rules, failurePolicy: w.FailurePolicy,
			matchPolicy: w.MatchPolicy, namespaceSelector: w.NamespaceSelector, objSelector: w.ObjectSelector,
			sideEffects: w.SideEffects, timeoutSeconds: w.TimeoutSeconds, admissionReviewVersions: w.AdmissionReviewVersions,
			matchConditions: w.MatchConditions, compile: compile}
	}
	return webhookConfiguration(&c.ObjectMeta, hooks)
}

// MutatingWebhookConfiguration is ValidateMutatingWebhookConfiguration: as
// ValidatingWebhookConfiguration, and each webhook's reinvocationPolicy.
func MutatingWebhookConfiguration(c *admissionregistrationv1.MutatingWebhookConfiguration, compile ExpressionCompiler) field.ErrorList {
	hooks := make([]webhook, len(c.Webhooks))
	for i := range c.Webhooks {
		w := &c.Webhooks[i]
		hooks[i] = webhook{name: w.Name, clientConfig: &w.ClientConfig, rules: w.Rules, failurePolicy: w.FailurePolicy,
			matchPolicy: w.MatchPolicy, namespaceSelector: w.NamespaceSelector, objSelector: w.ObjectSelector,
			sideEffects: w.SideEffects, timeoutSeconds: w.TimeoutSeconds, admissionReviewVersions: w.AdmissionReviewVersions,
			matchConditions: w.MatchConditions, mutating: true, reinvocationPolicy: w.ReinvocationPolicy, compile: compile}
	}
	return webhookConfiguration(&c.ObjectMeta, hooks)
}

// webhookConfiguration checks the metadata, then for each webhook its own
// fields, its admissionReviewVersions and that no earlier webhook has its
// (non-empty) name.
func webhookConfiguration(meta *metav1.ObjectMeta, hooks []webhook) field.ErrorList {
	errs := ObjectMeta(meta, webhookConfigMeta, field.NewPath("metadata"))
	names := sets.New[string]()
	for i := range hooks {
		p := field.NewPath("webhooks").Index(i)
		errs = append(errs, hooks[i].validate(p)...)
		errs = append(errs, admissionReviewVersions(hooks[i].admissionReviewVersions, p.Child("admissionReviewVersions"))...)
		if n := hooks[i].name; n != "" {
			if names.Has(n) {
				errs = append(errs, field.Duplicate(p.Child("name"), n))
			}
			names.Insert(n)
		}
	}
	return errs
}

// validate checks one webhook's fields in upstream's order: the name (a DNS
// subdomain of at least three dot-separated parts), the rules, the failure
// and match policies, the side effects (required), the timeout, the two
// selectors, a mutating webhook's reinvocation policy, the client config,
// the match conditions (VAL-80..VAL-83).
func (w *webhook) validate(p *field.Path) field.ErrorList {
	errs := utilvalidation.IsFullyQualifiedName(p.Child("name"), w.name)
	for i := range w.rules {
		errs = append(errs, webhookRule(&w.rules[i], p.Child("rules").Index(i))...)
	}
	if fp := w.failurePolicy; fp != nil && !contains(webhookFailurePolicies, string(*fp)) {
		errs = append(errs, field.NotSupported(p.Child("failurePolicy"), *fp, webhookFailurePolicies))
	}
	if mp := w.matchPolicy; mp != nil && !contains(webhookMatchPolicies, string(*mp)) {
		errs = append(errs, field.NotSupported(p.Child("matchPolicy"), *mp, webhookMatchPolicies))
	}
	if se := w.sideEffects; se == nil {
		errs = append(errs, field.Required(p.Child("sideEffects"), "must specify one of "+strings.Join(webhookSideEffects, ", ")))
	} else if !contains(webhookSideEffects, string(*se)) {
		errs = append(errs, field.NotSupported(p.Child("sideEffects"), *se, webhookSideEffects))
	}
	if t := w.timeoutSeconds; t != nil && (*t < 1 || *t > 30) {
		errs = append(errs, field.Invalid(p.Child("timeoutSeconds"), *t, "the timeout value must be between 1 and 30 seconds"))
	}
	errs = append(errs, LabelSelector(w.namespaceSelector, p.Child("namespaceSelector"))...)
	errs = append(errs, LabelSelector(w.objSelector, p.Child("objectSelector"))...)
	if rp := w.reinvocationPolicy; w.mutating && rp != nil && !contains(webhookReinvocations, string(*rp)) {
		errs = append(errs, field.NotSupported(p.Child("reinvocationPolicy"), *rp, webhookReinvocations))
	}
	errs = append(errs, webhookClientConfig(w.clientConfig, p.Child("clientConfig"))...)
	return append(errs, matchConditions(w.matchConditions, p.Child("matchConditions"), w.compile)...)
}

// webhookRule is validateRuleWithOperations (VAL-82): operations required,
// "*" alone, each supported; then apiGroups (required, "*" alone),
// apiVersions (required, "*" alone, none empty), resources (subresources
// allowed) and the scope.
func webhookRule(r *admissionregistrationv1.RuleWithOperations, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	op := p.Child("operations")
	if len(r.Operations) == 0 {
		errs = append(errs, field.Required(op, ""))
	}
	if len(r.Operations) > 1 && containsWildcard(r.Operations) {
		errs = append(errs, field.Invalid(op, r.Operations, "if '*' is present, must not specify other operations"))
	}
	for i, o := range r.Operations {
		if !contains(webhookOperations, string(o)) {
			errs = append(errs, field.NotSupported(op.Index(i), o, webhookOperations))
		}
	}
	gp := p.Child("apiGroups")
	if len(r.APIGroups) == 0 {
		errs = append(errs, field.Required(gp, ""))
	}
	if len(r.APIGroups) > 1 && containsWildcard(r.APIGroups) {
		errs = append(errs, field.Invalid(gp, r.APIGroups, "if '*' is present, must not specify other API groups"))
	}
	vp := p.Child("apiVersions")
	if len(r.APIVersions) == 0 {
		errs = append(errs, field.Required(vp, ""))
	}
	if len(r.APIVersions) > 1 && containsWildcard(r.APIVersions) {
		errs = append(errs, field.Invalid(vp, r.APIVersions, "if '*' is present, must not specify other API versions"))
	}
	for i, v := range r.APIVersions {
		if v == "" {
			errs = append(errs, field.Required(vp.Index(i), ""))
		}
	}
	errs = append(errs, webhookResources(r.Resources, p.Child("resources"))...)
	if s := r.Scope; s != nil && !contains(webhookScopes, string(*s)) {
		errs = append(errs, field.NotSupported(p.Child("scope"), *s, webhookScopes))
	}
	return errs
}

func containsWildcard[T ~string](xs []T) bool {
	for _, x := range xs {
		if x == "*" {
			return true
		}
	}
	return false
}

// webhookResources is validateResources (VAL-82): at least one, none empty;
// "res/*" excludes a later "res/sub", "*/sub" a later "res/sub"; "*/*" must
// be alone; "*" excludes plain resources. As upstream, whether a plain
// resource is there is decided by the last entry without a "/" only, so
// ["pods", "*"] passes while ["*", "pods"] does not.
func webhookResources(resources []string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(resources) == 0 {
		errs = append(errs, field.Required(p, ""))
	}
	wildSub := map[string]bool{} // "res" of each "res/*" so far
	wildRes := map[string]bool{} // "sub" of each "*/sub" so far
	doubleWild, singleWild, plain := false, false, false
	for i, rs := range resources {
		if rs == "" {
			errs = append(errs, field.Required(p.Index(i), ""))
			continue
		}
		doubleWild = doubleWild || rs == "*/*"
		singleWild = singleWild || rs == "*"
		res, sub, ok := strings.Cut(rs, "/")
		if !ok {
			plain = rs != "*"
			continue
		}
		if wildSub[res] {
			errs = append(errs, field.Invalid(p.Index(i), rs, fmt.Sprintf("if '%s/*' is present, must not specify %s", res, rs)))
		}
		if wildRes[sub] {
			errs = append(errs, field.Invalid(p.Index(i), rs, fmt.Sprintf("if '*/%s' is present, must not specify %s", sub, rs)))
		}
		if sub == "*" {
			wildSub[res] = true
		}
		if res == "*" {
			wildRes[sub] = true
		}
	}
	if len(resources) > 1 && doubleWild {
		errs = append(errs, field.Invalid(p, resources, "if '*/*' is present, must not specify other resources"))
	}
	if singleWild && plain {
		errs = append(errs, field.Invalid(p, resources, "if '*' is present, must not specify other resources without subresources"))
	}
	return errs
}

// admissionReviewVersions is validateAdmissionReviewVersions on create
// (VAL-80): at least one; each, unless a repeat (reported as such), a
// DNS-1035 label; and one of them a version kube-apiserver understands.
func admissionReviewVersions(versions []string, p *field.Path) field.ErrorList {
	accepted := strings.Join(webhookReviewVersions, ", ")
	if len(versions) == 0 {
		return field.ErrorList{field.Required(p, "must specify one of "+accepted)}
	}
	var errs field.ErrorList
	seen := make(map[string]bool, len(versions))
	known := false
	for i, v := range versions {
		if seen[v] {
			errs = append(errs, field.Invalid(p.Index(i), v, "duplicate version"))
			continue
		}
		seen[v] = true
		for _, msg := range utilvalidation.IsDNS1035Label(v) {
			errs = append(errs, field.Invalid(p.Index(i), v, msg))
		}
		known = known || contains(webhookReviewVersions, v)
	}
	if !known {
		errs = append(errs, field.Invalid(p, versions, "must include at least one of "+accepted))
	}
	return errs
}

// webhookClientConfig checks the client config (VAL-81): exactly one of url
// and service, then that one. The caBundle is not checked on create.
func webhookClientConfig(cc *admissionregistrationv1.WebhookClientConfig, p *field.Path) field.ErrorList {
	switch {
	case (cc.URL == nil) == (cc.Service == nil):
		return field.ErrorList{field.Required(p, "exactly one of url or service is required")}
	case cc.URL != nil:
		return webhookURL(*cc.URL, p.Child("url"))
	}
	return webhookService(cc.Service, p.Child("service"))
}

// webhookURLForm ends the messages about a URL's shape.
const webhookURLForm = "; desired format: https://host[/path]"

// webhookURL is ValidateWebhookURL with https required: a URL Go's net/url
// parses, of scheme https, with a host, and without user information,
// fragment or query.
func webhookURL(raw string, p *field.Path) field.ErrorList {
	u, err := url.Parse(raw)
	if err != nil {
		return field.ErrorList{field.Required(p, "url must be a valid URL: "+err.Error()+webhookURLForm)}
	}
	var errs field.ErrorList
	if u.Scheme != "https" {
		errs = append(errs, field.Invalid(p, u.Scheme, "'https' is the only allowed URL scheme"+webhookURLForm))
	}
	if u.Host == "" {
		errs = append(errs, field.Invalid(p, u.Host, "host must be specified"+webhookURLForm))
	}
	if u.User != nil {
		errs = append(errs, field.Invalid(p, u.User.String(), "user information is not permitted in the URL"))
	}
	if u.Fragment != "" {
		errs = append(errs, field.Invalid(p, u.Fragment, "fragments are not permitted in the URL"))
	}
	if u.RawQuery != "" {
		errs = append(errs, field.Invalid(p, u.RawQuery, "query parameters are not permitted in the URL"))
	}
	return errs
}

// webhookService is ValidateWebhookService as the webhook validation calls
// it, with the Service's name and namespace in each other's place: a
// missing namespace is reported at service.name and a missing name at
// service.namespace (VAL-81). Then the port, and a path other than "" and
// "/" must start with "/" and have non-empty segments that are DNS
// subdomains (a trailing "/" allowed).
func webhookService(svc *admissionregistrationv1.ServiceReference, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if svc.Namespace == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	if svc.Name == "" {
		errs = append(errs, field.Required(p.Child("namespace"), ""))
	}
	var port int32
	if svc.Port != nil {
		port = *svc.Port
	}
	if msgs := utilvalidation.IsValidPortNum(int(port)); msgs != nil {
		errs = append(errs, field.Invalid(p.Child("port"), port, "port is not valid: "+strings.Join(msgs, ", ")))
	}
	if svc.Path == nil {
		return errs
	}
	path, pp := *svc.Path, p.Child("path")
	switch path {
	case "", "/":
		return errs
	case "//":
		return append(errs, field.Invalid(pp, path, "segment[0] may not be empty"))
	}
	if !strings.HasPrefix(path, "/") {
		errs = append(errs, field.Invalid(pp, path, "must start with a '/'"))
	}
	rest := strings.TrimSuffix(path[1:], "/")
	for i, seg := range strings.Split(rest, "/") {
		if seg == "" {
			errs = append(errs, field.Invalid(pp, path, fmt.Sprintf("segment[%d] may not be empty", i)))
			continue
		}
		for _, msg := range namecheck.IsDNS1123Subdomain(seg) {
			errs = append(errs, field.Invalid(pp, path, fmt.Sprintf("segment[%d]: %s", i, msg)))
		}
	}
	return errs
}

// matchConditions is validateMatchConditions (VAL-83): at most 64; each needs
// an expression (spaces around it do not count), which compile compiles
// trimmed when it is not nil, and a name that is a qualified name, and no
// name may repeat.
func matchConditions(conds []admissionregistrationv1.MatchCondition, p *field.Path, compile ExpressionCompiler) field.ErrorList {
	var errs field.ErrorList
	if len(conds) > maxMatchConditions {
		errs = append(errs, field.TooMany(p, len(conds), maxMatchConditions))
	}
	names := sets.New[string]()
	for i := range conds {
		c, cp := &conds[i], p.Index(i)
		if expr := strings.TrimSpace(c.Expression); expr == "" {
			errs = append(errs, field.Required(cp.Child("expression"), ""))
		} else if compile != nil {
			errs = append(errs, compile(expr, cp.Child("expression"))...)
		}
		if c.Name == "" {
			errs = append(errs, field.Required(cp.Child("name"), ""))
			continue
		}
		errs = append(errs, qualifiedName(c.Name, lazy(cp.Child("name")))...)
		if names.Has(c.Name) {
			errs = append(errs, field.Duplicate(cp.Child("name"), c.Name))
		}
		names.Insert(c.Name)
	}
	return errs
}
