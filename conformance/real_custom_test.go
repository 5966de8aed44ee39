package conformance

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	api "k8s.io/kubernetes/pkg/apis/core"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
)

// TestRealCustomResourcesParity creates the custom resources of real projects
// (testdata/real, or -real) against the CustomResourceDefinitions the same
// input holds, through kube-apiserver's custom resource create and
// limitcheck's (VAL-76..VAL-78): each as written, then with realistic
// mistakes in its spec (crMistakeIn). Both evaluate the CRDs'
// x-kubernetes-validations (CEL) rules, limitcheck through its helper's
// protocol.
func TestRealCustomResourcesParity(t *testing.T) {
	roots, docs := realInput(t)
	// The CRDs, by group and kind; the first of a name wins.
	crds := map[string][]byte{}
	for _, d := range docs {
		if d.apiVersion != "apiextensions.k8s.io/v1" || d.kind != "CustomResourceDefinition" {
			continue
		}
		var crd struct {
			Spec struct {
				Group string
				Names struct{ Kind string }
			}
		}
		if json.Unmarshal(d.json, &crd) == nil && crd.Spec.Group != "" {
			key := crd.Spec.Group + "/" + crd.Spec.Names.Kind
			if _, ok := crds[key]; !ok {
				crds[key] = d.json
			}
		}
	}
	type served struct {
		up      *upstreamCRD
		catalog *apis.Catalog
		err     string
	}
	cache := map[string]*served{}
	serve := func(group, version, kind string) *served {
		key := group + "/" + version + "/" + kind
		if s, ok := cache[key]; ok {
			return s
		}
		s := &served{}
		cache[key] = s
		doc, ok := versionFirst(crds[group+"/"+kind], version)
		if !ok {
			s.err = "version not in the CRD"
			return s
		}
		up, err := newUpstreamCRD(doc)
		if err != nil {
			s.err = "CRD refused upstream"
			return s
		}
		catalog := apis.New()
		if err := catalog.AddCRD(doc); err != nil {
			t.Errorf("CRD %s/%s accepted upstream, refused by limitcheck: %v", group, kind, err)
			s.err = "CRD refused by limitcheck only"
			return s
		}
		s.up, s.catalog = up, catalog
		return s
	}
	rng := rand.New(rand.NewPCG(*flagRealSeed, 0xc7d5))
	stats := map[string]int{}
	mismatches := 0
	for _, d := range docs {
		group, version, ok := strings.Cut(d.apiVersion, "/")
		if !ok || crds[group+"/"+d.kind] == nil {
			continue
		}
		s := serve(group, version, d.kind)
		if s.err != "" {
			stats[s.err+": "+d.kind]++
			continue
		}
		for _, v := range variantsOf(d.json, func() (realVariant, bool) { return crMistakeIn(rng, d.json) }) {
			label := v.label()
			want, err := s.up.create(v.doc, "ns1")
			if err != nil {
				stats["undecodable: "+d.kind]++
				continue
			}
			want = withNamespace(want, v.doc, s.up.namespaced)
			got, parts, err := mineCRDCreate(s.catalog, v.doc, d.apiVersion, d.kind, "ns1")
			if err != nil {
				stats["undecodable by limitcheck: "+d.kind]++
				continue
			}
			verdict := "admitted"
			if !want.allowed {
				verdict = "denied"
			}
			same := sameOutcome(want, got, parts)
			for _, j := range []string{"(allOf)", "(anyOf)", "(oneOf)", "(not)"} {
				if same && strings.Contains(want.message, j) {
					stats["  (denials matched with a junctor's message "+j+")"]++
				}
			}
			if same && !want.allowed {
				// Did the rules make the answer? limitcheck without them says.
				if bare, _, err := mineCRDCreateRules(s.catalog, v.doc, d.apiVersion, d.kind, "ns1", nil); err == nil && !sameOutcome(bare, got, parts) {
					stats["  (denials matched that need the x-kubernetes-validations rules)"]++
				}
			}
			stats[fmt.Sprintf("%s %s: %s", d.kind, label, verdict)]++
			if !same {
				mismatches++
				if mismatches <= *flagShow {
					t.Errorf("%s (%s %s, %s) mismatch:\n  upstream:   %v %d %s %s\n  limitcheck: %v %d %s %s\ndocument: %s", d.where, d.kind, d.name, label,
						want.allowed, want.code, want.reason, want.message, got.allowed, got.code, got.reason, got.message, v.doc)
				}
			}
		}
	}
	t.Logf("%d documents from %v, %d CRDs, seed %d, %d mismatches:%s", len(docs), roots, len(crds), *flagRealSeed, mismatches, statsTable(stats, 80))
	if mismatches > 0 {
		t.Fatalf("%d mismatches", mismatches)
	}
}

func sameOutcome(want, got rqOutcome, parts []string) bool {
	return want.allowed == got.allowed && want.code == got.code && want.reason == got.reason && samePermutation(want.message, got.message, parts)
}

// withNamespace is upstream's answer once NamespaceLifecycle has run: a
// create into a namespace whose name is no DNS label is refused first
// (NS-02).
func withNamespace(want rqOutcome, doc []byte, namespaced bool) rqOutcome {
	// A body that does not decode is refused before admission runs.
	if ns := namespaceOf(doc); namespaced && want.code != 400 && ns != "" && len(utilvalidation.IsDNS1123Label(ns)) > 0 {
		st := apierrors.NewNotFound(api.Resource("namespaces"), ns).Status()
		return rqOutcome{code: st.Code, reason: string(st.Reason), message: st.Message}
	}
	return want
}

// namespaceOf is a document's metadata.namespace.
func namespaceOf(doc []byte) string {
	var m struct {
		Metadata struct{ Namespace string } `json:"metadata"`
	}
	_ = json.Unmarshal(doc, &m)
	return m.Metadata.Namespace
}

// versionFirst returns the CRD with the named version first among its
// versions (the upstream side serves the first), or false when the CRD does
// not have it.
func versionFirst(crd []byte, version string) ([]byte, bool) {
	root, ok := decodeObj(crd)
	if !ok {
		return nil, false
	}
	spec, _ := root["spec"].(obj)
	versions, _ := spec["versions"].([]any)
	for i, v := range versions {
		if vm, ok := v.(obj); ok && vm["name"] == version {
			versions[0], versions[i] = versions[i], versions[0]
			out, err := json.Marshal(root)
			return out, err == nil
		}
	}
	return nil, false
}

// crMistakeIn makes one realistic mistake in a custom resource's spec: a
// scalar of another type (a number quoted, a boolean written yes), a field
// removed, a field misspelt, an enum-like string in another case, an empty
// string, a list given as one item.
func crMistakeIn(rng *rand.Rand, doc []byte) (realVariant, bool) {
	root, ok := decodeObj(doc)
	if !ok {
		return realVariant{}, false
	}
	spec, ok := root["spec"].(obj)
	if !ok || len(spec) == 0 {
		return realVariant{}, false
	}
	// Every field under spec, by path.
	type place struct {
		parent obj
		key    string
	}
	var places []place
	var walk func(o obj, depth int)
	walk = func(o obj, depth int) {
		keys := make([]string, 0, len(o))
		for k := range o {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			places = append(places, place{o, k})
			if depth > 6 {
				continue
			}
			switch c := o[k].(type) {
			case obj:
				walk(c, depth+1)
			case []any:
				if len(c) > 0 {
					if co, ok := c[0].(obj); ok {
						walk(co, depth+1)
					}
				}
			}
		}
	}
	walk(spec, 0)
	p := places[rng.IntN(len(places))]
	name := ""
	switch v := p.parent[p.key].(type) {
	case json.Number:
		if rng.IntN(2) == 0 {
			p.parent[p.key], name = v.String(), "number quoted"
		} else {
			p.parent[p.key], name = json.Number("-1"), "negative number"
		}
	case bool:
		p.parent[p.key], name = "yes", "boolean written yes"
	case string:
		switch rng.IntN(3) {
		case 0:
			p.parent[p.key], name = "", "empty string"
		case 1:
			p.parent[p.key], name = strings.ToLower(v)+"X", "string changed"
		default:
			p.parent[p.key], name = json.Number("1"), "string given a number"
		}
	case []any:
		if len(v) > 0 {
			p.parent[p.key], name = v[0], "list given as one item"
		}
	case obj:
		p.parent[p.key], name = "", "object given a string"
	}
	if name == "" || rng.IntN(4) == 0 {
		if rng.IntN(2) == 0 {
			delete(p.parent, p.key)
			name = "field removed"
		} else {
			p.parent[p.key+"s"] = p.parent[p.key]
			delete(p.parent, p.key)
			name = "field misspelt"
		}
	}
	out, err := json.Marshal(root)
	if err != nil {
		return realVariant{}, false
	}
	return realVariant{mistake: name, doc: out}, true
}
