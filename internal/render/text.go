package render

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/fatih/color"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/load"
)

// textFormat is the human report: findings that belong to no namespace
// (unreadable documents, cluster-scoped objects) without a header, then the
// others grouped by namespace (namespaces in order of first appearance,
// findings in input order), each a compiler-style FILE:LINE line; then the
// skipped kinds per reason, a Used/Hard/Free table per namespace with quotas,
// and a summary line.
//
//	deploy/bad.yaml:3: error: spec.replicas: expected integer, got string "two"
//	namespace shop:
//	deploy/web.yaml:1: Deployment shop/web: 3 of 5 replicas admitted; Pod web-3: pods "web-3" is forbidden: exceeded quota: ...
//	skipped: 1 Namespace: cluster-scoped kind: LimitRanges and quotas do not apply
//	quota usage in namespace shop:
//	  QUOTA    RESOURCE      USED   HARD  FREE
//	  compute  requests.cpu  1500m  2     500m
//	6 objects: 5 admitted, 1 denied, 0 skipped; 3 of 5 replicas admitted
type textFormat struct{}

func (textFormat) Description() string {
	return "findings grouped by namespace, quota tables and a summary"
}

// maxExtraFailures is how many further refused replicas of one workload are
// listed after the first.
const maxExtraFailures = 3

// palette holds the colours of the text report; every one is a no-op when
// colour is off.
type palette struct {
	location, header, err, warn, bad, good *color.Color
}

func newPalette(on bool) palette {
	mk := func(attrs ...color.Attribute) *color.Color {
		c := color.New(attrs...)
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	return palette{
		location: mk(color.Bold),
		header:   mk(color.Bold, color.FgCyan),
		err:      mk(color.Bold, color.FgRed),
		warn:     mk(color.FgYellow),
		bad:      mk(color.FgRed),
		good:     mk(color.FgGreen),
	}
}

func (f textFormat) Render(w io.Writer, r *check.Report, o Options) error {
	return f.Stream(w, o).Finish(r)
}

// writeTail writes what follows the findings: the skipped kinds per reason
// (with Quiet, the documents that are no object too, counted), the notes,
// the quota tables (unless Quiet) and the summary.
func writeTail(b *strings.Builder, p palette, r *check.Report, skipped map[string]map[string]int, o Options) {
	for _, reason := range slices.Sorted(maps.Keys(skipped)) {
		kinds := skipped[reason]
		counts := make([]string, 0, len(kinds))
		for _, kind := range slices.Sorted(maps.Keys(kinds)) {
			if kind == "" { // documents that are no object (Quiet)
				counts = append(counts, Count(kinds[kind], "document", "documents"))
				continue
			}
			counts = append(counts, Count(kinds[kind], Escape(kind), Escape(apis.Plural(kind))))
		}
		fmt.Fprintf(b, "skipped: %s: %s\n", strings.Join(counts, ", "), Escape(reason))
	}
	for _, n := range r.Notes {
		writeNote(b, p, n)
	}
	if !o.Quiet {
		writeQuotas(b, p, r)
	}
	writeSummary(b, p, r.Summary())
}

// place is FILE:LINE, or FILE alone for what has no line (a policy read
// from a live cluster, CL-01).
func place(pos load.Position) string {
	if pos.Line > 0 {
		return pos.File + ":" + strconv.Itoa(pos.Line)
	}
	return pos.File
}

// hasFinding: an entry printed on a line of its own. A skipped document that
// is no object at all (no kind) is listed with its file, as nothing else names it.
func hasFinding(e *check.Entry) bool {
	return e.Err != nil || (e.Result.Skipped && e.Result.Kind == "") || e.Result.Internal != "" || len(e.Result.Warnings) > 0 || (!e.Result.Skipped && !e.Result.Allowed)
}

// writeFinding writes an entry's error, denial and warnings. Everything that
// comes from the input is escaped for the terminal.
func writeFinding(b *strings.Builder, p palette, e *check.Entry) {
	if e.Err != nil {
		loc := place(load.Position{File: e.Err.File, Line: e.Err.Line}) + ":"
		msg := strings.TrimPrefix(e.Err.Error(), loc+" ")
		fmt.Fprintf(b, "%s %s %s\n", p.location.Sprint(Escape(loc)), p.err.Sprint("error:"), Escape(msg))
		// What the reading noticed first often explains the error (two
		// documents without a "---" between them).
		for _, w := range e.Result.Warnings {
			about := ""
			if e.Result.Kind != "" {
				about = Escape(e.Result.Kind+" "+qualifiedName(&e.Result)) + ": "
			}
			fmt.Fprintf(b, "%s %s %s%s\n", p.location.Sprint(Escape(place(e.Pos)+":")), p.warn.Sprint("warning:"), about, Escape(w))
		}
		return
	}
	loc := Escape(place(e.Pos) + ":")
	res := &e.Result
	if res.Skipped && res.Kind == "" {
		fmt.Fprintf(b, "%s skipped: %s\n", p.location.Sprint(loc), Escape(res.SkipReason))
		return
	}
	object := res.Kind + " " + qualifiedName(res)
	if e.Pos.Source != "" {
		object += " (" + e.Pos.Source + ")"
	}
	object = Escape(object)
	switch {
	case res.Internal != "":
		fmt.Fprintf(b, "%s %s %s: %s\n", p.location.Sprint(loc), p.err.Sprint("internal error:"), object, Escape(res.Internal))
	case !res.Skipped && !res.Allowed:
		writeDenial(b, p, loc, object, res)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(b, "%s %s %s: %s\n", p.location.Sprint(loc), p.warn.Sprint("warning:"), object, Escape(w))
	}
}

// writeDenial writes `FILE:LINE: KIND NAMESPACE/NAME[ (SOURCE)]: MESSAGE` (loc
// and object already escaped); for a
// workload whose own object was admitted, the message says how many replicas fit
// and why the first one that does not fit was refused. Each part of a
// multi-part message follows on its own line.
func writeDenial(b *strings.Builder, p palette, loc, object string, res *eval.Result) {
	fmt.Fprintf(b, "%s %s: ", p.location.Sprint(loc), object)
	if res.Denial != nil {
		b.WriteString(Escape(res.Denial.Message) + "\n")
		writeParts(b, res.Denial)
		return
	}
	w := res.Workload
	if w == nil {
		b.WriteString("denied\n") // not produced by the engine; kept readable rather than silent
		return
	}
	fmt.Fprintf(b, "%s", p.bad.Sprintf("%d of %s admitted", w.Admitted, Count(w.Replicas, "replica", "replicas")))
	var failed []*eval.Result
	for i := range w.Created {
		if c := &w.Created[i]; !c.Allowed && c.Denial != nil {
			failed = append(failed, c)
		}
	}
	if len(failed) == 0 {
		b.WriteString("\n")
	}
	// An entry with Repeat stands for as many more replicas refused exactly
	// like it (WL-03); the two entries before it are alike, so the three
	// listed of another reason are never among its repeats.
	same, listed := 0, 0
	for i, c := range failed {
		if i == 0 {
			fmt.Fprintf(b, "; %s: %s\n", createdLabel(c), Escape(c.Denial.Message))
			writeParts(b, c.Denial)
			same += c.Repeat
			continue
		}
		// Replicas refused for the first one's reason differ only in their name.
		quoted := func(r *eval.Result) string { return `"` + r.Name + `"` }
		if strings.ReplaceAll(c.Denial.Message, quoted(c), quoted(failed[0])) == failed[0].Denial.Message {
			same += 1 + c.Repeat
			continue
		}
		listed++
		if listed <= maxExtraFailures {
			fmt.Fprintf(b, "    %s: %s\n", createdLabel(c), Escape(c.Denial.Message))
			writeParts(b, c.Denial)
		}
		listed += c.Repeat
	}
	if same > 0 {
		// Same message but for the name: the same kind as the first.
		kind := failed[0].Kind
		fmt.Fprintf(b, "    %s refused for the same reason\n", Count(same, "more "+Escape(kind), "more "+Escape(apis.Plural(kind))))
	}
	if listed > maxExtraFailures {
		fmt.Fprintf(b, "    %s refused for other reasons (-o json lists them all)\n", Count(listed-maxExtraFailures, "more object", "more objects"))
	}
	if w.NotCreated > 0 {
		why := "the StatefulSet controller (OrderedReady) waits for the refused one"
		if w.Parallel {
			why = "the StatefulSet controller (Parallel) stops after the batch that holds the refused one"
		}
		fmt.Fprintf(b, "    %d more %s not created: %s\n", w.NotCreated, plural(w.NotCreated, "replica", "replicas"), why)
	}
}

// createdLabel names a created object in a workload finding by kind and name
// (Pod web-3, PersistentVolumeClaim data-db-1, ReplicaSet web); its namespace
// is the workload's.
func createdLabel(c *eval.Result) string {
	return Escape(c.Kind + " " + shownName(c))
}

// shownName is the object's name; for one refused before its name was
// generated (a mutating plugin's refusal, PL-04), the name it would have
// had, the placeholder standing for the random part; else "".
func shownName(res *eval.Result) string {
	if p := res.UnnamedPrefix(); p != "" {
		return eval.GeneratedName(p)
	}
	return res.Name
}

func writeParts(b *strings.Builder, d *status.Denial) {
	if len(d.Parts) > 1 {
		for _, part := range d.Parts {
			fmt.Fprintf(b, "    - %s\n", Escape(part))
		}
	}
}

// qualifiedName is NAMESPACE/NAME, or NAME for cluster-scoped objects; an object
// without a name is "(unnamed)".
func qualifiedName(res *eval.Result) string {
	name := shownName(res)
	if name == "" {
		name = "(unnamed)" // kube-apiserver's message says "": metadata.name is required
	}
	if res.Namespace == "" {
		return name
	}
	return res.Namespace + "/" + name
}

// writeQuotas prints, per namespace with quotas that limit something, the final Used/Hard/Free of each
// quota resource; "-" marks a resource no evaluator tracks (it has no usage).
// Free is Hard - Used, red when nothing is left.
func writeQuotas(b *strings.Builder, p palette, r *check.Report) {
	var t *colorTable
	ns := ""
	flush := func() {
		if t != nil {
			t.write(b)
		}
	}
	for _, qs := range r.Quotas {
		q := qs.Quota
		if len(q.Status.Hard) == 0 {
			continue // no row: a namespace with only such quotas gets no table
		}
		if t == nil || q.Namespace != ns {
			flush()
			ns = q.Namespace
			fmt.Fprintf(b, "quota usage in namespace %s:\n", Escape(ns))
			t = &colorTable{indent: "  "}
			t.row(nil, "QUOTA", "RESOURCE", "USED", "HARD", "FREE")
		}
		for _, k := range slices.Sorted(maps.Keys(q.Status.Hard)) {
			hard := q.Status.Hard[k]
			used, free, style := "-", "-", (*color.Color)(nil)
			if u, ok := q.Status.Used[k]; ok {
				used = u.String()
				f := freeOf(hard, u)
				free = f.String()
				if f.Sign() <= 0 {
					style = p.bad
				}
			}
			t.row([]*color.Color{nil, nil, nil, nil, style}, Escape(q.Name), Escape(string(k)), used, hard.String(), free)
		}
	}
	flush()
}

// freeOf is hard - used.
func freeOf(hard, used resource.Quantity) resource.Quantity {
	f := hard.DeepCopy()
	f.Sub(used)
	return f
}

func writeSummary(b *strings.Builder, p palette, s check.Summary) {
	denied := fmt.Sprintf("%d denied", s.Denied)
	if s.Denied > 0 {
		denied = p.bad.Sprint(denied)
	}
	fmt.Fprintf(b, "%s: %d admitted, %s, %d skipped", Count(s.Objects, "object", "objects"), s.Admitted, denied, s.Skipped)
	if s.Errors > 0 {
		fmt.Fprintf(b, ", %s", p.err.Sprint(Count(s.Errors, "error", "errors")))
	}
	if s.Internal > 0 {
		fmt.Fprintf(b, ", %s", p.err.Sprint(Count(s.Internal, "internal error", "internal errors")))
	}
	if s.Workloads > 0 {
		// As a workload's own line says it: 5 of 7 replicas admitted, the
		// others refused or never created.
		replicas := fmt.Sprintf("%d of %s admitted", s.Replicas-s.Unfit, Count(s.Replicas, "replica", "replicas"))
		if s.Unfit > 0 {
			replicas = p.bad.Sprint(replicas)
		}
		b.WriteString("; " + replicas)
	}
	b.WriteString("\n")
}

// colorTable aligns columns on the visible text (so colour escapes do not shift
// them), two spaces apart; the last column is not padded.
type colorTable struct {
	indent string
	rows   [][]string
	styles [][]*color.Color
}

func (t *colorTable) row(styles []*color.Color, cells ...string) {
	t.rows = append(t.rows, cells)
	t.styles = append(t.styles, styles)
}

func (t *colorTable) write(b *strings.Builder) {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len(c))
		}
	}
	for ri, r := range t.rows {
		b.WriteString(t.indent)
		for i, c := range r {
			cell := c
			if s := t.styles[ri]; i < len(s) && s[i] != nil {
				cell = s[i].Sprint(c)
			}
			b.WriteString(cell)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-len(c)+2))
			}
		}
		b.WriteString("\n")
	}
}

// writeNote writes a note about the run: `FILE[:LINE]: note: MESSAGE`, or
// `note: MESSAGE` when it concerns no file.
func writeNote(b *strings.Builder, p palette, n load.Note) {
	if n.File != "" {
		loc := Escape(n.File)
		if n.Line > 0 {
			loc += ":" + strconv.Itoa(n.Line)
		}
		b.WriteString(p.location.Sprint(loc+":") + " ")
	}
	fmt.Fprintf(b, "%s %s\n", p.warn.Sprint("note:"), Escape(n.Msg))
}
