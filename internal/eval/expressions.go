package eval

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/validation"
	"github.com/limitcheck/limitcheck/internal/rules"
)

// compiler compiles the CEL expressions of kind that validation meets
// (device selectors, VAL-35; webhook match conditions, VAL-83) with the
// rule evaluator, as kube-apiserver compiles them on create. An expression
// it cannot compile (no evaluator, no helper) gives no error; e.uncompiled
// says why, and Admit turns it into a warning.
func (e *Engine) compiler(kind rules.Expression) validation.ExpressionCompiler {
	return func(expression string, p *field.Path) field.ErrorList {
		if e.opts.Rules == nil {
			e.uncompiled = "limitcheck was run without a CEL evaluator"
			return nil
		}
		errs, err := e.opts.Rules.CompileExpression(kind, expression, p)
		if err != nil {
			e.uncompiled = err.Error()
			return nil
		}
		return errs
	}
}

// compilePolicy compiles the expressions of one admission policy together
// (VAL-106) and returns their errors by path; nil, with e.uncompiled set,
// when they could not be compiled.
func (e *Engine) compilePolicy(exprs *rules.PolicyCompile) map[string]field.ErrorList {
	if exprs == nil {
		return nil
	}
	if e.opts.Rules == nil {
		e.uncompiled = "limitcheck was run without a CEL evaluator"
		return nil
	}
	errs, err := e.opts.Rules.CompilePolicy(exprs)
	if err != nil {
		e.uncompiled = err.Error()
		return nil
	}
	return errs
}
