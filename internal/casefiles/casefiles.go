// Package casefiles finds the CLI's testscript cases, testdata/script at the
// repository's root, which the tests of other packages read as inputs too.
package casefiles

import (
	"path/filepath"
	"runtime"
	"testing"
)

// Scripts returns the paths of the testscript cases, sorted; a test that finds
// none fails rather than passing on nothing.
func Scripts(tb testing.TB) []string {
	tb.Helper()
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("casefiles: no source path to find the repository from")
	}
	dir := filepath.Join(filepath.Dir(self), "..", "..", "testdata", "script")
	scripts, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		tb.Fatal(err)
	}
	if len(scripts) == 0 {
		tb.Fatalf("casefiles: no testscript cases in %s", dir)
	}
	return scripts
}
