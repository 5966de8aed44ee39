package conformance

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/apis/policy"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	"k8s.io/kubernetes/pkg/apis/rbac"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrole"
	"k8s.io/kubernetes/pkg/registry/rbac/clusterrolebinding"
	"k8s.io/kubernetes/pkg/registry/rbac/role"
	"k8s.io/kubernetes/pkg/registry/rbac/rolebinding"

	"github.com/limitcheck/limitcheck/internal/eval/features"
)

var (
	flagPolicyRBACCases = flag.Int("policy-rbac-cases", 6000, "number of random PodDisruptionBudgets, Roles and RoleBindings")
	flagPolicyRBACSeed  = flag.Uint64("policy-rbac-seed", 1, "PodDisruptionBudget, Role and RoleBinding generator seed")
)

// policyRBACKinds are the kinds the test generates: their served version,
// the upstream types and the strategy, and the resource.
var policyRBACKinds = map[string]struct {
	apiVersion, resource string
	ext, internal        func() runtime.Object
	strategy             rest.RESTCreateStrategy
}{
	"PodDisruptionBudget": {"policy/v1", "poddisruptionbudgets",
		func() runtime.Object { return &policyv1.PodDisruptionBudget{} },
		func() runtime.Object { return &policy.PodDisruptionBudget{} }, poddisruptionbudget.Strategy},
	"Role": {"rbac.authorization.k8s.io/v1", "roles",
		func() runtime.Object { return &rbacv1.Role{} },
		func() runtime.Object { return &rbac.Role{} }, role.Strategy},
	"RoleBinding": {"rbac.authorization.k8s.io/v1", "rolebindings",
		func() runtime.Object { return &rbacv1.RoleBinding{} },
		func() runtime.Object { return &rbac.RoleBinding{} }, rolebinding.Strategy},
	// VAL-75: cluster-scoped.
	"ClusterRole": {"rbac.authorization.k8s.io/v1", "clusterroles",
		func() runtime.Object { return &rbacv1.ClusterRole{} },
		func() runtime.Object { return &rbac.ClusterRole{} }, clusterrole.Strategy},
	"ClusterRoleBinding": {"rbac.authorization.k8s.io/v1", "clusterrolebindings",
		func() runtime.Object { return &rbacv1.ClusterRoleBinding{} },
		func() runtime.Object { return &rbac.ClusterRoleBinding{} }, clusterrolebinding.Strategy},
}

// upstreamPolicyRBACCreate runs kube-apiserver's code on one document of a
// policyRBACKinds kind: decode into the v1 type, its defaulting, conversion
// to the internal type, name generation, system fields and rest.BeforeCreate
// with the real strategy (PrepareForCreate, Validate, the generic metadata
// check).
func upstreamPolicyRBACCreate(doc []byte, kind, namespace string) (rqOutcome, error) {
	k := policyRBACKinds[kind]
	return upstreamTypedCreate(doc, k.ext(), k.internal(), k.strategy, nil, k.apiVersion, k.resource, namespace)
}

// minePolicyRBACCreate admits the same document on a fresh engine.
func minePolicyRBACCreate(doc []byte, kind, namespace string) (rqOutcome, error) {
	out, _, err := mineTypedCreate(doc, policyRBACKinds[kind].apiVersion, kind, namespace, features.Gates{})
	return out, err
}

type policyRBACGen struct{ r *rand.Rand }

func (g *policyRBACGen) chance(p float64) bool { return g.r.Float64() < p }
func (g *policyRBACGen) pick(xs ...any) any    { return xs[g.r.IntN(len(xs))] }

// meta is valid most of the time; otherwise a name or generateName one of
// the name rules refuses, a negative generation, an unqualified finalizer
// or a bad label. Maps hold at most one bad key, so upstream's map order
// cannot show.
func (g *policyRBACGen) meta(prefix string, i int) map[string]any {
	m := map[string]any{}
	switch {
	case g.chance(0.75):
		m["name"] = fmt.Sprintf("%s-%d", prefix, i)
	case g.chance(0.6):
		m["name"] = g.pick("Bad_Name", "a/b", ".", "..", "x%y", "a..b", "-x", strings.Repeat("a", 254), "Admin:Role")
	case g.chance(0.8):
		m["generateName"] = g.pick(prefix+"-", ".", "..", "a/b", "Bad_", "x%")
	}
	if g.chance(0.1) {
		m["generation"] = g.pick(-1, 3)
	}
	if g.chance(0.1) {
		m["finalizers"] = []any{g.pick("foo", "example.com/foo", "kubernetes", "a/b/c")}
	}
	if g.chance(0.1) {
		m["labels"] = map[string]any{"app": g.pick("web", "-bad-", strings.Repeat("v", 64)), "tier": "front"}
	}
	return m
}

func (g *policyRBACGen) intOrPercent() any {
	return g.pick(0, 1, 3, -1, -20, "0%", "50%", "100%", "101%", "250%", "-5%", "5", "abc", "%", "", "1.5%")
}

func (g *policyRBACGen) selector() any {
	if g.chance(0.15) {
		return map[string]any{}
	}
	sel := map[string]any{}
	if g.chance(0.7) {
		sel["matchLabels"] = map[string]any{g.pick("app", "app", "a/b/c", "-k", "example.com/tier").(string): g.pick("web", "web", "-v", "", strings.Repeat("x", 64))}
	}
	if g.chance(0.45) {
		var exprs []any
		for range 1 + g.r.IntN(2) {
			e := map[string]any{"key": g.pick("tier", "tier", "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match", "Bad Key", ""),
				"operator": g.pick("In", "NotIn", "Exists", "DoesNotExist", "Exists", "Bogus", "")}
			if g.chance(0.6) {
				e["values"] = []any{g.pick("a", "b", "-bad", "")}
			} else if g.chance(0.3) {
				e["values"] = []any{}
			}
			exprs = append(exprs, e)
		}
		sel["matchExpressions"] = exprs
	}
	if g.chance(0.08) {
		// The v1beta1 match-none selector, which the v1 conversion keeps.
		return map[string]any{"matchExpressions": []any{map[string]any{"key": "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match", "operator": "Exists"}}}
	}
	return sel
}

func (g *policyRBACGen) pdb(i int) map[string]any {
	spec := map[string]any{}
	if g.chance(0.6) {
		spec["minAvailable"] = g.intOrPercent()
	}
	if g.chance(0.45) {
		spec["maxUnavailable"] = g.intOrPercent()
	}
	if g.chance(0.85) {
		spec["selector"] = g.selector()
	}
	if g.chance(0.3) {
		spec["unhealthyPodEvictionPolicy"] = g.pick("IfHealthyBudget", "AlwaysAllow", "Never", "", "alwaysAllow")
	}
	obj := map[string]any{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": g.meta("pdb", i), "spec": spec}
	if g.chance(0.1) {
		obj["status"] = map[string]any{"disruptionsAllowed": -1, "expectedPods": 3}
	}
	return obj
}

func (g *policyRBACGen) strings(p float64, xs ...any) []any {
	if !g.chance(p) {
		if g.chance(0.3) {
			return []any{}
		}
		return nil
	}
	out := []any{}
	for range 1 + g.r.IntN(2) {
		out = append(out, g.pick(xs...))
	}
	return out
}

func (g *policyRBACGen) role(i int) map[string]any {
	var rules []any
	for range g.r.IntN(4) {
		r := map[string]any{}
		for k, v := range map[string][]any{
			"verbs":           g.strings(0.8, "get", "list", "watch", "*", "create"),
			"apiGroups":       g.strings(0.75, "", "apps", "*", "batch"),
			"resources":       g.strings(0.75, "pods", "deployments", "*", "pods/log"),
			"resourceNames":   g.strings(0.15, "web", "db"),
			"nonResourceURLs": g.strings(0.15, "/healthz", "/metrics", "*"),
		} {
			if v != nil {
				r[k] = v
			}
		}
		rules = append(rules, r)
	}
	obj := map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": g.meta("role", i)}
	if rules != nil || g.chance(0.5) {
		obj["rules"] = rules
	}
	return obj
}

// clusterRole is a role, cluster-wide, sometimes aggregated, sometimes
// with a namespace the create clears.
func (g *policyRBACGen) clusterRole(i int) map[string]any {
	obj := g.role(i)
	obj["kind"] = "ClusterRole"
	if g.chance(0.25) {
		switch g.r.IntN(4) {
		case 0:
			obj["aggregationRule"] = map[string]any{}
		case 1:
			obj["aggregationRule"] = map[string]any{"clusterRoleSelectors": []any{}}
		default:
			obj["aggregationRule"] = map[string]any{"clusterRoleSelectors": []any{g.selector()}}
		}
	}
	if g.chance(0.1) {
		obj["metadata"].(map[string]any)["namespace"] = "ns1"
	}
	return obj
}

// clusterRoleBinding is a binding, cluster-wide.
func (g *policyRBACGen) clusterRoleBinding(i int) map[string]any {
	obj := g.roleBinding(i)
	obj["kind"] = "ClusterRoleBinding"
	if ref := obj["roleRef"].(map[string]any); g.chance(0.5) {
		ref["kind"] = "ClusterRole"
	}
	return obj
}

func (g *policyRBACGen) roleBinding(i int) map[string]any {
	ref := map[string]any{}
	if g.chance(0.7) {
		ref["apiGroup"] = g.pick("rbac.authorization.k8s.io", "rbac.authorization.k8s.io", "", "rbac", "apps", "rbac.authorization.k8s.io/v1")
	}
	if g.chance(0.9) {
		ref["kind"] = g.pick("Role", "ClusterRole", "Role", "role", "", "User", "RoleBinding")
	}
	if g.chance(0.9) {
		ref["name"] = g.pick("reader", "edit", "", "a/b", ".", "..", "x%y", "Admin_Role", "system:aggregate-to-view")
	}
	var subjects []any
	for range g.r.IntN(4) {
		s := map[string]any{}
		if g.chance(0.92) {
			s["kind"] = g.pick("ServiceAccount", "User", "Group", "ServiceAccount", "group", "", "Team")
		}
		if g.chance(0.5) {
			s["apiGroup"] = g.pick("", "rbac.authorization.k8s.io", "v1", "rbac.authorization.k8s.io/v1")
		}
		if g.chance(0.9) {
			s["name"] = g.pick("default", "builder", "", "Bad_Name", "alice@example.com", "a/b", "system:serviceaccounts", strings.Repeat("s", 254))
		}
		if g.chance(0.4) {
			s["namespace"] = g.pick("ns1", "", "other")
		}
		subjects = append(subjects, s)
	}
	obj := map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": g.meta("rb", i), "roleRef": ref}
	if subjects != nil {
		obj["subjects"] = subjects
	}
	return obj
}

// valid is a document of kind kube-apiserver admits, with the fields that
// vary most (defaulted apiGroups, percentages, match-none selectors).
func (g *policyRBACGen) valid(kind string, i int) map[string]any {
	meta := map[string]any{"name": fmt.Sprintf("ok-%d", i)}
	if g.chance(0.2) {
		meta = map[string]any{"generateName": g.pick("ok-", "Web_", "a:")}
	}
	switch kind {
	case "PodDisruptionBudget":
		spec := map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}}}
		if g.chance(0.5) {
			spec["minAvailable"] = g.pick(0, 1, 2, "0%", "50%", "100%")
		} else if g.chance(0.8) {
			spec["maxUnavailable"] = g.pick(0, 1, "25%", "100%")
		}
		if g.chance(0.3) {
			spec["unhealthyPodEvictionPolicy"] = g.pick("IfHealthyBudget", "AlwaysAllow")
		}
		if g.chance(0.15) {
			spec["selector"] = g.pick(map[string]any{}, map[string]any{"matchExpressions": []any{
				map[string]any{"key": "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match", "operator": g.pick("Exists", "DoesNotExist")}}})
		}
		return map[string]any{"apiVersion": "policy/v1", "kind": kind, "metadata": meta, "spec": spec}
	case "Role", "ClusterRole":
		var rules []any
		for range g.r.IntN(3) {
			rules = append(rules, map[string]any{"apiGroups": []any{g.pick("", "apps", "*")}, "resources": []any{g.pick("pods", "deployments", "*")},
				"verbs": []any{g.pick("get", "list", "*")}})
		}
		return map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": meta, "rules": rules}
	}
	ref := map[string]any{"kind": g.pick("Role", "ClusterRole"), "name": g.pick("reader", "system:aggregate-to-edit", "Any_Name")}
	if kind == "ClusterRoleBinding" {
		ref["kind"] = "ClusterRole"
	}
	if g.chance(0.5) {
		ref["apiGroup"] = "rbac.authorization.k8s.io"
	}
	var subjects []any
	for range g.r.IntN(3) {
		switch g.r.IntN(3) {
		case 0:
			s := map[string]any{"kind": "ServiceAccount", "name": g.pick("default", "builder")}
			if g.chance(0.5) {
				s["namespace"] = g.pick("ns1", "other")
			}
			subjects = append(subjects, s)
		default:
			s := map[string]any{"kind": g.pick("User", "Group"), "name": g.pick("alice@example.com", "system:authenticated", "Dev Team")}
			if g.chance(0.5) {
				s["apiGroup"] = "rbac.authorization.k8s.io"
			}
			subjects = append(subjects, s)
		}
	}
	return map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": meta, "roleRef": ref, "subjects": subjects}
}

// policyRBACRules are messages the generated cases must reach.
var policyRBACRules = map[string][]string{
	"ClusterRole": {
		"verbs: Required value: verbs must contain at least one value",
		"rules cannot apply to both regular resources and non-resource URLs",
		"aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil",
		"aggregationRule.clusterRoleSelectors[0].matchLabels: Invalid value",
		`metadata.generateName: Invalid value: "x%": may not contain '%'`,
		`metadata.name: Invalid value: "a/b": may not contain '/'`,
	},
	"ClusterRoleBinding": {
		`roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"`,
		"subjects[0].namespace: Required value",
		"roleRef.name: Required value",
		`subjects[0].name: Invalid value: "Bad_Name"`,
	},
	"PodDisruptionBudget": {
		`spec: Invalid value: {"MinAvailable":`,
		"minAvailable and maxUnavailable cannot be both set",
		"spec.minAvailable: Invalid value: -1: must be greater than or equal to 0",
		`spec.maxUnavailable: Invalid value: "101%": must not be greater than 100%`,
		`spec.minAvailable: Invalid value: "abc": a valid percent string must be`,
		"spec.selector.matchLabels: Invalid value",
		"spec.selector.matchExpressions[0].operator: Invalid value",
		"spec.selector.matchExpressions[0].values: Required value",
		"spec.selector.matchExpressions[0].values: Forbidden",
		`spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"`,
		"metadata.name: Invalid value",
		"metadata.generateName: Invalid value",
	},
	"Role": {
		"verbs: Required value: verbs must contain at least one value",
		"apiGroups: Required value: resource rules must supply at least one api group",
		"resources: Required value: resource rules must supply at least one resource",
		"nonResourceURLs: Invalid value: [",
		"namespaced rules cannot apply to non-resource URLs",
		"rules cannot apply to both regular resources and non-resource URLs",
		`metadata.name: Invalid value: "..": may not be '..'`,
		`metadata.generateName: Invalid value: ".": may not be '.'`,
		"metadata.finalizers[0]: Invalid value",
	},
	"RoleBinding": {
		`roleRef.apiGroup: Unsupported value: "rbac": supported values: "rbac.authorization.k8s.io"`,
		`roleRef.kind: Unsupported value: "role": supported values: "Role", "ClusterRole"`,
		`roleRef.kind: Unsupported value: ""`,
		"roleRef.name: Required value",
		`roleRef.name: Invalid value: "a/b": may not contain '/'`,
		"subjects[0].name: Required value",
		`subjects[0].name: Invalid value: "Bad_Name"`,
		`apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""`,
		`apiGroup: Unsupported value: "v1": supported values: "rbac.authorization.k8s.io"`,
		`kind: Unsupported value: "group": supported values: "ServiceAccount", "User", "Group"`,
		`metadata.name: Invalid value: "x%y": may not contain '%'`,
	},
}

// TestPolicyRBACValidationParity compares limitcheck's create path for
// PodDisruptionBudgets (VAL-69), Roles (VAL-70) and RoleBindings (VAL-71)
// with kube-apiserver's on random documents: verdict, HTTP status and the
// whole message.
func TestPolicyRBACValidationParity(t *testing.T) {
	g := &policyRBACGen{r: rand.New(rand.NewPCG(*flagPolicyRBACSeed, *flagPolicyRBACSeed^0x6a09e667f3bcc909))}
	p := newParity(t, *flagPolicyRBACSeed)
	for i := 0; i < *flagPolicyRBACCases; i++ {
		var m map[string]any
		kind := g.pick("PodDisruptionBudget", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding").(string)
		switch {
		case g.chance(0.25):
			m = g.valid(kind, i)
		case kind == "PodDisruptionBudget":
			m = g.pdb(i)
		case kind == "Role":
			m = g.role(i)
		case kind == "ClusterRole":
			m = g.clusterRole(i)
		case kind == "ClusterRoleBinding":
			m = g.clusterRoleBinding(i)
		default:
			m = g.roleBinding(i)
		}
		doc, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		want, err := upstreamPolicyRBACCreate(doc, kind, "ns1")
		if err != nil {
			t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
		}
		got, err := minePolicyRBACCreate(doc, kind, "ns1")
		if err != nil {
			t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
		}
		p.compare(i, kind, doc, want, got, kind, policyRBACRules[kind], nil)
	}
	p.finish("PodDisruptionBudgets, Roles, RoleBindings, ClusterRoles and ClusterRoleBindings", *flagPolicyRBACCases,
		[]string{"PodDisruptionBudget", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"}, policyRBACRules)
}
