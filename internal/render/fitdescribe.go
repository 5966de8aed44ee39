package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/status"
)

// `limitcheck fit -o describe` (FIT-05): the fit report in kubectl
// describe's layout, for reading beside `kubectl describe quota` of a live
// namespace. Per namespace, in order of first appearance: each quota as
// DescribeQuota prints it with a Free column, then each workload of the
// namespace in input order as a block of its own. Blocks are joined as
// kubectl joins several objects (DESC-03). Everything goes through
// describeTable, the one place that lays out describe's columns.

// FitDescribe writes the fit report as kubectl-describe-style blocks.
// Unreadable documents, objects limitcheck failed on and notes are not
// part of it: FitDescribeFindings writes them (the CLI, to stderr).
func FitDescribe(w io.Writer, r *check.Report, _ Options) error {
	var order []string
	seen := map[string]bool{}
	add := func(ns string) {
		if !seen[ns] {
			seen[ns] = true
			order = append(order, ns)
		}
	}
	for i := range r.Entries {
		if e := &r.Entries[i]; e.Err == nil && (e.Fit != nil || e.Result.Kind == "ResourceQuota") {
			add(e.Result.Namespace)
		}
	}
	for _, qs := range r.Quotas {
		add(qs.Quota.Namespace)
	}
	var blocks []string
	for _, ns := range order {
		for _, qs := range r.Quotas {
			if qs.Quota.Namespace == ns {
				blocks = append(blocks, describeQuota(qs.Quota, true))
			}
		}
		for i := range r.Entries {
			if e := &r.Entries[i]; e.Err == nil && e.Fit != nil && e.Result.Namespace == ns {
				blocks = append(blocks, describeFit(e))
			}
		}
	}
	return Describe(w, blocks)
}

// FitDescribeFindings writes what FitDescribe leaves out, as the text report
// words it: unreadable documents, objects limitcheck failed on, notes.
func FitDescribeFindings(w io.Writer, r *check.Report) error {
	var b strings.Builder
	p := newPalette(false)
	for i := range r.Entries {
		if e := &r.Entries[i]; e.Err != nil || e.Result.Internal != "" {
			writeFinding(&b, p, e)
		}
	}
	for _, n := range r.Notes {
		writeNote(&b, p, n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// describeFit is one workload's block: what it wants and what fits, what
// binds, and its autoscaler and rollout when it has them.
func describeFit(e *check.Entry) string {
	f, res := e.Fit, &e.Result
	t := newDescribeTable()
	t.line("Name:", res.Name)
	t.line("Namespace:", res.Namespace)
	t.line("Kind:", res.Kind)
	t.line("File:", place(e.Pos))
	if e.Pos.Source != "" {
		t.line("Source:", e.Pos.Source)
	}
	fit := strconv.Itoa(f.Fit) + " fit"
	if f.Fit == eval.Unbounded {
		fit = "unbounded"
	}
	t.line("Replicas:", fmt.Sprintf("%d wanted | %s", f.Wanted, fit))
	t.line("Fits:", strconv.FormatBool(f.Fits()))
	if b := f.Binding; b == nil {
		t.line("Binding:", "<none>")
	} else {
		t.line("Binding:")
		refused := b.Kind + " " + b.Name
		switch {
		case b.Replica > 0:
			refused += " (replica " + strconv.Itoa(b.Replica) + ")"
		case b.Kind == res.Kind && b.Name == res.Name:
			refused += " (the " + b.Kind + " itself)"
		}
		t.line("  Constraint:", constraint(b.Denial, b.Internal))
		t.line("  Refused:", refused)
		t.line("  Message:", message(b.Denial, b.Internal))
	}
	if h := f.HPA; h != nil {
		t.line("Autoscaler:")
		t.line("  Name:", h.Name)
		t.line("  Min Replicas:", strconv.Itoa(int(h.MinReplicas)))
		t.line("  Max Replicas:", strconv.Itoa(int(h.MaxReplicas)))
		fits := "true"
		if !h.MaxFits {
			fits = "false (" + strconv.Itoa(f.Fit) + " fit)"
		}
		t.line("  Max Fits:", fits)
	}
	if ro := e.Rollout; ro != nil {
		describeRollout(t, ro)
	}
	return t.String()
}

// describeRollout adds a workload's rollout (FIT-03) to its block.
func describeRollout(t *describeTable, ro *eval.Rollout) {
	t.line("Rollout:")
	if ro.Strategy != "" {
		t.line("  Strategy:", string(ro.Strategy))
	}
	t.line("  Replicas:", strconv.Itoa(ro.Replicas))
	if ro.Note == "" {
		t.line("  Max Surge:", strconv.Itoa(ro.MaxSurge))
		t.line("  Max Unavailable:", strconv.Itoa(ro.MaxUnavailable))
	}
	switch {
	case ro.Complete:
		t.line("  Result:", "completes")
	case ro.Note != "":
		t.line("  Result:", "not simulated")
	default:
		t.line("  Result:", fmt.Sprintf("stuck with %d new and %d old Pods", ro.New, ro.Old))
	}
	if ro.Note != "" {
		t.line("  Note:", ro.Note)
	}
	if b := ro.Binding; b != nil && !ro.Complete {
		t.line("  Constraint:", constraint(b.Denial, b.Internal))
		t.line("  Refused:", b.Kind+" "+b.Name)
		t.line("  Message:", message(b.Denial, b.Internal))
	}
	if ro.Note != "" {
		return
	}
	if len(ro.Peak) == 0 {
		t.line("  Peak Quota Usage:", "<none>")
		return
	}
	t.line("  Peak Quota Usage:")
	t.line("    Quota", "Resource", "Used", "Peak", "Hard")
	t.line("    -----", "--------", "----", "----", "----")
	for _, q := range ro.Peak {
		hard := "-"
		if q.HasHard {
			hard = q.Hard.String()
		}
		t.line("    "+q.Quota, string(q.Resource), q.Used.String(), q.Peak.String(), hard)
	}
}

// constraint names what refused: a quota and its resources, a LimitRange,
// or the stage of the pipeline.
func constraint(d *status.Denial, internal string) string {
	switch {
	case d == nil:
		return "limitcheck failed: " + internal
	case d.Stage == status.StageQuota && d.Quota != "":
		s := "quota " + d.Quota
		if len(d.Resources) > 0 {
			s += " (" + strings.Join(d.Resources, ", ") + ")"
		}
		return s
	case d.Stage == status.StageLimitRanger && d.LimitRange != "":
		return "LimitRange " + d.LimitRange
	case d.Stage != "":
		return string(d.Stage)
	}
	return "refused"
}

// message is a refusal's message, kube-apiserver's when it has one.
func message(d *status.Denial, internal string) string {
	if d == nil {
		return internal
	}
	return d.Message
}
