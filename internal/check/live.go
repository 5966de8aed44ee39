package check

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/eval/classes"
	"github.com/limitcheck/limitcheck/internal/load"
)

// Live reads the state of a live cluster the input is checked against
// (--from-cluster, CL-01). Errors are returned as they are: the caller words
// them (kubectl missing, cluster unreachable, a list forbidden).
type Live interface {
	// Policies returns the LimitRanges and ResourceQuotas of the namespaces
	// and the cluster's PriorityClasses, StorageClasses and RuntimeClasses, as
	// documents whose Pos names where they live.
	Policies(namespaces []string) ([]load.Document, error)
	// Namespaces returns those of the namespaces that exist, as documents
	// whose Pos names where they live; forbidden lists those the
	// credentials may not read (not an error).
	Namespaces(names []string) (docs []load.Document, forbidden []string, err error)
	// Names returns the names of the existing objects of resource (kubectl's
	// RESOURCE[.GROUP], e.g. "deployments.apps") in namespace.
	Names(namespace, resource string) ([]string, error)
	// Where names the cluster in notes: cluster:CONTEXT.
	Where() string
}

// liveState is what a run reads from Options.Live once the input is known.
type liveState struct {
	// docs are the live policies the input does not replace.
	docs []load.Document
	// names are the existing names per namespace and input kind.
	names []liveNames
	// seeds are the usages of live quotas the input replaces with the same
	// scopes (eval.Engine.SeedQuotaUsage).
	seeds []*corev1.ResourceQuota
	// note says what was read and what the input replaced.
	note load.Note
}

type liveNames struct {
	namespace, apiVersion, kind, resource string
	names                                 []string
}

// readLive asks live for the state the input's objects meet: the policies of
// every namespace the input writes to (its objects' namespaces, and the
// default one when an object names none or -n was given), the cluster
// classes, and the existing names of each kind the input creates there.
func readLive(live Live, docs []load.Document, catalog *apis.Catalog, def string, explicit bool) (*liveState, error) {
	type kindKey struct{ apiVersion, kind, resource string }
	kinds := map[string]map[kindKey]bool{}
	if explicit {
		kinds[def] = map[kindKey]bool{}
	}
	for _, d := range docs {
		if d.Err != nil || d.Skip != "" || d.Kind == "" {
			continue
		}
		k, status := catalog.Lookup(d.APIVersion, d.Kind)
		if status != apis.Served || !k.Namespaced || k.CreateOnly || k.Subresource || k.Resource == "" {
			continue
		}
		ns := d.Namespace
		if ns == "" {
			ns = def
		}
		if kinds[ns] == nil {
			kinds[ns] = map[kindKey]bool{}
		}
		// LimitRanges and quotas come with the namespace's policies.
		if !isPolicy(&d) {
			kinds[ns][kindKey{d.APIVersion, d.Kind, k.GroupResource()}] = true
		}
	}
	namespaces := slices.Sorted(maps.Keys(kinds))
	policies, err := live.Policies(namespaces)
	if err != nil {
		return nil, err
	}
	// The namespaces' labels choose their Pod Security levels (PS-01).
	nsDocs, unreadable, err := live.Namespaces(namespaces)
	if err != nil {
		return nil, err
	}
	policies = append(policies, nsDocs...)
	st := &liveState{}
	var read, replacedBy []string
	// The input's policies replace the live ones of the same name.
	replaced := map[string]*load.Document{}
	for i := range docs {
		if d := &docs[i]; d.Err == nil && d.Skip == "" && isPolicy(d) {
			replaced[policyKey(d, def)] = d
		}
	}
	for _, d := range policies {
		in := replaced[policyKey(&d, def)]
		what := d.Kind + " " + d.Name
		if d.Namespace != "" {
			what = d.Kind + " " + d.Namespace + "/" + d.Name
		}
		if in == nil {
			st.docs = append(st.docs, d)
			// The PriorityClasses kube-apiserver creates in every
			// cluster go without saying, and so do namespaces whose labels
			// set no Pod Security level.
			if !classes.IsSystemPriorityClass(d.APIVersion, d.Kind, d.Name) && (d.Kind != "Namespace" || podSecurityLabelled(d.Object)) {
				read = append(read, what)
			}
			continue
		}
		replacedBy = append(replacedBy, what)
		lq, ok1 := d.Object.(*corev1.ResourceQuota)
		iq, ok2 := in.Object.(*corev1.ResourceQuota)
		if ok1 && ok2 && equality.Semantic.DeepEqual(lq.Spec.Scopes, iq.Spec.Scopes) && equality.Semantic.DeepEqual(lq.Spec.ScopeSelector, iq.Spec.ScopeSelector) {
			st.seeds = append(st.seeds, lq)
		}
	}
	for _, ns := range namespaces {
		keys := slices.SortedFunc(maps.Keys(kinds[ns]), func(a, b kindKey) int {
			return cmp.Or(cmp.Compare(a.resource, b.resource), cmp.Compare(a.apiVersion, b.apiVersion), cmp.Compare(a.kind, b.kind))
		})
		asked := map[string][]string{}
		for _, k := range keys {
			names, done := asked[k.resource]
			if !done {
				if names, err = live.Names(ns, k.resource); err != nil {
					return nil, err
				}
				asked[k.resource] = names
			}
			if len(names) > 0 {
				st.names = append(st.names, liveNames{namespace: ns, apiVersion: k.apiVersion, kind: k.kind, resource: k.resource, names: names})
			}
		}
	}
	var parts []string
	if len(read) > 0 {
		parts = append(parts, "live "+strings.Join(read, ", "))
	}
	if len(replacedBy) > 0 {
		parts = append(parts, strings.Join(replacedBy, ", ")+" replaced by the input's")
	}
	if len(parts) == 0 {
		parts = append(parts, "no LimitRange, ResourceQuota or class in namespace "+strings.Join(namespaces, ", ")+" or the cluster")
	}
	if len(unreadable) > 0 {
		what := "namespace"
		if len(unreadable) > 1 {
			what = "namespaces"
		}
		parts = append(parts, fmt.Sprintf("%s %s not readable (forbidden): only the input's Namespaces set Pod Security levels",
			what, strings.Join(unreadable, ", ")))
	}
	for _, ns := range namespaces {
		var taken []string
		seen := map[string]bool{}
		for _, n := range st.names {
			if n.namespace == ns && !seen[n.resource] {
				seen[n.resource] = true
				taken = append(taken, fmt.Sprintf("%s %d", n.resource, len(n.names)))
			}
		}
		if len(taken) > 0 {
			parts = append(parts, "existing names in "+ns+": "+strings.Join(taken, ", "))
		}
	}
	msg := "checked against the cluster: " + strings.Join(parts, "; ")
	st.note = load.Note{File: live.Where(), Msg: msg}
	return st, nil
}

// policyKey identifies a policy document: kind, namespace (LimitRanges and
// quotas) and name.
func policyKey(d *load.Document, def string) string {
	if classes.IsClusterClass(d.APIVersion, d.Kind) || d.Kind == "Namespace" {
		return d.Kind + "//" + d.Name
	}
	ns := d.Namespace
	if ns == "" {
		ns = def
	}
	return d.Kind + "/" + ns + "/" + d.Name
}

// prime admits the live state on engine before the input: the policies as
// the cluster has them (copies, so that several engines can be primed), the
// existing names, the usage of replaced quotas. It returns an entry per
// policy.
func (st *liveState) prime(engine *eval.Engine) []Entry {
	if st == nil {
		return nil
	}
	for _, q := range st.seeds {
		engine.SeedQuotaUsage(q.Namespace, q.Name, q.Status.Used)
	}
	entries := make([]Entry, 0, len(st.docs))
	for _, d := range st.docs {
		res := engine.AdmitLive(d.Object.DeepCopyObject())
		entries = append(entries, Entry{Pos: d.Pos, Result: res, Live: true})
	}
	for _, n := range st.names {
		engine.AddExistingNames(n.namespace, n.apiVersion, n.kind, n.names)
	}
	return entries
}

// seeded returns the namespace/name of the input's quotas that start from a
// live quota's usage.
func (st *liveState) seeded() map[string]bool {
	if st == nil {
		return nil
	}
	m := map[string]bool{}
	for _, q := range st.seeds {
		m[q.Namespace+"/"+q.Name] = true
	}
	return m
}

// unknownUsage warns on every quota of the input admitted under computed
// usage whose hard resources the live state gave no usage for: a new quota,
// or one replacing a live quota of other scopes or fewer resources. Its
// usage counts the input's objects only; the quota controller would count
// the cluster's too, which limitcheck does not read.
func (st *liveState) unknownUsage(entries []Entry) {
	if st == nil {
		return
	}
	seeded := map[string]corev1.ResourceList{}
	for _, q := range st.seeds {
		seeded[q.Namespace+"/"+q.Name] = q.Status.Used
	}
	for i := range entries {
		res := &entries[i].Result
		q, ok := res.Object.(*corev1.ResourceQuota)
		if !ok || !res.Allowed || entries[i].Live {
			continue
		}
		used := seeded[q.Namespace+"/"+q.Name]
		var unknown []string
		for _, name := range slices.Sorted(maps.Keys(q.Status.Hard)) {
			if _, known := used[name]; !known {
				unknown = append(unknown, string(name))
			}
		}
		if len(unknown) > 0 {
			res.Warnings = append(res.Warnings, "usage of "+strings.Join(unknown, ", ")+" counts the input's objects only: the cluster's existing objects, which the quota controller would count, are not read")
		}
	}
}

// podSecurityLabelled reports whether a Namespace has a pod-security label.
func podSecurityLabelled(obj runtime.Object) bool {
	ns, ok := obj.(*corev1.Namespace)
	if !ok {
		return false
	}
	for k := range ns.Labels {
		if strings.HasPrefix(k, "pod-security.kubernetes.io/") {
			return true
		}
	}
	return false
}
