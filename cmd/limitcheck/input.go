package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/limitcheck/limitcheck/internal/eval/features"
	"github.com/limitcheck/limitcheck/internal/eval/quota"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/limitcheck/limitcheck/internal/admissionconfig"
	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/cluster"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/load"
	"github.com/limitcheck/limitcheck/internal/rules"
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
	// SkipUnknown is --skip-unknown: kinds not served are skipped, not errors.
	SkipUnknown bool
	// Strict is --strict; Ignore the --ignore-path patterns.
	Strict bool
	Ignore []string
	// SkipNonObjects is --skip-non-objects.
	SkipNonObjects bool
	// Lint runs the lint rules over the admitted policies.
	Lint bool

	// FromCluster is --from-cluster: the input meets a live cluster's
	// policies, classes and names, read through kubectl (CL-01).
	FromCluster bool
	// Cluster says which kubectl and context --from-cluster uses.
	Cluster cluster.Options

	files                                                                         []string
	gates, quotaUsage, configFile, enablePlugins, disablePlugins, replicas, order string
	nodes, scale, serviceCIDRs                                                    string
	// Scale is --scale (FIT-04).
	Scale check.Scale
	// warnings are printed on stderr before the input is read.
	warnings []string
}

// addFlags binds the shared flags to fl.
func (o *inputOptions) addFlags(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringArrayVarP(&o.files, "filename", "f", nil, "file or directory to read, - for stdin (repeatable)")
	fl.BoolVarP(&o.Recursive, "recursive", "R", false, "walk directories recursively")
	o.Namespace = "default"
	fl.VarP(&checkedValue{p: &o.Namespace, typ: "string", check: checkNamespace}, "namespace", "n", "namespace of objects that set none")
	fl.StringVar(&o.gates, "feature-gates", "", "kube-apiserver feature gates: Name=bool,...")
	fl.StringVar(&o.quotaUsage, "quota-usage", string(quota.UsageComputed), "where quota usage starts: computed or observed")
	fl.StringVar(&o.configFile, "admission-control-config-file", "", "kube-apiserver admission configuration file")
	fl.StringVar(&o.enablePlugins, "enable-admission-plugins", "", "admission plugins to enable, as kube-apiserver")
	fl.StringVar(&o.disablePlugins, "disable-admission-plugins", "", "admission plugins to disable, as kube-apiserver")
	fl.Bool("simulate-controllers", true, "admit what controllers create")
	o.replicas = "spec"
	fl.Var(&checkedValue{p: &o.replicas, typ: "string", check: checkReplicas}, "replicas", "replicas of every scalable workload: spec or N")
	fl.StringVar(&o.scale, "scale", string(check.ScaleSpec), "replicas of the workloads the input's HPAs target: spec, max or min")
	o.nodes = "1"
	fl.Var(&checkedValue{p: &o.nodes, typ: "int", check: checkNodes}, "nodes", "nodes a DaemonSet runs a Pod on")
	o.serviceCIDRs = eval.DefaultServiceCIDRs[0].String()
	fl.Var(&checkedValue{p: &o.serviceCIDRs, typ: "string", check: checkServiceCIDRs}, "service-cluster-ip-range", "the cluster's service CIDR, or an IPv4 and an IPv6 one for dual-stack (kube-apiserver's flag)")
	fl.Bool("namespace-objects", true, "count the objects every namespace holds (kube-root-ca.crt, default)")
	fl.StringVar(&o.order, "order", string(check.OrderPoliciesFirst), "admission order: policies-first or input")
	fl.BoolVar(&o.SkipUnknown, "skip-unknown", false, "skip kinds kube-apiserver 1.36 does not serve")
	fl.Bool("allow-privileged", true, "allow privileged containers, as clusters run")
	fl.BoolVar(&o.Strict, "strict", false, "a YAML key given twice is an error, not a warning")
	fl.StringArrayVar(&o.Ignore, "ignore-path", nil, "do not read paths matching GLOB (repeatable)")
	fl.BoolVar(&o.SkipNonObjects, "skip-non-objects", false, "skip documents of named files that are not Kubernetes objects (for pre-commit)")
	fl.BoolVar(&o.FromCluster, "from-cluster", false, "check against the live cluster's LimitRanges, quotas, classes and names, read with kubectl (kubectl limitcheck: on when a context is set)")
	fl.StringVar(&o.Cluster.Context, "context", "", "kubeconfig context --from-cluster reads (kubectl's --context)")
	fl.StringVar(&o.Cluster.Kubeconfig, "kubeconfig", "", "kubeconfig file --from-cluster reads (kubectl's --kubeconfig)")
	fl.StringVar(&o.Cluster.Kubectl, "kubectl", "", "kubectl binary --from-cluster runs (default kubectl on PATH)")
	fl.StringVar(&o.Cluster.RequestTimeout, "request-timeout", "", "kubectl's --request-timeout for --from-cluster (e.g. 30s)")

	_ = cmd.MarkFlagFilename("filename", "yaml", "yml", "json")
	_ = cmd.MarkFlagFilename("admission-control-config-file", "yaml", "yml", "json")
	_ = cmd.MarkFlagFilename("kubeconfig")
	_ = cmd.MarkFlagFilename("kubectl")
	for _, name := range []string{"context", "request-timeout"} {
		_ = cmd.RegisterFlagCompletionFunc(name, cobra.NoFileCompletions)
	}
	_ = cmd.RegisterFlagCompletionFunc("quota-usage", cobra.FixedCompletions([]cobra.Completion{string(quota.UsageComputed), string(quota.UsageObserved)}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("order", cobra.FixedCompletions([]cobra.Completion{string(check.OrderPoliciesFirst), string(check.OrderInput)}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("scale", cobra.FixedCompletions([]cobra.Completion{string(check.ScaleSpec), string(check.ScaleMax), string(check.ScaleMin)}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("replicas", cobra.FixedCompletions([]cobra.Completion{"spec"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("feature-gates", func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		// Complete the last element of a comma-separated list.
		done := toComplete[:strings.LastIndex(toComplete, ",")+1]
		var comps []cobra.Completion
		for _, g := range features.Known() {
			comps = append(comps, done+g+"=true", done+g+"=false")
		}
		return comps, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	})
	_ = cmd.RegisterFlagCompletionFunc("namespace", cobra.NoFileCompletions)
}

// inputFlagsHelp explains the shared flags, for the Long text of check and
// describe (the flags' own usage lines stay short).
func inputFlagsHelp() string {
	return `--order=policies-first (the default) admits Namespaces, LimitRanges, ResourceQuotas, PriorityClasses, StorageClasses and RuntimeClasses before every other object, as a namespace has them before an application arrives; --order=input admits every document in input order, as kubectl create -f replays them. An apiVersion/kind kube-apiserver 1.36 does not serve (a removed beta, a typo) is kubectl's "no matches for kind" error, or skipped with --skip-unknown; custom resources count as objects, with the scope and plural of their CustomResourceDefinition when the input has it (a CustomResourceDefinition kube-apiserver refuses serves nothing: its custom resources are "no matches for kind"); tool configuration files (Kustomization, ...) are skipped, and so are files found in a directory that are not Kubernetes objects (a Helm values.yaml); --ignore-path GLOB leaves out paths matching GLOB, by their whole path or their last components (values.yaml, charts/*). A YAML key given twice is a warning (kubectl keeps the last value silently), an error with --strict. Every namespace holds what a cluster puts in it, the ConfigMap kube-root-ca.crt and the ServiceAccount default (namespace default also the Service kubernetes): quotas count them and their names are taken; --namespace-objects=false checks against empty namespaces. --allow-privileged is kube-apiserver's flag; its own default is false, but kubeadm, kind, minikube and managed clusters set it true, as limitcheck does by default.

Workloads are followed by what their controllers create (a Deployment's ReplicaSet and Pods, a StatefulSet's claims and Pods, a Job's Pods, ...). --replicas N scales every Deployment, ReplicaSet, ReplicationController and StatefulSet; --scale=max (or min) scales every one a HorizontalPodAutoscaler of the input targets (scaleTargetRef, in the HPA's namespace) to the HPA's maxReplicas (or minReplicas), wherever the HPA is in the input, and cannot be combined with --replicas N; --nodes N is how many Pods a DaemonSet runs; --service-cluster-ip-range is the cluster's service CIDR (kubeadm's 10.96.0.0/12 by default; k3s 10.43.0.0/16, EKS 172.20.0.0/16, kube-apiserver's own default 10.0.0.0/24), or an IPv4 and an IPv6 CIDR, the primary first, for a dual-stack cluster: it decides which explicit clusterIPs are in range and which IP families Services may ask for; --simulate-controllers=false admits every document as it is and nothing more.

--quota-usage=computed (the default) starts each quota from the objects admitted before it, as the quota controller would; observed starts it from its status.used as written (e.g. by kubectl get resourcequota -o yaml). --admission-control-config-file takes kube-apiserver's AdmissionConfiguration or a ResourceQuotaConfiguration, for the ResourceQuota plugin's limitedResources and the PodSecurity plugin's defaults and exemptions. --enable-admission-plugins and --disable-admission-plugins take kube-apiserver's plugin names (LimitRanger and ResourceQuota are on by default). --feature-gates takes kube-apiserver's syntax for the gates limitcheck models: ` + strings.Join(features.Known(), ", ") + `.

--from-cluster checks the input against a live cluster, read with your own kubectl (--kubectl PATH, else kubectl on PATH; --context, --kubeconfig and --request-timeout are passed to it): the LimitRanges and ResourceQuotas of the namespaces the input writes to, each quota with the status.used the cluster reports, those namespaces' Pod Security labels, the cluster's PriorityClasses, StorageClasses and RuntimeClasses, and the names of existing objects of the input's kinds, so that creating one is kube-apiserver's 409. A LimitRange, ResourceQuota, class or Namespace of the input with the name of a live one replaces it. As kubectl limitcheck it is on when kubectl has a context (--context or a current context); --from-cluster=false stays offline.`
}

// complete validates the shared flags and fills Engine.
func (o *inputOptions) complete(fl *pflag.FlagSet, args []string) error {
	o.Paths = append(append([]string(nil), o.files...), args...)
	// An empty -n is no -n, as client-go reads an empty namespace.
	o.NamespaceSet = fl.Changed("namespace") && o.Namespace != ""
	if o.Namespace == "" {
		o.Namespace = "default"
	}
	if len(o.Paths) == 0 {
		return inputErrorf("no input: give a file, a directory or - for stdin")
	}
	gates, err := features.Parse(o.gates)
	if err != nil {
		return inputErrorf("invalid argument %q for \"--feature-gates\" flag: %w", o.gates, err)
	}
	nodes, _ := strconv.Atoi(o.nodes)                  // checked by checkNodes
	cidrs, _ := eval.ParseServiceCIDRs(o.serviceCIDRs) // checked by checkServiceCIDRs
	o.Engine = eval.Options{DefaultNamespace: o.Namespace, Gates: gates, Nodes: nodes, ServiceCIDRs: cidrs}
	if err := o.Engine.ApplyAdmissionPlugins(o.enablePlugins, o.disablePlugins); err != nil {
		return &inputError{err: err}
	}
	if names := eval.UnsimulatedPlugins(o.enablePlugins); len(names) > 0 {
		o.warnings = append(o.warnings, "--enable-admission-plugins: limitcheck does not simulate "+strings.Join(names, ", ")+"; it runs LimitRanger, ResourceQuota, Priority, DefaultStorageClass, RuntimeClass and PodSecurity only")
	}
	if err := oneOf(fl.Lookup("quota-usage"), o.quotaUsage, string(quota.UsageComputed), string(quota.UsageObserved)); err != nil {
		return err
	}
	o.Engine.QuotaUsage = quota.Usage(o.quotaUsage)
	if o.configFile != "" {
		if o.Engine.QuotaConfig, err = admissionconfig.LoadFile(o.configFile); err != nil {
			// The file itself cannot be read: a bad flag value. Errors in its
			// content name the file and line.
			var pe *fs.PathError
			if errors.As(err, &pe) && pe.Path == o.configFile {
				return invalidFlagValue(fl.Lookup("admission-control-config-file"), o.configFile, pe.Err)
			}
			return &inputError{err: err}
		}
		if o.Engine.PodSecurity, err = admissionconfig.LoadPodSecurity(o.configFile); err != nil {
			return &inputError{err: err}
		}
	}
	if err := oneOf(fl.Lookup("order"), o.order, string(check.OrderPoliciesFirst), string(check.OrderInput)); err != nil {
		return err
	}
	o.Order = check.Order(o.order)
	if err := oneOf(fl.Lookup("scale"), o.scale, string(check.ScaleSpec), string(check.ScaleMax), string(check.ScaleMin)); err != nil {
		return err
	}
	o.Scale = check.Scale(o.scale)
	if o.Scale != check.ScaleSpec && o.replicas != "spec" {
		return inputErrorf("--replicas %s and --scale=%s cannot be combined: --replicas scales every workload, --scale the targets of the input's HorizontalPodAutoscalers", o.replicas, o.scale)
	}
	if v, _ := fl.GetBool("allow-privileged"); !v {
		o.Engine.DisallowPrivileged = true
	}
	if v, _ := fl.GetBool("namespace-objects"); !v {
		o.Engine.OmitNamespaceObjects = true
	}
	if v, _ := fl.GetBool("simulate-controllers"); !v {
		o.Engine.DisableControllers = true
		for _, name := range []string{"replicas", "scale", "nodes"} {
			if fl.Changed(name) {
				o.warnings = append(o.warnings, "--"+name+" has no effect with --simulate-controllers=false")
			}
		}
	}
	if !fl.Changed("from-cluster") && programName(os.Args[0]) == kubectlPluginName {
		// As a kubectl plugin, the cluster kubectl talks to is the default
		// (CL-01): on when a context is set, --from-cluster=false to stay
		// offline.
		o.FromCluster = cluster.HasContext(o.Cluster, nil)
	}
	if !o.FromCluster {
		for _, name := range []string{"context", "kubeconfig", "kubectl", "request-timeout"} {
			if fl.Changed(name) {
				o.warnings = append(o.warnings, "--"+name+" has no effect without --from-cluster")
			}
		}
	}
	if o.replicas != "spec" {
		n, _ := strconv.ParseInt(o.replicas, 10, 32) // checked by checkReplicas
		r := int32(n)
		o.Engine.Replicas = &r
	}
	return nil
}

// checkedValue is a string flag whose value is checked as it is parsed, so that
// pflag words a bad value as it words every other:
// invalid argument "x" for "--nodes" flag: REASON.
type checkedValue struct {
	p     *string
	typ   string // the type the help shows
	check func(string) error
}

func (v *checkedValue) String() string { return *v.p }
func (v *checkedValue) Type() string   { return v.typ }
func (v *checkedValue) Set(s string) error {
	if err := v.check(s); err != nil {
		return err
	}
	*v.p = s
	return nil
}

// checkNamespace accepts what kube-apiserver accepts as a namespace name (a
// DNS-1123 label), and "" (no namespace given).
func checkNamespace(s string) error {
	if s == "" {
		return nil
	}
	if msgs := validation.IsDNS1123Label(s); len(msgs) > 0 {
		return errors.New(strings.Join(msgs, "; "))
	}
	return nil
}

// checkReplicas accepts spec or a replica count a workload's spec can hold
// (spec.replicas is an int32).
func checkReplicas(s string) error {
	if s == "spec" {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case (err == nil || errors.Is(err, strconv.ErrRange)) && n > math.MaxInt32:
		return fmt.Errorf("more than %d, the most replicas a workload can have", math.MaxInt32)
	case err != nil || n < 0:
		return errors.New("must be spec or a non-negative number")
	}
	return nil
}

// checkNodes accepts a node count from 1 to what a DaemonSet's status can count
// (its desiredNumberScheduled is an int32).
func checkNodes(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case (err == nil || errors.Is(err, strconv.ErrRange)) && n > math.MaxInt32:
		return fmt.Errorf("more than %d, the most nodes a DaemonSet can count", math.MaxInt32)
	case err != nil:
		return errors.New("must be a number of nodes, at least 1")
	case n < 1:
		return errors.New("must be at least 1: a DaemonSet runs one Pod per node")
	}
	return nil
}

func checkServiceCIDRs(s string) error {
	_, err := eval.ParseServiceCIDRs(s)
	return err
}

// oneOf is nil when value is one of values, else the usage error naming them
// ("must be a, b or c").
func oneOf(f *pflag.Flag, value string, values ...string) error {
	for _, v := range values {
		if value == v {
			return nil
		}
	}
	list := values[len(values)-1]
	if len(values) > 1 {
		list = strings.Join(values[:len(values)-1], ", ") + " or " + list
	}
	return invalidFlagValue(f, value, "must be "+list)
}

// invalidFlagValue is a usage error about a flag's value, worded as pflag words
// the values it cannot parse.
func invalidFlagValue(f *pflag.Flag, value string, reason any) error {
	name := "--" + f.Name
	if f.Shorthand != "" && f.ShorthandDeprecated == "" {
		name = "-" + f.Shorthand + ", " + name
	}
	return inputErrorf("invalid argument %q for %q flag: %v", value, name, reason)
}

// run reads and admits the input; stream, when set, takes the entries as they
// are decided (check.Options.Stream).
func (o *inputOptions) run(s streams, stream func(*check.Entry) bool) (*check.Report, error) {
	printWarnings(s.ErrOut, o.warnings)
	return o.runWith(check.Options{Lint: o.Lint, Stream: stream}, s)
}

// runWith reads and admits the input with extra, whose input fields are
// replaced by the flags'.
func (o *inputOptions) runWith(extra check.Options, s streams) (*check.Report, error) {
	extra.Paths, extra.Recursive, extra.Stdin, extra.Engine = o.Paths, o.Recursive, s.In, o.Engine
	// kubectl refuses a mismatching object namespace only when -n was given.
	extra.EnforceNamespace = o.NamespaceSet
	extra.Order, extra.SkipUnknown, extra.Strict, extra.Ignore = o.Order, o.SkipUnknown, o.Strict, o.Ignore
	extra.SkipNonObjects = o.SkipNonObjects
	extra.ConfigFile = o.configFile
	extra.Scale = o.Scale
	if o.FromCluster {
		c, err := cluster.New(o.Cluster, nil)
		if err != nil {
			return nil, &inputError{err: err}
		}
		extra.Live = c
	}
	// The CEL helper starts only if a custom resource needs its rules.
	rulesClient := rules.NewClient("")
	extra.Engine.Rules = rulesClient
	rep, err := check.Run(extra)
	rulesClient.Close()
	if err != nil {
		var le *load.Error
		if errors.As(err, &le) {
			return nil, le
		}
		var ce *cluster.Error
		if errors.As(err, &ce) {
			return nil, &inputError{err: ce}
		}
		return nil, &inputError{err: fmt.Errorf("reading input: %w", err)}
	}
	return rep, nil
}

// printWarnings writes warnings about the command line on stderr.
func printWarnings(w io.Writer, warnings []string) {
	for _, msg := range warnings {
		fmt.Fprintf(w, "Warning: %s\n", msg)
	}
}
