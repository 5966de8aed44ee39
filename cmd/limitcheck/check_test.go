package main

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval/features"
	"github.com/limitcheck/limitcheck/internal/render"
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
	cmd.SetFlagErrorFunc(flagError) // as the root sets it
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
			for _, g := range features.Known() {
				if o.Engine.Gates.Enabled(g) != features.Default().Enabled(g) {
					t.Errorf("gate %s = %v, want the default", g, o.Engine.Gates.Enabled(g))
				}
			}
		})
	}
}

// TestCheckNamespace: an empty -n is no -n (client-go's reading); an explicit one
// is enforced.
func TestCheckNamespace(t *testing.T) {
	for _, tt := range []struct {
		args     []string
		ns       string
		enforced bool
	}{
		{args: []string{"a.yaml"}, ns: "default"},
		{args: []string{"-n", "", "a.yaml"}, ns: "default"},
		{args: []string{"--namespace=", "a.yaml"}, ns: "default"},
		{args: []string{"-n", "default", "a.yaml"}, ns: "default", enforced: true},
		{args: []string{"-n", "shop", "a.yaml"}, ns: "shop", enforced: true},
	} {
		o, err := parseCheck(t, tt.args...)
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if o.Namespace != tt.ns || o.Engine.DefaultNamespace != tt.ns || o.NamespaceSet != tt.enforced {
			t.Errorf("%q: namespace %q (engine %q), enforced %v; want %q, %v", tt.args, o.Namespace, o.Engine.DefaultNamespace, o.NamespaceSet, tt.ns, tt.enforced)
		}
	}
}

// TestCheckControllerFlagWarnings: --replicas and --nodes without controllers
// warn that they do nothing.
func TestCheckControllerFlagWarnings(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{args: []string{"--replicas", "3", "a.yaml"}},
		{args: []string{"--simulate-controllers=false", "a.yaml"}},
		{args: []string{"--simulate-controllers=false", "--replicas", "3", "a.yaml"}, want: []string{"--replicas has no effect with --simulate-controllers=false"}},
		{args: []string{"--simulate-controllers=false", "--nodes=1", "--replicas=spec", "a.yaml"}, want: []string{"--replicas has no effect with --simulate-controllers=false", "--nodes has no effect with --simulate-controllers=false"}},
	} {
		o, err := parseCheck(t, tt.args...)
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if !slices.Equal(o.warnings, tt.want) {
			t.Errorf("%q: warnings %q, want %q", tt.args, o.warnings, tt.want)
		}
	}
}

func TestCheckFeatureGates(t *testing.T) {
	// PodLevelResources can only be switched off together with the gates that
	// depend on it, as in kube-apiserver 1.36.
	o, err := parseCheck(t, "--feature-gates", "PodLevelResources=false, InPlacePodLevelResourcesVerticalScaling=false,DRAExtendedResource=false", "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{features.PodLevelResources, features.InPlacePodLevelResourcesVerticalScaling, features.DRAExtendedResource} {
		if o.Engine.Gates.Enabled(g) {
			t.Errorf("gate %s not switched off", g)
		}
	}
	if !o.Engine.Gates.Enabled(features.SidecarContainers) {
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
		{name: "unknown output", args: []string{"-o", "xml", "a.yaml"}, want: `invalid argument "xml" for "-o, --output" flag: must be one of ` + strings.Join(render.Formats(), ", ")},
		{name: "nodes not a number", args: []string{"--nodes=x", "a.yaml"}, want: `invalid argument "x" for "--nodes" flag: must be a number of nodes, at least 1`},
		{name: "nodes zero", args: []string{"--nodes", "0", "a.yaml"}, want: `invalid argument "0" for "--nodes" flag: must be at least 1: a DaemonSet runs one Pod per node`},
		{name: "nodes negative", args: []string{"--nodes=-1", "a.yaml"}, want: `invalid argument "-1" for "--nodes" flag: must be at least 1: a DaemonSet runs one Pod per node`},
		{name: "nodes beyond int32", args: []string{"--nodes=2147483648", "a.yaml"}, want: `invalid argument "2147483648" for "--nodes" flag: more than 2147483647, the most nodes a DaemonSet can count`},
		{name: "replicas not a number", args: []string{"--replicas=x", "a.yaml"}, want: `invalid argument "x" for "--replicas" flag: must be spec or a non-negative number`},
		{name: "replicas negative", args: []string{"--replicas=-1", "a.yaml"}, want: `invalid argument "-1" for "--replicas" flag: must be spec or a non-negative number`},
		{name: "replicas beyond int32", args: []string{"--replicas", "3000000000", "a.yaml"}, want: `invalid argument "3000000000" for "--replicas" flag: more than 2147483647, the most replicas a workload can have`},
		{name: "replicas beyond int64", args: []string{"--replicas", "99999999999999999999", "a.yaml"}, want: `invalid argument "99999999999999999999" for "--replicas" flag: more than 2147483647, the most replicas a workload can have`},
		{name: "namespace uppercase", args: []string{"-n", "Bad_NS", "a.yaml"}, want: `invalid argument "Bad_NS" for "-n, --namespace" flag: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
		{name: "namespace with slash", args: []string{"--namespace=ns/evil", "a.yaml"}, want: `invalid argument "ns/evil" for "-n, --namespace" flag: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
		{name: "namespace too long", args: []string{"-n", strings.Repeat("a", 64), "a.yaml"}, want: `invalid argument "` + strings.Repeat("a", 64) + `" for "-n, --namespace" flag: must be no more than 63 characters`},
		{name: "namespace with dots", args: []string{"-n", "a.b", "a.yaml"}, want: `invalid argument "a.b" for "-n, --namespace" flag: must not contain dots`},
		{name: "missing config file", args: []string{"--admission-control-config-file", "testdata/nope.yaml", "a.yaml"}, want: `invalid argument "testdata/nope.yaml" for "--admission-control-config-file" flag: no such file or directory`},
		{name: "config file is a directory", args: []string{"--admission-control-config-file", "testdata", "a.yaml"}, want: `invalid argument "testdata" for "--admission-control-config-file" flag: is a directory`},
		{name: "bool", args: []string{"--simulate-controllers=maybe", "a.yaml"}, want: `invalid argument "maybe" for "--simulate-controllers" flag: must be true or false`},
		{name: "short bool", args: []string{"-R=1x", "a.yaml"}, want: `invalid argument "1x" for "-R, --recursive" flag: must be true or false`},
		{name: "unknown gate", args: []string{"--feature-gates=Bogus=true", "a.yaml"}, want: `invalid argument "Bogus=true" for "--feature-gates" flag: unrecognized feature gate: Bogus (limitcheck models ` + strings.Join(features.Known(), ", ") + ")"},
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

// TestHelpWidth: every help text of limitcheck's own commands fits 80 columns,
// and the commands that read input state the exit codes.
func TestHelpWidth(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"check", "--help"}, {"lint", "--help"}, {"diff", "--help"}, {"describe", "--help"}, {"version", "--help"}} {
		var stdout, stderr bytes.Buffer
		if code := run(t.Context(), args, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("%q: exit %d, stderr %s", args, code, stderr.String())
		}
		for _, line := range strings.Split(stdout.String(), "\n") {
			if len(line) > helpWidth {
				t.Errorf("%q: %d columns: %s", args, len(line), line)
			}
		}
		flat := strings.Join(strings.Fields(stdout.String()), " ")
		switch args[0] {
		case "version":
		case "lint", "diff": // their own exit codes
			if !strings.Contains(flat, "Exit status: 0 ") || !strings.Contains(flat, "2 bad input or usage, 3 internal error.") {
				t.Errorf("%q: the exit codes are missing", args)
			}
		default:
			if !strings.Contains(flat, exitStatusHelp) {
				t.Errorf("%q: the exit codes are missing", args)
			}
		}
	}
}

func TestWrapText(t *testing.T) {
	got := wrapText("one two three four\nfive six\n\nseven eightnineten", 9)
	want := "one two\nthree\nfour five\nsix\n\nseven\neightnineten"
	if got != want {
		t.Errorf("wrapText = %q, want %q", got, want)
	}
}
