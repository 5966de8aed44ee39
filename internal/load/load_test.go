package load

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// typed decodes Pods and Deployments into Go types, everything else as
// PartialObjectMetadata.
func typed(apiVersion, kind string) runtime.Object {
	switch {
	case apiVersion == "v1" && kind == "Pod":
		return &corev1.Pod{}
	case apiVersion == "apps/v1" && kind == "Deployment":
		return &appsv1.Deployment{}
	}
	return nil
}

var typedOpts = Options{NewObject: typed}

// got is the comparable summary of a Document.
type got struct {
	Pos        Position
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
	Obj        string // %T of Object, "" if nil
	Err        string // Err.Error(), "" if nil
	Skip       string
}

func summarize(t *testing.T, d Document) got {
	t.Helper()
	g := got{Pos: d.Pos, APIVersion: d.APIVersion, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name}
	if d.Object != nil {
		g.Obj = fmt.Sprintf("%T", d.Object)
	}
	if d.Err != nil {
		g.Err = d.Err.Error()
		if d.Object != nil {
			t.Errorf("document %+v has both Err and Object", d.Pos)
		}
	} else if d.Object == nil && d.Skip == "" {
		t.Errorf("document %+v has neither Err nor Object nor Skip", d.Pos)
	}
	g.Skip = d.Skip
	return g
}

func readAll(t *testing.T, name, in string, opts Options) ([]got, []Document) {
	t.Helper()
	var gs []got
	var ds []Document
	err := ReadStream(name, strings.NewReader(in), opts, func(d Document) bool {
		gs = append(gs, summarize(t, d))
		ds = append(ds, d)
		return true
	})
	if err != nil {
		t.Fatalf("ReadStream: %v", err)
	}
	return gs, ds
}

func compare(t *testing.T, gs, want []got) {
	t.Helper()
	if reflect.DeepEqual(gs, want) {
		return
	}
	for i := 0; i < len(gs) || i < len(want); i++ {
		switch {
		case i >= len(gs):
			t.Errorf("doc %d: missing, want %+v", i, want[i])
		case i >= len(want):
			t.Errorf("doc %d: unexpected %+v", i, gs[i])
		case !reflect.DeepEqual(gs[i], want[i]):
			t.Errorf("doc %d:\n got  %+v\n want %+v", i, gs[i], want[i])
		}
	}
}

// pos builds a Position in file "f.yaml".
func pos(line, index, item int) Position {
	return Position{File: "f.yaml", Line: line, Index: index, Item: item}
}

func srcPos(line, index int, source string) Position {
	p := pos(line, index, -1)
	p.Source = source
	return p
}

const (
	partial   = "*v1.PartialObjectMetadata"
	pod       = "*v1.Pod"
	quantityR = `quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`
)

func cm(p Position, name string) got {
	return got{Pos: p, APIVersion: "v1", Kind: "ConfigMap", Name: name, Obj: partial}
}

var streamCases = []struct {
	name string
	in   string
	want []got
}{
	{
		name: "single document",
		in:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: ns\n",
		want: []got{{Pos: pos(1, 0, -1), APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "a", Obj: partial}},
	},
	{
		name: "separators, comments and empty documents",
		in: "# leading comment\n" + // 1
			"\n" + // 2
			"---\n" + // 3
			"# comment\n" + // 4
			"apiVersion: v1\n" + // 5
			"kind: ConfigMap\n" + // 6
			"metadata: {name: a}\n" + // 7
			"---   \n" + // 8
			"--- # only a comment\n" + // 9
			"  # indented comment\n" + // 10
			"---\n" + // 11
			"null\n" + // 12
			"---\t\n" + // 13
			"~\n" + // 14
			"---#tight comment\n" + // 15
			"\n" + // 16
			"  apiVersion: v1\n" + // 17
			"  kind: ConfigMap\n" + // 18
			"  metadata: {name: b}\n" + // 19
			"...\n" + // 20
			"---\n" + // 21
			"apiVersion: v1\n" + // 22
			"kind: ConfigMap\n" + // 23
			"metadata: {name: c}\n" + // 24
			"...  # end\n" + // 25
			"# trailing\n" + // 26
			"---\n", // 27
		want: []got{cm(pos(5, 0, -1), "a"), cm(pos(17, 1, -1), "b"), cm(pos(22, 2, -1), "c")},
	},
	{
		// kubectl's reader keeps it in the document before (up to the
		// next "---"), whose conversion never reads it (IN-14).
		name: "content after ... is not read",
		in:   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n...\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n\tbad\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
		want: []got{cm(pos(1, 0, -1), "a"), {Pos: pos(5, 1, -1), Skip: `not read: kubectl reads one YAML document from "---" to "---", and ignores what follows the document end marker "..." on line 4`}, cm(pos(10, 2, -1), "c")},
	},
	{
		name: "CRLF line endings",
		in:   "---\r\n# c\r\napiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: a\r\n--- \r\n\r\napiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: b\r\n",
		want: []got{cm(pos(3, 0, -1), "a"), cm(pos(9, 1, -1), "b")},
	},
	{
		name: "CRLF syntax error line",
		in:   "apiVersion: v1\r\nkind: ConfigMap\r\n---\r\napiVersion: v1\r\nkind: ConfigMap\r\nmetadata: x: y\r\n",
		want: []got{
			{Pos: pos(1, 0, -1), APIVersion: "v1", Kind: "ConfigMap", Obj: partial},
			{Pos: pos(4, 1, -1), Err: "f.yaml:6: error parsing f.yaml: error converting YAML to JSON: yaml: line 3: mapping values are not allowed in this context"},
		},
	},
	{
		// IN-16: kubectl's reader splits lines at "\n" only, so the file
		// is one line and one document, whose conversion stops at the
		// "---" YAML sees (compared with kubectl 1.36.3: a is created, the
		// syntax error after it never seen).
		name: "old Mac CR line endings",
		in:   "apiVersion: v1\rkind: ConfigMap\rmetadata: {name: a}\r---\r\rapiVersion: v1\rkind: ConfigMap\rmetadata: x: y\r",
		want: []got{
			cm(pos(1, 0, -1), "a"),
			{Pos: pos(6, 1, -1), Skip: `not read: kubectl's reader splits lines at line feeds only, and the "---" on line 4 follows a carriage return: it is no separator for kubectl, whose converter reads one YAML document and ignores what follows it up to the next "---" line (save the file with LF or CRLF line breaks)`},
		},
	},
	{
		// A "---" line at the start of one of kubectl's lines, which goes
		// on to the next "\n": what follows it is no comment.
		name: "old Mac CR line endings after a separator",
		in:   "---\rapiVersion: v1\rkind: ConfigMap\rmetadata: {name: a}\r",
		want: []got{
			{Pos: pos(1, 0, -1), Err: "f.yaml:1: error parsing f.yaml: invalid Yaml document separator: apiVersion: v1\rkind: ConfigMap\rmetadata: {name: a} (kubectl's reader splits lines at line feeds only, and the line breaks after this \"---\" are carriage returns: all up to the next line feed is on the separator's line; save the file with LF or CRLF line breaks)"},
		},
	},
	{
		// A comment after it takes the rest of kubectl's line: lost when
		// the line ends a document, the next document's first line when
		// it ends none.
		name: "old Mac CR line endings in a comment after a separator",
		in: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\r# c\rapiVersion: v1\rkind: ConfigMap\rmetadata: {name: b}\n" +
			"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n---\r# d\rapiVersion: v1\rkind: ConfigMap\rmetadata: {name: d}\n",
		want: []got{
			cm(pos(1, 0, -1), "a"),
			{Pos: pos(6, 1, -1), Skip: `not read: kubectl's reader splits lines at line feeds only, and the line breaks after the "---" on line 4 are carriage returns: it takes everything up to the next line feed for that separator's line, a comment after "---"; nothing of it is created (save the file with LF or CRLF line breaks)`},
			cm(pos(10, 2, -1), "c"),
			cm(pos(16, 3, -1), "d"),
		},
	},
	{
		name: "UTF-8 BOM",
		in:   "\ufeffapiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
		want: []got{cm(pos(1, 0, -1), "a")},
	},
	{
		name: "UTF-8 BOM and JSON",
		in:   "\ufeff{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\"}}",
		want: []got{cm(pos(1, 0, -1), "a")},
	},
	{
		name: "helm source comments",
		in: "---\n# Source: mychart/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n" +
			"---\n# Source: mychart/templates/empty.yaml\n" +
			"--- # Source: mychart/templates/b.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n" +
			"---\napiVersion: v1\nkind: ConfigMap\n# Source: not/leading.yaml\nmetadata:\n  name: c\n",
		want: []got{
			cm(srcPos(3, 0, "mychart/templates/cm.yaml"), "a"),
			cm(srcPos(10, 1, "mychart/templates/b.yaml"), "b"),
			cm(pos(15, 2, -1), "c"),
		},
	},
	{
		name: "scalar and sequence documents",
		in:   "just a string\n---\n- a\n- b\n---\n42\n",
		want: []got{
			{Pos: pos(1, 0, -1), Err: "f.yaml:1: error validating \"f.yaml\": error validating data: invalid object to validate; if you choose to ignore these errors, turn validation off with --validate=false (not a Kubernetes object: expected a mapping)"},
			{Pos: pos(3, 1, -1), Err: "f.yaml:3: error validating \"f.yaml\": error validating data: invalid object to validate; if you choose to ignore these errors, turn validation off with --validate=false (not a Kubernetes object: expected a mapping)"},
			{Pos: pos(6, 2, -1), Err: "f.yaml:6: error validating \"f.yaml\": error validating data: invalid object to validate; if you choose to ignore these errors, turn validation off with --validate=false (not a Kubernetes object: expected a mapping)"},
		},
	},
	{
		name: "missing or invalid kind and apiVersion",
		in: "apiVersion: v1\nmetadata:\n  name: a\n" + // 1-3
			"---\n# c\nkind: ConfigMap\nmetadata:\n  name: b\n" + // 4-8
			"---\napiVersion: v1\nkind: \"\"\n" + // 9-11
			"---\nmetadata: {}\napiVersion: 1\nkind: ConfigMap\n" + // 12-15
			"---\napiVersion: v1\nkind: [ConfigMap]\n" + // 16-18
			"---\napiVersion: null\nkind: ConfigMap\n", // 19-21
		want: []got{
			{Pos: pos(1, 0, -1), APIVersion: "v1", Name: "a", Err: "f.yaml:1: kind: error validating \"f.yaml\": error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false"},
			{Pos: pos(6, 1, -1), Kind: "ConfigMap", Name: "b", Err: "f.yaml:6: apiVersion: error validating \"f.yaml\": error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false"},
			{Pos: pos(10, 2, -1), APIVersion: "v1", Err: `f.yaml:10: kind: unable to decode "f.yaml": Object 'Kind' is missing in '{"apiVersion":"v1","kind":""}' (kind is empty)`},
			{Pos: pos(13, 3, -1), Kind: "ConfigMap", Err: "f.yaml:14: apiVersion: error validating \"f.yaml\": error validating data: apiVersion isn't string type; if you choose to ignore these errors, turn validation off with --validate=false (apiVersion is number 1)"},
			{Pos: pos(17, 4, -1), APIVersion: "v1", Err: "f.yaml:18: kind: error validating \"f.yaml\": error validating data: kind isn't string type; if you choose to ignore these errors, turn validation off with --validate=false (kind is array)"},
			{Pos: pos(20, 5, -1), Kind: "ConfigMap", Err: "f.yaml:20: apiVersion: error validating \"f.yaml\": error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false"},
		},
	},
	{
		name: "kind and apiVersion in another case",
		in: "apiversion: v1\nkind: ConfigMap\nmetadata: {name: a}\n" + // 1-3
			"---\napiVersion: v1\nmetadata: {name: b}\nKind: ConfigMap\n", // 4-7
		want: []got{
			{Pos: pos(1, 0, -1), Kind: "ConfigMap", Name: "a", Err: `f.yaml:1: apiVersion: error validating "f.yaml": error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false (the document has "apiversion": keys are case-sensitive)`},
			{Pos: pos(5, 1, -1), APIVersion: "v1", Name: "b", Err: `f.yaml:7: kind: error validating "f.yaml": error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false (the document has "Kind": keys are case-sensitive)`},
		},
	},
	{
		name: "YAML syntax errors report absolute lines",
		in: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n" + // 1-3
			"---\n# comment\n\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n   labels: x\n" + // 4-11
			"---\napiVersion: v1\nkind: ConfigMap\ndata:\n  - a\n  b: c\n" + // 12-17
			"---\napiVersion: v1\nkind: ConfigMap\ndata: [a, b\n" + // 18-21
			"---\napiVersion: v1\nkind: ConfigMap\ndata:\n\tkey: x\n" + // 22-26
			"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: z}\n", // 27-30
		want: []got{
			cm(pos(1, 0, -1), "a"),
			{Pos: pos(7, 1, -1), Err: "f.yaml:11: error parsing f.yaml: error converting YAML to JSON: yaml: line 7: mapping values are not allowed in this context"},
			{Pos: pos(13, 2, -1), Err: "f.yaml:17: error parsing f.yaml: error converting YAML to JSON: yaml: line 4: did not find expected '-' indicator"},
			{Pos: pos(19, 3, -1), Err: "f.yaml:21: error parsing f.yaml: error converting YAML to JSON: yaml: line 3: did not find expected ',' or ']'"},
			{Pos: pos(23, 4, -1), Err: "f.yaml:26: error parsing f.yaml: error converting YAML to JSON: yaml: line 4: found character that cannot start any token"},
			// kubectl stops reading the file at its first YAML error (IN-12).
			{Pos: pos(28, 5, -1), APIVersion: "v1", Kind: "ConfigMap", Name: "z", Obj: partial, Skip: "not created: kubectl stops reading f.yaml at the error on line 11"},
		},
	},
	{
		name: "an unquoted value starting with *: an alias",
		in: "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  schedule: */5 * * * *\n" + // 1-5
			"---\napiVersion: v1\nkind: ConfigMap\ndata:\n  globs:\n  - *.txt\n" + // 6-11
			"---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\nrules:\n- apiGroups: [\"*\"]\n  resources: [pods, *]\n", // 12-18
		want: []got{
			{Pos: pos(1, 0, -1), Err: `f.yaml:5: error parsing f.yaml: error converting YAML to JSON: yaml: line 5: did not find expected alphabetic or numeric character (YAML reads a value starting with * as an alias: quote it, schedule: "*/5 * * * *")`},
			{Pos: pos(7, 1, -1), Err: `f.yaml:11: error parsing f.yaml: error converting YAML to JSON: yaml: line 5: did not find expected alphabetic or numeric character (YAML reads a value starting with * as an alias: quote it, "*.txt")`},
			{Pos: pos(13, 2, -1), Err: `f.yaml:18: error parsing f.yaml: error converting YAML to JSON: yaml: line 6: did not find expected alphabetic or numeric character (YAML reads a value starting with * as an alias: quote it, "*")`},
		},
	},
	{
		name: "YAML errors without a line",
		in:   "apiVersion: v1\nkind: ConfigMap\nmetadata: *nope\n---\napiVersion: v1\nkind: ConfigMap\ndata:\n  ? [a]\n  : b\n",
		want: []got{
			{Pos: pos(1, 0, -1), Err: `f.yaml:3: error parsing f.yaml: error converting YAML to JSON: yaml: unknown anchor 'nope' referenced (YAML reads a value starting with * as an alias: quote it, metadata: "*nope")`},
			{Pos: pos(5, 1, -1), Err: `f.yaml:5: error parsing f.yaml: error converting YAML to JSON: yaml: invalid map key: []interface {}{"a"}`},
		},
	},
	{
		name: "invalid document separator",
		in:   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n--- {apiVersion: v1}\nkind: ConfigMap\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n",
		want: []got{
			// kubectl fails on the separator with a unsent: it stops there
			// (IN-12).
			{Pos: pos(1, 0, -1), APIVersion: "v1", Kind: "ConfigMap", Name: "a", Obj: partial, Skip: "not created: kubectl fails on the invalid separator on line 4 before it sends this document, and stops reading f.yaml there"},
			{Pos: pos(4, 1, -1), Err: `f.yaml:4: error parsing f.yaml: invalid Yaml document separator: {apiVersion: v1} ("---" may only be followed by a comment on its line)`},
			{Pos: pos(7, 2, -1), APIVersion: "v1", Kind: "ConfigMap", Name: "b", Obj: partial, Skip: "not created: kubectl stops reading f.yaml at the error on line 4"},
		},
	},
	{
		name: "List with item lines",
		in: "# kubectl get -o yaml\n" + // 1
			"apiVersion: v1\n" + // 2
			"kind: List\n" + // 3
			"items:\n" + // 4
			"- apiVersion: v1\n" + // 5
			"  kind: ConfigMap\n" + // 6
			"  metadata:\n" + // 7
			"    name: a\n" + // 8
			"-\n" + // 9
			"  apiVersion: v1\n" + // 10
			"  kind: ConfigMap\n" + // 11
			"  metadata: {name: b, namespace: x}\n" + // 12
			"---\n" + // 13
			"apiVersion: v1\n" + // 14
			"kind: ConfigMap\n" + // 15
			"metadata: {name: after}\n", // 16
		want: []got{
			cm(pos(5, 0, 0), "a"),
			{Pos: pos(10, 0, 1), APIVersion: "v1", Kind: "ConfigMap", Namespace: "x", Name: "b", Obj: partial},
			cm(pos(14, 1, -1), "after"),
		},
	},
	{
		// kubectl validates a v1 List's items before it sends any
		// (k8s.io/kubectl/pkg/validation: validateList).
		name: "v1 List with an item that does not say what it is",
		in: "apiVersion: v1\n" + // 1
			"kind: List\n" + // 2
			"items:\n" + // 3
			"- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n" + // 4
			"- kind: ConfigMap\n" + // 5
			"- 7\n" + // 6
			"- {apiVersion: a/b/c, kind: [x]}\n" + // 7
			"---\n" + // 8
			"apiVersion: v1\n" + // 9
			"kind: List\n" + // 10
			"items:\n" + // 11
			"- {apiVersion: 1, kind: ConfigMap}\n", // 12
		want: []got{
			{Pos: pos(1, 0, -1), APIVersion: "v1", Kind: "List", Err: "f.yaml:5: items[1]: apiVersion not set (and 2 more items): kubectl validates a v1 List's items before it sends any, so none of them is created, and it stops reading the file there"},
			{Pos: pos(9, 1, -1), APIVersion: "v1", Kind: "List", Err: "f.yaml:12: items[0]: apiVersion isn't string type: kubectl validates a v1 List's items before it sends any, so none of them is created, and it stops reading the file there"},
		},
	},
	{
		// kubectl parses the apiVersion before it sends the object, and
		// stops reading the file at one that is not group/version (IN-12).
		name: "apiVersion that is not group/version",
		in:   "apiVersion: apps/v1/beta\nkind: Deployment\nmetadata: {name: d}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: after}\n",
		want: []got{
			{Pos: pos(1, 0, -1), APIVersion: "apps/v1/beta", Kind: "Deployment", Name: "d", Err: "f.yaml:1: apiVersion: error validating \"f.yaml\": error validating data: unexpected GroupVersion string: apps/v1/beta; if you choose to ignore these errors, turn validation off with --validate=false (want group/version, e.g. apps/v1, or v1 for the core group)"},
			{Pos: pos(5, 1, -1), APIVersion: "v1", Kind: "ConfigMap", Name: "after", Obj: partial, Skip: "not created: kubectl stops reading f.yaml at the error on line 1"},
		},
	},
	{
		// Each item is checked against its kind's schema first: an unknown
		// field in one refuses them all (ValidationError(...)).
		name: "list whose item has a schema error",
		in: "apiVersion: v1\n" + // 1
			"kind: PodList\n" + // 2
			"items:\n" + // 3
			"- {apiVersion: v1, kind: Pod, metadata: {name: p0}}\n" + // 4
			"- apiVersion: v1\n" + // 5
			"  kind: Pod\n" + // 6
			"  metadata: {name: p1}\n" + // 7
			"  spec: {bogus: 1}\n" + // 8
			"---\n" + // 9
			"apiVersion: v1\n" + // 10
			"kind: List\n" + // 11
			"items:\n" + // 12
			"- {apiVersion: v1, kind: Pod, metadata: {name: c}, spec: {containers: {}}}\n", // 13
		want: []got{
			{Pos: pos(1, 0, -1), APIVersion: "v1", Kind: "PodList", Err: `f.yaml:8: spec.bogus: unknown field "bogus"; kubectl validates every item of a list against the API's schema before it sends any, so none of the list's 2 items is created, and it stops reading the file there`},
			{Pos: pos(10, 1, -1), APIVersion: "v1", Kind: "List", Err: `f.yaml:13: spec.containers: expected array, got object; kubectl validates every item of a list against the API's schema before it sends any, so the list's item is not created, and it stops reading the file there`},
		},
	},
	{
		name: "PodList and nested List",
		in: "apiVersion: v1\n" + // 1
			"kind: PodList\n" + // 2
			"metadata: {resourceVersion: \"1\"}\n" + // 3
			"items:\n" + // 4
			"  - apiVersion: v1\n" + // 5
			"    kind: Pod\n" + // 6
			"    metadata: {name: p0}\n" + // 7
			"  - apiVersion: v1\n" + // 8
			"    kind: List\n" + // 9
			"    items:\n" + // 10
			"    - apiVersion: v1\n" + // 11
			"      kind: Pod\n" + // 12
			"      metadata: {name: p1}\n" + // 13
			"    - {apiVersion: v1, kind: ConfigMap, metadata: {name: c2}}\n" + // 14
			"  - apiVersion: v1\n" + // 15
			"    kind: Pod\n" + // 16
			"    metadata: {name: p3}\n" + // 17
			"    spec: {}\n" + // 18
			"---\n" + // 19
			"apiVersion: v1\n" + // 20
			"kind: List\n" + // 21
			"items: []\n" + // 22
			"---\n" + // 23
			"apiVersion: v1\n" + // 24
			"kind: List\n" + // 25
			"---\n" + // 26
			"apiVersion: v1\n" + // 27
			"kind: List\n" + // 28
			"items: {}\n" + // 29
			"---\n" + // 30
			"apiVersion: example.com/v1\n" + // 31
			"kind: WidgetList\n" + // 32
			"metadata: {name: not-a-list}\n", // 33
		want: []got{
			{Pos: pos(1, 0, -1), APIVersion: "v1", Kind: "PodList", Err: "f.yaml:8: items[1]: a list inside a list: kubectl takes only one level apart and creates none of the items (*unstructured.Unstructured is not a list: no Items field in this object), and stops reading the file there: put its items in the outer list"},
			{Pos: pos(20, 1, -1), APIVersion: "v1", Kind: "List", Skip: "a list without items: nothing to create"},
			{Pos: pos(24, 2, -1), APIVersion: "v1", Kind: "List", Err: "f.yaml:24: items: is missing: kubectl refuses a v1 List without an items array (error validating data: invalid object to validate), and stops reading the file there; write items: [] for an empty List"},
			{Pos: pos(27, 3, -1), APIVersion: "v1", Kind: "List", Err: "f.yaml:29: items: expected array, got object: kubectl refuses a v1 List without an items array (error validating data: invalid object to validate), and stops reading the file there; write items: [] for an empty List"},
			{Pos: pos(31, 4, -1), APIVersion: "example.com/v1", Kind: "WidgetList", Name: "not-a-list", Obj: partial, Skip: "not created: kubectl stops reading f.yaml at the error on line 8"},
		},
	},
	{
		name: "items that name neither apiVersion nor kind take the list's",
		in: "apiVersion: v1\nkind: ConfigMapList\nitems:\n- metadata: {name: a}\n- {}\n- {kind: Secret, metadata: {name: s}}\n" + // 1-6
			"---\napiVersion: v1\nkind: List\nitems:\n- metadata: {name: b}\n", // 7-11
		want: []got{
			{Pos: pos(4, 0, 0), APIVersion: "v1", Kind: "ConfigMap", Name: "a", Obj: partial},
			{Pos: pos(5, 0, 1), APIVersion: "v1", Kind: "ConfigMap", Obj: partial},
			{Pos: pos(6, 0, 2), Kind: "Secret", Name: "s", Err: "f.yaml:6: apiVersion: is required"},
			{Pos: pos(8, 1, -1), APIVersion: "v1", Kind: "List", Err: "f.yaml:11: items[0]: apiVersion not set, kind not set: kubectl validates a v1 List's items before it sends any, so none of them is created, and it stops reading the file there"},
		},
	},
	{
		// Without Options.ListNotMapped the loader cannot tell a built-in
		// kind's list, whose schema requires items (testdata/script/lists.txtar).
		name: "Lists with null or no items",
		in: "apiVersion: v1\n" + // 1
			"kind: ConfigMapList\n" + // 2
			"items:\n" + // 3
			"---\n" + // 4
			"apiVersion: v1\n" + // 5
			"kind: PodList\n" + // 6
			"items: null\n" + // 7
			"---\n" + // 8
			"apiVersion: v1\n" + // 9
			"kind: ConfigMapList\n" + // 10
			"items: {}\n" + // 11
			"---\n" + // 12
			"apiVersion: v1\n" + // 13
			"kind: ConfigMap\n" + // 14
			"metadata: {name: after}\n", // 15
		want: []got{
			{Pos: pos(1, 0, -1), APIVersion: "v1", Kind: "ConfigMapList", Skip: "a list without items: nothing to create"},
			{Pos: pos(5, 1, -1), APIVersion: "v1", Kind: "PodList", Skip: "a list without items: nothing to create"},
			{Pos: pos(9, 2, -1), APIVersion: "v1", Kind: "ConfigMapList", Err: "f.yaml:11: items: expected array, got object"},
			cm(pos(13, 3, -1), "after"),
		},
	},
	{
		name: "decode errors name the field and its line",
		in: "apiVersion: apps/v1\n" + // 1
			"kind: Deployment\n" + // 2
			"metadata:\n" + // 3
			"  name: web\n" + // 4
			"spec:\n" + // 5
			"  template:\n" + // 6
			"    spec:\n" + // 7
			"      containers:\n" + // 8
			"      - name: a\n" + // 9
			"        image: x\n" + // 10
			"      - name: b\n" + // 11
			"        resources:\n" + // 12
			"          limits:\n" + // 13
			"            cpu: 1.5.Gi\n" + // 14
			"            nvidia.com/gpu: lots\n" + // 15
			"---\n" + // 16
			"apiVersion: v1\n" + // 17
			"kind: Pod\n" + // 18
			"metadata: {name: p}\n" + // 19
			"spec:\n" + // 20
			"  containers:\n" + // 21
			"  - name: c\n" + // 22
			"    resourcess: {}\n" + // 23
			"    imagePullPolicy: Always\n" + // 24
			"    ports:\n" + // 25
			"    - {containerPort: 80}\n" + // 26
			"---\n" + // 27
			"apiVersion: v1\n" + // 28
			"kind: Pod\n" + // 29
			"metadata: {name: q}\n" + // 30
			"spec:\n" + // 31
			"  containers:\n" + // 32
			"  - name: c\n" + // 33
			"    ports:\n" + // 34
			"    - containerPort: abc\n" + // 35
			"  priority: 1.5\n" + // 36
			"---\n" + // 37
			"apiVersion: v1\n" + // 38
			"kind: Pod\n" + // 39
			"metadata: {name: r}\n" + // 40
			"spec:\n" + // 41
			"  containers:\n" + // 42
			"  - name: c\n" + // 43
			"    resources:\n" + // 44
			"      requests: {nvidia.com/gpu: lots}\n" + // 45
			"---\n" + // 46
			"apiVersion: example.com/v1\n" + // 47
			"kind: Widget\n" + // 48
			"metadata:\n" + // 49
			"  name: w\n" + // 50
			"  labels:\n" + // 51
			"    app: 5\n" + // 52
			"spec: {anything: [goes]}\n" + // 53
			"---\n" + // 54
			"apiVersion: v1\n" + // 55
			"kind: Pod\n" + // 56
			"metadata: {name: s}\n" + // 57
			"spec:\n" + // 58
			"  containers:\n" + // 59
			"  - name: c\n" + // 60
			"    ports:\n" + // 61
			"    - containerPort: 3000000000\n" + // 62
			"      protocol: true\n", // 63
		want: []got{
			{Pos: pos(1, 0, -1), APIVersion: "apps/v1", Kind: "Deployment", Name: "web",
				Err: `f.yaml:14: spec.template.spec.containers[1].resources.limits.cpu: Deployment in version "v1" cannot be handled as a Deployment: ` + quantityR + ` (got "1.5.Gi")`},
			{Pos: pos(17, 1, -1), APIVersion: "v1", Kind: "Pod", Name: "p",
				Err: `f.yaml:23: spec.containers[0].resourcess: Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[0].resourcess" (did you mean "resources"?)`},
			{Pos: pos(28, 2, -1), APIVersion: "v1", Kind: "Pod", Name: "q",
				Err: `f.yaml:35: spec.containers[0].ports[0].containerPort: Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32`},
			{Pos: pos(38, 3, -1), APIVersion: "v1", Kind: "Pod", Name: "r",
				Err: `f.yaml:45: spec.containers[0].resources.requests[nvidia.com/gpu]: Pod in version "v1" cannot be handled as a Pod: ` + quantityR + ` (got "lots")`},
			{Pos: pos(47, 4, -1), APIVersion: "example.com/v1", Kind: "Widget", Name: "w",
				Err: `f.yaml:52: metadata.labels.app: unable to decode "f.yaml": json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string (YAML reads the unquoted 5 as a number: write "5" for a string)`},
			{Pos: pos(55, 5, -1), APIVersion: "v1", Kind: "Pod", Name: "s",
				Err: `f.yaml:62: spec.containers[0].ports[0].containerPort: Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 3000000000 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32`},
		},
	},
	{
		name: "JSON single object",
		in:   "\n\n  {\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Pod\",\n    \"metadata\": {\"name\": \"p\", \"namespace\": \"ns\"}\n  }\n",
		want: []got{{Pos: pos(3, 0, -1), APIVersion: "v1", Kind: "Pod", Namespace: "ns", Name: "p", Obj: pod}},
	},
	{
		name: "concatenated JSON objects",
		in: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}` + "\n" + // 1
			"null\n" + // 2
			"{\n" + // 3
			"  \"apiVersion\": \"v1\",\n" + // 4
			"  \"kind\": \"Pod\",\n" + // 5
			"  \"metadata\": {\"name\": \"p\"},\n" + // 6
			"  \"spec\": {\"containers\": [{\"name\": \"c\",\n" + // 7
			"    \"resources\": {\"limits\": {\"cpu\": \"1.5.Gi\"}}}]}\n" + // 8
			"}\n" + // 9
			"[{\"apiVersion\": \"v1\"}]\n" + // 10
			"\"str\"\n" + // 11
			"{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"d\"},\n" + // 12
			" \"kind\": \"Pod\"}\n" + // 13
			"{\"kind\": \"List\", \"apiVersion\": \"v1\", \"items\": [\n" + // 14
			"  {\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"i0\"}},\n" + // 15
			"  {\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"i1\"}}\n" + // 16
			"]}\n" + // 17
			"{\"apiVersion\": \"v1\",\n" + // 18
			" \"kind\": }\n" + // 19
			"{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\"}\n", // 20 (never reached)
		want: []got{
			cm(pos(1, 0, -1), "a"),
			cm(pos(1, 1, -1), "b"),
			{Pos: pos(3, 2, -1), APIVersion: "v1", Kind: "Pod", Name: "p",
				Err: `f.yaml:8: spec.containers[0].resources.limits.cpu: Pod in version "v1" cannot be handled as a Pod: ` + quantityR + ` (got "1.5.Gi")`},
			{Pos: pos(10, 3, -1), Err: "f.yaml:10: expected a JSON object"},
			{Pos: pos(11, 4, -1), Err: "f.yaml:11: expected a JSON object"},
			{Pos: pos(12, 5, -1), APIVersion: "v1", Kind: "Pod", Name: "d", Obj: "*v1.Pod"}, // kubectl keeps the last "kind" (IN-04)
			cm(pos(15, 6, 0), "i0"),
			cm(pos(16, 6, 1), "i1"),
			{Pos: pos(18, 7, -1), Err: "f.yaml:19: error parsing f.yaml: invalid character '}' looking for beginning of value; the remaining 43 bytes of f.yaml were not read"},
		},
	},
	{
		name: "truncated JSON",
		in:   "{\"apiVersion\": \"v1\",\n \"kind\": \"ConfigMap\"",
		want: []got{{Pos: pos(1, 0, -1), Err: "f.yaml:1: error parsing f.yaml: unexpected EOF"}},
	},
	{
		// kubectl reads it as JSON, fails, then reads it as YAML (IN-14).
		name: "flow mapping at the start is JSON, then YAML",
		in:   "{apiVersion: v1}\n",
		want: []got{{Pos: pos(1, 0, -1), APIVersion: "v1", Err: "f.yaml:1: kind: error validating \"f.yaml\": error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false"}},
	},
	{
		name: "empty stream",
		in:   "\n# nothing here\n---\n---\n...\n",
	},
}

func TestReadStream(t *testing.T) {
	for _, tc := range streamCases {
		t.Run(tc.name, func(t *testing.T) {
			gs, _ := readAll(t, "f.yaml", tc.in, typedOpts)
			compare(t, gs, tc.want)
		})
	}
}

func TestQuantityNumberVersusString(t *testing.T) {
	in := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    resources:\n" +
		"      limits: {cpu: 1e3, memory: \"1e3\"}\n      requests: {cpu: 0.5, memory: 1Gi}\n"
	gs, ds := readAll(t, "f.yaml", in, typedOpts)
	compare(t, gs, []got{{Pos: pos(1, 0, -1), APIVersion: "v1", Kind: "Pod", Name: "p", Obj: pod}})
	if len(ds) != 1 {
		t.Fatalf("got %d documents", len(ds))
	}
	if want := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":1000,"memory":"1e3"},"requests":{"cpu":0.5,"memory":"1Gi"}}}]}}`; string(ds[0].JSON) != want {
		t.Errorf("JSON:\n got  %s\n want %s", ds[0].JSON, want)
	}
	p := ds[0].Object.(*corev1.Pod)
	r := p.Spec.Containers[0].Resources
	for _, c := range []struct{ name, got, want string }{
		{"limits.cpu", r.Limits.Cpu().String(), "1k"},
		{"limits.memory", r.Limits.Memory().String(), "1e3"},
		{"requests.cpu", r.Requests.Cpu().String(), "500m"},
		{"requests.memory", r.Requests.Memory().String(), "1Gi"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
	if p.Name != "p" || p.Kind != "Pod" || p.APIVersion != "v1" {
		t.Errorf("typed object meta = %q %q %q", p.APIVersion, p.Kind, p.Name)
	}
}

func TestPartialObjectMetadata(t *testing.T) {
	in := "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: ns\n  labels: {a: b}\n  annotations: {x: \"1\"}\nspec: {replicas: 3}\n"
	_, ds := readAll(t, "f.yaml", in, Options{})
	if len(ds) != 1 {
		t.Fatalf("got %d documents", len(ds))
	}
	want := &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{Name: "w", Namespace: "ns", Labels: map[string]string{"a": "b"}, Annotations: map[string]string{"x": "1"}},
	}
	if !reflect.DeepEqual(ds[0].Object, want) {
		t.Errorf("Object = %#v\nwant %#v", ds[0].Object, want)
	}
	// Without NewObject, Pods are not decoded strictly either.
	gs, _ := readAll(t, "f.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {bogus: 1}\n", Options{})
	compare(t, gs, []got{{Pos: pos(1, 0, -1), APIVersion: "v1", Kind: "Pod", Name: "p", Obj: partial}})
}

func TestErrorString(t *testing.T) {
	for _, c := range []struct {
		e    Error
		want string
	}{
		{Error{File: "a.yaml", Line: 3, Field: "spec.x", Msg: "bad"}, "a.yaml:3: spec.x: bad"},
		{Error{File: "a.yaml", Field: "spec.x", Msg: "bad"}, "a.yaml: spec.x: bad"},
		{Error{File: "a.yaml", Line: 3, Msg: "bad"}, "a.yaml:3: bad"},
		{Error{File: "a.yaml", Msg: "bad"}, "a.yaml: bad"},
		{Error{Msg: `path "x" does not exist`}, `path "x" does not exist`},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%+v.Error() = %q, want %q", c.e, got, c.want)
		}
	}
}

// writeTree creates files (path -> contents) under a new temp dir.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func cmYAML(name string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n"
}

// walkNames returns "file:name" for each document Walk yields, with paths
// relative to base.
func walkNames(t *testing.T, base string, paths []string, stdin io.Reader, opts Options) ([]string, error) {
	t.Helper()
	var out []string
	err := Walk(paths, stdin, opts, func(d Document) bool {
		f := d.Pos.File
		if rel, err := filepath.Rel(base, f); err == nil && !strings.HasPrefix(rel, "..") {
			f = filepath.ToSlash(rel)
		}
		if d.Err != nil {
			out = append(out, f+"!"+d.Err.Msg)
		} else {
			out = append(out, fmt.Sprintf("%s:%d:%s", f, d.Pos.Line, d.Name))
		}
		return true
	})
	return out, err
}

func TestWalk(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"b.yaml":            cmYAML("b"),
		"a.yml":             cmYAML("a"),
		"c.json":            `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}`,
		"notes.txt":         cmYAML("txt"),
		"README.md":         "# not yaml",
		"sub/z.yaml":        cmYAML("sub-z"),
		"sub/deeper/y.yaml": cmYAML("deeper-y"),
		"aa/x.yaml":         "\n" + cmYAML("aa-x") + "---\n" + cmYAML("aa-x2"),
		"m.yaml.bak":        cmYAML("bak"),
		"UPPER.YAML":        cmYAML("upper"),
	})
	for _, tc := range []struct {
		name  string
		paths []string
		opts  Options
		want  []string
	}{
		{
			name:  "directory",
			paths: []string{dir},
			want:  []string{"a.yml:1:a", "b.yaml:1:b", "c.json:1:c"},
		},
		{
			name:  "recursive",
			paths: []string{dir},
			opts:  Options{Recursive: true},
			want:  []string{"a.yml:1:a", "aa/x.yaml:2:aa-x", "aa/x.yaml:7:aa-x2", "b.yaml:1:b", "c.json:1:c", "sub/deeper/y.yaml:1:deeper-y", "sub/z.yaml:1:sub-z"},
		},
		{
			name:  "files of any extension, in argument order",
			paths: []string{filepath.Join(dir, "notes.txt"), filepath.Join(dir, "sub"), filepath.Join(dir, "a.yml")},
			want:  []string{"notes.txt:1:txt", "sub/z.yaml:1:sub-z", "a.yml:1:a"},
		},
		{
			name:  "stdin",
			paths: []string{filepath.Join(dir, "b.yaml"), "-", filepath.Join(dir, "a.yml")},
			want:  []string{"b.yaml:1:b", "<stdin>:2:from-stdin", "a.yml:1:a"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdin := strings.NewReader("---\n" + cmYAML("from-stdin"))
			got, err := walkNames(t, dir, tc.paths, stdin, tc.opts)
			if err != nil {
				t.Fatalf("Walk: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}

	t.Run("file names are joined with the directory", func(t *testing.T) {
		var files []string
		err := Walk([]string{dir + string(filepath.Separator)}, nil, Options{}, func(d Document) bool {
			files = append(files, d.Pos.File)
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{filepath.Join(dir, "a.yml"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "c.json")}
		if !reflect.DeepEqual(files, want) {
			t.Errorf("got %q, want %q", files, want)
		}
	})

	t.Run("Reading names each file read, in walk order, before its documents", func(t *testing.T) {
		var events []string
		rel := func(p string) string {
			if r, err := filepath.Rel(dir, p); err == nil && p != StdinName {
				return filepath.ToSlash(r)
			}
			return p
		}
		opts := Options{Recursive: true, Ignore: []string{"deeper"}, Reading: func(f string) { events = append(events, "read "+rel(f)) }}
		paths := []string{filepath.Join(dir, "sub"), "-", filepath.Join(dir, "sub", "z.yaml"), filepath.Join(dir, "notes.txt")}
		err := Walk(paths, strings.NewReader(""), opts, func(d Document) bool {
			events = append(events, "doc "+rel(d.Pos.File))
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"read sub/z.yaml", "doc sub/z.yaml", "read <stdin>", "read notes.txt", "doc notes.txt"}
		if !reflect.DeepEqual(events, want) {
			t.Errorf("got  %q\nwant %q", events, want)
		}
	})

	t.Run("stop early", func(t *testing.T) {
		n := 0
		err := Walk([]string{dir}, nil, Options{Recursive: true}, func(d Document) bool {
			n++
			return n < 2
		})
		if err != nil || n != 2 {
			t.Errorf("n=%d err=%v, want 2 <nil>", n, err)
		}
	})
}

func TestWalkErrors(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.yaml": cmYAML("a")})
	missing := filepath.Join(dir, "missing.yaml")
	for _, tc := range []struct {
		name  string
		paths []string
		want  string
	}{
		{"missing path", []string{filepath.Join(dir, "a.yaml"), missing}, fmt.Sprintf("path %q does not exist", missing)},
		{"relative missing path", []string{"no/such/dir"}, `path "no/such/dir" does not exist`},
		{"URL", []string{"https://k8s.io/examples/admin/resource/cpu-constraints.yaml"}, `path "https://k8s.io/examples/admin/resource/cpu-constraints.yaml" does not exist: limitcheck reads local files only, not URLs (download it first, e.g. curl -LO https://k8s.io/examples/admin/resource/cpu-constraints.yaml)`},
		{"stdin twice", []string{"-", filepath.Join(dir, "a.yaml"), "-"}, `"-" (stdin) given more than once`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			err := Walk(tc.paths, strings.NewReader(cmYAML("s")), Options{}, func(Document) bool { n++; return true })
			if err == nil {
				t.Fatal("no error")
			}
			var e *Error
			if !asError(err, &e) {
				t.Fatalf("error %T is not *Error", err)
			}
			if err.Error() != tc.want {
				t.Errorf("error = %q, want %q", err.Error(), tc.want)
			}
			if n != 0 {
				t.Errorf("%d documents yielded before the error", n)
			}
		})
	}

	t.Run("unreadable file", func(t *testing.T) {
		if os.Getuid() == 0 {
			t.Skip("root can read anything")
		}
		p := filepath.Join(dir, "secret.yaml")
		if err := os.WriteFile(p, []byte(cmYAML("x")), 0); err != nil {
			t.Fatal(err)
		}
		err := Walk([]string{p}, nil, Options{}, func(Document) bool { return true })
		if want := fmt.Sprintf("cannot read path %q: permission denied", p); err == nil || err.Error() != want {
			t.Errorf("error = %v, want %q", err, want)
		}
	})
}

func asError(err error, target **Error) bool {
	e, ok := err.(*Error)
	if ok {
		*target = e
	}
	return ok
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, fmt.Errorf("boom") }

func TestReadStreamReadError(t *testing.T) {
	err := ReadStream("<stdin>", failingReader{}, Options{}, func(Document) bool { return true })
	if err == nil || err.Error() != "<stdin>: cannot read: boom" {
		t.Errorf("error = %v", err)
	}
}

func TestReadStreamStopsEarly(t *testing.T) {
	in := cmYAML("a") + "---\n" + cmYAML("b") + "---\napiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(cmYAML("c"), "\n", "\n  ") + "\n"
	var names []string
	err := ReadStream("f", strings.NewReader(in), Options{}, func(d Document) bool {
		names = append(names, d.Name)
		return len(names) < 2
	})
	if err != nil || !reflect.DeepEqual(names, []string{"a", "b"}) {
		t.Errorf("names=%q err=%v", names, err)
	}
}

func TestWalkBrokenSymlink(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.yaml": cmYAML("a")})
	link := filepath.Join(dir, "b.yaml")
	if err := os.Symlink(filepath.Join(dir, "nowhere.yaml"), link); err != nil {
		t.Skip("no symlinks:", err)
	}
	// A symlinked directory is not descended into, even with Recursive.
	if err := os.Symlink(dir, filepath.Join(dir, "loop")); err != nil {
		t.Fatal(err)
	}
	var names, errs []string
	err := Walk([]string{dir}, nil, Options{Recursive: true}, func(d Document) bool {
		if d.Err != nil {
			errs = append(errs, d.Err.Error())
		}
		names = append(names, d.Name)
		return true
	})
	if err != nil {
		t.Errorf("error = %v, want none: the link is an error of its path (IN-02)", err)
	}
	want := fmt.Sprintf("%s: open %s: no such file or directory (a symbolic link to %q, which does not exist; --ignore-path b.yaml leaves it out)", link, link, filepath.Join(dir, "nowhere.yaml"))
	if !reflect.DeepEqual(errs, []string{want}) {
		t.Errorf("errors = %q, want %q", errs, want)
	}
	if !reflect.DeepEqual(names, []string{"a", ""}) {
		t.Errorf("names = %q", names)
	}
}

func TestMergeKeysAndAliases(t *testing.T) {
	in := "apiVersion: v1\n" + // 1
		"kind: List\n" + // 2
		"items:\n" + // 3
		"- &base\n" + // 4
		"  apiVersion: v1\n" + // 5
		"  kind: Pod\n" + // 6
		"  metadata: {name: a}\n" + // 7
		"  spec: &spec\n" + // 8
		"    containers:\n" + // 9
		"    - name: c\n" + // 10
		"      resources: {limits: {cpu: 2x}}\n" + // 11
		"- <<: *base\n" + // 12
		"  metadata: {name: b}\n" + // 13
		"- *base\n" // 14
	gs, _ := readAll(t, "f.yaml", in, typedOpts)
	e := `spec.containers[0].resources.limits.cpu: Pod in version "v1" cannot be handled as a Pod: ` + quantityR + ` (got "2x")`
	compare(t, gs, []got{
		{Pos: pos(4, 0, 0), APIVersion: "v1", Kind: "Pod", Name: "a", Err: "f.yaml:11: " + e},
		{Pos: pos(12, 0, 1), APIVersion: "v1", Kind: "Pod", Name: "b", Err: "f.yaml:11: " + e},
		{Pos: pos(4, 0, 2), APIVersion: "v1", Kind: "Pod", Name: "a", Err: "f.yaml:11: " + e},
	})
}

func TestPathologicalInputs(t *testing.T) {
	deepList := strings.Repeat(`{"apiVersion":"v1","kind":"List","items":[`, 150) + strings.Repeat("]}", 150)
	for _, tc := range []struct {
		name string
		in   string
		want []got
	}{
		{
			name: "deeply nested YAML flow sequences",
			in:   "apiVersion: v1\nkind: ConfigMap\ndata: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n",
			want: []got{{Pos: pos(1, 0, -1), Err: "f.yaml:3: error parsing f.yaml: error converting YAML to JSON: yaml: line 3: exceeded max depth of 10000"}},
		},
		{
			name: "deeply nested JSON",
			in:   `{"apiVersion":"v1","kind":"ConfigMap","data":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "}",
			want: []got{{Pos: pos(1, 0, -1), Err: "f.yaml:1: error parsing f.yaml: json: offset 10045: invalid character '[' exceeded max depth"}},
		},
		{
			name: "Lists nested too deeply",
			in:   deepList,
			want: []got{{Pos: pos(1, 0, -1), APIVersion: "v1", Kind: "List", Err: "f.yaml:1: items[0]: a list inside a list: kubectl takes only one level apart and creates none of the items (*unstructured.Unstructured is not a list: no Items field in this object), and stops reading the file there: put its items in the outer list"}},
		},
		{
			name: "alias bomb",
			in: "apiVersion: v1\nkind: ConfigMap\n" +
				"a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
				"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n" +
				"g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n",
			want: []got{{Pos: pos(1, 0, -1), Err: "f.yaml:1: error parsing f.yaml: error converting YAML to JSON: yaml: document contains excessive aliasing"}},
		},
		{
			name: "binary garbage",
			in:   "apiVersion: v1\nkind: ConfigMap\n\x00\x01\xff\xfe",
			want: []got{{Pos: pos(1, 0, -1), Err: "f.yaml:3: error parsing f.yaml: error converting YAML to JSON: yaml: control characters are not allowed (binary data, not YAML or JSON: a NUL byte at offset 31; the rest of f.yaml was not read)"}},
		},
		{
			name: "control characters",
			in:   "apiVersion: v1\nkind: ConfigMap\n\x01\xff\xfe",
			want: []got{{Pos: pos(1, 0, -1), Err: "f.yaml:3: error parsing f.yaml: error converting YAML to JSON: yaml: control characters are not allowed"}},
		},
		{
			// Read as kubectl reads it: U+FFFD for the byte (IN-05).
			name: "invalid UTF-8 on a later line",
			in:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: \xff\n",
			want: []got{{Pos: pos(1, 0, -1), APIVersion: "v1", Kind: "ConfigMap", Name: "\uFFFD", Obj: partial}},
		},
		{
			// A JSON error's offset is in the stream kubectl decodes, where
			// each byte that is not UTF-8 is U+FFFD, three bytes (IN-05;
			// kubectl 1.36.3 said offset 172).
			name: "invalid UTF-8 before a JSON error",
			in: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"u8j2"},"data":{"a":"` + "\xe9\xe9" + `"}}` + "\n" +
				`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"u8j3"},"data":{"a":"` + "\xff" + `" "b"}}` + "\n",
			want: []got{
				{Pos: pos(1, 0, -1), APIVersion: "v1", Kind: "ConfigMap", Name: "u8j2", Obj: partial},
				{Pos: pos(2, 1, -1), Err: `f.yaml:2: error parsing f.yaml: json: offset 172: invalid character '"' after object key:value pair`},
			},
		},
		{
			// A NUL in JSON is JSON's error, as kubectl says it (IN-01;
			// kubectl 1.36.3 said the same).
			name: "a NUL byte in a JSON string",
			in:   `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"nulj"}}` + "\n" + `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"nulj2"},"data":{"a":"x` + "\x00" + `y"}}` + "\n",
			want: []got{
				cm(pos(1, 0, -1), "nulj"),
				{Pos: pos(2, 1, -1), Err: `f.yaml:2: error parsing f.yaml: json: offset 147: invalid character '\x00' in string literal (binary data, not YAML or JSON: a NUL byte at offset 146; the rest of f.yaml was not read)`},
			},
		},
		{
			// kubectl looks for the "{" of a JSON stream in its first 4096
			// bytes (IN-14): after as much white space, the stream is YAML,
			// and YAML reads the first of two values on a line.
			name: "JSON after 4096 bytes of white space",
			in:   strings.Repeat(" ", 4096) + `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}} {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}` + "\n",
			want: []got{cm(pos(1, 0, -1), "a")},
		},
		{
			// kubectl's sniff skips any Unicode white space: a form feed
			// before "{" makes a JSON stream whose decoder fails on it at
			// once; kubectl then reads YAML after the white space, up to
			// the first line break, and YAML reads the first of two
			// values on a line (compared with kubectl 1.36.3).
			name: "a form feed before JSON",
			in:   "\f" + `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}} {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}` + "\n",
			want: []got{cm(pos(1, 0, -1), "a")},
		},
		{
			name: "Unicode white space around JSON",
			in:   "\f\n" + `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}` + "\n\u2003" + `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}` + "\n",
			want: []got{cm(pos(2, 0, -1), "a")},
		},
		{
			// A stream that is YAML is read from its start: a no-break
			// space is no blank line for YAML.
			name: "a no-break space before YAML",
			in:   "\u00a0\nkind: ConfigMap\napiVersion: v1\nmetadata: {name: a}\n",
			want: []got{{Pos: pos(1, 0, -1), Err: "f.yaml:2: error parsing f.yaml: error converting YAML to JSON: yaml: line 2: mapping values are not allowed in this context"}},
		},
		{
			name: "JSON after 4095 bytes of white space",
			in:   strings.Repeat(" ", 4095) + `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}} {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}` + "\n",
			want: []got{cm(pos(1, 0, -1), "a"), cm(pos(1, 1, -1), "b")},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gs, _ := readAll(t, "f.yaml", tc.in, typedOpts)
			compare(t, gs, tc.want)
		})
	}
}

func TestNewObjectOddities(t *testing.T) {
	opts := Options{NewObject: func(apiVersion, kind string) runtime.Object {
		if kind == "Pod" {
			return (*corev1.Pod)(nil)
		}
		return nil
	}}
	gs, _ := readAll(t, "f.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n", opts)
	compare(t, gs, []got{{Pos: pos(1, 0, -1), APIVersion: "v1", Kind: "Pod", Name: "p", Err: "f.yaml:1: Unmarshal(nil *v1.Pod)"}})
}

func TestYieldPanicsPropagate(t *testing.T) {
	defer func() {
		if r := recover(); r != "from yield" {
			t.Errorf("recovered %v, want the yield's panic", r)
		}
	}()
	ReadStream("f", strings.NewReader(cmYAML("a")), Options{}, func(Document) bool { panic("from yield") })
	t.Error("ReadStream returned")
}

// TestSelect: with Options.Select, only the selected kinds are decoded; the
// others keep their header, and a body that would not decode goes unnoticed.
func TestSelect(t *testing.T) {
	in := "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop}\nspec: {containerz: 1}\n---\n" +
		"apiVersion: v1\nkind: LimitRange\nmetadata: {name: l}\nspec: {limits: []}\n"
	opts := Options{
		NewObject: func(apiVersion, kind string) runtime.Object {
			if kind == "Pod" {
				return &corev1.Pod{}
			}
			return &corev1.LimitRange{}
		},
		Select: func(apiVersion, kind string) bool { return kind == "LimitRange" },
	}
	var docs []Document
	if err := ReadStream("in.yaml", strings.NewReader(in), opts, func(d Document) bool { docs = append(docs, d); return true }); err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 {
		t.Fatalf("%d documents, want 2", len(docs))
	}
	pod, lr := docs[0], docs[1]
	if pod.Err != nil || pod.Object != nil || pod.JSON != nil || pod.Kind != "Pod" || pod.Namespace != "shop" || pod.Name != "p" || pod.Pos.Line != 1 {
		t.Errorf("unselected Pod: %+v", pod)
	}
	if _, ok := lr.Object.(*corev1.LimitRange); !ok || lr.Err != nil || lr.Pos.Line != 6 {
		t.Errorf("selected LimitRange: %+v", lr)
	}
	opts.Select = nil
	docs = nil
	if err := ReadStream("in.yaml", strings.NewReader(in), opts, func(d Document) bool { docs = append(docs, d); return true }); err != nil {
		t.Fatal(err)
	}
	if docs[0].Err == nil {
		t.Errorf("without Select the Pod's unknown field is an error")
	}
}

// TestCheckFields: kinds decoded leniently are still checked against their Go
// type when Options.CheckFields names one, as kube-apiserver's strict decoding
// refuses an Ingress with extensions/v1beta1's backend fields.
func TestCheckFields(t *testing.T) {
	opts := typedOpts
	opts.CheckFields = func(apiVersion, kind string) runtime.Object {
		if apiVersion == "networking.k8s.io/v1" && kind == "Ingress" {
			return &networkingv1.Ingress{}
		}
		return nil
	}
	ingress := "apiVersion: networking.k8s.io/v1\n" + // 1
		"kind: Ingress\n" + // 2
		"metadata: {name: web}\n" + // 3
		"spec:\n" + // 4
		"  rules:\n" + // 5
		"  - http:\n" + // 6
		"      paths:\n" + // 7
		"      - path: /\n" + // 8
		"        pathType: Prefix\n" + // 9
		"        backend:\n" // 10
	for _, tc := range []struct {
		name string
		in   string
		want []got
	}{
		{
			name: "unknown fields",
			in:   ingress + "          serviceName: web\n" + "          servicePort: 80\n",
			want: []got{{Pos: pos(1, 0, -1), APIVersion: "networking.k8s.io/v1", Kind: "Ingress", Name: "web",
				Err: `f.yaml:11: spec.rules[0].http.paths[0].backend.serviceName: Ingress in version "v1" cannot be handled as a Ingress: strict decoding error: unknown field "spec.rules[0].http.paths[0].backend.serviceName", unknown field "spec.rules[0].http.paths[0].backend.servicePort" (networking.k8s.io/v1 names the Service in service.name; also spec.rules[0].http.paths[0].backend.servicePort (line 12): networking.k8s.io/v1 gives the port as service.port.number or service.port.name)`}},
		},
		{
			name: "every unknown field, in file order, five after the first",
			in:   ingress + "          zz: 1\n          servicePort: 80\n          a1: 1\n          a2: 1\n          a3: 1\n          a4: 1\n          a5: 1\n",
			want: []got{{Pos: pos(1, 0, -1), APIVersion: "networking.k8s.io/v1", Kind: "Ingress", Name: "web",
				Err: `f.yaml:11: spec.rules[0].http.paths[0].backend.zz: Ingress in version "v1" cannot be handled as a Ingress: strict decoding error: unknown field "spec.rules[0].http.paths[0].backend.a1", unknown field "spec.rules[0].http.paths[0].backend.a2", unknown field "spec.rules[0].http.paths[0].backend.a3", unknown field "spec.rules[0].http.paths[0].backend.a4", unknown field "spec.rules[0].http.paths[0].backend.a5", unknown field "spec.rules[0].http.paths[0].backend.servicePort", unknown field "spec.rules[0].http.paths[0].backend.zz" (also spec.rules[0].http.paths[0].backend.servicePort (line 12): networking.k8s.io/v1 gives the port as service.port.number or service.port.name; also spec.rules[0].http.paths[0].backend.a1 (line 13); also spec.rules[0].http.paths[0].backend.a2 (line 14); also spec.rules[0].http.paths[0].backend.a3 (line 15); also spec.rules[0].http.paths[0].backend.a4 (line 16); and 1 more)`}},
		},
		{
			name: "wrong type",
			in:   ingress + "          service: {name: web, port: {number: http}}\n",
			want: []got{{Pos: pos(1, 0, -1), APIVersion: "networking.k8s.io/v1", Kind: "Ingress", Name: "web",
				Err: `f.yaml:11: spec.rules[0].http.paths[0].backend.service.port.number: Ingress in version "v1" cannot be handled as a Ingress: json: cannot unmarshal string into Go struct field ServiceBackendPort.spec.rules.IngressRuleValue.http.paths.backend.service.port.number of type int32`}},
		},
		{
			name: "valid: decoded as metadata only",
			in:   ingress + "          service: {name: web, port: {number: 80}}\n",
			want: []got{{Pos: pos(1, 0, -1), APIVersion: "networking.k8s.io/v1", Kind: "Ingress", Name: "web", Obj: partial}},
		},
		{
			name: "kinds CheckFields leaves out are not checked",
			in:   "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {anything: 1}\n",
			want: []got{{Pos: pos(1, 0, -1), APIVersion: "example.com/v1", Kind: "Widget", Name: "w", Obj: partial}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gs, _ := readAll(t, "f.yaml", tc.in, opts)
			compare(t, gs, tc.want)
		})
	}
}
