package load

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// This file holds a small, allocation-free skimmer for JSON that is already
// known to be syntactically valid (json.Marshal output, or a value that
// json.Decoder accepted). It never panics on invalid input; it reports
// failure instead.

func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the offset just past the string starting at b[i]=='"',
// or -1.
func skipString(b []byte, i int) int {
	if i < 0 || i >= len(b) || b[i] != '"' {
		return -1
	}
	j := i + 1
	for j <= len(b) {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
	return -1
}

// skipValue returns the offset just past the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i < 0 || i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := skipString(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default:
		j := i
		for j < len(b) {
			switch b[j] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return j
			}
			j++
		}
		return j
	}
}

// eachMember calls fn for each member of the object b (leading/trailing
// whitespace allowed) with the raw (quoted) key and the raw value. It stops
// when fn returns false. It reports whether b looked like a well-formed
// object.
func eachMember(b []byte, fn func(key, val []byte) bool) bool {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for {
		ke := skipString(b, i)
		if ke < 0 {
			return false
		}
		key := b[i:ke]
		i = skipWS(b, ke)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipWS(b, i+1)
		ve := skipValue(b, i)
		if ve <= i {
			return false
		}
		if !fn(key, b[i:ve]) {
			return true
		}
		i = skipWS(b, ve)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			return true
		default:
			return false
		}
	}
}

// eachElement calls fn for each element of the array b. It stops when fn
// returns false and reports whether b looked like a well-formed array.
func eachElement(b []byte, fn func(i int, val []byte) bool) bool {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return true
	}
	for n := 0; ; n++ {
		ve := skipValue(b, i)
		if ve <= i {
			return false
		}
		if !fn(n, b[i:ve]) {
			return true
		}
		i = skipWS(b, ve)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case ']':
			return true
		default:
			return false
		}
	}
}

// keyIs reports whether the raw quoted key equals name.
func keyIs(key []byte, name string) bool {
	if len(key) == len(name)+2 && string(key[1:len(key)-1]) == name {
		return true
	}
	if bytes.IndexByte(key, '\\') < 0 {
		return false
	}
	s, ok := unquoteJSON(key)
	return ok && s == name
}

// unquoteJSON decodes a raw JSON string.
func unquoteJSON(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// JSONType names the JSON type of a raw value: object, array, string, number,
// boolean, null, or nothing for blank input.
func JSONType(raw []byte) string {
	i := skipWS(raw, 0)
	if i >= len(raw) {
		return "nothing"
	}
	switch raw[i] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// describeJSON describes a raw value for error messages: `string "abc"`,
// `number 1.5`, `boolean true`, `object`, `array`, `null`.
func describeJSON(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	switch t := JSONType(raw); t {
	case "string":
		s, ok := unquoteJSON(raw)
		if !ok {
			return t
		}
		return t + " " + strconv.Quote(truncate(s))
	case "number", "boolean":
		return t + " " + truncate(string(raw))
	default:
		return t
	}
}

// header is what the loader needs to know about an object before decoding
// it, skimmed from the top level of its JSON.
type header struct {
	apiVersion, kind string
	apiVersionRaw    []byte // raw value of "apiVersion", nil if absent
	kindRaw          []byte // raw value of "kind", nil if absent
	name, namespace  string
	items            []byte // raw value of "items", nil if absent
}

// scanHeader skims the top level of the JSON object js. ok is false if js is
// not an object.
func scanHeader(js []byte) (h header, ok bool) {
	ok = eachMember(js, func(key, val []byte) bool {
		switch {
		case keyIs(key, "apiVersion"):
			h.apiVersionRaw = val
			h.apiVersion, _ = unquoteJSON(val)
		case keyIs(key, "kind"):
			h.kindRaw = val
			h.kind, _ = unquoteJSON(val)
		case keyIs(key, "items"):
			h.items = val
		case keyIs(key, "metadata"):
			h.name, h.namespace = "", ""
			eachMember(val, func(key, val []byte) bool {
				switch {
				case keyIs(key, "name"):
					h.name, _ = unquoteJSON(val)
				case keyIs(key, "namespace"):
					h.namespace, _ = unquoteJSON(val)
				}
				return true
			})
		}
		return true
	})
	return h, ok
}
