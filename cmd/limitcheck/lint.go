package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/limitcheck/limitcheck/internal/render"
)

// lintOptions are the parsed flags of `limitcheck lint`.
type lintOptions struct {
	streams streams
	inputOptions
	Output string
	Format render.Format
	// FailOn is --fail-on: warning (default: any finding), error or never.
	FailOn string
	Color  string
	Render render.Options
}

// --fail-on values of lint.
const (
	lintFailOnWarning = "warning"
	lintFailOnError   = "error"
	lintFailOnNever   = "never"
)

func newCmdLint(s streams, runF func(*lintOptions) error) *cobra.Command {
	opts := &lintOptions{streams: s}
	cmd := &cobra.Command{
		Use:   "lint [-f PATH]... [PATH]...",
		Short: "Report policies that defeat themselves or each other",
		Long: `Read the manifests as check does, admit the policies (LimitRanges, ResourceQuotas, PriorityClasses and the quota admission configuration) and report what kube-apiserver admits but never says is wrong: defaults a LimitRange refuses itself, quotas that make requests or limits mandatory with no LimitRange default, minimums and defaults above a quota, LimitRanges or quotas whose effect depends on the order kube-apiserver lists them in, quota scopes no Pod matches, limitedResources no quota covers, and PriorityClass names the input does not define. Each finding has a rule ID, a severity (error or warning), the file and line, and a fix. check reports the same findings as warnings unless --lint=false.

` + inputFlagsHelp() + `

-o text (the default) prints one line per finding and a summary; -o json one document with schemaVersion, summary, findings and inputErrors.

Exit status: 0 no finding (with --fail-on error: no error; with --fail-on never: always), 1 a finding, 2 bad input or usage, 3 internal error.`,
		Example: `  limitcheck lint policy/
  limitcheck lint --fail-on error -o json -f limits.yaml -f quota.yaml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.complete(cmd.Flags(), args); err != nil {
				return err
			}
			f, err := render.LookupLint(opts.Output)
			if err != nil {
				return invalidFlagValue(cmd.Flags().Lookup("output"), opts.Output, "must be one of "+strings.Join(render.LintFormats(), ", "))
			}
			opts.Format = f
			opts.Render.Version = versionString()
			color, err := resolveColor(opts.Color, s.Out)
			if err != nil {
				return err
			}
			opts.Render.Color = color
			if err := oneOf(cmd.Flags().Lookup("fail-on"), opts.FailOn, lintFailOnWarning, lintFailOnError, lintFailOnNever); err != nil {
				return err
			}
			opts.Lint = true
			if runF != nil {
				return runF(opts)
			}
			return runLint(opts)
		},
	}
	opts.addFlags(cmd)
	fl := cmd.Flags()
	fl.StringVarP(&opts.Output, "output", "o", render.Default, "output format: one of "+strings.Join(render.LintFormats(), ", "))
	fl.StringVar(&opts.FailOn, "fail-on", lintFailOnWarning, "exit 1 on: warning (any finding), error or never")
	fl.StringVar(&opts.Color, "color", "auto", "colour the text report: auto, always or never")
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions([]cobra.Completion{lintFailOnWarning, lintFailOnError, lintFailOnNever}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("color", cobra.FixedCompletions([]cobra.Completion{"auto", "always", "never"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var comps []cobra.Completion
		for _, name := range render.LintFormats() {
			f, _ := render.LookupLint(name)
			comps = append(comps, cobra.CompletionWithDesc(name, f.Description()))
		}
		return comps, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// runLint admits the input, writes the lint report and says how to exit.
func runLint(opts *lintOptions) error {
	rep, err := opts.run(opts.streams, nil)
	if err != nil {
		return err
	}
	if err := opts.Format.Render(opts.streams.Out, rep, opts.Render); err != nil {
		return &internalError{err: fmt.Errorf("writing output: %w", err)}
	}
	s := render.SummarizeLint(rep)
	if s.InputErrors > 0 {
		return &findingsError{errors: s.InputErrors}
	}
	switch {
	case opts.FailOn == lintFailOnNever:
	case s.Errors > 0, opts.FailOn == lintFailOnWarning && s.Warnings > 0:
		return &findingsError{denied: s.Errors, warned: s.Warnings}
	}
	return nil
}
