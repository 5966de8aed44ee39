package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
)

// The report of `limitcheck fit` (FIT-01): a line per workload in input
// order, then each namespace's quota table after the whole input. Only text
// and JSON: the CI formats report denials, which fit does not add to.

// FitFormats are the -o values of `limitcheck fit`.
var FitFormats = []string{"json", "text"}

// Fits reports whether every workload fits as many replicas as it wants.
func Fits(r *check.Report) bool {
	for i := range r.Entries {
		if f := r.Entries[i].Fit; f != nil && f.Wanted > f.Fit {
			return false
		}
	}
	return true
}

// FitText writes the fit report as text:
//
//	FILE:LINE: KIND NAMESPACE/NAME: W wanted, N fit; the (N+1)th is refused: MESSAGE
//
// or `W wanted, unbounded`; documents that could not be read and objects
// limitcheck failed on are listed as check lists them.
func FitText(w io.Writer, r *check.Report, o Options) error {
	p := newPalette(o.Color)
	var b strings.Builder
	fits, unfit := 0, 0
	for i := range r.Entries {
		e := &r.Entries[i]
		if e.Err != nil || e.Result.Internal != "" {
			writeFinding(&b, p, e)
			continue
		}
		if e.Fit == nil {
			continue
		}
		loc := p.location.Sprint(Escape(e.Pos.File + ":" + strconv.Itoa(e.Pos.Line) + ":"))
		object := e.Result.Kind + " " + qualifiedName(&e.Result)
		if e.Pos.Source != "" {
			object += " (" + e.Pos.Source + ")"
		}
		fmt.Fprintf(&b, "%s %s: %s\n", loc, Escape(object), fitPhrase(p, &e.Result, e.Fit))
		if e.Fit.Wanted > e.Fit.Fit {
			unfit++
		} else {
			fits++
		}
	}
	for _, n := range r.Notes {
		writeNote(&b, p, n)
	}
	if !o.Quiet {
		writeQuotas(&b, p, r)
	}
	summary := fmt.Sprintf("%s: %d fit%s as wanted", Count(fits+unfit, "workload", "workloads"), fits, plural(fits, "s", ""))
	if unfit > 0 {
		summary += ", " + p.bad.Sprintf("%d do%s not", unfit, plural(unfit, "es", ""))
	}
	b.WriteString(summary + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// fitPhrase is what the text report says of one workload's fit.
func fitPhrase(p palette, res *eval.Result, f *eval.Fit) string {
	if f.Fit == eval.Unbounded {
		return fmt.Sprintf("%d wanted, unbounded", f.Wanted)
	}
	s := fmt.Sprintf("%d wanted, %d fit", f.Wanted, f.Fit)
	if f.Wanted > f.Fit {
		s = p.bad.Sprint(s)
	}
	b := f.Binding
	if b == nil {
		return s
	}
	switch {
	case b.Replica > 0:
		s += "; the " + ordinal(b.Replica) + " is refused: "
	case b.Kind == res.Kind && b.Name == res.Name:
		s += "; the " + Escape(b.Kind) + " itself is refused: "
	default:
		s += "; its " + Escape(b.Kind) + " is refused: "
	}
	if b.Denial != nil {
		return s + Escape(b.Denial.Message)
	}
	return s + Escape(b.Internal)
}

// ordinal is 1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, … 21st.
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// jsonFit is the document `limitcheck fit -o json` prints
// (testdata/fit.schema.json); do not reorder.
type jsonFit struct {
	SchemaVersion int               `json:"schemaVersion"`
	Version       string            `json:"version"`
	Summary       jsonFitSummary    `json:"summary"`
	Workloads     []jsonFitWorkload `json:"workloads"`
	Errors        []jsonNote        `json:"errors"`
	Quotas        []jsonFitQuota    `json:"quotas"`
}

type jsonFitSummary struct {
	Workloads int `json:"workloads"`
	Fit       int `json:"fit"`
	Unfit     int `json:"unfit"`
}

type jsonFitWorkload struct {
	File      string       `json:"file"`
	Line      int          `json:"line"`
	Source    string       `json:"source"`
	Kind      string       `json:"kind"`
	Namespace string       `json:"namespace"`
	Name      string       `json:"name"`
	Wanted    int          `json:"wanted"`
	Fit       int          `json:"fit"`
	Unbounded bool         `json:"unbounded"`
	Binding   *jsonBinding `json:"binding"`
}

// jsonBinding is what refuses replica fit+1.
type jsonBinding struct {
	Replica    int    `json:"replica"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Code       int32  `json:"code"`
	Stage      string `json:"stage"`
	Quota      string `json:"quota"`
	Resource   string `json:"resource"`
	LimitRange string `json:"limitRange"`
	Message    string `json:"message"`
}

type jsonFitQuota struct {
	Namespace string            `json:"namespace"`
	Name      string            `json:"name"`
	Hard      map[string]string `json:"hard"`
	Used      map[string]string `json:"used"`
	Free      map[string]string `json:"free"`
}

// FitJSON writes the fit report as one JSON document.
func FitJSON(w io.Writer, r *check.Report, o Options) error {
	doc := jsonFit{SchemaVersion: JSONSchemaVersion, Version: o.Version, Workloads: []jsonFitWorkload{}, Errors: []jsonNote{}, Quotas: []jsonFitQuota{}}
	for i := range r.Entries {
		e := &r.Entries[i]
		switch {
		case e.Err != nil:
			doc.Errors = append(doc.Errors, jsonNote{File: e.Pos.File, Line: e.Pos.Line, Message: e.Err.Error()})
			continue
		case e.Result.Internal != "":
			doc.Errors = append(doc.Errors, jsonNote{File: e.Pos.File, Line: e.Pos.Line, Message: e.Result.Internal})
			continue
		case e.Fit == nil:
			continue
		}
		f := e.Fit
		wl := jsonFitWorkload{File: e.Pos.File, Line: e.Pos.Line, Source: e.Pos.Source, Kind: e.Result.Kind, Namespace: e.Result.Namespace,
			Name: e.Result.Name, Wanted: f.Wanted, Fit: f.Fit, Unbounded: f.Fit == eval.Unbounded}
		if b := f.Binding; b != nil {
			jb := &jsonBinding{Replica: b.Replica, Kind: b.Kind, Name: b.Name, Message: b.Internal, Code: internalErrorCode}
			if d := b.Denial; d != nil {
				jb.Code, jb.Stage, jb.Message = d.Code, string(d.Stage), d.Message
				jb.Quota, jb.Resource, jb.LimitRange = d.Quota, strings.Join(d.Resources, ","), d.LimitRange
			}
			wl.Binding = jb
		}
		doc.Workloads = append(doc.Workloads, wl)
		doc.Summary.Workloads++
		if f.Wanted > f.Fit {
			doc.Summary.Unfit++
		} else {
			doc.Summary.Fit++
		}
	}
	for _, qs := range r.Quotas {
		q := qs.Quota
		free := map[string]string{}
		for k, hard := range q.Status.Hard {
			if used, ok := q.Status.Used[k]; ok {
				f := freeOf(hard, used)
				free[string(k)] = f.String()
			}
		}
		doc.Quotas = append(doc.Quotas, jsonFitQuota{Namespace: q.Namespace, Name: q.Name, Hard: quantities(q.Status.Hard), Used: quantities(q.Status.Used), Free: free})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
