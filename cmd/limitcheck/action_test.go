package main

import (
	"os"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestAction keeps the GitHub Action (action.yml) in step with the CLI: a
// composite action whose inputs the check step passes to flags that exist.
func TestAction(t *testing.T) {
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Name        string                    `json:"name"`
		Description string                    `json:"description"`
		Branding    map[string]string         `json:"branding"`
		Inputs      map[string]map[string]any `json:"inputs"`
		Runs        struct {
			Using string `json:"using"`
			Steps []struct {
				Name  string            `json:"name"`
				Shell string            `json:"shell"`
				Run   string            `json:"run"`
				Env   map[string]string `json:"env"`
			} `json:"steps"`
		} `json:"runs"`
	}
	if err := yaml.UnmarshalStrict(data, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if action.Runs.Using != "composite" || len(action.Runs.Steps) != 2 {
		t.Fatalf("want a composite action of 2 steps, got %q with %d", action.Runs.Using, len(action.Runs.Steps))
	}
	for _, in := range []string{"paths", "policies", "args", "fail-on", "version"} {
		if _, ok := action.Inputs[in]; !ok {
			t.Errorf("input %q missing", in)
		}
	}
	run := action.Runs.Steps[1].Run
	if !strings.Contains(run, "limitcheck check -o github --fail-on") {
		t.Errorf("the check step does not run `limitcheck check -o github --fail-on`:\n%s", run)
	}
	// Every flag the step passes must exist on check.
	cmd := newCmdCheck(streams{}, nil)
	for _, f := range []string{"output", "fail-on", "filename"} {
		if cmd.Flags().Lookup(f) == nil {
			t.Errorf("check has no --%s flag", f)
		}
	}
}
