package conformance

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

var (
	flagNamespaceCases = flag.Int("namespace-cases", 3000, "number of random Namespaces")
	flagNamespaceSeed  = flag.Uint64("namespace-seed", 1, "Namespace generator seed")
)

func namespaceDoc(r *rand.Rand, i int) map[string]any {
	pick := func(xs ...any) any { return xs[r.IntN(len(xs))] }
	chance := func(p float64) bool { return r.Float64() < p }
	meta := map[string]any{}
	switch {
	case chance(0.7):
		meta["name"] = fmt.Sprintf("team-%d", i)
	case chance(0.6):
		meta["name"] = pick("Team_B", "team.a", "-team", strings.Repeat("t", 64), "a/b", "..")
	case chance(0.8):
		meta["generateName"] = pick("team-", "Team-", "t.", strings.Repeat("g", 60))
	}
	if chance(0.15) {
		meta["labels"] = map[string]any{pick("team", "bad key!", "kubernetes.io/metadata.name").(string): pick("a", "platform team", strings.Repeat("v", 64))}
	}
	if chance(0.08) {
		meta["annotations"] = map[string]any{pick("owner", "Bad Key").(string): "x"}
	}
	if chance(0.08) {
		meta["finalizers"] = []any{pick("kubernetes", "example.com/cleanup", "custom")}
	}
	if chance(0.05) {
		meta["namespace"] = "ns1"
	}
	doc := map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": meta}
	if chance(0.2) {
		doc["spec"] = map[string]any{"finalizers": []any{pick("kubernetes", "custom", "example.com/x", "a/b/c", "")}}
	}
	if chance(0.05) {
		doc["status"] = map[string]any{"phase": pick("Active", "Terminating")}
	}
	return doc
}

var namespaceRules = []string{
	`metadata.name: Invalid value: "Team_B": a lowercase RFC 1123 label must consist of`,
	"must be no more than 63 characters",
	`metadata.generateName: Invalid value: "Team-"`,
	`metadata.labels: Invalid value: "platform team"`,
	`metadata.labels: Invalid value: "bad key!"`,
	`metadata.annotations: Invalid value: "Bad Key"`,
	`spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified`,
	`metadata.finalizers[0]: Invalid value: "custom"`,
	"metadata.name: Required value: name or generateName is required",
}

// TestNamespaceValidationParity compares limitcheck's create path for
// Namespaces (NS-03) with kube-apiserver's on random documents.
func TestNamespaceValidationParity(t *testing.T) {
	r := rand.New(rand.NewPCG(*flagNamespaceSeed, *flagNamespaceSeed^0x3c6ef372fe94f82b))
	p := newParity(t, *flagNamespaceSeed)
	for i := 0; i < *flagNamespaceCases; i++ {
		doc, err := json.Marshal(namespaceDoc(r, i))
		if err != nil {
			t.Fatal(err)
		}
		want, err := upstreamClusterCreate(doc, "Namespace")
		if err != nil {
			t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
		}
		got, parts, err := mineClusterCreate(doc, "Namespace")
		if err != nil {
			t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
		}
		var same func(string, string) bool
		if strings.Contains(string(doc), `"labels"`) {
			// The defaulted kubernetes.io/metadata.name label makes a
			// second label, and upstream reports label errors in Go map
			// order.
			same = func(w, g string) bool { return samePermutation(w, g, parts) }
		}
		p.compare(i, "Namespace", doc, want, got, "", namespaceRules, same)
	}
	p.finish("Namespaces", *flagNamespaceCases, []string{""}, map[string][]string{"": namespaceRules})
}
