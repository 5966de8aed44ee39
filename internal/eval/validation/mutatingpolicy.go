package validation

import (
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/rules"
)

// Create validation of admissionregistration.k8s.io/v1
// MutatingAdmissionPolicies and their bindings (VAL-108, VAL-109), on
// objects defaulted as the v1 API does: as a ValidatingAdmissionPolicy's
// (VAL-106, VAL-107) but for what a mutation is. A policy's CEL expressions
// are compiled together by the caller (MutatingPolicyExpressions), always
// with composition, the mutations with the patch types declared.

var (
	// mutatingOperations are the operations a mutation can match: no DELETE.
	mutatingOperations = []string{string(admissionregistrationv1.OperationAll), string(admissionregistrationv1.Connect),
		string(admissionregistrationv1.Create), string(admissionregistrationv1.Update)}
	patchTypes = []string{string(admissionregistrationv1.PatchTypeApplyConfiguration), string(admissionregistrationv1.PatchTypeJSONPatch)}
)

// MutatingPolicyExpressions are the expressions of a MutatingAdmissionPolicy
// that its validation compiles, in order, each with the path its errors are
// reported at: nil when there are none.
func MutatingPolicyExpressions(pol *admissionregistrationv1.MutatingAdmissionPolicy) *rules.PolicyCompile {
	spec := &pol.Spec
	sp := field.NewPath("spec")
	out := headExpressions(spec.MatchConditions, spec.Variables, sp)
	for i, m := range spec.Mutations {
		p := sp.Child("mutations").Index(i)
		switch {
		case m.PatchType == admissionregistrationv1.PatchTypeApplyConfiguration && m.ApplyConfiguration != nil:
			if expr := strings.TrimSpace(m.ApplyConfiguration.Expression); expr != "" {
				out.add(rules.PolicyApplyConfiguration, expr, p.Child("applyConfiguration", "expression"))
			}
		case m.PatchType == admissionregistrationv1.PatchTypeJSONPatch && m.JSONPatch != nil:
			if expr := strings.TrimSpace(m.JSONPatch.Expression); expr != "" {
				out.add(rules.PolicyJSONPatch, expr, p.Child("jsonPatch", "expression"))
			}
		}
	}
	return out.compile(spec.ParamKind != nil, true) // always with composition
}

// MutatingAdmissionPolicy is ValidateMutatingAdmissionPolicy (VAL-108): the
// metadata, the failure policy, the paramKind, the match constraints (at
// least one resource rule, no DELETE), the match conditions, the
// variables, the mutations (at least one) and the reinvocation policy. The
// compile errors are compiled's, by path (nil: not compiled).
func MutatingAdmissionPolicy(pol *admissionregistrationv1.MutatingAdmissionPolicy, compiled map[string]field.ErrorList) field.ErrorList {
	spec := &pol.Spec
	sp := field.NewPath("spec")
	compileErrs := func(p *field.Path) field.ErrorList { return compiled[p.String()] }
	errs := policyHead(&pol.ObjectMeta, spec.FailurePolicy, spec.ParamKind, spec.MatchConstraints, sp)
	if mc := spec.MatchConstraints; mc != nil {
		errs = append(errs, mutatingOperationsOf(mc, sp.Child("matchConstraints", "resourceRules", "operations"))...)
	}
	errs = append(errs, policyMatchConditions(spec.MatchConditions, sp.Child("matchConditions"), compileErrs)...)
	errs = append(errs, policyVariables(spec.Variables, sp.Child("variables"), compileErrs)...)
	if len(spec.Mutations) == 0 {
		errs = append(errs, field.Required(sp.Child("mutations"), "mutations must contain at least one item"))
	}
	for i := range spec.Mutations {
		errs = append(errs, mutation(&spec.Mutations[i], sp.Child("mutations").Index(i), compileErrs)...)
	}
	if rp := spec.ReinvocationPolicy; rp == "" {
		errs = append(errs, field.Required(sp.Child("reinvocationPolicy"), ""))
	} else if !contains(webhookReinvocations, string(rp)) {
		errs = append(errs, field.NotSupported(sp.Child("reinvocationPolicy"), rp, webhookReinvocations))
	}
	return errs
}

// mutatingOperationsOf: every operation of the included resource rules one
// a mutation can match, each error at p (no index).
func mutatingOperationsOf(mr *admissionregistrationv1.MatchResources, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, r := range mr.ResourceRules {
		for _, op := range r.Operations {
			if !contains(mutatingOperations, string(op)) {
				errs = append(errs, field.NotSupported(p, op, mutatingOperations))
			}
		}
	}
	return errs
}

// mutation is validateMutation: a patch type, and the patch of that type
// with an expression (compiled), the other not given.
func mutation(m *admissionregistrationv1.Mutation, p *field.Path, compiled func(*field.Path) field.ErrorList) field.ErrorList {
	var errs field.ErrorList
	expression := func(expr string, p *field.Path) field.ErrorList {
		if strings.TrimSpace(expr) == "" {
			return field.ErrorList{field.Required(p, "")}
		}
		return compiled(p)
	}
	switch m.PatchType {
	case "":
		errs = append(errs, field.Required(p.Child("patchType"), ""))
	case admissionregistrationv1.PatchTypeJSONPatch:
		if m.JSONPatch == nil {
			errs = append(errs, field.Required(p.Child("jsonPatch"), "must be specified when patchType is JSONPatch"))
		} else {
			errs = append(errs, expression(m.JSONPatch.Expression, p.Child("jsonPatch", "expression"))...)
		}
		if m.ApplyConfiguration != nil {
			errs = append(errs, field.Invalid(p.Child("applyConfiguration"), "{applyConfiguration}", "must not be specified when patchType is JSONPatch"))
		}
	case admissionregistrationv1.PatchTypeApplyConfiguration:
		if m.ApplyConfiguration == nil {
			errs = append(errs, field.Required(p.Child("applyConfiguration"), "must be specified when patchType is ApplyConfiguration"))
		} else {
			errs = append(errs, expression(m.ApplyConfiguration.Expression, p.Child("applyConfiguration", "expression"))...)
		}
		if m.JSONPatch != nil {
			errs = append(errs, field.Invalid(p.Child("jsonPatch"), "{jsonPatch}", "must not be specified when patchType is ApplyConfiguration"))
		}
	default:
		errs = append(errs, field.NotSupported(p.Child("patchType"), m.PatchType, patchTypes))
	}
	return errs
}

// MutatingAdmissionPolicyBinding is ValidateMutatingAdmissionPolicyBinding
// (VAL-109): the metadata, a policyName that is a DNS subdomain, the
// paramRef and the match resources (no DELETE).
func MutatingAdmissionPolicyBinding(b *admissionregistrationv1.MutatingAdmissionPolicyBinding) field.ErrorList {
	sp := field.NewPath("spec")
	errs := bindingHead(&b.ObjectMeta, b.Spec.PolicyName, b.Spec.ParamRef, b.Spec.MatchResources, sp)
	if mr := b.Spec.MatchResources; mr != nil {
		errs = append(errs, mutatingOperationsOf(mr, sp.Child("matchResources", "resourceRules", "operations"))...)
	}
	return errs
}
