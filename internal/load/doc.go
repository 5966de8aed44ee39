package load

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/limitcheck/limitcheck/internal/jsondec"
	"github.com/limitcheck/limitcheck/internal/kubetext"
	yaml3 "go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kjson "sigs.k8s.io/json"
)

// docSrc is one top-level, non-empty document of a stream, together with
// what is needed to locate fields in it.
type docSrc struct {
	stream   *stream
	index    int
	source   string
	text     []byte // the document's text (YAML chunk or JSON value)
	lineBase int    // absolute line of text's first line

	yaml   bool // text is YAML (not JSON)
	dups   bool // text may have duplicate mapping keys
	parsed bool
	root   *yaml3.Node // text parsed with yaml v3; nil if that failed

	items int // next Item number
	out   []Document
	// selected says a document was decoded for Options.Select.
	selected bool
	// itemSchemaErr is the first schema error (unknown field, wrong type)
	// of a list item: kubectl's client-side validation of the list refuses
	// the whole list for it.
	itemSchemaErr *Error
	pending       []Warning // for the next document added
	// notes, when set, collects the notes about the document, for the
	// stream to report when it emits it; otherwise they are reported at once.
	notes *[]Note
}

// obj is one object inside a document: the document itself or a List item.
type obj struct {
	line     int         // absolute line of the object
	isItem   bool        // the object is a List item
	node     *yaml3.Node // the object's node, if known
	nodeDone bool        // node has been looked up
}

// run processes the document whose JSON is js and returns the documents it
// produces. It never panics: an unexpected panic (a bug) is reported as an
// error document.
func (d *docSrc) run(js []byte, line int) (docs []Document) {
	defer func() {
		if r := recover(); r != nil {
			d.out = append(d.out, Document{
				Pos: Position{File: d.stream.name, Line: line, Index: d.index, Item: -1, Source: d.source},
				Err: &Error{File: d.stream.name, Line: line, Msg: fmt.Sprintf("internal error: %v", r)},
			})
			docs = d.out
		}
	}()
	d.object(js, &obj{line: line}, 0)
	for _, w := range d.pending {
		// Warnings about a List that has no items to carry them.
		n := Note{File: d.stream.name, Line: w.Line, Msg: w.Msg}
		if d.notes != nil {
			*d.notes = append(*d.notes, n)
		} else {
			d.stream.note(n)
		}
	}
	return d.out
}

// add adds a document to the output, with the pending warnings.
func (d *docSrc) add(doc Document) {
	if len(d.pending) > 0 {
		doc.Warnings, d.pending = d.pending, nil
	}
	d.out = append(d.out, doc)
}

// pos returns the Position of a document about to be yielded for o. List
// items are numbered in the order they are yielded, so nested Lists are
// flattened.
func (d *docSrc) pos(o *obj) Position {
	item := -1
	if o.isItem {
		item = d.items
		d.items++
	}
	return Position{File: d.stream.name, Line: o.line, Index: d.index, Item: item, Source: d.source}
}

// rootNode returns the document's yaml v3 node, parsing it on first use.
func (d *docSrc) rootNode() *yaml3.Node {
	if !d.parsed {
		d.parsed = true
		var n yaml3.Node
		if err := yaml3.Unmarshal(d.text, &n); err == nil {
			markNonSpecificKeys(&n, d.text)
			if n.Kind == yaml3.DocumentNode && len(n.Content) == 1 {
				d.root = n.Content[0]
			}
		}
	}
	return d.root
}

func (o *obj) getNode(d *docSrc) *yaml3.Node {
	if !o.nodeDone {
		o.nodeDone = true
		o.node = d.rootNode()
	}
	return o.node
}

// fieldLine returns the absolute line of the field at path within o, and the
// name of the last key of the path if it was found.
func (d *docSrc) fieldLine(o *obj, path string) (int, string) {
	n := o.getNode(d)
	if n == nil {
		return o.line, ""
	}
	rel, key, _ := locate(n, path)
	if rel <= 0 {
		return o.line, key
	}
	return d.lineBase + rel - 1, key
}

func (d *docSrc) fail(o *obj, h *header, js []byte, e *Error) {
	e.File = d.stream.name
	if e.Line == 0 {
		e.Line = o.line
	}
	doc := Document{Pos: d.pos(o), JSON: js, Err: e}
	if h != nil {
		doc.APIVersion, doc.Kind, doc.Name, doc.Namespace = h.apiVersion, h.kind, h.name, h.namespace
	}
	d.add(doc)
}

// skip adds a skipped document (see Document.Skip).
func (d *docSrc) skip(o *obj, h *header, reason string) {
	doc := Document{Pos: d.pos(o), Skip: reason}
	if h != nil {
		doc.APIVersion, doc.Kind, doc.Name, doc.Namespace = h.apiVersion, h.kind, h.name, h.namespace
	}
	d.add(doc)
}

// caseVariant returns the top-level key of the object js that is field
// spelt in another case, or "".
func caseVariant(js []byte, field string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(js, &m) != nil {
		return ""
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if k != field && strings.EqualFold(k, field) {
			return k
		}
	}
	return ""
}

// missing reports whether a type field is absent, null or "".
func missing(raw []byte, val string) bool {
	t := JSONType(raw)
	return raw == nil || t == "null" || (t == "string" && val == "")
}

// object handles one object: the document itself or a List item.
func (d *docSrc) object(js []byte, o *obj, depth int) {
	// In files found by a directory walk, documents that are not objects
	// (Helm values, Chart.yaml, other tools' configuration) are skipped.
	skippable := d.stream.walked && !o.isItem
	h, ok := scanHeader(js)
	if k := d.stream.opts.toolInputSkip; k != "" && !o.isItem {
		// It keeps what it says it is only when it says it in full: a
		// chart's values may choose a kind: Deployment.
		var hp *header
		if ok && !missing(h.kindRaw, h.kind) && !missing(h.apiVersionRaw, h.apiVersion) {
			hp = &h
		}
		d.skip(o, hp, k)
		return
	}
	if c := d.stream.opts.chart; c != "" && !o.isItem && ok {
		// A chart's template that happens to be YAML still holds its
		// actions unrendered ('{{ .Release.Name }}-web'): read as an object,
		// it would be refused for them (IN-08).
		if i := bytes.Index(d.text, []byte("{{")); i >= 0 {
			line := d.lineBase + bytes.Count(d.text[:i], []byte("\n"))
			d.fail(o, &h, nil, &Error{Line: line, Msg: "holds template actions ({{ … }}) (" + unrendered(c) + ")"})
			return
		}
	}
	if !ok {
		if skippable {
			d.skip(o, nil, "not a Kubernetes object: not a mapping")
			return
		}
		e := (&Error{Msg: "not a Kubernetes object: expected a mapping"}).halting()
		if !o.isItem {
			// kubectl's schema check (IN-15).
			e.Msg = kubectlValidationError(d.stream.name, []string{"invalid object to validate"}) + " (not a Kubernetes object: expected a mapping)"
		} else if d.itemSchemaErr == nil {
			d.itemSchemaErr = e // the item's schema wants an object
		}
		d.fail(o, nil, js, e)
		return
	}
	// A type field spelt in another case ("Kind:", "apiversion:") is a
	// typo in an object, not a sign of another kind of file.
	var kindVariant, apiVersionVariant string
	if missing(h.kindRaw, h.kind) {
		kindVariant = caseVariant(js, "kind")
	}
	if missing(h.apiVersionRaw, h.apiVersion) {
		apiVersionVariant = caseVariant(js, "apiVersion")
	}
	if kindVariant != "" || apiVersionVariant != "" {
		skippable = false
	}
	if skippable && missing(h.kindRaw, h.kind) && missing(h.apiVersionRaw, h.apiVersion) && kustomizationNames[filepath.Base(d.stream.name)] {
		// kustomize reads a kustomization without apiVersion and kind as
		// its Kustomization, a tool's configuration (API-01).
		h.apiVersion, h.kind = "kustomize.config.k8s.io/v1beta1", "Kustomization"
		d.skip(o, &h, ToolConfigReason)
		return
	}
	if missing(h.apiVersionRaw, h.apiVersion) && JSONType(h.kindRaw) == "string" && versionlessToolKinds[h.kind] {
		// A tool's configuration that names itself with a kind alone
		// (kube-state-metrics' --custom-resource-state-config-file).
		d.skip(o, &h, ToolConfigReason)
		return
	}
	if skippable && missing(h.kindRaw, h.kind) {
		reason := "not a Kubernetes object: no kind"
		if missing(h.apiVersionRaw, h.apiVersion) {
			reason = "not a Kubernetes object: no apiVersion or kind"
		}
		d.skip(o, &h, reason)
		return
	}
	if skippable && missing(h.apiVersionRaw, h.apiVersion) && JSONType(h.kindRaw) == "string" && strings.Contains(h.kind, "#") {
		// Another API's document: Google's REST resources say what they
		// are in "kind": "compute#diskTypeList". (A kind with another
		// stray character, config-map, is more likely a typo: the error.)
		d.skip(o, nil, fmt.Sprintf("not a Kubernetes object: no apiVersion, and %q is not a kind", h.kind))
		return
	}
	typeErr := d.checkTypeField(o, "kind", h.kindRaw, h.kind, kindVariant)
	if typeErr == nil {
		typeErr = d.checkTypeField(o, "apiVersion", h.apiVersionRaw, h.apiVersion, apiVersionVariant)
	}
	if !o.isItem {
		if e := d.validationRefusal(o, &h, kindVariant, apiVersionVariant); e != nil {
			typeErr = e.halting() // kubectl reads no further document of the file
		} else if typeErr != nil {
			typeErr = d.emptyTypeField(&h, js) // an empty string: kubectl reads on
		}
	}
	if d.dups {
		isList := typeErr == nil && strings.HasSuffix(h.kind, "List") && JSONType(h.items) == "array"
		warns, err, random := d.duplicates(o, isList)
		if err != nil {
			if random {
				js = nil // not what kubectl would send: it cannot say
			}
			d.pending = nil // the error names the keys converted alike
			d.fail(o, &h, js, err)
			return
		}
		d.pending = append(d.pending, warns...)
	}
	if typeErr != nil {
		if o.isItem && d.itemSchemaErr == nil && (nonScalar(h.kindRaw) || nonScalar(h.apiVersionRaw)) {
			// The item's schema takes a string, and any scalar for one.
			d.itemSchemaErr = typeErr
		}
		d.fail(o, &h, js, typeErr)
		return
	}
	if !o.isItem && strings.HasSuffix(h.kind, "List") && h.kind != "List" && (h.items == nil || JSONType(h.items) == "null") {
		if model := d.listModel(h.apiVersion, h.kind); model != "" {
			// kubectl validates a built-in kind's list against its
			// schema, which requires items (ValidationError(...)).
			d.fail(o, &h, js, &Error{Field: "items", Msg: fmt.Sprintf("missing required field %q in %s: kubectl refuses the list (error validating data: ValidationError(%s): missing required field %q in %s), and stops reading the file there; write items: [] for an empty list",
				"items", model, h.kind, "items", model)})
			return
		}
	}
	// kubectl decodes a document with an "items" member, null included, as
	// a list and sends its items (unstructured.UnstructuredJSONScheme); a
	// v1 List without one has no items either.
	if strings.HasSuffix(h.kind, "List") && (h.items != nil || h.kind == "List") {
		if f := d.stream.opts.ListNotMapped; f != nil && !o.isItem { // kubectl maps the document, not the lists in it
			if msg := f(h.apiVersion, h.kind); msg != "" {
				// kubectl's mapper fails on the list itself (API-01),
				// whose name and namespace it does not read: a list has
				// none it can see (compared with kubectl 1.36.3).
				msg = kubetext.ResourceMappingNotFound("", "", KubectlSource(d.stream.name), msg) + " (" + kubetext.EnsureCRDs + ")"
				d.fail(o, &h, js, &Error{Msg: msg})
				return
			}
		}
		if !o.isItem && h.apiVersion == "v1" && h.kind == "List" {
			if err := d.validateV1List(o, &h); err != nil {
				d.fail(o, &h, js, err.halting())
				return
			}
		}
		switch JSONType(h.items) {
		case "array":
			if bytes.Equal(bytes.TrimSpace(h.items), []byte("[]")) {
				d.skip(o, &h, "a list without items: nothing to create")
				return
			}
			d.list(js, o, &h, depth)
		case "nothing", "null":
			d.skip(o, &h, "a list without items: nothing to create")
		default:
			line, _ := d.fieldLine(o, "items")
			d.fail(o, &h, js, &Error{Line: line, Field: "items", Msg: "expected array, got " + describeJSON(h.items)})
		}
		return
	}
	d.decode(js, o, &h)
}

// validationRefusal is kubectl's refusal of a document its schema check
// reads first (IN-15), nil when it goes on: an apiVersion or a kind absent
// or null, not a string, an apiVersion that is no group/version. kubectl
// says every one of them, apiVersion first, and reads no further document
// of the file:
//
//	error validating "app.yaml": error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false
//
// limitcheck's hints follow in parentheses. An empty string passes the
// check (checkTypeField's "is required" then applies).
func (d *docSrc) validationRefusal(o *obj, h *header, kindVariant, apiVersionVariant string) *Error {
	var errs, hints []string
	field, line := "", 0
	at := func(f, variant string, raw []byte) {
		if field != "" {
			return
		}
		field = f
		if variant != "" {
			line, _ = d.fieldLine(o, variant)
		} else if raw != nil {
			line, _ = d.fieldLine(o, f)
		}
	}
	for _, f := range []struct {
		name, variant string
		raw           []byte
	}{{"apiVersion", apiVersionVariant, h.apiVersionRaw}, {"kind", kindVariant, h.kindRaw}} {
		switch t := JSONType(f.raw); {
		case f.raw == nil || t == "null":
			errs = append(errs, f.name+" not set")
			at(f.name, f.variant, f.raw)
			if f.variant != "" {
				hints = append(hints, fmt.Sprintf("the document has %q: keys are case-sensitive", f.variant))
			}
		case t != "string":
			errs = append(errs, f.name+" isn't string type")
			at(f.name, "", f.raw)
			hints = append(hints, f.name+" is "+describeJSON(f.raw))
		case f.name == "apiVersion":
			if _, err := schema.ParseGroupVersion(h.apiVersion); err != nil {
				errs = append(errs, err.Error())
				at(f.name, "", f.raw)
				hints = append(hints, groupVersionHint)
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	msg := kubectlValidationError(d.stream.name, errs)
	if len(hints) > 0 {
		msg += " (" + strings.Join(hints, "; ") + ")"
	}
	return &Error{Line: line, Field: field, Msg: msg}
}

// groupVersionHint says what an apiVersion looks like.
const groupVersionHint = "want group/version, e.g. apps/v1, or v1 for the core group"

// kubectlValidationError is kubectl's refusal of a document of the stream
// name by its schema check, for errs (IN-15).
func kubectlValidationError(name string, errs []string) string {
	data := errs[0]
	if len(errs) > 1 {
		data = "[" + strings.Join(errs, ", ") + "]" // an aggregate of errors
	}
	return fmt.Sprintf("error validating %q: error validating data: %s; if you choose to ignore these errors, turn validation off with --validate=false", KubectlSource(name), data)
}

// emptyTypeField is what kubectl says of a document whose kind or
// apiVersion is an empty string, which its schema check lets through (IN-15):
// it cannot map an empty kind (`unable to decode "app.yaml": Object 'Kind'
// is missing in '{…}'`, the document's JSON), and sends a document with an
// empty apiVersion, which kube-apiserver answers with a 404. It reads the
// file's next documents.
func (d *docSrc) emptyTypeField(h *header, js []byte) *Error {
	if h.kind == "" {
		return &Error{Field: "kind", Msg: fmt.Sprintf("unable to decode %q: Object 'Kind' is missing in '%s' (kind is empty)", KubectlSource(d.stream.name), js)}
	}
	return &Error{Field: "apiVersion", Msg: "the server could not find the requested resource (apiVersion is empty: " + groupVersionHint + ")"}
}

func (d *docSrc) checkTypeField(o *obj, field string, raw []byte, val, variant string) *Error {
	t := JSONType(raw)
	if raw == nil && variant != "" {
		line, _ := d.fieldLine(o, variant)
		return &Error{Line: line, Field: field, Msg: fmt.Sprintf("is required (the document has %q: keys are case-sensitive)", variant)}
	}
	if raw == nil || t == "null" || (t == "string" && val == "") {
		return &Error{Field: field, Msg: "is required"}
	}
	if t != "string" {
		line, _ := d.fieldLine(o, field)
		return &Error{Line: line, Field: field, Msg: "expected string, got " + describeJSON(raw)}
	}
	return nil
}

var partialType = reflect.TypeOf(metav1.PartialObjectMetadata{})

// decode decodes the object: strictly into the caller's type if it wants one
// (by jsondec where it can, else by the reference),
// otherwise leniently into PartialObjectMetadata.
func (d *docSrc) decode(js []byte, o *obj, h *header) {
	if sel := d.stream.opts.Select; sel != nil {
		if !sel(h.apiVersion, h.kind) {
			d.add(Document{Pos: d.pos(o), APIVersion: h.apiVersion, Kind: h.kind, Namespace: h.namespace, Name: h.name})
			return
		}
		d.selected = true
	}
	var into runtime.Object
	if nf := d.stream.opts.NewObject; nf != nil {
		into = nf(h.apiVersion, h.kind)
	}
	if into != nil && !jsondec.Decode(js, into) {
		// Declined (jsondec): the reference decodes a fresh object and
		// gives the error, if any.
		into = d.stream.opts.NewObject(h.apiVersion, h.kind)
		if !d.decodeStrict(o, h, js, into) {
			return
		}
	} else if into == nil {
		if cf := d.stream.opts.CheckFields; cf != nil {
			if t := cf(h.apiVersion, h.kind); t != nil && !d.decodeStrict(o, h, js, t) {
				return
			}
		}
		pom := &metav1.PartialObjectMetadata{}
		if err := kjson.UnmarshalCaseSensitivePreserveInts(js, pom); err != nil {
			e, schema := d.decodeErrorSchema(o, h, js, partialType, err)
			if schema && o.isItem && d.itemSchemaErr == nil {
				d.itemSchemaErr = e
			}
			d.fail(o, h, js, e)
			return
		}
		into = pom
	}
	doc := Document{
		Pos:        d.pos(o),
		APIVersion: h.apiVersion,
		Kind:       h.kind,
		Namespace:  h.namespace,
		Name:       h.name,
		JSON:       js,
		Object:     into,
	}
	if prepare := d.stream.opts.Prepare; prepare != nil && into != nil {
		if _, partial := into.(*metav1.PartialObjectMetadata); !partial {
			doc.Prepared = prepare(into)
		}
	}
	d.add(doc)
}

// decodeStrict decodes js into into as kube-apiserver decodes a body under
// strict field validation (sigs.k8s.io/json's UnmarshalStrict); when that
// fails it reports the document's error and returns false.
func (d *docSrc) decodeStrict(o *obj, h *header, js []byte, into runtime.Object) bool {
	strictErrs, err := kjson.UnmarshalStrict(js, into)
	var e *Error
	schema := false
	switch {
	case err != nil:
		e, schema = d.decodeErrorSchema(o, h, js, reflect.TypeOf(into), err)
	case len(strictErrs) > 0:
		e = d.strictError(o, h, reflect.TypeOf(into), strictErrs)
		for _, err := range strictErrs {
			// An unknown field; not a duplicate one, which the check's
			// lenient YAML conversion has already resolved.
			schema = schema || strings.HasPrefix(err.Error(), "unknown field")
		}
	default:
		return true
	}
	if schema && o.isItem && d.itemSchemaErr == nil {
		d.itemSchemaErr = e
	}
	d.fail(o, h, js, e)
	return false
}

// decodeErrorSchema turns a decode failure (err, from the reference
// decoder) into the Error kubectl reports, at the field and line it is
// about: the decoder's errors do not carry a usable path, so the JSON is
// checked against the Go type to find the offending values. It says too
// whether kubectl's client-side schema check of a list's items would find
// one of the problems.
func (d *docSrc) decodeErrorSchema(o *obj, h *header, js []byte, t reflect.Type, err error) (*Error, bool) {
	problems := checkJSON(t, js)
	schema := false
	for _, p := range problems {
		schema = schema || p.schema
	}
	msg, at := "", -1
	if !schema || !o.isItem {
		// (A list's item kubectl's own schema check refuses is not sent:
		// its problem is said in limitcheck's words.)
		msg, at = d.decodeRefusal(o, h, js, err, problems)
	}
	if msg == "" {
		// Not an error of the document's that the check finds (or none):
		// the first of its problems in file order, in its own words.
		first := 0
		for i, p := range problems {
			if line, _ := d.fieldLine(o, p.path); at < 0 || line < first {
				at, first = i, line
			}
		}
		if at < 0 {
			if err == nil {
				return &Error{Msg: "internal error: no decoding error"}, schema
			}
			return &Error{Msg: strings.TrimPrefix(err.Error(), "json: ")}, schema
		}
	}
	if at < 0 {
		return &Error{Msg: msg}, schema
	}
	p := problems[at]
	line, _ := d.fieldLine(o, p.path)
	if msg == "" {
		msg = p.msg
	}
	return &Error{Line: line, Field: p.path, Msg: msg + p.hint + d.unquotedHint(o, p)}, schema
}

// metadataOnlyObject is what kubectl decodes each document it reads into
// before it sends anything (k8s.io/cli-runtime's metadataValidatingDecoder,
// with k8s.io/apimachinery's case-sensitive json.Unmarshal): a value that
// does not fit in metadata is its error, "unable to decode", and the
// document is not sent. The type's name, and its embedding ObjectMeta, are
// part of the message for a value given for metadata itself.
type metadataOnlyObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// decodeRefusal is the message kubectl prints for a document whose
// decoding failed with err (nil: the failure is kubectl's alone), and the
// index of the problem it is about (-1 if none is known); "" if the check
// finds no problem of the decoder's:
//   - kubectl's own decoding of the metadata (not a list's items, which
//     kube-apiserver decodes): `unable to decode "input.yaml": json: cannot
//     unmarshal bool into Go struct field ObjectMeta.metadata.labels of type
//     string`;
//   - else kube-apiserver's 400, its decoder's first error (a value that no
//     Go type's own decoding takes, such as a quantity, ends the decoding
//     at once and is the error even after a type mismatch): `Pod in version
//     "v1" cannot be handled as a Pod: json: cannot unmarshal bool into Go
//     struct field EnvVar.spec.containers.env.value of type string`.
//
// kubectl sends the JSON of its YAML with the keys of each object in
// order, as the check reads it: the first problem of the kind the error
// is (a type mismatch, or another) is the one the decoder met first.
func (d *docSrc) decodeRefusal(o *obj, h *header, js []byte, err error, problems []problem) (string, int) {
	if msg, refused := d.metadataRefusal(o, js); refused {
		for i, p := range problems {
			if p.path == "metadata" || strings.HasPrefix(p.path, "metadata.") {
				return msg, i
			}
		}
		return msg, -1
	}
	if err == nil {
		return "", -1
	}
	mismatch := strings.HasPrefix(err.Error(), "json: cannot unmarshal ")
	at := -1
	for i, p := range problems {
		if p.mismatch == mismatch {
			at = i
			break
		}
	}
	if at < 0 {
		return "", -1
	}
	return cannotHandle(h, err.Error()), at
}

// cannotHandle is kube-apiserver's 400 for the document of header h that
// its decoder refuses with err.
func cannotHandle(h *header, err string) string {
	version := h.apiVersion
	if i := strings.LastIndexByte(version, '/'); i >= 0 {
		version = version[i+1:]
	}
	return kubetext.CannotHandle(h.kind, version, h.kind, err)
}

// metadataRefusal is kubectl's error for a document whose metadata its own
// decoding does not take (see metadataOnlyObject), if it has one.
func (d *docSrc) metadataRefusal(o *obj, js []byte) (string, bool) {
	if o.isItem {
		return "", false
	}
	var m metadataOnlyObject
	if err := kjson.UnmarshalCaseSensitivePreserveInts(js, &m); err != nil {
		return fmt.Sprintf("unable to decode %q: %v", KubectlSource(d.stream.name), err), true
	}
	return "", false
}

// KubectlSource is how kubectl names a file in its messages: stdin is
// STDIN.
func KubectlSource(name string) string {
	if name == StdinName {
		return "STDIN"
	}
	return name
}

// unquotedHint explains a string field given a boolean or a number by the
// unquoted YAML scalar it was written as: kubectl's YAML 1.1 reads yes, on,
// NO as booleans and 8080, 1e3, 0755, 1.10 as numbers.
func (d *docSrc) unquotedHint(o *obj, p problem) string {
	what := ""
	switch {
	case !d.yaml:
		return ""
	case strings.HasPrefix(p.msg, "expected string, got boolean "):
		what = "a boolean"
	case strings.HasPrefix(p.msg, "expected string, got number "):
		what = "a number"
	default:
		return ""
	}
	n := o.getNode(d)
	if n == nil {
		return ""
	}
	_, _, v, ok := locateNode(n, p.path)
	if !ok || v == nil || v.Kind != yaml3.ScalarNode || v.Style != 0 || v.Value == "" {
		return ""
	}
	return fmt.Sprintf(" (YAML reads the unquoted %s as %s: write %q for a string)", v.Value, what, v.Value)
}

// strictError reports the unknown and duplicate fields of an object of type
// t in kube-apiserver's words: its 400, which lists every one in the order
// kubectl sends the keys (`Pod in version "v1" cannot be handled as a Pod:
// strict decoding error: unknown field "spec.containers[0].resource", …`).
// The error is at the first field in file order, and a hint at the spelling
// or place meant follows for each field that has one, the others named with
// their lines: ` (did you mean "resources"?; also spec.replicas (line 37))`.
// A list's item, which kubectl refuses itself, gets `unknown field
// "resource"` and the same notes.
func (d *docSrc) strictError(o *obj, h *header, t reflect.Type, errs []error) *Error {
	type found struct {
		path, text string
		line       int
		hint       string
	}
	var fields []found
	texts := make([]string, 0, len(errs))
	for _, err := range errs {
		texts = append(texts, err.Error())
		fe, ok := err.(kjson.FieldError)
		if !ok || fe.FieldPath() == "" {
			continue
		}
		f := found{path: fe.FieldPath()}
		var key string
		f.line, key = d.fieldLine(o, f.path)
		if key == "" {
			key = lastPathKey(f.path)
		}
		what, _, _ := strings.Cut(err.Error(), " \"")
		f.text = fmt.Sprintf("%s %q", what, key)
		if strings.HasPrefix(err.Error(), "unknown field") {
			f.hint = fieldHint(t, f.path)
		}
		fields = append(fields, f)
	}
	e := &Error{Msg: cannotHandle(h, kubetext.StrictDecoding(texts))}
	if len(fields) == 0 {
		return e
	}
	// File order; a field whose line is not known goes last.
	sort.SliceStable(fields, func(i, j int) bool {
		a, b := fields[i].line, fields[j].line
		return a != 0 && (b == 0 || a < b)
	})
	e.Line, e.Field = fields[0].line, fields[0].path
	if o.isItem {
		// kubectl's check of a list's items refuses it before sending
		// anything (IN-11): no kube-apiserver words.
		e.Msg = fields[0].text
	}
	var notes []string
	if fields[0].hint != "" {
		notes = append(notes, fields[0].hint)
	}
	const listed = 5
	for i, f := range fields[1:] {
		if i == listed {
			notes = append(notes, fmt.Sprintf("and %d more", len(fields)-1-listed))
			break
		}
		note := "also " + f.path
		if f.line > 0 {
			note += fmt.Sprintf(" (line %d)", f.line)
		}
		if f.hint != "" {
			note += ": " + f.hint
		}
		notes = append(notes, note)
	}
	if len(notes) > 0 {
		e.Msg += " (" + strings.Join(notes, "; ") + ")"
	}
	return e
}

// lastPathKey returns the last key of a path like a.b[0].c.
func lastPathKey(path string) string {
	path = strings.TrimRight(path, "]0123456789[")
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}
