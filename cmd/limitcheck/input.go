package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/limitcheck/limitcheck/internal/admissionconfig"
	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/load"
)

// inputOptions are the flags `check` and `describe` share: what to read and the
// semantics to admit it with.
type inputOptions struct {
	// Paths are the -f values, then (for check) the positional arguments.
	Paths     []string
	Recursive bool
	Namespace string
	// NamespaceSet is true when -n was given explicitly.
	NamespaceSet bool
	// Engine holds the semantics flags: gates, admission plugins, quota options,
	// controllers.
	Engine eval.Options

	// Order is --order: policies first (the default) or input order.
	Order check.Order

	files                                                                         []string
	gates, quotaUsage, configFile, enablePlugins, disablePlugins, replicas, order string
}

// addFlags binds the shared flags to fl.
func (o *inputOptions) addFlags(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringArrayVarP(&o.files, "filename", "f", nil, "file or directory to read, - for stdin (repeatable)")
	fl.BoolVarP(&o.Recursive, "recursive", "R", false, "walk directories recursively")
	fl.StringVarP(&o.Namespace, "namespace", "n", "default", "namespace of objects that set none")
	fl.StringVar(&o.gates, "feature-gates", "", "kube-apiserver feature gates, Name=bool,... (modelled: "+strings.Join(eval.KnownGates(), ", ")+")")
	fl.StringVar(&o.quotaUsage, "quota-usage", string(eval.QuotaUsageComputed), "where each quota's usage starts: computed (from the objects before it in the input, as the quota controller would) or observed (its status.used as written, e.g. from kubectl get resourcequota -o yaml)")
	fl.StringVar(&o.configFile, "admission-control-config-file", "", "kube-apiserver admission configuration (AdmissionConfiguration or ResourceQuotaConfiguration) with the ResourceQuota plugin's limitedResources")
	fl.StringVar(&o.enablePlugins, "enable-admission-plugins", "", "admission plugins to enable, as kube-apiserver takes them (LimitRanger and ResourceQuota are on by default)")
	fl.StringVar(&o.disablePlugins, "disable-admission-plugins", "", "admission plugins to disable, e.g. LimitRanger,ResourceQuota")
	fl.Bool("simulate-controllers", true, "follow each workload with what its controllers create (ReplicaSet, Pods, claims, Job); false admits every document as it is and nothing more")
	fl.StringVar(&o.replicas, "replicas", "spec", "replicas of every Deployment, ReplicaSet, ReplicationController and StatefulSet: spec (as written) or a number")
	fl.IntVar(&o.Engine.Nodes, "nodes", 1, "nodes a DaemonSet runs a Pod on")
	fl.Bool("namespace-objects", true, "every namespace holds the ConfigMap kube-root-ca.crt and the ServiceAccount default (namespace default also the Service kubernetes), as in a cluster: quotas count them and their names are taken")
	fl.StringVar(&o.order, "order", string(check.OrderPoliciesFirst), "admission order: policies-first (LimitRanges, ResourceQuotas and PriorityClasses, StorageClasses, RuntimeClasses before every other object, as a namespace has them before an app arrives) or input (each document in input order, as kubectl create -f replays them)")

	_ = cmd.MarkFlagFilename("filename", "yaml", "yml", "json")
	_ = cmd.MarkFlagFilename("admission-control-config-file", "yaml", "yml", "json")
	_ = cmd.RegisterFlagCompletionFunc("quota-usage", cobra.FixedCompletions([]cobra.Completion{string(eval.QuotaUsageComputed), string(eval.QuotaUsageObserved)}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("order", cobra.FixedCompletions([]cobra.Completion{string(check.OrderPoliciesFirst), string(check.OrderInput)}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("replicas", cobra.FixedCompletions([]cobra.Completion{"spec"}, cobra.ShellCompDirectiveNoFileComp))
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
}

// complete validates the shared flags and fills Engine.
func (o *inputOptions) complete(fl *pflag.FlagSet, args []string) error {
	o.Paths = append(append([]string(nil), o.files...), args...)
	o.NamespaceSet = fl.Changed("namespace")
	if len(o.Paths) == 0 {
		return inputErrorf("no input: give a file, a directory or - for stdin")
	}
	gates, err := eval.ParseFeatureGates(o.gates)
	if err != nil {
		return inputErrorf("invalid argument %q for \"--feature-gates\" flag: %w", o.gates, err)
	}
	nodes := o.Engine.Nodes
	o.Engine = eval.Options{DefaultNamespace: o.Namespace, Gates: gates, Nodes: nodes}
	if err := o.Engine.ApplyAdmissionPlugins(o.enablePlugins, o.disablePlugins); err != nil {
		return &inputError{err: err}
	}
	switch eval.QuotaUsage(o.quotaUsage) {
	case eval.QuotaUsageComputed, eval.QuotaUsageObserved:
		o.Engine.QuotaUsage = eval.QuotaUsage(o.quotaUsage)
	default:
		return inputErrorf("invalid argument %q for \"--quota-usage\" flag: must be computed or observed", o.quotaUsage)
	}
	if o.configFile != "" {
		if o.Engine.QuotaConfig, err = admissionconfig.LoadFile(o.configFile); err != nil {
			return &inputError{err: err}
		}
	}
	switch check.Order(o.order) {
	case check.OrderPoliciesFirst, check.OrderInput:
		o.Order = check.Order(o.order)
	default:
		return inputErrorf("invalid argument %q for \"--order\" flag: must be policies-first or input", o.order)
	}
	if v, _ := fl.GetBool("namespace-objects"); !v {
		o.Engine.OmitNamespaceObjects = true
	}
	if v, _ := fl.GetBool("simulate-controllers"); !v {
		o.Engine.DisableControllers = true
	}
	if o.replicas != "spec" {
		n, err := strconv.ParseInt(o.replicas, 10, 32)
		if err != nil || n < 0 {
			return inputErrorf("invalid argument %q for \"--replicas\" flag: must be spec or a non-negative number", o.replicas)
		}
		r := int32(n)
		o.Engine.Replicas = &r
	}
	if nodes < 0 {
		return inputErrorf("invalid argument \"%d\" for \"--nodes\" flag: must not be negative", nodes)
	}
	return nil
}

// run reads and admits the input.
func (o *inputOptions) run(s streams) (*check.Report, error) {
	rep, err := check.Run(check.Options{
		Paths:     o.Paths,
		Recursive: o.Recursive,
		Stdin:     s.In,
		Engine:    o.Engine,
		// kubectl refuses a mismatching object namespace only when -n was given.
		EnforceNamespace: o.NamespaceSet,
		Order:            o.Order,
	})
	if err != nil {
		var le *load.Error
		if errors.As(err, &le) {
			return nil, le
		}
		return nil, &inputError{err: fmt.Errorf("reading input: %w", err)}
	}
	return rep, nil
}
