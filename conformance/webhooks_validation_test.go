package conformance

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	_ "k8s.io/kubernetes/pkg/apis/admissionregistration/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
)

var (
	flagWebhookCases = flag.Int("webhook-cases", 6000, "number of random webhook configurations and IngressClasses")
	flagWebhookSeed  = flag.Uint64("webhook-seed", 1, "webhook configuration and IngressClass generator seed")
)

// webhookGen makes webhook configurations and IngressClasses; the metadata
// and label selectors are policyRBACGen's.
type webhookGen struct{ policyRBACGen }

// list returns up to max elements drawn from xs; nil (absent) as often as
// not when empty is false.
func (g *webhookGen) list(max int, xs ...any) []any {
	out := []any{}
	for range 1 + g.r.IntN(max) {
		out = append(out, g.pick(xs...))
	}
	return out
}

func (g *webhookGen) clientConfig(valid bool) map[string]any {
	cc := map[string]any{}
	service := func() map[string]any {
		s := map[string]any{"name": "hooks", "namespace": "system"}
		if !valid {
			if g.chance(0.15) {
				delete(s, "name")
			}
			if g.chance(0.15) {
				delete(s, "namespace")
			}
			if g.chance(0.2) {
				s["port"] = g.pick(0, -1, 65536, 8443, 443, 1, 65535)
			}
			if g.chance(0.4) {
				s["path"] = g.pick("", "/", "//", "/validate", "validate", "/a//b", "/Mutate_Pods", "/v1/validate/", "/a/b.c/", "///", "/a..b")
			}
		} else if g.chance(0.5) {
			s["path"] = g.pick("/", "/validate", "/v1/mutate-pods/")
			if g.chance(0.3) {
				s["port"] = 8443
			}
		}
		return s
	}
	url := func() string {
		if valid {
			return g.pick("https://hooks.example.com/validate", "https://10.0.0.1:8443", "https://hooks.example.com").(string)
		}
		return g.pick("https://hooks.example.com/validate", "http://hooks.example.com", "https://", "https://user:pw@hooks.example.com/",
			"https://hooks.example.com/#frag", "https://hooks.example.com/?q=1", "://bad", "hooks.example.com/validate",
			"https://hooks.example.com:port/", "", "https://[::1", "ftp://x?y#z").(string)
	}
	switch {
	case valid || g.chance(0.85):
		if g.chance(0.6) {
			cc["service"] = service()
		} else {
			cc["url"] = url()
		}
	case g.chance(0.5):
		cc["service"], cc["url"] = service(), url()
	}
	if g.chance(0.3) {
		cc["caBundle"] = g.pick("Zm9v", "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==")
	}
	return cc
}

func (g *webhookGen) rule(valid bool) map[string]any {
	if valid {
		r := map[string]any{"operations": []any{g.pick("CREATE", "UPDATE", "*")}, "apiGroups": []any{g.pick("", "apps", "*")},
			"apiVersions": []any{g.pick("v1", "*")}, "resources": []any{g.pick("pods", "deployments", "*", "pods/status", "*/scale", "*/*")}}
		if g.chance(0.4) {
			r["scope"] = g.pick("*", "Cluster", "Namespaced")
		}
		return r
	}
	r := map[string]any{}
	if g.chance(0.85) {
		r["operations"] = g.list(3, "CREATE", "UPDATE", "*", "DELETE", "CONNECT", "create", "", "PATCH")
	}
	if g.chance(0.85) {
		r["apiGroups"] = g.list(2, "", "apps", "*", "batch")
	}
	if g.chance(0.85) {
		r["apiVersions"] = g.list(2, "v1", "*", "", "v1beta1")
	}
	if g.chance(0.9) {
		r["resources"] = g.list(4, "pods", "pods/*", "pods/status", "*/status", "*/*", "*", "", "deployments", "pods/", "*/scale")
	}
	if g.chance(0.3) {
		r["scope"] = g.pick("*", "Cluster", "Namespaced", "", "cluster")
	}
	return r
}

func (g *webhookGen) matchCondition() map[string]any {
	m := map[string]any{}
	if g.chance(0.9) {
		m["name"] = g.pick("exclude-leases", "exclude-leases", "", "Bad Name", "example.com/rule", "-x", "a/b/c")
	}
	if g.chance(0.9) {
		// Expressions that compile and the mistakes the compiler refuses
		// (VAL-83): syntax, params (not declared for webhooks), not a bool.
		m["expression"] = g.pick("true", "  object != null ", "", "   ", "request.userInfo.username != 'admin'",
			"!(request.resource.group == 'coordination.k8s.io' && request.resource.resource == 'leases')",
			"authorizer.group('').resource('pods').check('get').allowed()",
			"object.metadata.name ==", "params.enabled", " request.userInfo.username ", "request.kind.kind = 'Pod'")
	}
	return m
}

// webhook is one webhook; valid ones are admitted by kube-apiserver (when
// the names in the configuration differ).
func (g *webhookGen) webhook(mutating, valid bool, i int) map[string]any {
	w := map[string]any{"name": fmt.Sprintf("hook%d.example.com", i), "clientConfig": g.clientConfig(valid),
		"sideEffects": g.pick("None", "NoneOnDryRun"), "admissionReviewVersions": []any{g.pick("v1", "v1beta1")}}
	var rules []any
	for range g.r.IntN(3) {
		rules = append(rules, g.rule(valid))
	}
	if rules != nil {
		w["rules"] = rules
	}
	if valid {
		if g.chance(0.3) {
			w["failurePolicy"] = g.pick("Fail", "Ignore")
			w["matchPolicy"] = g.pick("Exact", "Equivalent")
			w["timeoutSeconds"] = g.pick(1, 5, 30)
		}
		if g.chance(0.2) {
			w["namespaceSelector"] = map[string]any{"matchExpressions": []any{map[string]any{"key": "control-plane", "operator": "DoesNotExist"}}}
		}
		if mutating && g.chance(0.3) {
			w["reinvocationPolicy"] = g.pick("Never", "IfNeeded")
		}
		if g.chance(0.2) {
			w["matchConditions"] = []any{map[string]any{"name": "not-leases", "expression": "true"}}
		}
		return w
	}
	if g.chance(0.15) {
		w["name"] = g.pick("", "webhook", "two.parts", "Bad_Name.example.com", "a..b.c", "hook.example.com.", strings.Repeat("a", 250)+".b.c")
	}
	if g.chance(0.15) {
		w["failurePolicy"] = g.pick("Fail", "Ignore", "fail", "")
	}
	if g.chance(0.15) {
		w["matchPolicy"] = g.pick("Exact", "Equivalent", "exact", "")
	}
	if g.chance(0.2) {
		if g.chance(0.3) {
			delete(w, "sideEffects")
		} else {
			w["sideEffects"] = g.pick("None", "Some", "Unknown", "", "NoneOnDryRun", "none")
		}
	}
	if g.chance(0.2) {
		w["timeoutSeconds"] = g.pick(0, -5, 1, 10, 30, 31, 60)
	}
	if g.chance(0.15) {
		w["namespaceSelector"] = g.selector()
	}
	if g.chance(0.15) {
		w["objectSelector"] = g.selector()
	}
	if g.chance(0.2) {
		if g.chance(0.2) {
			delete(w, "admissionReviewVersions")
		} else {
			w["admissionReviewVersions"] = g.list(3, "v1", "v1beta1", "v2", "V1", "1v", "", "v1")
		}
	}
	if mutating && g.chance(0.2) {
		w["reinvocationPolicy"] = g.pick("Never", "IfNeeded", "Always", "")
	}
	if g.chance(0.2) {
		var mcs []any
		for range 1 + g.r.IntN(3) {
			mcs = append(mcs, g.matchCondition())
		}
		if g.chance(0.05) {
			mcs = nil
			for j := range g.pick(64, 65).(int) {
				mcs = append(mcs, map[string]any{"name": fmt.Sprintf("c%d", j), "expression": "true"})
			}
		}
		w["matchConditions"] = mcs
	}
	return w
}

func (g *webhookGen) webhookConfiguration(kind string, valid bool, i int) map[string]any {
	meta := g.meta("hooks", i)
	if valid {
		meta = map[string]any{"name": fmt.Sprintf("hooks-%d", i)}
		if g.chance(0.2) {
			meta = map[string]any{"generateName": "hooks-"}
		}
	}
	if g.chance(0.1) {
		meta["namespace"] = g.pick("ns1", "Bad_NS")
	}
	var hooks []any
	for j := range g.r.IntN(4) {
		h := g.webhook(kind == "MutatingWebhookConfiguration", valid, j)
		if !valid && j > 0 && g.chance(0.1) {
			h["name"] = "hook0.example.com" // a duplicate
		}
		hooks = append(hooks, h)
	}
	obj := map[string]any{"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind, "metadata": meta}
	if hooks != nil {
		obj["webhooks"] = hooks
	}
	return obj
}

func (g *webhookGen) ingressClass(valid bool, i int) map[string]any {
	meta := g.meta("ic", i)
	if valid {
		meta = map[string]any{"name": fmt.Sprintf("ic-%d", i)}
	}
	spec := map[string]any{"controller": "k8s.io/ingress-nginx"}
	obj := map[string]any{"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass", "metadata": meta, "spec": spec}
	if valid {
		if g.chance(0.5) {
			p := map[string]any{"kind": "IngressParameters", "name": "external"}
			if g.chance(0.5) {
				p["apiGroup"] = "k8s.example.com"
			}
			if g.chance(0.5) {
				p["scope"], p["namespace"] = "Namespace", "ingress"
			}
			spec["parameters"] = p
		}
		return obj
	}
	if g.chance(0.4) {
		spec["controller"] = g.pick("", "nginx", "k8s.io/", "/ingress", "Bad_Host/x", "example.com/bad path", "example.com/a/b",
			"example.com/"+strings.Repeat("c", 240), "a-.b/c", "example.com/ok:1",
			// 250 and 251 bytes: either side of the limit
			"example.com/"+strings.Repeat("c", 238), "example.com/"+strings.Repeat("c", 239))
	}
	if g.chance(0.1) {
		delete(spec, "controller")
	}
	if g.chance(0.6) {
		p := map[string]any{}
		if g.chance(0.4) {
			p["apiGroup"] = g.pick("k8s.example.com", "", "Bad_Group", "example.com/v1")
		}
		if g.chance(0.85) {
			p["kind"] = g.pick("IngressParameters", "IngressParameters", "a/b", "..", "x%y")
		}
		if g.chance(0.85) {
			p["name"] = g.pick("external", "external", "a/b", ".", "Any Name")
		}
		if g.chance(0.6) {
			p["scope"] = g.pick("Cluster", "Namespace", "Namespace", "namespace", "")
		}
		if g.chance(0.5) {
			p["namespace"] = g.pick("ingress", "Bad_NS", "", strings.Repeat("n", 64))
		}
		spec["parameters"] = p
	}
	return obj
}

// webhookRules are messages the generated cases must reach.
var webhookRules = map[string][]string{
	"webhooks": {
		`webhooks[0].name: Required value`,
		`should be a domain with at least three segments separated by dots`,
		`name: Invalid value: "Bad_Name.example.com": a lowercase RFC 1123 subdomain`,
		`name: Duplicate value: "hook0.example.com"`,
		`operations: Required value`,
		`operations: Invalid value: [`,
		`if '*' is present, must not specify other operations`,
		`Unsupported value: "create": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"`,
		`apiGroups: Required value`,
		`if '*' is present, must not specify other API groups`,
		`apiVersions: Required value`,
		`if '*' is present, must not specify other API versions`,
		`apiVersions[0]: Required value`,
		`resources: Required value`,
		`resources[0]: Required value`,
		`if 'pods/*' is present, must not specify pods/status`,
		`if '*/status' is present, must not specify pods/status`,
		`if '*/*' is present, must not specify other resources`,
		`if '*' is present, must not specify other resources without subresources`,
		`scope: Unsupported value: "cluster": supported values: "*", "Cluster", "Namespaced"`,
		`failurePolicy: Unsupported value: "fail": supported values: "Fail", "Ignore"`,
		`matchPolicy: Unsupported value: "": supported values: "Equivalent", "Exact"`,
		`sideEffects: Required value: must specify one of None, NoneOnDryRun`,
		`sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"`,
		`timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds`,
		`timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds`,
		`namespaceSelector.matchExpressions[0].operator: Invalid value`,
		`objectSelector.matchLabels: Invalid value`,
		`reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"`,
		`clientConfig: Required value: exactly one of url or service is required`,
		`url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
		`url: Invalid value: "": host must be specified; desired format: https://host[/path]`,
		`user information is not permitted in the URL`,
		`fragments are not permitted in the URL`,
		`query parameters are not permitted in the URL`,
		`url: Required value: url must be a valid URL: parse`,
		`service.name: Required value`,
		`service.namespace: Required value`,
		`service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive`,
		`service.path: Invalid value: "//": segment[0] may not be empty`,
		`service.path: Invalid value: "validate": must start with a '/'`,
		`service.path: Invalid value: "/a//b": segment[1] may not be empty`,
		`service.path: Invalid value: "/Mutate_Pods": segment[0]: a lowercase RFC 1123 subdomain`,
		`matchConditions: Too many: 65: must have at most 64 items`,
		`expression: Required value`,
		`expression: Invalid value: "object.metadata.name ==": compilation failed: ERROR: <input>:1:`,
		`expression: Invalid value: "params.enabled": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'`,
		`expression: Invalid value: "request.userInfo.username": must evaluate to bool`,
		`matchConditions[0].name: Required value`,
		`name: Invalid value: "Bad Name": name part must consist of`,
		`matchConditions[1].name: Duplicate value: "exclude-leases"`,
		`admissionReviewVersions: Required value: must specify one of v1, v1beta1`,
		`duplicate version`,
		`admissionReviewVersions[0]: Invalid value: "V1": a DNS-1035 label must consist of`,
		`must include at least one of v1, v1beta1`,
		`metadata.name: Invalid value`,
		`metadata.generateName: Invalid value`,
		`metadata.finalizers: Invalid value`,
	},
	"IngressClass": {
		`spec.controller: Required value`,
		`spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")`,
		`spec.controller: Invalid value: "Bad_Host": a lowercase RFC 1123 subdomain`,
		`spec.controller: Invalid value: "bad path": Invalid path (regex used for validation is`,
		`spec.controller: Too long: may not be more than 250 bytes`,
		`spec.parameters.apiGroup: Invalid value: "Bad_Group"`,
		`spec.parameters.kind: Required value`,
		`spec.parameters.kind: Invalid value: "a/b": may not contain '/'`,
		`spec.parameters.name: Required value`,
		`spec.parameters.name: Invalid value: ".": may not be '.'`,
		`spec.parameters.scope: Unsupported value: "namespace": supported values: "Cluster", "Namespace"`,
		`spec.parameters.namespace: Required value: ` + "`parameters.scope` is set to 'Namespace'",
		`spec.parameters.namespace: Invalid value: "Bad_NS"`,
		`spec.parameters.namespace: Forbidden: ` + "`parameters.scope` is set to 'Cluster'",
		`metadata.name: Invalid value`,
	},
}

// TestWebhookIngressClassValidationParity compares limitcheck's create path
// for ValidatingWebhookConfigurations and MutatingWebhookConfigurations
// (VAL-79..VAL-83) and IngressClasses (VAL-84) with kube-apiserver's on
// random documents: verdict, HTTP status and the whole message.
func TestWebhookIngressClassValidationParity(t *testing.T) {
	g := &webhookGen{policyRBACGen{r: rand.New(rand.NewPCG(*flagWebhookSeed, *flagWebhookSeed^0xbb67ae8584caa73b))}}
	p := newParity(t, *flagWebhookSeed)
	for i := 0; i < *flagWebhookCases; i++ {
		kind := g.pick("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration", "IngressClass").(string)
		valid := g.chance(0.25)
		var m map[string]any
		group := "webhooks"
		if kind == "IngressClass" {
			m, group = g.ingressClass(valid, i), kind
		} else {
			m = g.webhookConfiguration(kind, valid, i)
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
		if valid && !want.allowed {
			t.Errorf("case %d: a document generated as valid is refused upstream: %s\n%s", i, want.message, doc)
		}
		p.compare(i, kind, doc, want, got, group, webhookRules[group], nil)
	}
	p.finish("webhook configurations and IngressClasses", *flagWebhookCases, []string{"webhooks", "IngressClass"}, webhookRules)
}
