package render

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
)

// textFormat reads like compiler output: one line per denied object or unreadable
// document, in input order, then the skipped kinds per reason and a summary line.
//
//	deploy/web.yaml:14: Pod team-a/web: pods "web" is forbidden: maximum cpu usage per Container is 1, but limit is 2
//	deploy/cm.yaml:3: error: spec.containers[0].resources.limits.cpu: quantities must match the regular expression ...
//	skipped: 1 ConfigMap, 2 Deployment: no LimitRange applies to this kind; quota admission is not simulated yet
//	4 objects: 0 admitted, 1 denied, 3 skipped, 1 errors
type textFormat struct{}

func (textFormat) Description() string { return "compiler-style findings and a summary line" }

func (textFormat) Render(w io.Writer, r *check.Report) error {
	var b strings.Builder
	skipped := map[string]map[string]int{} // reason → kind → count
	for i := range r.Entries {
		e := &r.Entries[i]
		switch {
		case e.Err != nil:
			prefix := e.Err.File + ":" + strconv.Itoa(e.Err.Line) + ": "
			fmt.Fprintf(&b, "%serror: %s\n", prefix, strings.TrimPrefix(e.Err.Error(), prefix))
		case e.Result.Skipped:
			kinds := skipped[e.Result.SkipReason]
			if kinds == nil {
				kinds = map[string]int{}
				skipped[e.Result.SkipReason] = kinds
			}
			kinds[e.Result.Kind]++
		case !e.Result.Allowed:
			writeDenial(&b, e)
		}
		for _, w := range e.Result.Warnings {
			fmt.Fprintf(&b, "%s:%d: warning: %s %s: %s\n", e.Pos.File, e.Pos.Line, e.Result.Kind, qualifiedName(&e.Result), w)
		}
	}
	for _, reason := range slices.Sorted(maps.Keys(skipped)) {
		kinds := skipped[reason]
		counts := make([]string, 0, len(kinds))
		for _, kind := range slices.Sorted(maps.Keys(kinds)) {
			counts = append(counts, strconv.Itoa(kinds[kind])+" "+kind)
		}
		fmt.Fprintf(&b, "skipped: %s: %s\n", strings.Join(counts, ", "), reason)
	}
	writeQuotas(&b, r)
	s := r.Summary()
	fmt.Fprintf(&b, "%d objects: %d admitted, %d denied, %d skipped", s.Objects, s.Admitted, s.Denied, s.Skipped)
	if s.Errors > 0 {
		fmt.Fprintf(&b, ", %d errors", s.Errors)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeDenial writes `FILE:LINE: KIND NAMESPACE/NAME[ (SOURCE)]: MESSAGE`, then each
// part of a multi-part message on its own line.
func writeDenial(b *strings.Builder, e *check.Entry) {
	res := &e.Result
	fmt.Fprintf(b, "%s:%d: %s %s", e.Pos.File, e.Pos.Line, res.Kind, qualifiedName(res))
	if e.Pos.Source != "" {
		fmt.Fprintf(b, " (%s)", e.Pos.Source)
	}
	if res.Denial == nil {
		b.WriteString(": denied\n") // not produced by the engine; kept readable rather than silent
		return
	}
	fmt.Fprintf(b, ": %s\n", res.Denial.Message)
	if len(res.Denial.Parts) > 1 {
		for _, p := range res.Denial.Parts {
			fmt.Fprintf(b, "    - %s\n", p)
		}
	}
}

// qualifiedName is NAMESPACE/NAME, or NAME for cluster-scoped objects.
func qualifiedName(res *eval.Result) string {
	if res.Namespace == "" {
		return res.Name
	}
	return res.Namespace + "/" + res.Name
}

// writeQuotas prints, per namespace with quotas, the final Used/Hard of each
// quota resource; "-" marks a resource no evaluator tracks (it has no usage).
func writeQuotas(b *strings.Builder, r *check.Report) {
	ns := ""
	var tw *tabwriter.Writer
	for _, qs := range r.Quotas {
		q := qs.Quota
		if q.Namespace != ns || tw == nil {
			if tw != nil {
				_ = tw.Flush()
			}
			ns = q.Namespace
			fmt.Fprintf(b, "quota usage in namespace %s:\n", ns)
			tw = tabwriter.NewWriter(b, 0, 8, 2, ' ', 0)
			fmt.Fprintln(tw, "  QUOTA\tRESOURCE\tUSED\tHARD")
		}
		for _, k := range slices.Sorted(maps.Keys(q.Status.Hard)) {
			hard := q.Status.Hard[k]
			used := "-"
			if u, ok := q.Status.Used[k]; ok {
				used = u.String()
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", q.Name, k, used, hard.String())
		}
	}
	if tw != nil {
		_ = tw.Flush()
	}
}
