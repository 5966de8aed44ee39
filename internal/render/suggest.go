package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/resources"
)

// QuotaYAML writes what `limitcheck fit --quota` prints (FIT-02): the
// suggested quotas as a manifest to apply in place of the input's, each hard
// value with the input's in a comment, then, as comments, what stays refused
// whatever the quotas allow. The whole output is one valid YAML stream.
func QuotaYAML(w io.Writer, r *check.Report, _ Options) error {
	var b strings.Builder
	if len(r.Suggested) == 0 {
		b.WriteString("# No quota refused anything: nothing to change.\n")
	} else {
		live := false
		for _, s := range r.Suggested {
			live = live || (s.Pos.Line == 0 && strings.HasPrefix(s.Pos.File, "cluster:"))
		}
		if live {
			// --from-cluster (CL-01): some are the cluster's own quotas.
			b.WriteString("# The smallest hard values that admit everything quotas can admit in the input;\n# apply them in place of the quotas they name, the cluster's included.\n")
		} else {
			b.WriteString("# The smallest hard values that admit everything quotas can admit in the input;\n# apply them in place of the input's quotas.\n")
		}
	}
	for _, s := range r.Suggested {
		q := s.Quota
		b.WriteString("---\n")
		why := "refused objects of the input"
		if !s.Refused {
			why = "would refuse what the other quotas refused"
		}
		fmt.Fprintf(&b, "# %s: %s %s\n", Escape(place(s.Pos)), Escape(q.Namespace+"/"+q.Name), why)
		fmt.Fprintf(&b, "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  hard:\n", q.Name, q.Namespace)
		names := resources.SortedNames(q.Spec.Hard)
		width := 0
		values := make([]string, len(names))
		for i, k := range names {
			v := q.Spec.Hard[k]
			values[i] = fmt.Sprintf("%s: %q", k, v.String())
			width = max(width, len(values[i]))
		}
		for i, k := range names {
			line := "    " + values[i]
			if was, ok := s.Was[k]; ok && was.Cmp(q.Spec.Hard[k]) != 0 {
				line += strings.Repeat(" ", width-len(values[i])) + "  # was " + was.String()
				if was.Cmp(q.Spec.Hard[k]) > 0 {
					// The smallest value leaves the release no room to grow:
					// say so rather than let it pass for a fix.
					line += ", lowered to what the input uses"
				}
			}
			b.WriteString(line + "\n")
		}
		rest := corev1.ResourceQuotaSpec{Scopes: q.Spec.Scopes, ScopeSelector: q.Spec.ScopeSelector}
		if len(rest.Scopes) > 0 || rest.ScopeSelector != nil {
			out, err := yaml.Marshal(rest)
			if err != nil {
				return err
			}
			for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
				b.WriteString("  " + line + "\n")
			}
		}
	}
	if len(r.StillRefused) > 0 {
		b.WriteString("---\n# Refused whatever the quotas allow (a LimitRange, validation, or a quota's\n# must specify):\n")
		for i := range r.StillRefused {
			e := &r.StillRefused[i]
			object := e.Result.Kind + " " + qualifiedName(&e.Result)
			fmt.Fprintf(&b, "# %s: %s: %s\n", Escape(place(e.Pos)), Escape(object), Escape(refusal(&e.Result)))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// refusal is the message of the first object refused in res: res itself, or
// what its controllers created, prefixed with how many replicas were admitted.
func refusal(res *eval.Result) string {
	if res.Denial != nil {
		return res.Denial.Message
	}
	if w := res.Workload; w != nil {
		for i := range w.Created {
			if c := &w.Created[i]; !c.Allowed && c.Denial != nil {
				return fmt.Sprintf("%d of %d replicas admitted; %s", w.Admitted, w.Replicas, c.Denial.Message)
			}
		}
	}
	return res.Internal
}

// jsonQuotaDoc is the document `limitcheck fit --quota -o json` prints
// (testdata/fit-quota.schema.json); do not reorder.
type jsonQuotaDoc struct {
	SchemaVersion int                `json:"schemaVersion"`
	Version       string             `json:"version"`
	Summary       jsonQuotaSummary   `json:"summary"`
	Suggestions   []jsonSuggestion   `json:"suggestions"`
	StillRefused  []jsonStillRefused `json:"stillRefused"`
	Errors        []jsonNote         `json:"errors"`
}

type jsonQuotaSummary struct {
	Suggested    int `json:"suggested"`
	Changed      int `json:"changed"`
	StillRefused int `json:"stillRefused"`
}

// jsonSuggestion is one suggested quota: where the original is, its hard
// values and the suggested ones, and the manifest to apply.
type jsonSuggestion struct {
	File      string            `json:"file"`
	Line      int               `json:"line"`
	Namespace string            `json:"namespace"`
	Name      string            `json:"name"`
	Refused   bool              `json:"refused"`
	Hard      map[string]string `json:"hard"`
	Suggested map[string]string `json:"suggested"`
	Changed   []string          `json:"changed"`
	Manifest  jsonQuotaManifest `json:"manifest"`
}

// jsonQuotaManifest is the suggested ResourceQuota as kubectl apply takes it.
type jsonQuotaManifest struct {
	APIVersion string                   `json:"apiVersion"`
	Kind       string                   `json:"kind"`
	Metadata   jsonManifestMeta         `json:"metadata"`
	Spec       corev1.ResourceQuotaSpec `json:"spec"`
}

type jsonManifestMeta struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

// jsonStillRefused is an object refused whatever the quotas allow, and the
// first refusal among it and what its controllers create.
type jsonStillRefused struct {
	File      string       `json:"file"`
	Line      int          `json:"line"`
	Source    string       `json:"source"`
	Kind      string       `json:"kind"`
	Namespace string       `json:"namespace"`
	Name      string       `json:"name"`
	Replicas  int          `json:"replicas"`
	Admitted  int          `json:"admitted"`
	Refusal   *jsonBinding `json:"refusal"`
}

// QuotaJSON writes what `limitcheck fit --quota -o json` prints (FIT-02): the
// suggested quotas with the input's hard values beside them and the
// resources that change, a manifest of each, and what stays refused whatever
// the quotas allow, with kube-apiserver's messages.
func QuotaJSON(w io.Writer, r *check.Report, o Options) error {
	doc := jsonQuotaDoc{SchemaVersion: JSONSchemaVersion, Version: o.Version, Suggestions: []jsonSuggestion{}, StillRefused: []jsonStillRefused{}, Errors: []jsonNote{}}
	for _, s := range r.Suggested {
		q := s.Quota
		js := jsonSuggestion{File: s.Pos.File, Line: s.Pos.Line, Namespace: q.Namespace, Name: q.Name, Refused: s.Refused,
			Hard: quantities(s.Was), Suggested: quantities(q.Spec.Hard), Changed: changedResources(s.Was, q.Spec.Hard),
			Manifest: jsonQuotaManifest{APIVersion: "v1", Kind: "ResourceQuota", Metadata: jsonManifestMeta{Name: q.Name, Namespace: q.Namespace}}}
		q.Spec.DeepCopyInto(&js.Manifest.Spec)
		doc.Suggestions = append(doc.Suggestions, js)
		if len(js.Changed) > 0 {
			doc.Summary.Changed++
		}
	}
	doc.Summary.Suggested = len(doc.Suggestions)
	for i := range r.StillRefused {
		e := &r.StillRefused[i]
		sr := jsonStillRefused{File: e.Pos.File, Line: e.Pos.Line, Source: e.Pos.Source, Kind: e.Result.Kind, Namespace: e.Result.Namespace, Name: e.Result.Name,
			Refusal: newJSONBinding(firstRefusal(&e.Result))}
		if wl := e.Result.Workload; wl != nil {
			sr.Replicas, sr.Admitted = wl.Replicas, wl.Admitted
		}
		doc.StillRefused = append(doc.StillRefused, sr)
	}
	doc.Summary.StillRefused = len(doc.StillRefused)
	for i := range r.Entries {
		e := &r.Entries[i]
		switch {
		case e.Err != nil:
			doc.Errors = append(doc.Errors, jsonNote{File: e.Pos.File, Line: e.Pos.Line, Message: e.Err.Error()})
		case e.Result.Internal != "":
			doc.Errors = append(doc.Errors, jsonNote{File: e.Pos.File, Line: e.Pos.Line, Message: e.Result.Internal})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// changedResources lists, sorted, the resources whose suggested value
// differs from the input's (or that the input's quota did not have).
func changedResources(was, now corev1.ResourceList) []string {
	out := []string{}
	for _, k := range resources.SortedNames(now) {
		if old, ok := was[k]; !ok || old.Cmp(now[k]) != 0 {
			out = append(out, string(k))
		}
	}
	return out
}

// firstRefusal is the first object refused in res as a Binding: res itself,
// or the first object its controllers created that was refused, numbered as
// fit numbers replicas (adopted Pods first).
func firstRefusal(res *eval.Result) *eval.Binding {
	if res.Denial != nil || res.Internal != "" {
		return &eval.Binding{Kind: res.Kind, Name: res.Name, Denial: res.Denial, Internal: res.Internal}
	}
	if w := res.Workload; w != nil {
		for i := range w.Created {
			if c := &w.Created[i]; !c.Allowed {
				b := &eval.Binding{Kind: c.Kind, Name: c.Name, Denial: c.Denial, Internal: c.Internal}
				if c.Replica > 0 {
					b.Replica = w.Adopted + c.Replica
				}
				return b
			}
		}
	}
	return nil
}
