package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/render"
)

// checkOptions are the parsed flags of `limitcheck check`.
type checkOptions struct {
	streams streams
	inputOptions
	Output string
	Format render.Format
	// FailOn is --fail-on: denied (default), warning or never.
	FailOn string
	// Color is --color: auto, always or never; Render holds the decision.
	Color  string
	Render render.Options
}

func newCmdCheck(s streams, runF func(*checkOptions) error) *cobra.Command {
	opts := &checkOptions{streams: s}
	cmd := &cobra.Command{
		Use:   "check [-f PATH]... [PATH]...",
		Short: "Admit manifests as kube-apiserver would and report the denials",
		Long: `Read every manifest and admit each object as kube-apiserver would on create, then report every denial as kube-apiserver words it. A path is a file, a directory (its .yaml, .yml and .json files; with -R also those of its subdirectories) or - for standard input. Paths given with -f are read first, then the positional ones, each in the order given.

` + inputFlagsHelp() + `

-o text (the default) groups the findings by namespace; -o json prints every object with its verdict. For CI, -o sarif prints a SARIF log for code scanning, -o junit a JUnit XML test report, -o codeclimate a GitLab code quality report and -o github GitHub Actions annotations, plus the -o markdown summary appended to $GITHUB_STEP_SUMMARY when it is set. --color=auto colours the text report when stdout is a terminal, unless NO_COLOR is set or TERM=dumb.

The policies are linted as limitcheck lint does: its findings (a LimitRange whose defaults it refuses itself, a quota that makes requests mandatory with no default, ...) are warnings on the policy's line; --lint=false leaves them out.

` + exitStatusHelp,
		Example: `  limitcheck check -f limits.yaml -f deploy/
  helm template ./chart | limitcheck check -n team-a -
  limitcheck check --replicas 10 -f quota.yaml -f deploy/web.yaml
  limitcheck check -R -o json manifests/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.complete(cmd.Flags(), args); err != nil {
				return err
			}
			f, err := render.Lookup(opts.Output)
			if err != nil {
				return invalidFlagValue(cmd.Flags().Lookup("output"), opts.Output, "must be one of "+strings.Join(render.Formats(), ", "))
			}
			opts.Format = f
			opts.Render.Version = versionString()
			color, err := resolveColor(opts.Color, s.Out)
			if err != nil {
				return err
			}
			opts.Render.Color = color
			if err := oneOf(cmd.Flags().Lookup("fail-on"), opts.FailOn, failOnDenied, failOnWarning, failOnNever); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runCheck(opts)
		},
	}
	opts.addFlags(cmd)
	fl := cmd.Flags()
	fl.StringVarP(&opts.Output, "output", "o", render.Default, "output format: one of "+strings.Join(render.Formats(), ", "))
	fl.StringVar(&opts.FailOn, "fail-on", failOnDenied, "exit 1 on: denied, warning (denials or warnings) or never")
	fl.BoolVar(&opts.Render.Quiet, "quiet", false, "text: findings and the summary only: no tables, and the documents that are no object counted, not listed")
	fl.BoolVar(&opts.Lint, "lint", true, "report lint findings about the policies as warnings (see limitcheck lint)")
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions([]cobra.Completion{failOnDenied, failOnWarning, failOnNever}, cobra.ShellCompDirectiveNoFileComp))
	fl.StringVar(&opts.Color, "color", "auto", "colour the text report: auto, always or never")
	_ = cmd.RegisterFlagCompletionFunc("color", cobra.FixedCompletions([]cobra.Completion{"auto", "always", "never"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		comps := make([]cobra.Completion, 0, len(render.Formats()))
		for _, name := range render.Formats() {
			f, _ := render.Lookup(name)
			comps = append(comps, cobra.CompletionWithDesc(name, f.Description()))
		}
		return comps, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// resolveColor is --color: always, never, or auto (colorAuto on out).
func resolveColor(flag string, out any) (bool, error) {
	switch flag {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		return colorAuto(out), nil
	}
	return false, inputErrorf("invalid argument %q for \"--color\" flag: must be auto, always or never", flag)
}

// colorAuto: colour only on a terminal, and never under NO_COLOR (any non-empty
// value, no-color.org) or TERM=dumb.
func colorAuto(out any) bool {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := out.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// runCheck evaluates the inputs and writes the report to stdout. A path that
// cannot be read stops the run before anything is written.
func runCheck(opts *checkOptions) error {
	// A format that can takes the entries as they are decided, so that the
	// run holds only what that format still needs.
	var stream render.Stream
	var take func(*check.Entry) bool
	if s, ok := opts.Format.(render.Streamer); ok {
		stream = s.Stream(opts.streams.Out, opts.Render)
		take = stream.Entry
	}
	rep, err := opts.run(opts.streams, take)
	if err != nil {
		if stream != nil {
			stream.Discard()
		}
		return err
	}
	rep.AddLintWarnings()
	if opts.Output == "github" {
		// GitHub Actions names the step summary file in GITHUB_STEP_SUMMARY.
		if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			if err != nil {
				return &internalError{err: fmt.Errorf("opening the step summary: %w", err)}
			}
			defer f.Close()
			opts.Render.StepSummary = f
		}
	}
	write := func() error { return opts.Format.Render(opts.streams.Out, rep, opts.Render) }
	if stream != nil {
		write = func() error { return stream.Finish(rep) }
	}
	if err := write(); err != nil {
		return &internalError{err: fmt.Errorf("writing output: %w", err)}
	}
	if f, ok := opts.Render.StepSummary.(*os.File); ok {
		if err := f.Close(); err != nil {
			return &internalError{err: fmt.Errorf("writing the step summary: %w", err)}
		}
	}
	s := rep.Summary()
	if s.Errors > 0 || s.Internal > 0 {
		return &findingsError{denied: s.Denied, errors: s.Errors, internal: s.Internal}
	}
	switch {
	case opts.FailOn == failOnNever:
	case s.Denied > 0, opts.FailOn == failOnWarning && s.Warned > 0:
		return &findingsError{denied: s.Denied, warned: s.Warned}
	}
	return nil
}

// --fail-on values: what makes check exit 1. Bad input (2) and internal
// errors (3) are never hidden.
const (
	failOnDenied  = "denied"
	failOnWarning = "warning"
	failOnNever   = "never"
)
