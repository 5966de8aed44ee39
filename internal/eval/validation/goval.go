package validation

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// internalValue wraps a v1 struct put in a field error as upstream puts the
// internal type: field.Error renders a struct with encoding/json, and the
// internal types have no json tags, so keys are the Go field names and
// nothing is omitted (VAL-10).
type internalValue struct{ v any }

func (iv internalValue) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := writeGoJSON(&b, reflect.ValueOf(iv.v)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

var jsonMarshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()

func writeGoJSON(b *bytes.Buffer, v reflect.Value) error {
	if !v.IsValid() {
		b.WriteString("null")
		return nil
	}
	if v.Type().Implements(jsonMarshaler) || (v.CanAddr() && v.Addr().Type().Implements(jsonMarshaler)) || reflect.PointerTo(v.Type()).Implements(jsonMarshaler) && v.Kind() != reflect.Pointer {
		if v.Kind() == reflect.Pointer && v.IsNil() {
			b.WriteString("null")
			return nil
		}
		x := v.Interface()
		if v.Kind() != reflect.Pointer && !v.Type().Implements(jsonMarshaler) {
			p := reflect.New(v.Type())
			p.Elem().Set(v)
			x = p.Interface()
		}
		out, err := json.Marshal(x)
		if err != nil {
			return err
		}
		b.Write(out)
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		return writeGoJSON(b, v.Elem())
	case reflect.Struct:
		b.WriteByte('{')
		first := true
		var fields func(v reflect.Value) error
		fields = func(v reflect.Value) error {
			t := v.Type()
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				if !f.IsExported() {
					continue
				}
				if f.Anonymous && f.Type.Kind() == reflect.Struct {
					if err := fields(v.Field(i)); err != nil {
						return err
					}
					continue
				}
				if !first {
					b.WriteByte(',')
				}
				first = false
				k, _ := json.Marshal(f.Name)
				b.Write(k)
				b.WriteByte(':')
				if err := writeGoJSON(b, v.Field(i)); err != nil {
					return err
				}
			}
			return nil
		}
		if err := fields(v); err != nil {
			return err
		}
		b.WriteByte('}')
		return nil
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			out, err := json.Marshal(v.Interface())
			b.Write(out)
			return err
		}
		fallthrough
	case reflect.Array:
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeGoJSON(b, v.Index(i)); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		// Maps of simple values marshal the same with or without tags.
		m := map[string]json.RawMessage{}
		it := v.MapRange()
		for it.Next() {
			var vb bytes.Buffer
			if err := writeGoJSON(&vb, it.Value()); err != nil {
				return err
			}
			m[it.Key().String()] = vb.Bytes()
		}
		out, err := json.Marshal(m)
		b.Write(out)
		return err
	}
	out, err := json.Marshal(v.Interface())
	b.Write(out)
	return err
}
