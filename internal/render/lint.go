package render

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/lint"
)

// The formats of `limitcheck lint`: the report's Lint findings and the
// documents that could not be read.
var lintFormats = map[string]Format{
	"text": lintTextFormat{},
	"json": lintJSONFormat{},
}

// LintFormats lists the lint format names, sorted.
func LintFormats() []string { return slices.Sorted(maps.Keys(lintFormats)) }

// LookupLint returns the named lint format; an unknown name is an error
// listing the valid ones.
func LookupLint(name string) (Format, error) {
	f, ok := lintFormats[name]
	if !ok {
		return nil, fmt.Errorf("unknown output format %q: valid formats are %s", name, strings.Join(LintFormats(), ", "))
	}
	return f, nil
}

// LintSummary counts the policies linted and the findings.
type LintSummary struct {
	LimitRanges    int `json:"limitRanges"`
	ResourceQuotas int `json:"resourceQuotas"`
	Errors         int `json:"errors"`
	Warnings       int `json:"warnings"`
	// InputErrors counts the documents that could not be read.
	InputErrors int `json:"inputErrors"`
}

// SummarizeLint counts r's policies (admitted or not) and lint findings.
func SummarizeLint(r *check.Report) LintSummary {
	var s LintSummary
	for i := range r.Entries {
		e := &r.Entries[i]
		switch {
		case e.Err != nil:
			s.InputErrors++
		case e.Result.Skipped || e.Result.APIVersion != "v1":
		case e.Result.Kind == "LimitRange":
			s.LimitRanges++
		case e.Result.Kind == "ResourceQuota":
			s.ResourceQuotas++
		}
	}
	for _, f := range r.Lint {
		if f.Severity == lint.Error {
			s.Errors++
		} else {
			s.Warnings++
		}
	}
	return s
}

// lintTextFormat: the documents that could not be read, then one line per
// finding, `FILE:LINE: SEVERITY RULE: KIND NAMESPACE/NAME: MESSAGE (fix: FIX)`,
// then a summary line.
type lintTextFormat struct{}

func (lintTextFormat) Description() string { return "one line per finding and a summary" }

func (lintTextFormat) Render(w io.Writer, r *check.Report, o Options) error {
	p := newPalette(o.Color)
	var b strings.Builder
	for i := range r.Entries {
		if r.Entries[i].Err != nil {
			writeFinding(&b, p, &r.Entries[i])
		}
	}
	for _, f := range r.Lint {
		loc := f.Pos.File + ":"
		if f.Pos.Line > 0 {
			loc += strconv.Itoa(f.Pos.Line) + ":"
		}
		sev := p.warn.Sprint(string(f.Severity))
		if f.Severity == lint.Error {
			sev = p.err.Sprint(string(f.Severity))
		}
		object := lintObject(f.Object)
		if f.Pos.Source != "" {
			object += " (" + f.Pos.Source + ")"
		}
		fmt.Fprintf(&b, "%s %s %s: %s: %s (fix: %s)\n", p.location.Sprint(Escape(loc)), sev, f.Rule, Escape(object), Escape(f.Message), Escape(f.Fix))
	}
	s := SummarizeLint(r)
	fmt.Fprintf(&b, "%s, %s: ", Count(s.LimitRanges, "LimitRange", "LimitRanges"), Count(s.ResourceQuotas, "ResourceQuota", "ResourceQuotas"))
	if s.Errors+s.Warnings == 0 {
		b.WriteString(p.good.Sprint("no findings"))
	} else {
		b.WriteString(Count(s.Errors, "error", "errors") + ", " + Count(s.Warnings, "warning", "warnings"))
	}
	if s.InputErrors > 0 {
		b.WriteString(", " + Count(s.InputErrors, "document", "documents") + " could not be read")
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// lintObject is `KIND NAMESPACE/NAME`, or the kind alone for the admission
// configuration.
func lintObject(o lint.Object) string {
	switch {
	case o.Name == "" && o.Namespace == "":
		return o.Kind
	case o.Namespace == "":
		return o.Kind + " " + o.Name
	}
	return o.Kind + " " + o.Namespace + "/" + o.Name
}

// LintJSONSchemaVersion is the lint document's schemaVersion; it changes only
// when a field is removed, renamed or changes type or meaning.
const LintJSONSchemaVersion = 1

type lintJSONDoc struct {
	SchemaVersion int               `json:"schemaVersion"`
	Version       string            `json:"version"`
	Summary       LintSummary       `json:"summary"`
	Findings      []lintJSONFinding `json:"findings"`
	InputErrors   []lintJSONError   `json:"inputErrors"`
}

type lintJSONFinding struct {
	Rule      string `json:"rule"`
	Severity  string `json:"severity"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Source    string `json:"source,omitempty"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Message   string `json:"message"`
	Fix       string `json:"fix"`
}

type lintJSONError struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

type lintJSONFormat struct{}

func (lintJSONFormat) Description() string { return "the findings as one JSON document" }

func (lintJSONFormat) Render(w io.Writer, r *check.Report, o Options) error {
	doc := lintJSONDoc{SchemaVersion: LintJSONSchemaVersion, Version: o.Version, Summary: SummarizeLint(r),
		Findings: []lintJSONFinding{}, InputErrors: []lintJSONError{}}
	for i := range r.Entries {
		if e := &r.Entries[i]; e.Err != nil {
			for _, f := range entryFindings(e) {
				doc.InputErrors = append(doc.InputErrors, lintJSONError{File: f.File, Line: f.Line, Message: f.Message})
			}
		}
	}
	for _, f := range r.Lint {
		doc.Findings = append(doc.Findings, lintJSONFinding{Rule: f.Rule, Severity: string(f.Severity), File: f.Pos.File, Line: f.Pos.Line, Source: f.Pos.Source,
			Kind: f.Object.Kind, Namespace: f.Object.Namespace, Name: f.Object.Name, Message: f.Message, Fix: f.Fix})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // keep "<stdin>" readable
	return enc.Encode(doc)
}
