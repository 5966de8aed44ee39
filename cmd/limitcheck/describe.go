package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/render"
)

// describeKinds maps the names kubectl accepts for the two describable
// resources (plural, singular, short name) to the plural.
var describeKinds = map[string]string{
	"limitranges": "limitranges", "limitrange": "limitranges", "limits": "limitranges",
	"resourcequotas": "resourcequotas", "resourcequota": "resourcequotas", "quota": "resourcequotas",
}

// describeRequest is one resource type and the names asked for (none: all).
type describeRequest struct {
	resource string
	names    []string
}

func newCmdDescribe(s streams) *cobra.Command {
	opts := &inputOptions{}
	cmd := &cobra.Command{
		Use:   "describe (TYPE[,TYPE] [NAME...] | TYPE/NAME...) -f PATH...",
		Short: "Print LimitRanges and quotas as kubectl describe does",
		Long: `Admit the input as check does, then print the LimitRanges (as stored, after API defaulting) and the ResourceQuotas (Used = the usage after the whole input) in kubectl describe's layout, byte for byte, so the output can be diffed against kubectl describe of a live namespace. TYPE is limitranges (limits) or resourcequotas (quota). Without -n every namespace of the input is described, namespaces and names sorted as the API server lists them; a single NAME that matches no object exactly selects the objects whose names start with it. What was denied or could not be read is not part of the state described: it is listed on stderr.

` + inputFlagsHelp() + `

` + exitStatusHelp,
		Example: `  limitcheck describe quota -f quota.yaml -f deploy/
  limitcheck describe limits,quota -n shop -f namespace/
  limitcheck describe quota/compute --replicas 10 -f quota.yaml -f web.yaml`,
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return []cobra.Completion{"limits", "quota", "limitranges", "resourcequotas"}, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			reqs, err := parseDescribeArgs(args)
			if err != nil {
				return err
			}
			if err := opts.complete(cmd.Flags(), nil); err != nil {
				return err
			}
			return runDescribe(s, opts, reqs)
		},
	}
	opts.addFlags(cmd)
	return cmd
}

// parseDescribeArgs reads `TYPE[,TYPE] [NAME...]` or `TYPE/NAME...`, as kubectl does.
func parseDescribeArgs(args []string) ([]describeRequest, error) {
	if len(args) == 0 {
		return nil, inputErrorf("you must specify the type of resource to describe: limits (limitranges) or quota (resourcequotas)")
	}
	kind := func(name string) (string, error) {
		r, ok := describeKinds[strings.ToLower(name)]
		if !ok {
			return "", inputErrorf("unknown resource type %q: describe shows limitranges (limits) and resourcequotas (quota)", name)
		}
		return r, nil
	}
	if strings.Contains(args[0], "/") {
		var reqs []describeRequest
		for _, a := range args {
			t, name, ok := strings.Cut(a, "/")
			if !ok || name == "" {
				return nil, inputErrorf("there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'limitcheck describe quota/compute')")
			}
			r, err := kind(t)
			if err != nil {
				return nil, err
			}
			reqs = append(reqs, describeRequest{resource: r, names: []string{name}})
		}
		return reqs, nil
	}
	var reqs []describeRequest
	for _, t := range strings.Split(args[0], ",") {
		r, err := kind(t)
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, describeRequest{resource: r, names: args[1:]})
	}
	return reqs, nil
}

// describable is a LimitRange or quota with what describe needs of it.
type describable struct {
	namespace, name string
	describe        func() string
}

func runDescribe(s streams, opts *inputOptions, reqs []describeRequest) error {
	rep, err := opts.run(s, nil)
	if err != nil {
		return err
	}
	objects := map[string][]describable{}
	for _, lr := range rep.LimitRanges {
		objects["limitranges"] = append(objects["limitranges"], describable{lr.Namespace, lr.Name, func() string { return render.DescribeLimitRange(lr) }})
	}
	for _, qs := range rep.Quotas {
		q := qs.Quota
		objects["resourcequotas"] = append(objects["resourcequotas"], describable{q.Namespace, q.Name, func() string { return render.DescribeQuota(q) }})
	}
	var out []string
	prefixed := false
	for _, req := range reqs {
		var candidates []describable
		for _, o := range objects[req.resource] {
			if !opts.NamespaceSet || o.namespace == opts.Namespace {
				candidates = append(candidates, o)
			}
		}
		// The API server lists by namespace, then name.
		slices.SortStableFunc(candidates, func(a, b describable) int {
			return cmp.Or(cmp.Compare(a.namespace, b.namespace), cmp.Compare(a.name, b.name))
		})
		selected, byPrefix, err := selectDescribed(req, candidates)
		if err != nil {
			return err
		}
		prefixed = prefixed || byPrefix
		for _, o := range selected {
			out = append(out, o.describe())
		}
	}
	if len(out) == 0 {
		if opts.NamespaceSet {
			fmt.Fprintf(s.ErrOut, "No resources found in %s namespace.\n", opts.Namespace)
		} else {
			fmt.Fprintln(s.ErrOut, "No resources found")
		}
	}
	write := render.Describe
	if prefixed {
		write = render.DescribeEach
	}
	if err := write(s.Out, out); err != nil {
		return &internalError{err: fmt.Errorf("writing output: %w", err)}
	}
	return describeFindings(s, rep)
}

// selectDescribed picks the objects a request names: all without names, each
// name exactly, and — kubectl's DescribeMatchingResources — a single name that
// matches nothing exactly as a prefix (byPrefix).
func selectDescribed(req describeRequest, candidates []describable) (out []describable, byPrefix bool, err error) {
	if len(req.names) == 0 {
		return candidates, false, nil
	}
	for _, name := range req.names {
		var exact, prefix []describable
		for _, o := range candidates {
			switch {
			case o.name == name:
				exact = append(exact, o)
			case strings.HasPrefix(o.name, name):
				prefix = append(prefix, o)
			}
		}
		switch {
		case len(exact) > 0:
			out = append(out, exact...)
		case len(req.names) == 1 && len(prefix) > 0:
			return prefix, true, nil
		default:
			return nil, false, inputErrorf("%s %q not found in the admitted input", req.resource, name)
		}
	}
	return out, false, nil
}

// describeFindings keeps describe honest: the state it prints leaves out what
// was denied or unreadable, so say so on stderr and exit as check would.
func describeFindings(s streams, rep *check.Report) error {
	sum := rep.Summary()
	for i := range rep.Entries {
		if e := &rep.Entries[i]; e.Err != nil {
			fmt.Fprintf(s.ErrOut, "%s\n", render.Escape(e.Err.Error()))
		}
	}
	if sum.Denied == 0 && sum.Errors == 0 && sum.Internal == 0 {
		return nil
	}
	var left []string
	if n := sum.Denied + sum.Internal; n > 0 {
		left = append(left, render.Count(n, "denied object", "denied objects"))
	}
	if sum.Errors > 0 {
		left = append(left, render.Count(sum.Errors, "unreadable document", "unreadable documents"))
	}
	verb := "are"
	if len(left) == 1 && sum.Denied+sum.Internal+sum.Errors == 1 {
		verb = "is"
	}
	fmt.Fprintf(s.ErrOut, "note: %s %s not part of the state described; limitcheck check with the same flags shows why\n", strings.Join(left, " and "), verb)
	return &findingsError{denied: sum.Denied, errors: sum.Errors, internal: sum.Internal}
}
