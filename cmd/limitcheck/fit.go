package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/render"
)

// fitOptions are the parsed flags of `limitcheck fit`.
type fitOptions struct {
	inputOptions
	Output string
	Color  string
	Render render.Options
	// Quota is --quota: suggest the quotas the input needs instead.
	Quota bool
	// Rollout is --rollout: roll every Deployment out once after the input.
	Rollout bool
}

func newCmdFit(s streams) *cobra.Command {
	opts := &fitOptions{}
	cmd := &cobra.Command{
		Use:   "fit [-f PATH]... [PATH]...",
		Short: "How many replicas of each workload fit, and what refuses the next",
		Long: `Admit the input as check does and say, for every workload, the largest replica count that is admitted in full where it stands in the input (the objects before it admitted, those after it not yet), and what refuses the next replica: a quota and its resources, a LimitRange, or anything else kube-apiserver refuses, with its exact message; "unbounded" when nothing limits it up to 2147483647. Replicas are spec.replicas (or --replicas) for Deployments, ReplicaSets, ReplicationControllers and StatefulSets, nodes (--nodes) for DaemonSets and parallelism for Jobs and CronJobs. A workload that a HorizontalPodAutoscaler of the input targets also shows the HPA's minReplicas and maxReplicas and whether maxReplicas fits (--scale=max makes maxReplicas the replicas wanted). Then each namespace's quotas after the whole input, with what is free.

` + inputFlagsHelp() + `

-o text (the default), -o json, or -o describe: kubectl describe's layout, per namespace each quota as kubectl describe resourcequota prints it with a Free column, then a block per workload (replicas wanted and fit, what binds, its HPA and, with --rollout, its rollout); unreadable documents and notes go to stderr. -o describe takes neither --quota nor --quiet.

--quota prints instead, for every quota that refused something (or would, once the others admit more), the smallest hard values that admit everything quotas can admit in the input: the usage of each of its resources after the input admitted with quotas unenforced. The output is a ResourceQuota manifest to apply in place of the input's, each changed value with the input's in a comment, followed, in comments, by what stays refused whatever the quotas allow (LimitRanges, validation, a quota's "must specify"). With -o json: per suggested quota its place, the input's hard values, the suggested ones, the resources that change and the manifest, then what stays refused with kube-apiserver's messages. With --quota the exit status is 0 when nothing stays refused, 1 otherwise.

--rollout then rolls every Deployment out once, as kubectl rollout restart makes the Deployment controller do, against the namespace as the whole input leaves it (each on its own copy): a RollingUpdate surges by maxSurge (a percentage of the replicas rounded up) and removes old Pods as long as maxUnavailable (rounded down; 1 when both come out 0) allows, new Pods counting as available once admitted. It says whether the rollout completes or where it gets stuck, and the peak quota usage it needs. Recreate and StatefulSets need no extra Pod. A rollout that gets stuck makes the exit status 1.

Exit status: 0 every workload fits the replicas it wants (and its HPA's maxReplicas), 1 at least one does not, 2 bad input or usage, 3 internal error.`,
		Example: `  limitcheck fit -f quota.yaml -f deploy/
  limitcheck fit --nodes 20 -o json -f namespace/ -f daemonsets/
  limitcheck fit --quota -f quota.yaml -f release/ > quota-needed.yaml
  limitcheck fit -o describe --rollout -f quota.yaml -f deploy/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.complete(cmd.Flags(), args); err != nil {
				return err
			}
			if !slices.Contains(render.FitFormats, opts.Output) {
				return invalidFlagValue(cmd.Flags().Lookup("output"), opts.Output, "must be one of "+strings.Join(render.FitFormats, ", "))
			}
			if opts.Quota && opts.Rollout {
				return inputErrorf("--quota and --rollout cannot be combined")
			}
			if opts.Quota && opts.Output == "describe" {
				return inputErrorf("--quota prints a ResourceQuota manifest (-o text) or JSON (-o json): -o describe is not supported with it; without --quota, -o describe shows each quota's free amounts")
			}
			if opts.Render.Quiet && opts.Output == "describe" {
				return inputErrorf("--quiet leaves the tables out of the text report: it cannot be combined with -o describe, which is tables")
			}
			opts.Render.Version = versionString()
			color, err := resolveColor(opts.Color, s.Out)
			if err != nil {
				return err
			}
			opts.Render.Color = color
			return runFit(s, opts)
		},
	}
	opts.addFlags(cmd)
	fl := cmd.Flags()
	fl.StringVarP(&opts.Output, "output", "o", "text", "output format: one of "+strings.Join(render.FitFormats, ", "))
	fl.BoolVar(&opts.Render.Quiet, "quiet", false, "text: the workloads and the summary only, no tables")
	fl.BoolVar(&opts.Quota, "quota", false, "print the smallest quotas that admit the input, as a manifest")
	fl.BoolVar(&opts.Rollout, "rollout", false, "roll every Deployment out once after the input")
	fl.StringVar(&opts.Color, "color", "auto", "colour the text report: auto, always or never")
	_ = cmd.RegisterFlagCompletionFunc("color", cobra.FixedCompletions([]cobra.Completion{"auto", "always", "never"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions(render.FitFormats, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// runFit admits the input with fits and writes the fit report.
func runFit(s streams, opts *fitOptions) error {
	printWarnings(s.ErrOut, opts.warnings)
	rep, err := opts.runWith(check.Options{Fit: !opts.Quota, SuggestQuota: opts.Quota, Rollout: opts.Rollout && !opts.Quota}, s)
	if err != nil {
		return err
	}
	write := render.FitText
	switch {
	case opts.Quota && opts.Output == "json":
		write = render.QuotaJSON
	case opts.Quota:
		write = render.QuotaYAML
	case opts.Output == "json":
		write = render.FitJSON
	case opts.Output == "describe":
		write = render.FitDescribe
		// What the blocks leave out goes to stderr, as kubectl describe's errors do.
		if err := render.FitDescribeFindings(s.ErrOut, rep); err != nil {
			return &internalError{err: fmt.Errorf("writing output: %w", err)}
		}
	}
	if err := write(s.Out, rep, opts.Render); err != nil {
		return &internalError{err: fmt.Errorf("writing output: %w", err)}
	}
	sum := rep.Summary()
	if sum.Errors > 0 || sum.Internal > 0 {
		return &findingsError{errors: sum.Errors, internal: sum.Internal}
	}
	if opts.Quota {
		if len(rep.StillRefused) > 0 {
			return &findingsError{denied: len(rep.StillRefused)}
		}
		return nil
	}
	if !render.Fits(rep) {
		return &findingsError{denied: 1}
	}
	return nil
}
