package eval

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/rules"
	"github.com/limitcheck/limitcheck/internal/rules/celserver"
)

// TestCustomResourceExamples admits the custom resources of
// testdata/crd/cases.json, of the CRD in testdata/crd/crd.json, and expects
// the whole answers of testdata/crd/want.json, which are kube-apiserver's
// (conformance: TestCustomResourceExamplesMatchUpstream writes and checks
// them) (VAL-76..VAL-78).
func TestCustomResourceExamples(t *testing.T) {
	read := func(name string, v any) {
		t.Helper()
		raw, err := os.ReadFile("testdata/crd/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, v); err != nil {
			t.Fatal(err)
		}
	}
	var cases []struct {
		Name   string         `json:"name"`
		Object map[string]any `json:"object"`
	}
	var wants []struct {
		Name    string `json:"name"`
		Allowed bool   `json:"allowed"`
		Code    int32  `json:"code"`
		Reason  string `json:"reason"`
		Message string `json:"message"`
	}
	read("cases.json", &cases)
	read("want.json", &wants)
	if len(cases) != len(wants) {
		t.Fatalf("%d cases, %d answers: regenerate want.json", len(cases), len(wants))
	}
	catalog := exampleCatalog(t)
	rules := celserver.Pipe() // the limitcheck-cel helper's server, in-process
	defer rules.Close()
	for i, c := range cases {
		want := wants[i]
		t.Run(c.Name, func(t *testing.T) {
			if want.Name != c.Name {
				t.Fatalf("answer %d is for %q", i, want.Name)
			}
			c.Object["apiVersion"], c.Object["kind"] = "example.com/v1", "Widget"
			doc, err := json.Marshal(c.Object)
			if err != nil {
				t.Fatal(err)
			}
			u := NewCustomObject(catalog, "example.com/v1", "Widget")
			if u == nil {
				t.Fatal("no schema for example.com/v1 Widget")
			}
			if err := json.Unmarshal(doc, u); err != nil {
				t.Fatal(err)
			}
			e := New(Options{DefaultNamespace: "ns1", OmitNamespaceObjects: true, DisableControllers: true, APIs: catalog, Rules: rules})
			res := e.Admit(u)
			if res.Internal != "" {
				t.Fatal(res.Internal)
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %q", res.Warnings)
			}
			if want.Allowed {
				if res.Denial != nil {
					t.Fatalf("denied: %s", res.Denial.Message)
				}
				return
			}
			d := res.Denial
			if d == nil {
				t.Fatalf("admitted, want %d %s", want.Code, want.Message)
			}
			if d.Code != want.Code || string(d.Reason) != want.Reason || d.Message != want.Message {
				t.Errorf("got  %d %s %s\nwant %d %s %s", d.Code, d.Reason, d.Message, want.Code, want.Reason, want.Message)
			}
			wantStage := status.StageValidation
			if want.Code == 400 {
				wantStage = status.StageDecoding
			}
			if d.Stage != wantStage || !d.PartsInOrder() {
				t.Errorf("stage %q (want %q), parts %q", d.Stage, wantStage, d.Parts)
			}
		})
	}
}

// exampleCatalog knows the example CRD of testdata/crd/crd.json.
func exampleCatalog(t *testing.T) *apis.Catalog {
	t.Helper()
	crdDoc, err := os.ReadFile("testdata/crd/crd.json")
	if err != nil {
		t.Fatal(err)
	}
	catalog := apis.New()
	if err := catalog.AddCRD(crdDoc); err != nil {
		t.Fatal(err)
	}
	return catalog
}

// TestCustomResourceDefaults checks what VAL-77 leaves in the admitted
// object: the schema's default set, a nullable null kept, a status the
// status subresource owns dropped, preserved unknown fields kept.
func TestCustomResourceDefaults(t *testing.T) {
	catalog := exampleCatalog(t)
	u := NewCustomObject(catalog, "example.com/v1", "Widget")
	doc := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":2,"note":null,"extra":{"kept":{"a":1}}},"status":{"ready":true}}`
	if err := json.Unmarshal([]byte(doc), u); err != nil {
		t.Fatal(err)
	}
	e := New(Options{DefaultNamespace: "ns1", OmitNamespaceObjects: true, DisableControllers: true, APIs: catalog})
	res := e.Admit(u)
	if !res.Allowed {
		t.Fatalf("refused: %+v", res.Denial)
	}
	got := res.Object.(*unstructured.Unstructured).Object
	if mode, _, _ := unstructured.NestedString(got, "spec", "mode"); mode != "Always" {
		t.Errorf("spec.mode = %q, want the default Always", mode)
	}
	if note, ok := got["spec"].(map[string]any)["note"]; !ok || note != nil {
		t.Errorf("spec.note = %v (present %v), want a kept null", note, ok)
	}
	if _, ok := got["status"]; ok {
		t.Error("status kept, want it dropped by the status subresource")
	}
	if a, _, _ := unstructured.NestedInt64(got, "spec", "extra", "kept", "a"); a != 1 {
		t.Errorf("spec.extra.kept.a = %d, want the preserved 1", a)
	}
	// Without the CRD, a custom resource is not decoded whole.
	if NewCustomObject(apis.New(), "example.com/v1", "Widget") != nil {
		t.Error("NewCustomObject without the CRD: want nil")
	}
}

// TestCustomResourceRulesUnevaluated: without a rule evaluator, or when it
// fails, a custom resource whose rules would run is judged on the rest and
// warned about; when an error blocks the rules, no warning (VAL-78).
func TestCustomResourceRulesUnevaluated(t *testing.T) {
	catalog := exampleCatalog(t)
	admit := func(rules RuleEvaluator, spec string) Result {
		u := NewCustomObject(catalog, "example.com/v1", "Widget")
		doc := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":` + spec + `}`
		if err := json.Unmarshal([]byte(doc), u); err != nil {
			t.Fatal(err)
		}
		return New(Options{DefaultNamespace: "ns1", OmitNamespaceObjects: true, DisableControllers: true, APIs: catalog, Rules: rules}).Admit(u)
	}
	for _, tc := range []struct {
		name    string
		rules   RuleEvaluator
		spec    string
		allowed bool
		warning string
	}{
		{"no evaluator: admitted, warned", nil, `{"size":2,"ratio":2.5}`, true,
			"its CRD's x-kubernetes-validations rules were not evaluated: limitcheck was run without a rule evaluator"},
		{"the evaluator fails: admitted, warned", failingRules{}, `{"size":2,"ratio":2.5}`, true,
			"its CRD's x-kubernetes-validations rules were not evaluated: the limitcheck-cel helper was not found"},
		{"a blocking error: refused, no warning", nil, `{"size":"two"}`, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := admit(tc.rules, tc.spec)
			if res.Allowed != tc.allowed {
				t.Errorf("allowed %v, want %v (%+v)", res.Allowed, tc.allowed, res.Denial)
			}
			var want []string
			if tc.warning != "" {
				want = []string{tc.warning}
			}
			if !slices.Equal(res.Warnings, want) {
				t.Errorf("warnings %q, want %q", res.Warnings, want)
			}
		})
	}
}

type failingRules struct{}

func (failingRules) EvaluateRules(string, []byte, map[string]any) (field.ErrorList, error) {
	return nil, errors.New("the limitcheck-cel helper was not found")
}

func (failingRules) CompileExpression(rules.Expression, string, *field.Path) (field.ErrorList, error) {
	return nil, errors.New("the limitcheck-cel helper was not found")
}

func (failingRules) CompilePolicy(*rules.PolicyCompile) (map[string]field.ErrorList, error) {
	return nil, errors.New("the limitcheck-cel helper was not found")
}

func (failingRules) CompileCRD([]byte, *field.Path, []string) (field.ErrorList, error) {
	return nil, errors.New("the limitcheck-cel helper was not found")
}

// TestCustomSchemaUnreadable: a custom resource whose CRD's schema cannot be
// read (never one kube-apiserver creates: apis.Catalog.Schema) is an
// internal error of limitcheck's, not a resource checked without it.
func TestCustomSchemaUnreadable(t *testing.T) {
	catalog := apis.New()
	doc := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"ws.example.com"},` +
		`"spec":{"group":"example.com","names":{"kind":"W","plural":"ws"},"scope":"Namespaced","versions":[` +
		`{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"a":{"type":"string","pattern":"("}}}}}]}}`
	if err := catalog.AddCRD([]byte(doc)); err != nil {
		t.Fatal(err)
	}
	u := NewCustomObject(catalog, "example.com/v1", "W")
	if u == nil {
		t.Fatal("NewCustomObject: nil, want the whole object decoded")
	}
	if err := json.Unmarshal([]byte(`{"apiVersion":"example.com/v1","kind":"W","metadata":{"name":"w"},"a":"x"}`), u); err != nil {
		t.Fatal(err)
	}
	e := New(Options{DefaultNamespace: "ns1", OmitNamespaceObjects: true, DisableControllers: true, APIs: catalog})
	res := e.Admit(u)
	const want = `CustomResourceDefinition "ws.example.com", version "v1": openAPIV3Schema.a: pattern "(": error parsing regexp: missing closing ): ` + "`(`"
	if res.Internal != want || res.Allowed {
		t.Errorf("internal %q, allowed %v; want\n%s", res.Internal, res.Allowed, want)
	}
}
