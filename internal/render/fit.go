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
// order, then each namespace's quota table after the whole input. Text, JSON
// and describe (fitdescribe.go): the CI formats report denials, which fit
// does not add to.

// FitFormats are the -o values of `limitcheck fit` (describe: FitDescribe).
var FitFormats = []string{"describe", "json", "text"}

// Fits reports whether every workload fits as many replicas as it wants
// and every rollout simulated completes.
func Fits(r *check.Report) bool {
	for i := range r.Entries {
		if f := r.Entries[i].Fit; f != nil && !f.Fits() {
			return false
		}
		if ro := r.Entries[i].Rollout; ro != nil && !ro.Complete && ro.Note == "" {
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
	fits, unfit, stuck := 0, 0, 0
	for i := range r.Entries {
		e := &r.Entries[i]
		if e.Err != nil || e.Result.Internal != "" {
			writeFinding(&b, p, e)
			continue
		}
		if e.Fit == nil {
			continue
		}
		loc := p.location.Sprint(Escape(place(e.Pos) + ":"))
		object := e.Result.Kind + " " + qualifiedName(&e.Result)
		if e.Pos.Source != "" {
			object += " (" + e.Pos.Source + ")"
		}
		fmt.Fprintf(&b, "%s %s: %s\n", loc, Escape(object), fitPhrase(p, &e.Result, e.Fit))
		if h := e.Fit.HPA; h != nil {
			fmt.Fprintf(&b, "    hpa: %s\n", hpaPhrase(p, h, e.Fit))
		}
		if ro := e.Rollout; ro != nil {
			fmt.Fprintf(&b, "    rollout: %s\n", rolloutPhrase(p, ro))
			if !ro.Complete && ro.Note == "" {
				stuck++
			}
		}
		if e.Fit.Fits() {
			fits++
		} else {
			unfit++
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
	if stuck > 0 {
		summary += "; " + p.bad.Sprint(Count(stuck, "rollout", "rollouts")+" stuck")
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
	if !f.Fits() {
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

// hpaPhrase is what the text report says of the HPA targeting a workload (FIT-04).
func hpaPhrase(p palette, h *eval.FitHPA, f *eval.Fit) string {
	s := fmt.Sprintf("HorizontalPodAutoscaler %s scales it from %d to %d: ", Escape(h.Name), h.MinReplicas, h.MaxReplicas)
	if h.MaxFits {
		return s + p.good.Sprint("maxReplicas fits")
	}
	fit := strconv.Itoa(f.Fit)
	return s + p.bad.Sprintf("maxReplicas does not fit (%s fit)", fit)
}

// rolloutPhrase is what the text report says of a rollout (FIT-03).
func rolloutPhrase(p palette, r *eval.Rollout) string {
	if r.Note != "" && !r.Complete {
		return p.bad.Sprint("not simulated") + ": " + Escape(r.Note)
	}
	if r.Note != "" {
		return Escape(r.Note)
	}
	s := fmt.Sprintf("maxSurge %d, maxUnavailable %d of %d: ", r.MaxSurge, r.MaxUnavailable, r.Replicas)
	if r.Complete {
		s += p.good.Sprint("completes")
	} else {
		s += p.bad.Sprintf("stuck with %d new and %d old Pods", r.New, r.Old)
	}
	if len(r.Peak) > 0 {
		var peaks []string
		for _, q := range r.Peak {
			pk := fmt.Sprintf("%s %s %s", q.Quota, q.Resource, q.Peak.String())
			if q.HasHard {
				pk += " of " + q.Hard.String()
			}
			peaks = append(peaks, Escape(pk))
		}
		s += "; peak " + strings.Join(peaks, ", ")
	}
	if b := r.Binding; b != nil && !r.Complete {
		if b.Denial != nil {
			s += "; " + Escape(b.Denial.Message)
		} else {
			s += "; " + Escape(b.Internal)
		}
	}
	return s
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

// jsonFitDoc is the document `limitcheck fit -o json` prints
// (testdata/fit.schema.json); do not reorder.
type jsonFitDoc struct {
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
	// Rollout is set with --rollout for Deployments and StatefulSets.
	Rollout *jsonRollout `json:"rollout,omitempty"`
	// HPA is set for a workload an HPA of the input targets (FIT-04).
	HPA *jsonFitHPA `json:"hpa,omitempty"`
}

// jsonFitHPA is eval.FitHPA.
type jsonFitHPA struct {
	Name        string `json:"name"`
	MinReplicas int32  `json:"minReplicas"`
	MaxReplicas int32  `json:"maxReplicas"`
	MaxFits     bool   `json:"maxFits"`
}

// jsonRollout is eval.Rollout.
type jsonRollout struct {
	Strategy       string       `json:"strategy"`
	Replicas       int          `json:"replicas"`
	MaxSurge       int          `json:"maxSurge"`
	MaxUnavailable int          `json:"maxUnavailable"`
	Complete       bool         `json:"complete"`
	New            int          `json:"new"`
	Old            int          `json:"old"`
	Note           string       `json:"note"`
	Peak           []jsonPeak   `json:"peak"`
	Binding        *jsonBinding `json:"binding"`
}

type jsonPeak struct {
	Quota    string `json:"quota"`
	Resource string `json:"resource"`
	Used     string `json:"used"`
	Peak     string `json:"peak"`
	Hard     string `json:"hard"`
}

// jsonBinding is what refuses replica fit+1.
type jsonBinding struct {
	Replica int    `json:"replica"`
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	// GenerateName: as the check report's (set only when name is "").
	GenerateName string `json:"generateName,omitempty"`
	Code         int32  `json:"code"`
	Stage        string `json:"stage"`
	Quota        string `json:"quota"`
	Resource     string `json:"resource"`
	LimitRange   string `json:"limitRange"`
	Message      string `json:"message"`
}

type jsonFitQuota struct {
	Namespace string            `json:"namespace"`
	Name      string            `json:"name"`
	Hard      map[string]string `json:"hard"`
	Used      map[string]string `json:"used"`
	Free      map[string]string `json:"free"`
}

func newJSONBinding(b *eval.Binding) *jsonBinding {
	if b == nil {
		return nil
	}
	jb := &jsonBinding{Replica: b.Replica, Kind: b.Kind, Name: b.Name, GenerateName: b.GenerateName, Message: b.Internal, Code: internalErrorCode}
	if d := b.Denial; d != nil {
		jb.Code, jb.Stage, jb.Message = d.Code, string(d.Stage), d.Message
		jb.Quota, jb.Resource, jb.LimitRange = d.Quota, strings.Join(d.Resources, ","), d.LimitRange
	}
	return jb
}

// FitJSON writes the fit report as one JSON document.
func FitJSON(w io.Writer, r *check.Report, o Options) error {
	doc := jsonFitDoc{SchemaVersion: JSONSchemaVersion, Version: o.Version, Workloads: []jsonFitWorkload{}, Errors: []jsonNote{}, Quotas: []jsonFitQuota{}}
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
		wl.Binding = newJSONBinding(f.Binding)
		if h := f.HPA; h != nil {
			wl.HPA = &jsonFitHPA{Name: h.Name, MinReplicas: h.MinReplicas, MaxReplicas: h.MaxReplicas, MaxFits: h.MaxFits}
		}
		if ro := e.Rollout; ro != nil {
			jr := &jsonRollout{Strategy: string(ro.Strategy), Replicas: ro.Replicas, MaxSurge: ro.MaxSurge, MaxUnavailable: ro.MaxUnavailable,
				Complete: ro.Complete, New: ro.New, Old: ro.Old, Note: ro.Note, Peak: []jsonPeak{}, Binding: newJSONBinding(ro.Binding)}
			for _, q := range ro.Peak {
				hard := ""
				if q.HasHard {
					hard = q.Hard.String()
				}
				jr.Peak = append(jr.Peak, jsonPeak{Quota: q.Quota, Resource: string(q.Resource), Used: q.Used.String(), Peak: q.Peak.String(), Hard: hard})
			}
			wl.Rollout = jr
		}
		doc.Workloads = append(doc.Workloads, wl)
		doc.Summary.Workloads++
		if f.Fits() {
			doc.Summary.Fit++
		} else {
			doc.Summary.Unfit++
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
