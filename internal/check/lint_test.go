package check

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/lint"
)

// TestLintPositions: lint findings are placed at their policy's document
// (refused policies first), the input's PriorityClasses and admission
// configuration reach the rules, and AddLintWarnings turns the findings into
// warnings of those entries, the configuration's into a note.
func TestLintPositions(t *testing.T) {
	dir := t.TempDir()
	policy := filepath.Join(dir, "policy.yaml")
	write := func(path, data string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(policy, `apiVersion: v1
kind: ResourceQuota
metadata: {name: typo, namespace: shop}
spec:
  hard: {pods: "5"}
  scopeSelector:
    matchExpressions:
    - {scopeName: PriorityClass, operator: In, values: [hihg]}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 10
---
apiVersion: v1
kind: LimitRange
metadata: {name: bad, namespace: shop}
spec:
  limits:
  - type: Container
    max: {cpu: 100m}
    min: {cpu: 200m}
---
apiVersion: apiserver.config.k8s.io/v1
kind: ResourceQuotaConfiguration
limitedResources:
- resource: pods
  matchContains: [gpu]
`)
	rep, err := Run(Options{Paths: []string{policy}, Lint: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Lint {
		got = append(got, f.Pos.File[len(dir)+1:]+":"+strconv.Itoa(f.Pos.Line)+" "+f.Rule+" "+f.Object.Kind+" "+f.Object.Name)
	}
	want := []string{
		"policy.yaml:15 " + RulePolicyRefused + " LimitRange bad",
		"policy.yaml:1 " + lint.RuleUnknownPriorityClass + " ResourceQuota typo",
		"policy.yaml:24 " + lint.RuleLimitedResourceUncovered + " ResourceQuotaConfiguration ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("lint findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	rep.AddLintWarnings()
	var warned []string
	for _, e := range rep.Entries {
		for _, w := range e.Result.Warnings {
			warned = append(warned, e.Result.Name+": "+w[:strings.Index(w, ":")])
		}
	}
	if strings.Join(warned, "\n") != "typo: "+lint.RuleUnknownPriorityClass {
		t.Errorf("warnings:\n%s", strings.Join(warned, "\n"))
	}
	if n := len(rep.Notes); n != 1 || !strings.HasPrefix(rep.Notes[0].Msg, lint.RuleLimitedResourceUncovered+": ") || rep.Notes[0].Line != 24 {
		t.Errorf("notes = %+v", rep.Notes)
	}

	// Without Lint nothing is computed.
	rep, err = Run(Options{Paths: []string{policy}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Lint) != 0 {
		t.Errorf("Lint off: %d findings", len(rep.Lint))
	}
}
