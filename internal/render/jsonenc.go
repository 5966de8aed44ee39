package render

import (
	"slices"
	"strconv"

	"github.com/limitcheck/limitcheck/internal/jsonstr"
)

// A result is most of a JSON report, and encoding/json spends its time on
// reflection; appendResult writes a jsonResult as encoding/json does,
// byte for byte (json.Encoder, SetIndent(prefix, "  "), SetEscapeHTML(false),
// without the final newline), and TestResultEncoding and FuzzResultEncoding
// hold it to that.

// jw appends indented JSON to b.
type jw struct {
	b      []byte
	prefix string
	depth  int
	n      []int    // members written at each open level
	keys   []string // stringMap's scratch
}

// spaces indents sixteen levels at a time.
const spaces = "                                "

func (w *jw) newline() {
	w.b = append(w.b, '\n')
	w.b = append(w.b, w.prefix...)
	n := 2 * w.depth
	for ; n > len(spaces); n -= len(spaces) {
		w.b = append(w.b, spaces...)
	}
	w.b = append(w.b, spaces[:n]...)
}

// open starts an object or array; close ends it ({} and [] when empty).
func (w *jw) open(c byte) {
	w.b = append(w.b, c)
	w.depth++
	w.n = append(w.n, 0)
}

func (w *jw) close(c byte) {
	n := w.n[len(w.n)-1]
	w.n = w.n[:len(w.n)-1]
	w.depth--
	if n > 0 {
		w.newline()
	}
	w.b = append(w.b, c)
}

// next starts a member or element.
func (w *jw) next() {
	if w.n[len(w.n)-1] > 0 {
		w.b = append(w.b, ',')
	}
	w.n[len(w.n)-1]++
	w.newline()
}

// key starts an object member.
func (w *jw) key(k string) {
	w.next()
	w.b = jsonstr.Append(w.b, k, false)
	w.b = append(w.b, ": "...)
}

func (w *jw) str(k, v string) {
	w.key(k)
	w.b = jsonstr.Append(w.b, v, false)
}

func (w *jw) int(k string, v int64) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, v, 10)
}

func (w *jw) bool(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *jw) strings(k string, v []string) {
	w.key(k)
	if v == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.open('[')
	for _, s := range v {
		w.next()
		w.b = jsonstr.Append(w.b, s, false)
	}
	w.close(']')
}

// stringMap writes a map with its keys sorted, as encoding/json does.
func (w *jw) stringMap(k string, m map[string]string) {
	w.key(k)
	if m == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.keys = w.keys[:0]
	for key := range m {
		w.keys = append(w.keys, key)
	}
	slices.Sort(w.keys)
	w.open('{')
	for _, key := range w.keys {
		w.str(key, m[key])
	}
	w.close('}')
}

func (w *jw) status(s *jsonStatus) {
	w.int("code", int64(s.Code))
	w.str("reason", s.Reason)
	w.str("stage", s.Stage)
	w.str("message", s.Message)
	w.strings("messageParts", s.MessageParts)
	w.strings("warnings", s.Warnings)
}

// quantities writes a list whose names are sorted.
func (w *jw) quantities(k string, l jsonQuantities) {
	w.key(k)
	if l == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.open('{')
	for _, q := range l {
		w.str(q.name, q.value)
	}
	w.close('}')
}

func (w *jw) resources(r *jsonResources) {
	w.quantities("requests", r.Requests)
	w.quantities("limits", r.Limits)
}

func (w *jw) pod(p *jsonPod) {
	if p == nil {
		return
	}
	w.key("containers")
	if p.Containers == nil {
		w.b = append(w.b, "null"...)
	} else {
		w.open('[')
		for i := range p.Containers {
			c := &p.Containers[i]
			w.next()
			w.open('{')
			w.str("name", c.Name)
			w.bool("init", c.Init)
			w.bool("sidecar", c.Sidecar)
			w.resources(&c.jsonResources)
			w.close('}')
		}
		w.close(']')
	}
	w.key("podResources")
	if p.PodResources == nil {
		w.b = append(w.b, "null"...)
	} else {
		w.open('{')
		w.resources(p.PodResources)
		w.close('}')
	}
	w.stringMap("annotations", p.Annotations)
}

// appendResult appends r encoded (see above).
func appendResult(b []byte, r *jsonResult, prefix string) []byte {
	var w jw
	return w.result(b, r, prefix)
}

// result appends r encoded to b as appendResult does, reusing w's scratch
// (its levels and keys) from the results before: a stream keeps one jw.
func (w *jw) result(b []byte, r *jsonResult, prefix string) []byte {
	w.b, w.prefix, w.depth, w.n = b, prefix, 0, w.n[:0]
	w.open('{')
	w.str("file", r.File)
	w.int("line", int64(r.Line))
	w.int("index", int64(r.Index))
	w.str("source", r.Source)
	w.str("apiVersion", r.APIVersion)
	w.str("kind", r.Kind)
	w.str("namespace", r.Namespace)
	w.str("name", r.Name)
	if r.GenerateName != "" {
		w.str("generateName", r.GenerateName)
	}
	w.key("allowed")
	if r.Allowed == nil {
		w.b = append(w.b, "null"...)
	} else {
		w.b = strconv.AppendBool(w.b, *r.Allowed)
	}
	w.bool("skipped", r.Skipped)
	w.str("skipReason", r.SkipReason)
	w.str("error", r.Error)
	if r.Live {
		w.bool("live", true)
	}
	w.status(&r.jsonStatus)
	w.pod(r.jsonPod)
	if wl := r.jsonWorkload; wl != nil {
		w.int("replicas", int64(wl.Replicas))
		w.int("admitted", int64(wl.Admitted))
		w.int("adopted", int64(wl.Adopted))
		w.int("notCreated", int64(wl.NotCreated))
		w.key("created")
		if wl.Created == nil {
			w.b = append(w.b, "null"...)
		} else {
			w.open('[')
			for i := range wl.Created {
				c := &wl.Created[i]
				w.next()
				w.open('{')
				w.str("apiVersion", c.APIVersion)
				w.str("kind", c.Kind)
				w.str("namespace", c.Namespace)
				w.str("name", c.Name)
				if c.GenerateName != "" {
					w.str("generateName", c.GenerateName)
				}
				w.str("pod", c.Pod)
				w.bool("allowed", c.Allowed)
				if c.Count != 0 {
					w.int("count", int64(c.Count))
				}
				w.status(&c.jsonStatus)
				w.pod(c.jsonPod)
				w.close('}')
			}
			w.close(']')
		}
	}
	w.close('}')
	b, w.b = w.b, nil // the caller's
	return b
}
