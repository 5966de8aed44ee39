package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/limitcheck/limitcheck/internal/admissionconfig"
	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/load"
	"github.com/limitcheck/limitcheck/internal/render"
)

// checkOptions are the parsed flags of `limitcheck check`.
type checkOptions struct {
	streams streams

	// Paths are the -f values, then the positional arguments, in that order.
	Paths     []string
	Recursive bool
	Namespace string
	// NamespaceSet is true when -n was given explicitly.
	NamespaceSet bool
	Output       string
	// Engine holds the semantics flags: gates, admission plugins, quota options.
	Engine eval.Options
	Format render.Format
	Gates  eval.FeatureGates
}

func newCmdCheck(s streams, runF func(*checkOptions) error) *cobra.Command {
	opts := &checkOptions{streams: s}
	var files []string
	var gates, quotaUsage, configFile, enablePlugins, disablePlugins string
	cmd := &cobra.Command{
		Use:   "check [-f PATH]... [PATH]...",
		Short: "Admit manifests as kube-apiserver would and report the denials",
		Long: `Read every manifest, in order, and admit each object as kube-apiserver would on
create. A path is a file, a directory (its .yaml, .yml and .json files; with -R also
those of its subdirectories) or - for standard input. Paths given with -f are read
first, then the positional ones, each in the order given; a LimitRange governs the
objects that come after it.`,
		Example: `  limitcheck check -f limits.yaml -f deploy/
  helm template ./chart | limitcheck check -n team-a -
  limitcheck check -R -o json manifests/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = append(append([]string(nil), files...), args...)
			opts.NamespaceSet = cmd.Flags().Changed("namespace")
			if len(opts.Paths) == 0 {
				return inputErrorf("no input: give a file, a directory or - for stdin")
			}
			f, err := render.Lookup(opts.Output)
			if err != nil {
				return &inputError{err: err}
			}
			opts.Format = f
			if opts.Gates, err = eval.ParseFeatureGates(gates); err != nil {
				return inputErrorf("invalid argument %q for \"--feature-gates\" flag: %w", gates, err)
			}
			opts.Engine = eval.Options{DefaultNamespace: opts.Namespace, Gates: opts.Gates}
			if err := opts.Engine.ApplyAdmissionPlugins(enablePlugins, disablePlugins); err != nil {
				return &inputError{err: err}
			}
			switch eval.QuotaUsage(quotaUsage) {
			case eval.QuotaUsageComputed, eval.QuotaUsageObserved:
				opts.Engine.QuotaUsage = eval.QuotaUsage(quotaUsage)
			default:
				return inputErrorf("invalid argument %q for \"--quota-usage\" flag: must be computed or observed", quotaUsage)
			}
			if configFile != "" {
				if opts.Engine.QuotaConfig, err = admissionconfig.LoadFile(configFile); err != nil {
					return &inputError{err: err}
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return runCheck(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVarP(&files, "filename", "f", nil, "file or directory to check, - for stdin (repeatable; read before positional paths)")
	fl.BoolVarP(&opts.Recursive, "recursive", "R", false, "walk directories recursively")
	fl.StringVarP(&opts.Namespace, "namespace", "n", "default", "namespace of objects that set none")
	fl.StringVarP(&opts.Output, "output", "o", render.Default, "output format: one of "+strings.Join(render.Formats(), ", "))
	fl.StringVar(&gates, "feature-gates", "", "kube-apiserver feature gates, Name=bool,... (modelled: "+strings.Join(eval.KnownGates(), ", ")+")")

	fl.StringVar(&quotaUsage, "quota-usage", string(eval.QuotaUsageComputed), "where each quota's usage starts: computed (from the objects before it in the input, as the quota controller would) or observed (its status.used as written, e.g. from kubectl get resourcequota -o yaml)")
	fl.StringVar(&configFile, "admission-control-config-file", "", "kube-apiserver admission configuration (AdmissionConfiguration or ResourceQuotaConfiguration) with the ResourceQuota plugin's limitedResources")
	fl.StringVar(&enablePlugins, "enable-admission-plugins", "", "admission plugins to enable, as kube-apiserver takes them (LimitRanger and ResourceQuota are on by default)")
	fl.StringVar(&disablePlugins, "disable-admission-plugins", "", "admission plugins to disable, e.g. LimitRanger,ResourceQuota")

	_ = cmd.MarkFlagFilename("filename", "yaml", "yml", "json")
	_ = cmd.MarkFlagFilename("admission-control-config-file", "yaml", "yml", "json")
	_ = cmd.RegisterFlagCompletionFunc("quota-usage", cobra.FixedCompletions([]cobra.Completion{string(eval.QuotaUsageComputed), string(eval.QuotaUsageObserved)}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		comps := make([]cobra.Completion, 0, len(render.Formats()))
		for _, name := range render.Formats() {
			f, _ := render.Lookup(name)
			comps = append(comps, cobra.CompletionWithDesc(name, f.Description()))
		}
		return comps, cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("feature-gates", func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		// Complete the last element of a comma-separated list.
		done := toComplete[:strings.LastIndex(toComplete, ",")+1]
		var comps []cobra.Completion
		for _, g := range eval.KnownGates() {
			comps = append(comps, done+g+"=true", done+g+"=false")
		}
		return comps, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	})
	_ = cmd.RegisterFlagCompletionFunc("namespace", cobra.NoFileCompletions)
	return cmd
}

// runCheck evaluates the inputs and writes the report to stdout. A path that
// cannot be read stops the run before anything is written.
func runCheck(opts *checkOptions) error {
	rep, err := check.Run(check.Options{
		Paths:     opts.Paths,
		Recursive: opts.Recursive,
		Stdin:     opts.streams.In,
		Engine:    opts.Engine,
		// kubectl refuses a mismatching object namespace only when -n was given.
		EnforceNamespace: opts.NamespaceSet,
	})
	if err != nil {
		var le *load.Error
		if errors.As(err, &le) {
			return le
		}
		return &inputError{err: fmt.Errorf("reading input: %w", err)}
	}
	if err := opts.Format.Render(opts.streams.Out, rep); err != nil {
		return &internalError{err: fmt.Errorf("writing output: %w", err)}
	}
	if s := rep.Summary(); s.Denied > 0 || s.Errors > 0 {
		return &findingsError{denied: s.Denied, errors: s.Errors}
	}
	return nil
}
