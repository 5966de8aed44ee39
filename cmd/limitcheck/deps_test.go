package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestBinaryDependencies keeps the product installable with `go install …@version`
// (and by pre-commit's language: golang): the main module has no replace directives
// and the binary never links k8s.io/kubernetes (only conformance/ does), nor
// CEL (its rules run in the limitcheck-cel helper, package rules) or
// apiextensions-apiserver beyond its API types (VAL-99: the CRD validation is
// limitcheck's own).
func TestBinaryDependencies(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(mf.Replace) > 0 {
		t.Errorf("go.mod has %d replace directive(s); go install would refuse the module", len(mf.Replace))
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not on PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "k8s.io/kubernetes/") || pkg == "k8s.io/kubernetes" || strings.HasPrefix(pkg, "github.com/google/cel-go/") ||
			pkg == "github.com/limitcheck/limitcheck/internal/rules/celserver" {
			t.Errorf("limitcheck links %s", pkg)
		}
		if strings.HasPrefix(pkg, "k8s.io/apiextensions-apiserver/") && pkg != "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions" &&
			pkg != "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1" {
			t.Errorf("limitcheck links %s (only the apiextensions API types are wanted)", pkg)
		}
		// Its package initialization costs every run start-up time; the
		// JUnit writer does without it (render's TestJUnitWriterMatchesEncodingXML).
		if pkg == "encoding/xml" {
			t.Errorf("limitcheck links %s", pkg)
		}
	}
}
