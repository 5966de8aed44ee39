// Package check runs the loader and the engine over a set of inputs and collects
// one Entry per input document, in input order.
package check

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/limitcheck/limitcheck/internal/admissionconfig"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/eval/classes"
	"github.com/limitcheck/limitcheck/internal/eval/quota"
	"github.com/limitcheck/limitcheck/internal/load"
)

// Options of one run.
type Options struct {
	Paths     []string
	Recursive bool
	Stdin     io.Reader
	Engine    eval.Options
	// EnforceNamespace is kubectl's behaviour when -n is given explicitly: a
	// namespaced object that names another namespace is an error.
	EnforceNamespace bool
	// Order is the order objects are admitted in (default OrderPoliciesFirst).
	Order Order
	// SkipUnknown skips, with the reason, documents whose apiVersion/kind
	// kube-apiserver does not serve, instead of reporting them as errors.
	SkipUnknown bool
	// Strict makes a YAML key given twice an error instead of a warning (IN-04).
	Strict bool
	// Ignore are --ignore-path patterns: paths not read (load.Options.Ignore).
	Ignore []string
	// SkipNonObjects skips the documents of named files that are not
	// Kubernetes objects (load.Options.SkipNonObjects); an input holding no
	// object at all is then an empty report rather than an error (IN-06).
	SkipNonObjects bool
	// Fit says, for every workload, how far it scales where it stands
	// (Entry.Fit, FIT-01); the verdicts are those of a run without it.
	Fit bool
	// SuggestQuota runs the input a second time with quotas unenforced and
	// suggests the smallest hard values that admit it (Report.Suggested,
	// Report.StillRefused; FIT-02).
	SuggestQuota bool
	// Rollout rolls every admitted Deployment out once after the whole input,
	// each on its own copy of the final state (Entry.Rollout, FIT-03).
	Rollout bool
	// Scale is --scale: ScaleSpec (or "") evaluates workloads at their
	// replicas, ScaleMax and ScaleMin every workload an HPA of the input
	// targets at its maxReplicas or minReplicas (FIT-04).
	Scale Scale
	// Lint runs the lint rules over the admitted policies (Report.Lint).
	Lint bool
	// ConfigFile is the --admission-control-config-file the engine's
	// QuotaConfig came from, where lint findings about it are placed.
	ConfigFile string
	// Live, when set, is a live cluster the input is checked against
	// (--from-cluster, CL-01): its policies are admitted before the input's
	// (a policy of the input replaces the live one of the same name), its
	// quotas with the usage they report, and its existing names are taken.
	Live Live
}

// Order is the order in which the documents are admitted.
type Order string

const (
	// OrderPoliciesFirst admits what a namespace holds before an application
	// arrives (LimitRanges, ResourceQuotas and the cluster classes the admission
	// plugins read) before every other object, each group in input order.
	OrderPoliciesFirst Order = "policies-first"
	// OrderInput admits the documents in input order, as `kubectl create -f`
	// replays them: a policy governs only the objects after it.
	OrderInput Order = "input"
)

// Scale is what replicas the targets of the input's HPAs are evaluated at.
type Scale string

const (
	ScaleSpec Scale = "spec"
	ScaleMax  Scale = "max"
	ScaleMin  Scale = "min"
)

// Scales are the values of Options.Scale.
var Scales = []Scale{ScaleSpec, ScaleMax, ScaleMin}

// Orders are the values of Options.Order.
var Orders = []Order{OrderPoliciesFirst, OrderInput}

// isPolicy reports whether a document is namespace or cluster state that
// OrderPoliciesFirst admits first.
func isPolicy(d *load.Document) bool {
	if d.Err != nil {
		return false
	}
	if d.APIVersion == "v1" && (d.Kind == "LimitRange" || d.Kind == "ResourceQuota") {
		return true
	}
	return classes.IsClusterClass(d.APIVersion, d.Kind) || admissionconfig.IsConfigKind(d.APIVersion, d.Kind)
}

// Entry is one input document and what became of it: Err is set when the document
// could not be read; otherwise Result says whether it was admitted, denied or
// skipped, or (Result.Internal) that limitcheck failed on it.
type Entry struct {
	Pos    load.Position
	Err    *load.Error
	Result eval.Result
	// Fit is set, with Options.Fit, for a workload whose controllers were
	// simulated.
	Fit *eval.Fit
	// Rollout is set, with Options.Rollout, for a Deployment whose
	// ReplicaSet was admitted.
	Rollout *eval.Rollout
	// Live is set for a policy read from a live cluster (Options.Live);
	// Pos.File then names where it lives, Pos.Line is 0.
	Live bool
}

// Report is the outcome of a run.
type Report struct {
	Entries []Entry
	// Quotas is the final state of every admitted quota.
	Quotas []quota.State
	// LimitRanges are the admitted LimitRanges as stored.
	LimitRanges []*corev1.LimitRange
	// Notes are about the run rather than one document: paths skipped or read
	// once, and hints where a default probably bites (HINT-01).
	Notes []load.Note
	// Lint are the lint findings (Options.Lint), refused policies first.
	Lint []LintFinding
	// Suggested are, with Options.SuggestQuota, the quotas that refused
	// something (or would, once the others admit more) with the smallest hard
	// values that admit the input; StillRefused the entries refused even with
	// quotas unenforced (LimitRanges, validation, quota constraints), as that
	// run saw them.
	Suggested    []QuotaSuggestion
	StillRefused []Entry
}

// QuotaSuggestion is a suggested quota and where the input's is.
type QuotaSuggestion struct {
	eval.QuotaSuggestion
	Pos load.Position
}

// Summary counts.
type Summary struct {
	Objects, Admitted, Denied, Skipped, Errors int
	// Internal counts the objects limitcheck failed on (a bug: exit 3).
	Internal int
	// Workloads counts objects whose controllers were simulated; Replicas the
	// Pods they want, Unfit those not admitted (refused or never created).
	Workloads, Replicas, Unfit int
	// Warned counts the entries with a warning (theirs or an object their
	// controllers created).
	Warned int
}

// Summary counts the entries by outcome.
func (r *Report) Summary() Summary {
	var s Summary
	for i := range r.Entries {
		e := &r.Entries[i]
		if e.Live && e.Err == nil && e.Result.Internal == "" && (e.Result.Allowed || e.Result.Skipped) {
			// The cluster's own policies are not the input's objects; their
			// warnings still count.
			if len(e.Result.Warnings) > 0 {
				s.Warned++
			}
			continue
		}
		s.Objects++
		warned := len(e.Result.Warnings) > 0
		if w := e.Result.Workload; w != nil {
			for i := range w.Created {
				warned = warned || len(w.Created[i].Warnings) > 0
			}
		}
		if warned {
			s.Warned++
		}

		if w := e.Result.Workload; w != nil {
			s.Workloads++
			s.Replicas += w.Replicas
			s.Unfit += w.Replicas - w.Admitted
		}
		switch {
		case e.Err != nil:
			s.Errors++
		case e.Result.Internal != "":
			s.Internal++
		case e.Result.Skipped:
			s.Skipped++
		case e.Result.Allowed:
			s.Admitted++
		default:
			s.Denied++
		}
	}
	return s
}

// Run loads every path and evaluates each document in input order. The error is
// non-nil only when the input could not be read at all (a missing path); document
// errors are entries of the report.
func Run(opts Options) (*Report, error) {
	// Read everything first: an admission configuration among the inputs applies
	// to the whole run, objects before it included.
	var docs []load.Document
	rep := &Report{}
	objects := 0
	loadOpts := load.Options{Recursive: opts.Recursive, NewObject: eval.NewObject, Strict: opts.Strict, Ignore: opts.Ignore, SkipNonObjects: opts.SkipNonObjects,
		Note: func(n load.Note) { rep.Notes = append(rep.Notes, n) }}
	err := load.Walk(opts.Paths, opts.Stdin, loadOpts, func(d load.Document) bool {
		if d.Err == nil && !admissionconfig.IsConfigKind(d.APIVersion, d.Kind) && !(d.APIVersion == "apiextensions.k8s.io/v1" && d.Kind == "CustomResourceDefinition") {
			d.JSON = nil // only configurations and CRDs are read from JSON; the rest is decoded
		}
		docs = append(docs, d)
		if d.Skip == "" {
			objects++
		}
		return true
	})
	if err != nil {
		return rep, err
	}
	if objects == 0 && !opts.SkipNonObjects {
		msg := "no objects passed to check: the input holds no Kubernetes objects"
		for _, n := range rep.Notes {
			msg += "\n" + n.String()
		}
		return rep, &load.Error{Msg: msg}
	}
	engineOpts := opts.Engine
	configAt := ""
	cfgPos := load.Position{File: opts.ConfigFile}
	for _, d := range docs {
		if d.Err != nil || !admissionconfig.IsConfigKind(d.APIVersion, d.Kind) {
			continue
		}
		where := fmt.Sprintf("%s:%d", d.Pos.File, d.Pos.Line)
		if engineOpts.QuotaConfig != nil {
			other := configAt
			if other == "" {
				other = "--admission-control-config-file"
			}
			return &Report{}, &load.Error{File: d.Pos.File, Line: d.Pos.Line, Msg: "a second ResourceQuota admission configuration (the first is " + other + "): give only one"}
		}
		cfg, _, err := admissionconfig.FromFileDocument(d.Pos.File, d.APIVersion, d.Kind, d.JSON)
		if err != nil {
			return &Report{}, &load.Error{File: d.Pos.File, Line: d.Pos.Line, Msg: err.Error()}
		}
		engineOpts.QuotaConfig, configAt = cfg, where
		cfgPos = d.Pos
	}

	// The input's CustomResourceDefinitions tell the scope and plural of their
	// custom resources for the whole run, as classes do (API-01).
	catalog := apis.New()
	crdErrs := map[int]*load.Error{}
	for i, d := range docs {
		if d.Err == nil && d.APIVersion == "apiextensions.k8s.io/v1" && d.Kind == "CustomResourceDefinition" {
			if err := catalog.AddCRD(d.JSON); err != nil {
				crdErrs[i] = &load.Error{File: d.Pos.File, Line: d.Pos.Line, Msg: err.Error()}
			}
		}
	}
	for i, e := range crdErrs {
		docs[i].Err = e
	}
	engineOpts.APIs = catalog
	if opts.Order != OrderInput {
		docs = policiesFirst(docs)
	}
	var live *liveState
	if opts.Live != nil {
		defaulted := false
		for _, d := range docs {
			defaulted = defaulted || (d.Err == nil && d.Skip == "" && d.Namespace == "" && d.Kind != "" && !eval.ClusterScoped(d.APIVersion, d.Kind))
		}
		if live, err = readLive(opts.Live, docs, catalog, engineOpts.DefaultNamespace, opts.EnforceNamespace || defaulted); err != nil {
			return &Report{}, err
		}
		rep.Notes = append(rep.Notes, live.note)
	}
	var copies []load.Document
	if opts.SuggestQuota {
		// The second run admits the objects as written: Admit takes ownership.
		copies = slices.Clone(docs)
		for i := range copies {
			if copies[i].Object != nil {
				copies[i].Object = copies[i].Object.DeepCopyObject()
			}
		}
	}
	// HPAs apply to the whole run, wherever they are in the input (FIT-04).
	hpas := scalings(docs, engineOpts)
	if opts.Scale == ScaleMax || opts.Scale == ScaleMin {
		engineOpts.Scale = map[eval.ScaleTarget]int32{}
		for _, i := range slices.Sorted(maps.Keys(hpas)) {
			s := hpas[i]
			if _, dup := engineOpts.Scale[s.Target]; dup {
				continue
			}
			engineOpts.Scale[s.Target] = s.MaxReplicas
			if opts.Scale == ScaleMin {
				engineOpts.Scale[s.Target] = s.MinReplicas
			}
		}
	}
	engine := eval.New(engineOpts)
	rep.Entries = live.prime(engine)
	nLive := len(rep.Entries)
	rep.Entries = append(rep.Entries, admitAll(engine, catalog, docs, opts)...)
	applyHPAs(rep.Entries[nLive:], hpas, opts)
	if opts.Rollout {
		for i := range rep.Entries {
			if e := &rep.Entries[i]; e.Err == nil && e.Result.Internal == "" {
				e.Rollout = engine.Rollout(&e.Result)
			}
		}
	}
	if opts.SuggestQuota {
		unenforcedOpts := engineOpts
		unenforcedOpts.UnenforcedQuota = true
		unenforced := eval.New(unenforcedOpts)
		live.prime(unenforced)
		entries := admitAll(unenforced, catalog, copies, Options{EnforceNamespace: opts.EnforceNamespace, SkipUnknown: opts.SkipUnknown, Engine: opts.Engine})
		results := make([]eval.Result, len(rep.Entries))
		where := map[string]load.Position{}
		for i, e := range rep.Entries {
			results[i] = e.Result
			if e.Result.Kind == "ResourceQuota" && e.Result.APIVersion == "v1" {
				where[e.Result.Namespace+"/"+e.Result.Name] = e.Pos
			}
		}
		for _, s := range eval.SuggestQuotas(eval.RefusingQuotas(results), unenforced) {
			rep.Suggested = append(rep.Suggested, QuotaSuggestion{QuotaSuggestion: s, Pos: where[s.Quota.Namespace+"/"+s.Quota.Name]})
		}
		for _, e := range entries {
			if e.Err == nil && e.Result.Internal == "" && !e.Result.Skipped && !e.Result.Allowed {
				rep.StillRefused = append(rep.StillRefused, e)
			}
		}
	}
	rep.Quotas = engine.Quotas()
	rep.LimitRanges = engine.LimitRanges()
	overQuota(rep, engineOpts.QuotaUsage, live.seeded())
	if engineOpts.QuotaUsage != quota.UsageObserved {
		live.unknownUsage(rep.Entries)
	}
	defaultNamespaceHint(rep, rep.Entries[nLive:], docs, engine.DefaultNamespace(), opts.EnforceNamespace)
	if opts.Lint {
		lintPolicies(rep, docs, engineOpts.QuotaConfig, cfgPos)
	}
	return rep, nil
}

// admitAll admits the documents in order on engine, with the cluster classes
// of the input added first, and returns an entry per document.
func admitAll(engine *eval.Engine, catalog *apis.Catalog, docs []load.Document, opts Options) []Entry {
	// PriorityClasses, StorageClasses and RuntimeClasses are cluster state the
	// admission plugins read: they apply to the whole run, wherever they appear.
	for _, d := range docs {
		if d.Err == nil && classes.IsClusterClass(d.APIVersion, d.Kind) {
			engine.AddClusterObject(d.Object)
		}
	}
	entries := make([]Entry, 0, len(docs))
	for _, d := range docs {
		entry := Entry{Pos: d.Pos, Err: d.Err}
		if entry.Err == nil && opts.EnforceNamespace {
			entry.Err = namespaceMismatch(d, opts.Engine.DefaultNamespace)
		}
		switch {
		case d.Skip != "":
			entry.Result = eval.Result{Skipped: true, SkipReason: d.Skip}
		case entry.Err != nil:
			// Keep the identity of what could not be evaluated, in the namespace
			// it was meant for.
			entry.Result = eval.Result{APIVersion: d.APIVersion, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name}
			if d.Namespace == "" && d.Kind != "" && !eval.ClusterScoped(d.APIVersion, d.Kind) {
				entry.Result.Namespace = engine.DefaultNamespace()
			}
		case admissionconfig.IsConfigKind(d.APIVersion, d.Kind):
			entry.Result = eval.Result{APIVersion: d.APIVersion, Kind: d.Kind, Name: d.Name, Skipped: true,
				SkipReason: "admission configuration: applies to the whole run"}
		default:
			entry.Result, entry.Fit, entry.Err = admitServed(engine, catalog, d, opts.SkipUnknown, opts.Fit)
		}
		for _, w := range d.Warnings {
			entry.Result.Warnings = append(entry.Result.Warnings, w.Msg)
		}
		entries = append(entries, entry)
	}
	return entries
}

// scalings reads the valid HPAs among docs, by document index.
func scalings(docs []load.Document, engineOpts eval.Options) map[int]eval.Scaling {
	out := map[int]eval.Scaling{}
	for i, d := range docs {
		if d.Err != nil || d.Skip != "" || d.Object == nil {
			continue
		}
		if s, ok := eval.HPAScaling(d.Object, engineOpts.DefaultNamespace, engineOpts.Gates); ok {
			out[i] = s
		}
	}
	return out
}

// scalable are the kinds an HPA's scaleTargetRef can name in the input.
var scalable = map[eval.ScaleTarget]bool{
	{Group: "apps", Kind: "Deployment"}: true, {Group: "apps", Kind: "ReplicaSet"}: true,
	{Group: "apps", Kind: "StatefulSet"}: true, {Kind: "ReplicationController"}: true,
}

// applyHPAs, with --scale=max|min or fit, warns on every HPA whose target is
// not in the input or that another HPA already targets, and gives the fit
// of every targeted workload its HPA (FIT-04).
func applyHPAs(entries []Entry, hpas map[int]eval.Scaling, opts Options) {
	if len(hpas) == 0 || !(opts.Fit || opts.Scale == ScaleMax || opts.Scale == ScaleMin) {
		return
	}
	workloads := map[eval.ScaleTarget]int{}
	for i := range entries {
		e := &entries[i]
		if e.Err != nil || e.Result.Skipped || e.Result.Internal != "" {
			continue
		}
		t := eval.ScaleTargetOf(&e.Result)
		if !scalable[eval.ScaleTarget{Group: t.Group, Kind: t.Kind}] {
			continue
		}
		if _, dup := workloads[t]; !dup {
			workloads[t] = i
		}
	}
	by := map[eval.ScaleTarget]string{}
	for _, i := range slices.Sorted(maps.Keys(hpas)) {
		s, res := hpas[i], &entries[i].Result
		t := s.Target
		w, found := workloads[t]
		switch {
		case !found:
			res.Warnings = append(res.Warnings, fmt.Sprintf("its scaleTargetRef %s %q is not a Deployment, ReplicaSet, StatefulSet or ReplicationController of the input in namespace %q: --scale and fit do not apply to it", t.Kind, t.Name, t.Namespace))
			continue
		case by[t] != "":
			res.Warnings = append(res.Warnings, fmt.Sprintf("HorizontalPodAutoscaler %q already targets %s %q: limitcheck scales it by the first one only", by[t], t.Kind, t.Name))
			continue
		}
		by[t] = s.HPA
		if f := entries[w].Fit; f != nil {
			f.HPA = &eval.FitHPA{Name: s.HPA, MinReplicas: s.MinReplicas, MaxReplicas: s.MaxReplicas,
				MaxFits: int(s.MaxReplicas) <= f.Fit && (f.Binding == nil || f.Binding.Replica > 0)}
		}
	}
}

// defaultNamespaceHint notes objects that named no namespace and so landed in
// the default one, when the input's policies are all for other namespaces: the
// usual sign of `helm template` output checked without -n (HINT-01).
func defaultNamespaceHint(rep *Report, entries []Entry, docs []load.Document, def string, explicit bool) {
	if explicit {
		return
	}
	// Entries are in docs' order. Count what was evaluated in the default
	// namespace without naming it (skipped and unreadable documents aside).
	defaulted := 0
	for i, d := range docs {
		res := &entries[i].Result
		if entries[i].Err == nil && !res.Skipped && d.Namespace == "" && res.Namespace == def {
			defaulted++
		}
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

// admitServed admits a document whose apiVersion/kind kube-apiserver serves;
// one it does not serve is kubectl's error (or skipped with SkipUnknown), and a
// tool's configuration file is skipped (API-01).
func admitServed(engine *eval.Engine, catalog *apis.Catalog, d load.Document, skipUnknown, fit bool) (eval.Result, *eval.Fit, *load.Error) {
	id := eval.Result{APIVersion: d.APIVersion, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name}
	switch _, status := catalog.Lookup(d.APIVersion, d.Kind); status {
	case apis.NotServed:
		msg := catalog.NotServedMessage(d.APIVersion, d.Kind)
		if hint := catalog.Suggest(d.APIVersion, d.Kind); hint != "" {
			msg += "; " + hint
		}
		if skipUnknown {
			id.Skipped, id.SkipReason = true, "not served by kube-apiserver 1.36 (--skip-unknown)"
			return id, nil, nil
		}
		return id, nil, &load.Error{File: d.Pos.File, Line: d.Pos.Line, Msg: msg}
	case apis.ToolConfig:
		id.Skipped, id.SkipReason = true, "a tool's configuration file, not an API object"
		return id, nil, nil
	}
	if fit {
		res, f := engine.AdmitFit(d.Object)
		return res, f, nil
	}
	return engine.Admit(d.Object), nil, nil
}

// policiesFirst returns the documents in the order OrderPoliciesFirst admits
// them: the policies, then everything else, each in input order.
func policiesFirst(docs []load.Document) []load.Document {
	out := make([]load.Document, 0, len(docs))
	for i := range docs {
		if isPolicy(&docs[i]) {
			out = append(out, docs[i])
		}
	}
	for i := range docs {
		if !isPolicy(&docs[i]) {
			out = append(out, docs[i])
		}
	}
	return out
}

// overQuota warns on every quota whose final usage is above its hard limit
// (QS-01): a quota cannot get there by admission, only by counting objects
// that were never checked against it (created before it in input order) or
// by starting from an observed usage that was already over.
func overQuota(rep *Report, usage quota.Usage, seeded map[string]bool) {
	for i := range rep.Entries {
		res := &rep.Entries[i].Result
		q, ok := res.Object.(*corev1.ResourceQuota)
		if !ok || !res.Allowed {
			continue
		}
		var over []string
		for _, name := range slices.Sorted(maps.Keys(q.Status.Hard)) {
			hard, used := q.Status.Hard[name], q.Status.Used[name]
			if _, tracked := q.Status.Used[name]; tracked && used.Cmp(hard) > 0 {
				over = append(over, fmt.Sprintf("%s (used %s, hard %s)", name, used.String(), hard.String()))
			}
		}
		if len(over) == 0 {
			continue
		}
		msg := "usage is above the hard limit for " + strings.Join(over, ", ") + ": the objects counted were admitted before the quota existed"
		if seeded[q.Namespace+"/"+q.Name] && !rep.Entries[i].Live {
			msg = "usage is above the hard limit for " + strings.Join(over, ", ") + ": the cluster's usage, from the live quota this one replaces, is already more than it allows"
		} else if usage == quota.UsageObserved || rep.Entries[i].Live {
			msg = "over quota before this change: status.used is above the hard limit for " + strings.Join(over, ", ")
		}
		res.Warnings = append(res.Warnings, msg)
	}
}

// namespaceMismatch reproduces kubectl's refusal of an object whose namespace
// differs from an explicit --namespace.
func namespaceMismatch(d load.Document, ns string) *load.Error {
	if d.Namespace == "" || d.Namespace == ns || eval.ClusterScoped(d.APIVersion, d.Kind) {
		return nil
	}
	return &load.Error{File: d.Pos.File, Line: d.Pos.Line, Field: "metadata.namespace",
		Msg: fmt.Sprintf("the namespace from the provided object %q does not match the namespace %q. You must pass '--namespace=%s' to perform this operation.", d.Namespace, ns, d.Namespace)}
}
