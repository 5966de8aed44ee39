// Package check runs the loader and the engine over a set of inputs and collects
// one Entry per input document, in input order.
package check

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/limitcheck/limitcheck/internal/admissionconfig"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/eval/classes"
	"github.com/limitcheck/limitcheck/internal/eval/quota"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/kubetext"
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
	// Stream, when set, receives the entries as the run decides them, in
	// report order, so that a caller can write each out at once and the run
	// keep none: an entry is kept in Report.Entries only when Stream returns
	// true (Report.Summary counts it either way). Entries a later step of
	// the run still changes are never streamed and are all in
	// Report.Entries: the policies (their warnings need the final usage,
	// QS-01, and the lint), and every entry of a run with Fit, Rollout,
	// SuggestQuota or Scale max or min. Entry.Seq orders the two. The
	// *Entry is valid only during the call: Stream copies what it keeps.
	Stream func(*Entry) (keep bool)
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
	return d.Err == nil && d.Skip == "" && isPolicyKind(d.APIVersion, d.Kind)
}

// isPolicyKind reports whether documents of a kind are policies (isPolicy).
func isPolicyKind(apiVersion, kind string) bool {
	if apiVersion == "v1" && (kind == "LimitRange" || kind == "ResourceQuota" || kind == "Namespace") {
		return true
	}
	return classes.IsClusterClass(apiVersion, kind) || admissionconfig.IsConfigKind(apiVersion, kind)
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
	// Seq is the entry's place in the report, from 0: it orders the entries
	// of Report.Entries among those handed to Options.Stream.
	Seq int
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

	// next is the Seq of the next entry; streamed counts the entries handed
	// to Options.Stream and not kept.
	next     int
	streamed Summary
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

// Summary counts the entries by outcome, those handed to Options.Stream
// and not kept included.
func (r *Report) Summary() Summary {
	s := r.streamed
	for i := range r.Entries {
		s.count(&r.Entries[i])
	}
	return s
}

// count adds one entry to the summary.
func (s *Summary) count(e *Entry) {
	if e.Live && e.Err == nil && e.Result.Internal == "" && (e.Result.Allowed || e.Result.Skipped) {
		// The cluster's own policies are not the input's objects; their
		// warnings still count.
		if len(e.Result.Warnings) > 0 {
			s.Warned++
		}
		return
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

// Run loads every path and evaluates each document in input order. The error is
// non-nil only when the input could not be read at all (a missing path); document
// errors are entries of the report.
//
// The input is read twice. The first look decodes only what applies to the
// whole run wherever it is in the input (policies and classes, admission
// configuration, CustomResourceDefinitions, HPAs); the second admits every
// document as it comes and hands each entry to Options.Stream, so that with a
// Stream a run holds no more than the policies and what the Stream keeps
// (IN-07).
func Run(opts Options) (*Report, error) {
	rep := &Report{}
	copies := load.NewCopies()
	defer copies.Remove()
	// Lists are mapped as kubectl maps them; in the first look, by the
	// built-in kinds (the input's CRDs are not read yet).
	var builtins *apis.Catalog
	loadOpts := load.Options{Recursive: opts.Recursive, NewObject: eval.NewObject, CheckFields: apis.Typed, ListNotMapped: builtins.ListNotMapped, Strict: opts.Strict, Ignore: opts.Ignore, SkipNonObjects: opts.SkipNonObjects,
		Copies: copies, Note: func(n load.Note) { rep.Notes = append(rep.Notes, n) }}
	look, err := firstLook(opts, loadOpts)
	if err != nil {
		return rep, err
	}
	if look.objects == 0 && look.unread == 0 && !opts.SkipNonObjects {
		return rep, noObjects(rep.Notes, look)
	}
	engineOpts := opts.Engine
	configAt := ""
	cfgPos := load.Position{File: opts.ConfigFile}
	for _, d := range look.configs {
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
	// custom resources for the whole run, as classes do (API-01). One that
	// kube-apiserver refuses is not created (VAL-93): its kind stays unknown,
	// and its own document is denied when it is admitted.
	catalog := apis.New()
	for _, r := range look.refusedCRDs {
		catalog.AddRefusedCRD(r.name, r.group, r.kind)
	}
	for _, d := range look.crds {
		if err := catalog.AddCRD(d.JSON); err != nil {
			look.errs[d.Pos] = &load.Error{File: d.Pos.File, Line: d.Pos.Line, Msg: err.Error()}
		}
	}
	engineOpts.APIs = catalog
	loadOpts.ListNotMapped = catalog.ListNotMapped
	// Custom resources of those CRDs are decoded whole, to be checked
	// against their schema (VAL-76..VAL-78).
	loadOpts.NewObject = func(apiVersion, kind string) runtime.Object {
		if o := eval.NewObject(apiVersion, kind); o != nil {
			return o
		}
		if u := eval.NewCustomObject(catalog, apiVersion, kind); u != nil {
			return u
		}
		return nil
	}
	var live *liveState
	if opts.Live != nil {
		if live, err = readLive(opts.Live, look.headers, catalog, engineOpts.DefaultNamespace, opts.EnforceNamespace || look.defaulted); err != nil {
			return &Report{}, err
		}
		rep.Notes = append(rep.Notes, live.note)
	}
	// In input order, a namespace the input creates does not exist before
	// its Namespace (NS-04); policies first, Namespaces come first anyway.
	// Against a live cluster it may exist already: taken to.
	createdAt := map[string]load.Position{}
	if opts.Order == OrderInput && opts.Live == nil {
		for _, d := range look.policies {
			if d.APIVersion == "v1" && d.Kind == "Namespace" && d.Name != "" {
				if _, seen := createdAt[d.Name]; !seen {
					createdAt[d.Name] = d.Pos
					engineOpts.CreatedNamespaces = append(engineOpts.CreatedNamespaces, d.Name)
				}
			}
		}
	}
	// The input's ServiceAccounts exist for its Pods; in input order, only
	// from their document on (PL-11). Against a live cluster they may exist
	// already: taken to.
	if opts.Live == nil && len(look.accounts) > 0 {
		engineOpts.CreatedAccounts = slices.SortedFunc(maps.Keys(look.accounts), func(a, b eval.Reference) int {
			return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
		})
		engineOpts.AccountsInOrder = opts.Order == OrderInput
		engineOpts.AccountPullSecrets = look.pullSecrets
	}
	// HPAs apply to the whole run, wherever they are in the input (FIT-04).
	hpas := scalings(look.hpas, engineOpts)
	if opts.Scale == ScaleMax || opts.Scale == ScaleMin {
		engineOpts.Scale = map[eval.ScaleTarget]int32{}
		for _, h := range hpas {
			if _, dup := engineOpts.Scale[h.Target]; dup {
				continue
			}
			engineOpts.Scale[h.Target] = h.MaxReplicas
			if opts.Scale == ScaleMin {
				engineOpts.Scale[h.Target] = h.MinReplicas
			}
		}
	}
	// Only the workloads an HPA targets keep a Pod for FIT-06.
	engineOpts.Autoscaled = map[eval.ScaleTarget]bool{}
	for _, h := range hpas {
		engineOpts.Autoscaled[h.Target] = true
	}
	engine := eval.New(engineOpts)
	r := &runner{rep: rep, createdAt: createdAt}
	if opts.Live == nil {
		// Where the input creates namespaces, one it does not create is
		// taken to exist, and said (NS-05).
		for _, d := range look.policies {
			if d.APIVersion == "v1" && d.Kind == "Namespace" && d.Name != "" && d.Err == nil {
				if r.inputNamespaces == nil {
					r.inputNamespaces = map[string]bool{}
				}
				r.inputNamespaces[d.Name] = true
			}
		}
	}
	if opts.Scale != ScaleMax && opts.Scale != ScaleMin && !opts.Fit && engineOpts.Replicas == nil {
		r.bounds = hpaBounds(hpas)
	}
	// Entries a later step changes are kept whole (Options.Stream).
	if opts.Stream != nil && !opts.Fit && !opts.Rollout && !opts.SuggestQuota && opts.Scale != ScaleMax && opts.Scale != ScaleMin {
		r.stream = opts.Stream
	}
	for _, e := range live.prime(engine) {
		r.deliver(e, true)
	}
	nLive := len(rep.Entries)
	loadOpts.Note = nil // the first look reported them
	defaulted, err := r.admitInput(engine, catalog, look, loadOpts, opts, r.stream != nil, opts.SuggestQuota)
	if err != nil {
		return &Report{}, err
	}
	if look.objects == 0 && r.objects == 0 && !opts.SkipNonObjects {
		look.skipped = r.skipped // all of them, the first look's unread included
		return &Report{Notes: rep.Notes}, noObjects(rep.Notes, look)
	}
	applyHPAs(rep.Entries[nLive:], hpas, opts, catalog)
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
		var entries []Entry
		second := &runner{rep: &Report{}}
		for _, e := range live.prime(unenforced) {
			second.deliver(e, true)
		}
		if _, err := second.admitInput(unenforced, catalog, look, loadOpts, Options{Paths: opts.Paths, Stdin: opts.Stdin, EnforceNamespace: opts.EnforceNamespace, SkipUnknown: opts.SkipUnknown, Engine: opts.Engine, Order: opts.Order}, false, false); err != nil {
			return &Report{}, err
		}
		entries = second.rep.Entries
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
			if e.Err == nil && e.Result.Internal == "" && !e.Result.Skipped && !e.Result.Allowed && !e.Live {
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
	defaultNamespaceHint(rep, defaulted, engine.DefaultNamespace(), opts.EnforceNamespace)
	schemalessNote(rep, r.schemaless)
	r.assumedNote(rep)
	if opts.Lint {
		lintPolicies(rep, look.policies, engineOpts.QuotaConfig, cfgPos, catalog, engineOpts)
	}
	return rep, nil
}

// noObjects is the error of an input that holds no object, with its notes,
// and one more for each file read (named on the command line, found in a
// directory, or stdin) that held no document at all: comments and empty
// documents only (IN-09). Past maxEmptyNotes such files, one line counts
// the rest.
func noObjects(notes []load.Note, l *look) error {
	// The documents skipped, by reason: not objects, tools' files.
	for _, reason := range slices.Sorted(maps.Keys(l.skipped)) {
		k := l.skipped[reason]
		what := "documents were"
		if k.n == 1 {
			what = "document was"
		}
		notes = append(notes, load.Note{File: k.first.File, Line: k.first.Line,
			Msg: fmt.Sprintf("%d %s skipped, the first here: %s", k.n, what, reason)})
	}
	empty := 0
	for _, name := range l.readFiles {
		if l.docFiles[name] {
			continue
		}
		if empty++; empty <= maxEmptyNotes {
			notes = append(notes, load.Note{File: name, Msg: "only comments and empty documents"})
		}
	}
	if more := empty - maxEmptyNotes; more > 0 {
		files := "files"
		if more == 1 {
			files = "file"
		}
		notes = append(notes, load.Note{Msg: fmt.Sprintf("and %d more %s with only comments and empty documents", more, files)})
	}
	return &NoObjectsError{Notes: notes}
}

// maxEmptyNotes is how many files without documents noObjects names.
const maxEmptyNotes = 10

// NoObjectsError is an input that holds no object (bad input): the notes
// say what was read instead.
type NoObjectsError struct{ Notes []load.Note }

// Lines are the message, then each note: one line each.
func (e *NoObjectsError) Lines() []string {
	lines := []string{"no objects passed to check: the input holds no Kubernetes objects"}
	for _, n := range e.Notes {
		lines = append(lines, n.String())
	}
	return lines
}

func (e *NoObjectsError) Error() string { return strings.Join(e.Lines(), "\n") }

// look is what the first reading of the input gathers: what applies to the
// whole run wherever it is in the input.
type look struct {
	// crdChecks are the CRDs' validations, by position, for their
	// admission (eval.PreparedCRD).
	crdChecks map[load.Position]*eval.CRDCheck
	// policies are the documents OrderPoliciesFirst admits first (isPolicy),
	// in input order; policyAt finds them by position.
	policies []load.Document
	policyAt map[load.Position]int
	// configs are the admission configurations, crds the
	// CustomResourceDefinitions, hpas the HorizontalPodAutoscalers.
	configs, crds, hpas []load.Document
	// accounts are where the input creates each ServiceAccount (PL-11);
	// pullSecrets, the image pull secrets of those that list some.
	accounts    map[eval.Reference]load.Position
	pullSecrets map[eval.Reference][]corev1.LocalObjectReference
	// crdAt is where the input creates the CRD of each custom kind, and its
	// name (API-02).
	crdAt map[schema.GroupKind]crdPlace
	// refusedCRDs are the CRDs kube-apiserver refuses (VAL-93): invalid,
	// or a body it cannot decode (an unknown field, a value of the wrong
	// type). They are not created.
	refusedCRDs []refusedCRD
	// errs are errors found in documents by the run rather than the loader
	// (a CustomResourceDefinition the catalog refuses), by position.
	errs map[load.Position]*load.Error
	// objects counts the documents not skipped, of those read; unread
	// counts the others (load.Options.Unread), which the second reading
	// counts again (runner.objects).
	objects, unread int
	// docFiles are the files that held a document, of any kind, before the
	// first object: only an input without objects asks (noObjects).
	docFiles map[string]bool
	// readFiles are the files read, in walk order, until the first object.
	readFiles []string
	// skipped counts the documents skipped (load.Document.Skip) before the
	// first object, by reason, with the first of each.
	skipped map[string]*skippedDocs
	// adopters are the namespaces of the input's ReplicaSets,
	// ReplicationControllers and Deployments (eval.Outlook).
	adopters map[string]bool
	// headers, with Options.Live only, are every document without its
	// object (the policies' kept), and defaulted says whether a namespaced
	// object names no namespace: what readLive asks the cluster about.
	headers   []load.Document
	defaulted bool
}

// skippedDocs counts the documents skipped for one reason.
type skippedDocs struct {
	n     int
	first load.Position
}

// refusedCRD is the identity of a CRD kube-apiserver refuses.
type refusedCRD struct{ name, group, kind string }

// wholeRun reports whether a document applies to the whole run wherever it is
// in the input, and so is decoded by the first look. A ServiceAccount does
// for the Pods that name it: they exist for them, with their image pull
// secrets (PL-11).
func wholeRun(apiVersion, kind string) bool {
	return isPolicyKind(apiVersion, kind) || admissionconfig.IsConfigKind(apiVersion, kind) ||
		(apiVersion == "apiextensions.k8s.io/v1" && kind == "CustomResourceDefinition") || kind == "HorizontalPodAutoscaler" ||
		(apiVersion == "v1" && kind == "ServiceAccount")
}

// skim lets the first look leave unread what cannot matter to it (unread);
// tests turn it off to compare.
var skim = true

// firstLookWords are what the text of every document the first look reads
// contains: the kinds wholeRun takes, those of adopters (look.adopters) and
// Lists, whose items may be any of them.
var firstLookWords = [][]byte{
	[]byte("LimitRange"), []byte("ResourceQuota"), []byte("PriorityClass"), []byte("StorageClass"),
	[]byte("RuntimeClass"), []byte("Namespace"), []byte("Configuration"), []byte("CustomResourceDefinition"),
	[]byte("HorizontalPodAutoscaler"), []byte("ReplicaSet"), []byte("Deployment"),
	[]byte("ReplicationController"), []byte("List"), []byte("ServiceAccount"), []byte("StatefulSet"),
}

// unread reports that a YAML document cannot matter to the first look, so
// that it need not be converted (load.Options.Unread). A YAML scalar holds
// its text as written unless an escape or a tag rewrites it, and folding
// lines never joins two words: so a document with none of firstLookWords,
// no backslash and no tag (!!, !<…>, %TAG) cannot be of any kind the first
// look reads. It must also have a top-level kind: key, which makes it a
// document (never null) and, unless it is not YAML at all, an object.
func unread(text []byte) bool {
	if !bytes.HasPrefix(text, []byte("kind:")) && !bytes.Contains(text, []byte("\nkind:")) {
		return false
	}
	for i, c := range text {
		if !lookStarts[c] {
			continue
		}
		for _, w := range lookMarks[c] {
			if bytes.HasPrefix(text[i:], w) {
				return false
			}
		}
	}
	return true
}

// lookMarks lists, by their first byte, what unread looks for: the
// firstLookWords, a backslash and the tags.
var lookMarks, lookStarts = func() (m [256][][]byte, starts [256]bool) {
	for _, w := range append([][]byte{[]byte("\\"), []byte("!!"), []byte("!<"), []byte("%TAG")}, firstLookWords...) {
		m[w[0]] = append(m[w[0]], w)
		starts[w[0]] = true
	}
	return m, starts
}()

// firstLook reads the input once, decoding only what applies to the whole run
// (everything, with a live cluster, whose questions depend on every object).
func firstLook(opts Options, loadOpts load.Options) (*look, error) {
	l := &look{policyAt: map[load.Position]int{}, errs: map[load.Position]*load.Error{}, adopters: map[string]bool{}, docFiles: map[string]bool{}, skipped: map[string]*skippedDocs{}}
	if opts.Live == nil {
		loadOpts.Select = wholeRun
		if skim {
			loadOpts.Unread = unread
		}
	}
	// A CRD is checked as it is decoded, on the loader's goroutines, and
	// its verdict kept for the run's admission of it (eval.PreparedCRD).
	loadOpts.Prepare = func(obj runtime.Object) any {
		if c := eval.CheckCRD(obj, opts.Engine.Rules); c != nil {
			return c
		}
		return nil
	}
	loadOpts.Reading = func(file string) {
		if l.objects == 0 {
			l.readFiles = append(l.readFiles, file)
		}
	}
	def := opts.Engine.DefaultNamespace
	if def == "" {
		def = "default"
	}
	err := load.Walk(opts.Paths, opts.Stdin, loadOpts, func(d load.Document) bool {
		if l.objects == 0 {
			l.docFiles[d.Pos.File] = true
		}
		if d.Unread {
			l.unread++
			return true
		}

		if d.Skip == "" {
			l.objects++
		}
		if d.Err != nil {
			if opts.Live != nil {
				l.headers = append(l.headers, load.Document{Pos: d.Pos, APIVersion: d.APIVersion, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name, Err: d.Err, Skip: d.Skip})
			}
			if d.Skip == "" {
				l.noteAccount(&d, def)
			}
			if d.APIVersion == "apiextensions.k8s.io/v1" && d.Kind == "CustomResourceDefinition" {
				name, group, kind := apis.CRDIdentity(d.JSON)
				l.refusedCRDs = append(l.refusedCRDs, refusedCRD{name: name, group: group, kind: kind})
			}
			return true
		}
		if !admissionconfig.IsConfigKind(d.APIVersion, d.Kind) && !(d.APIVersion == "apiextensions.k8s.io/v1" && d.Kind == "CustomResourceDefinition") {
			d.JSON = nil // only configurations and CRDs are read from JSON
		}
		if d.Skip != "" {
			// Not an object (IN-03, IN-10): nothing of it applies to the run.
			if l.objects == 0 {
				k := l.skipped[d.Skip]
				if k == nil {
					k = &skippedDocs{first: d.Pos}
					l.skipped[d.Skip] = k
				}
				k.n++
			}
			if opts.Live != nil {
				l.headers = append(l.headers, load.Document{Pos: d.Pos, APIVersion: d.APIVersion, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name, Skip: d.Skip})
			}
			return true
		}
		l.noteAccount(&d, def)
		if isPolicy(&d) {
			l.policyAt[d.Pos] = len(l.policies)
			l.policies = append(l.policies, d)
		}
		switch {
		case admissionconfig.IsConfigKind(d.APIVersion, d.Kind):
			l.configs = append(l.configs, d)
		case d.APIVersion == "apiextensions.k8s.io/v1" && d.Kind == "CustomResourceDefinition":
			// Judged now, so that the decoded CRD (large, for a big schema)
			// is not kept: a refused one is recorded by its identity, a
			// created one by its JSON (VAL-93).
			if crd, ok := d.Object.(*apiextensionsv1.CustomResourceDefinition); ok {
				c, _ := d.Prepared.(*eval.CRDCheck) // checked as it was decoded
				if c == nil {
					c = eval.CheckCRD(crd, opts.Engine.Rules)
				}
				if l.crdChecks == nil {
					l.crdChecks = map[load.Position]*eval.CRDCheck{}
				}
				l.crdChecks[d.Pos] = c
				if c.Refusal() != nil {
					l.refusedCRDs = append(l.refusedCRDs, refusedCRD{name: crd.Name, group: crd.Spec.Group, kind: crd.Spec.Names.Kind})
					break
				}
			}
			if crd, ok := d.Object.(*apiextensionsv1.CustomResourceDefinition); ok {
				gk := schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}
				if _, seen := l.crdAt[gk]; !seen {
					if l.crdAt == nil {
						l.crdAt = map[schema.GroupKind]crdPlace{}
					}
					l.crdAt[gk] = crdPlace{pos: d.Pos, name: crd.Name}
				}
			}
			d.Object = nil
			l.crds = append(l.crds, d)
		case d.Kind == "HorizontalPodAutoscaler" && d.Skip == "":
			l.hpas = append(l.hpas, d)
		}
		if (d.APIVersion == "apps/v1" && (d.Kind == "ReplicaSet" || d.Kind == "Deployment" || d.Kind == "StatefulSet")) || (d.APIVersion == "v1" && d.Kind == "ReplicationController") {
			ns := d.Namespace
			if ns == "" {
				ns = def
			}
			l.adopters[ns] = true
		}
		if opts.Live != nil {
			h := load.Document{Pos: d.Pos, APIVersion: d.APIVersion, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name, Skip: d.Skip}
			if isPolicy(&d) {
				h.Object = d.Object
			}
			l.headers = append(l.headers, h)
			l.defaulted = l.defaulted || (d.Skip == "" && d.Namespace == "" && d.Kind != "" && !eval.ClusterScoped(d.APIVersion, d.Kind))
		}
		return true
	})
	return l, err
}

// noteAccount records where the input creates a ServiceAccount, d (def: the
// default namespace), and the image pull secrets of the first document of
// each (PL-11).
func (l *look) noteAccount(d *load.Document, def string) {
	if d.APIVersion != "v1" || d.Kind != "ServiceAccount" || d.Name == "" {
		return
	}
	ns := d.Namespace
	if ns == "" {
		ns = def
	}
	ref := eval.Reference{Kind: "ServiceAccount", Namespace: ns, Name: d.Name}
	if _, seen := l.accounts[ref]; seen {
		return
	}
	if l.accounts == nil {
		l.accounts = map[eval.Reference]load.Position{}
	}
	l.accounts[ref] = d.Pos
	if sa, ok := d.Object.(*corev1.ServiceAccount); ok && len(sa.ImagePullSecrets) > 0 {
		if l.pullSecrets == nil {
			l.pullSecrets = map[eval.Reference][]corev1.LocalObjectReference{}
		}
		l.pullSecrets[ref] = sa.ImagePullSecrets
	}
}

// runner collects the entries of a run and hands them to the Stream.
type runner struct {
	rep    *Report
	stream func(*Entry) bool
	// objects counts the documents read that were not skipped; skipped,
	// those skipped until the first that is not, by reason (the first look
	// leaves some unread: noObjects needs them all).
	objects int
	skipped map[string]*skippedDocs
	// scratch is the entry deliver hands the stream.
	scratch Entry
	// assumed are the references admitted Pods make that the run takes to
	// exist (eval.Result.Assumed), in order of first use.
	assumed      map[eval.Reference]*assumedUse
	assumedOrder []eval.Reference
	// schemaless counts the custom resources admitted of kinds no CRD of
	// the input defines, by "apiVersion Kind".
	schemaless map[string]int
	// bounds are the HPAs of the input by target, first in input order, when
	// workloads keep their spec.replicas (FIT-04).
	bounds map[eval.ScaleTarget]hpaAt
	// crdWarned are the custom kinds warned of for their CRD's place in
	// the input (crdOrderWarning); crdsAdmitted the CRDs reached.
	crdWarned    map[schema.GroupKind]bool
	crdsAdmitted map[load.Position]bool
	// createdAt is where the input creates each namespace of
	// eval.Options.CreatedNamespaces (NS-04).
	createdAt map[string]load.Position
	// inputNamespaces are those the input's Namespace documents name, when
	// there are some (NS-05).
	inputNamespaces map[string]bool
}

// deliver adds an entry to the report, or hands it to the stream unless
// held: held entries are those a later step of the run may still change.
func (r *runner) deliver(e Entry, held bool) {
	e.Seq = r.rep.next
	r.rep.next++
	if held || r.stream == nil {
		r.rep.Entries = append(r.rep.Entries, e)
		return
	}
	// The stream gets the runner's one scratch entry: e stays on the stack.
	r.scratch = e
	if r.stream(&r.scratch) {
		r.rep.Entries = append(r.rep.Entries, r.scratch)
	} else {
		r.rep.streamed.count(&r.scratch)
	}
	r.scratch = Entry{}
}

// admitInput admits the input on engine (the policies of the first look
// first, with OrderPoliciesFirst), reading it a second time with loadOpts,
// and delivers an entry per document. It returns how many objects naming no
// namespace were evaluated in the default one (HINT-01). With expect, the
// engine is told what it no longer needs to keep once the policies are in
// (eval.Outlook). The engine takes ownership of the first look's policies
// unless copy is set: an engine admitting them later needs them as written.
func (r *runner) admitInput(engine *eval.Engine, catalog *apis.Catalog, l *look, loadOpts load.Options, opts Options, expect, copy bool) (int, error) {
	// A class is added as cluster state and admitted as the same object, as
	// the run would.
	policies := l.policies
	if copy {
		policies = make([]load.Document, len(l.policies))
		for i, d := range l.policies {
			d.Object = d.Object.DeepCopyObject()
			policies[i] = d
		}
	}
	// PriorityClasses, StorageClasses and RuntimeClasses are cluster state the
	// admission plugins read: they apply to the whole run, wherever they appear.
	for _, d := range policies {
		if classes.IsClusterClass(d.APIVersion, d.Kind) {
			engine.AddClusterObject(d.Object)
		}
	}
	defaulted := 0
	admit := func(d load.Document, held bool) {
		if msg := r.unmapped(d, l, opts); msg != "" {
			d.Err, d.Object = &load.Error{File: d.Pos.File, Line: d.Pos.Line, Msg: msg}, nil
		}
		e := admitDocument(engine, catalog, d, opts)
		if e.Err == nil && !e.Result.Skipped && d.Namespace == "" && e.Result.Namespace == engine.DefaultNamespace() {
			defaulted++
		}
		if den := e.Result.Denial; den != nil && den.Stage == status.StageNamespaceLifecycle && engine.NotYetCreated(e.Result.Namespace) {
			at := r.createdAt[e.Result.Namespace]
			e.Result.Warnings = append(e.Result.Warnings, fmt.Sprintf("namespace %q is created by the Namespace at %s:%d, later in the input: kubectl create -f sends this object first; put the Namespace before it (--order=policies-first checks the input as Helm and Argo CD apply it, Namespaces first)",
				e.Result.Namespace, at.File, at.Line))
		}
		if d.APIVersion == "apiextensions.k8s.io/v1" && d.Kind == "CustomResourceDefinition" {
			if r.crdsAdmitted == nil {
				r.crdsAdmitted = map[load.Position]bool{}
			}
			r.crdsAdmitted[d.Pos] = true
		}
		if gv, err := schema.ParseGroupVersion(d.APIVersion); err == nil && e.Err == nil && opts.Live == nil && len(l.crdAt) > 0 {
			gk := gv.WithKind(d.Kind).GroupKind()
			if at, ok := l.crdAt[gk]; ok && !r.crdWarned[gk] {
				if r.crdWarned == nil {
					r.crdWarned = map[schema.GroupKind]bool{}
				}
				r.crdWarned[gk] = true
				e.Result.Warnings = append(e.Result.Warnings, crdOrderWarning(at, r.crdsAdmitted[at.pos], d.APIVersion, d.Kind))
			}
		}
		if den := e.Result.Denial; den != nil && den.Stage == status.StageServiceAccount {
			if pod, ok := e.Result.Object.(*corev1.Pod); ok && engine.AccountNotYetCreated(e.Result.Namespace, pod.Spec.ServiceAccountName) {
				at := l.accounts[eval.Reference{Kind: "ServiceAccount", Namespace: e.Result.Namespace, Name: pod.Spec.ServiceAccountName}]
				e.Result.Warnings = append(e.Result.Warnings, fmt.Sprintf("ServiceAccount %q is created by the document at %s:%d, later in the input: kubectl create -f sends this Pod first; put the ServiceAccount before it (--order=policies-first checks the input as Helm and Argo CD apply it, ServiceAccounts before Pods)",
					pod.Spec.ServiceAccountName, at.File, at.Line))
			}
		}
		if opts.Live == nil {
			r.noteAssumed(&e.Result, d.Pos)
			r.noteNamespace(&e.Result, d.Pos)
		}
		if w := e.Result.Workload; w != nil && len(r.bounds) > 0 {
			if h, ok := r.bounds[eval.ScaleTargetOf(&e.Result)]; ok {
				if msg := boundsWarning(h, w.Replicas); msg != "" {
					e.Result.Warnings = append(e.Result.Warnings, msg)
				}
			}
		}
		if e.Err == nil && !e.Result.Skipped && e.Result.Internal == "" && strings.Contains(d.APIVersion, ".") {
			// (A group without a dot is built in: no lookup for the usual kinds.)
			if _, st := catalog.Lookup(d.APIVersion, d.Kind); st == apis.Custom {
				if r.schemaless == nil {
					r.schemaless = map[string]int{}
				}
				r.schemaless[d.APIVersion+" "+d.Kind]++
			}
		}
		r.deliver(e, held)
	}
	if opts.Order != OrderInput {
		for _, d := range policies {
			admit(d, true)
		}
		if expect {
			// No policy follows: Pods are prepared as they are decoded, on
			// the loader's goroutines (eval.Engine.Prepare).
			engine.Expect(eval.Outlook{NoQuotas: true, Adopters: l.adopters, Settled: true})
			loadOpts.Prepare = func(obj runtime.Object) any { return engine.Prepare(obj) }
		}
	}
	var changed error
	// The reading runs ahead on its own goroutine: admission, in input
	// order, is the long part of the run.
	err := load.WalkAhead(opts.Paths, opts.Stdin, loadOpts, func(d load.Document) bool {
		if d.Skip == "" {
			r.objects++
		} else if r.objects == 0 {
			if r.skipped == nil {
				r.skipped = map[string]*skippedDocs{}
			}
			k := r.skipped[d.Skip]
			if k == nil {
				k = &skippedDocs{first: d.Pos}
				r.skipped[d.Skip] = k
			}
			k.n++
		}
		i, ok := l.policyAt[d.Pos]
		if ok != isPolicy(&d) || (ok && (policies[i].Kind != d.Kind || policies[i].Name != d.Name)) {
			// Not what the first reading found here: the file was written to
			// in between.
			changed = &load.Error{File: d.Pos.File, Msg: "changed while limitcheck was reading it; run again"}
			return false
		}
		if ok {
			if opts.Order == OrderInput {
				admit(policies[i], true)
			}
			return true
		}
		if e := l.errs[d.Pos]; e != nil && d.Err == nil {
			d.Err, d.Object = e, nil
		}
		if c := l.crdChecks[d.Pos]; c != nil && d.Err == nil {
			d.Prepared = eval.PreparedCRD(d.Object, c)
			delete(l.crdChecks, d.Pos)
		}
		lastApplied(&d, opts.Engine.DefaultNamespace)
		if d.Err == nil && !admissionconfig.IsConfigKind(d.APIVersion, d.Kind) && !(d.APIVersion == "apiextensions.k8s.io/v1" && d.Kind == "CustomResourceDefinition") {
			d.JSON = nil // only configurations and CRDs are read from JSON; the rest is decoded
		}
		admit(d, false)
		return true
	})
	if err == nil {
		err = changed
	}
	return defaulted, err
}

// admitDocument admits one document on engine and returns its entry.
func admitDocument(engine *eval.Engine, catalog *apis.Catalog, d load.Document, opts Options) Entry {
	entry := Entry{Pos: d.Pos, Err: d.Err}
	if entry.Err == nil && d.Skip == "" && opts.EnforceNamespace {
		entry.Err = namespaceMismatch(d, opts.Engine.DefaultNamespace, catalog)
	}
	switch {
	case d.Skip != "":
		// What it says it is, if it says (a kustomize patch, IN-10).
		entry.Result = eval.Result{APIVersion: d.APIVersion, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name, Skipped: true, SkipReason: d.Skip}
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
	if len(entry.Result.APIWarnings) > 0 {
		// kube-apiserver's own come first, as the response carries them.
		entry.Result.Warnings = append(slices.Clone(entry.Result.APIWarnings), entry.Result.Warnings...)
	}
	for _, w := range d.Warnings {
		entry.Result.Warnings = append(entry.Result.Warnings, w.Msg)
	}
	if hooks, ok := helmTest(d.Object); ok && entry.Err == nil && !entry.Result.Skipped {
		entry.Result.Warnings = append(entry.Result.Warnings, helmTestWarning(hooks))
	}
	return entry
}

// helmTestWarning says how Helm treats a test hook (IN-13), hooks the
// annotation's value.
func helmTestWarning(hooks string) string {
	return "a Helm test hook (helm.sh/hook: " + hooks + "): checked as kubectl create -f creates it, but helm install, Argo CD and Flux do not create it; helm test does, once the release is installed"
}

// helmTest returns the helm.sh/hook annotation of obj if it makes obj a
// Helm test hook: helm template renders a chart's tests with the rest, but
// helm install (and Argo CD and Flux, which deploy a chart as Helm does)
// does not create them.
func helmTest(obj runtime.Object) (string, bool) {
	m, ok := obj.(metav1.Object)
	if !ok {
		return "", false
	}
	hooks, ok := m.GetAnnotations()["helm.sh/hook"]
	if !ok {
		return "", false
	}
	for h := range strings.SplitSeq(hooks, ",") {
		switch strings.TrimSpace(h) {
		case "test", "test-success", "test-failure":
			return hooks, true
		}
	}
	return "", false
}

// lastApplied adds to d, before its JSON is dropped, the warning for an
// object kubectl apply would take over the annotations' limit (ST-05).
func lastApplied(d *load.Document, defaultNamespace string) {
	if d.Err != nil || d.Skip != "" || len(d.JSON) == 0 {
		return
	}
	ns := "" // kubectl sets the namespace of a namespaced object naming none
	if d.Namespace == "" && !eval.ClusterScoped(d.APIVersion, d.Kind) {
		ns = defaultNamespace
	}
	if w := load.LastAppliedWarning(d.JSON, ns); w != "" {
		d.Warnings = append(d.Warnings, load.Warning{Line: d.Pos.Line, Msg: w})
	}
}

// hpaAt is a valid HPA of the input and where it is.
type hpaAt struct {
	Pos load.Position
	eval.Scaling
}

// scalings reads the valid HPAs among docs, in input order.
func scalings(docs []load.Document, engineOpts eval.Options) []hpaAt {
	var out []hpaAt
	for _, d := range docs {
		if d.Err != nil || d.Skip != "" || d.Object == nil {
			continue
		}
		if s, ok := eval.HPAScaling(d.Object, engineOpts.DefaultNamespace, engineOpts.Gates); ok {
			out = append(out, hpaAt{Pos: d.Pos, Scaling: s})
		}
	}
	return out
}

// applyHPAs, with --scale=max|min or fit, warns on every HPA whose target is
// not in the input or that another HPA already targets, and gives the fit
// of every targeted workload its HPA (FIT-04).
func applyHPAs(entries []Entry, hpas []hpaAt, opts Options, catalog *apis.Catalog) {
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
		if !eval.Scalable(t) {
			continue
		}
		if _, dup := workloads[t]; !dup {
			workloads[t] = i
		}
	}
	at := map[load.Position]int{}
	for i := range entries {
		at[entries[i].Pos] = i
	}
	by := map[eval.ScaleTarget]string{}
	for _, s := range hpas {
		i, ok := at[s.Pos]
		if !ok {
			continue
		}
		res := &entries[i].Result
		t := s.Target
		w, found := workloads[t]
		switch {
		case !found:
			if _, st, scalable := catalog.MapGroupKind(t.Group, t.Kind); st == apis.NotServed || st == apis.Served && !scalable {
				continue // the engine said the controller cannot scale it (FIT-04)
			}
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

// admitServed admits a document whose apiVersion/kind kube-apiserver serves;
// one it does not serve is kubectl's error (or skipped with SkipUnknown), and a
// tool's configuration file is skipped (API-01).
func admitServed(engine *eval.Engine, catalog *apis.Catalog, d load.Document, skipUnknown, fit bool) (eval.Result, *eval.Fit, *load.Error) {
	id := eval.Result{APIVersion: d.APIVersion, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name}
	switch _, status := catalog.Lookup(d.APIVersion, d.Kind); status {
	case apis.NotServed:
		msg := notServedMessage(catalog, d)
		if skipUnknown {
			id.Skipped, id.SkipReason = true, "not served by kube-apiserver 1.36 (--skip-unknown)"
			return id, nil, nil
		}
		return id, nil, &load.Error{File: d.Pos.File, Line: d.Pos.Line, Msg: msg}
	case apis.ToolConfig:
		id.Skipped, id.SkipReason = true, load.ToolConfigReason
		return id, nil, nil
	}
	if fit {
		res, f := engine.AdmitFit(d.Object)
		return res, f, nil
	}
	prepared, _ := d.Prepared.(*eval.Prepared)
	return engine.AdmitPrepared(d.Object, prepared), nil, nil
}

// notServedMessage is kubectl's error for a document of a kind
// kube-apiserver does not serve (API-01), then limitcheck's hints. kubectl's
// REST mapper finds no such kind: for a document, kubectl's first line names
// it and the file, and its second, "ensure CRDs are installed first", starts
// the parentheses the hints are in; a list's item is "unable to recognize"
// and the hints follow after "; ". An all-lower-case kind passes the mapper,
// and kube-apiserver's words for it are taken as they are.
func notServedMessage(catalog *apis.Catalog, d load.Document) string {
	msg := catalog.NotServedMessage(d.APIVersion, d.Kind)
	var hints []string
	if hint := catalog.Suggest(d.APIVersion, d.Kind); hint != "" {
		hints = append(hints, hint)
	}
	if hint := helmVersionHint(d); hint != "" {
		hints = append(hints, hint)
	}
	switch {
	case msg != apis.NoMatchMessage(d.APIVersion, d.Kind):
	case d.Pos.Item >= 0:
		msg = kubetext.UnableToRecognize(msg)
	default:
		msg = kubetext.ResourceMappingNotFound(d.Name, d.Namespace, load.KubectlSource(d.Pos.File), msg)
		return msg + " (" + strings.Join(append([]string{kubetext.EnsureCRDs}, hints...), "; ") + ")"
	}
	if len(hints) > 0 {
		msg += "; " + strings.Join(hints, "; ")
	}
	return msg
}

// helmVersionHint explains an old version of a built-in kind in a document
// helm template rendered (its "# Source:"): a chart that asks
// .Capabilities.APIVersions.Has "policy/v1/PodDisruptionBudget" is told no
// when helm cannot see the cluster, and falls back to the old version.
func helmVersionHint(d load.Document) string {
	gv, err := schema.ParseGroupVersion(d.APIVersion)
	if d.Pos.Source == "" || err != nil {
		return ""
	}
	v := apis.ServedVersion(gv.Group, d.Kind)
	if v == "" || v == d.APIVersion {
		return ""
	}
	return "helm template renders the old version when it cannot see the cluster's APIs: give it --api-versions " + v + "/" + d.Kind
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
// differs from an explicit --namespace. kubectl asks only of a namespaced
// kind: a cluster-scoped one, a custom resource whose CRD in the input (or
// the live cluster) says Cluster included, keeps its metadata.namespace and
// kube-apiserver clears it.
func namespaceMismatch(d load.Document, ns string, catalog *apis.Catalog) *load.Error {
	if d.Namespace == "" || d.Namespace == ns {
		return nil
	}
	if k, _ := catalog.Lookup(d.APIVersion, d.Kind); !k.Namespaced {
		return nil
	}
	return &load.Error{File: d.Pos.File, Line: d.Pos.Line, Field: "metadata.namespace",
		Msg: fmt.Sprintf("the namespace from the provided object %q does not match the namespace %q. You must pass '--namespace=%s' to perform this operation.", d.Namespace, ns, d.Namespace)}
}
