package celserver

import (
	"errors"
	"fmt"
	"sync"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating/patch"
	validatingpolicy "k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	dracel "k8s.io/dynamic-resource-allocation/cel"

	"github.com/limitcheck/limitcheck/internal/rules"
)

// draFeatures are the DRA gates the selector compiler reads, at their 1.36
// defaults: DRAConsumableCapacity is on (beta), DRAListTypeAttributes off
// (alpha).
var draFeatures = dracel.Features{EnableConsumableCapacity: true, EnableListTypeAttributes: false}

// webhookCompiler compiles the match conditions of admission webhooks and
// policies, and the expressions of a policy without variables: the base
// environment of the default compatibility version, without composition.
var webhookCompiler = sync.OnceValue(func() plugincel.Compiler {
	return plugincel.NewCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
})

// compileExpression compiles one expression as kube-apiserver does when it
// validates a new object holding it, and returns its errors at c.Field.
func compileExpression(c *rules.Compile) (field.ErrorList, error) {
	var errs field.ErrorList
	p := field.NewPath("expression") // renamed below
	switch c.Kind {
	case rules.DeviceSelector:
		// validateCELSelector; the length was checked before.
		env := environment.NewExpressions
		result := dracel.GetCompiler(draFeatures).CompileCELExpression(c.Expression, dracel.Options{EnvType: &env})
		if result.Error != nil {
			errs = append(errs, celError(p, c.Expression, result.Error))
		} else if result.MaxCost > resourcev1.CELSelectorExpressionMaxCost {
			errs = append(errs, field.Forbidden(p, "too complex, exceeds cost limit"))
		}
	case rules.MatchCondition:
		// validateMatchConditionsExpression of a webhook: no params, an
		// authorizer; the expression comes trimmed.
		result := webhookCompiler().CompileCELExpression(&matchconditions.MatchCondition{Expression: c.Expression},
			plugincel.OptionalVariableDeclarations{HasParams: false, HasAuthorizer: true}, environment.NewExpressions)
		if result.Error != nil {
			errs = append(errs, celError(p, c.Expression, result.Error))
		}
	default:
		return nil, fmt.Errorf("unknown kind of expression %q", c.Kind)
	}
	for _, e := range errs {
		e.Field = c.Field
	}
	return errs, nil
}

// compilePolicy compiles the expressions of a ValidatingAdmissionPolicy in
// order, as its validation does on create (VAL-106), or of a
// MutatingAdmissionPolicy (VAL-108, always with composition, its mutations
// with the patch types declared): the match conditions
// with the webhooks' compiler (params declared when the policy has a
// paramKind); the variables, validations and audit annotations with one
// composition compiler for the policy when it has variables, so that an
// expression sees the variables before it, else the webhooks' compiler;
// message expressions without the authorizer.
func compilePolicy(pc *rules.PolicyCompile) (field.ErrorList, error) {
	compiler := webhookCompiler()
	if pc.Variables {
		composited, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
		if err != nil {
			return nil, err
		}
		compiler = composited
	}
	vars := plugincel.OptionalVariableDeclarations{HasParams: pc.Params, HasAuthorizer: true}
	patchVars := vars
	patchVars.HasPatchTypes = true
	var errs field.ErrorList
	for _, c := range pc.Expressions {
		p := field.NewPath("expression") // renamed below
		shown := c.Expression
		if c.Shown != nil {
			shown = *c.Shown
		}
		var result plugincel.CompilationResult
		switch c.Kind {
		case rules.PolicyMatchCondition:
			result = webhookCompiler().CompileCELExpression(&matchconditions.MatchCondition{Expression: c.Expression}, vars, environment.NewExpressions)
		case rules.PolicyVariable:
			composited, ok := compiler.(*plugincel.CompositedCompiler)
			if !ok {
				return nil, fmt.Errorf("variable %q sent without composition", c.Name)
			}
			result = composited.CompileAndStoreVariable(&validatingpolicy.Variable{Name: c.Name, Expression: c.Expression}, vars, environment.NewExpressions)
		case rules.PolicyValidation:
			result = compiler.CompileCELExpression(&validatingpolicy.ValidationCondition{Expression: c.Expression}, vars, environment.NewExpressions)
		case rules.PolicyMessage:
			result = compiler.CompileCELExpression(&validatingpolicy.MessageExpressionCondition{MessageExpression: c.Expression},
				plugincel.OptionalVariableDeclarations{HasParams: pc.Params, HasAuthorizer: false}, environment.NewExpressions)
		case rules.PolicyAudit:
			result = compiler.CompileCELExpression(&validatingpolicy.AuditAnnotationCondition{ValueExpression: c.Expression}, vars, environment.NewExpressions)
		case rules.PolicyApplyConfiguration:
			result = compiler.CompileCELExpression(&patch.ApplyConfigurationCondition{Expression: c.Expression}, patchVars, environment.NewExpressions)
		case rules.PolicyJSONPatch:
			result = compiler.CompileCELExpression(&patch.JSONPatchCondition{Expression: c.Expression}, patchVars, environment.NewExpressions)
		default:
			return nil, fmt.Errorf("unknown kind of policy expression %q", c.Kind)
		}
		if result.Error != nil {
			e := celError(p, shown, result.Error)
			e.Field = c.Field
			errs = append(errs, e)
		}
	}
	return errs, nil
}

// celError is the field error of a compile error, by its type.
func celError(p *field.Path, expression string, err error) *field.Error {
	var celErr *apiservercel.Error
	if errors.As(err, &celErr) {
		switch celErr.Type {
		case apiservercel.ErrorTypeRequired:
			return field.Required(p, celErr.Detail)
		case apiservercel.ErrorTypeInvalid:
			return field.Invalid(p, expression, celErr.Detail)
		case apiservercel.ErrorTypeInternal:
			return field.InternalError(p, celErr)
		}
	}
	return field.InternalError(p, fmt.Errorf("unsupported error type: %w", err))
}
