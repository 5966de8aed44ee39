package render

import (
	"bytes"
	"testing"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/lint"
	"github.com/limitcheck/limitcheck/internal/load"
)

// sampleLintReport has a LimitRange, a quota, one finding of each severity
// (one from Helm, one about a configuration given by flag) and a document
// that could not be read.
func sampleLintReport() *check.Report {
	return &check.Report{
		Entries: []check.Entry{
			{Pos: load.Position{File: "policy.yaml", Line: 1}, Result: eval.Result{APIVersion: "v1", Kind: "LimitRange", Namespace: "shop", Name: "limits", Allowed: true}},
			{Pos: load.Position{File: "policy.yaml", Line: 12}, Result: eval.Result{APIVersion: "v1", Kind: "ResourceQuota", Namespace: "shop", Name: "compute", Allowed: true}},
			{Pos: load.Position{File: "bad.yaml", Line: 3}, Err: &load.Error{File: "bad.yaml", Line: 3, Msg: "mapping values are not allowed in this context"}},
		},
		Lint: []check.LintFinding{
			{Pos: load.Position{File: "policy.yaml", Line: 12, Source: "chart/templates/quota.yaml"}, Finding: lint.Finding{Rule: lint.RuleQuotaOrder, Severity: lint.Warning,
				Object: lint.Object{Kind: "ResourceQuota", Namespace: "shop", Name: "compute"}, Message: "limits pods as ResourceQuota shop/objects does", Fix: "limit each resource in one quota"}},
			{Pos: load.Position{File: "admission.yaml"}, Finding: lint.Finding{Rule: lint.RuleLimitedResourceUncovered, Severity: lint.Error,
				Object: lint.Object{Kind: "ResourceQuotaConfiguration"}, Message: "limitedResources[0]: uncovered", Fix: "add a quota"}},
		},
	}
}

func TestLintText(t *testing.T) {
	var buf bytes.Buffer
	if err := (lintTextFormat{}).Render(&buf, sampleLintReport(), Options{}); err != nil {
		t.Fatal(err)
	}
	want := `bad.yaml:3: error: mapping values are not allowed in this context
policy.yaml:12: warning lint/quota-order: ResourceQuota shop/compute (chart/templates/quota.yaml): limits pods as ResourceQuota shop/objects does (fix: limit each resource in one quota)
admission.yaml: error lint/limited-resource-uncovered: ResourceQuotaConfiguration: limitedResources[0]: uncovered (fix: add a quota)
1 LimitRange, 1 ResourceQuota: 1 error, 1 warning, 1 document could not be read
`
	if got := buf.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if _, err := LookupLint("sarif"); err == nil || err.Error() != `unknown output format "sarif": valid formats are json, text` {
		t.Errorf("LookupLint(sarif) = %v", err)
	}
}
