package load

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	yaml3 "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Lists (IN-11): kubectl's checks of a list document before it sends any of
// its items, and the taking apart of the list into its items.

// list expands a List's items (the list itself is not yielded). An item
// that is a list itself fails the list (kubectl takes one level apart), so
// depth is at most 1.
func (d *docSrc) list(js []byte, o *obj, h *header, depth int) {
	seq := d.itemsNode(o)
	// kubectl takes a list apart once (FlattenListVisitor): an item that is
	// a list itself, one with an items array, stops it before it sends any
	// of the list's items (IN-11).
	nested := -1
	eachElement(h.items, func(i int, item []byte) bool {
		if ih, ok := scanHeader(item); ok && JSONType(ih.items) == "array" && d.listLike(ih.apiVersion, ih.kind) {
			nested = i
			return false
		}
		return true
	})
	if nested >= 0 {
		d.fail(o, h, js, (&Error{Line: d.itemLine(o, seq, nested), Field: fmt.Sprintf("items[%d]", nested),
			Msg: "a list inside a list: kubectl takes only one level apart and creates none of the items " +
				"(*unstructured.Unstructured is not a list: no Items field in this object), and stops reading the file there: put its items in the outer list"}).halting())
		return
	}
	itemKind := strings.TrimSuffix(h.kind, "List")
	start, startItems := len(d.out), d.items
	n := 0
	defer func() {
		if e := d.itemSchemaErr; e != nil && depth == 0 {
			// kubectl checks every item against the API's schema before
			// it sends any (ValidationError(...)): none is created.
			d.itemSchemaErr = nil
			d.out, d.items = d.out[:start], startItems
			what := fmt.Sprintf("none of the list's %d items is created", n)
			if n == 1 {
				what = "the list's item is not created"
			}
			e.Msg += "; kubectl validates every item of a list against the API's schema before it sends any, so " + what + ", and it stops reading the file there"
			d.fail(o, h, js, e.halting())
		}
	}()
	eachElement(h.items, func(i int, item []byte) bool {
		n++
		if ih, ok := scanHeader(item); ok && itemKind != "" && ih.kindRaw == nil && ih.apiVersionRaw == nil {
			// kubectl gives an item that names neither the list's
			// apiVersion and the kind the list's names (decodeToList): a
			// ConfigMapList's items are ConfigMaps.
			item = withTypeMeta(item, h.apiVersion, itemKind)
		}
		c := &obj{line: d.itemLine(o, seq, i), isItem: true, nodeDone: true}
		if seq != nil && i < len(seq.Content) {
			c.node = resolveAlias(seq.Content[i])
		}
		d.object(item, c, depth+1)
		return true
	})
}

// listLike says whether kubectl would take an item of apiVersion/kind that
// has an items array for a list: one whose kind ends in List, or one of a
// kind that is not built in (a built-in kind's schema has no items: its
// validation refuses the item first).
func (d *docSrc) listLike(apiVersion, kind string) bool {
	return strings.HasSuffix(kind, "List") || d.builtin(apiVersion, kind) == nil
}

// builtin is an empty typed object of a built-in kind (Options.NewObject,
// else Options.CheckFields), nil for any other kind.
func (d *docSrc) builtin(apiVersion, kind string) runtime.Object {
	opts := d.stream.opts
	if opts.NewObject != nil {
		if obj := opts.NewObject(apiVersion, kind); obj != nil {
			return obj
		}
	}
	if opts.CheckFields != nil {
		return opts.CheckFields(apiVersion, kind)
	}
	return nil
}

// listModel is the OpenAPI name of the list kind apiVersion/kind
// (io.k8s.api.core.v1.ConfigMapList) when it lists a built-in kind that
// kube-apiserver serves, else "".
func (d *docSrc) listModel(apiVersion, kind string) string {
	opts := d.stream.opts
	itemKind, ok := strings.CutSuffix(kind, "List")
	if !ok || itemKind == "" || opts.ListNotMapped == nil || opts.ListNotMapped(apiVersion, kind) != "" {
		return ""
	}
	item := d.builtin(apiVersion, itemKind)
	if item == nil {
		return ""
	}
	t := reflect.TypeOf(item)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return openAPIPackage(t.PkgPath()) + "." + kind
}

// openAPIPackage is the prefix of the OpenAPI names of a Go package's types:
// the package path with its host reversed and "." for "/"
// (k8s.io/api/core/v1: io.k8s.api.core.v1).
func openAPIPackage(pkgPath string) string {
	host, rest, _ := strings.Cut(pkgPath, "/")
	parts := strings.Split(host, ".")
	slices.Reverse(parts)
	return strings.Join(parts, ".") + "." + strings.ReplaceAll(rest, "/", ".")
}

// nonScalar reports whether the JSON value raw is an object or an array.
func nonScalar(raw []byte) bool {
	t := JSONType(raw)
	return t == "object" || t == "array"
}

// itemsNode is the YAML sequence of a list's items, nil for JSON.
func (d *docSrc) itemsNode(o *obj) *yaml3.Node {
	if n := o.getNode(d); n != nil {
		if v := mappingValue(n, "items"); v != nil && v.Kind == yaml3.SequenceNode {
			return v
		}
	}
	return nil
}

// itemLine is the line of the list's item i (seq from itemsNode), the
// list's own where it is not known.
func (d *docSrc) itemLine(o *obj, seq *yaml3.Node, i int) int {
	if seq != nil && i < len(seq.Content) {
		if n := resolveAlias(seq.Content[i]); n != nil && n.Line > 0 {
			return d.lineBase + n.Line - 1
		}
	}
	return o.line
}

// validateV1List is kubectl's client-side validation of a v1 List, which it
// runs on no other kind (k8s.io/kubectl/pkg/validation: validateList): items
// must be an array, and every item an object naming its apiVersion and kind.
// Its error refuses the whole List before any item is sent (IN-11).
func (d *docSrc) validateV1List(o *obj, h *header) *Error {
	if JSONType(h.items) != "array" {
		line, _ := d.fieldLine(o, "items")
		if line == 0 {
			line = o.line
		}
		what := "is missing"
		if h.items != nil {
			what = "expected array, got " + describeJSON(h.items)
		}
		return &Error{Line: line, Field: "items", Msg: what + ": kubectl refuses a v1 List without an items array " +
			"(error validating data: invalid object to validate), and stops reading the file there; write items: [] for an empty List"}
	}
	var first *Error
	bad := 0
	seq := d.itemsNode(o)
	eachElement(h.items, func(i int, item []byte) bool {
		var errs []string
		ih, ok := scanHeader(item)
		if !ok || JSONType(item) != "object" {
			errs = append(errs, "invalid object to validate")
		} else {
			switch t := JSONType(ih.apiVersionRaw); {
			case ih.apiVersionRaw == nil || t == "null":
				errs = append(errs, "apiVersion not set")
			case t != "string":
				errs = append(errs, "apiVersion isn't string type")
			default:
				if _, err := schema.ParseGroupVersion(ih.apiVersion); err != nil {
					errs = append(errs, err.Error())
				}
			}
			switch t := JSONType(ih.kindRaw); {
			case ih.kindRaw == nil || t == "null":
				errs = append(errs, "kind not set")
			case t != "string":
				errs = append(errs, "kind isn't string type")
			}
		}
		if len(errs) == 0 {
			return true
		}
		bad++
		if first == nil {
			first = &Error{Line: d.itemLine(o, seq, i), Field: fmt.Sprintf("items[%d]", i), Msg: strings.Join(errs, ", ")}
		}
		return true
	})
	if first == nil {
		return nil
	}
	more := ""
	if bad > 1 {
		more = fmt.Sprintf(" (and %d more items)", bad-1)
	}
	first.Msg += more + ": kubectl validates a v1 List's items before it sends any, so none of them is created, and it stops reading the file there"
	return first
}

// withTypeMeta is the JSON object item with apiVersion and kind added first.
func withTypeMeta(item []byte, apiVersion, kind string) []byte {
	i := bytes.IndexByte(item, '{')
	if i < 0 {
		return item
	}
	av, _ := json.Marshal(apiVersion)
	k, _ := json.Marshal(kind)
	out := make([]byte, 0, len(item)+len(av)+len(k)+24)
	out = append(out, item[:i+1]...)
	out = append(out, `"apiVersion":`...)
	out = append(out, av...)
	out = append(out, `,"kind":`...)
	out = append(out, k...)
	if rest := bytes.TrimLeft(item[i+1:], " \t\r\n"); len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, item[i+1:]...)
}
