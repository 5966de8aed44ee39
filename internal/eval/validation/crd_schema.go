package validation

// The rules of a CRD's openAPIV3Schema node by node (VAL-95): what OpenAPI
// features a CRD may use, where defaults may be, the x-kubernetes-*
// extensions and the static part of x-kubernetes-validations rules.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/crd"
)

// schemaHas reports whether s or a schema below it satisfies pred.
func schemaHas(s *apiextensions.JSONSchemaProps, pred func(*apiextensions.JSONSchemaProps) bool) bool {
	if s == nil {
		return false
	}
	if pred(s) {
		return true
	}
	if s.Items != nil {
		if schemaHas(s.Items.Schema, pred) {
			return true
		}
		for i := range s.Items.JSONSchemas {
			if schemaHas(&s.Items.JSONSchemas[i], pred) {
				return true
			}
		}
	}
	for _, list := range [][]apiextensions.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			if schemaHas(&list[i], pred) {
				return true
			}
		}
	}
	if schemaHas(s.Not, pred) {
		return true
	}
	for _, m := range []map[string]apiextensions.JSONSchemaProps{s.Properties, s.PatternProperties, s.Definitions} {
		for _, c := range m {
			if schemaHas(&c, pred) {
				return true
			}
		}
	}
	if s.AdditionalProperties != nil && schemaHas(s.AdditionalProperties.Schema, pred) {
		return true
	}
	if s.AdditionalItems != nil && schemaHas(s.AdditionalItems.Schema, pred) {
		return true
	}
	for _, d := range s.Dependencies {
		if schemaHas(d.Schema, pred) {
			return true
		}
	}
	return false
}

// compiledPattern reports a pattern Go's regexp cannot compile.
func compiledPattern(pattern string) error {
	_, err := regexp.Compile(pattern)
	return err
}

// rootFieldsWithStatus are the schema fields allowed at the root when the
// status subresource is enabled, by their internal Go names.
var rootFieldsWithStatus = []string{"Description", "Type", "Format", "Title", "Maximum", "ExclusiveMaximum", "Minimum", "ExclusiveMinimum",
	"MaxLength", "MinLength", "Pattern", "MaxItems", "MinItems", "UniqueItems", "MultipleOf", "Required", "Items", "Properties",
	"ExternalDocs", "Example", "XPreserveUnknownFields", "XValidations"}

// CRDRuleCompiler compiles the x-kubernetes-validations rules of a new
// CRD's openAPIV3Schema s, at p, as kube-apiserver does when it validates the
// CRD (VAL-95), and returns its errors: compile errors, estimated costs over
// the limits, oldSelf where it cannot be used. The rules of a node with one
// of schemaErrs at or below it are left out. Nil when CEL cannot be run.
type CRDRuleCompiler func(s *apiextensions.JSONSchemaProps, p *field.Path, schemaErrs field.ErrorList) field.ErrorList

// crdSchema checks one openAPIV3Schema (VAL-95, VAL-97): with the status
// subresource only some root fields, no nullable root, then the structural
// rules and the defaults, then each node's own rules; a schema that cannot
// even be read as structural says so only when nothing else is wrong.
func crdSchema(v *apiextensions.CustomResourceValidation, status bool, p *field.Path, compile CRDRuleCompiler) field.ErrorList {
	if v == nil || v.OpenAPIV3Schema == nil {
		return nil
	}
	s := v.OpenAPIV3Schema
	sp := p.Child("openAPIV3Schema")
	var errs field.ErrorList
	if status {
		rv := reflect.ValueOf(s).Elem()
		for i := 0; i < rv.NumField(); i++ {
			if rv.Field(i).IsZero() {
				continue
			}
			name := rv.Type().Field(i).Name
			if name == "Type" {
				if s.Type != "object" {
					errs = append(errs, field.Invalid(p.Child("openAPIV3Schema.type"), s.Type, `only "object" is allowed as the type at the root of the schema if the status subresource is enabled`))
					break
				}
				continue
			}
			if !slices.Contains(rootFieldsWithStatus, name) {
				errs = append(errs, field.Invalid(sp, *s, fmt.Sprintf("only %v fields are allowed at the root of the schema if the status subresource is enabled", rootFieldsWithStatus)))
				break
			}
		}
	}
	if s.Nullable {
		errs = append(errs, field.Forbidden(p.Child("openAPIV3Schema.nullable"), "nullable cannot be true at the root"))
	}
	var notReadable field.ErrorList
	compiled := false // kube-apiserver compiles the rules of a structural schema with valid defaults
	if msg := notStructural(s); msg != "" {
		notReadable = field.ErrorList{field.Invalid(sp, "", msg)}
	} else if serrs := structural(s, sp); len(serrs) > 0 {
		errs = append(errs, serrs...)
	} else if derrs := schemaDefaults(s, sp); len(derrs) > 0 {
		errs = append(errs, derrs...)
	} else {
		compiled = compile != nil && schemaHas(s, func(n *apiextensions.JSONSchemaProps) bool { return len(n.XValidations) > 0 })
	}
	nodeErrs := schemaNode(s, sp, nodeContext{allowDefaults: true}, true)
	errs = append(errs, nodeErrs...)
	if compiled {
		errs = append(errs, compile(s, sp, nodeErrs)...)
	}
	if len(errs) == 0 {
		errs = notReadable
	}
	return errs
}

var (
	openAPITypes = []string{"array", "boolean", "integer", "number", "object", "string"}
	metaFields   = map[string]bool{"metadata": true, "kind": true, "apiVersion": true}
	ruleReasons  = []string{"FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"}
)

// nodeContext is what a schema node's own check depends on above it.
type nodeContext struct {
	allowDefaults    bool
	noDefaultsReason string
	insideMeta       bool // the node describes apiVersion, kind or metadata of a resource
}

func (c nodeContext) withoutDefaults(reason string) nodeContext {
	c.allowDefaults, c.noDefaultsReason = false, reason
	return c
}

// schemaNode is the check of one node and, recursively, those below it
// (ValidateCustomResourceDefinitionOpenAPISchema): what OpenAPI features a
// CRD may not use, defaults where none are allowed, then the
// x-kubernetes-* extensions. Properties are visited by name (upstream: map
// order).
func schemaNode(s *apiextensions.JSONSchemaProps, p *field.Path, ctx nodeContext, root bool) field.ErrorList {
	if s == nil {
		return nil
	}
	var errs field.ErrorList
	if s.Type != "" && !slices.Contains(openAPITypes, s.Type) {
		errs = append(errs, field.NotSupported(p.Child("type"), s.Type, openAPITypes))
	}
	if s.Default != nil && !ctx.allowDefaults {
		detail := "must not be set"
		if ctx.noDefaultsReason != "" {
			detail += " " + ctx.noDefaultsReason
		}
		errs = append(errs, field.Forbidden(p.Child("default"), detail))
	}
	if s.ID != "" {
		errs = append(errs, field.Forbidden(p.Child("id"), "id is not supported"))
	}
	if s.AdditionalItems != nil {
		errs = append(errs, field.Forbidden(p.Child("additionalItems"), "additionalItems is not supported"))
	}
	if len(s.PatternProperties) != 0 {
		errs = append(errs, field.Forbidden(p.Child("patternProperties"), "patternProperties is not supported"))
	}
	if len(s.Definitions) != 0 {
		errs = append(errs, field.Forbidden(p.Child("definitions"), "definitions is not supported"))
	}
	if s.Dependencies != nil {
		errs = append(errs, field.Forbidden(p.Child("dependencies"), "dependencies is not supported"))
	}
	if s.Ref != nil {
		errs = append(errs, field.Forbidden(p.Child("$ref"), "$ref is not supported"))
	}
	if s.Type == "null" {
		errs = append(errs, field.Forbidden(p.Child("type"), "type cannot be set to null, use nullable as an alternative"))
	}
	if s.Items != nil && len(s.Items.JSONSchemas) != 0 {
		errs = append(errs, field.Forbidden(p.Child("items"), "items must be a schema object and not an array"))
	}
	if ctx.insideMeta && s.XEmbeddedResource {
		errs = append(errs, field.Forbidden(p.Child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"))
	}
	if s.UniqueItems {
		errs = append(errs, field.Forbidden(p.Child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}
	if ap := s.AdditionalProperties; ap != nil {
		if len(s.Properties) != 0 && (!ap.Allows || ap.Schema != nil) {
			errs = append(errs, field.Forbidden(p.Child("additionalProperties"), "additionalProperties and properties are mutual exclusive"))
		}
		sub := ctx
		if ctx.insideMeta {
			sub = ctx.withoutDefaults("inside additionalProperties applying to object metadata")
		}
		errs = append(errs, schemaNode(ap.Schema, p.Child("additionalProperties"), sub, false)...)
	}
	for _, k := range sortedKeys(s.Properties, nil) {
		sub := ctx
		if (root || s.XEmbeddedResource) && metaFields[k] {
			sub.insideMeta = true
			if root {
				sub = sub.withoutDefaults("in top-level " + k)
			}
		}
		c := s.Properties[k]
		errs = append(errs, schemaNode(&c, p.Child("properties").Key(k), sub, false)...)
	}
	errs = append(errs, schemaNode(s.Not, p.Child("not"), ctx, false)...)
	for _, j := range []struct {
		name string
		list []apiextensions.JSONSchemaProps
	}{{"allOf", s.AllOf}, {"oneOf", s.OneOf}, {"anyOf", s.AnyOf}} {
		for i := range j.list {
			errs = append(errs, schemaNode(&j.list[i], p.Child(j.name).Index(i), ctx, false)...)
		}
	}
	for _, k := range sortedKeys(s.Definitions, nil) {
		c := s.Definitions[k]
		errs = append(errs, schemaNode(&c, p.Child("definitions").Key(k), ctx, false)...)
	}
	if s.Items != nil {
		errs = append(errs, schemaNode(s.Items.Schema, p.Child("items"), ctx, false)...)
		for i := range s.Items.JSONSchemas {
			errs = append(errs, schemaNode(&s.Items.JSONSchemas[i], p.Child("items").Index(i), ctx, false)...)
		}
	}
	for _, k := range sortedKeys(s.Dependencies, nil) {
		errs = append(errs, schemaNode(s.Dependencies[k].Schema, p.Child("dependencies").Key(k), ctx, false)...)
	}
	return append(errs, extensions(s, p)...)
}

// extensions checks a node's x-kubernetes-* fields (VAL-95).
func extensions(s *apiextensions.JSONSchemaProps, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.XPreserveUnknownFields != nil && !*s.XPreserveUnknownFields {
		errs = append(errs, field.Invalid(p.Child("x-kubernetes-preserve-unknown-fields"), false, "must be true or undefined"))
	}
	if s.XMapType != nil && s.Type != "object" {
		if s.Type == "" {
			errs = append(errs, field.Required(p.Child("type"), "must be object if x-kubernetes-map-type is specified"))
		} else {
			errs = append(errs, field.Invalid(p.Child("type"), s.Type, "must be object if x-kubernetes-map-type is specified"))
		}
	}
	if s.XMapType != nil && *s.XMapType != "atomic" && *s.XMapType != "granular" {
		errs = append(errs, field.NotSupported(p.Child("x-kubernetes-map-type"), *s.XMapType, []string{"atomic", "granular"}))
	}
	if s.XListType != nil && s.Type != "array" {
		if s.Type == "" {
			errs = append(errs, field.Required(p.Child("type"), "must be array if x-kubernetes-list-type is specified"))
		} else {
			errs = append(errs, field.Invalid(p.Child("type"), s.Type, "must be array if x-kubernetes-list-type is specified"))
		}
	} else if s.XListType != nil && *s.XListType == "set" && s.Items != nil && s.Items.Schema != nil {
		switch is := s.Items.Schema; is.Type {
		case "array":
			if is.XListType != nil && *is.XListType != "atomic" {
				errs = append(errs, field.Invalid(p.Child("items", "x-kubernetes-list-type"), is.XListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		case "object":
			if is.XMapType == nil || *is.XMapType != "atomic" {
				// upstream shows the items' list type here, not their map type
				errs = append(errs, field.Invalid(p.Child("items", "x-kubernetes-map-type"), is.XListType, "must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		}
	}
	if s.XListType != nil && *s.XListType != "atomic" && *s.XListType != "set" && *s.XListType != "map" {
		errs = append(errs, field.NotSupported(p.Child("x-kubernetes-list-type"), *s.XListType, []string{"atomic", "set", "map"}))
	}
	if len(s.XListMapKeys) > 0 {
		if s.XListType == nil {
			errs = append(errs, field.Required(p.Child("x-kubernetes-list-type"), "must be map if x-kubernetes-list-map-keys is non-empty"))
		} else if *s.XListType != "map" {
			errs = append(errs, field.Invalid(p.Child("x-kubernetes-list-type"), *s.XListType, "must be map if x-kubernetes-list-map-keys is non-empty"))
		}
	}
	if s.XListType != nil && *s.XListType == "map" {
		errs = append(errs, mapList(s, p)...)
	}
	errs = append(errs, mapSetItems(s, p)...)
	return append(errs, validationRules(s, p)...)
}

// mapList checks an x-kubernetes-list-type: map array: keys, one object
// item schema, scalar keys that are properties of it, no key twice.
func mapList(s *apiextensions.JSONSchemaProps, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(s.XListMapKeys) == 0 {
		errs = append(errs, field.Required(p.Child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"))
	}
	if s.Items == nil {
		return append(errs, field.Required(p.Child("items"), "must have a schema if x-kubernetes-list-type is map"))
	}
	is := s.Items.Schema
	if is == nil {
		return append(errs, field.Invalid(p.Child("items"), s.Items, "must only have a single schema if x-kubernetes-list-type is map"))
	}
	if is.Type != "object" {
		return append(errs, field.Invalid(p.Child("items", "type"), is.Type, "must be object if parent array's x-kubernetes-list-type is map"))
	}
	keys := map[string]bool{}
	for _, k := range s.XListMapKeys {
		if c, ok := is.Properties[k]; !ok {
			errs = append(errs, field.Invalid(p.Child("x-kubernetes-list-map-keys"), s.XListMapKeys, "entries must all be names of item properties"))
		} else if c.Type == "array" || c.Type == "object" {
			// upstream shows the item's type, not the key's
			errs = append(errs, field.Invalid(p.Child("items", "properties").Key(k).Child("type"), is.Type, "must be a scalar type if parent array's x-kubernetes-list-type is map"))
		}
		if keys[k] {
			errs = append(errs, field.Invalid(p.Child("x-kubernetes-list-map-keys"), s.XListMapKeys, "must not contain duplicate entries"))
		}
		keys[k] = true
	}
	return errs
}

// mapSetItems: the items of a set or map list may not be nullable, and a
// map list's keys must be required or defaulted and not nullable.
func mapSetItems(s *apiextensions.JSONSchemaProps, p *field.Path) field.ErrorList {
	if s.Items == nil || s.Items.Schema == nil || s.XListType == nil || (*s.XListType != "set" && *s.XListType != "map") {
		return nil
	}
	is := s.Items.Schema
	var errs field.ErrorList
	if is.Nullable {
		errs = append(errs, field.Forbidden(p.Child("items", "nullable"), "cannot be nullable when x-kubernetes-list-type is "+*s.XListType))
	}
	if *s.XListType != "map" {
		return errs
	}
	for _, k := range s.XListMapKeys {
		c, ok := is.Properties[k]
		if !ok {
			continue
		}
		kp := p.Child("items", "properties").Key(k)
		if !slices.Contains(is.Required, k) && c.Default == nil {
			errs = append(errs, field.Required(kp.Child("default"), "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
		}
		if c.Nullable {
			errs = append(errs, field.Forbidden(kp.Child("nullable"), "this property is in x-kubernetes-list-map-keys, so it cannot be nullable"))
		}
	}
	return errs
}

// hasLineBreak: s holds a line break as CEL's grammar knows them.
func hasLineBreak(s string) bool { return strings.ContainsAny(s, "\n\r") }

// validationRules checks the x-kubernetes-validations of a node without
// compiling them (VAL-95): a rule, a message without line breaks (required
// for a rule that has some), a known reason and a fieldPath that names a
// field of the node.
func validationRules(s *apiextensions.JSONSchemaProps, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, r := range s.XValidations {
		rp := p.Child("x-kubernetes-validations").Index(i)
		rule, msg := strings.TrimSpace(r.Rule), strings.TrimSpace(r.Message)
		switch {
		case rule == "":
			errs = append(errs, field.Required(rp.Child("rule"), "rule is not specified"))
		case r.Message != "" && msg == "":
			errs = append(errs, field.Invalid(rp.Child("message"), r.Message, "must be non-empty if specified"))
		case hasLineBreak(msg):
			errs = append(errs, field.Invalid(rp.Child("message"), r.Message, "must not contain line breaks"))
		case hasLineBreak(rule) && msg == "":
			errs = append(errs, field.Required(rp.Child("message"), "message must be specified if rule contains line breaks"))
		}
		if r.MessageExpression != "" && strings.TrimSpace(r.MessageExpression) == "" {
			errs = append(errs, field.Required(rp.Child("messageExpression"), "messageExpression must be non-empty if specified"))
		}
		if r.Reason != nil && !slices.Contains(ruleReasons, string(*r.Reason)) {
			errs = append(errs, field.NotSupported(rp.Child("reason"), *r.Reason, ruleReasons))
		}
		if r.FieldPath != "" && strings.TrimSpace(r.FieldPath) == "" {
			errs = append(errs, field.Invalid(rp.Child("fieldPath"), r.FieldPath, "must be non-empty if specified"))
		}
		if hasLineBreak(r.FieldPath) {
			errs = append(errs, field.Invalid(rp.Child("fieldPath"), r.FieldPath, "must not contain line breaks"))
		}
		if r.FieldPath != "" && notStructural(s) == "" {
			if _, _, err := fieldPathIn(r.FieldPath, s, true); err != "" {
				errs = append(errs, field.Invalid(rp.Child("fieldPath"), r.FieldPath, "must be a valid path"))
			}
		}
	}
	return errs
}

// notStructural is why a schema cannot be read as a structural schema
// (NewStructural's error), or "": fields a structural schema has no place
// for, items given as a list, x-kubernetes-preserve-unknown-fields: false.
// The first one found, in upstream's order (properties by name).
func notStructural(s *apiextensions.JSONSchemaProps) string {
	if s == nil {
		return ""
	}
	switch {
	case s.ID != "":
		return "OpenAPIV3Schema 'id' is not supported"
	case s.Schema != "":
		return "OpenAPIV3Schema 'schema' is not supported"
	case s.Ref != nil && *s.Ref != "":
		return "OpenAPIV3Schema '$ref' is not supported"
	case len(s.PatternProperties) > 0:
		return "OpenAPIV3Schema 'patternProperties' is not supported"
	case len(s.Dependencies) > 0:
		return "OpenAPIV3Schema 'dependencies' is not supported"
	case s.AdditionalItems != nil:
		return "OpenAPIV3Schema 'additionalItems' is not supported"
	case len(s.Definitions) > 0:
		return "OpenAPIV3Schema 'definitions' is not supported"
	}
	if msg := notStructural(s.Not); msg != "" {
		return msg
	}
	for _, list := range [][]apiextensions.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			if msg := notStructural(&list[i]); msg != "" {
				return msg
			}
		}
	}
	if s.XPreserveUnknownFields != nil && !*s.XPreserveUnknownFields {
		return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"
	}
	if s.Items != nil {
		if len(s.Items.JSONSchemas) > 0 {
			return "OpenAPIV3Schema 'items' must be a schema, but is an array"
		}
		if msg := notStructural(s.Items.Schema); msg != "" {
			return msg
		}
	}
	for _, k := range sortedKeys(s.Properties, nil) {
		c := s.Properties[k]
		if msg := notStructural(&c); msg != "" {
			return msg
		}
	}
	if s.AdditionalProperties != nil {
		return notStructural(s.AdditionalProperties.Schema)
	}
	return ""
}

// schemaToCheck converts one internal schema node to the form limitcheck's
// custom resource validator reads.
func schemaToCheck(s *apiextensions.JSONSchemaProps) (*crd.Schema, error) {
	out := &apiextensionsv1.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_apiextensions_JSONSchemaProps_To_v1_JSONSchemaProps(s, out, nil); err != nil {
		return nil, err
	}
	data, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return crd.Parse(data)
}
