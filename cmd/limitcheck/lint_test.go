package main

import (
	"io"
	"slices"
	"strings"
	"testing"
)

func TestLintFlags(t *testing.T) {
	var got *lintOptions
	parse := func(args ...string) error {
		got = nil
		cmd := newCmdLint(streams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard}, func(o *lintOptions) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		cmd.SetFlagErrorFunc(flagError)
		return cmd.Execute()
	}
	if err := parse("-f", "policy/", "quota.yaml"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Paths, []string{"policy/", "quota.yaml"}) || got.FailOn != lintFailOnWarning || got.Output != "text" || !got.Lint {
		t.Errorf("defaults: paths %q, fail-on %q, output %q, lint %v", got.Paths, got.FailOn, got.Output, got.Lint)
	}
	if err := parse("--fail-on", "error", "-o", "json", "q.yaml"); err != nil || got.FailOn != lintFailOnError || got.Output != "json" {
		t.Errorf("--fail-on error -o json: %v %+v", err, got)
	}
	for args, want := range map[string]string{
		"-o sarif q.yaml":         `invalid argument "sarif" for "-o, --output" flag: must be one of json, text`,
		"--fail-on denied q.yaml": `invalid argument "denied" for "--fail-on" flag: must be warning, error or never`,
		"":                        "no input: give a file, a directory or - for stdin",
	} {
		if err := parse(strings.Fields(args)...); err == nil || err.Error() != want {
			t.Errorf("lint %s: %v, want %s", args, err, want)
		}
	}
}

func TestDiffFlags(t *testing.T) {
	var got *diffOptions
	parse := func(args ...string) error {
		got = nil
		cmd := newCmdDiff(streams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard}, func(o *diffOptions) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		cmd.SetFlagErrorFunc(flagError)
		return cmd.Execute()
	}
	if err := parse("-f", "policy/", "base/", "head/"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.base, []string{"policy/", "base/"}) || !slices.Equal(got.head, []string{"policy/", "head/"}) || got.FailOn != diffFailOnNewDenial || got.Render.Verbose {
		t.Errorf("BASE HEAD: base %q, head %q, fail-on %q", got.base, got.head, got.FailOn)
	}
	if err := parse("--base-ref", "origin/main", "-v", "-f", "policy/", "deploy/"); err != nil {
		t.Fatal(err)
	}
	if got.BaseRef != "origin/main" || !slices.Equal(got.base, []string{"policy/", "deploy/"}) || !slices.Equal(got.head, got.base) || !got.Render.Verbose {
		t.Errorf("--base-ref: %q, base %q, head %q", got.BaseRef, got.base, got.head)
	}
	for args, want := range map[string]string{
		"a":                       "diff needs BASE and HEAD, or --base-ref REF and the paths: got 1 path(s)",
		"a b c":                   "diff needs BASE and HEAD, or --base-ref REF and the paths: got 3 path(s)",
		"--base-ref main":         "no input: give the paths to compare with --base-ref",
		"--fail-on sometimes a b": `invalid argument "sometimes" for "--fail-on" flag: must be new-denial, any-denial or never`,
		"-o sarif a b":            `invalid argument "sarif" for "-o, --output" flag: must be one of json, text`,
	} {
		if err := parse(strings.Fields(args)...); err == nil || err.Error() != want {
			t.Errorf("diff %s: %v, want %s", args, err, want)
		}
	}
}
