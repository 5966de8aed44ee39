package crd

import (
	"reflect"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The checks below serve the validation of a CustomResourceDefinition's
// schema defaults (VAL-97): a default is a value of one node, not a whole
// custom resource.

// PrunesFrom reports whether pruning x, a value of this node, against the
// node would remove a field from it: a default must not hold fields its
// schema does not know.
func (s *Schema) PrunesFrom(x any) bool {
	c := copyJSON(x)
	var unknown []string
	pruner{unknown: &unknown}.walk(c, s, nil)
	return !reflect.DeepEqual(c, x)
}

// ValidateValue validates x, a value of this node, as the schema validates
// a custom resource (Validate), and returns the errors at paths below at: the
// value itself is at, its fields at.field.
func (s *Schema) ValidateValue(at *field.Path, x any) field.ErrorList {
	v := &validator{seen: map[string]bool{}}
	v.node("", s, x)
	prefix := at.String()
	errs := v.list()
	for _, e := range errs {
		if e.Field == "" || e.Field == "<nil>" {
			e.Field = prefix
		} else {
			e.Field = prefix + "." + e.Field
		}
	}
	return errs
}
