package crd

import (
	"slices"
	"strconv"
	"strings"
)

// objectFields are the fields of a resource (the root, or an embedded
// resource) that its schema need not declare.
var objectFields = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}

// Prune removes from obj, the content of a custom resource, every field the
// schema neither declares nor preserves, and returns their paths sorted
// ("spec.foo", "spec.items[0].bar"). It then drops the null values of
// fields that are neither nullable nor defaulted, as kube-apiserver's decoding
// does before defaulting.
func (s *Schema) Prune(obj map[string]any) []string {
	root := *s
	root.EmbeddedResource = true // the root's apiVersion, kind, metadata are kept
	var unknown []string
	p := pruner{unknown: &unknown}
	p.walk(obj, &root, nil)
	slices.Sort(unknown)
	dropNulls(obj, s)
	return unknown
}

type pruner struct {
	unknown *[]string
}

func pathOf(parts []string) string { return strings.Join(parts, "") }

func appendKey(parts []string, k string) []string {
	if len(parts) > 0 {
		parts = append(parts, ".")
	}
	return append(parts, k)
}

// walk prunes x under s; path is the value's path in pieces.
func (p pruner) walk(x any, s *Schema, path []string) {
	if s != nil && s.PreserveUnknownFields {
		p.keep(x, s, path)
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			if s == nil {
				*p.unknown = append(*p.unknown, pathOf(appendKey(slices.Clip(path), k)))
				delete(x, k)
				continue
			}
			if s.EmbeddedResource && objectFields[k] {
				continue
			}
			if c, ok := s.Properties[k]; ok {
				p.walk(v, c, appendKey(slices.Clip(path), k))
			} else if s.AdditionalProperties != nil {
				p.walk(v, s.AdditionalProperties, appendKey(slices.Clip(path), k))
			} else {
				if !objectFields[k] || len(path) > 0 {
					*p.unknown = append(*p.unknown, pathOf(appendKey(slices.Clip(path), k)))
				}
				delete(x, k)
			}
		}
	case []any:
		var items *Schema
		if s != nil {
			items = s.Items
		}
		for i, v := range x {
			p.walk(v, items, append(slices.Clip(path), "[", strconv.Itoa(i), "]"))
		}
	}
}

// keep walks a value whose unknown fields are preserved: only the fields
// its schema declares are pruned below it.
func (p pruner) keep(x any, s *Schema, path []string) {
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			if s.EmbeddedResource && objectFields[k] {
				continue
			}
			if c, ok := s.Properties[k]; ok {
				p.walk(v, c, appendKey(slices.Clip(path), k))
			} else if s.AdditionalProperties != nil {
				p.walk(v, s.AdditionalProperties, appendKey(slices.Clip(path), k))
			}
		}
	case []any:
		if s.Items == nil {
			return
		}
		for i, v := range x {
			p.keep(v, s.Items, append(slices.Clip(path), "[", strconv.Itoa(i), "]"))
		}
	}
}

// fieldSchema is the schema of a map's value under key k.
func fieldSchema(s *Schema, k string) *Schema {
	if s == nil {
		return nil
	}
	if c, ok := s.Properties[k]; ok {
		return c
	}
	return s.AdditionalProperties
}

// dropNulls removes the map values that are null where the schema says the
// field is neither nullable nor has a default.
func dropNulls(x any, s *Schema) {
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			c := fieldSchema(s, k)
			if v == nil && c != nil && !c.Nullable && !c.HasDefault {
				delete(x, k)
				continue
			}
			dropNulls(v, c)
		}
	case []any:
		var items *Schema
		if s != nil {
			items = s.Items
		}
		for _, v := range x {
			dropNulls(v, items)
		}
	}
}
