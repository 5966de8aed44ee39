package main

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/limitcheck/limitcheck/internal/rules"
	"github.com/limitcheck/limitcheck/internal/rules/celserver"
)

var update = flag.Bool("update", false, "rewrite the expected files of the repository's testdata/script/*.txtar from the actual output")

// TestMain lets the test binary act as the limitcheck binary, under both names it
// ships as, so scripts run the real main (os.Args, os.Exit and all).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"limitcheck":      main,
		kubectlPluginName: main,
		"kubectl":         fakeKubectl,
		// found on PATH by limitcheck when a CRD has rules (package rules)
		rules.HelperName: func() { os.Exit(celserver.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/script", // the repository's testdata: the CLI's cases, replayed by e2e too
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"exits": cmdExits, "mkfifo": cmdMkfifo},
	})
}

// cmdExits runs a program and checks its exit status: `exits CODE PROGRAM [ARGS...]`.
// Its stdout and stderr are kept for the following stdout/stderr/cmp commands.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}
