package render

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/limitcheck/limitcheck/internal/diff"
)

// DiffFormat writes a diff.Diff.
type DiffFormat interface {
	Render(w io.Writer, d *diff.Diff, o Options) error
	Description() string
}

var diffFormats = map[string]DiffFormat{
	"text": diffTextFormat{},
	"json": diffJSONFormat{},
}

// DiffFormats lists the diff format names, sorted.
func DiffFormats() []string { return slices.Sorted(maps.Keys(diffFormats)) }

// LookupDiff returns the named diff format; an unknown name is an error.
func LookupDiff(name string) (DiffFormat, error) {
	f, ok := diffFormats[name]
	if !ok {
		return nil, fmt.Errorf("unknown output format %q: valid formats are %s", name, strings.Join(DiffFormats(), ", "))
	}
	return f, nil
}

// diffTextFormat: per namespace, the newly denied, newly admitted, removed
// and reason-changed objects, the count of those denied in both (listed with
// Verbose), the quota usage before and after; then the replicas that fit and
// a summary line.
type diffTextFormat struct{}

func (diffTextFormat) Description() string {
	return "changes per namespace, quota usage before and after, and a summary"
}

func (diffTextFormat) Render(w io.Writer, d *diff.Diff, o Options) error {
	p := newPalette(o.Color)
	var b strings.Builder
	// line writes `LABEL FILE:LINE: OBJECT: MESSAGE[ (SUFFIX)]`.
	line := func(label string, c diff.Change, s *diff.Side, suffix string) {
		loc := Escape(s.File + ":" + strconv.Itoa(s.Line) + ":")
		object := c.Kind + " " + c.Namespace + "/" + c.Name
		if c.Namespace == "" {
			object = c.Kind + " " + c.Name
		}
		if s.Source != "" {
			object += " (" + s.Source + ")"
		}
		fmt.Fprintf(&b, "%s %s %s: %s", label, p.location.Sprint(loc), Escape(object), Escape(s.Message))
		if suffix != "" {
			b.WriteString(" (" + Escape(suffix) + ")")
		}
		b.WriteString("\n")
	}
	for _, n := range d.Namespaces {
		fmt.Fprintf(&b, "%s\n", p.header.Sprint("namespace "+Escape(n.Name)+":"))
		for _, c := range n.NewlyDenied {
			suffix := ""
			if c.Base == nil {
				suffix = "new object"
			} else if c.Base.Allowed {
				suffix = "was admitted"
			}
			line(p.bad.Sprint("newly denied:"), c, c.Head, suffix)
		}
		for _, c := range n.FewerAdmitted {
			line(p.bad.Sprint("fewer replicas admitted:"), c, c.Head, "was: "+c.Base.Message)
		}
		for _, c := range n.ReasonChanged {
			line(p.warn.Sprint("reason changed:"), c, c.Head, "was: "+c.Base.Message)
		}
		for _, c := range n.NewlyAdmitted {
			s := *c.Head
			s.Message = "admitted"
			line(p.good.Sprint("newly admitted:"), c, &s, "was: "+c.Base.Message)
		}
		for _, c := range n.Removed {
			s := *c.Base
			s.Message = "removed"
			line(p.good.Sprint("removed:"), c, &s, "was: "+c.Base.Message)
		}
		if len(n.DeniedInBoth) > 0 {
			if o.Verbose {
				for _, c := range n.DeniedInBoth {
					line("denied in both:", c, c.Head, "")
				}
			} else {
				fmt.Fprintf(&b, "denied in both: %s (-v lists them)\n", Count(len(n.DeniedInBoth), "object", "objects"))
			}
		}
		if len(n.Quotas) > 0 && !o.Quiet {
			fmt.Fprintf(&b, "quota usage in namespace %s:\n", Escape(n.Name))
			tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
			fmt.Fprintln(tw, "  QUOTA\tRESOURCE\tBEFORE\tAFTER\tDELTA\tHARD")
			dash := func(s string) string {
				if s == "" {
					return "-"
				}
				return s
			}
			for _, r := range n.Quotas {
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", Escape(r.Quota), Escape(r.Resource), dash(r.Before), dash(r.After), dash(r.Delta), dash(r.Hard))
			}
			_ = tw.Flush()
		}
		if n.Base.Replicas+n.Head.Replicas > 0 {
			fmt.Fprintf(&b, "replicas admitted in namespace %s: %d of %d before, %d of %d after\n", Escape(n.Name), n.Base.Admitted, n.Base.Replicas, n.Head.Admitted, n.Head.Replicas)
		}
	}
	fmt.Fprintf(&b, "%d newly denied, ", d.NewlyDenied)
	if d.FewerAdmitted > 0 {
		fmt.Fprintf(&b, "%d with fewer replicas admitted, ", d.FewerAdmitted)
	}
	fmt.Fprintf(&b, "%d newly admitted, %d removed, %d reason changed, %d denied in both",
		d.NewlyAdmitted, d.Removed, d.ReasonChanged, d.DeniedInBoth)
	if d.Base.Replicas+d.Head.Replicas > 0 {
		fmt.Fprintf(&b, "; replicas admitted: %d of %d before, %d of %d after", d.Base.Admitted, d.Base.Replicas, d.Head.Admitted, d.Head.Replicas)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// DiffJSONSchemaVersion is the diff document's schemaVersion.
const DiffJSONSchemaVersion = 1

type diffJSONDoc struct {
	SchemaVersion int                 `json:"schemaVersion"`
	Version       string              `json:"version"`
	Summary       diffJSONSummary     `json:"summary"`
	Namespaces    []diffJSONNamespace `json:"namespaces"`
}

type diffJSONSummary struct {
	NewlyDenied   int     `json:"newlyDenied"`
	NewlyAdmitted int     `json:"newlyAdmitted"`
	Removed       int     `json:"removed"`
	FewerAdmitted int     `json:"fewerAdmitted"`
	ReasonChanged int     `json:"reasonChanged"`
	DeniedInBoth  int     `json:"deniedInBoth"`
	Replicas      jsonFit `json:"replicas"`
}

type jsonFit struct {
	BaseWanted   int `json:"baseWanted"`
	BaseAdmitted int `json:"baseAdmitted"`
	HeadWanted   int `json:"headWanted"`
	HeadAdmitted int `json:"headAdmitted"`
}

type diffJSONNamespace struct {
	Name          string           `json:"name"`
	NewlyDenied   []diffJSONChange `json:"newlyDenied"`
	NewlyAdmitted []diffJSONChange `json:"newlyAdmitted"`
	Removed       []diffJSONChange `json:"removed"`
	FewerAdmitted []diffJSONChange `json:"fewerAdmitted"`
	ReasonChanged []diffJSONChange `json:"reasonChanged"`
	DeniedInBoth  []diffJSONChange `json:"deniedInBoth"`
	Quotas        []diffJSONQuota  `json:"quotas"`
	Replicas      jsonFit          `json:"replicas"`
}

type diffJSONChange struct {
	Kind      string        `json:"kind"`
	Namespace string        `json:"namespace"`
	Name      string        `json:"name"`
	Base      *diffJSONSide `json:"base"`
	Head      *diffJSONSide `json:"head"`
}

type diffJSONSide struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Source  string `json:"source,omitempty"`
	Allowed bool   `json:"allowed"`
	Message string `json:"message"`
}

type diffJSONQuota struct {
	Quota    string `json:"quota"`
	Resource string `json:"resource"`
	Before   string `json:"before"`
	After    string `json:"after"`
	Delta    string `json:"delta"`
	Hard     string `json:"hard"`
}

type diffJSONFormat struct{}

func (diffJSONFormat) Description() string { return "the same content as one JSON document" }

func (diffJSONFormat) Render(w io.Writer, d *diff.Diff, o Options) error {
	doc := diffJSONDoc{SchemaVersion: DiffJSONSchemaVersion, Version: o.Version, Namespaces: []diffJSONNamespace{},
		Summary: diffJSONSummary{NewlyDenied: d.NewlyDenied, NewlyAdmitted: d.NewlyAdmitted, Removed: d.Removed, FewerAdmitted: d.FewerAdmitted, ReasonChanged: d.ReasonChanged, DeniedInBoth: d.DeniedInBoth,
			Replicas: jsonFit{BaseWanted: d.Base.Replicas, BaseAdmitted: d.Base.Admitted, HeadWanted: d.Head.Replicas, HeadAdmitted: d.Head.Admitted}}}
	conv := func(cs []diff.Change) []diffJSONChange {
		out := []diffJSONChange{}
		for _, c := range cs {
			jc := diffJSONChange{Kind: c.Kind, Namespace: c.Namespace, Name: c.Name}
			for _, pair := range []struct {
				s   *diff.Side
				dst **diffJSONSide
			}{{c.Base, &jc.Base}, {c.Head, &jc.Head}} {
				if pair.s != nil {
					*pair.dst = &diffJSONSide{File: pair.s.File, Line: pair.s.Line, Source: pair.s.Source, Allowed: pair.s.Allowed, Message: pair.s.Message}
				}
			}
			out = append(out, jc)
		}
		return out
	}
	for _, n := range d.Namespaces {
		jn := diffJSONNamespace{Name: n.Name, NewlyDenied: conv(n.NewlyDenied), NewlyAdmitted: conv(n.NewlyAdmitted), Removed: conv(n.Removed), FewerAdmitted: conv(n.FewerAdmitted),
			ReasonChanged: conv(n.ReasonChanged), DeniedInBoth: conv(n.DeniedInBoth), Quotas: []diffJSONQuota{},
			Replicas: jsonFit{BaseWanted: n.Base.Replicas, BaseAdmitted: n.Base.Admitted, HeadWanted: n.Head.Replicas, HeadAdmitted: n.Head.Admitted}}
		for _, r := range n.Quotas {
			jn.Quotas = append(jn.Quotas, diffJSONQuota(r))
		}
		doc.Namespaces = append(doc.Namespaces, jn)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
