package check

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/eval/quota"
	"github.com/limitcheck/limitcheck/internal/lint"
	"github.com/limitcheck/limitcheck/internal/load"
)

// RulePolicyRefused is the lint rule of a LimitRange or ResourceQuota that
// kube-apiserver refuses (LINT-11): it governs nothing. `check` reports it as
// the denial it is.
const RulePolicyRefused = "lint/policy-refused"

// LintFinding is a lint finding at the position of its object: the
// LimitRange or ResourceQuota document, or the quota admission configuration
// (its document, or the --admission-control-config-file, Line 0).
type LintFinding struct {
	Pos load.Position
	lint.Finding
}

// lintPolicies runs the lint rules over the run's admitted policies and
// places each finding at its object's document; refused policies become
// RulePolicyRefused findings, in input order before the others.
func lintPolicies(rep *Report, docs []load.Document, cfg *quota.Configuration, cfgPos load.Position, catalog *apis.Catalog, engineOpts eval.Options) {
	var classes []string
	for _, d := range docs {
		if pc, ok := d.Object.(*schedulingv1.PriorityClass); ok && d.Err == nil && !slices.Contains(classes, pc.Name) {
			classes = append(classes, pc.Name)
		}
	}
	in := lint.Input{LimitRanges: rep.LimitRanges, PriorityClasses: classes, Config: cfg, APIs: catalog}
	if !engineOpts.OmitNamespaceObjects {
		in.Held = func(ns string, q *corev1.ResourceQuota) []lint.Held {
			var out []lint.Held
			for _, h := range eval.HeldCharges(engineOpts.Gates, ns, q) {
				out = append(out, lint.Held{Kind: h.Kind, Name: h.Name, Usage: h.Usage})
			}
			return out
		}
	}
	for _, q := range rep.Quotas {
		in.Quotas = append(in.Quotas, q.Quota)
	}
	for i := range rep.Entries {
		e := &rep.Entries[i]
		res := &e.Result
		if e.Err != nil || res.Skipped || res.Allowed || res.Denial == nil || res.APIVersion != "v1" || (res.Kind != "LimitRange" && res.Kind != "ResourceQuota") {
			continue
		}
		rep.Lint = append(rep.Lint, LintFinding{Pos: e.Pos, Finding: lint.Finding{
			Rule: RulePolicyRefused, Severity: lint.Error,
			Object:  lint.Object{Kind: res.Kind, Namespace: res.Namespace, Name: res.Name},
			Message: "kube-apiserver refuses it, so it governs nothing: " + res.Denial.Message,
			Fix:     "correct the object as the message says",
		}})
	}
	for _, f := range lint.Run(in) {
		pos := cfgPos
		if f.Object.Kind != "ResourceQuotaConfiguration" {
			pos = load.Position{}
			for i := range rep.Entries {
				res := &rep.Entries[i].Result
				if res.Allowed && res.Kind == f.Object.Kind && res.Namespace == f.Object.Namespace && res.Name == f.Object.Name {
					pos = rep.Entries[i].Pos
					break
				}
			}
		}
		rep.Lint = append(rep.Lint, LintFinding{Pos: pos, Finding: f})
	}
}

// AddLintWarnings makes every lint finding but refused policies (already
// denials) a warning of its object's entry, `RULE: MESSAGE (fix: FIX)`; a
// finding about the admission configuration becomes a note.
func (r *Report) AddLintWarnings() {
	for _, f := range r.Lint {
		if f.Rule == RulePolicyRefused {
			continue
		}
		msg := f.Rule + ": " + f.Message + " (fix: " + f.Fix + ")"
		placed := false
		for i := range r.Entries {
			if f.Object.Kind == "ResourceQuotaConfiguration" {
				break // the configuration is no object of a namespace: a note
			}
			e := &r.Entries[i]
			if e.Pos == f.Pos && e.Err == nil && e.Result.Kind == f.Object.Kind && e.Result.Name == f.Object.Name {
				e.Result.Warnings = append(e.Result.Warnings, msg)
				placed = true
				break
			}
		}
		if !placed {
			r.Notes = append(r.Notes, load.Note{File: f.Pos.File, Line: f.Pos.Line, Msg: msg})
		}
	}
}

// RenameFiles maps every file name of the report (positions, errors, notes,
// lint findings) through name: a revision's copy back to the user's paths.
func (r *Report) RenameFiles(name func(string) string) {
	for i := range r.Entries {
		e := &r.Entries[i]
		e.Pos.File = name(e.Pos.File)
		if e.Err != nil {
			e.Err.File = name(e.Err.File)
		}
	}
	for i := range r.Notes {
		r.Notes[i].File = name(r.Notes[i].File)
	}
	for i := range r.Lint {
		r.Lint[i].Pos.File = name(r.Lint[i].Pos.File)
	}
}
