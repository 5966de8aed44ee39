package render

import (
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
