package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// kubectl does not send a JSON document as written: it decodes it into
// maps (apimachinery's JSON rules: a number is an int64 when it is one,
// else a float64; a key given twice keeps its last value) and encodes that
// again. So "replicas": 2.0 reaches kube-apiserver as 2, and the first of two
// "data" members never reaches it (IN-04). limitcheck reads JSON as written,
// which is the same for nearly every document, and only when reading it so
// fails in one of those two ways reads it again in kubectl's form.

// needsKubectlForm reports whether docs, read from a JSON document as
// written, failed where kubectl's form of the document could read
// differently: a duplicate field, or a value the decoder does not take (an
// integer field given a number written with a fraction or an exponent
// reads as one in kubectl's form; another error may be met first there).
func needsKubectlForm(docs []Document) bool {
	for _, d := range docs {
		if d.Err == nil {
			continue
		}
		m := d.Err.Msg
		if strings.HasPrefix(m, "duplicate field") {
			return true
		}
		if strings.Contains(m, " cannot be handled as a ") {
			// kube-apiserver's decoder names the first problem in the
			// order kubectl sends the keys (sorted), not as written.
			return true
		}
	}
	return false
}

// kubectlJSON returns raw, one JSON value, as kubectl sends it: decoded into
// maps, numbers as int64 or float64, and encoded again (keys sorted). dups
// reports a key given twice in one object. ok is false when kubectl could
// not decode it either (a number out of float64's range).
func kubectlJSON(raw []byte) (js []byte, dups bool, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, dups, err := kubectlValue(dec, 0)
	if err != nil {
		return nil, false, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false, false
	}
	js, err = json.Marshal(v)
	return js, dups, err == nil
}

// maxKubectlDepth bounds the nesting kubectlValue follows (it recurses);
// encoding/json, which read the document first, allows 10000.
const maxKubectlDepth = 10000

// kubectlValue reads the next value of dec as kubectl holds it.
func kubectlValue(dec *json.Decoder, depth int) (v any, dups bool, err error) {
	if depth > maxKubectlDepth {
		return nil, false, errors.New("nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, false, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := map[string]any{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, false, err
				}
				k, _ := kt.(string)
				val, d, err := kubectlValue(dec, depth+1)
				if err != nil {
					return nil, false, err
				}
				if _, seen := m[k]; seen {
					d = true
				}
				dups = dups || d
				m[k] = val
			}
			_, err = dec.Token() // }
			return m, dups, err
		case '[':
			l := []any{}
			for dec.More() {
				val, d, err := kubectlValue(dec, depth+1)
				if err != nil {
					return nil, false, err
				}
				dups = dups || d
				l = append(l, val)
			}
			_, err = dec.Token() // ]
			return l, dups, err
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, false, nil
		}
		f, err := t.Float64()
		return f, false, err
	}
	return tok, false, nil
}
