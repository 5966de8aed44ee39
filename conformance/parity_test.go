package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/endpoints/deprecation"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/warning"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	apicore "k8s.io/kubernetes/pkg/apis/core"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/eval/features"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/jsondec"
)

// The validation parity tests share what follows: an outcome from upstream's
// create path and one from limitcheck's, in the same terms, and a tally of
// the differences over a seeded run that also checks each listed rule
// message was produced at least once (a generator that never reaches a rule
// cannot catch a bug in it).

// statusOutcome is the outcome of an upstream create that ended in err (nil:
// the object would be stored).
func statusOutcome(err error) rqOutcome {
	if err == nil {
		return rqOutcome{allowed: true}
	}
	st, ok := err.(apierrors.APIStatus)
	if !ok {
		return rqOutcome{code: 500, message: err.Error()}
	}
	s := st.Status()
	return rqOutcome{code: s.Code, reason: string(s.Reason), message: s.Message}
}

// admitOutcome admits obj on a fresh engine with no namespace objects and no
// controllers, and returns the outcome and the denial (nil when admitted).
func admitOutcome(obj runtime.Object, namespace string, gates features.Gates) (rqOutcome, *status.Denial) {
	e := eval.New(eval.Options{DefaultNamespace: namespace, OmitNamespaceObjects: true, DisableControllers: true, Gates: gates, Rules: celRules()})
	res := e.Admit(obj)
	if res.Internal != "" {
		return rqOutcome{code: 500, message: res.Internal}, nil
	}
	if res.Denial == nil {
		return rqOutcome{allowed: true, warnings: res.APIWarnings}, nil
	}
	d := res.Denial
	return rqOutcome{code: d.Code, reason: string(d.Reason), message: d.Message, warnings: res.APIWarnings}, d
}

// upstreamTypedCreate runs kube-apiserver's create path on doc: decoded into
// ext (the served version), defaulted, converted to internal, the namespace
// given (cleared for a cluster-scoped strategy: kubectl sends none), name
// generation, system fields, then rest.BeforeCreate with strategy
// (PrepareForCreate, Validate, the generic metadata check) for a request of
// apiVersion and resource. scheme nil is legacyscheme's.
func upstreamTypedCreate(doc []byte, ext, internal runtime.Object, strategy rest.RESTCreateStrategy, scheme *runtime.Scheme,
	apiVersion, resource, namespace string) (rqOutcome, error) {
	if err := json.Unmarshal(doc, ext); err != nil {
		return rqOutcome{}, err
	}
	if m, ok := ext.(metav1.Object); ok {
		m.SetResourceVersion("") // as kubectl create does (ST-03)
	}
	if scheme == nil {
		scheme = legacyscheme.Scheme
	}
	scheme.Default(ext)
	if err := scheme.Convert(ext, internal, nil); err != nil {
		return rqOutcome{}, err
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return rqOutcome{}, err
	}
	meta := internal.(metav1.Object)
	switch {
	case !strategy.NamespaceScoped():
		meta.SetNamespace("")
	case meta.GetNamespace() == "":
		meta.SetNamespace(namespace)
	}
	if meta.GetGenerateName() != "" && meta.GetName() == "" {
		meta.SetName(upstreamGeneratedName(meta.GetGenerateName()))
	}
	ctx := genericapirequest.WithRequestInfo(genericapirequest.WithNamespace(context.Background(), meta.GetNamespace()), &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: "create", APIGroup: gv.Group, APIVersion: gv.Version, Namespace: meta.GetNamespace(), Resource: resource, Name: meta.GetName()})
	var warned []string
	ctx = warning.WithWarningRecorder(ctx, warnings{&warned})
	if err := deprecationWarning(ctx, scheme, ext, gv); err != nil {
		return rqOutcome{}, err
	}
	rest.FillObjectMetaSystemFields(meta)
	if err := rest.BeforeCreate(strategy, ctx, internal); err != nil {
		out := statusOutcome(err)
		out.warnings = warned
		return out, nil
	}
	// Validating admission: the PodSecurity plugin checks a Namespace's
	// labels (PS-01).
	if ns, ok := internal.(*apicore.Namespace); ok {
		if err := validateNamespaceLabels(ns); err != nil {
			out := statusOutcome(err)
			out.warnings = warned
			return out, nil
		}
	}
	return rqOutcome{allowed: true, warnings: warned}, nil
}

// deprecationWarning adds the warning kube-apiserver's installer gives every
// request on a version the release deprecates (the endpoint of ext's kind
// in gv), as the handler does before the create runs.
func deprecationWarning(ctx context.Context, scheme *runtime.Scheme, ext runtime.Object, gv schema.GroupVersion) error {
	kinds, _, err := scheme.ObjectKinds(ext)
	if err != nil {
		return err
	}
	var major, minor int
	if _, err := fmt.Sscanf(apis.KubernetesVersion, "v%d.%d.", &major, &minor); err != nil {
		return err
	}
	for _, gvk := range kinds {
		if gvk.GroupVersion() != gv {
			continue
		}
		obj := ext.DeepCopyObject()
		obj.GetObjectKind().SetGroupVersionKind(gvk)
		if deprecation.IsDeprecated(obj, major, minor) {
			warning.AddWarning(ctx, "", deprecation.WarningMessage(obj))
		}
	}
	return nil
}

// mineTypedCreate admits doc, a document of a kind limitcheck decodes typed,
// on a fresh engine (admitOutcome), decoded as the loader decodes it: by
// jsondec, or encoding/json where it declines.
func mineTypedCreate(doc []byte, apiVersion, kind, namespace string, gates features.Gates) (rqOutcome, *status.Denial, error) {
	obj := eval.NewObject(apiVersion, kind)
	if obj == nil {
		return rqOutcome{}, nil, fmt.Errorf("%s %s is not decoded typed", apiVersion, kind)
	}
	if !jsondec.Decode(doc, obj) {
		obj = eval.NewObject(apiVersion, kind)
		if err := json.Unmarshal(doc, obj); err != nil {
			return rqOutcome{}, nil, err
		}
	}
	out, d := admitOutcome(obj, namespace, gates)
	return out, d, nil
}

// parity tallies one seeded run.
type parity struct {
	t          *testing.T
	seed       uint64
	stats      map[string]int // outcomes by "admitted KIND" / "denied KIND"
	rules      map[string]int // denials containing each rule, by group
	mismatches int
}

func newParity(t *testing.T, seed uint64) *parity {
	return &parity{t: t, seed: seed, stats: map[string]int{}, rules: map[string]int{}}
}

// compare records case i: upstream's want and limitcheck's got for doc, a
// kind; rules (under group) are the messages looked for in a denial. same,
// when not nil, also accepts two messages that differ (upstream's map order).
func (p *parity) compare(i int, kind string, doc []byte, want, got rqOutcome, group string, rules []string, same func(want, got string) bool) {
	if want.allowed {
		p.stats["admitted "+kind]++
	} else {
		p.stats["denied "+kind]++
		for _, r := range rules {
			if strings.Contains(want.message, r) {
				p.rules[group+"\x00"+r]++
			}
		}
	}
	var diffs []string
	if want.allowed != got.allowed || want.code != got.code || want.reason != got.reason {
		diffs = append(diffs, fmt.Sprintf("status: upstream %v %d %q, limitcheck %v %d %q", want.allowed, want.code, want.reason, got.allowed, got.code, got.reason))
	}
	if want.message != got.message && (same == nil || !same(want.message, got.message)) {
		diffs = append(diffs, fmt.Sprintf("message:\n  upstream:   %s\n  limitcheck: %s", want.message, got.message))
	}
	if len(want.warnings) > 0 {
		p.stats["warned "+kind]++
	}
	if warned[kind] && !sameWarnings(kind, want.warnings, got.warnings) {
		diffs = append(diffs, fmt.Sprintf("warnings:\n  upstream:   %q\n  limitcheck: %q", want.warnings, got.warnings))
	}
	if len(diffs) > 0 {
		p.mismatches++
		if p.mismatches <= 15 {
			p.t.Errorf("case %d (seed %d) mismatch:\n  %s\ninput: %s", i, p.seed, strings.Join(diffs, "\n  "), doc)
		}
	}
}

// finish logs the run (what: the documents, cases: how many) and fails on a
// mismatch or on a rule of rules (by group) that no denial contained.
func (p *parity) finish(what string, cases int, groups []string, rules map[string][]string) {
	t := p.t
	t.Logf("seed %d: %d %s, %d mismatches; outcomes: %v", p.seed, cases, what, p.mismatches, p.stats)
	for _, g := range groups {
		for _, r := range rules[g] {
			n := p.rules[g+"\x00"+r]
			label := strings.TrimSpace(g + " denials")
			t.Logf("  %5d %s contain %q", n, label, r)
			if n == 0 {
				t.Errorf("no generated case exercises %q", strings.TrimSpace(g+" "+r))
			}
		}
	}
	if p.mismatches > 0 {
		t.Fatalf("%d mismatches", p.mismatches)
	}
}
