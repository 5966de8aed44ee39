package conformance

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kube-aggregator/pkg/apis/apiregistration/install"
)

var (
	flagAPIServiceCases = flag.Int("apiservice-cases", 3000, "number of random APIServices")
	flagAPIServiceSeed  = flag.Uint64("apiservice-seed", 1, "APIService generator seed")
)

var aggregatorScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
}()

func apiServiceDoc(r *rand.Rand) map[string]any {
	pick := func(xs ...any) any { return xs[r.IntN(len(xs))] }
	chance := func(p float64) bool { return r.Float64() < p }
	if chance(0.25) {
		// valid: a remote one (metrics-server's) or a local one
		spec := map[string]any{"group": "metrics.k8s.io", "version": "v1beta1", "groupPriorityMinimum": pick(1, 100, 20000), "versionPriority": pick(1, 100, 1000)}
		if chance(0.7) {
			spec["service"] = map[string]any{"name": "metrics-server", "namespace": "kube-system", "port": pick(443, 1, 65535)}
			if chance(0.5) {
				spec["insecureSkipTLSVerify"] = true
			} else {
				spec["caBundle"] = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t"
			}
		}
		return map[string]any{"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService", "metadata": map[string]any{"name": "v1beta1.metrics.k8s.io"}, "spec": spec}
	}
	group := pick("metrics.k8s.io", "custom.metrics.k8s.io", "", "Bad_Group", "example.com").(string)
	version := pick("v1beta1", "v1", "v2", "1beta", "V1", "").(string)
	spec := map[string]any{"group": group, "version": version,
		"groupPriorityMinimum": pick(100, 1000, 20000, 20001, 0, -1), "versionPriority": pick(100, 15, 1000, 1001, 0)}
	if chance(0.75) {
		svc := map[string]any{}
		if chance(0.9) {
			svc["name"] = pick("metrics-server", "", "adapter")
		}
		if chance(0.9) {
			svc["namespace"] = pick("kube-system", "", "monitoring")
		}
		if chance(0.3) {
			svc["port"] = pick(443, 6443, 0, 70000, -1)
		}
		spec["service"] = svc
	}
	if chance(0.3) {
		spec["insecureSkipTLSVerify"] = true
	}
	if chance(0.3) {
		spec["caBundle"] = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t" // base64
	}
	meta := map[string]any{}
	switch {
	case chance(0.7):
		meta["name"] = version + "." + group
	case chance(0.5):
		meta["name"] = pick("v1beta1.metrics.k8s.io", "a/b", "..", "wrong")
	case chance(0.7):
		meta["generateName"] = pick("v1beta1.", "x%")
	}
	if chance(0.05) {
		meta["finalizers"] = []any{pick("custom", "example.com/f")}
	}
	if chance(0.05) {
		meta["labels"] = map[string]any{"bad key!": "x"}
	}
	return map[string]any{"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService", "metadata": meta, "spec": spec}
}

var apiServiceRules = []string{
	"must be `spec.version+\".\"+spec.group`",
	`metadata.name: Invalid value: "a/b": may not contain '/'`,
	"spec.group: Required value: only v1 may have an empty group and it better be legacy kube",
	`spec.group: Invalid value: "Bad_Group"`,
	`spec.version: Invalid value: "1beta"`,
	"spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000",
	"spec.groupPriorityMinimum: Invalid value: 20001",
	"spec.versionPriority: Invalid value: 1001: must be positive and less than 1000",
	`spec.caBundle: Invalid value: "27 bytes": local APIServices may not have a caBundle`,
	"spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify",
	"spec.service.namespace: Required value",
	"spec.service.name: Required value",
	"spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive",
	"spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present",
	"metadata.name: Required value: name or generateName is required",
	`metadata.labels: Invalid value: "bad key!"`,
}

// TestAPIServiceValidationParity compares limitcheck's create path for
// APIServices (VAL-92) with the aggregator's on random documents.
func TestAPIServiceValidationParity(t *testing.T) {
	r := rand.New(rand.NewPCG(*flagAPIServiceSeed, *flagAPIServiceSeed^0xa54ff53a5f1d36f1))
	p := newParity(t, *flagAPIServiceSeed)
	for i := 0; i < *flagAPIServiceCases; i++ {
		doc, err := json.Marshal(apiServiceDoc(r))
		if err != nil {
			t.Fatal(err)
		}
		want, err := upstreamClusterCreate(doc, "APIService")
		if err != nil {
			t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
		}
		got, _, err := mineClusterCreate(doc, "APIService")
		if err != nil {
			t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
		}
		p.compare(i, "APIService", doc, want, got, "", apiServiceRules, nil)
	}
	p.finish("APIServices", *flagAPIServiceCases, []string{""}, map[string][]string{"": apiServiceRules})
}
