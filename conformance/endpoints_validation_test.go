package conformance

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/registry/core/endpoint"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/features"
)

var (
	flagEndpointsCases = flag.Int("endpoints-cases", 3000, "number of random Endpoints")
	flagEndpointsSeed  = flag.Uint64("endpoints-seed", 1, "Endpoints generator seed")
)

// upstreamEndpointsCreate runs kube-apiserver's create path on Endpoints.
func upstreamEndpointsCreate(doc []byte, namespace string) (rqOutcome, error) {
	ext := &corev1.Endpoints{}
	if err := json.Unmarshal(doc, ext); err != nil {
		return rqOutcome{}, err
	}
	legacyscheme.Scheme.Default(ext)
	internal := &api.Endpoints{}
	if err := legacyscheme.Scheme.Convert(ext, internal, nil); err != nil {
		return rqOutcome{}, err
	}
	if internal.Namespace == "" {
		internal.Namespace = namespace
	}
	if internal.GenerateName != "" && internal.Name == "" {
		internal.Name = internal.GenerateName + eval.GeneratedNameSuffix
	}
	ctx := genericapirequest.WithRequestInfo(genericapirequest.WithNamespace(context.Background(), internal.Namespace), &genericapirequest.RequestInfo{IsResourceRequest: true, Verb: "create",
		APIVersion: "v1", Namespace: internal.Namespace, Resource: "endpoints", Name: internal.Name})
	rest.FillObjectMetaSystemFields(internal)
	return statusOutcome(rest.BeforeCreate(endpoint.Strategy, ctx, internal)), nil
}

func mineEndpointsCreate(doc []byte, namespace string) (rqOutcome, error) {
	obj := eval.NewObject("v1", "Endpoints")
	if obj == nil {
		return rqOutcome{}, fmt.Errorf("eval.NewObject has no type for Endpoints")
	}
	if err := json.Unmarshal(doc, obj); err != nil {
		return rqOutcome{}, err
	}
	out, _ := admitOutcome(obj, namespace, features.Gates{})
	return out, nil
}

func endpointsDoc(r *rand.Rand, i int) map[string]any {
	pick := func(xs ...any) any { return xs[r.IntN(len(xs))] }
	chance := func(p float64) bool { return r.Float64() < p }
	address := func() map[string]any {
		a := map[string]any{"ip": pick("10.0.0.12", "10.0.0.13", "2001:db8::1", "127.0.0.1", "0.0.0.0", "169.254.1.1", "224.0.0.5", "010.1.2.3", "db.example.com", "", "::1", "fe80::1")}
		if chance(0.2) {
			a["hostname"] = pick("db-0", "DB_1", "")
		}
		if chance(0.15) {
			a["nodeName"] = pick("node-1", "Node_1")
		}
		return a
	}
	var subsets []any
	for range r.IntN(3) {
		ss := map[string]any{}
		if chance(0.85) {
			var as []any
			for range 1 + r.IntN(2) {
				as = append(as, address())
			}
			ss["addresses"] = as
		}
		if chance(0.2) {
			ss["notReadyAddresses"] = []any{address()}
		}
		var ps []any
		for range r.IntN(3) {
			p := map[string]any{"port": pick(5432, 80, 0, 70000)}
			if chance(0.6) {
				p["name"] = pick("db", "http", "Web_Port", "")
			}
			if chance(0.3) {
				p["protocol"] = pick("TCP", "UDP", "tcp", "HTTP")
			}
			if chance(0.1) {
				p["appProtocol"] = pick("http", "kubernetes.io/h2c", "bad proto!")
			}
			ps = append(ps, p)
		}
		if ps != nil {
			ss["ports"] = ps
		}
		subsets = append(subsets, ss)
	}
	meta := map[string]any{"name": fmt.Sprintf("ep-%d", i)}
	if chance(0.05) {
		meta["name"] = pick("Bad_Name", "a.b")
	}
	doc := map[string]any{"apiVersion": "v1", "kind": "Endpoints", "metadata": meta}
	if subsets != nil {
		doc["subsets"] = subsets
	}
	return doc
}

var endpointsRules = []string{
	"Required value: must specify `addresses` or `notReadyAddresses`",
	`ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)`,
	`ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)`,
	`ip: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)`,
	`ip: Invalid value: "224.0.0.5": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)`,
	`ip: Invalid value: "010.1.2.3": must not have leading 0s`,
	`ip: Invalid value: "db.example.com": must be a valid IP address`,
	`hostname: Invalid value: "DB_1"`,
	`nodeName: Invalid value: "Node_1"`,
	"name: Required value",
	`name: Invalid value: "Web_Port"`,
	"port: Invalid value: 0: must be between 1 and 65535, inclusive",
	`protocol: Unsupported value: "tcp"`,
	`appProtocol: Invalid value: "bad proto!"`,
	`metadata.name: Invalid value: "Bad_Name"`,
}

// TestEndpointsValidationParity compares limitcheck's create path for
// Endpoints (VAL-93) with kube-apiserver's on random documents.
func TestEndpointsValidationParity(t *testing.T) {
	r := rand.New(rand.NewPCG(*flagEndpointsSeed, *flagEndpointsSeed^0x9b05688c2b3e6c1f))
	p := newParity(t, *flagEndpointsSeed)
	for i := 0; i < *flagEndpointsCases; i++ {
		doc, err := json.Marshal(endpointsDoc(r, i))
		if err != nil {
			t.Fatal(err)
		}
		want, err := upstreamEndpointsCreate(doc, "ns1")
		if err != nil {
			t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
		}
		got, err := mineEndpointsCreate(doc, "ns1")
		if err != nil {
			t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
		}
		p.compare(i, "Endpoints", doc, want, got, "", endpointsRules, nil)
	}
	p.finish("Endpoints", *flagEndpointsCases, []string{""}, map[string][]string{"": endpointsRules})
}
