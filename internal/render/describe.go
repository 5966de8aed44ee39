package render

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// This file reproduces `kubectl describe` (k8s.io/kubectl v0.36.3,
// pkg/describe/describe.go) for LimitRanges and ResourceQuotas byte for byte;
// see docs/behaviour.md DESC-01..03. The only deliberate difference: kubectl
// prints the resources of a LimitRange item in map order (random), we sort them.

// quotaScopeHelp holds the explanation kubectl prints under the Scopes line of a
// quota; scopes missing here (PriorityClass, CrossNamespacePodAffinity,
// VolumeAttributesClass) get none (DESC-02).
var quotaScopeHelp = map[corev1.ResourceQuotaScope]string{
	corev1.ResourceQuotaScopeTerminating:    "Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system.",
	corev1.ResourceQuotaScopeNotTerminating: "Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.",
	corev1.ResourceQuotaScopeBestEffort:     "Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.",
	corev1.ResourceQuotaScopeNotBestEffort:  "Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.",
}

// describeTable collects lines for kubectl's describe tabwriter (DESC-03).
type describeTable struct {
	buf bytes.Buffer
	tw  *tabwriter.Writer
}

func newDescribeTable() *describeTable {
	t := &describeTable{}
	t.tw = tabwriter.NewWriter(&t.buf, 0, 8, 2, ' ', 0)
	return t
}

// line writes one line; cells are separated by tabs. kubectl escapes every
// formatted line before it reaches the tabwriter (cli-runtime
// printers.WriteEscaped), so the column widths count the escaped text; Escape
// does the same per cell, and also escapes the control characters kubectl lets
// through (a tab or newline in a cell), which only names kube-apiserver refuses
// can hold.
func (t *describeTable) line(cells ...string) {
	escaped := make([]string, len(cells))
	for i, c := range cells {
		escaped[i] = Escape(c)
	}
	io.WriteString(t.tw, strings.Join(escaped, "\t")+"\n")
}

func (t *describeTable) String() string {
	t.tw.Flush()
	return t.buf.String()
}

// DescribeLimitRange returns what `kubectl describe limitrange` prints for lr
// (lr as stored, i.e. after API defaulting): one row per item and resource, items
// in spec order, resources sorted by name, "-" for an absent value (DESC-01).
func DescribeLimitRange(lr *corev1.LimitRange) string {
	t := newDescribeTable()
	t.line("Name:", lr.Name)
	t.line("Namespace:", lr.Namespace)
	t.line("Type", "Resource", "Min", "Max", "Default Request", "Default Limit", "Max Limit/Request Ratio")
	t.line("----", "--------", "---", "---", "---------------", "-------------", "-----------------------")
	for _, item := range lr.Spec.Limits {
		// Column order: min, max, default request, default limit, ratio.
		columns := []corev1.ResourceList{item.Min, item.Max, item.DefaultRequest, item.Default, item.MaxLimitRequestRatio}
		var names []corev1.ResourceName
		for _, list := range columns {
			for name := range list {
				if !slices.Contains(names, name) {
					names = append(names, name)
				}
			}
		}
		slices.Sort(names)
		for _, name := range names {
			row := []string{string(item.Type), string(name)}
			for _, list := range columns {
				value := "-"
				if qty, ok := list[name]; ok {
					value = qty.String()
				}
				row = append(row, value)
			}
			t.line(row...)
		}
	}
	return t.String()
}

// DescribeQuota returns what `kubectl describe resourcequota` prints for q
// (q.Status.Hard / q.Status.Used are the final state): the sorted scopes with
// their help texts, then one row per status.hard resource, sorted (DESC-02).
//
// The Used cell keeps kubectl's quirk: a used quantity whose format differs from
// the hard one (or is missing, i.e. the zero Quantity) is rebuilt as an integer
// (rounded up) in the hard format, so used 512Mi against hard 1G prints 536870912.
func DescribeQuota(q *corev1.ResourceQuota) string {
	return describeQuota(q, false)
}

// describeQuota is DescribeQuota, with a Free column after Hard when free is
// set (FIT-05): hard - used, from the usage as the engine holds it (not the
// Used cell's rebuilt value), in canonical form; "-" for a resource without a
// usage (no evaluator tracks it).
func describeQuota(q *corev1.ResourceQuota, free bool) string {
	t := newDescribeTable()
	t.line("Name:", q.Name)
	t.line("Namespace:", q.Namespace)
	if len(q.Spec.Scopes) > 0 {
		scopes := make([]string, 0, len(q.Spec.Scopes))
		for _, s := range q.Spec.Scopes {
			scopes = append(scopes, string(s))
		}
		slices.Sort(scopes)
		t.line("Scopes:", strings.Join(scopes, ", "))
		for _, s := range scopes {
			if help := quotaScopeHelp[corev1.ResourceQuotaScope(s)]; help != "" {
				t.line(" * " + help)
			}
		}
	}
	header, rule := []string{"Resource", "Used", "Hard"}, []string{"--------", "----", "----"}
	if free {
		header, rule = append(header, "Free"), append(rule, "----")
	}
	t.line(header...)
	t.line(rule...)
	names := make([]corev1.ResourceName, 0, len(q.Status.Hard))
	for name := range q.Status.Hard {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		hard := q.Status.Hard[name]
		used, tracked := q.Status.Used[name]
		row := []string{string(name), "", hard.String()}
		if free {
			left := "-"
			if tracked {
				f := freeOf(hard, used)
				left = f.String()
			}
			row = append(row, left)
		}
		if used.Format != hard.Format {
			used = *resource.NewQuantity(used.Value(), hard.Format)
		}
		row[1] = used.String()
		t.line(row...)
	}
	return t.String()
}

// Describe writes several descriptions the way `kubectl describe` joins them:
// the first, then "\n\n"+next for each further one (DESC-03).
func Describe(w io.Writer, descriptions []string) error {
	for i, d := range descriptions {
		if i > 0 {
			d = "\n\n" + d
		}
		if _, err := io.WriteString(w, d); err != nil {
			return err
		}
	}
	return nil
}

// DescribeEach writes descriptions the way `kubectl describe TYPE PREFIX` does
// when PREFIX names no object exactly (DescribeMatchingResources): each one
// followed by a newline.
func DescribeEach(w io.Writer, descriptions []string) error {
	for _, d := range descriptions {
		if _, err := io.WriteString(w, d+"\n"); err != nil {
			return err
		}
	}
	return nil
}
