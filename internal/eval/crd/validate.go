package crd

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Validate checks obj, the defaulted content of a custom resource, against
// the schema, and returns kube-apiserver's field errors in the order it finds
// them: at each node the type, then the junctors (allOf, anyOf, oneOf, not:
// composite.go), a string's length and pattern and its format, a number's
// multipleOf, minimum and maximum, an array's items then its size, the enum,
// and an object's size, its additional properties, its properties (by name)
// and its required fields. An error whose text was already reported is not
// repeated.
func (s *Schema) Validate(obj map[string]any) field.ErrorList {
	v := &validator{seen: map[string]bool{}}
	v.node("", s, obj)
	return v.list()
}

// ListTypes returns the errors of x-kubernetes-list-type set and map arrays
// in obj: duplicate items, or items with equal keys.
func (s *Schema) ListTypes(obj map[string]any) field.ErrorList {
	return listTypes(nil, s, obj)
}

// validator collects the errors of one validation: of the whole object, or
// of one junctor's schema, whose errors are kept apart until it is known
// whether they are reported (composite.go).
type validator struct {
	errs []reported
	seen map[string]bool // the texts of the schema errors reported
}

// reported is an error with its text as the openapi validator words it, the
// key errors are told apart by.
type reported struct {
	msg string
	err *field.Error
}

// list is the errors found, in order.
func (v *validator) list() field.ErrorList {
	errs := make(field.ErrorList, len(v.errs))
	for i, r := range v.errs {
		errs[i] = r.err
	}
	return errs
}

// add records an error of the schema check whose own text is msg.
func (v *validator) add(msg string, err *field.Error) {
	if v.seen[msg] {
		return
	}
	v.seen[msg] = true
	v.errs = append(v.errs, reported{msg, err})
}

// at is the field path of an error about the value at path.
func at(path string) *field.Path {
	if path == "" || path == "." {
		return nil
	}
	return field.NewPath(strings.TrimPrefix(path, "."))
}

// invalid is an error reported as "Invalid value" with the failing value.
func (v *validator) invalid(path string, value any, msg string) {
	if value == nil {
		value = ""
	}
	v.add(msg, field.Invalid(at(path), value, msg))
}

// plain is an error that is not about one field (a bound the type cannot
// hold); kube-apiserver reports it without a path.
func (v *validator) plain(msg string) {
	v.add(msg, field.Invalid(nil, "", msg))
}

// node validates the value x at path against s and returns the openapi
// validator's match count for it: one for each check that applied (a type
// check that passed counts twice), plus those of the values below. The count
// decides which failing branch of an anyOf or oneOf is reported
// (composite.go), so it must be upstream's to the unit.
func (v *validator) node(path string, s *Schema, x any) int {
	if x == nil {
		// only the type and the enum are checked
		matches := 1
		if len(s.Types) > 0 && !s.Nullable && !slices.Contains(s.Types, "null") {
			msg := fmt.Sprintf("%s in body must be of type %s: %q", path, strings.Join(s.Types, ","), "null")
			v.add(msg, field.TypeInvalid(at(path), "null", msg))
			matches = 0
		}
		v.enum(path, s, x)
		return matches
	}
	matches := 1 // the node itself
	if len(s.Types) > 0 || s.Format != "" {
		matches++
		if v.typ(path, s, x) {
			matches++
		}
	}
	matches += 1 + v.composites(path, s, x)
	switch x := x.(type) {
	case string:
		v.str(path, s, x)
		matches++
		if valid, known := formatChecked(s.Format, x); known {
			matches++
			if !valid {
				msg := fmt.Sprintf("%s in body must be of type %s: %q", path, s.Format, x)
				v.add(msg, field.TypeInvalid(at(path), x, msg))
			}
		}
	case int64, float64:
		v.number(path, s, x)
		matches += 2
	case []any:
		matches += 2 + v.array(path, s, x)
	}
	v.enum(path, s, x)
	matches++
	if m, ok := x.(map[string]any); ok {
		matches += 1 + v.object(path, s, m)
	}
	return matches
}

// typeOf is the JSON type of a decoded value, and the format the openapi
// validator gives it.
func typeOf(x any) (string, string) {
	switch x.(type) {
	case bool:
		return "boolean", ""
	case string:
		return "string", ""
	case int64:
		return "integer", "int64"
	case float64:
		return "number", "float64"
	case []any:
		return "array", ""
	case map[string]any:
		return "object", ""
	}
	return "", ""
}

// jsonInteger reports whether f is an integer a JSON number can hold exactly.
func jsonInteger(f float64) bool {
	const limit = 1 << 53
	return !math.IsNaN(f) && !math.IsInf(f, 0) && f >= -limit && f <= limit && f == math.Trunc(f)
}

// typ checks the value's type; false when it does not match.
func (v *validator) typ(path string, s *Schema, x any) bool {
	got, gotFormat := typeOf(x)
	f, isFloat := x.(float64)
	floatInt := isFloat && jsonInteger(f) && slices.Contains(s.Types, "integer")
	intFloat := got == "integer" && slices.Contains(s.Types, "number")
	_, isString := x.(string)
	_, isSlice := x.([]any)
	matches := slices.Contains(s.Types, got) || floatInt || intFloat
	if !isString && !isSlice && s.Format != "" && !matches && gotFormat != s.Format {
		msg := fmt.Sprintf("%s in body must be of type %s: %q", path, s.Format, gotFormat)
		v.add(msg, field.TypeInvalid(at(path), gotFormat, msg))
		return false
	}
	if !slices.Contains(s.Types, "number") && !slices.Contains(s.Types, "integer") && s.Format != "" && (isString || isSlice) {
		return true
	}
	if !matches {
		msg := fmt.Sprintf("%s in body must be of type %s: %q", path, strings.Join(s.Types, ","), got)
		v.add(msg, field.TypeInvalid(at(path), got, msg))
		return false
	}
	return true
}

// str checks a string's length (in runes) and pattern; the first failure
// only.
func (v *validator) str(path string, s *Schema, x string) {
	n := int64(utf8.RuneCountInString(x))
	switch {
	case s.MaxLength != nil && n > *s.MaxLength:
		msg := fmt.Sprintf("%s in body should be at most %d chars long", path, *s.MaxLength)
		v.add(msg, field.TooLong(at(path), "", int(*s.MaxLength)))
	case s.MinLength != nil && n < *s.MinLength:
		v.invalid(path, x, fmt.Sprintf("%s in body should be at least %d chars long", path, *s.MinLength))
	case s.pattern != nil && !s.pattern.MatchString(x):
		v.invalid(path, x, fmt.Sprintf("%s in body should match '%s'", path, s.Pattern))
	}
}

// numberType is the type and format the number checks hold bounds and
// values to: the node's only type when that is integer or number, with its
// format when it is one of that type's.
func numberType(s *Schema) (string, string) {
	if len(s.Types) != 1 {
		return "", ""
	}
	switch typ := s.Types[0]; {
	case typ == "integer" && (s.Format == "int32" || s.Format == "int64"),
		typ == "number" && (s.Format == "float" || s.Format == "double"):
		return typ, s.Format
	case typ == "integer" || typ == "number":
		return typ, ""
	}
	return "", ""
}

// fitsType reports whether a number can be read as the type and format: for
// integer, its plain decimal form must parse as an int64 (int32 for that
// format); for a float, as a 32-bit float.
func fitsType(x any, typ, format string) bool {
	var rep string
	switch x := x.(type) {
	case int64:
		rep = strconv.FormatInt(x, 10)
	case float64:
		rep = strconv.FormatFloat(x, 'f', -1, 64)
	}
	var err error
	switch {
	case typ == "integer" && format == "int32":
		_, err = strconv.ParseInt(rep, 10, 32)
	case typ == "integer":
		_, err = strconv.ParseInt(rep, 10, 64)
	case format == "float":
		_, err = strconv.ParseFloat(rep, 32)
	}
	return err == nil
}

// rangeError is the text of a value or bound that does not fit the type.
func rangeError(what, typ, format, path string) string {
	if format != "" {
		return fmt.Sprintf("%s value must be of type %s with format %s in %s", what, typ, format, path)
	}
	return fmt.Sprintf("%s value must be of type %s (default format) in %s", what, typ, path)
}

func (v *validator) number(path string, s *Schema, x any) {
	typ, format := numberType(s)
	if !fitsType(x, typ, format) {
		v.plain(rangeError("Checked", typ, format, path))
	}
	i, isInt := x.(int64)
	f := asFloat(x)
	if s.MultipleOf != nil {
		m := *s.MultipleOf
		boundOK := fitsType(m, typ, format)
		if !boundOK {
			v.plain(rangeError("MultipleOf", typ, format, path))
		}
		if boundOK && isInt {
			factor := int64(m)
			if factor <= 0 {
				// a fractional factor truncated to 0 for an integer value
				v.invalid(path, factor, fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", path, factor))
			} else if (i/factor)*factor != i {
				v.invalid(path, x, fmt.Sprintf("%s in body should be a multiple of %v", path, factor))
			}
		} else if m <= 0 {
			v.invalid(path, m, fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", path, m))
		} else {
			q := f / m
			if m < 1 {
				q = 1 / m * f
			}
			if !jsonInteger(q) {
				v.invalid(path, x, fmt.Sprintf("%s in body should be a multiple of %v", path, m))
			}
		}
	}
	if s.Minimum != nil {
		b := *s.Minimum
		boundOK := fitsType(b, typ, format)
		if !boundOK {
			v.plain(rangeError("Minimum boundary", typ, format, path))
		}
		word := "greater than or equal to"
		if s.ExclusiveMinimum {
			word = "greater than"
		}
		if boundOK && isInt {
			if bi := int64(b); i < bi || (s.ExclusiveMinimum && i == bi) {
				v.invalid(path, x, fmt.Sprintf("%s in body should be %s %v", path, word, bi))
			}
		} else if f < b || (s.ExclusiveMinimum && f == b) {
			v.invalid(path, x, fmt.Sprintf("%s in body should be %s %v", path, word, b))
		}
	}
	if s.Maximum != nil {
		b := *s.Maximum
		boundOK := fitsType(b, typ, format)
		if !boundOK {
			v.plain(rangeError("Maximum boundary", typ, format, path))
		}
		word := "less than or equal to"
		if s.ExclusiveMaximum {
			word = "less than"
		}
		if boundOK && isInt {
			if bi := int64(b); i > bi || (s.ExclusiveMaximum && i == bi) {
				v.invalid(path, x, fmt.Sprintf("%s in body should be %s %v", path, word, bi))
			}
		} else if f > b || (s.ExclusiveMaximum && f == b) {
			v.invalid(path, x, fmt.Sprintf("%s in body should be %s %v", path, word, b))
		}
	}
}

func asFloat(x any) float64 {
	switch x := x.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// array checks the items and the size; it returns the items' match count.
func (v *validator) array(path string, s *Schema, x []any) int {
	matches := 0
	if s.Items != nil {
		for i, e := range x {
			matches += v.node(fmt.Sprintf("%s[%d]", path, i), s.Items, e)
		}
	}
	n := int64(len(x))
	if s.MinItems != nil && n < *s.MinItems {
		v.invalid(path, n, fmt.Sprintf("%s in body should have at least %d items", path, *s.MinItems))
	}
	if s.MaxItems != nil && n > *s.MaxItems {
		msg := fmt.Sprintf("%s in body should have at most %d items", path, *s.MaxItems)
		v.add(msg, field.TooMany(at(path), int(n), int(*s.MaxItems)))
	}
	return matches
}

// enum: a value matches an allowed one when it converts to its Go type and
// is then equal to it (so 1.0 matches 1), as the openapi validator compares.
func (v *validator) enum(path string, s *Schema, x any) {
	if len(s.Enum) == 0 {
		return
	}
	xv := reflect.ValueOf(x)
	for _, allowed := range s.Enum {
		t := reflect.TypeOf(allowed)
		if t == nil || !xv.IsValid() || !xv.Type().ConvertibleTo(t) {
			continue
		}
		if reflect.DeepEqual(xv.Convert(t).Interface(), allowed) {
			return
		}
	}
	values := make([]string, 0, len(s.Enum))
	for _, allowed := range s.Enum {
		if str, ok := allowed.(string); ok {
			values = append(values, str)
		} else {
			b, _ := json.Marshal(allowed)
			values = append(values, string(b))
		}
	}
	msg := fmt.Sprintf("%s in body should be one of %v", path, s.Enum)
	v.add(msg, field.NotSupported(at(path), x, values))
}

// object checks the size, the additional and declared properties and the
// required ones; it returns the properties' match count.
func (v *validator) object(path string, s *Schema, x map[string]any) int {
	matches := 0
	n := int64(len(x))
	if s.MinProperties != nil && n < *s.MinProperties {
		v.invalid(path, n, fmt.Sprintf("%s in body should have at least %d properties", path, *s.MinProperties))
	}
	if s.MaxProperties != nil && n > *s.MaxProperties {
		msg := fmt.Sprintf("%s in body should have at most %d properties", path, *s.MaxProperties)
		v.add(msg, field.TooMany(at(path), int(n), int(*s.MaxProperties)))
	}
	if a := s.AdditionalProperties; a != nil {
		keys := make([]string, 0, len(x))
		for k := range x {
			if _, declared := s.Properties[k]; !declared {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			matches += v.node(path+"."+k, a, x[k])
		}
	}
	for _, k := range s.propertyNames {
		if e, ok := x[k]; ok {
			matches += v.node(join(path, k), s.Properties[k], e)
		}
	}
	for _, k := range s.Required {
		if _, ok := x[k]; !ok {
			p := path + "." + k
			msg := fmt.Sprintf("%s in body is required", p)
			v.add(msg, field.Required(at(p), ""))
		}
	}
	return matches
}

// SkippedRules is what kube-apiserver adds to the errors of an object whose
// schema has x-kubernetes-validations rules when an error blocks them (a
// wrong type, a required field missing, a value not in the enum, too long,
// too many: the rules could not be run on such a value): one error saying
// the rules were not checked. Nil when the schema has no rules or no error
// blocks them: the rules are then evaluated (eval.RuleEvaluator).
func (s *Schema) SkippedRules(errs field.ErrorList) *field.Error {
	if !s.HasRules {
		return nil
	}
	for _, e := range errs {
		switch e.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")
		}
	}
	return nil
}

// MatchCount is the openapi validator's match count for x as a value of this
// node: the checks that applied to it and to the values below it. It decides
// which failing schema of an anyOf or oneOf has its errors reported; it is
// exported so that it can be compared with the validator's own.
func (s *Schema) MatchCount(x any) int {
	v := &validator{seen: map[string]bool{}}
	return v.node("", s, x)
}
