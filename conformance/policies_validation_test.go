package conformance

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

var (
	flagPolicyCases = flag.Int("policy-cases", 6000, "number of random admission policies and bindings")
	flagPolicySeed  = flag.Uint64("policy-seed", 1, "ValidatingAdmissionPolicy generator seed")
)

// policyGen makes ValidatingAdmissionPolicies and their bindings; rules,
// selectors and match conditions are webhookGen's.
type policyGen struct{ webhookGen }

func (g *policyGen) matchResources(valid bool) map[string]any {
	m := map[string]any{}
	if valid || g.chance(0.85) {
		var rules []any
		for range 1 + g.r.IntN(2) {
			r := g.rule(valid || g.chance(0.6))
			if g.chance(0.2) {
				r["resourceNames"] = g.list(3, "web", "web", "a/b", ".", "..", "x%y", "api")
			}
			rules = append(rules, r)
		}
		m["resourceRules"] = rules
	} else if g.chance(0.5) {
		m["resourceRules"] = []any{}
	}
	if !valid && g.chance(0.2) {
		m["excludeResourceRules"] = []any{g.rule(g.chance(0.5))}
	}
	if g.chance(0.3) {
		if valid {
			m["matchPolicy"] = g.pick("Equivalent", "Exact")
		} else {
			m["matchPolicy"] = g.pick("Equivalent", "Exact", "exact", "")
		}
	}
	if g.chance(0.3) {
		if valid {
			m["namespaceSelector"] = map[string]any{"matchLabels": map[string]any{"team": "a"}}
		} else {
			m["namespaceSelector"] = g.selector()
		}
	}
	if g.chance(0.2) {
		if valid {
			m["objectSelector"] = map[string]any{}
		} else {
			m["objectSelector"] = g.selector()
		}
	}
	return m
}

// Expressions, valid and not: syntax errors, undeclared names (params
// without a paramKind, variables not declared), wrong result types.
var (
	policyConditions = []any{"object.spec.replicas <= 5", "has(object.metadata.labels) && 'team' in object.metadata.labels",
		"object.spec.replicas <= params.maxReplicas", "variables.replicas <= 5", "object.spec.replicas <= 5 &&",
		"object.metadata.name", "  ", "", "authorizer.group('').resource('pods').check('get').allowed()",
		"request.userInfo.username != 'admin'", "variables.nope == 1"}
	policyMessages = []any{"'replicas: ' + string(object.spec.replicas)", "object.spec.replicas", "  ", "'x' +",
		"'limit ' + string(params.maxReplicas)", "'by ' + variables.team", "authorizer.group('').resource('pods').check('get').allowed() ? 'a' : 'b'"}
	policyVariableExprs = []any{"object.spec.replicas", "object.metadata.?labels.team.orValue('none')", "object.", "  ",
		"params.maxReplicas", "variables.replicas * 2", "request.namespace"}
	policyAuditExprs = []any{"'replicas ' + string(object.spec.replicas)", "object.spec.replicas", "  ", "null",
		"string(params.maxReplicas)", "'x' + ", strings.Repeat("x", 5121)}
)

func (g *policyGen) policy(i int) map[string]any {
	valid := g.chance(0.2)
	m := g.meta("policy", i)
	if g.chance(0.05) {
		m["name"] = "quota.static.k8s.io"
	}
	spec := map[string]any{}
	if g.chance(0.4) {
		spec["failurePolicy"] = g.pick("Fail", "Ignore", "fail", "")
	}
	if g.chance(0.35) {
		pk := map[string]any{}
		if g.chance(0.85) {
			pk["apiVersion"] = g.pick("v1", "example.com/v1", "rules.example.com/v1alpha1", "a/b/c", "", "/", "Bad_Group/v1", "example.com/", "example.com/V1", "/v1")
		}
		if g.chance(0.85) {
			pk["kind"] = g.pick("ConfigMap", "ReplicaLimit", "Bad_Kind", "", "my-kind", "1kind")
		}
		spec["paramKind"] = pk
	}
	if valid || g.chance(0.85) {
		spec["matchConstraints"] = g.matchResources(valid)
	}
	if g.chance(0.3) {
		var conds []any
		for range 1 + g.r.IntN(2) {
			c := g.matchCondition()
			if g.chance(0.3) {
				c["expression"] = g.pick(policyConditions...)
			}
			conds = append(conds, c)
		}
		spec["matchConditions"] = conds
	}
	if g.chance(0.4) {
		var vars []any
		for range 1 + g.r.IntN(3) {
			v := map[string]any{}
			if g.chance(0.9) {
				v["name"] = g.pick("replicas", "team", "replicas", "", "1bad", "in", "my-var", " ")
			}
			if g.chance(0.9) {
				v["expression"] = g.pick(policyVariableExprs...)
			}
			vars = append(vars, v)
		}
		spec["variables"] = vars
	}
	if valid || g.chance(0.85) {
		var vals []any
		for range 1 + g.r.IntN(3) {
			v := map[string]any{}
			if g.chance(0.95) {
				v["expression"] = g.pick(policyConditions...)
			}
			if g.chance(0.3) {
				v["message"] = g.pick("too many replicas", "  ", "two\nlines", " trailing ")
			}
			if g.chance(0.3) {
				v["messageExpression"] = g.pick(policyMessages...)
			}
			if g.chance(0.2) {
				v["reason"] = g.pick("Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized", "forbidden", "")
			}
			vals = append(vals, v)
		}
		spec["validations"] = vals
	}
	if g.chance(0.25) {
		n := 1 + g.r.IntN(3)
		if g.chance(0.05) {
			n = 21
		}
		var anns []any
		for j := range n {
			a := map[string]any{}
			if g.chance(0.9) {
				a["key"] = g.pick("replicas", "replicas", "bad key", "", fmt.Sprintf("k%d", j), strings.Repeat("k", 64))
			}
			if g.chance(0.9) {
				a["valueExpression"] = g.pick(policyAuditExprs...)
			}
			anns = append(anns, a)
		}
		spec["auditAnnotations"] = anns
	}
	if valid {
		spec["validations"] = []any{map[string]any{"expression": "object.spec.replicas <= 5", "message": "at most 5 replicas"}}
		delete(spec, "paramKind")
		delete(spec, "matchConditions")
		delete(spec, "variables")
		delete(spec, "auditAnnotations")
		m = map[string]any{"name": g.pick(fmt.Sprintf("policy-%d", i), "replicas.static.k8s.io")}
	}
	return map[string]any{"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy", "metadata": m, "spec": spec}
}

func (g *policyGen) binding(i int) map[string]any {
	m := g.meta("binding", i)
	spec := map[string]any{}
	if g.chance(0.9) {
		spec["policyName"] = g.pick("replicas", "replicas", "Bad_Name", "a..b", strings.Repeat("p", 254))
	}
	if g.chance(0.35) {
		pr := map[string]any{}
		if g.chance(0.6) {
			pr["name"] = g.pick("limits", "a/b", ".", "x%y")
		}
		if g.chance(0.4) {
			pr["selector"] = g.selector()
		}
		if g.chance(0.3) {
			pr["namespace"] = "team-a"
		}
		if g.chance(0.8) {
			pr["parameterNotFoundAction"] = g.pick("Deny", "Allow", "deny", "")
		}
		spec["paramRef"] = pr
	}
	if g.chance(0.3) {
		spec["matchResources"] = g.matchResources(g.chance(0.4))
	}
	if g.chance(0.9) {
		spec["validationActions"] = g.list(3, "Deny", "Deny", "Warn", "Audit", "deny", "")
	}
	return map[string]any{"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicyBinding", "metadata": m, "spec": spec}
}

// Mutation expressions, valid and not: an apply configuration, a JSON
// patch list, wrong result types, syntax errors, params and variables.
var (
	applyConfigExprs = []any{
		`Object{metadata: Object.metadata{labels: {"team": "a"}}}`,
		`Object{spec: Object.spec{replicas: 3}}`,
		`Object{metadata: Object.metadata{labels: {"v": variables.team}}}`,
		`Object{spec: Object.spec{replicas: params.maxReplicas}}`,
		`object.spec`, `Object{`, `  `, `[JSONPatch{op: "add", path: "/a", value: 1}]`,
	}
	jsonPatchExprs = []any{
		`[JSONPatch{op: "add", path: "/metadata/labels/team", value: "a"}]`,
		`[JSONPatch{op: "replace", path: "/spec/replicas", value: variables.replicas}]`,
		`[JSONPatch{op: "test", path: "/spec/replicas", value: params.maxReplicas}]`,
		`JSONPatch{op: "add"}`, `object.spec`, `[JSONPatch{`, `  `, `Object{}`,
	}
)

func (g *policyGen) mutatingPolicy(i int) map[string]any {
	p := g.policy(i)
	spec := p["spec"].(map[string]any)
	delete(spec, "validations")
	delete(spec, "auditAnnotations")
	if mc, ok := spec["matchConstraints"].(map[string]any); ok && g.chance(0.3) {
		if rules, ok := mc["resourceRules"].([]any); ok && len(rules) > 0 {
			rules[0].(map[string]any)["operations"] = g.list(2, "CREATE", "UPDATE", "DELETE", "*", "CONNECT")
		}
	}
	if g.chance(0.9) {
		var ms []any
		for range 1 + g.r.IntN(2) {
			m := map[string]any{}
			if g.chance(0.9) {
				m["patchType"] = g.pick("ApplyConfiguration", "JSONPatch", "JSONPatch", "Strategic", "")
			}
			if g.chance(0.6) {
				m["applyConfiguration"] = map[string]any{"expression": g.pick(applyConfigExprs...)}
			}
			if g.chance(0.5) {
				m["jsonPatch"] = map[string]any{"expression": g.pick(jsonPatchExprs...)}
			}
			ms = append(ms, m)
		}
		spec["mutations"] = ms
	}
	if g.chance(0.8) {
		spec["reinvocationPolicy"] = g.pick("Never", "IfNeeded", "IfNeeded", "never", "")
	}
	meta := p["metadata"]
	if g.chance(0.25) {
		// Valid, but perhaps for its expressions.
		spec = map[string]any{"matchConstraints": g.matchResources(true), "reinvocationPolicy": g.pick("Never", "IfNeeded"),
			"variables": []any{map[string]any{"name": "team", "expression": "'a'"}, map[string]any{"name": "replicas", "expression": "3"}}}
		if g.chance(0.5) {
			spec["mutations"] = []any{map[string]any{"patchType": "ApplyConfiguration", "applyConfiguration": map[string]any{"expression": g.pick(applyConfigExprs[:3]...)}}}
		} else {
			spec["mutations"] = []any{map[string]any{"patchType": "JSONPatch", "jsonPatch": map[string]any{"expression": g.pick(jsonPatchExprs[:2]...)}}}
		}
		meta = map[string]any{"name": g.pick(fmt.Sprintf("mutate-%d", i), "sidecar.static.k8s.io")}
	}
	return map[string]any{"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingAdmissionPolicy", "metadata": meta, "spec": spec}
}

func (g *policyGen) mutatingBinding(i int) map[string]any {
	b := g.binding(i)
	spec := b["spec"].(map[string]any)
	delete(spec, "validationActions")
	if mr, ok := spec["matchResources"].(map[string]any); ok && g.chance(0.4) {
		if rules, ok := mr["resourceRules"].([]any); ok && len(rules) > 0 {
			rules[0].(map[string]any)["operations"] = g.list(2, "CREATE", "DELETE", "*")
		}
	}
	return map[string]any{"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingAdmissionPolicyBinding", "metadata": b["metadata"], "spec": spec}
}

// mutatingPolicyRules are messages the generated MutatingAdmissionPolicies
// and bindings must reach (VAL-108, VAL-109).
var mutatingPolicyRules = []string{
	`spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"`,
	`spec.matchResources.resourceRules.operations: Unsupported value: "DELETE"`,
	`spec.mutations: Required value: mutations must contain at least one item`,
	`.patchType: Required value`,
	`.patchType: Unsupported value: "Strategic": supported values: "ApplyConfiguration", "JSONPatch"`,
	`.jsonPatch: Required value: must be specified when patchType is JSONPatch`,
	`.applyConfiguration: Required value: must be specified when patchType is ApplyConfiguration`,
	`.applyConfiguration: Invalid value: "{applyConfiguration}": must not be specified when patchType is JSONPatch`,
	`.jsonPatch: Invalid value: "{jsonPatch}": must not be specified when patchType is ApplyConfiguration`,
	`.applyConfiguration.expression: Required value`,
	`.jsonPatch.expression: Invalid value: "object.spec"`,
	`.applyConfiguration.expression: Invalid value: "Object{": compilation failed`,
	`undeclared reference to 'params'`,
	`spec.reinvocationPolicy: Required value`,
	`spec.reinvocationPolicy: Unsupported value: "never": supported values: "IfNeeded", "Never"`,
	`spec.variables[0].name: Invalid value: "1bad": must be a valid CEL identifier`,
	`spec.policyName: Required value`,
	`spec.paramRef: Required value: one of name or selector must be specified`,
}

// policyRules are messages the generated cases must reach (VAL-106,
// VAL-107), the compile errors of each kind of expression included.
var policyRules = []string{
	`spec.failurePolicy: Unsupported value: "fail": supported values: "Fail", "Ignore"`,
	`spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
	`spec.paramKind.apiVersion: Required value`,
	`spec.paramKind.apiVersion: Invalid value: "example.com/": version must be specified`,
	`spec.paramKind.kind: Invalid value: "Bad_Kind": may have mixed case, but should otherwise match`,
	`spec.matchConstraints: Required value`,
	`spec.matchConstraints.resourceRules: Required value`,
	`spec.matchConstraints.matchPolicy: Unsupported value: "exact"`,
	`resourceNames[1]: Duplicate value: "web"`,
	`resourceNames[0]: Invalid value: "a/b": may not contain '/'`,
	`spec.variables[0].name: Invalid value: "1bad": must be a valid CEL identifier`,
	`spec.variables[0].name: Required value: name is not specified`,
	`expression: Invalid value: "object.": compilation failed: ERROR: <input>:1:8: Syntax error`,
	`expression: Required value: expression is not specified`,
	`expression: Invalid value: "object.spec.replicas <= params.maxReplicas": compilation failed: ERROR: <input>:1:25: undeclared reference to 'params'`,
	`expression: Invalid value: "variables.nope == 1": compilation failed: ERROR: <input>:1:10: undefined field 'nope'`,
	`expression: Invalid value: "object.metadata.name": must evaluate to bool`,
	`messageExpression: Invalid value: "object.spec.replicas": must evaluate to string`,
	`messageExpression: Invalid value: "  ": must be non-empty if specified`,
	`message: Invalid value: "two\nlines": must not contain line breaks`,
	`reason: Unsupported value: "Unauthorized": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"`,
	`spec.validations: Required value: validations or auditAnnotations must contain at least one item`,
	`valueExpression: Required value: must not exceed 5120 bytes in length`,
	`valueExpression: Required value: valueExpression is not specified`,
	`valueExpression: Invalid value: "object.spec.replicas": must evaluate to one of [string null_type]`,
	`spec.auditAnnotations: Invalid value: [{"Key":`,
	`key: Duplicate value: "replicas"`,
	`spec.policyName: Required value`,
	`spec.paramRef.name: Forbidden: name and selector are mutually exclusive`,
	`spec.paramRef: Required value: one of name or selector must be specified`,
	`spec.paramRef.parameterNotFoundAction: Required value`,
	`spec.paramRef.parameterNotFoundAction: Unsupported value: "deny": supported values: "Deny", "Allow"`,
	`spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn`,
	`spec.validationActions[1]: Duplicate value: "Deny"`,
	`spec.validationActions[0]: Unsupported value: "deny": supported values: "Audit", "Deny", "Warn"`,
	`spec.validationActions: Required value: at least one validation action is required`,
	`metadata.name: Invalid value`,
}

// TestPolicyValidationParity compares limitcheck's create path for
// ValidatingAdmissionPolicies and their bindings (VAL-106, VAL-107: v1
// defaulting, PrepareForCreate, validation with the expressions compiled)
// with kube-apiserver's on random documents: verdict, HTTP status, the
// whole message and the warnings.
func TestPolicyValidationParity(t *testing.T) {
	g := &policyGen{webhookGen{policyRBACGen{r: rand.New(rand.NewPCG(*flagPolicySeed, *flagPolicySeed^0x3c6ef372fe94f82b))}}}
	p := newParity(t, *flagPolicySeed)
	staticWarned := 0
	for i := 0; i < *flagPolicyCases; i++ {
		kind := "ValidatingAdmissionPolicy"
		m := map[string]any(nil)
		switch x := g.r.Float64(); {
		case x < 0.2:
			kind, m = "ValidatingAdmissionPolicyBinding", g.binding(i)
		case x < 0.5:
			m = g.policy(i)
		case x < 0.6:
			kind, m = "MutatingAdmissionPolicyBinding", g.mutatingBinding(i)
		default:
			kind, m = "MutatingAdmissionPolicy", g.mutatingPolicy(i)
		}
		group := "validating"
		if strings.HasPrefix(kind, "Mutating") {
			group = "mutating"
		}
		doc, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		want, err := upstreamClusterCreate(doc, kind)
		if err != nil {
			t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
		}
		got, _, err := mineClusterCreate(doc, kind)
		if err != nil {
			t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
		}
		p.compare(i, kind, doc, want, got, group, map[string][]string{"validating": policyRules, "mutating": mutatingPolicyRules}[group], nil)
		if !slices.Equal(want.warnings, got.warnings) {
			t.Errorf("case %d: warnings: upstream %q, limitcheck %q\n%s", i, want.warnings, got.warnings, doc)
		}
		if strings.Contains(strings.Join(want.warnings, "\n"), "static manifest-based") {
			staticWarned++
		}
	}
	if staticWarned == 0 {
		t.Errorf("no generated case gets the static-suffix warning")
	}
	p.finish("admission policies and bindings", *flagPolicyCases, []string{"validating", "mutating"}, map[string][]string{"validating": policyRules, "mutating": mutatingPolicyRules})
}
