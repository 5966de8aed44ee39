// Package crd checks a custom resource against the openAPIV3Schema of its
// CustomResourceDefinition as kube-apiserver does on create: the fields the
// schema does not know are an error of the request's decoding under strict
// field validation (VAL-76), the schema's defaults are applied (VAL-77), and
// the value is validated against the schema (VAL-78), with kube-apiserver's
// messages.
//
// It is written for limitcheck rather than taken from
// k8s.io/apiextensions-apiserver: that module's validation links CEL,
// protobuf and metrics packages whose start-up cost every run would pay. Not
// done here: x-kubernetes-validations (CEL) rules (whether a schema has any:
// SkippedRules; they run through eval.RuleEvaluator) and the scale
// subresource's replica checks (package eval: scaleErrors).
package crd

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// Schema is one node of a structural schema.
type Schema struct {
	// Types is what the node's value may be: its type, or integer and
	// string for x-kubernetes-int-or-string; empty for any.
	Types    []string
	Format   string // only formats kube-apiserver supports for CRDs; others are dropped as it drops them
	Nullable bool

	PreserveUnknownFields bool
	EmbeddedResource      bool
	ListType              string
	ListMapKeys           []string

	Properties map[string]*Schema
	// propertyNames are the keys of Properties, sorted: the order errors of
	// sibling properties are reported in.
	propertyNames []string
	Items         *Schema
	// AdditionalProperties is the schema of a map's values; nil when the
	// node has none. additionalProperties: true is Any.
	AdditionalProperties *Schema

	Required     []string
	Enum         []any
	HasDefault   bool
	DefaultValue any

	Pattern                            string
	pattern                            *regexp.Regexp
	Minimum, Maximum, MultipleOf       *float64
	ExclusiveMinimum, ExclusiveMaximum bool
	MinLength, MaxLength               *int64
	MinItems, MaxItems                 *int64
	MinProperties, MaxProperties       *int64

	// AllOf, AnyOf, OneOf and Not are the schema's junctors: schemas the
	// same value is validated against as a whole (composite.go).
	AllOf, AnyOf, OneOf []*Schema
	Not                 *Schema

	// HasRules: the node or one below it (a property, the items, the
	// additional properties) has x-kubernetes-validations rules. limitcheck
	// does not evaluate them, but their presence changes what kube-apiserver
	// reports for an invalid object (SkippedRules).
	HasRules bool
	// Source and Digest are the JSON of the whole openAPIV3Schema and its
	// SHA-256, set on the root of a schema with rules: what a
	// RuleEvaluator compiles the rules from, and the key it caches them by.
	Source []byte
	Digest string
}

// props is the JSON form of a JSONSchemaProps node, as far as it is read.
type props struct {
	Type                 string            `json:"type"`
	Format               string            `json:"format"`
	Nullable             bool              `json:"nullable"`
	IntOrString          bool              `json:"x-kubernetes-int-or-string"`
	PreserveUnknown      *bool             `json:"x-kubernetes-preserve-unknown-fields"`
	Embedded             bool              `json:"x-kubernetes-embedded-resource"`
	ListType             *string           `json:"x-kubernetes-list-type"`
	ListMapKeys          []string          `json:"x-kubernetes-list-map-keys"`
	Properties           map[string]*props `json:"properties"`
	Items                *props            `json:"items"`
	AdditionalProperties json.RawMessage   `json:"additionalProperties"`
	Required             []string          `json:"required"`
	Enum                 []json.RawMessage `json:"enum"`
	Default              json.RawMessage   `json:"default"`
	Pattern              string            `json:"pattern"`
	Minimum              *float64          `json:"minimum"`
	Maximum              *float64          `json:"maximum"`
	MultipleOf           *float64          `json:"multipleOf"`
	ExclusiveMinimum     bool              `json:"exclusiveMinimum"`
	ExclusiveMaximum     bool              `json:"exclusiveMaximum"`
	MinLength            *int64            `json:"minLength"`
	MaxLength            *int64            `json:"maxLength"`
	MinItems             *int64            `json:"minItems"`
	MaxItems             *int64            `json:"maxItems"`
	MinProperties        *int64            `json:"minProperties"`
	MaxProperties        *int64            `json:"maxProperties"`
	Rules                []json.RawMessage `json:"x-kubernetes-validations"`
	AllOf                []*props          `json:"allOf"`
	AnyOf                []*props          `json:"anyOf"`
	OneOf                []*props          `json:"oneOf"`
	Not                  *props            `json:"not"`
}

// stringFormats are the formats a CRD schema may give a string, their
// dashes left out (kube-apiserver 1.36 ignores the others, as if no format
// were given).
var stringFormats = map[string]bool{
	"bsonobjectid": true, "uri": true, "email": true, "hostname": true, "ipv4": true, "ipv6": true,
	"cidr": true, "mac": true, "uuid": true, "uuid3": true, "uuid4": true, "uuid5": true,
	"isbn": true, "isbn10": true, "isbn13": true, "creditcard": true, "ssn": true, "hexcolor": true,
	"rgbcolor": true, "byte": true, "password": true, "date": true, "duration": true, "datetime": true,
	"k8sshortname": true, "k8slongname": true,
}

// keptFormat is the format the validator sees: a string's (or an untyped
// node's) supported format; int32 or int64 of an integer; float or double of
// a number; "" otherwise.
func keptFormat(format string, types []string) string {
	typ := ""
	if len(types) == 1 {
		typ = types[0]
	}
	switch {
	case format == "":
		return ""
	case typ == "" || typ == "string":
		if stringFormats[strings.ReplaceAll(format, "-", "")] {
			return format
		}
	case typ == "integer":
		if format == "int32" || format == "int64" {
			return format
		}
	case typ == "number":
		if format == "float" || format == "double" {
			return format
		}
	}
	return ""
}

// UnrecognizedFormat reports whether kube-apiserver warns of a schema
// node's format on a CRD's create (VAL-99): one it would not keep for the
// node's type, as keptFormat does not.
func UnrecognizedFormat(format, typ string) bool {
	return format != "" && keptFormat(format, []string{typ}) == ""
}

// Parse reads the JSON of an openAPIV3Schema.
func Parse(data []byte) (*Schema, error) {
	var p props
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("reading openAPIV3Schema: %w", err)
	}
	s, err := p.schema("")
	if err == nil && s.HasRules {
		sum := sha256.Sum256(data)
		s.Source, s.Digest = slices.Clone(data), hex.EncodeToString(sum[:])
	}
	return s, err
}

func (p *props) schema(path string) (*Schema, error) {
	s := &Schema{
		Nullable: p.Nullable, EmbeddedResource: p.Embedded, ListMapKeys: p.ListMapKeys,
		Required: p.Required, Pattern: p.Pattern,
		Minimum: p.Minimum, Maximum: p.Maximum, MultipleOf: p.MultipleOf,
		ExclusiveMinimum: p.ExclusiveMinimum, ExclusiveMaximum: p.ExclusiveMaximum,
		MinLength: p.MinLength, MaxLength: p.MaxLength, MinItems: p.MinItems, MaxItems: p.MaxItems,
		MinProperties: p.MinProperties, MaxProperties: p.MaxProperties,
		HasRules: len(p.Rules) > 0,
	}
	if p.Type != "" {
		s.Types = []string{p.Type}
	}
	if p.IntOrString {
		s.Types = []string{"integer", "string"}
	}
	s.Format = keptFormat(p.Format, s.Types)
	if p.PreserveUnknown != nil {
		s.PreserveUnknownFields = *p.PreserveUnknown
	}
	if p.ListType != nil {
		s.ListType = *p.ListType
	}
	if p.Pattern != "" {
		re, err := regexp.Compile(p.Pattern)
		if err != nil {
			return nil, fmt.Errorf("%s: pattern %q: %w", orRoot(path), p.Pattern, err)
		}
		s.pattern = re
	}
	for _, raw := range p.Enum {
		v, err := jsonValue(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: enum: %w", orRoot(path), err)
		}
		s.Enum = append(s.Enum, v)
	}
	if len(p.Default) > 0 {
		v, err := jsonValue(p.Default)
		if err != nil {
			return nil, fmt.Errorf("%s: default: %w", orRoot(path), err)
		}
		s.HasDefault, s.DefaultValue = v != nil, v
	}
	if len(p.Properties) > 0 {
		s.Properties = make(map[string]*Schema, len(p.Properties))
		for name, c := range p.Properties {
			if c == nil {
				c = &props{}
			}
			cs, err := c.schema(join(path, name))
			if err != nil {
				return nil, err
			}
			s.Properties[name] = cs
			s.propertyNames = append(s.propertyNames, name)
			s.HasRules = s.HasRules || cs.HasRules
		}
		slices.Sort(s.propertyNames)
	}
	if p.Items != nil {
		is, err := p.Items.schema(path + "[*]")
		if err != nil {
			return nil, err
		}
		s.Items = is
		s.HasRules = s.HasRules || is.HasRules
	}
	var err error
	if s.AllOf, err = junctor(p.AllOf, path, "allOf"); err != nil {
		return nil, err
	}
	if s.AnyOf, err = junctor(p.AnyOf, path, "anyOf"); err != nil {
		return nil, err
	}
	if s.OneOf, err = junctor(p.OneOf, path, "oneOf"); err != nil {
		return nil, err
	}
	if p.Not != nil {
		if s.Not, err = p.Not.schema(join(path, "not")); err != nil {
			return nil, err
		}
	}
	if raw := strings.TrimSpace(string(p.AdditionalProperties)); raw != "" && raw != "null" && raw != "false" {
		if raw == "true" {
			s.AdditionalProperties = &Schema{}
		} else {
			var ap props
			if err := json.Unmarshal(p.AdditionalProperties, &ap); err != nil {
				return nil, fmt.Errorf("%s: additionalProperties: %w", orRoot(path), err)
			}
			as, err := ap.schema(path + "[*]")
			if err != nil {
				return nil, err
			}
			s.AdditionalProperties = as
			s.HasRules = s.HasRules || as.HasRules
		}
	}
	return s, nil
}

// junctor parses the schemas of an allOf, anyOf or oneOf.
func junctor(list []*props, path, keyword string) ([]*Schema, error) {
	var out []*Schema
	for i, p := range list {
		if p == nil {
			p = &props{}
		}
		s, err := p.schema(join(path, fmt.Sprintf("%s[%d]", keyword, i)))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// jsonValue decodes a JSON value as kube-apiserver holds one: integers as
// int64, other numbers as float64.
func jsonValue(raw []byte) (any, error) {
	var v any
	if err := utiljson.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func orRoot(path string) string {
	if path == "" {
		return "openAPIV3Schema"
	}
	return "openAPIV3Schema." + path
}
