package validation

// The structural-schema rules of a CRD's openAPIV3Schema (VAL-97) and the
// check of its defaults: apiextensions-apiserver's ValidateStructural and
// ValidateDefaults (k8s.io/apiextensions-apiserver/pkg/apiserver/schema and
// …/schema/defaulting), on the internal schema type.

import (
	"fmt"
	"reflect"
	"sort"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/crd"
)

// level is where a structural node sits: the root, an array's items, or an
// object's field (additionalProperties included).
type level int

const (
	rootLevel level = iota
	itemLevel
	fieldLevel
)

// structural returns the errors that make a schema non-structural, sorted
// by their text as upstream sorts them. A structural node is the root,
// items, properties and additionalProperties; the schemas under allOf,
// anyOf, oneOf and not are value validations only, which may not give
// types, defaults, descriptions or extensions, nor name a field the
// structural part does not have.
func structural(s *apiextensions.JSONSchemaProps, p *field.Path) field.ErrorList {
	errs := invariants(s, rootLevel, p)
	errs = append(errs, junctorsComplete(s, s, p, p)...)
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return errs
}

// items is the structural items schema of s, nil when it has none.
func items(s *apiextensions.JSONSchemaProps) *apiextensions.JSONSchemaProps {
	if s == nil || s.Items == nil {
		return nil
	}
	return s.Items.Schema
}

func invariants(s *apiextensions.JSONSchemaProps, lvl level, p *field.Path) field.ErrorList {
	if s == nil {
		return nil
	}
	var errs field.ErrorList
	if s.Type == "array" && items(s) == nil {
		errs = append(errs, field.Required(p.Child("items"), "must be specified"))
	}
	errs = append(errs, invariants(items(s), itemLevel, p.Child("items"))...)
	for _, k := range sortedKeys(s.Properties, nil) {
		c := s.Properties[k]
		errs = append(errs, invariants(&c, fieldLevel, p.Child("properties").Key(k))...)
	}
	if s.AdditionalProperties != nil {
		if lvl == rootLevel {
			errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "must not be used at the root"))
		}
		errs = append(errs, invariants(s.AdditionalProperties.Schema, fieldLevel, p.Child("additionalProperties"))...)
	}
	preserve := s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields
	if s.XIntOrString && preserve {
		errs = append(errs, field.Invalid(p.Child("x-kubernetes-preserve-unknown-fields"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.XIntOrString && s.XEmbeddedResource {
		errs = append(errs, field.Invalid(p.Child("x-kubernetes-embedded-resource"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	// The two int-or-string forms: anyOf [integer, string], or an allOf
	// whose first item is that anyOf.
	skipAnyOf := intOrStringAnyOf(s.AnyOf)
	skipFirstAllOfAnyOf := len(s.AllOf) > 0 && intOrStringAnyOf(s.AllOf[0].AnyOf)
	errs = append(errs, junctors(s, skipAnyOf, skipFirstAllOfAnyOf, lvl, p)...)

	switch {
	case s.XEmbeddedResource && s.Type == "":
		errs = append(errs, field.Required(p.Child("type"), "must be object if x-kubernetes-embedded-resource is true"))
	case s.XEmbeddedResource && s.Type != "object":
		errs = append(errs, field.Invalid(p.Child("type"), s.Type, "must be object if x-kubernetes-embedded-resource is true"))
	case !s.XEmbeddedResource && s.Type == "" && !s.XIntOrString && !preserve:
		detail := map[level]string{rootLevel: "must not be empty at the root", itemLevel: "must not be empty for specified array items",
			fieldLevel: "must not be empty for specified object fields"}[lvl]
		errs = append(errs, field.Required(p.Child("type"), detail))
	}
	if s.XEmbeddedResource && s.AdditionalProperties != nil {
		errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
	}
	if lvl == rootLevel && s.Type != "" && s.Type != "object" {
		errs = append(errs, field.Invalid(p.Child("type"), s.Type, "must be object at the root"))
	}
	resource := lvl == rootLevel || s.XEmbeddedResource
	for _, k := range []string{"kind", "apiVersion"} {
		if c, ok := s.Properties[k]; ok && resource && c.Type != "string" {
			errs = append(errs, field.Invalid(p.Child("properties").Key(k).Child("type"), c.Type, "must be string"))
		}
	}
	if md, ok := s.Properties["metadata"]; ok {
		mp := p.Child("properties").Key("metadata")
		if resource && md.Type != "object" {
			errs = append(errs, field.Invalid(mp.Child("type"), md.Type, "must be object"))
		}
		if lvl == rootLevel && !onlyNameAndGenerateName(md) {
			errs = append(errs, field.Forbidden(mp, "must not specify anything other than name and generateName, but metadata is implicitly specified"))
		}
	}
	if s.XEmbeddedResource && !preserve && len(s.Properties) == 0 {
		errs = append(errs, field.Required(p.Child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
	return errs
}

// onlyNameAndGenerateName: the root's metadata schema may give a type and
// the schemas of name and generateName, nothing else.
func onlyNameAndGenerateName(md apiextensions.JSONSchemaProps) bool {
	_, name := md.Properties["name"]
	_, gen := md.Properties["generateName"]
	if (name && gen && len(md.Properties) == 2) || ((name || gen) && len(md.Properties) == 1) {
		md.Properties = nil
	}
	md.Type, md.Default = "", nil
	return reflect.DeepEqual(structuralView(md), apiextensions.JSONSchemaProps{})
}

// structuralView is s as upstream's structural conversion keeps it, for
// comparisons: empty lists and null defaults or examples are no value.
func structuralView(s apiextensions.JSONSchemaProps) apiextensions.JSONSchemaProps {
	if len(s.Properties) == 0 {
		s.Properties = nil
	}
	if len(s.Enum) == 0 {
		s.Enum = nil
	}
	if len(s.AllOf) == 0 {
		s.AllOf = nil
	}
	if len(s.AnyOf) == 0 {
		s.AnyOf = nil
	}
	if len(s.OneOf) == 0 {
		s.OneOf = nil
	}
	if len(s.XValidations) == 0 {
		s.XValidations = nil
	}
	if s.Default != nil && *s.Default == nil {
		s.Default = nil
	}
	if s.Example != nil && *s.Example == nil {
		s.Example = nil
	}
	if s.Items != nil && s.Items.Schema == nil {
		s.Items = nil
	}
	if s.XPreserveUnknownFields != nil && !*s.XPreserveUnknownFields {
		s.XPreserveUnknownFields = nil
	}
	return s
}

// intOrStringAnyOf: exactly [{type: integer}, {type: string}].
func intOrStringAnyOf(list []apiextensions.JSONSchemaProps) bool {
	only := func(s apiextensions.JSONSchemaProps, t string) bool {
		if s.Type != t {
			return false
		}
		s.Type = ""
		s = structuralView(s)
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema == nil && !s.AdditionalProperties.Allows {
			s.AdditionalProperties = nil
		}
		return reflect.DeepEqual(s, apiextensions.JSONSchemaProps{})
	}
	return len(list) == 2 && only(list[0], "integer") && only(list[1], "string")
}

// junctors checks the allOf, anyOf, oneOf and not of a node, and its
// pattern.
func junctors(s *apiextensions.JSONSchemaProps, skipAnyOf, skipFirstAllOfAnyOf bool, lvl level, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !skipAnyOf {
		for i := range s.AnyOf {
			errs = append(errs, valueOnly(&s.AnyOf[i], false, lvl, p.Child("anyOf").Index(i))...)
		}
	}
	for i := range s.AllOf {
		errs = append(errs, valueOnly(&s.AllOf[i], skipFirstAllOfAnyOf && i == 0, lvl, p.Child("allOf").Index(i))...)
	}
	for i := range s.OneOf {
		errs = append(errs, valueOnly(&s.OneOf[i], false, lvl, p.Child("oneOf").Index(i))...)
	}
	errs = append(errs, valueOnly(s.Not, false, lvl, p.Child("not"))...)
	if s.Pattern != "" {
		if err := compiledPattern(s.Pattern); err != nil {
			errs = append(errs, field.Invalid(p.Child("pattern"), s.Pattern, fmt.Sprintf("must be a valid regular expression, but isn't: %v", err)))
		}
	}
	return errs
}

// valueOnly checks a schema under a junctor: value validations only.
func valueOnly(v *apiextensions.JSONSchemaProps, skipAnyOf bool, lvl level, p *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	errs := junctors(v, skipAnyOf, false, lvl, p)
	errs = append(errs, valueOnly(items(v), false, lvl, p.Child("items"))...)
	for _, k := range sortedKeys(v.Properties, nil) {
		c := v.Properties[k]
		errs = append(errs, valueOnly(&c, false, fieldLevel, p.Child("properties").Key(k))...)
	}
	forbid := func(name, detail string) { errs = append(errs, field.Forbidden(p.Child(name), detail)) }
	if v.Type != "" {
		forbid("type", "must be empty to be structural")
	}
	if ap := v.AdditionalProperties; ap != nil && (ap.Schema != nil || ap.Allows) {
		forbid("additionalProperties", "must be undefined to be structural")
	}
	if v.Default != nil && *v.Default != nil {
		forbid("default", "must be undefined to be structural")
	}
	if v.Title != "" {
		forbid("title", "must be empty to be structural")
	}
	if v.Description != "" {
		forbid("description", "must be empty to be structural")
	}
	if v.Nullable {
		forbid("nullable", "must be false to be structural")
	}
	if v.XPreserveUnknownFields != nil && *v.XPreserveUnknownFields {
		forbid("x-kubernetes-preserve-unknown-fields", "must be false to be structural")
	}
	if v.XEmbeddedResource {
		forbid("x-kubernetes-embedded-resource", "must be false to be structural")
	}
	if v.XIntOrString {
		forbid("x-kubernetes-int-or-string", "must be false to be structural")
	}
	if len(v.XListMapKeys) > 0 {
		forbid("x-kubernetes-list-map-keys", "must be empty to be structural")
	}
	if v.XListType != nil {
		forbid("x-kubernetes-list-type", "must be undefined to be structural")
	}
	if v.XMapType != nil {
		forbid("x-kubernetes-map-type", "must be undefined to be structural")
	}
	if len(v.XValidations) > 0 {
		forbid("x-kubernetes-validations", "must be empty to be structural")
	}
	if _, ok := v.Properties["metadata"]; ok {
		errs = append(errs, field.Forbidden(p.Child("properties").Key("metadata"), "must not be specified in a nested context"))
	}
	return errs
}

// junctorsComplete: every field and items a value validation under the
// root's junctors names must exist in the structural part (sPath) it
// applies to (vPath: where the junctor names it).
func junctorsComplete(v, s *apiextensions.JSONSchemaProps, sPath, vPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, valueComplete(v.Not, s, sPath, vPath.Child("not"))...)
	for _, j := range []struct {
		name string
		list []apiextensions.JSONSchemaProps
	}{{"allOf", v.AllOf}, {"anyOf", v.AnyOf}, {"oneOf", v.OneOf}} {
		for i := range j.list {
			errs = append(errs, valueComplete(&j.list[i], s, sPath, vPath.Child(j.name).Index(i))...)
		}
	}
	return errs
}

func valueComplete(v, s *apiextensions.JSONSchemaProps, sPath, vPath *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	if s == nil {
		return field.ErrorList{field.Required(sPath, "because it is defined in "+vPath.String())}
	}
	errs := junctorsComplete(v, s, sPath, vPath)
	errs = append(errs, valueComplete(items(v), items(s), sPath.Child("items"), vPath.Child("items"))...)
	for _, k := range sortedKeys(v.Properties, nil) {
		c := v.Properties[k]
		sc, ok := s.Properties[k]
		if !ok {
			errs = append(errs, field.Required(sPath.Child("properties").Key(k), "because it is defined in "+vPath.Child("properties").Key(k).String()))
			continue
		}
		errs = append(errs, valueComplete(&c, &sc, sPath.Child("properties").Key(k), vPath.Child("properties").Key(k))...)
	}
	return errs
}

// schemaDefaults checks every default of a structural schema (not below
// additionalProperties, where none are allowed): it must hold no field the
// schema would prune and must validate against its node. The root is
// treated as a resource (its apiVersion, kind and metadata need no schema).
// Defaults of a resource's apiVersion, kind and metadata are not checked
// here (see VAL-97).
func schemaDefaults(s *apiextensions.JSONSchemaProps, p *field.Path) field.ErrorList {
	if !schemaHas(s, func(n *apiextensions.JSONSchemaProps) bool { return n.Default != nil && *n.Default != nil }) {
		return nil
	}
	// A pattern the validator cannot compile leaves the defaults unchecked
	// (the pattern is its own error). Otherwise the validator's form of a
	// node is made at the highest defaulted node of its branch, and its
	// parts serve the defaults below: the validator reads only a node and
	// what is below it, and converting a large schema whole (internal, v1,
	// JSON, the validator's form) for a few defaults cost most of a big
	// CRD's check. Each node is still converted at most once.
	if schemaHas(s, func(n *apiextensions.JSONSchemaProps) bool {
		return n.Pattern != "" && compiledPattern(n.Pattern) != nil
	}) {
		return nil
	}
	root := *s
	root.XEmbeddedResource = true
	return defaultsAt(&root, nil, p, false)
}

// defaultsAt checks the defaults at and below s; cs is the same node in the
// custom resource validator's form, nil until a default above needed it.
func defaultsAt(s *apiextensions.JSONSchemaProps, cs *crd.Schema, p *field.Path, insideMeta bool) field.ErrorList {
	if s == nil {
		return nil
	}
	if s.XEmbeddedResource {
		insideMeta = false
	}
	var errs field.ErrorList
	if s.Default != nil && *s.Default != nil && !insideMeta {
		def := *s.Default
		if cs == nil {
			cs, _ = schemaToCheck(s) // never fails once the patterns compile
		}
		if cs != nil {
			if cs.PrunesFrom(def) {
				errs = append(errs, field.Invalid(p.Child("default"), def, "must not have unknown fields"))
			}
			errs = append(errs, cs.ValidateValue(p.Child("default"), def)...)
		}
	}
	var csItems *crd.Schema
	if cs != nil {
		csItems = cs.Items
	}
	errs = append(errs, defaultsAt(items(s), csItems, p.Child("items"), insideMeta)...)
	for _, k := range sortedKeys(s.Properties, nil) {
		c := s.Properties[k]
		var cc *crd.Schema
		if cs != nil {
			cc = cs.Properties[k]
		}
		errs = append(errs, defaultsAt(&c, cc, p.Child("properties").Key(k), insideMeta || (s.XEmbeddedResource && metaFields[k]))...)
	}
	return errs
}
