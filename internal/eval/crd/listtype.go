package crd

import (
	"encoding/json"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// listTypes reports the duplicates of x-kubernetes-list-type set arrays (equal
// items) and map arrays (items with equal keys) under the object obj.
func listTypes(path *field.Path, s *Schema, obj map[string]any) field.ErrorList {
	if s == nil || obj == nil {
		return nil
	}
	var errs field.ErrorList
	if s.AdditionalProperties != nil {
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			errs = append(errs, listTypesOf(path.Key(k), s.AdditionalProperties, obj[k])...)
		}
	}
	for _, k := range s.propertyNames {
		if v, ok := obj[k]; ok {
			errs = append(errs, listTypesOf(path.Child(k), s.Properties[k], v)...)
		}
	}
	return errs
}

func listTypesOf(path *field.Path, s *Schema, x any) field.ErrorList {
	switch x := x.(type) {
	case []any:
		var errs field.ErrorList
		switch s.ListType {
		case "set":
			for _, i := range repeats(x) {
				errs = append(errs, field.Duplicate(path.Index(i), x[i]))
			}
		case "map":
			errs = append(errs, listMap(path, s, x)...)
		}
		if s.Items != nil {
			for i, e := range x {
				errs = append(errs, listTypesOf(path.Index(i), s.Items, e)...)
			}
		}
		return errs
	case map[string]any:
		return listTypes(path, s, x)
	}
	return nil
}

// repeats returns the index of the second occurrence of each value that
// occurs more than once, in order. Scalars are equal when of the same Go type
// and value; arrays and objects when their JSON is.
func repeats(items []any) []int {
	if len(items) <= 1 {
		return nil
	}
	scalars := map[any]int{}
	compounds := map[string]int{}
	var out []int
	for i, x := range items {
		var n int
		switch x.(type) {
		case map[string]any, []any:
			b, _ := json.Marshal(x)
			compounds[string(b)]++
			n = compounds[string(b)]
		default:
			scalars[x]++
			n = scalars[x]
		}
		if n == 2 {
			out = append(out, i)
		}
	}
	return out
}

// noKey stands for an item of a list-type map without its (single) key.
type noKey struct{}

func listMap(path *field.Path, s *Schema, items []any) field.ErrorList {
	for i, x := range items {
		if _, ok := x.(map[string]any); x != nil && !ok {
			return field.ErrorList{field.Invalid(path.Index(i), x, "must be an object for an array of list-type map")}
		}
	}
	if len(items) <= 1 {
		return nil
	}
	var errs field.ErrorList
	if len(s.ListMapKeys) == 1 {
		name := s.ListMapKeys[0]
		keys := make([]any, len(items))
		for i, x := range items {
			keys[i] = noKey{}
			if m, ok := x.(map[string]any); ok {
				if k, ok := m[name]; ok {
					keys[i] = k
				}
			}
		}
		for _, i := range repeats(keys) {
			if _, none := keys[i].(noKey); none {
				errs = append(errs, field.Duplicate(path.Index(i), map[string]any{}))
			} else {
				errs = append(errs, field.Duplicate(path.Index(i), map[string]any{name: keys[i]}))
			}
		}
		return errs
	}
	keys := make([]any, len(items))
	for i, x := range items {
		key := map[string]any{}
		if m, ok := x.(map[string]any); ok {
			for _, name := range s.ListMapKeys {
				if k, ok := m[name]; ok {
					key[name] = k
				}
			}
		}
		keys[i] = key
	}
	for _, i := range repeats(keys) {
		errs = append(errs, field.Duplicate(path.Index(i), keys[i]))
	}
	return errs
}
