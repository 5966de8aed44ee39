package conformance

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/apis/networking"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/networkpolicy"

	"github.com/limitcheck/limitcheck/internal/eval/features"
)

var (
	flagNetCases = flag.Int("net-cases", 8000, "number of random Ingresses and NetworkPolicies")
	flagNetSeed  = flag.Uint64("net-seed", 1, "Ingress and NetworkPolicy generator seed")
)

// upstreamNetworkingCreate runs kube-apiserver's code on one Ingress or
// NetworkPolicy document: decode into networking.k8s.io/v1, its defaulting,
// conversion to the internal type, name generation, system fields and
// rest.BeforeCreate with the real strategy (PrepareForCreate, Validate).
func upstreamNetworkingCreate(doc []byte, kind, namespace string) (rqOutcome, error) {
	var ext, internal runtime.Object
	var strategy rest.RESTCreateStrategy
	resource := "ingresses"
	switch kind {
	case "Ingress":
		ext, internal, strategy = &networkingv1.Ingress{}, &networking.Ingress{}, ingress.Strategy
	case "NetworkPolicy":
		ext, internal, strategy = &networkingv1.NetworkPolicy{}, &networking.NetworkPolicy{}, networkpolicy.Strategy
		resource = "networkpolicies"
	default:
		return rqOutcome{}, fmt.Errorf("kind %s", kind)
	}
	return upstreamTypedCreate(doc, ext, internal, strategy, nil, "networking.k8s.io/v1", resource, namespace)
}

// mineNetworkingCreate admits the same document on a fresh engine, decoded
// as the loader decodes it: by jsondec, or encoding/json where it declines.
func mineNetworkingCreate(doc []byte, kind, namespace string, gates features.Gates) (rqOutcome, error) {
	out, _, err := mineTypedCreate(doc, "networking.k8s.io/v1", kind, namespace, gates)
	return out, err
}

type netGen struct{ r *rand.Rand }

func (g *netGen) chance(p float64) bool { return g.r.Float64() < p }
func (g *netGen) pick(xs ...any) any    { return xs[g.r.IntN(len(xs))] }

// n returns up to max elements made by f, none as often as one.
func (g *netGen) n(max int, f func() any) []any {
	out := []any{}
	for range g.r.IntN(max + 1) {
		out = append(out, f())
	}
	return out
}

func (g *netGen) meta(i int, prefix string) map[string]any {
	m := map[string]any{}
	switch {
	case g.chance(0.9):
		m["name"] = fmt.Sprintf("%s-%d", prefix, i)
	case g.chance(0.5):
		m["name"] = g.pick("Bad_Name", "a..b", strings.Repeat("a", 254), "-x")
	case g.chance(0.7):
		m["generateName"] = g.pick(prefix+"-", "Bad_")
	}
	if g.chance(0.1) {
		m["labels"] = map[string]any{"app": g.pick("web", "-bad-", strings.Repeat("v", 64))}
	}
	if g.chance(0.05) {
		m["generation"] = g.pick(-1, 3)
	}
	return m
}

// Ingresses.

func (g *netGen) host() string {
	return g.pick("example.com", "foo.example.com", "*.example.com", "*.*.example.com", "foo.*.com", "*", "*example.com",
		"1.2.3.4", "::1", "010.1.1.1", "Example.com", "a..b", "-a.com", strings.Repeat("a", 64)+".com", "a_b.com", "").(string)
}

func (g *netGen) backend() map[string]any {
	b := map[string]any{}
	svc, res := g.chance(0.8), g.chance(0.12)
	if !svc && !res && g.chance(0.7) {
		svc = true
	}
	if svc {
		s := map[string]any{}
		if g.chance(0.93) {
			s["name"] = g.pick("web", "web", "api-v2", "1web", "Web", "web_1", "web.svc", strings.Repeat("w", 64), "-web")
		}
		port := map[string]any{}
		if g.chance(0.55) {
			port["number"] = g.pick(80, 8080, 65535, 0, -1, 65536)
		}
		if g.chance(0.4) {
			port["name"] = g.pick("http", "https", "HTTP", "a-", "1234", "web-http-port-xy", "", "a--b")
		}
		if g.chance(0.95) {
			s["port"] = port
		}
		b["service"] = s
	}
	if res {
		r := map[string]any{}
		if g.chance(0.5) {
			r["apiGroup"] = g.pick("k8s.example.com", "", "Bad_Group", "a..b")
		}
		if g.chance(0.9) {
			r["kind"] = g.pick("StorageBucket", "a/b", "..", "x%y", "")
		}
		if g.chance(0.9) {
			r["name"] = g.pick("static", "a/b", ".", "", "Upper")
		}
		b["resource"] = r
	}
	return b
}

func (g *netGen) httpPath() map[string]any {
	p := map[string]any{}
	if g.chance(0.88) {
		p["pathType"] = g.pick("Prefix", "Prefix", "Exact", "ImplementationSpecific", "prefix", "", "Regex")
	}
	if g.chance(0.9) {
		p["path"] = g.pick("/", "/api", "/api/v1", "api", "", "/a//b", "/a/./b", "/a/../b", "/a%2fb", "/a%2Fb", "/a/..", "/a/.",
			"/.", "/..", "//", "/./", "*", "/v1/*", "/(.*)").(string)
	}
	if g.chance(0.95) {
		p["backend"] = g.backend()
	}
	return p
}

func (g *netGen) ingressRule() map[string]any {
	r := map[string]any{}
	if g.chance(0.7) {
		r["host"] = g.host()
	}
	if g.chance(0.9) {
		h := map[string]any{}
		if g.chance(0.93) {
			h["paths"] = g.n(3, func() any { return g.httpPath() })
			if len(h["paths"].([]any)) == 0 && g.chance(0.7) {
				h["paths"] = []any{g.httpPath()}
			}
		}
		r["http"] = h
	}
	return r
}

// validIngress is an Ingress kube-apiserver admits, as charts write them.
func (g *netGen) validIngress(i int) map[string]any {
	path := map[string]any{"path": g.pick("/", "/api", "/static/v1").(string), "pathType": g.pick("Prefix", "Exact", "ImplementationSpecific"),
		"backend": map[string]any{"service": map[string]any{"name": "web", "port": g.pick(map[string]any{"number": 80}, map[string]any{"name": "http"})}}}
	spec := map[string]any{"rules": []any{map[string]any{"host": g.pick("example.com", "*.example.com"), "http": map[string]any{"paths": []any{path}}}}}
	if g.chance(0.5) {
		spec["ingressClassName"] = "nginx"
	}
	if g.chance(0.4) {
		spec["tls"] = []any{map[string]any{"hosts": []any{"example.com"}, "secretName": "web-tls"}}
	}
	return map[string]any{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": map[string]any{"name": fmt.Sprintf("ing-%d", i)}, "spec": spec}
}

func (g *netGen) ingress(i int) map[string]any {
	if g.chance(0.2) {
		return g.validIngress(i)
	}
	meta := g.meta(i, "ing")
	spec := map[string]any{}
	if g.chance(0.25) {
		spec["defaultBackend"] = g.backend()
	}
	if g.chance(0.85) {
		spec["rules"] = g.n(3, func() any { return g.ingressRule() })
	}
	if g.chance(0.3) {
		spec["tls"] = g.n(2, func() any {
			t := map[string]any{}
			if g.chance(0.8) {
				t["hosts"] = g.n(2, func() any { return g.host() })
			}
			if g.chance(0.8) {
				t["secretName"] = g.pick("web-tls", "", "Bad_Secret", "a..b", "tls.example.com")
			}
			return t
		})
	}
	if g.chance(0.3) {
		spec["ingressClassName"] = g.pick("nginx", "nginx", "Nginx", "a_b", "", "traefik.io")
	}
	if g.chance(0.15) {
		meta["annotations"] = map[string]any{"kubernetes.io/ingress.class": g.pick("nginx", "traefik", "")}
	}
	doc := map[string]any{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": meta, "spec": spec}
	if g.chance(0.05) {
		doc["status"] = map[string]any{"loadBalancer": map[string]any{"ingress": []any{map[string]any{"ip": "not an ip"}}}}
	}
	return doc
}

// NetworkPolicies.

func (g *netGen) selector() map[string]any {
	s := map[string]any{}
	if g.chance(0.6) {
		s["matchLabels"] = map[string]any{g.pick("app", "a/b/c", "-k", "example.com/tier").(string): g.pick("web", "", "-v", strings.Repeat("v", 64))}
	}
	if g.chance(0.35) {
		s["matchExpressions"] = g.n(2, func() any {
			e := map[string]any{"key": g.pick("app", "Bad Key", "tier"), "operator": g.pick("In", "NotIn", "Exists", "DoesNotExist", "Equals", "")}
			if g.chance(0.6) {
				e["values"] = g.n(2, func() any { return g.pick("web", "-bad-", "db") })
			}
			return e
		})
	}
	return s
}

func (g *netGen) cidr() string {
	return g.pick("10.0.0.0/8", "10.0.0.0/8", "192.168.1.0/24", "172.16.0.0/12", "fd00::/8", "2001:db8::/32", "0.0.0.0/0",
		"10.0.0.1/8", "010.0.0.0/8", "10.0.0.0/08", "::ffff:10.0.0.0/104", "10.0.0.0", "10.0.0.0/33", "not-a-cidr", "").(string)
}

func (g *netGen) except() string {
	return g.pick("10.1.0.0/16", "10.0.0.0/8", "10.0.0.0/24", "192.168.1.128/25", "192.168.2.0/24", "11.0.0.0/16", "fd00:1::/32",
		"10.1.0.1/16", "010.1.0.0/16", "bogus", "10.0.0.0/7", "").(string)
}

func (g *netGen) peer() map[string]any {
	p := map[string]any{}
	if g.chance(0.45) {
		p["podSelector"] = g.selector()
	}
	if g.chance(0.35) {
		p["namespaceSelector"] = g.selector()
	}
	if g.chance(0.4) {
		b := map[string]any{}
		if g.chance(0.95) {
			b["cidr"] = g.cidr()
		}
		if g.chance(0.5) {
			b["except"] = g.n(2, func() any { return g.except() })
		}
		p["ipBlock"] = b
	}
	return p
}

func (g *netGen) policyPort() map[string]any {
	p := map[string]any{}
	if g.chance(0.35) {
		p["protocol"] = g.pick("TCP", "UDP", "SCTP", "tcp", "ICMP", "")
	}
	if g.chance(0.85) {
		if g.chance(0.65) {
			p["port"] = g.pick(80, 443, 8080, 32000, 0, -1, 65535, 65536)
		} else {
			p["port"] = g.pick("http", "dns-tcp", "HTTP", "a--b", "-a", "1234", "sixteen-chars-xx", "")
		}
	}
	if g.chance(0.3) {
		p["endPort"] = g.pick(80, 443, 8080, 32768, 79, 0, 65535, 65536)
	}
	return p
}

func (g *netGen) policyRule(peers string) map[string]any {
	r := map[string]any{}
	if g.chance(0.6) {
		r["ports"] = g.n(2, func() any { return g.policyPort() })
	}
	if g.chance(0.7) {
		r[peers] = g.n(2, func() any { return g.peer() })
	}
	return r
}

// validNetworkPolicy is a NetworkPolicy kube-apiserver admits.
func (g *netGen) validNetworkPolicy(i int) map[string]any {
	spec := map[string]any{"podSelector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
		"ingress": []any{map[string]any{"from": []any{map[string]any{"podSelector": map[string]any{}}},
			"ports": []any{map[string]any{"port": 8080, "endPort": g.pick(8080, 8090)}}}}}
	if g.chance(0.5) {
		spec["egress"] = []any{map[string]any{"to": []any{map[string]any{"ipBlock": map[string]any{"cidr": "10.0.0.0/8", "except": []any{"10.1.0.0/16"}}}},
			"ports": []any{map[string]any{"protocol": "UDP", "port": 53}}}}
	}
	if g.chance(0.3) {
		spec["policyTypes"] = []any{"Ingress", "Egress"}
	}
	return map[string]any{"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": map[string]any{"name": fmt.Sprintf("np-%d", i)}, "spec": spec}
}

func (g *netGen) networkPolicy(i int) map[string]any {
	if g.chance(0.2) {
		return g.validNetworkPolicy(i)
	}
	spec := map[string]any{}
	if g.chance(0.85) {
		spec["podSelector"] = g.selector()
	}
	if g.chance(0.7) {
		spec["ingress"] = g.n(2, func() any { return g.policyRule("from") })
	}
	if g.chance(0.5) {
		spec["egress"] = g.n(2, func() any { return g.policyRule("to") })
	}
	if g.chance(0.35) {
		spec["policyTypes"] = g.n(3, func() any { return g.pick("Ingress", "Egress", "ingress", "") })
	}
	return map[string]any{"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": g.meta(i, "np"), "spec": spec}
}

// netRules are messages the generated cases must reach: every rule of
// VAL-66 and VAL-68, with and without a value.
var netRules = []string{
	// Ingress (VAL-66)
	"spec: Invalid value: null: either `defaultBackend` or `rules` must be specified",
	"spec: Invalid value: []: either `defaultBackend` or `rules` must be specified",
	"pathType: Required value: pathType must be specified",
	"pathType: Unsupported value: \"prefix\": supported values: \"Exact\", \"ImplementationSpecific\", \"Prefix\"",
	".path: Invalid value: \"api\": must be an absolute path",
	"must not contain '//'",
	"must not contain '/./'",
	"must not contain '/../'",
	"must not contain '%2f'",
	"must not contain '%2F'",
	"cannot end with '/..'",
	"cannot end with '/.'",
	".http.paths: Required value",
	".host: Invalid value: \"1.2.3.4\": must be a DNS name, not an IP address",
	".host: Invalid value: \"::1\": must be a DNS name, not an IP address",
	".host: Invalid value: \"010.1.1.1\": must be a DNS name, not an IP address",
	".host: Invalid value: \"*.*.example.com\": a wildcard DNS-1123 subdomain must start with '*.'",
	".host: Invalid value: \"Example.com\": a lowercase RFC 1123 subdomain",
	"hosts[0]: Invalid value: \"foo.*.com\": a wildcard DNS-1123 subdomain",
	"hosts[1]: Invalid value",
	"backend: Invalid value: \"\": cannot set both resource and service backends",
	"backend: Invalid value: \"\": resource or service backend is required",
	"backend: Invalid value: \"\": cannot set both port name & port number",
	"backend: Required value: port name or number is required",
	"defaultBackend: Required value: port name or number is required",
	"backend.service.name: Required value",
	"backend.service.name: Invalid value: \"Web\": a lowercase RFC 1123 label",
	"backend.service.name: Invalid value: \"1web\": a DNS-1035 label",
	"backend.service.port.name: Invalid value: \"HTTP\": must contain at least one letter",
	"backend.service.port.name: Invalid value: \"1234\": must contain at least one letter",
	"backend.service.port.name: Invalid value: \"web-http-port-xy\": must be no more than 15 characters",
	"backend.service.port.number: Invalid value: 65536: must be between 1 and 65535, inclusive",
	"backend.service.port.number: Invalid value: -1: must be between 1 and 65535, inclusive",
	"backend.resource.kind: Required value",
	"backend.resource.name: Required value",
	"backend.resource.kind: Invalid value: \"a/b\": may not contain '/'",
	"backend.resource.name: Invalid value: \".\": may not be '.'",
	"backend.resource.apiGroup: Invalid value: \"Bad_Group\"",
	"secretName: Invalid value: \"Bad_Secret\": a lowercase RFC 1123 subdomain",
	"spec.ingressClassName: Invalid value: \"Nginx\"",
	"spec.ingressClassName: Invalid value: \"\"",
	"annotations.kubernetes.io/ingress.class: Invalid value: \"traefik\": must match `ingressClassName` when both are specified",
	// NetworkPolicy (VAL-68)
	"protocol: Unsupported value: \"tcp\": supported values: \"TCP\", \"UDP\", \"SCTP\"",
	"protocol: Unsupported value: \"\"",
	".port: Invalid value: 0: must be between 1 and 65535, inclusive",
	".port: Invalid value: 65536: must be between 1 and 65535, inclusive",
	"endPort: Invalid value: 8080: must be greater than or equal to `port`",
	"endPort: Invalid value: 65536: must be between 1 and 65535, inclusive",
	"endPort: Invalid value: 80: may not be specified when `port` is non-numeric",
	"endPort: Invalid value: 79: may not be specified when `port` is not specified",
	".port: Invalid value: \"a--b\": must not contain consecutive hyphens",
	".port: Invalid value: \"HTTP\": must contain at least one letter",
	".port: Invalid value: \"sixteen-chars-xx\": must be no more than 15 characters",
	"from[0]: Required value: must specify a peer",
	"to[1]: Required value: must specify a peer",
	"Forbidden: may not specify both ipBlock and another peer",
	"ipBlock.cidr: Required value",
	"ipBlock.cidr: Invalid value: \"not-a-cidr\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)",
	"ipBlock.cidr: Invalid value: \"10.0.0.1/8\": must not have bits set beyond the prefix length",
	"ipBlock.cidr: Invalid value: \"010.0.0.0/8\": must not have leading 0s in IP or prefix length",
	"ipBlock.cidr: Invalid value: \"::ffff:10.0.0.0/104\": must not have an IPv4-mapped IPv6 address",
	"ipBlock.except[0]: Invalid value: \"10.0.0.0/8\": must be a strict subset of `cidr`",
	"ipBlock.except[0]: Invalid value: \"11.0.0.0/16\": must be a strict subset of `cidr`",
	"ipBlock.except[0]: Invalid value: \"10.0.0.0/7\": must be a strict subset of `cidr`",
	"ipBlock.except[0]: Invalid value: \"fd00:1::/32\": must be a strict subset of `cidr`",
	"Invalid value: \"bogus\": must be a valid CIDR value",
	"Invalid value: \"010.1.0.0/16\": must not have leading 0s in IP or prefix length",
	"spec.policyTypes: Invalid value: [",
	"may not specify more than two policyTypes",
	"spec.policyTypes[0]: Unsupported value: \"ingress\": supported values: \"Ingress\", \"Egress\"",
	"podSelector.matchLabels: Invalid value: \"a/b/c\"",
	"podSelector.matchLabels: Invalid value: \"-v\"",
	"namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
	"matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
	"matchExpressions[0].operator: Invalid value: \"Equals\": not a valid selector operator",
	"matchExpressions[0].key: Invalid value: \"Bad Key\"",
	// Both
	"metadata.name: Invalid value: \"Bad_Name\"",
	"metadata.generateName: Invalid value: \"Bad_\"",
	"metadata.labels: Invalid value: \"-bad-\"",
}

// TestNetworkingValidationParity compares limitcheck's Ingress and
// NetworkPolicy create path (VAL-65..VAL-68: v1 defaulting,
// PrepareForCreate, validation) with kube-apiserver's on random
// networking.k8s.io/v1 documents: verdict, HTTP status, reason and the whole
// message.
func TestNetworkingValidationParity(t *testing.T) {
	g := &netGen{r: rand.New(rand.NewPCG(*flagNetSeed, *flagNetSeed^0x9e3779b97f4a7c15))}
	p := newParity(t, *flagNetSeed)
	defer func() {
		if err := SetGates(map[string]bool{"RelaxedServiceNameValidation": true}); err != nil {
			t.Error(err)
		}
	}()
	for i := 0; i < *flagNetCases; i++ {
		// The gate Ingress backends read, on (its 1.36 default) most often.
		relaxed := !g.chance(0.2)
		if err := SetGates(map[string]bool{"RelaxedServiceNameValidation": relaxed}); err != nil {
			t.Fatal(err)
		}
		gates := features.Default()
		gates.Set(features.RelaxedServiceNameValidation, relaxed)
		var m map[string]any
		kind := "Ingress"
		if g.chance(0.5) {
			m = g.ingress(i)
		} else {
			kind = "NetworkPolicy"
			m = g.networkPolicy(i)
		}
		doc, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		want, err := upstreamNetworkingCreate(doc, kind, "ns1")
		if err != nil {
			t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
		}
		got, err := mineNetworkingCreate(doc, kind, "ns1", gates)
		if err != nil {
			t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
		}
		p.compare(i, kind, doc, want, got, "", netRules, nil)
	}
	p.finish("Ingresses and NetworkPolicies", *flagNetCases, []string{""}, map[string][]string{"": netRules})
}
