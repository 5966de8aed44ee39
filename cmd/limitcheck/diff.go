package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/diff"
	"github.com/limitcheck/limitcheck/internal/gitref"
	"github.com/limitcheck/limitcheck/internal/render"
)

// diffOptions are the parsed flags of `limitcheck diff`.
type diffOptions struct {
	streams streams
	inputOptions
	Output  string
	Format  render.DiffFormat
	FailOn  string
	Color   string
	BaseRef string
	Render  render.Options
	// base and head are the paths of each side.
	base, head []string
}

// --fail-on values of diff.
const (
	diffFailOnNewDenial = "new-denial"
	diffFailOnAnyDenial = "any-denial"
	diffFailOnNever     = "never"
)

func newCmdDiff(s streams, runF func(*diffOptions) error) *cobra.Command {
	opts := &diffOptions{streams: s}
	cmd := &cobra.Command{
		Use:   "diff [-f PATH]... (BASE HEAD | --base-ref REF PATH...)",
		Short: "Compare two input sets: what a change newly gets refused",
		Long: `Admit two input sets, BASE and HEAD, as check does, and report per namespace what HEAD changes: objects newly denied, workloads refused in both that HEAD admits fewer replicas of, objects newly admitted, removed while denied, refused in both for another reason, and how many are refused in both for the same reason (-v lists them); then each quota's usage before and after with the delta, and the replicas admitted before and after. Objects are matched by kind, namespace and name, so a moved file is not a change. BASE and HEAD are paths; -f paths are read on both sides. With --base-ref REF, every path is read twice: as it is in git revision REF (without a checkout; the current directory must be inside a git work tree) for BASE, and as it is on disk for HEAD.

-o text (the default) or -o json (schemaVersion, summary, namespaces).

Exit status: 0 HEAD adds no denial, 1 it does, a workload with fewer replicas admitted included (--fail-on any-denial: HEAD has any denial; never: always 0), 2 bad input or usage, 3 internal error.`,
		Example: `  limitcheck diff -f policy/ deploy-main/ deploy/
  limitcheck diff --base-ref origin/main -f policy/ deploy/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case opts.BaseRef == "" && len(args) != 2:
				return inputErrorf("diff needs BASE and HEAD, or --base-ref REF and the paths: got %d path(s)", len(args))
			case opts.BaseRef != "" && len(args)+len(opts.files) == 0:
				return inputErrorf("no input: give the paths to compare with --base-ref")
			}
			if err := opts.complete(cmd.Flags(), args); err != nil {
				return err
			}
			if opts.BaseRef == "" {
				opts.base = append(append([]string(nil), opts.files...), args[0])
				opts.head = append(append([]string(nil), opts.files...), args[1])
			} else {
				opts.base, opts.head = opts.Paths, opts.Paths
			}
			f, err := render.LookupDiff(opts.Output)
			if err != nil {
				return invalidFlagValue(cmd.Flags().Lookup("output"), opts.Output, "must be one of "+strings.Join(render.DiffFormats(), ", "))
			}
			opts.Format = f
			opts.Render.Version = versionString()
			color, err := resolveColor(opts.Color, s.Out)
			if err != nil {
				return err
			}
			opts.Render.Color = color
			if err := oneOf(cmd.Flags().Lookup("fail-on"), opts.FailOn, diffFailOnNewDenial, diffFailOnAnyDenial, diffFailOnNever); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runDiff(opts)
		},
	}
	opts.addFlags(cmd)
	fl := cmd.Flags()
	fl.StringVarP(&opts.Output, "output", "o", render.Default, "output format: one of "+strings.Join(render.DiffFormats(), ", "))
	fl.StringVar(&opts.FailOn, "fail-on", diffFailOnNewDenial, "exit 1 on: new-denial, any-denial or never")
	fl.StringVar(&opts.BaseRef, "base-ref", "", "read BASE from this git revision of the same paths")
	fl.BoolVarP(&opts.Render.Verbose, "verbose", "v", false, "list the objects denied in both")
	fl.BoolVar(&opts.Render.Quiet, "quiet", false, "text: no quota tables")
	fl.StringVar(&opts.Color, "color", "auto", "colour the text report: auto, always or never")
	_ = cmd.RegisterFlagCompletionFunc("fail-on", cobra.FixedCompletions([]cobra.Completion{diffFailOnNewDenial, diffFailOnAnyDenial, diffFailOnNever}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("color", cobra.FixedCompletions([]cobra.Completion{"auto", "always", "never"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions(render.DiffFormats(), cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// runDiff admits both sides, writes the comparison and says how to exit.
func runDiff(opts *diffOptions) error {
	var tree *gitref.Tree
	if opts.BaseRef != "" {
		var err error
		if tree, err = gitref.Read(opts.BaseRef, opts.base, os.TempDir()); err != nil {
			return &inputError{err: err}
		}
		defer tree.Remove()
		opts.base = tree.Paths
		for _, p := range tree.New {
			opts.warnings = append(opts.warnings, fmt.Sprintf("%s does not exist at %s: new since, it is read as empty on the BASE side", p, opts.BaseRef))
		}
	}
	side := func(paths []string) (*check.Report, error) {
		in := opts.inputOptions
		in.Paths = paths
		in.warnings = nil
		return in.run(opts.streams, nil)
	}
	printWarnings(opts.streams.ErrOut, opts.warnings)
	base := &check.Report{} // every path new at --base-ref: nothing before
	if len(opts.base) > 0 {
		var err error
		if base, err = side(opts.base); err != nil {
			var none *check.NoObjectsError
			if tree == nil || !errors.As(err, &none) {
				return err
			}
			// The revision's paths held no objects yet (a first manifest).
			base = &check.Report{}
			printWarnings(opts.streams.ErrOut, []string{fmt.Sprintf("the paths hold no objects at %s: the BASE side is empty", opts.BaseRef)})
		}
	}
	if tree != nil {
		base.RenameFiles(tree.Name)
	}
	head, err := side(opts.head)
	if err != nil {
		return err
	}
	d := diff.Compare(base, head)
	if err := opts.Format.Render(opts.streams.Out, d, opts.Render); err != nil {
		return &internalError{err: fmt.Errorf("writing output: %w", err)}
	}
	unreadable := 0
	for _, r := range []*check.Report{base, head} {
		for i := range r.Entries {
			if e := r.Entries[i].Err; e != nil {
				printError(opts.streams.ErrOut, e)
				unreadable++
			}
		}
	}
	if unreadable > 0 {
		return &findingsError{errors: unreadable}
	}
	switch {
	case opts.FailOn == diffFailOnNever:
	case d.NewlyDenied+d.FewerAdmitted > 0, opts.FailOn == diffFailOnAnyDenial && d.HeadDenied > 0:
		return &findingsError{denied: d.NewlyDenied + d.FewerAdmitted}
	}
	return nil
}
