package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/readme"
)

// TestREADME runs every command of the README's ```console blocks (a line starting
// with "$ " that invokes limitcheck) from the repository root and compares its
// stdout with the lines that follow it in the block.
func TestREADME(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readmeText, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	examples := readme.Examples(string(readmeText))
	if len(examples) == 0 {
		t.Fatal("README has no console examples")
	}
	updated := string(readmeText)
	for _, ex := range examples {
		t.Run(strings.Join(ex.Args, " "), func(t *testing.T) {
			if slices.Contains(ex.Args, "--from-cluster") {
				// The stand-in kubectl TestMain put on PATH serves this
				// directory (fake_kubectl_test.go).
				t.Setenv("FAKE_KUBECTL", filepath.Join(root, readmeCluster))
			}
			var stdout, stderr bytes.Buffer
			run(context.Background(), ex.Args, strings.NewReader(""), &stdout, &stderr)
			got := stdout.String()
			if *update {
				updated = strings.Replace(updated, ex.Line+"\n"+ex.Want, ex.Line+"\n"+got, 1)
				return
			}
			if got != ex.Want {
				t.Errorf("README shows:\n%s\nlimitcheck prints:\n%s\nstderr: %s\n(run go test ./cmd/limitcheck -run TestREADME -update to rewrite the README)", ex.Want, got, stderr.String())
			}
		})
	}
	if *update && updated != string(readmeText) {
		if err := os.WriteFile(filepath.Join(root, "README.md"), []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readmeCluster is the cluster the README's --from-cluster examples meet.
const readmeCluster = "cmd/limitcheck/testdata/readme-cluster"

// TestREADMEClusterCommands checks that the kubectl commands the README's
// "Against your cluster" section lists are the ones its first example runs,
// in that order, as the stand-in kubectl (which accepts only what a real
// kubectl accepts) logs them.
func TestREADMEClusterCommands(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readmeText, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	section, ok := readme.Section(string(readmeText), "Against your cluster")
	if !ok {
		t.Fatal(`README has no "## Against your cluster" section`)
	}
	examples := readme.Examples(section)
	_, block, ok := strings.Cut(section, "\n```sh\n")
	if len(examples) == 0 || !ok {
		t.Fatal("the section has no console example or no sh block of commands")
	}
	block, _, _ = strings.Cut(block, "```")
	t.Chdir(root)
	t.Setenv("FAKE_KUBECTL", filepath.Join(root, readmeCluster))
	log := filepath.Join(t.TempDir(), "argv.log")
	t.Setenv("FAKE_KUBECTL_LOG", log)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), examples[0].Args, strings.NewReader(""), &stdout, &stderr); code != exitDenied {
		t.Fatalf("%s: exit %d, want %d\nstderr: %s", examples[0].Line, code, exitDenied, stderr.String())
	}
	ran, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if string(ran) != block {
		t.Errorf("README lists the commands:\n%s\n%s runs:\n%s", block, examples[0].Line, ran)
	}
}
