package validation

import (
	"fmt"
	"regexp"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
	"github.com/limitcheck/limitcheck/internal/rules"
)

// Create validation of admissionregistration.k8s.io/v1
// ValidatingAdmissionPolicies and their bindings (VAL-106, VAL-107), on
// objects defaulted as the v1 API does. Both are cluster-scoped, their
// metadata checked as a webhook configuration's. A policy's CEL
// expressions are compiled together by the caller (PolicyExpressions) and
// their errors handed to ValidatingAdmissionPolicy, which puts each where
// kube-apiserver reports it.

var (
	policyFailurePolicies = []string{string(admissionregistrationv1.Fail), string(admissionregistrationv1.Ignore)}
	policyMatchPolicies   = []string{string(admissionregistrationv1.Equivalent), string(admissionregistrationv1.Exact)}
	policyReasons         = []string{string(metav1.StatusReasonForbidden), string(metav1.StatusReasonInvalid), string(metav1.StatusReasonRequestEntityTooLarge)}
	policyActions         = []string{string(admissionregistrationv1.Audit), string(admissionregistrationv1.Deny), string(admissionregistrationv1.Warn)}
	policyNotFoundActions = []string{string(admissionregistrationv1.DenyAction), string(admissionregistrationv1.AllowAction)}
)

const (
	maxAuditAnnotations          = 20
	maxAuditAnnotationExpression = 5 * 1024
)

// celIdentifier is what a variable may be named: a CEL identifier that is
// not one of CEL's reserved words.
var celIdentifier = regexp.MustCompile(`^[_a-zA-Z][_a-zA-Z0-9]*$`)

var celReserved = sets.New("true", "false", "null", "in", "as", "break", "const", "continue", "else",
	"for", "function", "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while")

// PolicyExpressions are the expressions of a ValidatingAdmissionPolicy that
// its validation compiles, in the order it compiles them, each with the
// path its errors are reported at: nil when there are none.
func PolicyExpressions(pol *admissionregistrationv1.ValidatingAdmissionPolicy) *rules.PolicyCompile {
	spec := &pol.Spec
	sp := field.NewPath("spec")
	out := headExpressions(spec.MatchConditions, spec.Variables, sp)
	for i, v := range spec.Validations {
		p := sp.Child("validations").Index(i)
		if strings.TrimSpace(v.Expression) != "" {
			out.add(rules.PolicyValidation, v.Expression, p.Child("expression"))
		}
		if strings.TrimSpace(v.MessageExpression) != "" {
			// compiled as written, so that the error's column is right
			out.add(rules.PolicyMessage, v.MessageExpression, p.Child("messageExpression"))
		}
	}
	for i, a := range spec.AuditAnnotations {
		if expr := strings.TrimSpace(a.ValueExpression); expr != "" && len(expr) <= maxAuditAnnotationExpression {
			shown := a.ValueExpression
			out.add(rules.PolicyAudit, expr, sp.Child("auditAnnotations").Index(i).Child("valueExpression")).Shown = &shown
		}
	}
	return out.compile(spec.ParamKind != nil, len(spec.Variables) > 0)
}

// policyExpressions are the expressions of one admission policy to compile,
// in order.
type policyExpressions []rules.Compile

// add appends an expression of kind, reported at p, and returns it.
func (e *policyExpressions) add(kind rules.Expression, expr string, p *field.Path) *rules.Compile {
	*e = append(*e, rules.Compile{Kind: kind, Expression: expr, Field: p.String()})
	return &(*e)[len(*e)-1]
}

// compile is the request for e (nil when e is empty).
func (e policyExpressions) compile(params, variables bool) *rules.PolicyCompile {
	if len(e) == 0 {
		return nil
	}
	return &rules.PolicyCompile{Params: params, Variables: variables, Expressions: e}
}

// headExpressions are what both kinds of admission policy compile first:
// the match conditions (trimmed), then the variables.
func headExpressions(conds []admissionregistrationv1.MatchCondition, vars []admissionregistrationv1.Variable, sp *field.Path) policyExpressions {
	var out policyExpressions
	for i, c := range conds {
		if expr := strings.TrimSpace(c.Expression); expr != "" {
			out.add(rules.PolicyMatchCondition, expr, sp.Child("matchConditions").Index(i).Child("expression"))
		}
	}
	for i, v := range vars {
		if strings.TrimSpace(v.Expression) != "" {
			out.add(rules.PolicyVariable, v.Expression, sp.Child("variables").Index(i).Child("expression")).Name = v.Name
		}
	}
	return out
}

// PrepareValidatingAdmissionPolicyForCreate is the strategy's
// PrepareForCreate: the status is cleared (and generation set, by the
// metadata rules).
func PrepareValidatingAdmissionPolicyForCreate(pol *admissionregistrationv1.ValidatingAdmissionPolicy) {
	pol.Status = admissionregistrationv1.ValidatingAdmissionPolicyStatus{}
}

// ValidatingAdmissionPolicy is ValidateValidatingAdmissionPolicy (VAL-106):
// the metadata, the failure policy, the paramKind, the match constraints
// (with at least one resource rule), the match conditions, the variables,
// the validations and the audit annotations (at least one of the two). The
// compile errors are compiled's, by path (nil: the expressions were not
// compiled).
func ValidatingAdmissionPolicy(pol *admissionregistrationv1.ValidatingAdmissionPolicy, compiled map[string]field.ErrorList) field.ErrorList {
	spec := &pol.Spec
	sp := field.NewPath("spec")
	compileErrs := func(p *field.Path) field.ErrorList { return compiled[p.String()] }
	errs := policyHead(&pol.ObjectMeta, spec.FailurePolicy, spec.ParamKind, spec.MatchConstraints, sp)
	errs = append(errs, policyMatchConditions(spec.MatchConditions, sp.Child("matchConditions"), compileErrs)...)
	errs = append(errs, policyVariables(spec.Variables, sp.Child("variables"), compileErrs)...)
	if len(spec.Validations) == 0 && len(spec.AuditAnnotations) == 0 {
		const msg = "validations or auditAnnotations must contain at least one item"
		return append(errs, field.Required(sp.Child("validations"), msg), field.Required(sp.Child("auditAnnotations"), msg))
	}
	for i := range spec.Validations {
		errs = append(errs, policyValidation(&spec.Validations[i], sp.Child("validations").Index(i), compileErrs)...)
	}
	if spec.AuditAnnotations == nil {
		return errs
	}
	ap := sp.Child("auditAnnotations")
	if n := len(spec.AuditAnnotations); n > maxAuditAnnotations {
		// upstream shows its internal type, whose fields have no JSON names
		shown := make([]struct{ Key, ValueExpression string }, n)
		for i, a := range spec.AuditAnnotations {
			shown[i].Key, shown[i].ValueExpression = a.Key, a.ValueExpression
		}
		errs = append(errs, field.Invalid(ap, shown, fmt.Sprintf("must not have more than %d auditAnnotations", maxAuditAnnotations)))
	}
	keys := sets.New[string]()
	for i, a := range spec.AuditAnnotations {
		p := ap.Index(i)
		if pol.Name != "" {
			errs = append(errs, qualifiedName(pol.Name+"/"+a.Key, lazy(p.Child("key")))...)
		} else {
			errs = append(errs, field.Invalid(p.Child("key"), a.Key, "requires metadata.name be non-empty"))
		}
		switch expr := strings.TrimSpace(a.ValueExpression); {
		case expr == "":
			errs = append(errs, field.Required(p.Child("valueExpression"), "valueExpression is not specified"))
		case len(expr) > maxAuditAnnotationExpression:
			errs = append(errs, field.Required(p.Child("valueExpression"), fmt.Sprintf("must not exceed %d bytes in length", maxAuditAnnotationExpression)))
		default:
			errs = append(errs, compileErrs(p.Child("valueExpression"))...)
		}
		if keys.Has(a.Key) {
			errs = append(errs, field.Duplicate(p.Child("key"), a.Key))
		}
		keys.Insert(a.Key)
	}
	return errs
}

// policyHead checks what both kinds of admission policy begin with: the
// metadata, the failure policy, the paramKind and the match constraints,
// with at least one resource rule.
func policyHead(meta *metav1.ObjectMeta, fp *admissionregistrationv1.FailurePolicyType, pk *admissionregistrationv1.ParamKind,
	mc *admissionregistrationv1.MatchResources, sp *field.Path) field.ErrorList {
	errs := ObjectMeta(meta, webhookConfigMeta, field.NewPath("metadata"))
	if fp == nil {
		errs = append(errs, field.Required(sp.Child("failurePolicy"), ""))
	} else if !contains(policyFailurePolicies, string(*fp)) {
		errs = append(errs, field.NotSupported(sp.Child("failurePolicy"), *fp, policyFailurePolicies))
	}
	if pk != nil {
		errs = append(errs, paramKind(pk, sp.Child("paramKind"))...)
	}
	if mc == nil {
		return append(errs, field.Required(sp.Child("matchConstraints"), ""))
	}
	errs = append(errs, matchResources(mc, sp.Child("matchConstraints"))...)
	if len(mc.ResourceRules) == 0 {
		errs = append(errs, field.Required(sp.Child("matchConstraints", "resourceRules"), ""))
	}
	return errs
}

// paramKind is validateParamKind: an apiVersion whose group is a DNS
// subdomain and whose version a DNS label, and a kind that is one once
// lowercased.
func paramKind(pk *admissionregistrationv1.ParamKind, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	vp := p.Child("apiVersion")
	switch {
	case pk.APIVersion == "":
		errs = append(errs, field.Required(vp, ""))
	case strings.Count(pk.APIVersion, "/") > 1:
		errs = append(errs, field.Invalid(vp, pk.APIVersion, "unexpected GroupVersion string: "+pk.APIVersion))
	default:
		group, version := "", pk.APIVersion
		if pk.APIVersion == "/" {
			version = ""
		} else if g, v, ok := strings.Cut(pk.APIVersion, "/"); ok {
			group, version = g, v
		}
		if group != "" {
			if msgs := namecheck.IsDNS1123Subdomain(group); len(msgs) > 0 {
				errs = append(errs, field.Invalid(vp, group, strings.Join(msgs, ",")))
			}
		}
		if version == "" {
			errs = append(errs, field.Invalid(vp, pk.APIVersion, "version must be specified"))
		} else if msgs := utilvalidation.IsDNS1035Label(version); len(msgs) > 0 {
			errs = append(errs, field.Invalid(vp, version, strings.Join(msgs, ",")))
		}
	}
	kp := p.Child("kind")
	if pk.Kind == "" {
		errs = append(errs, field.Required(kp, ""))
	} else if msgs := utilvalidation.IsDNS1035Label(strings.ToLower(pk.Kind)); len(msgs) > 0 {
		errs = append(errs, field.Invalid(kp, pk.Kind, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
	}
	return errs
}

// matchResources is validateMatchResources: a match policy, both selectors
// (given, or defaulted to match everything) and each rule, included or
// excluded.
func matchResources(mr *admissionregistrationv1.MatchResources, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if mp := mr.MatchPolicy; mp == nil {
		errs = append(errs, field.Required(p.Child("matchPolicy"), ""))
	} else if !contains(policyMatchPolicies, string(*mp)) {
		errs = append(errs, field.NotSupported(p.Child("matchPolicy"), *mp, policyMatchPolicies))
	}
	if mr.NamespaceSelector == nil {
		errs = append(errs, field.Required(p.Child("namespaceSelector"), ""))
	} else {
		errs = append(errs, LabelSelector(mr.NamespaceSelector, p.Child("namespaceSelector"))...)
	}
	if mr.ObjectSelector == nil {
		errs = append(errs, field.Required(p.Child("objectSelector"), ""))
	} else {
		errs = append(errs, LabelSelector(mr.ObjectSelector, p.Child("objectSelector"))...)
	}
	for i := range mr.ResourceRules {
		errs = append(errs, namedRule(&mr.ResourceRules[i], p.Child("resourceRules").Index(i))...)
	}
	for i := range mr.ExcludeResourceRules {
		errs = append(errs, namedRule(&mr.ExcludeResourceRules[i], p.Child("excludeResourceRules").Index(i))...)
	}
	return errs
}

// namedRule is validateNamedRuleWithOperations: each resource name one URL
// path segment, none twice, then the rule as a webhook's.
func namedRule(r *admissionregistrationv1.NamedRuleWithOperations, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := sets.New[string]()
	for i, n := range r.ResourceNames {
		np := p.Child("resourceNames").Index(i)
		for _, msg := range content.IsPathSegmentName(n) {
			errs = append(errs, field.Invalid(np, n, msg))
		}
		if names.Has(n) {
			errs = append(errs, field.Duplicate(np, n))
		}
		names.Insert(n)
	}
	return append(errs, webhookRule(&r.RuleWithOperations, p)...)
}

// policyVariables is validateVariable of each variable: a name that is a
// CEL identifier, an expression, compiled.
func policyVariables(vars []admissionregistrationv1.Variable, vp *field.Path, compiled func(*field.Path) field.ErrorList) field.ErrorList {
	var errs field.ErrorList
	for i, v := range vars {
		p := vp.Index(i)
		if strings.TrimSpace(v.Name) == "" {
			errs = append(errs, field.Required(p.Child("name"), "name is not specified"))
		} else if !celIdentifier.MatchString(v.Name) || celReserved.Has(v.Name) {
			errs = append(errs, field.Invalid(p.Child("name"), v.Name, "must be a valid CEL identifier"))
		}
		if strings.TrimSpace(v.Expression) == "" {
			errs = append(errs, field.Required(p.Child("expression"), "expression is not specified"))
		} else {
			errs = append(errs, compiled(p.Child("expression"))...)
		}
	}
	return errs
}

// policyMatchConditions is a policy's validateMatchConditions: as a
// webhook's, with the compile errors of compiled.
func policyMatchConditions(conds []admissionregistrationv1.MatchCondition, p *field.Path, compiled func(*field.Path) field.ErrorList) field.ErrorList {
	return matchConditions(conds, p, func(_ string, p *field.Path) field.ErrorList { return compiled(p) })
}

// policyValidation is validateValidation: an expression, a messageExpression
// not blank when given, a message not blank and on one line, a supported
// reason.
func policyValidation(v *admissionregistrationv1.Validation, p *field.Path, compiled func(*field.Path) field.ErrorList) field.ErrorList {
	var errs field.ErrorList
	if strings.TrimSpace(v.Expression) == "" {
		errs = append(errs, field.Required(p.Child("expression"), "expression is not specified"))
	} else {
		errs = append(errs, compiled(p.Child("expression"))...)
	}
	if me := v.MessageExpression; me != "" && strings.TrimSpace(me) == "" {
		errs = append(errs, field.Invalid(p.Child("messageExpression"), me, "must be non-empty if specified"))
	} else if strings.TrimSpace(me) != "" {
		errs = append(errs, compiled(p.Child("messageExpression"))...)
	}
	if msg := strings.TrimSpace(v.Message); v.Message != "" && msg == "" {
		errs = append(errs, field.Invalid(p.Child("message"), v.Message, "must be non-empty if specified"))
	} else if strings.ContainsAny(msg, "\n\r") {
		errs = append(errs, field.Invalid(p.Child("message"), v.Message, "must not contain line breaks"))
	}
	if r := v.Reason; r != nil && !contains(policyReasons, string(*r)) {
		errs = append(errs, field.NotSupported(p.Child("reason"), *r, policyReasons))
	}
	return errs
}

// ValidatingAdmissionPolicyBinding is ValidateValidatingAdmissionPolicyBinding
// (VAL-107): the metadata, a policyName that is a DNS subdomain, the
// paramRef, the match resources and the validation actions.
func ValidatingAdmissionPolicyBinding(b *admissionregistrationv1.ValidatingAdmissionPolicyBinding) field.ErrorList {
	sp := field.NewPath("spec")
	errs := bindingHead(&b.ObjectMeta, b.Spec.PolicyName, b.Spec.ParamRef, b.Spec.MatchResources, sp)
	return append(errs, validationActions(b.Spec.ValidationActions, sp.Child("validationActions"))...)
}

// bindingHead checks what both kinds of policy binding begin with: the
// metadata, a policyName that is a DNS subdomain, the paramRef and the
// match resources, when given.
func bindingHead(meta *metav1.ObjectMeta, policyName string, pr *admissionregistrationv1.ParamRef, mr *admissionregistrationv1.MatchResources, sp *field.Path) field.ErrorList {
	errs := ObjectMeta(meta, webhookConfigMeta, field.NewPath("metadata"))
	if policyName == "" {
		errs = append(errs, field.Required(sp.Child("policyName"), ""))
	} else {
		errs = append(errs, dns1123Subdomain(policyName, lazy(sp.Child("policyName")))...)
	}
	if pr != nil {
		errs = append(errs, paramRef(pr, sp.Child("paramRef"))...)
	}
	if mr != nil {
		errs = append(errs, matchResources(mr, sp.Child("matchResources"))...)
	}
	return errs
}

// paramRef is validateParamRef: a name (one URL path segment) or a
// selector, not both, and a parameterNotFoundAction of Deny or Allow.
func paramRef(pr *admissionregistrationv1.ParamRef, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if pr.Name != "" {
		for _, msg := range content.IsPathSegmentName(pr.Name) {
			errs = append(errs, field.Invalid(p.Child("name"), pr.Name, msg))
		}
		if pr.Selector != nil {
			errs = append(errs, field.Forbidden(p.Child("name"), `name and selector are mutually exclusive`))
		}
	}
	if pr.Selector != nil {
		errs = append(errs, LabelSelector(pr.Selector, p.Child("selector"))...)
		if pr.Name != "" {
			errs = append(errs, field.Forbidden(p.Child("selector"), `name and selector are mutually exclusive`))
		}
	}
	if pr.Name == "" && pr.Selector == nil {
		errs = append(errs, field.Required(p, `one of name or selector must be specified`))
	}
	if a := pr.ParameterNotFoundAction; a == nil || *a == "" {
		errs = append(errs, field.Required(p.Child("parameterNotFoundAction"), ""))
	} else if !contains(policyNotFoundActions, string(*a)) {
		errs = append(errs, field.NotSupported(p.Child("parameterNotFoundAction"), a, policyNotFoundActions))
	}
	return errs
}

// validationActions is validateValidationActions: each supported, none
// twice, not both Deny and Warn, at least one.
func validationActions(actions []admissionregistrationv1.ValidationAction, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := sets.New[admissionregistrationv1.ValidationAction]()
	for i, a := range actions {
		if !contains(policyActions, string(a)) {
			errs = append(errs, field.NotSupported(p.Index(i), a, policyActions))
		}
		if seen.Has(a) {
			errs = append(errs, field.Duplicate(p.Index(i), a))
		}
		seen.Insert(a)
	}
	if seen.Has(admissionregistrationv1.Deny) && seen.Has(admissionregistrationv1.Warn) {
		errs = append(errs, field.Invalid(p, actions, "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)"))
	}
	if seen.Len() == 0 {
		errs = append(errs, field.Required(p, "at least one validation action is required"))
	}
	return errs
}
