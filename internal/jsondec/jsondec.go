// Package jsondec decodes JSON into the Kubernetes API's Go types faster than
// the reference decoder, sigs.k8s.io/json's UnmarshalStrict (encoding/json's
// rules, field names matched case-sensitively, unknown and duplicate fields
// reported), for the documents it can: everything well-formed that the
// reference decodes without an error.
//
// It declines everything else: a syntax error, an unknown or duplicate
// field, a value of the wrong JSON type, a number out of range, an
// interface{} field, a lone UTF-16 surrogate, a type that decodes itself
// from text, nesting over maxDepth. Then nothing it wrote may be kept: the
// caller decodes into a fresh value with the reference, which gives the
// result and the error. A decline is the rare case, so nothing here builds
// an error.
//
// Where it decodes, the value is the reference's (FuzzDecode holds it to
// that): for each type a plan is made once, when a value first needs it, by encoding/json's rules for
// field names, embedding and `json:"-"`, and values are stored through
// pointers into the value being filled. Types that decode themselves
// (json.Unmarshaler: Quantity, IntOrString, Time, RawExtension, …) get the
// raw bytes of their value, as the reference gives them.
package jsondec

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// maxDepth bounds nesting; deeper documents go to the reference (which has
// its own, larger, bound and error).
const maxDepth = 1000

// Decode decodes data into v, a non-nil pointer to a zero value. It reports
// false when it declined; v must then be discarded.
func Decode(data []byte, v any) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	p := planFor(rv.Type().Elem())
	if p.kind == kUnsupported {
		return false
	}
	d := decoder{data: data}
	d.space()
	if !d.value(p, rv.UnsafePointer(), 0) {
		return false
	}
	d.space()
	return d.off == len(d.data)
}

type kind uint8

const (
	kString kind = iota
	kBool
	kInt
	kUint
	kFloat
	kStruct
	kPointer
	kSlice
	kBytes // []byte: base64 in a JSON string
	kMap
	kUnmarshaler // decodes itself from its raw JSON value
	kUnsupported // declined whenever a value reaches it
)

// plan is how values of one Go type are decoded. Plans are made as values
// reach them, so that a document decodes only what its types need: the
// plans of its fields' and elements' types are looked up on first use.
type plan struct {
	kind kind
	typ  reflect.Type
	bits int // kInt, kUint, kFloat: size in bits

	fields map[string]*field // kStruct, by JSON name
	nField int
	// byHash finds fields without hashing the whole name: see indexFields.
	byHash    []namedField
	hashSeed  uint64
	hashShift uint

	elem ref // kPointer, kSlice, kMap: the element's plan
}

type namedField struct {
	name string
	f    *field
}

// fieldFeatures packs a name's length and four of its bytes: what the
// field table hashes.
func fieldFeatures(key []byte) uint64 {
	n := len(key)
	if n == 0 {
		return 0
	}
	return uint64(n) | uint64(key[0])<<8 | uint64(key[n-1])<<16 | uint64(key[n/2])<<24 | uint64(key[n/3])<<32 | uint64(key[2*n/3])<<40
}

// indexFields gives the plan a table where each field name has its own
// slot, found by a multiply-shift hash of fieldFeatures; the map stays for
// the structs no seed separates.
func indexFields(p *plan) {
	if len(p.fields) == 0 {
		return
	}
	bits := uint(1)
	for 1<<bits < 2*len(p.fields) {
		bits++
	}
	for ; bits <= 12; bits++ {
		table := make([]namedField, 1<<bits)
	seeds:
		for seed := uint64(0x9E3779B97F4A7C15); seed != 0x9E3779B97F4A7C15+64*2; seed += 2 {
			clear(table)
			for name, f := range p.fields {
				i := (fieldFeatures([]byte(name)) * seed) >> (64 - bits)
				if table[i].f != nil {
					continue seeds
				}
				table[i] = namedField{name, f}
			}
			p.byHash, p.hashSeed, p.hashShift = table, seed, 64-bits
			return
		}
	}
}

// field returns the field named key, or nil.
func (p *plan) field(key []byte) *field {
	if p.byHash == nil {
		return p.fields[string(key)]
	}
	e := &p.byHash[(fieldFeatures(key)*p.hashSeed)>>p.hashShift]
	if e.f == nil || e.name != string(key) {
		return nil
	}
	return e.f
}

type field struct {
	offset uintptr
	index  int // for duplicate detection
	plan   ref
}

// ref is the plan of a type, found on first use.
type ref struct {
	typ reflect.Type
	p   atomic.Pointer[plan]
}

func (r *ref) get() *plan {
	if p := r.p.Load(); p != nil {
		return p
	}
	p := planFor(r.typ)
	r.p.Store(p)
	return p
}

var (
	plans sync.Map // reflect.Type → *plan

	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// planFor returns t's plan.
func planFor(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p, _ := plans.LoadOrStore(t, build(t))
	return p.(*plan)
}

// build makes t's plan.
func build(t reflect.Type) *plan {
	p := &plan{typ: t}
	if t.Kind() != reflect.Pointer {
		// A pointer's element decides for itself.
		switch pt := reflect.PointerTo(t); {
		case pt.Implements(unmarshalerType):
			p.kind = kUnmarshaler
			return p
		case pt.Implements(textUnmarshalerType):
			p.kind = kUnsupported
			return p
		}
	}
	switch t.Kind() {
	case reflect.String:
		p.kind = kString
	case reflect.Bool:
		p.kind = kBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.kind, p.bits = kInt, t.Bits()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		p.kind, p.bits = kUint, t.Bits()
	case reflect.Float32, reflect.Float64:
		p.kind, p.bits = kFloat, t.Bits()
	case reflect.Pointer:
		if t.Elem().Kind() == reflect.Pointer {
			p.kind = kUnsupported
			break
		}
		p.kind, p.elem.typ = kPointer, t.Elem()
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !reflect.PointerTo(t.Elem()).Implements(unmarshalerType) && !reflect.PointerTo(t.Elem()).Implements(textUnmarshalerType) {
			p.kind = kBytes
			break
		}
		p.kind, p.elem.typ = kSlice, t.Elem()
	case reflect.Map:
		k := t.Key()
		if k.Kind() != reflect.String || reflect.PointerTo(k).Implements(textUnmarshalerType) {
			p.kind = kUnsupported
			break
		}
		p.kind, p.elem.typ = kMap, t.Elem()
	case reflect.Struct:
		p.kind = kStruct
		p.fields = map[string]*field{}
		if !addFields(p, t, 0) {
			p.kind, p.fields = kUnsupported, nil
		}
		indexFields(p)
	default: // interfaces, arrays, channels, functions, complex numbers
		p.kind = kUnsupported
	}
	return p
}

// addFields adds t's fields, found at offset in the plan's type, by
// encoding/json's naming rules. It reports false for what it does not
// handle: names that collide, embedded pointers, the ",string" option.
func addFields(p *plan, t reflect.Type, offset uintptr) bool {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := cutComma(tag)
		if !validTag(name) {
			name = ""
		}
		if hasOption(opts, "string") {
			return false
		}
		if sf.Anonymous && !sf.IsExported() && name != "" {
			return false // encoding/json would fail to set it
		}
		if sf.Anonymous && name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				return false
			}
			if ft.Kind() == reflect.Struct {
				// Promoted fields; a collision with an outer field
				// (resolved by depth in encoding/json) is declined.
				if !addFields(p, ft, offset+sf.Offset) {
					return false
				}
				continue
			}
			if !sf.IsExported() {
				continue
			}
		} else if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if _, dup := p.fields[name]; dup {
			return false
		}
		p.fields[name] = &field{offset: offset + sf.Offset, index: p.nField, plan: ref{typ: sf.Type}}
		p.nField++
	}
	return true
}

func cutComma(s string) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ',' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = cutComma(opts)
		if o == name {
			return true
		}
	}
	return false
}

// validTag is encoding/json's rule for a usable name in a tag.
func validTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case containsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !isLetter(c) && !isDigit(c):
			return false
		}
	}
	return true
}

func containsRune(s string, r rune) bool {
	for _, c := range s {
		if c == r {
			return true
		}
	}
	return false
}

func isLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isDigit(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsDigit(r)
}

// decoder reads one JSON value from data.
type decoder struct {
	data []byte
	off  int
	buf  []byte // scratch for unescaping strings
}

func (d *decoder) space() {
	for d.off < len(d.data) {
		switch d.data[d.off] {
		case ' ', '\t', '\n', '\r':
			d.off++
		default:
			return
		}
	}
}

// value decodes the value at d.off into the value of plan p at ptr.
func (d *decoder) value(p *plan, ptr unsafe.Pointer, depth int) bool {
	if d.off >= len(d.data) || depth > maxDepth {
		return false
	}
	c := d.data[d.off]
	if c == 'n' {
		// null: pointers, slices and maps are set to nil (they are, in a
		// zero value); other values are left as they are. A value type
		// that decodes itself would be handed "null": declined.
		if !d.literal("null") {
			return false
		}
		return p.kind != kUnmarshaler && p.kind != kUnsupported
	}
	switch p.kind {
	case kUnmarshaler:
		start := d.off
		if !d.skip(depth) {
			return false
		}
		u := reflect.NewAt(p.typ, ptr).Interface().(json.Unmarshaler)
		return u.UnmarshalJSON(d.data[start:d.off]) == nil
	case kPointer:
		elem := p.elem.get()
		if elem.kind == kUnsupported {
			return false
		}
		nv := reflect.New(elem.typ).UnsafePointer()
		if !d.value(elem, nv, depth) {
			return false
		}
		*(*unsafe.Pointer)(ptr) = nv
		return true
	case kString:
		s, ok := d.str()
		if !ok {
			return false
		}
		*(*string)(ptr) = s
		return true
	case kBool:
		switch c {
		case 't':
			if !d.literal("true") {
				return false
			}
			*(*bool)(ptr) = true
		case 'f':
			if !d.literal("false") {
				return false
			}
			*(*bool)(ptr) = false
		default:
			return false
		}
		return true
	case kInt, kUint, kFloat:
		return d.number(p, ptr)
	case kBytes:
		s, ok := d.strBytes()
		if !ok {
			return false
		}
		b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
		n, err := base64.StdEncoding.Decode(b, s)
		if err != nil {
			return false
		}
		*(*[]byte)(ptr) = b[:n]
		return true
	case kStruct:
		return d.object(p, ptr, depth)
	case kMap:
		return d.mapValue(p, ptr, depth)
	case kSlice:
		return d.array(p, ptr, depth)
	}
	return false
}

// literal consumes the literal word.
func (d *decoder) literal(word string) bool {
	if len(d.data)-d.off < len(word) || string(d.data[d.off:d.off+len(word)]) != word {
		return false
	}
	d.off += len(word)
	return true
}

func (d *decoder) object(p *plan, ptr unsafe.Pointer, depth int) bool {
	var seenSmall [2]uint64
	var seenLarge []bool
	if p.nField > 128 {
		seenLarge = make([]bool, p.nField)
	}
	return d.members(func(key []byte) bool {
		f := p.field(key)
		if f == nil {
			return false // unknown field
		}
		if seenLarge != nil {
			if seenLarge[f.index] {
				return false
			}
			seenLarge[f.index] = true
		} else {
			w, bit := f.index/64, uint64(1)<<(f.index%64)
			if seenSmall[w]&bit != 0 {
				return false // duplicate field
			}
			seenSmall[w] |= bit
		}
		return d.value(f.plan.get(), unsafe.Add(ptr, f.offset), depth+1)
	})
}

// members reads an object at d.off, calling member with each key, the
// value next to be read.
func (d *decoder) members(member func(key []byte) bool) bool {
	return d.container('{', '}', func() bool {
		key, ok := d.key()
		if !ok {
			return false
		}
		d.space()
		return member(key)
	})
}

// elements reads an array at d.off, calling element for each, the value
// next to be read.
func (d *decoder) elements(element func() bool) bool {
	return d.container('[', ']', element)
}

// container reads an object or array (open … end) at d.off, calling each
// for every member or element, separators and white space read around it.
func (d *decoder) container(open, end byte, each func() bool) bool {
	if d.data[d.off] != open {
		return false
	}
	d.off++
	d.space()
	if d.off < len(d.data) && d.data[d.off] == end {
		d.off++
		return true
	}
	for {
		d.space()
		if !each() || !d.next(end) {
			return false
		}
		if d.data[d.off-1] == end {
			return true
		}
	}
}

// key reads an object key and its colon. The bytes may be d's scratch.
func (d *decoder) key() ([]byte, bool) {
	k, ok := d.strBytes()
	if !ok {
		return nil, false
	}
	d.space()
	if d.off >= len(d.data) || d.data[d.off] != ':' {
		return nil, false
	}
	d.off++
	return k, true
}

// next consumes white space and a comma or the closing byte end.
func (d *decoder) next(end byte) bool {
	d.space()
	if d.off >= len(d.data) {
		return false
	}
	switch d.data[d.off] {
	case ',':
		d.off++
		d.space()
		// A comma must be followed by another member.
		return d.off < len(d.data) && d.data[d.off] != end
	case end:
		d.off++
		return true
	}
	return false
}

func (d *decoder) mapValue(p *plan, ptr unsafe.Pointer, depth int) bool {
	elem := p.elem.get()
	if elem.kind == kUnsupported {
		return false
	}
	if p.typ == stringMapType { // labels, annotations, selectors, data
		m := map[string]string{}
		*(*map[string]string)(ptr) = m
		return d.members(func(key []byte) bool {
			k := string(key) // before the value is read: key may be scratch
			var v string
			if !d.value(elem, unsafe.Pointer(&v), depth+1) {
				return false
			}
			n := len(m)
			m[k] = v
			return len(m) > n // else a duplicate key
		})
	}
	if p.typ == resourceListType { // requests, limits, quotas' hard and used
		m := corev1.ResourceList{}
		*(*corev1.ResourceList)(ptr) = m
		return d.members(func(key []byte) bool {
			k := resourceName(key) // before the value is read: key may be scratch
			// As value does for a type that decodes itself: null, handed to
			// it by the reference, is declined.
			start := d.off
			if d.off < len(d.data) && d.data[d.off] == 'n' || !d.skip(depth+1) {
				return false
			}
			var q resource.Quantity
			if q.UnmarshalJSON(d.data[start:d.off]) != nil {
				return false
			}
			n := len(m)
			m[k] = q
			return len(m) > n // else a duplicate key
		})
	}
	m := reflect.NewAt(p.typ, ptr).Elem()
	m.Set(reflect.MakeMap(p.typ))
	// One key and one value, reused: the map keeps copies.
	k := reflect.New(p.typ.Key()).Elem()
	e := reflect.New(elem.typ)
	return d.members(func(key []byte) bool {
		k.SetString(string(key))
		e.Elem().SetZero()
		if !d.value(elem, e.UnsafePointer(), depth+1) {
			return false
		}
		n := m.Len()
		m.SetMapIndex(k, e.Elem())
		return m.Len() > n // else a duplicate key
	})
}

// resourceName is key as a ResourceName, without a string of its own for
// the names every Pod and quota repeats.
func resourceName(key []byte) corev1.ResourceName {
	switch string(key) {
	case "cpu":
		return corev1.ResourceCPU
	case "memory":
		return corev1.ResourceMemory
	case "ephemeral-storage":
		return corev1.ResourceEphemeralStorage
	case "storage":
		return corev1.ResourceStorage
	case "pods":
		return corev1.ResourcePods
	case "requests.cpu":
		return corev1.ResourceRequestsCPU
	case "requests.memory":
		return corev1.ResourceRequestsMemory
	case "limits.cpu":
		return corev1.ResourceLimitsCPU
	case "limits.memory":
		return corev1.ResourceLimitsMemory
	case "requests.storage":
		return corev1.ResourceRequestsStorage
	}
	return corev1.ResourceName(key)
}

var (
	stringMapType    = reflect.TypeFor[map[string]string]()
	resourceListType = reflect.TypeFor[corev1.ResourceList]()
)

func (d *decoder) array(p *plan, ptr unsafe.Pointer, depth int) bool {
	elem := p.elem.get()
	if elem.kind == kUnsupported || d.data[d.off] != '[' {
		return false
	}
	s := reflect.NewAt(p.typ, ptr).Elem()
	n := 0
	if elem.typ.Size() >= minCountedElem {
		n = min(d.countElements(), maxCountedElems)
	}
	s.Set(reflect.MakeSlice(p.typ, 0, n))
	return d.elements(func() bool {
		i := s.Len()
		if i >= s.Cap() {
			s.Grow(1)
		}
		s.SetLen(i + 1)
		return d.value(elem, s.Index(i).Addr().UnsafePointer(), depth+1)
	})
}

// minCountedElem is the element size from which a slice is made at its
// final length, counted first, rather than grown: a list of containers is
// worth a pass over its text, a list of strings is not.
const minCountedElem = 64

// maxCountedElems bounds the capacity a count gives: malformed text must
// not make a large allocation before its error is found.
const maxCountedElems = 1024

// countElements counts the elements of the array at d.off without decoding
// them; on malformed text the count is only a capacity hint, and the decode
// that follows finds the error.
func (d *decoder) countElements() int {
	depth, n, empty := 0, 0, true
	for i := d.off; i < len(d.data); i++ {
		switch c := d.data[i]; c {
		case '"':
			for i++; i < len(d.data) && d.data[i] != '"'; i++ {
				if d.data[i] == '\\' {
					i++
				}
			}
			empty = false
		case '[', '{':
			depth++
			if depth > 1 {
				empty = false
			}
		case ']', '}':
			depth--
			if depth == 0 {
				if empty {
					return 0
				}
				return n + 1
			}
		case ',':
			if depth == 1 {
				n++
			}
		case ' ', '\t', '\n', '\r':
		default:
			empty = false
		}
	}
	return 0
}

// number decodes a JSON number into an integer or a float, as
// strconv.Parse{Int,Uint,Float} and the type's size allow.
func (d *decoder) number(p *plan, ptr unsafe.Pointer) bool {
	start := d.off
	if !d.scanNumber() {
		return false
	}
	text := d.data[start:d.off]
	switch p.kind {
	case kInt:
		n, err := strconv.ParseInt(string(text), 10, 64)
		if err != nil || (p.bits < 64 && (n < -1<<(p.bits-1) || n > 1<<(p.bits-1)-1)) {
			return false
		}
		switch p.bits {
		case 8:
			*(*int8)(ptr) = int8(n)
		case 16:
			*(*int16)(ptr) = int16(n)
		case 32:
			*(*int32)(ptr) = int32(n)
		default:
			*(*int64)(ptr) = n
		}
	case kUint:
		n, err := strconv.ParseUint(string(text), 10, 64)
		if err != nil || (p.bits < 64 && n > 1<<p.bits-1) {
			return false
		}
		switch p.bits {
		case 8:
			*(*uint8)(ptr) = uint8(n)
		case 16:
			*(*uint16)(ptr) = uint16(n)
		case 32:
			*(*uint32)(ptr) = uint32(n)
		default:
			*(*uint64)(ptr) = n
		}
	case kFloat:
		n, err := strconv.ParseFloat(string(text), p.bits)
		if err != nil {
			return false
		}
		if p.bits == 32 {
			*(*float32)(ptr) = float32(n)
		} else {
			*(*float64)(ptr) = n
		}
	}
	return true
}

// scanNumber consumes a number by JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *decoder) scanNumber() bool {
	b, i := d.data, d.off
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	d.off = i
	return true
}

// str reads a JSON string into a new Go string.
func (d *decoder) str() (string, bool) {
	b, ok := d.strBytes()
	if !ok {
		return "", false
	}
	return string(b), true
}

// strBytes reads a JSON string. The bytes are the input's own when it has
// no escapes, else d's scratch: either way only until the next call.
func (d *decoder) strBytes() ([]byte, bool) {
	if d.off >= len(d.data) || d.data[d.off] != '"' {
		return nil, false
	}
	start := d.off + 1
	ascii := true
	for i := start; i < len(d.data); i++ {
		c := d.data[i]
		switch {
		case c == '"':
			s := d.data[start:i]
			if !ascii && !utf8.Valid(s) {
				return nil, false // the reference replaces invalid UTF-8
			}
			d.off = i + 1
			return s, true
		case c == '\\':
			return d.unescape(start)
		case c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false
}

// unescape reads the string starting at start, which has an escape.
func (d *decoder) unescape(start int) ([]byte, bool) {
	out := d.buf[:0]
	b := d.data
	i := start
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			if !utf8.Valid(out) {
				return nil, false
			}
			d.buf = out
			d.off = i + 1
			return out, true
		case c < 0x20:
			return nil, false
		case c != '\\':
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(b) {
			return nil, false
		}
		switch b[i+1] {
		case '"', '\\', '/':
			out = append(out, b[i+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(b, i+2)
			if !ok {
				return nil, false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				// Only a valid pair; a lone surrogate becomes U+FFFD in
				// the reference: declined.
				if i+1 >= len(b) || b[i] != '\\' || b[i+1] != 'u' {
					return nil, false
				}
				r2, ok := hex4(b, i+2)
				if !ok {
					return nil, false
				}
				dec := utf16.DecodeRune(r, r2)
				if dec == utf8.RuneError {
					return nil, false
				}
				r = dec
				i += 6
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return nil, false
		}
		i += 2
	}
	return nil, false
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// skip consumes any well-formed value, checking its syntax as the reference
// does before it decodes anything.
func (d *decoder) skip(depth int) bool {
	if d.off >= len(d.data) || depth > maxDepth {
		return false
	}
	switch c := d.data[d.off]; {
	case c == '{':
		return d.members(func([]byte) bool { return d.skip(depth + 1) })
	case c == '[':
		return d.elements(func() bool { return d.skip(depth + 1) })
	case c == '"':
		_, ok := d.strBytes()
		return ok
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	default:
		return d.scanNumber()
	}
}
