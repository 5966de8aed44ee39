package conformance

import (
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
)

var flagCRDExamplesUpdate = flag.Bool("crd-examples-update", false, "rewrite internal/eval/testdata/crd/want.json from upstream's answers")

const crdExamples = "../internal/eval/testdata/crd/"

// crdExample is one custom resource of internal/eval/testdata/crd/cases.json.
type crdExample struct {
	Name   string         `json:"name"`
	Object map[string]any `json:"object"`
}

// crdWant is upstream's answer to an example, which the unit tests of
// limitcheck (internal/eval: TestCustomResourceExamples) expect too.
type crdWant struct {
	Name    string `json:"name"`
	Allowed bool   `json:"allowed,omitempty"`
	Code    int32  `json:"code,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// TestCustomResourceExamplesMatchUpstream runs the examples of the unit
// tests through kube-apiserver's create path and checks the answers the unit
// tests expect are upstream's, and limitcheck's.
func TestCustomResourceExamplesMatchUpstream(t *testing.T) {
	crdDoc, err := os.ReadFile(crdExamples + "crd.json")
	if err != nil {
		t.Fatal(err)
	}
	var examples []crdExample
	raw, err := os.ReadFile(crdExamples + "cases.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &examples); err != nil {
		t.Fatal(err)
	}
	up, err := newUpstreamCRD(crdDoc)
	if err != nil {
		t.Fatal(err)
	}
	catalog := apis.New()
	if err := catalog.AddCRD(crdDoc); err != nil {
		t.Fatal(err)
	}
	var wants []crdWant
	for _, ex := range examples {
		ex.Object["apiVersion"], ex.Object["kind"] = "example.com/v1", "Widget"
		doc, err := json.Marshal(ex.Object)
		if err != nil {
			t.Fatal(err)
		}
		got, err := up.create(doc, "ns1")
		if err != nil {
			t.Fatalf("%s: upstream: %v", ex.Name, err)
		}
		wants = append(wants, crdWant{Name: ex.Name, Allowed: got.allowed, Code: got.code, Reason: got.reason, Message: got.message})
		mine, _, err := mineCRDCreate(catalog, doc, "example.com/v1", "Widget", "ns1")
		if err != nil {
			t.Fatalf("%s: limitcheck: %v", ex.Name, err)
		}
		if !mine.sameVerdict(got) {
			t.Errorf("%s:\n  upstream:   %+v\n  limitcheck: %+v", ex.Name, got, mine)
		}
	}
	out, err := json.MarshalIndent(wants, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, '\n')
	if *flagCRDExamplesUpdate {
		if err := os.WriteFile(crdExamples+"want.json", out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	stored, err := os.ReadFile(crdExamples + "want.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(stored) != string(out) {
		t.Errorf("%swant.json is not upstream's answers: run go test -run TestCustomResourceExamplesMatchUpstream -crd-examples-update", crdExamples)
	}
}
