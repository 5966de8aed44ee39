package conformance

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/registry/core/resourcequota"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/defaults"
	"github.com/limitcheck/limitcheck/internal/eval/status"
)

var (
	flagRQCases = flag.Int("rq-cases", 8000, "number of random ResourceQuota objects")
	flagRQSeed  = flag.Uint64("rq-seed", 1, "ResourceQuota generator seed")
)

// rqOutcome is the create verdict of one ResourceQuota.
type rqOutcome struct {
	allowed bool
	code    int32
	reason  string
	message string
	// warnings are the create's (VAL-104); compared for the kinds in warned.
	warnings []string
}

// sameVerdict: the same outcome, warnings aside.
func (o rqOutcome) sameVerdict(p rqOutcome) bool {
	return o.allowed == p.allowed && o.code == p.code && o.reason == p.reason && o.message == p.message
}

// upstreamQuotaCreate runs kube-apiserver's code on one ResourceQuota document:
// decode, v1 defaulting, conversion to the internal type, name generation,
// system fields and rest.BeforeCreate with the real strategy.
func upstreamQuotaCreate(doc []byte, namespace string) (rqOutcome, error) {
	ext := &corev1.ResourceQuota{}
	if err := json.Unmarshal(doc, ext); err != nil {
		return rqOutcome{}, err
	}
	legacyscheme.Scheme.Default(ext)
	internal := &api.ResourceQuota{}
	if err := legacyscheme.Scheme.Convert(ext, internal, nil); err != nil {
		return rqOutcome{}, err
	}
	if internal.Namespace == "" {
		internal.Namespace = namespace
	}
	ctx := genericapirequest.WithNamespace(context.Background(), internal.Namespace)
	if internal.GenerateName != "" && internal.Name == "" {
		internal.Name = upstreamGeneratedName(internal.GenerateName)
	}
	rest.FillObjectMetaSystemFields(internal)
	return statusOutcome(rest.BeforeCreate(resourcequota.Strategy, ctx, internal)), nil
}

// mineQuotaCreate runs limitcheck on the same document.
func mineQuotaCreate(doc []byte, namespace string) (rqOutcome, *status.Denial, *corev1.ResourceQuota, error) {
	q := &corev1.ResourceQuota{}
	if err := json.Unmarshal(doc, q); err != nil {
		return rqOutcome{}, nil, nil, err
	}
	if q.Namespace == "" {
		q.Namespace = namespace
	}
	defaults.DefaultResourceQuota(q)
	d := eval.ResourceQuotaInvalid(q)
	if d == nil {
		return rqOutcome{allowed: true}, nil, q, nil
	}
	return rqOutcome{code: d.Code, reason: string(d.Reason), message: d.Message}, d, q, nil
}

type rqGen struct{ r *rand.Rand }

func (g *rqGen) chance(p float64) bool { return g.r.Float64() < p }
func (g *rqGen) pick(xs []any) any     { return xs[g.r.IntN(len(xs))] }
func (g *rqGen) pickS(xs []string) string {
	return xs[g.r.IntN(len(xs))]
}

var (
	rqNames = []any{"bad_name", "Upper", "a..b", "-x", "", strings.Repeat("a", 254), "ok.dotted-name"}

	rqHardKeys = []string{
		// standard quota names
		"cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.storage",
		"requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods",
		"resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
		"persistentvolumeclaims", "services.nodeports", "services.loadbalancers",
		"hugepages-2Mi", "requests.hugepages-1Gi",
		// frequent ones again, so scope checks see them often
		"pods", "cpu", "requests.memory", "persistentvolumeclaims", "requests.storage", "limits.cpu",
		// not quota names / not standard
		"storage", "limits.hugepages-2Mi", "foo", "requests.foo", "limits.foo", "Bad_Name", "-x", "",
		"a/b/c", "count/", "example.com/", "/pods",
		// qualified names
		"count/deployments.apps", "count/pods", "count/secrets", "requests.example.com/gpu", "example.com/gpu",
		"gold.storageclass.storage.k8s.io/requests.storage", "gold.storageclass.storage.k8s.io/persistentvolumeclaims",
		"requests.nvidia.com/gpu", "kubernetes.io/foo", "requests.kubernetes.io/x", "limits.example.com/gpu",
		"example.com/Bad_", "gpu.example.com/a.b",
	}

	rqQuantities = []any{
		"0", "1", "2", "10", "100", "1k", "1e3", "1500m", "1.5", "0.5", "100m", "0.0001", "1.0001", "1m", "999m",
		"-1", "-1500m", "-0.0001", "1Gi", "10Gi", "1.5Gi", "0.5Mi", "2Mi", "1Ki", "500M", "1e-3", "9223372036854775807",
		1, 0.5, 2.25, -3, 0,
	}

	rqScopes = []string{
		"Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "PriorityClass",
		"VolumeAttributesClass", "CrossNamespacePodAffinity", "Bogus", "", "besteffort",
	}

	rqOperators = []string{"In", "NotIn", "Exists", "DoesNotExist", "Bogus", "", "exists", "<In>"}

	rqFinalizers = []string{"kubernetes", "orphan", "foregroundDeletion", "foo", "example.com/x", "Bad_/x", "a/b/c"}
)

// rqRules are message patterns, one per rule or rendering detail, used to check
// that the generator exercises each of them.
var rqRules = []string{
	`metadata\.name: Invalid value`, `metadata\.name: Required value`, `metadata\.namespace: Invalid value`,
	`metadata\.finalizers\[\d\]: Invalid value: "[^"]*": name is neither`, `metadata\.labels: Invalid value`,
	`must be a standard resource type or fully qualified`, `must be a standard resource for quota`,
	`spec\.hard\[[^\]]*\]: Invalid value: "[^"]*": name part must consist of`,
	`must be greater than or equal to 0`, `must be an integer`,
	`spec\.scopes: Invalid value: \[[^\]]*\]: unsupported scope($|[,\]])`,
	`spec\.scopes: Invalid value: \[[^\]]*\]: unsupported scope applied to resource`,
	`spec\.scopes: Invalid value: \[[^\]]*\]: conflicting scopes`,
	`spec\.scopeSelector\.matchExpressions\.scopeName: Invalid value: "[^"]*": unsupported scope`,
	`spec\.scopeSelector\.matchExpressions: Invalid value: \{"MatchExpressions":\[.*\]\}: unsupported scope applied to resource`,
	`"Values":null`, `"Values":\[\]`, `"ScopeName":"","Operator":""`,
	`spec\.scopeSelector\.matchExpressions\.operator: Invalid value: "[^"]*": must be 'Exists' when scope is any of`,
	`spec\.scopeSelector\.matchExpressions\.values: Required value: must be at least one value when`,
	`spec\.scopeSelector\.matchExpressions\.values: Invalid value: \[.*\]: must be no value when`,
	`spec\.scopeSelector\.matchExpressions\.operator: Invalid value: "[^"]*": not a valid selector operator`,
	`\\u003c`,
	`spec\.scopeSelector\.matchExpressions: Invalid value: null: conflicting scopes`,
	`spec\.scopeSelector\.matchExpressions: Invalid value: \[\]: conflicting scopes`,
	`spec\.scopeSelector\.matchExpressions: Invalid value: \["[^\]]*\]: conflicting scopes`,
}

// quota builds one random ResourceQuota document as a JSON-ready map.
func (g *rqGen) quota(i int) map[string]any {
	meta := map[string]any{}
	switch {
	case g.chance(0.06):
		meta["name"] = g.pick(rqNames)
	case g.chance(0.05):
		meta["generateName"] = g.pick([]any{"rq-", "RQ-", "a.", "x_"})
	case g.chance(0.01):
		// neither name nor generateName
	default:
		meta["name"] = fmt.Sprintf("rq-%d", i)
	}
	if g.chance(0.03) {
		meta["namespace"] = g.pick([]any{"ns1", "Bad_NS", "other"})
	}
	if g.chance(0.04) {
		var fs []any
		for n := 1 + g.r.IntN(2); n > 0; n-- {
			fs = append(fs, g.pickS(rqFinalizers))
		}
		meta["finalizers"] = fs
	}
	if g.chance(0.03) {
		meta["labels"] = map[string]any{g.pickS([]string{"app", "bad key", "example.com/x"}): g.pickS([]string{"v", "bad value!", ""})}
	}

	spec := map[string]any{}
	if !g.chance(0.05) {
		hard := map[string]any{}
		for n := g.r.IntN(6); n > 0; n-- {
			k := g.pickS(rqHardKeys)
			if g.chance(0.7) {
				hard[k] = g.pick([]any{"1", "2", "10", "1Gi", "500m", 5})
			} else {
				hard[k] = g.pick(rqQuantities)
			}
		}
		if len(hard) > 0 || g.chance(0.3) {
			spec["hard"] = hard
		}
	}
	switch {
	case g.chance(0.45):
	case g.chance(0.05):
		spec["scopes"] = []any{}
	default:
		var sc []any
		for n := 1 + g.r.IntN(3); n > 0; n-- {
			if g.chance(0.85) {
				sc = append(sc, g.pickS(rqScopes[:7]))
			} else {
				sc = append(sc, g.pickS(rqScopes))
			}
		}
		spec["scopes"] = sc
	}
	switch {
	case g.chance(0.45):
	case g.chance(0.03):
		spec["scopeSelector"] = map[string]any{}
	case g.chance(0.03):
		spec["scopeSelector"] = map[string]any{"matchExpressions": []any{}}
	case g.chance(0.02):
		spec["scopeSelector"] = nil
	default:
		var exprs []any
		for n := 1 + g.r.IntN(3); n > 0; n-- {
			e := map[string]any{}
			if g.chance(0.85) {
				e["scopeName"] = g.pickS(rqScopes[:7])
			} else if !g.chance(0.2) {
				e["scopeName"] = g.pickS(rqScopes)
			}
			if g.chance(0.8) {
				e["operator"] = g.pickS(rqOperators[:4])
			} else if !g.chance(0.2) {
				e["operator"] = g.pickS(rqOperators)
			}
			switch g.r.IntN(6) {
			case 0: // absent
			case 1:
				e["values"] = nil
			case 2:
				e["values"] = []any{}
			case 3:
				e["values"] = []any{"high"}
			case 4:
				e["values"] = []any{"high", "low"}
			case 5:
				e["values"] = []any{"", "<b>\"q\""}
			}
			exprs = append(exprs, e)
		}
		spec["scopeSelector"] = map[string]any{"matchExpressions": exprs}
	}
	doc := map[string]any{"apiVersion": "v1", "kind": "ResourceQuota", "metadata": meta, "spec": spec}
	if g.chance(0.05) {
		// status is cleared by PrepareForCreate, whatever it holds
		doc["status"] = map[string]any{"hard": map[string]any{"foo": "-1"}, "used": map[string]any{"pods": "1500m"}}
	}
	return doc
}

// TestResourceQuotaValidationParity compares eval.ValidateResourceQuota (through
// eval.ResourceQuotaInvalid) with kube-apiserver's create path on random quotas:
// verdict, HTTP status and message. The message is compared exactly when spec.hard
// has at most one key; otherwise its parts are compared as a set, since upstream
// visits spec.hard in random map order.
func TestResourceQuotaValidationParity(t *testing.T) {
	g := &rqGen{r: rand.New(rand.NewPCG(*flagRQSeed, *flagRQSeed^0x5851f42d4c957f2d))}
	stats, rules := map[string]int{}, map[string]int{}
	mismatches := 0
	for i := 0; i < *flagRQCases; i++ {
		doc, err := json.Marshal(g.quota(i))
		if err != nil {
			t.Fatal(err)
		}
		want, err := upstreamQuotaCreate(doc, "ns1")
		if err != nil {
			t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
		}
		got, denial, q, err := mineQuotaCreate(doc, "ns1")
		if err != nil {
			t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
		}
		if want.allowed {
			stats["admitted"]++
		} else {
			stats["denied"]++
			if strings.Contains(want.message, " is invalid: [") {
				stats["denied, several errors"]++
			}
			for _, r := range rqRules {
				if regexp.MustCompile(r).MatchString(want.message) {
					rules[r]++
				}
			}
		}
		var diffs []string
		if want.allowed != got.allowed || want.code != got.code || want.reason != got.reason {
			diffs = append(diffs, fmt.Sprintf("status: upstream %v %d %q, limitcheck %v %d %q", want.allowed, want.code, want.reason, got.allowed, got.code, got.reason))
		}
		if want.message != got.message {
			exactOnly := len(q.Spec.Hard) <= 1
			if exactOnly || denial == nil || !samePermutation(want.message, got.message, denial.Parts) {
				diffs = append(diffs, fmt.Sprintf("message:\n  upstream:   %s\n  limitcheck: %s", want.message, got.message))
			}
		}
		if len(diffs) > 0 {
			mismatches++
			if mismatches <= 15 {
				t.Errorf("case %d (seed %d) mismatch:\n  %s\ninput: %s", i, *flagRQSeed, strings.Join(diffs, "\n  "), doc)
			}
		}
	}
	t.Logf("seed %d: %d ResourceQuotas, %d mismatches; outcomes: %v", *flagRQSeed, *flagRQCases, mismatches, stats)
	for _, r := range rqRules {
		t.Logf("  %5d denials contain %q", rules[r], r)
		if rules[r] == 0 {
			t.Errorf("no generated case exercises %q", r)
		}
	}
	if mismatches > 0 {
		t.Fatalf("%d mismatches", mismatches)
	}
}
