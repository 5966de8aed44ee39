package conformance

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap"
)

var (
	flagFlowCases = flag.Int("flowcontrol-cases", 5000, "number of random FlowSchemas and PriorityLevelConfigurations")
	flagFlowSeed  = flag.Uint64("flowcontrol-seed", 1, "flowcontrol generator seed")
)

type flowGen struct{ storageGen }

func (g *flowGen) list(max int, f func() any) []any {
	out := []any{}
	for range g.r.IntN(max + 1) {
		out = append(out, f())
	}
	return out
}

// The mandatory objects' specs as a manifest would give them.
func mandatoryRules(groups ...string) []any {
	var subjects []any
	for _, g := range groups {
		subjects = append(subjects, map[string]any{"kind": "Group", "group": map[string]any{"name": g}})
	}
	return []any{map[string]any{
		"subjects":         subjects,
		"resourceRules":    []any{map[string]any{"verbs": []any{"*"}, "apiGroups": []any{"*"}, "resources": []any{"*"}, "namespaces": []any{"*"}, "clusterScope": true}},
		"nonResourceRules": []any{map[string]any{"verbs": []any{"*"}, "nonResourceURLs": []any{"*"}}},
	}}
}

func (g *flowGen) subject() any {
	if g.chance(0.6) {
		return g.pick(
			map[string]any{"kind": "Group", "group": map[string]any{"name": "system:authenticated"}},
			map[string]any{"kind": "User", "user": map[string]any{"name": "alice"}},
			map[string]any{"kind": "ServiceAccount", "serviceAccount": map[string]any{"name": g.pick("default", "*", "controller"), "namespace": "kube-system"}},
		)
	}
	switch g.r.IntN(8) {
	case 0:
		return map[string]any{"kind": g.pick("Group", "User", "ServiceAccount")}
	case 1:
		return map[string]any{"kind": "Group", "group": map[string]any{"name": ""}, "user": map[string]any{"name": "x"}}
	case 2:
		return map[string]any{"kind": "User", "user": map[string]any{}, "serviceAccount": map[string]any{"name": "x", "namespace": "y"}}
	case 3:
		sa := map[string]any{}
		if g.chance(0.7) {
			sa["name"] = g.pick("", "Bad_SA", "ok")
		}
		if g.chance(0.7) {
			sa["namespace"] = g.pick("", "Bad_NS", "a.b", "ok")
		}
		return map[string]any{"kind": "ServiceAccount", "serviceAccount": sa, "group": map[string]any{"name": "g"}}
	case 4:
		return map[string]any{"kind": g.pick("group", "Bogus", ""), "user": map[string]any{"name": "x"}}
	default:
		return map[string]any{"kind": "Group", "group": map[string]any{"name": "system:serviceaccounts"}}
	}
}

func (g *flowGen) verbs() any {
	return g.pick([]any{"get", "list", "watch"}, []any{"*"}, []any{"create"}, []any{}, []any{"*", "get"}, []any{"get", "fly"}, []any{"GET"})
}

func (g *flowGen) resourceRule() any {
	r := map[string]any{"verbs": g.verbs()}
	r["apiGroups"] = g.pick([]any{""}, []any{"apps"}, []any{"*"}, []any{}, []any{"*", "apps"}, []any{"", "apps"})
	r["resources"] = g.pick([]any{"pods"}, []any{"*"}, []any{}, []any{"*", "pods"}, []any{"deployments", "replicasets"})
	if g.chance(0.3) {
		r["clusterScope"] = true
	}
	if g.chance(0.85) {
		r["namespaces"] = g.pick([]any{"*"}, []any{"default"}, []any{}, []any{"*", "default"}, []any{"Bad_NS"}, []any{"ok", "a.b"}, []any{"kube-system", "default"})
	}
	return r
}

func (g *flowGen) nonResourceRule() any {
	return map[string]any{"verbs": g.verbs(), "nonResourceURLs": g.pick(
		[]any{"/healthz"}, []any{"*"}, []any{"/apis/*"}, []any{}, []any{"*", "/x"}, []any{"healthz"}, []any{"/a b"},
		[]any{"/a//b"}, []any{"/a*"}, []any{""}, []any{"/"}, []any{"/*/x/*"}, []any{"/version", "/livez", "bad"})}
}

func (g *flowGen) rule() any {
	if g.chance(0.5) { // a valid rule, as most are
		return map[string]any{
			"subjects":      []any{map[string]any{"kind": "ServiceAccount", "serviceAccount": map[string]any{"name": "*", "namespace": "monitoring"}}},
			"resourceRules": []any{map[string]any{"verbs": []any{"list", "watch"}, "apiGroups": []any{"", "apps"}, "resources": []any{"pods", "deployments"}, "namespaces": []any{"*"}}},
		}
	}
	r := map[string]any{"subjects": g.list(2, g.subject)}
	if g.chance(0.8) {
		r["resourceRules"] = g.list(2, g.resourceRule)
	}
	if g.chance(0.4) {
		r["nonResourceRules"] = g.list(2, g.nonResourceRule)
	}
	return r
}

func (g *flowGen) flowSchema(i int) map[string]any {
	meta := g.meta(i, "fs", false)
	spec := map[string]any{}
	if g.chance(0.08) {
		meta = map[string]any{"name": g.pick("exempt", "catch-all")}
		if g.chance(0.6) {
			if meta["name"] == "exempt" {
				spec = map[string]any{"priorityLevelConfiguration": map[string]any{"name": "exempt"}, "matchingPrecedence": 1, "rules": mandatoryRules("system:masters")}
			} else {
				spec = map[string]any{"priorityLevelConfiguration": map[string]any{"name": "catch-all"}, "matchingPrecedence": 10000,
					"distinguisherMethod": map[string]any{"type": "ByUser"}, "rules": mandatoryRules("system:unauthenticated", "system:authenticated")}
			}
			if g.chance(0.3) {
				spec["matchingPrecedence"] = 9999
			}
			return map[string]any{"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema", "metadata": meta, "spec": spec}
		}
	}
	if g.chance(0.6) {
		spec["matchingPrecedence"] = g.pick(500, 1, 0, -5, 10000, 10001, 9000)
	}
	if g.chance(0.4) {
		spec["distinguisherMethod"] = map[string]any{"type": g.pick("ByUser", "ByNamespace", "byUser", "")}
	}
	if g.chance(0.95) {
		spec["priorityLevelConfiguration"] = map[string]any{"name": g.pick("workload-low", "global-default", "", "Bad_PL", "exempt")}
	}
	if g.chance(0.9) {
		spec["rules"] = g.list(3, g.rule)
	}
	return map[string]any{"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema", "metadata": meta, "spec": spec}
}

func (g *flowGen) queuing() any {
	q := map[string]any{}
	if g.chance(0.6) {
		q["queues"] = g.pick(64, 0, -1, 10000001, 128, 10000000, 1, 8)
	}
	if g.chance(0.6) {
		q["handSize"] = g.pick(8, 0, -1, 65, 10, 11, 200, 64, 1)
	}
	if g.chance(0.5) {
		q["queueLengthLimit"] = g.pick(50, 0, -1)
	}
	return q
}

func (g *flowGen) limited() map[string]any {
	l := map[string]any{}
	if g.chance(0.5) {
		l["nominalConcurrencyShares"] = g.pick(30, 0, -1, 100)
	}
	if g.chance(0.4) {
		l["lendablePercent"] = g.pick(0, 50, 100, 101, -1)
	}
	if g.chance(0.3) {
		l["borrowingLimitPercent"] = g.pick(0, 100, 300, -1)
	}
	lr := map[string]any{}
	switch g.r.IntN(6) {
	case 0:
		lr["type"] = "Reject"
		if g.chance(0.3) {
			lr["queuing"] = g.queuing()
		}
	case 1:
		if g.chance(0.5) {
			lr["type"] = g.pick("", "Bogus", "queue")
		}
	default:
		lr["type"] = "Queue"
		if g.chance(0.9) {
			lr["queuing"] = g.queuing()
		}
	}
	l["limitResponse"] = lr
	return l
}

func (g *flowGen) exempt() map[string]any {
	e := map[string]any{}
	if g.chance(0.5) {
		e["nominalConcurrencyShares"] = g.pick(0, 10, -1)
	}
	if g.chance(0.5) {
		e["lendablePercent"] = g.pick(0, 50, 101, -3)
	}
	return e
}

func (g *flowGen) priorityLevel(i int) map[string]any {
	meta := g.meta(i, "pl", false)
	if g.chance(0.03) {
		meta["annotations"] = map[string]any{"flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares": "true"}
	}
	spec := map[string]any{}
	if g.chance(0.1) {
		meta["name"] = g.pick("exempt", "catch-all")
		delete(meta, "generateName")
		if g.chance(0.6) {
			if meta["name"] == "exempt" {
				spec = map[string]any{"type": "Exempt"}
				if g.chance(0.5) {
					spec["exempt"] = g.exempt()
				}
			} else {
				spec = map[string]any{"type": "Limited", "limited": map[string]any{"nominalConcurrencyShares": g.pick(5, 5, 6),
					"limitResponse": map[string]any{"type": "Reject"}}}
			}
			return map[string]any{"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "PriorityLevelConfiguration", "metadata": meta, "spec": spec}
		}
	}
	switch r := g.r.Float64(); {
	case r < 0.7:
		spec["type"] = "Limited"
		if g.chance(0.93) {
			spec["limited"] = g.limited()
		}
		if g.chance(0.05) {
			spec["exempt"] = g.exempt()
		}
	case r < 0.85:
		spec["type"] = "Exempt"
		if g.chance(0.6) {
			spec["exempt"] = g.exempt()
		}
		if g.chance(0.1) {
			spec["limited"] = g.limited()
		}
	default:
		if g.chance(0.6) {
			spec["type"] = g.pick("", "limited", "Bogus")
		}
		if g.chance(0.3) {
			spec["limited"] = g.limited()
		}
	}
	return map[string]any{"apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "PriorityLevelConfiguration", "metadata": meta, "spec": spec}
}

// bootstrapFlowcontrol are the names of the flow-control objects
// kube-apiserver's APF configuration creates, by kind.
var bootstrapFlowcontrol = func() map[string]map[string]bool {
	m := map[string]map[string]bool{"FlowSchema": {}, "PriorityLevelConfiguration": {}}
	for _, fs := range append(bootstrap.MandatoryFlowSchemas, bootstrap.SuggestedFlowSchemas...) {
		m["FlowSchema"][fs.Name] = true
	}
	for _, pl := range append(bootstrap.MandatoryPriorityLevelConfigurations, bootstrap.SuggestedPriorityLevelConfigurations...) {
		m["PriorityLevelConfiguration"][pl.Name] = true
	}
	return m
}()

// flowRules are messages of rules the generator must reach.
var flowRules = []string{
	`metadata.name: Invalid value: "Bad_Name"`,
	"spec.matchingPrecedence: Invalid value: -5: must be a positive value",
	"spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000",
	"spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
	`spec.distinguisherMethod.type: Unsupported value: {"Type":"byUser"}: supported values: "ByNamespace", "ByUser"`,
	"spec.priorityLevelConfiguration.name: Required value: must reference a priority level",
	`spec.priorityLevelConfiguration.name: Invalid value: "Bad_PL"`,
	"subjects: Required value: subjects must contain at least one value",
	"Required value: at least one of resourceRules and nonResourceRules has to be non-empty",
	"group: Required value: group is required when subject kind is 'Group'",
	"user: Required value: user is required when subject kind is 'User'",
	"serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'",
	"group.name: Required value",
	"user.name: Required value",
	"serviceAccount.name: Required value",
	`serviceAccount.name: Invalid value: "Bad_SA"`,
	"serviceAccount.namespace: Required value: must specify namespace for service account",
	`serviceAccount.namespace: Invalid value: "a.b"`,
	"user: Forbidden: user is forbidden when subject kind is not 'User'",
	"group: Forbidden: group is forbidden when subject kind is not 'Group'",
	"serviceAccount: Forbidden: serviceAccount is forbidden when subject kind is not 'ServiceAccount'",
	`kind: Unsupported value: "group": supported values: "Group", "ServiceAccount", "User"`,
	"verbs: Required value: verbs must contain at least one value",
	`verbs: Invalid value: ["*","get"]: if '*' is present, must not specify other verbs`,
	`verbs: Unsupported value: ["get","fly"]: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"`,
	"apiGroups: Required value: resource rules must supply at least one api group",
	"if '*' is present, must not specify other api groups",
	"resources: Required value: resource rules must supply at least one resource",
	"if '*' is present, must not specify other resources",
	"namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace",
	"if '*' is present, must not specify other namespaces",
	`Invalid value: "Bad_NS": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label`,
	"nonResourceURLs: Required value: nonResourceURLs must contain at least one value",
	"if '*' is present, must not specify other non-resource URLs",
	`Invalid value: "healthz": must start with slash`,
	`Invalid value: "/a b": must not contain white-space`,
	`Invalid value: "/a//b": must not contain double slash`,
	`Invalid value: "/a*": wildcard can only do suffix matching`,
	`Invalid value: "": must not be empty`,
	"spec: Invalid value: {\"PriorityLevelConfiguration\":",
	`flowschemas.flowcontrol.apiserver.k8s.io "catch-all" already exists`,
	`prioritylevelconfigurations.flowcontrol.apiserver.k8s.io "exempt" already exists`,
	"must equal the fixed value",
	"metadata.annotations: Forbidden: annotation 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares' is forbidden",
	"spec.type: Invalid value: \"Limited\": must be 'Exempt' if and only if `name` is 'exempt'",
	"spec.type: Invalid value: \"Exempt\": must be 'Exempt' if and only if `name` is 'exempt'",
	"spec.limited: Forbidden: must be nil if the type is not Limited",
	"spec.exempt: Forbidden: must be nil if the type is Limited",
	"spec.limited: Required value: must not be empty when type is Limited",
	"spec.type: Required value",
	`spec.type: Unsupported value: "limited": supported values: "Exempt", "Limited"`,
	"spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer",
	"spec.exempt.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer",
	"spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive",
	"spec.exempt.lendablePercent: Invalid value: -3: must be between 0 and 100, inclusive",
	"spec.limited.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer",
	"spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited",
	"spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Limited",
	"spec.limited.limitResponse.type: Required value",
	`spec.limited.limitResponse.type: Unsupported value: "queue": supported values: "Queue", "Reject"`,
	"queuing.queueLengthLimit: Invalid value: -1: must be positive",
	"queuing.queues: Invalid value: -1: must be positive",
	"queuing.queues: Invalid value: 10000001: must not be greater than 10000000",
	"queuing.handSize: Invalid value: -1: must be positive",
	"queuing.handSize: Invalid value: 65: should not be greater than queues (64)",
	"queuing.handSize: Invalid value: 11: required entropy bits of deckSize 64 and handSize 11 should not be greater than 60",
}

// TestFlowcontrolValidationParity compares limitcheck's create path for
// FlowSchemas and PriorityLevelConfigurations (VAL-101..VAL-103) with
// kube-apiserver's on random documents: verdict, HTTP status and the whole
// message.
func TestFlowcontrolValidationParity(t *testing.T) {
	quietKlog(t) // upstream logs where its declarative checks differ
	g := &flowGen{storageGen{r: rand.New(rand.NewPCG(*flagFlowSeed, *flagFlowSeed^0x6a09e667f3bcc909))}}
	p := newParity(t, *flagFlowSeed)
	for i := 0; i < *flagFlowCases; i++ {
		var m map[string]any
		if g.chance(0.5) {
			m = g.flowSchema(i)
		} else {
			m = g.priorityLevel(i)
		}
		kind := m["kind"].(string)
		doc, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		want, err := upstreamClusterCreate(doc, kind)
		if err != nil {
			t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
		}
		if name, _ := m["metadata"].(map[string]any)["name"].(string); want.allowed && bootstrapFlowcontrol[kind][name] {
			// Valid, then storage's 409: every cluster holds the object.
			want = statusOutcome(apierrors.NewAlreadyExists(schema.GroupResource{Group: "flowcontrol.apiserver.k8s.io", Resource: clusterKinds[kind].resource}, name))
		}
		got, _, err := mineClusterCreate(doc, kind)
		if err != nil {
			t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
		}
		p.compare(i, kind, doc, want, got, "", flowRules, nil)
	}
	p.finish("FlowSchemas and PriorityLevelConfigurations", *flagFlowCases, []string{""}, map[string][]string{"": flowRules})
}
