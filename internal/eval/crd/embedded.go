package crd

import (
	"encoding/json"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	kjson "sigs.k8s.io/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// EmbeddedUnknown returns the paths of the fields the metadata of an
// x-kubernetes-embedded-resource value below the root does not have
// ("spec.template.metadata.labelz"), which decoding reports after the
// schema's unknown fields, in the order the values are met (sibling
// properties by name). An apiVersion or kind of such a value that is not a
// string fails the decoding instead: err is that error.
func (s *Schema) EmbeddedUnknown(obj map[string]any) (paths []string, err *field.Error) {
	w := &coercer{}
	w.walk(nil, obj, s, false)
	return w.unknown, w.err
}

type coercer struct {
	unknown []string
	err     *field.Error
}

func (w *coercer) walk(p *field.Path, x any, s *Schema, embeddedHere bool) {
	if w.err != nil || s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		if embeddedHere {
			for _, k := range []string{"apiVersion", "kind"} {
				if v, ok := x[k]; ok {
					if _, isString := v.(string); !isString {
						w.err = field.Invalid(p.Child(k), v, "must be a string")
						return
					}
				}
			}
			if md, ok := x["metadata"]; ok {
				w.unknown = append(w.unknown, MetadataUnknown(p.Child("metadata").String(), md)...)
			}
		}
		for _, k := range sortedKeys(x) {
			if c, ok := s.Properties[k]; ok {
				w.walk(p.Child(k), x[k], c, c.EmbeddedResource)
			} else if a := s.AdditionalProperties; a != nil {
				w.walk(p.Key(k), x[k], a, a.EmbeddedResource)
			}
		}
	case []any:
		if s.Items != nil {
			for i, v := range x {
				w.walk(p.Index(i), v, s.Items, s.Items.EmbeddedResource)
			}
		}
	}
}

// MetadataUnknown lists the fields of md, an object's metadata at path, that
// ObjectMeta does not have ("metadata.labelz"), in the order of the keys.
func MetadataUnknown(path string, md any) []string {
	raw, err := json.Marshal(md)
	if err != nil {
		return nil
	}
	strict, err := kjson.UnmarshalStrict(raw, &metav1.ObjectMeta{})
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range strict {
		if fe, ok := e.(kjson.FieldError); ok {
			out = append(out, path+"."+fe.FieldPath())
		}
	}
	return out
}

// EmbeddedMeta is how a caller validates the metadata of an embedded
// resource: as apimachinery's ValidateObjectMeta with a path-segment name.
type EmbeddedMeta func(meta *metav1.ObjectMeta, p *field.Path) field.ErrorList

// Embedded validates the x-kubernetes-embedded-resource values below the
// root: apiVersion and kind required, a parseable apiVersion, a kind that is
// a DNS-1035 label but for its case, and their metadata (a missing name is
// taken as given).
func (s *Schema) Embedded(obj map[string]any, meta EmbeddedMeta) field.ErrorList {
	return embedded(nil, obj, s, meta, nil, true)
}

func embedded(p *field.Path, x any, s *Schema, meta EmbeddedMeta, errs field.ErrorList, root bool) field.ErrorList {
	switch x := x.(type) {
	case map[string]any:
		if s.EmbeddedResource && !root {
			errs = append(errs, embeddedResource(p, x, meta)...)
		}
		for _, k := range s.propertyNames {
			if v, ok := x[k]; ok {
				errs = embedded(p.Child(k), v, s.Properties[k], meta, errs, false)
			}
		}
		if a := s.AdditionalProperties; a != nil {
			for _, k := range sortedKeys(x) {
				if _, declared := s.Properties[k]; !declared {
					errs = embedded(p.Key(k), x[k], a, meta, errs, false)
				}
			}
		}
	case []any:
		if s.Items != nil {
			for i, v := range x {
				errs = embedded(p.Index(i), v, s.Items, meta, errs, false)
			}
		}
	}
	return errs
}

func embeddedResource(p *field.Path, x map[string]any, meta EmbeddedMeta) field.ErrorList {
	var errs field.ErrorList
	if _, ok := x["apiVersion"]; !ok {
		errs = append(errs, field.Required(p.Child("apiVersion"), ""))
	}
	if _, ok := x["kind"]; !ok {
		errs = append(errs, field.Required(p.Child("kind"), ""))
	}
	for _, k := range sortedKeys(x) {
		v := x[k]
		switch k {
		case "apiVersion":
			av, ok := v.(string)
			switch {
			case !ok:
				errs = append(errs, field.Invalid(p.Child(k), v, "must be a string"))
			case av == "":
				errs = append(errs, field.Invalid(p.Child(k), av, "must not be empty"))
			default:
				if _, err := schema.ParseGroupVersion(av); err != nil {
					errs = append(errs, field.Invalid(p.Child(k), av, err.Error()))
				}
			}
		case "kind":
			kind, ok := v.(string)
			switch {
			case !ok:
				errs = append(errs, field.Invalid(p.Child(k), v, "must be a string"))
			case kind == "":
				errs = append(errs, field.Invalid(p.Child(k), kind, "must not be empty"))
			default:
				if msgs := utilvalidation.IsDNS1035Label(strings.ToLower(kind)); len(msgs) > 0 {
					errs = append(errs, field.Invalid(p.Child(k), kind, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
				}
			}
		case "metadata":
			raw, err := json.Marshal(v)
			m := &metav1.ObjectMeta{}
			if err == nil {
				err = json.Unmarshal(raw, m)
			}
			if err != nil {
				errs = append(errs, field.Invalid(p.Child(k), v, err.Error()))
				continue
			}
			if m.Name == "" {
				m.Name = "fakename"
			}
			errs = append(errs, meta(m, p.Child(k))...)
		}
	}
	return errs
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
