package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// fileMarker introduces a README code block that is a checked-in file:
// <!-- file: examples/ci/github-workflow.yml --> on the line before the fence.
var fileMarker = regexp.MustCompile(`^<!-- file: (\S+) -->$`)

// readmeFiles returns the README's code blocks that follow a file marker, by path.
func readmeFiles(t *testing.T, md string) map[string]string {
	t.Helper()
	files := map[string]string{}
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		m := fileMarker.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			t.Fatalf("README line %d: %s is not followed by a code block", i+1, lines[i])
		}
		var body strings.Builder
		j := i + 2
		for ; j < len(lines) && lines[j] != "```"; j++ {
			body.WriteString(lines[j] + "\n")
		}
		if j == len(lines) {
			t.Fatalf("README line %d: code block for %s is not closed", i+2, m[1])
		}
		if _, dup := files[m[1]]; dup {
			t.Fatalf("README shows %s twice", m[1])
		}
		files[m[1]] = body.String()
		i = j
	}
	return files
}

// TestCIExamples keeps the README's CI recipes and the files under examples/ci
// identical (every file shown, every block a file), so what actionlint and the
// other tests check is what users copy.
func TestCIExamples(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	shown := readmeFiles(t, string(readme))
	onDisk, err := filepath.Glob("../../examples/ci/*")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, p := range onDisk {
		paths = append(paths, strings.TrimPrefix(p, "../../"))
	}
	for _, p := range paths {
		if _, ok := shown[p]; !ok {
			t.Errorf("%s is not shown in the README (a code block after <!-- file: %s -->)", p, p)
		}
	}
	for p, want := range shown {
		if !strings.HasPrefix(p, "examples/ci/") {
			t.Errorf("README shows %s: only files under examples/ci are kept in step", p)
			continue
		}
		got, err := os.ReadFile(filepath.Join("../..", p))
		if err != nil {
			t.Errorf("README shows %s: %v", p, err)
			continue
		}
		if string(got) != want {
			t.Errorf("README's block differs from %s:\nREADME:\n%s\nfile:\n%s", p, want, got)
		}
	}
	// The workflow passes only inputs the action has, and the required ones.
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Uses string            `json:"uses"`
				With map[string]string `json:"with"`
			} `json:"steps"`
		} `json:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(shown["examples/ci/github-workflow.yml"]), &wf); err != nil {
		t.Fatalf("examples/ci/github-workflow.yml: %v", err)
	}
	var action struct {
		Inputs map[string]struct {
			Required bool `json:"required"`
		} `json:"inputs"`
	}
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	uses := 0
	for _, job := range wf.Jobs {
		for _, step := range job.Steps {
			if !strings.HasPrefix(step.Uses, "limitcheck/limitcheck@") {
				continue
			}
			uses++
			for k := range step.With {
				if _, ok := action.Inputs[k]; !ok {
					t.Errorf("the workflow passes %q, which action.yml does not declare", k)
				}
			}
			for k, in := range action.Inputs {
				if _, ok := step.With[k]; in.Required && !ok {
					t.Errorf("the workflow does not pass the required input %q", k)
				}
			}
		}
	}
	if uses != 1 {
		t.Errorf("want one step using limitcheck/limitcheck@…, got %d", uses)
	}
}

// TestActionlint runs actionlint (ACTIONLINT, or actionlint on PATH; `make
// actionlint` builds a pinned one) on the README's workflow with this
// repository's action.yml in place of limitcheck/limitcheck@main: actionlint
// reads a local action (`uses: ./`) only from a workflow under
// .github/workflows of a git repository, so the test builds one. A misspelt
// input must then fail, which shows action.yml was read.
func TestActionlint(t *testing.T) {
	bin := os.Getenv("ACTIONLINT")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("actionlint"); err != nil {
			t.Skip("actionlint is not installed: set ACTIONLINT or run `make actionlint`")
		}
	}
	workflow, err := os.ReadFile("../../examples/ci/github-workflow.yml")
	if err != nil {
		t.Fatal(err)
	}
	action, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	lint := func(t *testing.T, workflow string) (string, error) {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, ".github/workflows"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "action.yml"), action, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".github/workflows/limitcheck.yml"), []byte(workflow), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		cmd := exec.Command(bin, "-no-color", ".github/workflows/limitcheck.yml")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	local := regexp.MustCompile(`uses: limitcheck/limitcheck@\S+`).ReplaceAllString(string(workflow), "uses: ./")
	if local == string(workflow) {
		t.Fatal("the workflow has no `uses: limitcheck/limitcheck@…` step")
	}
	t.Run("example", func(t *testing.T) {
		if out, err := lint(t, local); err != nil {
			t.Errorf("actionlint: %v\n%s", err, out)
		}
	})
	t.Run("misspelt input", func(t *testing.T) {
		bad := strings.Replace(local, "policies:", "polices:", 1)
		out, err := lint(t, bad)
		if err == nil || !strings.Contains(out, `input "polices" is not defined in action "limitcheck"`) {
			t.Errorf("actionlint accepted a misspelt input (err %v):\n%s", err, out)
		}
	})
}
