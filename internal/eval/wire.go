package eval

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// overTheWire is obj as the apiserver receives it from a controller: the
// controller read the workload from the apiserver and sends what it creates,
// so the object is what a JSON encode and decode of it gives. Every Quantity
// arrives parsed from its canonical string, its format following the suffix (a
// template's "10Ei" cpu, stored as 9223372036854775807, comes back DecimalSI,
// and sums and messages print in that format); an empty list or map under
// omitempty arrives absent (nil); a time arrives in whole seconds, local.
//
// It is done on a deep copy, field by field, rather than by encoding: the
// same object, without the cost (TestWireForm and FuzzWireForm hold it to a
// JSON round trip).
func overTheWire(obj runtime.Object) runtime.Object {
	out := obj.DeepCopyObject()
	wire(reflect.ValueOf(out).Elem())
	return out
}

var (
	quantityType  = reflect.TypeFor[resource.Quantity]()
	timeType      = reflect.TypeFor[metav1.Time]()
	microTimeType = reflect.TypeFor[metav1.MicroTime]()
	marshalerType = reflect.TypeFor[json.Marshaler]()
)

// ownJSON reports whether struct type t, other than the three wire
// rewrites, has its own JSON form (apiextensions' JSON and schema-or-bool
// types, FieldsV1): a round trip gives back what it holds, which its
// fields' tags do not tell.
func ownJSON(t reflect.Type) bool {
	return t != quantityType && t != timeType && t != microTimeType &&
		(t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType))
}

// wire rewrites the addressable value v as a JSON round trip leaves it.
func wire(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		switch v.Type() {
		case quantityType:
			q := v.Addr().Interface().(*resource.Quantity)
			if p, err := resource.ParseQuantity(q.String()); err == nil {
				*q = p
			}
			return
		case timeType:
			t := v.Addr().Interface().(*metav1.Time)
			t.Time = wireTime(t.Time, time.RFC3339)
			return
		case microTimeType:
			t := v.Addr().Interface().(*metav1.MicroTime)
			t.Time = wireTime(t.Time, metav1.RFC3339Micro)
			return
		}
		if ownJSON(v.Type()) {
			return
		}
		for _, fp := range planOf(v.Type()) {
			f := v.Field(fp.index)
			switch {
			case fp.drop:
				f.SetZero()
			case fp.omitEmpty && f.Len() == 0:
				f.SetZero()
			case fp.walk:
				wire(f)
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			wire(v.Elem())
		}
	case reflect.Slice, reflect.Array:
		if changes(v.Type().Elem()) {
			for i := range v.Len() {
				wire(v.Index(i))
			}
		}
	case reflect.Map:
		if !changes(v.Type().Elem()) {
			return
		}
		iter := v.MapRange()
		for iter.Next() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(iter.Value())
			wire(e)
			v.SetMapIndex(iter.Key(), e)
		}
	}
}

// fieldPlan is what wire does to one field of a struct type: drop it (json
// "-"), zero it when it is an empty list or map (omitempty), or walk into it.
type fieldPlan struct {
	index                 int
	drop, omitEmpty, walk bool
}

var (
	plansMu sync.Mutex
	plans   = map[reflect.Type][]fieldPlan{}
	// changing caches changes; a type being worked out counts as changing.
	changing = map[reflect.Type]bool{}
)

// planOf returns the fields of struct type t that wire must visit.
func planOf(t reflect.Type) []fieldPlan {
	plansMu.Lock()
	defer plansMu.Unlock()
	return planLocked(t)
}

func planLocked(t reflect.Type) []fieldPlan {
	if p, ok := plans[t]; ok {
		return p
	}
	plans[t] = nil // a recursive type sees itself as planned
	if _, ok := changing[t]; !ok {
		changing[t] = true // and as changing until known: walking more is harmless
	}
	var p []fieldPlan
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		fp := fieldPlan{index: i}
		switch {
		case name == "-" && opts == "":
			fp.drop = true
		default:
			k := sf.Type.Kind()
			fp.omitEmpty = (k == reflect.Slice || k == reflect.Map) && hasOption(opts, "omitempty")
			fp.walk = changesLocked(sf.Type)
		}
		if fp.drop || fp.omitEmpty || fp.walk {
			p = append(p, fp)
		}
	}
	plans[t] = p
	return p
}

// changes reports whether wire can change a value of type t.
func changes(t reflect.Type) bool {
	plansMu.Lock()
	defer plansMu.Unlock()
	return changesLocked(t)
}

func changesLocked(t reflect.Type) bool {
	if c, ok := changing[t]; ok {
		return c
	}
	changing[t] = true
	c := false
	switch t.Kind() {
	case reflect.Struct:
		c = t == quantityType || t == timeType || t == microTimeType || (!ownJSON(t) && len(planLocked(t)) > 0)
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		c = changesLocked(t.Elem())
	case reflect.Interface:
		c = true
	}
	changing[t] = c
	return c
}

// wireTime is t as MarshalJSON and UnmarshalJSON with layout leave it.
func wireTime(t time.Time, layout string) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	p, err := time.Parse(layout, t.UTC().Format(layout))
	if err != nil {
		return t
	}
	return p.Local()
}

// hasOption reports whether a json tag's options list opt.
func hasOption(opts, opt string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == opt {
			return true
		}
	}
	return false
}
