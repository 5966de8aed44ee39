package check

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/kubetext"
	"github.com/limitcheck/limitcheck/internal/load"
	"github.com/limitcheck/limitcheck/internal/spell"
)

// The notes and warnings a run adds about the input as a whole: what it
// took on trust, where a custom kind's CRD is, custom resources checked
// without a schema, objects checked in the default namespace.

// crdPlace is where a CustomResourceDefinition of the input is, and its name.
type crdPlace struct {
	pos  load.Position
	name string
}

// unmapped is kubectl's error for a custom resource it cannot map, sent in
// input order before the CRD the input creates for its kind (API-02): its
// REST mapper finds no such kind, and it sends nothing (cli-runtime's
// mapper.infoForData; the namespace is the document's own). kubectl's
// second line, "ensure CRDs are installed first", follows in parentheses
// with where the CRD is. "" for any other document.
func (r *runner) unmapped(d load.Document, l *look, opts Options) string {
	if opts.Order != OrderInput || opts.Live != nil || d.Err != nil || d.Skip != "" || len(l.crdAt) == 0 {
		return ""
	}
	gv, err := schema.ParseGroupVersion(d.APIVersion)
	if err != nil {
		return ""
	}
	at, ok := l.crdAt[gv.WithKind(d.Kind).GroupKind()]
	if !ok || r.crdsAdmitted[at.pos] {
		return ""
	}
	return fmt.Sprintf("%s (%s: the CustomResourceDefinition %s is at %s:%d, later in the input)",
		kubetext.ResourceMappingNotFound(d.Name, d.Namespace, load.KubectlSource(d.Pos.File), apis.NoMatchMessage(d.APIVersion, d.Kind)), kubetext.EnsureCRDs, at.name, at.pos.File, at.pos.Line)
}

// crdOrderWarning is the warning on the first custom resource of a kind
// whose CRD the same input creates (API-02): kubectl maps each document as
// it reaches it, so a CRD later in the input is not there yet, and one
// earlier serves its kind only once established, a moment after its create.
func crdOrderWarning(at crdPlace, created bool, apiVersion, kind string) string {
	if created {
		return fmt.Sprintf("its kind is served by the CustomResourceDefinition %s created at %s:%d in the same run: kube-apiserver serves %s a moment after the CRD is created, so kubectl create or apply of both at once can fail here (resource mapping not found …: no matches for kind %q in version %q; ensure CRDs are installed first): apply the CRDs first, then kubectl wait --for condition=established crd/%s",
			at.name, at.pos.File, at.pos.Line, kind, kind, apiVersion, at.name)
	}
	return fmt.Sprintf("its kind is served by the CustomResourceDefinition %s at %s:%d, later in the input: on a cluster without it, kubectl cannot map %s here (resource mapping not found …: no matches for kind %q in version %q; ensure CRDs are installed first): put the CRDs first",
		at.name, at.pos.File, at.pos.Line, kind, kind, apiVersion)
}

// assumedUse is how many admitted Pods name an assumed reference (admitted
// objects are in an assumed namespace), and where the first of them comes
// from.
type assumedUse struct {
	pods  int
	first load.Position
}

// noteNamespace counts an admitted object in a namespace the input does not
// create while it creates others (NS-05): a typo in a namespace, or one the
// cluster must have already.
func (r *runner) noteNamespace(res *eval.Result, at load.Position) {
	ns := res.Namespace
	if len(r.inputNamespaces) == 0 || ns == "" || r.inputNamespaces[ns] || eval.IsInitialNamespace(ns) || res.Skipped || !res.Allowed {
		return
	}
	r.use(eval.Reference{Kind: "Namespace", Name: ns}, at).pods++
}

// use is the count of what takes ref to exist, first used at at if new.
func (r *runner) use(ref eval.Reference, at load.Position) *assumedUse {
	u := r.assumed[ref]
	if u == nil {
		if r.assumed == nil {
			r.assumed = map[eval.Reference]*assumedUse{}
		}
		u = &assumedUse{first: at}
		r.assumed[ref] = u
		r.assumedOrder = append(r.assumedOrder, ref)
	}
	return u
}

// noteAssumed counts what res, a document's result, and the Pods its
// controllers created take to exist.
func (r *runner) noteAssumed(res *eval.Result, at load.Position) {
	add := func(refs []eval.Reference, pods int) {
		for _, ref := range refs {
			r.use(ref, at).pods += pods
		}
	}
	add(res.Assumed, 1)
	if w := res.Workload; w != nil {
		for i := range w.Created {
			add(w.Created[i].Assumed, 1+w.Created[i].Repeat)
		}
	}
}

// assumedNote notes what the admitted Pods name that the run took to exist
// (PL-11, RQ-34): on a cluster without it, they are refused.
func (r *runner) assumedNote(rep *Report) {
	if len(r.assumedOrder) == 0 {
		return
	}
	const listed = 5
	var parts []string
	var why []string
	for i, ref := range r.assumedOrder {
		u := r.assumed[ref]
		if i < listed {
			name := ref.Name
			if ref.Namespace != "" {
				name = ref.Namespace + "/" + ref.Name
			}
			what := "Pod"
			if ref.Kind == "Namespace" {
				what = "object"
			}
			pods := "1 " + what
			if u.pods != 1 {
				pods = fmt.Sprintf("%d %ss", u.pods, what)
			}
			meant := ""
			if ref.Kind == "Namespace" {
				if near := spell.Nearest(ref.Name, slices.Sorted(maps.Keys(r.inputNamespaces))); near != "" {
					meant = fmt.Sprintf("; did you mean %s?", near)
				}
			}
			parts = append(parts, fmt.Sprintf("%s %s (%s, the first from %s:%d%s)", ref.Kind, name, pods, u.first.File, u.first.Line, meant))
		}
		var msg string
		switch ref.Kind {
		case "ServiceAccount":
			msg = fmt.Sprintf("error looking up service account %s/%s: serviceaccount %q not found", ref.Namespace, ref.Name, ref.Name)
		case "PriorityClass":
			msg = "no PriorityClass with name " + ref.Name + " was found"
		case "RuntimeClass":
			msg = fmt.Sprintf("pod rejected: RuntimeClass %q not found", ref.Name)
		case "Namespace":
			msg = fmt.Sprintf("namespaces %q not found", ref.Name)
		}
		if len(why) == 0 {
			why = append(why, msg)
		}
	}
	if n := len(r.assumedOrder); n > listed {
		parts = append(parts, fmt.Sprintf("%d more", n-listed))
	}
	rep.Notes = append(rep.Notes, load.Note{Msg: fmt.Sprintf("taken to exist, as the input does not create them: %s; a cluster without one refuses what needs it (%s)",
		strings.Join(parts, ", "), why[0])})
}

// schemalessNote notes the custom resources of kinds no CRD of the input
// defines (VAL-76): kube-apiserver would validate them against their CRD's
// schema, which limitcheck does not have, so only what holds for every
// object was checked.
func schemalessNote(rep *Report, counts map[string]int) {
	if len(counts) == 0 {
		return
	}
	n := 0
	kinds := slices.Sorted(maps.Keys(counts))
	for _, k := range kinds {
		n += counts[k]
	}
	what := "custom resources of kinds"
	switch {
	case n == 1:
		what = "custom resource of a kind"
	case len(kinds) == 1:
		what = "custom resources of a kind"
	}
	const listed = 3
	if len(kinds) > listed {
		kinds = append(kinds[:listed], fmt.Sprintf("%d more", len(kinds)-listed))
	}
	rep.Notes = append(rep.Notes, load.Note{Msg: fmt.Sprintf("%d %s no CustomResourceDefinition of the input defines (%s) checked without a schema: metadata, namespace and quota only; give their CRDs with the input to validate them as kube-apiserver would",
		n, what, strings.Join(kinds, ", "))})
}

// defaultNamespaceHint notes objects that named no namespace and so landed in
// the default one, when the input's policies are all for other namespaces: the
// usual sign of `helm template` output checked without -n (HINT-01).
func defaultNamespaceHint(rep *Report, defaulted int, def string, explicit bool) {
	if explicit {
		return
	}
	policyNS := map[string]bool{}
	for i := range rep.Entries {
		res := &rep.Entries[i].Result
		if res.Allowed && res.APIVersion == "v1" && (res.Kind == "LimitRange" || res.Kind == "ResourceQuota") {
			policyNS[res.Namespace] = true
		}
	}
	if defaulted == 0 || len(policyNS) == 0 || policyNS[def] {
		return
	}
	names := slices.Sorted(maps.Keys(policyNS))
	what := "objects name no namespace and were"
	if defaulted == 1 {
		what = "object names no namespace and was"
	}
	rep.Notes = append(rep.Notes, load.Note{Msg: fmt.Sprintf("%d %s checked in %q, which has no LimitRange or ResourceQuota, while the input's are for %s; give -n %s if they are meant for it",
		defaulted, what, def, strings.Join(names, ", "), names[0])})
}

// hpaBounds are the HPAs by target, the first in input order for each.
func hpaBounds(hpas []hpaAt) map[eval.ScaleTarget]hpaAt {
	var out map[eval.ScaleTarget]hpaAt
	for _, h := range hpas {
		if _, dup := out[h.Target]; dup {
			continue
		}
		if out == nil {
			out = map[eval.ScaleTarget]hpaAt{}
		}
		out[h.Target] = h
	}
	return out
}

// boundsWarning is the warning on a workload of replicas outside the bounds
// of the HPA h that targets it (FIT-04): the HPA controller scales it into
// them whatever its metrics (it computes none then); 0 replicas turns the
// HPA off.
func boundsWarning(h hpaAt, replicas int) string {
	switch {
	case replicas == 0:
		return ""
	case replicas < int(h.MinReplicas):
		return fmt.Sprintf("HorizontalPodAutoscaler %q (%s:%d) scales it up to its minReplicas %d, metrics or not: the %d more Pods are not checked here; --scale=min checks them",
			h.HPA, h.Pos.File, h.Pos.Line, h.MinReplicas, int(h.MinReplicas)-replicas)
	case replicas > int(h.MaxReplicas):
		return fmt.Sprintf("HorizontalPodAutoscaler %q (%s:%d) scales it down to its maxReplicas %d, metrics or not: %d of the Pods checked here are removed; --scale=max checks that count",
			h.HPA, h.Pos.File, h.Pos.Line, h.MaxReplicas, replicas-int(h.MaxReplicas))
	}
	return ""
}
