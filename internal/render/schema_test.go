package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/limitcheck/limitcheck/internal/casefiles"
	"github.com/limitcheck/limitcheck/internal/check"
)

const (
	schemaPath     = "testdata/report.schema.json"
	lintSchemaPath = "testdata/lint.schema.json"
	diffSchemaPath = "testdata/diff.schema.json"
	fitSchemaPath  = "testdata/fit.schema.json"
	// fitQuotaSchemaPath is the document of fit --quota -o json.
	fitQuotaSchemaPath = "testdata/fit-quota.schema.json"
)

// TestJSONSchema validates every JSON report the tests pin down (the golden, the
// empty report, the testscripts' expected -o json documents) against the
// checked-in JSON Schema.
func TestJSONSchema(t *testing.T) {
	schema, fitSchema, quotaSchema := loadSchema(t), loadSchemaFile(t, fitSchemaPath), loadSchemaFile(t, fitQuotaSchemaPath)
	docs := map[string][]byte{}
	golden, err := os.ReadFile(filepath.Join("testdata", "report.json.golden"))
	if err != nil {
		t.Fatal(err)
	}
	docs["report.json.golden"] = golden
	for name, o := range map[string]Options{"sample": {Version: "v1.2.3"}, "sample, no version": {}} {
		var buf bytes.Buffer
		if err := (jsonFormat{}).Render(&buf, sampleReport(), o); err != nil {
			t.Fatal(err)
		}
		docs[name] = buf.Bytes()
	}
	var empty bytes.Buffer
	if err := (jsonFormat{}).Render(&empty, &check.Report{}, Options{}); err != nil {
		t.Fatal(err)
	}
	docs["empty report"] = empty.Bytes()
	for _, path := range casefiles.Scripts(t) {
		ar, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if b := filepath.Base(path); strings.HasPrefix(b, "lint_") || strings.HasPrefix(b, "diff") {
			continue // lint's and diff's documents: TestLintJSONSchema, TestDiffJSONSchema
		}
		for _, f := range ar.Files {
			if bytes.Contains(f.Data, []byte(`"schemaVersion"`)) {
				docs[filepath.Base(path)+":"+f.Name] = f.Data
			}
		}
	}
	var fitDoc bytes.Buffer
	if err := FitJSON(&fitDoc, sampleFitReport(), Options{Version: "v1"}); err != nil {
		t.Fatal(err)
	}
	docs["sample fit"] = fitDoc.Bytes()
	var quotaDoc bytes.Buffer
	if err := QuotaJSON(&quotaDoc, fitReportOf(t, quotaInput, check.Options{SuggestQuota: true}), Options{Version: "v1"}); err != nil {
		t.Fatal(err)
	}
	docs["sample fit --quota"] = quotaDoc.Bytes()
	if len(docs) < 5 {
		t.Fatalf("only %d documents to validate; the testscripts' JSON was not found", len(docs))
	}
	fits, quotas := 0, 0
	for name, data := range docs {
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		sch := schema
		if _, ok := doc.(map[string]any)["workloads"]; ok { // limitcheck fit -o json
			sch = fitSchema
			fits++
		}
		if _, ok := doc.(map[string]any)["suggestions"]; ok { // limitcheck fit --quota -o json
			sch = quotaSchema
			quotas++
		}
		for _, e := range sch.validate(sch.root, doc, "") {
			t.Errorf("%s: %s", name, e)
		}
	}
	if fits < 2 {
		t.Errorf("only %d fit documents validated; fit.txtar's JSON was not found", fits)
	}
	if quotas < 2 {
		t.Errorf("only %d fit --quota documents validated; fit_quota.txtar's JSON was not found", quotas)
	}
}

// TestJSONSchemaChecker: the small checker rejects what the schema forbids, so
// TestJSONSchema passing means something.
func TestJSONSchemaChecker(t *testing.T) {
	schema := loadSchema(t)
	var valid map[string]any
	if err := json.Unmarshal(mustRender(t, Options{Version: "v1"}), &valid); err != nil {
		t.Fatal(err)
	}
	result := func(doc map[string]any) map[string]any { return doc["results"].([]any)[0].(map[string]any) }
	cases := map[string]func(doc map[string]any){
		"missing summary":         func(doc map[string]any) { delete(doc, "summary") },
		"extra top-level field":   func(doc map[string]any) { doc["extra"] = 1 },
		"schemaVersion 2":         func(doc map[string]any) { doc["schemaVersion"] = 2.0 },
		"schemaVersion a string":  func(doc map[string]any) { doc["schemaVersion"] = "1" },
		"fractional count":        func(doc map[string]any) { doc["summary"].(map[string]any)["objects"] = 1.5 },
		"allowed a string":        func(doc map[string]any) { result(doc)["allowed"] = "yes" },
		"unknown stage":           func(doc map[string]any) { result(doc)["stage"] = "webhook" },
		"messageParts not string": func(doc map[string]any) { result(doc)["messageParts"] = []any{1.0} },
		"quantity a number": func(doc map[string]any) {
			doc["quotas"].([]any)[0].(map[string]any)["hard"] = map[string]any{"cpu": 1.0}
		},
	}
	if errs := schema.validate(schema.root, valid, ""); len(errs) > 0 {
		t.Fatalf("the sample does not validate: %q", errs)
	}
	for name, mutate := range cases {
		var doc map[string]any
		if err := json.Unmarshal(mustRender(t, Options{Version: "v1"}), &doc); err != nil {
			t.Fatal(err)
		}
		mutate(doc)
		if errs := schema.validate(schema.root, doc, ""); len(errs) == 0 {
			t.Errorf("%s: validates", name)
		}
	}
}

func mustRender(t *testing.T, o Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := (jsonFormat{}).Render(&buf, sampleReport(), o); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// loadSchemaFile is loadSchema of the schema at path.
func loadSchemaFile(t *testing.T, path string) *jsonSchema {
	t.Helper()
	return loadSchema(t, path)
}

// jsonSchema is a JSON Schema checker for the keywords report.schema.json uses
// and nothing more; loadSchema fails on any other keyword, so the schema cannot
// say something this checker silently ignores.
type jsonSchema struct {
	root map[string]any
	defs map[string]any
}

var schemaKeywords = []string{"$schema", "$id", "$defs", "$ref", "title", "description", "type", "enum", "required", "properties", "additionalProperties", "items", "anyOf"}

func loadSchema(t *testing.T, path ...string) *jsonSchema {
	t.Helper()
	p := schemaPath
	if len(path) > 0 {
		p = path[0]
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	s := &jsonSchema{root: root}
	s.defs, _ = root["$defs"].(map[string]any)
	var check func(sch map[string]any, at string)
	check = func(sch map[string]any, at string) {
		for k, v := range sch {
			if !slices.Contains(schemaKeywords, k) {
				t.Fatalf("%s: schema keyword %q is not supported by the test's checker", at, k)
			}
			switch k {
			case "properties", "$defs":
				for name, sub := range v.(map[string]any) {
					check(sub.(map[string]any), at+"/"+k+"/"+name)
				}
			case "items":
				check(v.(map[string]any), at+"/items")
			case "additionalProperties":
				if sub, ok := v.(map[string]any); ok {
					check(sub, at+"/additionalProperties")
				}
			case "anyOf":
				for i, sub := range v.([]any) {
					check(sub.(map[string]any), fmt.Sprintf("%s/anyOf/%d", at, i))
				}
			case "$ref":
				name, ok := strings.CutPrefix(v.(string), "#/$defs/")
				if _, found := s.defs[name]; !ok || !found {
					t.Fatalf("%s: unresolvable $ref %q", at, v)
				}
			}
		}
	}
	check(root, "#")
	return s
}

// validate returns where v breaks sch, as JSON-pointer-like paths.
func (s *jsonSchema) validate(sch map[string]any, v any, at string) []string {
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, at+": "+fmt.Sprintf(format, args...)) }
	if ref, ok := sch["$ref"].(string); ok {
		errs = append(errs, s.validate(s.defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any), v, at)...)
	}
	if anyOf, ok := sch["anyOf"].([]any); ok {
		matched := false
		for _, sub := range anyOf {
			if len(s.validate(sub.(map[string]any), v, at)) == 0 {
				matched = true
				break
			}
		}
		if !matched {
			fail("matches none of anyOf")
		}
	}
	if typ, ok := sch["type"]; ok {
		var types []string
		switch typ := typ.(type) {
		case string:
			types = []string{typ}
		case []any:
			for _, x := range typ {
				types = append(types, x.(string))
			}
		}
		if !slices.ContainsFunc(types, func(want string) bool { return hasType(v, want) }) {
			fail("%s is not of type %v", jsonTypeOf(v), types)
			return errs
		}
	}
	if enum, ok := sch["enum"].([]any); ok && !slices.Contains(enum, v) {
		fail("%v is not one of %v", v, enum)
	}
	switch v := v.(type) {
	case map[string]any:
		props, _ := sch["properties"].(map[string]any)
		required, _ := sch["required"].([]any)
		for _, r := range required {
			if _, ok := v[r.(string)]; !ok {
				fail("required %q missing", r)
			}
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if sub, ok := props[k]; ok {
				errs = append(errs, s.validate(sub.(map[string]any), v[k], at+"/"+k)...)
				continue
			}
			switch ap := sch["additionalProperties"].(type) {
			case bool:
				if !ap {
					fail("property %q not allowed", k)
				}
			case map[string]any:
				errs = append(errs, s.validate(ap, v[k], at+"/"+k)...)
			}
		}
	case []any:
		if items, ok := sch["items"].(map[string]any); ok {
			for i, x := range v {
				errs = append(errs, s.validate(items, x, fmt.Sprintf("%s/%d", at, i))...)
			}
		}
	}
	return errs
}

func hasType(v any, typ string) bool {
	switch typ {
	case "integer":
		f, ok := v.(float64)
		return ok && f == float64(int64(f))
	case "number":
		_, ok := v.(float64)
		return ok
	default:
		return jsonTypeOf(v) == typ
	}
}

func jsonTypeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// scriptDocs are the JSON documents of the testscripts whose names start with prefix.
func scriptDocs(t *testing.T, prefix string, docs map[string][]byte) {
	t.Helper()
	for _, path := range casefiles.Scripts(t) {
		if !strings.HasPrefix(filepath.Base(path), prefix) {
			continue
		}
		ar, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if bytes.Contains(f.Data, []byte(`"schemaVersion"`)) {
				docs[filepath.Base(path)+":"+f.Name] = f.Data
			}
		}
	}
}

// validateDocs checks docs against schema; bad is a document the schema must
// reject, so that passing means something.
func validateDocs(t *testing.T, schema *jsonSchema, docs map[string][]byte, bad any) {
	t.Helper()
	for name, data := range docs {
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, e := range schema.validate(schema.root, doc, "") {
			t.Errorf("%s: %s", name, e)
		}
	}
	if errs := schema.validate(schema.root, bad, ""); len(errs) == 0 {
		t.Error("the schema accepts a document it should reject")
	}
}

// TestLintJSONSchema validates lint's -o json documents (a rendered sample,
// the lint testscripts' expected output) against their schema.
func TestLintJSONSchema(t *testing.T) {
	schema := loadSchema(t, lintSchemaPath)
	docs := map[string][]byte{}
	var buf bytes.Buffer
	if err := (lintJSONFormat{}).Render(&buf, sampleLintReport(), Options{Version: "v1"}); err != nil {
		t.Fatal(err)
	}
	docs["sample"] = buf.Bytes()
	scriptDocs(t, "lint_", docs)
	if len(docs) < 2 {
		t.Fatalf("only %d documents to validate; the lint testscripts' JSON was not found", len(docs))
	}
	var bad map[string]any
	if err := json.Unmarshal(docs["sample"], &bad); err != nil {
		t.Fatal(err)
	}
	delete(bad["findings"].([]any)[0].(map[string]any), "rule")
	validateDocs(t, schema, docs, bad)
}

// TestDiffJSONSchema validates diff's -o json documents of the testscripts.
func TestDiffJSONSchema(t *testing.T) {
	schema := loadSchema(t, diffSchemaPath)
	docs := map[string][]byte{}
	scriptDocs(t, "diff", docs)
	if len(docs) == 0 {
		t.Fatal("the diff testscripts' JSON was not found")
	}
	var bad map[string]any
	for _, data := range docs {
		if err := json.Unmarshal(data, &bad); err != nil {
			t.Fatal(err)
		}
		break
	}
	bad["summary"].(map[string]any)["newlyDenied"] = "1"
	validateDocs(t, schema, docs, bad)
}
