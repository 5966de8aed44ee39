package load

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The decoder used by kube-apiserver (sigs.k8s.io/json) stops at the first
// value that does not fit and reports no usable path for errors returned by
// UnmarshalJSON methods (e.g. resource.Quantity's). checkJSON re-walks the
// JSON alongside the Go type to find every such value with its path. It only
// runs after a decode failed.

// problem is one value that does not fit its Go type.
type problem struct {
	path string // e.g. spec.containers[0].resources.limits.cpu
	msg  string
	hint string // after msg: " (…)", what may have been meant, or ""
	// mismatch: a JSON value the Go type does not take, which the
	// reference decoder reports as "json: cannot unmarshal …" (not one a
	// type's own decoding refuses, such as a quantity's text).
	mismatch bool
	// schema says kubectl's client-side check of a list's items against
	// the OpenAPI schema (k8s.io/kube-openapi/pkg/util/proto/validation)
	// finds it too: a JSON type the field's schema does not take. That
	// check takes any scalar for a string and any number for an integer.
	schema bool
}

const (
	maxProblems   = 100
	maxCheckDepth = 10000
)

var (
	jsonUnmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
	textUnmarshalerType = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()
	quantityType        = reflect.TypeOf(resource.Quantity{})
	intOrStringType     = reflect.TypeOf(intstr.IntOrString{})
)

type checker struct {
	path     []byte
	problems []problem
}

// checkJSON returns the values of js that cannot be decoded into a value of
// type t (a pointer type is followed), in JSON order.
func checkJSON(t reflect.Type, js []byte) []problem {
	if t == nil {
		return nil
	}
	c := &checker{}
	c.value(t, js, 0)
	return c.problems
}

// markMismatch marks the problem just added as a type mismatch.
func (c *checker) markMismatch() {
	if n := len(c.problems); n > 0 && c.problems[n-1].path == string(c.path) {
		c.problems[n-1].mismatch = true
	}
}

func (c *checker) add(msg string) {
	c.addHinted(msg, "")
}

func (c *checker) addHinted(msg, hint string) {
	if len(c.problems) < maxProblems {
		c.problems = append(c.problems, problem{path: string(c.path), msg: msg, hint: hint})
	}
}

func (c *checker) mismatch(expected string, raw []byte) {
	c.addHinted("expected "+expected+", got "+describeJSON(raw), quotedHint(expected, raw)+substitutionHint(raw))
	c.markMismatch()
	jt := JSONType(raw)
	scalar := jt == "number" || jt == "boolean" || jt == "string"
	switch {
	case strings.HasPrefix(expected, "string") || expected == "integer or string":
		if scalar {
			return
		}
	case expected == "integer" || expected == "non-negative integer" || expected == "number":
		if jt == "number" {
			return
		}
	}
	if n := len(c.problems); n > 0 && c.problems[n-1].path == string(c.path) {
		c.problems[n-1].schema = true
	}
}

// base64Hint says how a value of a []byte field (base64 in JSON) that is
// not base64 is written: a Secret's data as text under stringData, a PEM
// block encoded whole.
func base64Hint(path, value string) string {
	switch {
	case strings.HasPrefix(path, "data.") || strings.HasPrefix(path, "data["):
		return " (a Secret's data values are base64: put the text under stringData instead, or encode it: printf %s 'value' | base64)"
	case strings.HasPrefix(strings.TrimSpace(value), "-----BEGIN "):
		return " (the PEM text is given as is: this field holds it base64-encoded, e.g. base64 -w0 file.pem)"
	}
	return " (this field holds bytes, written in base64)"
}

// substitutionHint explains a string value that holds a variable
// substitution, ${NAME} or ${NAME:-default}: input for Flux's postBuild or
// envsubst, not yet what kubectl sends.
func substitutionHint(raw []byte) string {
	if JSONType(raw) != "string" || !substitution.Match(raw) {
		return ""
	}
	return " (an unsubstituted variable: Flux's postBuild or envsubst fills in ${…} before apply; check what it renders to)"
}

var substitution = regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_]*(:?[-=+?][^}]*)?\}`)

// quotedHint explains a number or boolean field given a string that would
// be one without its quotes (replicas: "3", a Helm value piped to quote).
func quotedHint(expected string, raw []byte) string {
	if JSONType(raw) != "string" {
		return ""
	}
	s, ok := unquoteJSON(raw)
	if !ok {
		return ""
	}
	var err error
	switch expected {
	case "integer":
		_, err = strconv.ParseInt(s, 10, 64)
	case "non-negative integer":
		_, err = strconv.ParseUint(s, 10, 64)
	case "number":
		_, err = strconv.ParseFloat(s, 64)
	case "boolean":
		if s != "true" && s != "false" {
			return ""
		}
	default:
		return ""
	}
	if err != nil {
		return ""
	}
	return " (a quoted value is a string: write " + s + " without quotes)"
}

func (c *checker) pushKey(key string) int {
	n := len(c.path)
	if n > 0 {
		c.path = append(c.path, '.')
	}
	c.path = append(c.path, key...)
	return n
}

// pushMapKey appends a map's key: after a dot, as a field, unless the key
// would read as more than one (a dot in it, as in nvidia.com/gpu or
// app.kubernetes.io/name) or as none (empty): then in brackets, as
// kube-apiserver writes map keys: metadata.labels[app.kubernetes.io/name].
func (c *checker) pushMapKey(key string) int {
	if key != "" && !strings.ContainsAny(key, ".[]") {
		return c.pushKey(key)
	}
	n := len(c.path)
	c.path = append(c.path, '[')
	c.path = append(c.path, key...)
	c.path = append(c.path, ']')
	return n
}

func (c *checker) pushIndex(i int) int {
	n := len(c.path)
	c.path = append(c.path, '[')
	c.path = strconv.AppendInt(c.path, int64(i), 10)
	c.path = append(c.path, ']')
	return n
}

func (c *checker) value(t reflect.Type, raw []byte, depth int) {
	if depth > maxCheckDepth {
		c.add(fmt.Sprintf("nested more than %d levels deep", maxCheckDepth))
		return
	}
	if len(c.problems) >= maxProblems {
		return
	}
	jt := JSONType(raw)
	for {
		if t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(jsonUnmarshalerType) {
			c.unmarshaler(t, raw, jt)
			return
		}
		if t.Kind() != reflect.Pointer {
			break
		}
		if jt == "null" {
			return
		}
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(textUnmarshalerType) && t.Kind() != reflect.Interface {
		switch jt {
		case "null":
		case "string":
			s, ok := unquoteJSON(raw)
			if !ok {
				return
			}
			v := reflect.New(t).Interface().(encoding.TextUnmarshaler)
			if err := v.UnmarshalText([]byte(s)); err != nil {
				c.add(errMsg(err, raw))
			}
		default:
			c.mismatch("string", raw)
		}
		return
	}
	if jt == "null" {
		return // null leaves any other value alone
	}
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() > 0 {
			c.add(fmt.Sprintf("cannot decode %s into Go type %s", jt, t))
			c.markMismatch()
		}
	case reflect.Struct:
		if jt != "object" {
			c.mismatch("object", raw)
			return
		}
		fields := structFields(t)
		eachMember(raw, func(key, val []byte) bool {
			k, ok := unquoteJSON(key)
			if !ok {
				return true
			}
			if ft, ok := fields[k]; ok {
				n := c.pushKey(k)
				c.value(ft, val, depth+1)
				c.path = c.path[:n]
			}
			return len(c.problems) < maxProblems
		})
	case reflect.Map:
		if jt != "object" {
			c.mismatch("object", raw)
			return
		}
		kt := t.Key()
		eachMember(raw, func(key, val []byte) bool {
			k, ok := unquoteJSON(key)
			if !ok {
				return true
			}
			n := c.pushMapKey(k)
			if msg := checkMapKey(kt, k); msg != "" {
				c.add(msg)
			} else {
				c.value(t.Elem(), val, depth+1)
			}
			c.path = c.path[:n]
			return len(c.problems) < maxProblems
		})
	case reflect.Slice, reflect.Array:
		et := t.Elem()
		if t.Kind() == reflect.Slice && et.Kind() == reflect.Uint8 &&
			!reflect.PointerTo(et).Implements(jsonUnmarshalerType) &&
			!reflect.PointerTo(et).Implements(textUnmarshalerType) {
			// []byte is base64 in JSON.
			if jt != "string" {
				c.mismatch("string (base64)", raw)
				return
			}
			if s, ok := unquoteJSON(raw); ok {
				if _, err := base64.StdEncoding.DecodeString(s); err != nil {
					c.addHinted("invalid base64 data: "+err.Error(), base64Hint(string(c.path), s))
				}
			}
			return
		}
		if jt != "array" {
			c.mismatch("array", raw)
			return
		}
		eachElement(raw, func(i int, val []byte) bool {
			if t.Kind() == reflect.Array && i >= t.Len() {
				return false
			}
			n := c.pushIndex(i)
			c.value(et, val, depth+1)
			c.path = c.path[:n]
			return len(c.problems) < maxProblems
		})
	case reflect.String:
		if jt != "string" {
			c.mismatch("string", raw)
		}
	case reflect.Bool:
		if jt != "boolean" {
			c.mismatch("boolean", raw)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if jt != "number" {
			c.mismatch("integer", raw)
			return
		}
		if _, err := strconv.ParseInt(string(raw), 10, t.Bits()); err != nil {
			c.numberError("integer", t, raw, err)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if jt != "number" {
			c.mismatch("non-negative integer", raw)
			return
		}
		if _, err := strconv.ParseUint(string(raw), 10, t.Bits()); err != nil {
			c.numberError("non-negative integer", t, raw, err)
		}
	case reflect.Float32, reflect.Float64:
		if jt != "number" {
			c.mismatch("number", raw)
			return
		}
		if _, err := strconv.ParseFloat(string(raw), t.Bits()); err != nil {
			c.numberError("number", t, raw, err)
		}
	}
}

func (c *checker) numberError(expected string, t reflect.Type, raw []byte, err error) {
	if errors.Is(err, strconv.ErrRange) {
		c.add(fmt.Sprintf("number %s is out of range for %s", truncate(string(raw)), t.Kind()))
		c.markMismatch()
		return
	}
	c.mismatch(expected, raw)
}

// unmarshaler checks a value whose type has an UnmarshalJSON method by
// calling it, as the decoder would.
func (c *checker) unmarshaler(t reflect.Type, raw []byte, jt string) {
	if t == intOrStringType && jt != "string" && jt != "number" && jt != "null" {
		c.mismatch("integer or string", raw)
		return
	}
	v, ok := reflect.New(t).Interface().(json.Unmarshaler)
	if !ok {
		return
	}
	if err := v.UnmarshalJSON(raw); err != nil {
		if t == quantityType {
			hint := ""
			if s, ok := unquoteJSON(raw); ok && JSONType(raw) == "string" {
				if q := quantityHint(s); q != "" {
					hint = "; did you mean " + q + "?"
				}
			}
			c.addHinted(err.Error(), " (got "+gotValue(raw)+hint+")"+substitutionHint(raw))
			return
		}
		c.add(errMsg(err, raw))
		// A value of the wrong JSON type for what the method decodes into
		// (a number 1.5 for an IntOrString's int32) is a type mismatch, the
		// decoder's error naming the struct field it is in.
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			c.markMismatch()
		}
	}
}

// errMsg renders an error from an UnmarshalJSON/UnmarshalText method,
// mentioning the offending value unless the message already does.
func errMsg(err error, raw []byte) string {
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if s, ok := unquoteJSON(raw); ok && strings.Contains(msg, s) {
		return msg
	}
	return msg + " (got " + gotValue(raw) + ")"
}

// gotValue renders a raw value for "(got ...)": strings quoted, other values
// described by type.
func gotValue(raw []byte) string {
	if JSONType(raw) == "string" {
		if s, ok := unquoteJSON(raw); ok {
			return strconv.Quote(truncate(s))
		}
	}
	return describeJSON(raw)
}

// checkMapKey checks that a JSON object key can be decoded into a map key of
// type kt, as encoding/json would.
func checkMapKey(kt reflect.Type, k string) string {
	if kt.Kind() == reflect.String {
		return ""
	}
	if reflect.PointerTo(kt).Implements(textUnmarshalerType) {
		return ""
	}
	switch kt.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if _, err := strconv.ParseInt(k, 10, kt.Bits()); err != nil {
			return fmt.Sprintf("expected an integer key, got %q", truncate(k))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if _, err := strconv.ParseUint(k, 10, kt.Bits()); err != nil {
			return fmt.Sprintf("expected a non-negative integer key, got %q", truncate(k))
		}
	}
	return ""
}

// structFields maps the JSON names of a struct type's fields (including
// those promoted from embedded structs) to their types, following
// encoding/json's rules closely enough for error reporting.
func structFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	all := map[string]fieldInfo{}
	collectFields(t, 0, all, map[reflect.Type]bool{})
	m := make(map[string]reflect.Type, len(all))
	for name, f := range all {
		if !f.ambiguous {
			m[name] = f.typ
		}
	}
	fieldCache.Store(t, m)
	return m
}

var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

type fieldInfo struct {
	typ       reflect.Type
	depth     int
	tagged    bool
	ambiguous bool
}

const maxEmbedDepth = 32

func collectFields(t reflect.Type, depth int, all map[string]fieldInfo, visiting map[reflect.Type]bool) {
	if t.Kind() != reflect.Struct || visiting[t] || depth > maxEmbedDepth {
		return
	}
	visiting[t] = true
	defer delete(visiting, t)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if name == "" && ft.Kind() == reflect.Struct {
				collectFields(ft, depth+1, all, visiting)
				continue
			}
			if !f.IsExported() {
				continue
			}
		} else if !f.IsExported() {
			continue
		}
		tagged := name != ""
		if name == "" {
			name = f.Name
		}
		nf := fieldInfo{typ: f.Type, depth: depth, tagged: tagged}
		old, exists := all[name]
		switch {
		case !exists || depth < old.depth:
			all[name] = nf
		case depth > old.depth:
		case old.tagged && !tagged:
		case tagged && !old.tagged:
			all[name] = nf
		default:
			old.ambiguous = true
			all[name] = old
		}
	}
}
