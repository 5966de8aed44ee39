package eval

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
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

// CRDRefusal is kube-apiserver's 422 for a CustomResourceDefinition
// (apiextensions.k8s.io/v1, decoded by NewObject) it would refuse on
// create, nil when it creates it or obj is no CRD. obj is changed (named,
// defaulted): give a copy to keep it. A refused CRD does not make its
// custom resources known (VAL-93).
func CRDRefusal(obj runtime.Object) *status.Denial {
	c, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return nil
	}
	assignName(c)
	errs, err := crdErrors(c)
	if err != nil || len(errs) == 0 {
		return nil
	}
	return status.Invalid(c.GroupVersionKind().GroupKind(), c.Name, errs)
}
