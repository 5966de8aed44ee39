package eval

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/eval/validation"
)

// crdErrors runs a CustomResourceDefinition's create defaulting and
// validation (VAL-93..VAL-99) on o, which the defaults change.
func crdErrors(o *apiextensionsv1.CustomResourceDefinition) (field.ErrorList, error) {
	internal, err := validation.PrepareCRDForCreate(o)
	if err != nil {
		return nil, err
	}
	return validation.CustomResourceDefinition(internal), nil
}

// CRDCheck is a CustomResourceDefinition's create validation (crdErrors),
// done once by CheckCRD, to be reused when the engine admits the same
// document (PreparedCRD): a large schema takes long to check.
type CRDCheck struct {
	gk   schema.GroupKind
	name string
	errs field.ErrorList
	err  error
}

// CheckCRD runs the create validation of obj, a CustomResourceDefinition
// (apiextensions.k8s.io/v1, decoded by NewObject), nil for anything else.
// obj is changed (named, defaulted): give a copy to keep it. It is safe to
// call on any goroutine.
func CheckCRD(obj runtime.Object) *CRDCheck {
	c, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return nil
	}
	assignName(c)
	errs, err := crdErrors(c)
	return &CRDCheck{gk: c.GroupVersionKind().GroupKind(), name: c.Name, errs: errs, err: err}
}

// Refusal is kube-apiserver's 422 for the CRD checked, nil when it creates
// it. A refused CRD does not make its custom resources known (VAL-93).
func (c *CRDCheck) Refusal() *status.Denial {
	if c == nil || c.err != nil || len(c.errs) == 0 {
		return nil
	}
	return status.Invalid(c.gk, c.name, c.errs)
}

// CRDRefusal is CheckCRD(obj).Refusal().
func CRDRefusal(obj runtime.Object) *status.Denial {
	return CheckCRD(obj).Refusal()
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
