package conformance

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/apis/core"
	discoveryapi "k8s.io/kubernetes/pkg/apis/discovery"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	"k8s.io/kubernetes/pkg/registry/core/endpoint"
	"k8s.io/kubernetes/pkg/registry/discovery/endpointslice"

	"github.com/limitcheck/limitcheck/internal/eval/features"
)

var (
	flagEpCases = flag.Int("ep-cases", 6000, "number of random Endpoints and EndpointSlices")
	flagEpSeed  = flag.Uint64("ep-seed", 1, "Endpoints and EndpointSlice generator seed")
)

// upstreamEndpointsCreate runs kube-apiserver's code on one v1 Endpoints or
// discovery.k8s.io/v1 EndpointSlice document: decode, defaulting, conversion
// to the internal type, system fields and rest.BeforeCreate with the real
// strategy, for a request of that group and version.
func upstreamEndpointsCreate(doc []byte, kind, namespace string) (rqOutcome, error) {
	var ext, internal runtime.Object
	var strategy rest.RESTCreateStrategy
	apiVersion, resource := "v1", "endpoints"
	switch kind {
	case "Endpoints":
		ext, internal, strategy = &corev1.Endpoints{}, &core.Endpoints{}, endpoint.Strategy
	case "EndpointSlice":
		ext, internal, strategy = &discoveryv1.EndpointSlice{}, &discoveryapi.EndpointSlice{}, endpointslice.Strategy
		apiVersion, resource = "discovery.k8s.io/v1", "endpointslices"
	default:
		return rqOutcome{}, fmt.Errorf("kind %s", kind)
	}
	return upstreamTypedCreate(doc, ext, internal, strategy, nil, apiVersion, resource, namespace)
}

// mineEndpointsCreate admits the same document on a fresh engine, decoded as
// the loader decodes it.
func mineEndpointsCreate(doc []byte, apiVersion, kind, namespace string) (rqOutcome, error) {
	out, _, err := mineTypedCreate(doc, apiVersion, kind, namespace, features.Default())
	return out, err
}

type epGen struct{ r *rand.Rand }

func (g *epGen) chance(p float64) bool { return g.r.Float64() < p }
func (g *epGen) pick(xs ...any) any    { return xs[g.r.IntN(len(xs))] }
func (g *epGen) n(max int, f func() any) []any {
	out := []any{}
	for range g.r.IntN(max + 1) {
		out = append(out, f())
	}
	return out
}

func (g *epGen) meta(i int, prefix string) map[string]any {
	m := map[string]any{}
	switch {
	case g.chance(0.9):
		m["name"] = fmt.Sprintf("%s-%d", prefix, i)
	case g.chance(0.5):
		m["name"] = g.pick("Ext_DB", "a..b", strings.Repeat("a", 254))
	default:
		m["generateName"] = g.pick(prefix+"-", "Bad_")
	}
	if g.chance(0.3) {
		// The controllers' own objects carry no address warnings.
		key, value := "endpoints.kubernetes.io/managed-by", g.pick("endpoint-controller", "helm", "endpointslice-controller.k8s.io")
		if prefix == "eps" {
			key, value = "endpointslice.kubernetes.io/managed-by", g.pick("endpointslice-controller.k8s.io", "endpointslicemirroring-controller.k8s.io", "helm", "endpoint-controller")
		}
		m["labels"] = map[string]any{key: value}
	}
	return m
}

func (g *epGen) ip() string {
	return g.pick("10.0.0.5", "10.0.0.5", "192.168.1.20", "fd00::5", "2001:db8::1", "127.0.0.1", "0.0.0.0", "169.254.169.254",
		"224.0.0.1", "::1", "fe80::1", "010.0.0.5", "2001:DB8::1", "fd00:0:0::5", "10.0.0.5/32", "db.example.com", "::ffff:10.0.0.5", "").(string)
}

func (g *epGen) port(named bool) map[string]any {
	p := map[string]any{}
	if named || g.chance(0.5) {
		p["name"] = g.pick("pg", "http", "", "PG", "a-", "metrics-http-port-x", "web_1")
	}
	if g.chance(0.95) {
		p["port"] = g.pick(5432, 80, 0, -1, 65536, 65535)
	}
	if g.chance(0.3) {
		p["protocol"] = g.pick("TCP", "UDP", "SCTP", "tcp", "HTTP")
	}
	if g.chance(0.2) {
		p["appProtocol"] = g.pick("http", "kubernetes.io/h2c", "Bad App", "a/b/c", "")
	}
	return p
}

func (g *epGen) endpoints(i int) map[string]any {
	addr := func() any {
		a := map[string]any{"ip": g.ip()}
		if g.chance(0.15) {
			a["hostname"] = g.pick("db-0", "DB_0", "")
		}
		if g.chance(0.15) {
			a["nodeName"] = g.pick("node-1", "Node_1", "")
		}
		return a
	}
	subsets := g.n(2, func() any {
		s := map[string]any{}
		if g.chance(0.85) {
			s["addresses"] = g.n(2, addr)
		}
		if g.chance(0.2) {
			s["notReadyAddresses"] = g.n(2, addr)
		}
		if g.chance(0.9) {
			s["ports"] = g.n(3, func() any { return g.port(false) })
		}
		return s
	})
	return map[string]any{"apiVersion": "v1", "kind": "Endpoints", "metadata": g.meta(i, "ep"), "subsets": subsets}
}

func (g *epGen) slice(i int) map[string]any {
	doc := map[string]any{"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "metadata": g.meta(i, "eps")}
	at := g.pick("IPv4", "IPv4", "IPv6", "FQDN", "ipv4", "").(string)
	if at != "" || g.chance(0.5) {
		doc["addressType"] = at
	}
	doc["endpoints"] = g.n(3, func() any {
		e := map[string]any{}
		if g.chance(0.93) {
			e["addresses"] = g.n(2, func() any {
				if g.chance(0.2) {
					return g.pick("db.example.com", "db.example.com.", "Db_Host", strings.Repeat("a", 64)+".com")
				}
				return g.ip()
			})
		}
		if g.chance(0.15) {
			e["hostname"] = g.pick("db-0", "DB_0", "")
		}
		if g.chance(0.15) {
			e["nodeName"] = g.pick("node-1", "Node_1", "")
		}
		if g.chance(0.1) {
			e["zone"] = g.pick("zone-a", "Zone A")
		}
		if g.chance(0.1) {
			e["deprecatedTopology"] = map[string]any{g.pick("topology.kubernetes.io/zone", "a/b/c", "kubernetes.io/hostname").(string): g.pick("x", "-bad-")}
		}
		if g.chance(0.15) {
			h := map[string]any{}
			h["forZones"] = g.n(2, func() any { return map[string]any{"name": g.pick("zone-a", "zone-a", "Zone A", "")} })
			if g.chance(0.5) {
				h["forNodes"] = g.n(2, func() any { return map[string]any{"name": g.pick("node-1", "node-1", "Node_1", "")} })
			}
			if g.chance(0.1) {
				h["forZones"] = g.n(9, func() any { return map[string]any{"name": fmt.Sprintf("z%d", g.r.IntN(1000))} })
			}
			e["hints"] = h
		}
		if g.chance(0.1) {
			e["conditions"] = map[string]any{"ready": g.chance(0.5)}
		}
		return e
	})
	if g.chance(0.85) {
		doc["ports"] = g.n(3, func() any { return g.port(false) })
	}
	return doc
}

// epRules are messages the generated cases must reach: every rule of VAL-85
// and VAL-86.
var epRules = []string{
	// Endpoints (VAL-85)
	"Required value: must specify `addresses` or `notReadyAddresses`",
	".ip: Invalid value: \"127.0.0.1\": may not be in the loopback range (127.0.0.0/8, ::1/128)",
	".ip: Invalid value: \"0.0.0.0\": may not be unspecified (0.0.0.0)",
	".ip: Invalid value: \"169.254.169.254\": may not be in the link-local range (169.254.0.0/16, fe80::/10)",
	".ip: Invalid value: \"224.0.0.1\": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)",
	".ip: Invalid value: \"010.0.0.5\": must not have leading 0s",
	".ip: Invalid value: \"db.example.com\": must be a valid IP address",
	".ip: Invalid value: \"::ffff:10.0.0.5\": must not be an IPv4-mapped IPv6 address",
	".hostname: Invalid value: \"DB_0\"",
	".nodeName: Invalid value: \"Node_1\"",
	"subsets[0].ports[1].name: Required value",
	"ports[0].name: Invalid value: \"PG\"",
	"ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
	"ports[0].protocol: Unsupported value: \"tcp\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
	"appProtocol: Invalid value: \"Bad App\"",
	// EndpointSlice (VAL-86)
	"addressType: Required value",
	"addressType: Unsupported value: \"ipv4\": supported values: \"FQDN\", \"IPv4\", \"IPv6\"",
	".addresses: Required value: must contain at least 1 address",
	".addresses: Invalid value: \"fd00::5\": must be an IPv4 address",
	".addresses: Invalid value: \"10.0.0.5\": must be an IPv6 address",
	".addresses[0]: Invalid value: \"Db_Host\"",
	".addresses[0]: Invalid value: \"127.0.0.1\": may not be in the loopback range",
	"ports[1].name: Duplicate value: \"\"",
	"hints.forZones[1].name: Duplicate value: \"zone-a\"",
	"hints.forZones[0].name: Invalid value: \"Zone A\"",
	"hints.forZones: Too many: ",
	"hints.forNodes[0].name: Invalid value: \"Node_1\"",
	// Both
	"metadata.name: Invalid value: \"Ext_DB\"",
	"metadata.generateName: Invalid value: \"Bad_\"",
}

// TestEndpointsValidationParity compares limitcheck's Endpoints and
// EndpointSlice create path (VAL-85, VAL-86: v1 defaulting, PrepareForCreate,
// validation) with kube-apiserver's on random documents: verdict, HTTP
// status, reason and the whole message.
func TestEndpointsValidationParity(t *testing.T) {
	quietKlog(t) // upstream logs an error for each host name given as an IP
	g := &epGen{r: rand.New(rand.NewPCG(*flagEpSeed, *flagEpSeed^0x51afd7ed558ccd))}
	p := newParity(t, *flagEpSeed)
	for i := 0; i < *flagEpCases; i++ {
		kind, apiVersion, m := "Endpoints", "v1", map[string]any(nil)
		if g.chance(0.5) {
			m = g.endpoints(i)
		} else {
			kind, apiVersion, m = "EndpointSlice", "discovery.k8s.io/v1", g.slice(i)
		}
		doc, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		want, err := upstreamEndpointsCreate(doc, kind, "ns1")
		if err != nil {
			t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
		}
		got, err := mineEndpointsCreate(doc, apiVersion, kind, "ns1")
		if err != nil {
			t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
		}
		p.compare(i, kind, doc, want, got, "", epRules, nil)
	}
	p.finish("Endpoints and EndpointSlices", *flagEpCases, []string{""}, map[string][]string{"": epRules})
}

// quietKlog discards klog's output for the rest of the test: upstream code
// logs what limitcheck reports otherwise.
func quietKlog(t *testing.T) {
	var fs flag.FlagSet
	klog.InitFlags(&fs)
	for k, v := range map[string]string{"logtostderr": "false", "alsologtostderr": "false", "stderrthreshold": "FATAL"} {
		if err := fs.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	klog.SetOutput(io.Discard)
	t.Cleanup(func() {
		_ = fs.Set("logtostderr", "true")
		_ = fs.Set("stderrthreshold", "ERROR")
	})
}
