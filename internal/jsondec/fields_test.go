package jsondec

import (
	"reflect"
	"testing"
)

// Names that agree on every byte fieldFeatures packs (length 7: bytes 0,
// 2, 3, 4 and 6) have no table of their own; the plan keeps the map.
type sameFeatures struct {
	A string `json:"a1cde1g"`
	B string `json:"a2cde2g"`
	C int    `json:"c"`
}

type distinct struct {
	Name  string `json:"name"`
	Image string `json:"image"`
	Args  []int  `json:"args"`
}

func TestFieldLookup(t *testing.T) {
	for _, tc := range []struct {
		typ    reflect.Type
		hashed bool
		data   string
		want   any
		ok     bool
	}{
		{reflect.TypeFor[sameFeatures](), false, `{"a1cde1g":"x","a2cde2g":"y","c":1}`, sameFeatures{"x", "y", 1}, true},
		{reflect.TypeFor[sameFeatures](), false, `{"a3cde3g":"x"}`, nil, false},
		{reflect.TypeFor[distinct](), true, `{"args":[1],"image":"i","name":"n"}`, distinct{"n", "i", []int{1}}, true},
		// Same features as "image" but another name; an empty name.
		{reflect.TypeFor[distinct](), true, `{"iXaXe":"i"}`, nil, false},
		{reflect.TypeFor[distinct](), true, `{"":"i"}`, nil, false},
		{reflect.TypeFor[distinct](), true, `{"Name":"n"}`, nil, false},
		{reflect.TypeFor[distinct](), true, `{"` + sharesSlot(t, reflect.TypeFor[distinct]()) + `":"i"}`, nil, false},
	} {
		p := planFor(tc.typ)
		if got := p.byHash != nil; got != tc.hashed {
			t.Errorf("%v: hashed %v, want %v", tc.typ, got, tc.hashed)
		}
		v := reflect.New(tc.typ)
		ok := Decode([]byte(tc.data), v.Interface())
		if ok != tc.ok {
			t.Errorf("%s: Decode %v, want %v", tc.data, ok, tc.ok)
			continue
		}
		if ok && !reflect.DeepEqual(v.Elem().Interface(), tc.want) {
			t.Errorf("%s: %#v, want %#v", tc.data, v.Elem().Interface(), tc.want)
		}
	}
}

// sharesSlot finds a name that is no field of typ but hashes to a field's
// slot.
func sharesSlot(t *testing.T, typ reflect.Type) string {
	p := planFor(typ)
	for i := range 100000 {
		k := []byte("k" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676%26)))
		e := p.byHash[(fieldFeatures(k)*p.hashSeed)>>p.hashShift]
		if e.f != nil && e.name != string(k) {
			return string(k)
		}
	}
	t.Fatal("no name shares a slot")
	return ""
}
