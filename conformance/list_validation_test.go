package conformance

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/kubectl/pkg/util/openapi"
	kvalidation "k8s.io/kubectl/pkg/validation"
	"sigs.k8s.io/yaml"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/load"
)

// TestListValidationParity (IN-11): kubectl checks a list document before
// it sends any of its items, with its client-side validation against the
// release's OpenAPI v2 schema (k8s.io/kubectl/pkg/validation, the strict
// path kubectl create takes for lists) and, taking the list apart, refuses
// an item that is a list itself (FlattenListVisitor). Random lists of the
// mistakes limitcheck models (no items, items that are not objects or do
// not say what they are, unknown fields, JSON types a field's schema does
// not take, nested lists, and scalars where strings go, which pass) are
// given to both: upstream refuses the list exactly when limitcheck reports
// the whole list as one error.
func TestListValidationParity(t *testing.T) {
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/kubernetes").Output()
	if err != nil {
		t.Fatalf("go list -m k8s.io/kubernetes: %v", err)
	}
	spec, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(dir)), "api", "openapi-spec", "swagger.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi_v2.ParseDocument(spec)
	if err != nil {
		t.Fatal(err)
	}
	resources, err := openapi.NewOpenAPIData(doc)
	if err != nil {
		t.Fatal(err)
	}
	validator := kvalidation.NewSchemaValidation(resourcesGetter{resources})
	builtins := apis.New()
	opts := load.Options{NewObject: eval.NewObject, CheckFields: apis.Typed, ListNotMapped: builtins.ListNotMapped}

	r := rand.New(rand.NewPCG(*flagSeed, 11))
	mismatches, refused := 0, 0
	for i := 0; i < *flagCases; i++ {
		list := randomList(r)
		text, err := yaml.Marshal(list)
		if err != nil {
			t.Fatal(err)
		}
		up := upstreamListError(validator, text)
		var docs []load.Document
		if err := load.ReadStream("list.yaml", strings.NewReader(string(text)), opts, func(d load.Document) bool {
			docs = append(docs, d)
			return true
		}); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		whole := len(docs) == 1 && docs[0].Pos.Item == -1 && docs[0].Err != nil
		if up != nil {
			refused++
		}
		if (up != nil) != whole {
			mismatches++
			if mismatches <= 5 {
				mine := "items taken apart"
				if whole {
					mine = docs[0].Err.Error()
				}
				t.Errorf("case %d:\n%s\nkubectl: %v\nlimitcheck: %s", i, text, up, mine)
			}
		}
	}
	t.Logf("seed %d: %d lists, %d refused by kubectl, %d mismatches", *flagSeed, *flagCases, refused, mismatches)
	if refused == 0 || refused == *flagCases {
		t.Errorf("%d of %d lists refused: the generator does not cover both outcomes", refused, *flagCases)
	}
}

// upstreamListError is kubectl's refusal of the list document text: its
// validation's error, else the one of taking it apart (an item that is a
// list), else nil.
func upstreamListError(v kvalidation.Schema, text []byte) error {
	if err := v.ValidateBytes(text); err != nil {
		return err
	}
	js, err := yaml.YAMLToJSON(text)
	if err != nil {
		return err
	}
	var obj map[string]any
	if err := json.Unmarshal(js, &obj); err != nil {
		return err
	}
	items, _ := obj["items"].([]any)
	for _, item := range items {
		if m, ok := item.(map[string]any); ok && (&unstructured.Unstructured{Object: m}).IsList() {
			return fmt.Errorf("%T is not a list: no Items field in this object", &unstructured.Unstructured{})
		}
	}
	return nil
}

type resourcesGetter struct{ r openapi.Resources }

func (g resourcesGetter) OpenAPISchema() (openapi.Resources, error) { return g.r, nil }

// randomList is a v1 List or a built-in kind's list of random items, some
// with one of the mistakes TestListValidationParity covers.
func randomList(r *rand.Rand) map[string]any {
	kinds := []struct{ apiVersion, kind string }{
		{"v1", "ConfigMap"}, {"v1", "Secret"}, {"v1", "Service"}, {"v1", "Pod"}, {"apps/v1", "Deployment"},
	}
	typed := r.IntN(2) == 0
	k := kinds[r.IntN(len(kinds))]
	list := map[string]any{"apiVersion": "v1", "kind": "List"}
	if typed {
		list = map[string]any{"apiVersion": k.apiVersion, "kind": k.kind + "List"}
	}
	switch r.IntN(12) {
	case 0:
		return list // no items
	case 1:
		list["items"] = nil
		return list
	case 2:
		list["items"] = map[string]any{}
		return list
	}
	var items []any
	for n := r.IntN(3) + 1; n > 0; n-- {
		ik := k
		if !typed {
			ik = kinds[r.IntN(len(kinds))]
		}
		items = append(items, randomItem(r, ik.apiVersion, ik.kind, typed))
	}
	list["items"] = items
	return list
}

// randomItem is a valid object of the kind, or one of the mistakes.
func randomItem(r *rand.Rand, apiVersion, kind string, typed bool) any {
	name := fmt.Sprintf("o%d", r.IntN(1000))
	item := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"name": name}}
	switch kind {
	case "ConfigMap":
		item["data"] = map[string]any{"a": "b"}
	case "Secret":
		item["stringData"] = map[string]any{"a": "b"}
	case "Service":
		item["spec"] = map[string]any{"ports": []any{map[string]any{"port": 80}}}
	case "Pod":
		item["spec"] = map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}
	case "Deployment":
		item["spec"] = map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"a": "b"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"a": "b"}},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}}}
	}
	if r.IntN(3) > 0 {
		return item
	}
	switch r.IntN(11) {
	case 0:
		return r.IntN(10) // not an object
	case 1:
		if typed {
			return item // a typed list's items take its type (decodeToList)
		}
		delete(item, "apiVersion")
	case 2:
		if typed {
			return item
		}
		delete(item, "kind")
	case 3:
		item["apiVersion"] = 1
	case 4:
		item["kind"] = []any{"x"}
	case 5:
		item["bogus"] = true // unknown field
	case 6:
		item["metadata"] = map[string]any{"name": name, "labels": map[string]any{"a": map[string]any{}}} // object for a string
	case 7:
		item["metadata"] = map[string]any{"name": name, "labels": map[string]any{"a": 1}} // scalar for a string: passes
	case 8:
		item["metadata"] = map[string]any{"name": name, "generation": "1"} // string for an integer
	case 9:
		item["items"] = []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "n"}}} // a list inside
		if !typed {
			item["kind"] = "List"
			delete(item, "metadata")
		}
	case 10:
		item["metadata"] = []any{name} // array for an object
	}
	return item
}
