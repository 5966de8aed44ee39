package celserver

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"

	"github.com/limitcheck/limitcheck/internal/rules"
)

// crdEnvSet is the CEL environment a new CRD's rules are compiled in: the
// base environment of the default compatibility version, every expression
// a new one (nothing pre-exists on create).
var crdEnvSet = sync.OnceValue(func() *environment.EnvSet {
	return environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
})

// compileCRD compiles the rules of a new CRD's openAPIV3Schema as
// kube-apiserver does when it validates the CRD (VAL-95): node by node,
// those below a node first, the properties by name (kube-apiserver: Go map
// order); a node with a schema error at or below it is left out; then, when
// the estimated cost of all the rules is over the CRD's limit, the most
// expensive ones and the total. The caller asks only for a schema that is
// structural and whose defaults are valid: kube-apiserver compiles nothing
// otherwise.
func compileCRD(req *rules.CRDCompile) (field.ErrorList, error) {
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(req.Schema, &v1); err != nil {
		return nil, fmt.Errorf("reading openAPIV3Schema: %w", err)
	}
	var s apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &s, nil); err != nil {
		return nil, fmt.Errorf("converting openAPIV3Schema: %w", err)
	}
	w := crdWalk{schemaErrs: req.SchemaErrors}
	root := field.NewPath(req.Field)
	ctx := crdvalidation.RootCELContext(&s)
	w.node(&s, root, nil, ctx)
	if ctx.TotalCost.Total > crdvalidation.StaticEstimatedCRDCostLimit {
		for _, expensive := range ctx.TotalCost.MostExpensive {
			w.errs = append(w.errs, field.Forbidden(expensive.Path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"))
		}
		w.errs = append(w.errs, field.Forbidden(root, costMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", ctx.TotalCost.Total, crdvalidation.StaticEstimatedCRDCostLimit)))
	}
	return w.errs, nil
}

// crdWalk gathers the errors of compileCRD in kube-apiserver's order.
type crdWalk struct {
	schemaErrs []string
	errs       field.ErrorList
}

// blocked: a schema error is at p or below it.
func (w *crdWalk) blocked(p *field.Path) bool {
	at := p.String()
	return slices.ContainsFunc(w.schemaErrs, func(f string) bool {
		return f == at || strings.HasPrefix(f, at+".") || strings.HasPrefix(f, at+"[")
	})
}

// node compiles the rules below s, then its own. uncorrelatable is the
// outermost node above s whose old and new values cannot be paired (an
// atomic map's properties, a list's items unless it is a map list): a rule
// below it may not use oldSelf. Only the properties, additionalProperties
// and items have a CEL context; the rules under allOf and the like are
// never compiled.
func (w *crdWalk) node(s *apiextensions.JSONSchemaProps, p, uncorrelatable *field.Path, ctx *crdvalidation.CELSchemaContext) {
	if s == nil || ctx == nil {
		return
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Schema != nil {
		w.node(ap.Schema, p.Child("additionalProperties"), uncorrelatable, ctx.ChildAdditionalPropertiesContext(ap.Schema))
	}
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		sub := uncorrelatable
		if sub == nil && !cel.MapIsCorrelatable(s.XMapType) {
			sub = p
		}
		prop := s.Properties[k]
		w.node(&prop, p.Child("properties").Key(k), sub, ctx.ChildPropertyContext(&prop, k))
	}
	if s.Items != nil {
		sub := uncorrelatable
		if sub == nil && (s.XListType == nil || *s.XListType != "map") {
			sub = p
		}
		w.node(s.Items.Schema, p.Child("items"), sub, ctx.ChildItemsContext(s.Items.Schema))
		for i := range s.Items.JSONSchemas {
			w.node(&s.Items.JSONSchemas[i], p.Child("items").Index(i), sub, ctx.ChildItemsContext(&s.Items.JSONSchemas[i]))
		}
	}
	if len(s.XValidations) == 0 || w.blocked(p) {
		return
	}
	w.own(s, p, uncorrelatable, ctx)
}

// own compiles the rules of one node, as the CRD validation does
// (ValidateCustomResourceDefinitionOpenAPISchema).
func (w *crdWalk) own(s *apiextensions.JSONSchemaProps, p, uncorrelatable *field.Path, ctx *crdvalidation.CELSchemaContext) {
	rp := p.Child("x-kubernetes-validations")
	typeInfo, err := ctx.TypeInfo()
	if err != nil {
		w.errs = append(w.errs, field.InternalError(rp, fmt.Errorf("internal error: failed to construct type information for x-kubernetes-validations rules: %s", err)))
		return
	}
	if typeInfo == nil {
		w.errs = append(w.errs, field.InternalError(rp, fmt.Errorf("internal error: failed to retrieve type information for x-kubernetes-validations")))
		return
	}
	results, err := cel.Compile(typeInfo.Schema, typeInfo.DeclType, celconfig.PerCallLimit, crdEnvSet(), cel.NewExpressionsEnvLoader())
	if err != nil {
		w.errs = append(w.errs, field.InternalError(rp, err))
		return
	}
	for i, cr := range results {
		rule := rp.Index(i)
		cost := expressionCost(cr, ctx)
		if cost > crdvalidation.StaticEstimatedCostLimit {
			w.errs = append(w.errs, field.Forbidden(rule.Child("rule"), costMessage("estimated rule cost", cost, crdvalidation.StaticEstimatedCostLimit)))
		}
		ctx.TotalCost.ObserveExpressionCost(rule.Child("rule"), cost)
		if cr.Error != nil {
			if cr.Error.Type == apiservercel.ErrorTypeRequired {
				w.errs = append(w.errs, field.Required(rule.Child("rule"), cr.Error.Detail))
			} else {
				w.errs = append(w.errs, field.Invalid(rule.Child("rule"), s.XValidations[i], cr.Error.Detail))
			}
		}
		if cr.MessageExpressionError != nil {
			w.errs = append(w.errs, field.Invalid(rule.Child("messageExpression"), s.XValidations[i], cr.MessageExpressionError.Detail))
		} else if cr.MessageExpression != nil {
			if cr.MessageExpressionMaxCost > crdvalidation.StaticEstimatedCostLimit {
				w.errs = append(w.errs, field.Forbidden(rule.Child("messageExpression"), costMessage("estimated messageExpression cost", cr.MessageExpressionMaxCost, crdvalidation.StaticEstimatedCostLimit)))
			}
			ctx.TotalCost.ObserveExpressionCost(rule.Child("messageExpression"), cr.MessageExpressionMaxCost)
		}
		if cr.UsesOldSelf {
			if uncorrelatable != nil {
				w.errs = append(w.errs, field.Invalid(rule.Child("rule"), s.XValidations[i].Rule, fmt.Sprintf("oldSelf cannot be used on the uncorrelatable portion of the schema within %v", uncorrelatable)))
			}
		} else if s.XValidations[i].OptionalOldSelf != nil {
			w.errs = append(w.errs, field.Invalid(rule.Child("optionalOldSelf"), *s.XValidations[i].OptionalOldSelf, "may not be set if oldSelf is not used in rule"))
		}
	}
}

// expressionCost is a rule's estimated cost times the number of times it
// may run: the bound of the lists and maps above it, else the compiler's.
func expressionCost(cr cel.CompilationResult, ctx *crdvalidation.CELSchemaContext) uint64 {
	if ctx.MaxCardinality != nil {
		return multiplyCapped(cr.MaxCost, *ctx.MaxCardinality)
	}
	return multiplyCapped(cr.MaxCost, cr.MaxCardinality)
}

func multiplyCapped(cost, times uint64) uint64 {
	if cost == 0 {
		return 0
	}
	if ^uint64(0)/cost < times {
		return ^uint64(0)
	}
	return cost * times
}

// costMessage is the CRD validation's words for a cost over its limit.
func costMessage(name string, cost, limit uint64) string {
	factor := float64(cost) / float64(limit)
	var by string
	switch {
	case factor > 100.0:
		by = "more than 100x"
	case factor < 1.5:
		by = fmt.Sprintf("%fx", factor)
	default:
		by = fmt.Sprintf("%.1fx", factor)
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", name, by)
}
