package main

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval"
)

// parseCheck runs `check ARGS` through cobra with a runF that only records the
// parsed options.
func parseCheck(t *testing.T, args ...string) (*checkOptions, error) {
	t.Helper()
	var got *checkOptions
	cmd := newCmdCheck(streams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard}, func(o *checkOptions) error {
		got = o
		return nil
	})
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.Execute()
	if err == nil && got == nil {
		t.Fatalf("check %q: runF was not called", args)
	}
	return got, err
}

func TestCheckFlags(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		paths     []string
		recursive bool
		namespace string
		output    string
	}{
		{name: "positional", args: []string{"a.yaml"}, paths: []string{"a.yaml"}, namespace: "default", output: "text"},
		{name: "stdin", args: []string{"-"}, paths: []string{"-"}, namespace: "default", output: "text"},
		{name: "filename flags first", args: []string{"p1.yaml", "-f", "f1.yaml", "p2", "--filename=f2.yaml", "-f", "-"}, paths: []string{"f1.yaml", "f2.yaml", "-", "p1.yaml", "p2"}, namespace: "default", output: "text"},
		{name: "comma kept in -f", args: []string{"-f", "a,b.yaml"}, paths: []string{"a,b.yaml"}, namespace: "default", output: "text"},
		{name: "short flags", args: []string{"-R", "-n", "team-a", "-o", "json", "dir"}, paths: []string{"dir"}, recursive: true, namespace: "team-a", output: "json"},
		{name: "long flags", args: []string{"--recursive", "--namespace=team-b", "--output=text", "dir"}, paths: []string{"dir"}, recursive: true, namespace: "team-b", output: "text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := parseCheck(t, tt.args...)
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !slices.Equal(o.Paths, tt.paths) {
				t.Errorf("Paths = %q, want %q", o.Paths, tt.paths)
			}
			if o.Recursive != tt.recursive {
				t.Errorf("Recursive = %v, want %v", o.Recursive, tt.recursive)
			}
			if o.Namespace != tt.namespace {
				t.Errorf("Namespace = %q, want %q", o.Namespace, tt.namespace)
			}
			if o.Output != tt.output || o.Format == nil {
				t.Errorf("Output = %q (format %v), want %q", o.Output, o.Format, tt.output)
			}
			for _, g := range eval.KnownGates() {
				if o.Engine.Gates.Enabled(g) != eval.DefaultFeatureGates().Enabled(g) {
					t.Errorf("gate %s = %v, want the default", g, o.Engine.Gates.Enabled(g))
				}
			}
		})
	}
}

func TestCheckFeatureGates(t *testing.T) {
	// PodLevelResources can only be switched off together with the gates that
	// depend on it, as in kube-apiserver 1.36.
	o, err := parseCheck(t, "--feature-gates", "PodLevelResources=false, InPlacePodLevelResourcesVerticalScaling=false,DRAExtendedResource=false", "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{eval.GatePodLevelResources, eval.GateInPlacePodLevelResourcesVerticalScaling, eval.GateDRAExtendedResource} {
		if o.Engine.Gates.Enabled(g) {
			t.Errorf("gate %s not switched off", g)
		}
	}
	if !o.Engine.Gates.Enabled(eval.GateSidecarContainers) {
		t.Error("SidecarContainers should keep its default (on)")
	}
}

func TestCheckUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "no input", args: nil, want: "no input: give a file, a directory or - for stdin"},
		{name: "unknown output", args: []string{"-o", "xml", "a.yaml"}, want: `unknown output format "xml": valid formats are json, text`},
		{name: "unknown gate", args: []string{"--feature-gates=Bogus=true", "a.yaml"}, want: `invalid argument "Bogus=true" for "--feature-gates" flag: unrecognized feature gate: Bogus (limitcheck models ` + strings.Join(eval.KnownGates(), ", ") + ")"},
		{name: "locked gate", args: []string{"--feature-gates=SidecarContainers=false", "a.yaml"}, want: `invalid argument "SidecarContainers=false" for "--feature-gates" flag: cannot set feature gate SidecarContainers to false, feature is locked to true`},
		{name: "gate dependency", args: []string{"--feature-gates=PodLevelResources=false", "a.yaml"}, want: `invalid argument "PodLevelResources=false" for "--feature-gates" flag: InPlacePodLevelResourcesVerticalScaling is enabled, but depends on features that are disabled: [PodLevelResources]`},
		{name: "gate without value", args: []string{"--feature-gates=PodLevelResources", "a.yaml"}, want: `invalid argument "PodLevelResources" for "--feature-gates" flag: missing bool value for PodLevelResources`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseCheck(t, tt.args...)
			var ie *inputError
			if !errors.As(err, &ie) {
				t.Fatalf("error = %v (%T), want an *inputError", err, err)
			}
			if err.Error() != tt.want {
				t.Errorf("error =\n%s\nwant\n%s", err, tt.want)
			}
		})
	}
}

func TestExitCode(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		code   int
		stderr string
	}{
		{name: "admitted", err: nil, code: 0},
		{name: "denied", err: &findingsError{denied: 2}, code: 1},
		{name: "unreadable document beats denied", err: &findingsError{denied: 2, errors: 1}, code: 2},
		{name: "usage", err: inputErrorf("no input"), code: 2, stderr: "Error: no input\n"},
		{name: "cobra", err: errors.New(`unknown command "x" for "limitcheck"`), code: 2, stderr: "Error: unknown command \"x\" for \"limitcheck\"\n"},
		{name: "internal", err: &internalError{err: errors.New("boom")}, code: 3, stderr: "internal error: boom\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if got := exitCode(tt.err, &stderr); got != tt.code {
				t.Errorf("exitCode = %d, want %d", got, tt.code)
			}
			if stderr.String() != tt.stderr {
				t.Errorf("stderr = %q, want %q", stderr.String(), tt.stderr)
			}
		})
	}
}

func TestRunUnknownFlag(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"check", "--bogus", "a.yaml"}, strings.NewReader(""), &stdout, &stderr)
	if code != exitBadInput {
		t.Errorf("exit code = %d, want %d", code, exitBadInput)
	}
	if got, want := stderr.String(), "Error: unknown flag: --bogus\n"; got != want {
		t.Errorf("stderr = %q, want %q", got, want)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout = %q, want nothing", stdout.String())
	}
}

func TestProgramName(t *testing.T) {
	for arg0, want := range map[string]string{
		"/usr/local/bin/kubectl-limitcheck": "kubectl-limitcheck",
		"kubectl-limitcheck.exe":            "kubectl-limitcheck",
		"./limitcheck":                      "limitcheck",
	} {
		if got := programName(arg0); got != want {
			t.Errorf("programName(%q) = %q, want %q", arg0, got, want)
		}
	}
}

func TestVersionString(t *testing.T) {
	old := version
	t.Cleanup(func() { version = old })
	version = "v1.2.3"
	if got := versionString(); got != "v1.2.3" {
		t.Errorf("versionString() = %q with -X main.version=v1.2.3", got)
	}
	version = ""
	if got := versionString(); got == "" {
		t.Error("versionString() is empty without -X main.version")
	}
}

type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("boom") }

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestRunInternalErrors: a panic anywhere and an output that cannot be written are
// internal errors (exit 3), and exit 3 wins over findings.
func TestRunInternalErrors(t *testing.T) {
	t.Run("panic", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		code := run(t.Context(), []string{"check", "-"}, panicReader{}, &stdout, &stderr)
		if code != exitInternal {
			t.Errorf("exit code = %d, want %d", code, exitInternal)
		}
		if !strings.HasPrefix(stderr.String(), "internal error: boom\n") {
			t.Errorf("stderr = %q, want it to start with %q", stderr.String(), "internal error: boom\n")
		}
	})
	t.Run("write", func(t *testing.T) {
		const pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: i\n"
		var stderr bytes.Buffer
		code := run(t.Context(), []string{"check", "-"}, strings.NewReader(pod), failWriter{}, &stderr)
		if code != exitInternal {
			t.Errorf("exit code = %d, want %d", code, exitInternal)
		}
		if got, want := stderr.String(), "internal error: writing output: disk full\n"; got != want {
			t.Errorf("stderr = %q, want %q", got, want)
		}
	})
}
