package eval

import (
	"encoding/json"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/eval/validation"
)

// crdErrors runs a CustomResourceDefinition's create defaulting and
// validation (VAL-93..VAL-99) on o, which the defaults change; compile
// compiles its rules (nil: they are not compiled).
func crdErrors(o *apiextensionsv1.CustomResourceDefinition, compile validation.CRDRuleCompiler) (field.ErrorList, error) {
	internal, err := validation.PrepareCRDForCreate(o)
	if err != nil {
		return nil, err
	}
	return validation.CustomResourceDefinition(internal, compile), nil
}

// crdCompiler compiles a new CRD's rules with ev (VAL-95); failed, when
// given, is told why they could not be compiled. Nil without ev.
func crdCompiler(ev RuleEvaluator, failed func(reason string)) validation.CRDRuleCompiler {
	if ev == nil {
		if failed == nil {
			return nil
		}
		return func(*apiextensions.JSONSchemaProps, *field.Path, field.ErrorList) field.ErrorList {
			failed("limitcheck was run without a CEL evaluator")
			return nil
		}
	}
	return func(s *apiextensions.JSONSchemaProps, p *field.Path, schemaErrs field.ErrorList) field.ErrorList {
		var v1 apiextensionsv1.JSONSchemaProps
		err := apiextensionsv1.Convert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps(s, &v1, nil)
		var schema []byte
		if err == nil {
			schema, err = json.Marshal(&v1)
		}
		var errs field.ErrorList
		if err == nil {
			fields := make([]string, len(schemaErrs))
			for i, e := range schemaErrs {
				fields[i] = e.Field
			}
			errs, err = ev.CompileCRD(schema, p, fields)
		}
		if err != nil {
			if failed != nil {
				failed(err.Error())
			}
			return nil
		}
		return errs
	}
}

// CRDCheck is a CustomResourceDefinition's create validation (crdErrors),
// done once by CheckCRD, to be reused when the engine admits the same
// document (PreparedCRD): a large schema takes long to check.
type CRDCheck struct {
	gk   schema.GroupKind
	name string
	errs field.ErrorList
	err  error
	// uncompiled says why its rules could not be compiled (VAL-95).
	uncompiled string
}

// CheckCRD runs the create validation of obj, a CustomResourceDefinition
// (apiextensions.k8s.io/v1, decoded by NewObject), nil for anything else;
// ev compiles its rules (nil: they are not compiled, which the check
// records). obj is changed (named, defaulted): give a copy to keep it. It
// is safe to call on any goroutine.
func CheckCRD(obj runtime.Object, ev RuleEvaluator) *CRDCheck {
	c, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return nil
	}
	assignName(c)
	check := &CRDCheck{gk: c.GroupVersionKind().GroupKind(), name: c.Name}
	check.errs, check.err = crdErrors(c, crdCompiler(ev, func(reason string) { check.uncompiled = reason }))
	return check
}

// Refusal is kube-apiserver's 422 for the CRD checked, nil when it creates
// it. A refused CRD does not make its custom resources known (VAL-93).
func (c *CRDCheck) Refusal() *status.Denial {
	if c == nil || c.err != nil || len(c.errs) == 0 {
		return nil
	}
	return status.Invalid(c.gk, c.name, c.errs)
}

// PreparedCRD prepares obj, the same document as the one c checked, for
// AdmitPrepared, which takes c's verdict instead of checking it again.
func PreparedCRD(obj runtime.Object, c *CRDCheck) *Prepared {
	crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok || c == nil {
		return nil
	}
	return &Prepared{crd: crd, crdCheck: c}
}
