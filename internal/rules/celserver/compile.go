package celserver

import (
	"errors"
	"fmt"
	"sync"

	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
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

// webhookCompiler compiles the match conditions of admission webhooks: the
// base environment of the default compatibility version, without
// composition.
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
