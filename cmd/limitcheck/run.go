package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/limitcheck/limitcheck/internal/render"
)

// Exit codes. When several apply, the highest wins.
const (
	exitAdmitted = 0 // every object admitted (skipped objects are fine)
	exitDenied   = 1 // at least one object denied
	exitBadInput = 2 // a document could not be read, a path is missing, or the command line is wrong
	exitInternal = 3 // a bug in limitcheck
)

// exitStatusHelp ends the Long text of every command that reads input.
const exitStatusHelp = "Exit status: 0 every object admitted, 1 at least one denied, 2 bad input or usage, 3 internal error."

// helpWidth is the width help texts are wrapped to.
const helpWidth = 80

// wrapText reflows each paragraph of s (paragraphs are separated by blank
// lines) into lines of at most width columns; a word longer than width gets
// a line of its own.
func wrapText(s string, width int) string {
	paragraphs := strings.Split(s, "\n\n")
	for i, p := range paragraphs {
		var lines []string
		line := ""
		for _, w := range strings.Fields(p) {
			switch {
			case line == "":
				line = w
			case len(line)+1+len(w) <= width:
				line += " " + w
			default:
				lines = append(lines, line)
				line = w
			}
		}
		if line != "" {
			lines = append(lines, line)
		}
		paragraphs[i] = strings.Join(lines, "\n")
	}
	return strings.Join(paragraphs, "\n\n")
}

// kubectlPluginName is the binary name under which kubectl finds the plugin.
const kubectlPluginName = "kubectl-limitcheck"

// streams are the process's standard streams, injected so tests use buffers.
type streams struct {
	In          io.Reader
	Out, ErrOut io.Writer
}

// inputError is a problem with the command line or the input as a whole: printed
// as "Error: …", exit 2. A *load.Error (a missing path) is treated the same.
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

func inputErrorf(format string, args ...any) error {
	return &inputError{err: fmt.Errorf(format, args...)}
}

// findingsError says the report has been written and is not clean. Nothing more
// is printed: the findings are on stdout.
// warned counts objects with warnings, a finding under --fail-on=warning.
type findingsError struct{ denied, errors, internal, warned int }

func (e *findingsError) Error() string {
	return fmt.Sprintf("%d denied, %d could not be read, %s", e.denied, e.errors, render.Count(e.internal, "internal error", "internal errors"))
}

// internalError is a failure that is not the input's fault (e.g. output could not
// be written): printed as "internal error: …", exit 3.
type internalError struct{ err error }

func (e *internalError) Error() string { return e.err.Error() }
func (e *internalError) Unwrap() error { return e.err }

// run executes one command line and returns the process exit code. It is the only
// place where errors become exit codes. The display name follows os.Args[0], so the
// binary installed as kubectl-limitcheck speaks of `kubectl limitcheck`.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "internal error: %v\n%s", r, debug.Stack())
			code = exitInternal
		}
	}()
	root := newCmdRoot(programName(os.Args[0]), streams{In: stdin, Out: stdout, ErrOut: stderr}, args)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	return exitCode(err, stderr)
}

// exitCode maps the error of a command to an exit code, printing what the user
// has not seen yet.
func exitCode(err error, stderr io.Writer) int {
	var (
		findings *findingsError
		internal *internalError
	)
	switch {
	case err == nil:
		return exitAdmitted
	case errors.As(err, &internal):
		fmt.Fprintf(stderr, "internal error: %s\n", render.Escape(internal.err.Error()))
		return exitInternal
	case errors.As(err, &findings):
		if findings.internal > 0 {
			fmt.Fprintf(stderr, "internal error: limitcheck failed on %s; the report above is complete for the others. Please report it with the input.\n", render.Count(findings.internal, "object", "objects"))
			return exitInternal
		}
		if findings.errors > 0 {
			return exitBadInput
		}
		return exitDenied
	default:
		// A *load.Error or *inputError, or cobra's command-line handling
		// (unknown command, bad args). Paths and values may come from the
		// input: escaped for the terminal.
		printError(stderr, err)
		return exitBadInput
	}
}

// printError writes err as "Error: …", escaped for the terminal: paths and
// values may come from the input. An error of several lines (Lines) gets
// each on its own line, escaped one by one.
func printError(w io.Writer, err error) {
	var multi interface{ Lines() []string }
	if !errors.As(err, &multi) {
		fmt.Fprintf(w, "Error: %s\n", render.Escape(err.Error()))
		return
	}
	for i, l := range multi.Lines() {
		if i == 0 {
			fmt.Fprintf(w, "Error: %s\n", render.Escape(l))
		} else {
			fmt.Fprintln(w, render.Escape(l))
		}
	}
}

// flagError makes a command-line parse error a usage error. pflag's own
// parsers explain a bad boolean with strconv's words; say what is expected
// instead, in pflag's frame like every other bad value.
func flagError(_ *cobra.Command, err error) error {
	var bad *pflag.InvalidValueError
	var num *strconv.NumError
	if errors.As(err, &bad) && errors.As(err, &num) && bad.GetFlag().Value.Type() == "bool" {
		return invalidFlagValue(bad.GetFlag(), bad.GetValue(), "must be true or false")
	}
	return &inputError{err: err}
}

// programName is the base name the binary was started as.
func programName(arg0 string) string {
	return strings.TrimSuffix(filepath.Base(arg0), ".exe")
}

// subcommands make the subcommands, by name.
var subcommands = []struct {
	name string
	make func(streams) *cobra.Command
}{
	{"check", func(s streams) *cobra.Command { return newCmdCheck(s, nil) }},
	{"fit", newCmdFit},
	{"lint", func(s streams) *cobra.Command { return newCmdLint(s, nil) }},
	{"diff", func(s streams) *cobra.Command { return newCmdDiff(s, nil) }},
	{"describe", newCmdDescribe},
	{"version", newCmdVersion},
}

// newCmdRoot makes the command tree for the command line args. A command line
// that starts with a subcommand's name gets that subcommand alone, the only
// one it can run: making the others' flags was a tenth of a one-Pod check.
// Any other command line (help, completion, a mistake) gets them all.
func newCmdRoot(name string, s streams, args []string) *cobra.Command {
	root := &cobra.Command{
		Use:   "limitcheck",
		Short: "Simulate kube-apiserver admission of Kubernetes manifests, offline",
		Long: `limitcheck reads Kubernetes manifests and runs them through what kube-apiserver does on create: API defaulting, object validation, the LimitRanger and ResourceQuota admission plugins, and what the controllers create for a workload. A LimitRange or quota in the input governs every later object of its namespace. Each denial is printed exactly as kube-apiserver words it.

` + exitStatusHelp,
		Version:       versionString(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.ErrOut)
	root.SetFlagErrorFunc(flagError)
	only := -1
	for i, c := range subcommands {
		if len(args) > 0 && args[0] == c.name {
			only = i
		}
	}
	for i, c := range subcommands {
		if only < 0 || i == only {
			root.AddCommand(c.make(s))
		}
	}
	// A run of one of our commands cannot reach cobra's completion command,
	// so it is not built (its help texts cost start-up time); `completion`
	// and the shells' `__complete` are not ours and still get it.
	root.CompletionOptions.DisableDefaultCmd = only >= 0
	// Help fits 80 columns: Long texts are reflowed, flag usages wrapped.
	root.SetUsageTemplate(strings.ReplaceAll(root.UsageTemplate(), ".FlagUsages ", fmt.Sprintf(".FlagUsagesWrapped %d ", helpWidth)))
	// Reflowed when help is shown, not on every run.
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		c.Long = wrapText(c.Long, helpWidth)
		help(c, args)
	})
	if name == kubectlPluginName {
		const display = "kubectl limitcheck"
		root.Annotations = map[string]string{cobra.CommandDisplayNameAnnotation: display}
		for _, c := range root.Commands() {
			c.Example = strings.ReplaceAll(c.Example, root.Name()+" ", display+" ")
		}
	}
	return root
}
