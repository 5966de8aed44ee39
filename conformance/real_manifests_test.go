package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	yamlutil "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	api "k8s.io/kubernetes/pkg/apis/core"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/features"
)

var (
	flagReal          = flag.String("real", "", "comma-separated files or directories of manifests for TestRealManifestsParity (default: testdata/real)")
	flagRealMutations = flag.Int("real-mutations", 30, "mistakes made in each document of TestRealManifestsParity, one at a time")
	flagRealSeed      = flag.Uint64("real-seed", 1, "TestRealManifestsParity mistake seed")
)

// TestRealManifestsParity runs manifests written the way real projects write
// them (testdata/real, or -real: a checkout's rendered manifests) through
// kube-apiserver's create path and limitcheck's, each document as it is,
// then with one realistic mistake at a time (realMistakes), and compares the
// verdicts, the messages and what the controllers create. Fields real
// projects use together (probes, affinity, security contexts, topology
// spread, volumes of every source) reach the validation this way in
// combinations a generator does not make.
func TestRealManifestsParity(t *testing.T) {
	roots, docs := realInput(t)
	if len(docs) == 0 {
		t.Fatalf("no documents under %v", roots)
	}
	var classes [][]byte // and Namespaces, which apply to the whole run too
	for _, d := range docs {
		if IsClassDoc(d.json) || IsNamespaceDoc(d.json) {
			classes = append(classes, d.json)
		}
	}
	rng := rand.New(rand.NewPCG(*flagRealSeed, 0x5ea1))
	stats := map[string]int{}
	mismatches := 0
	for _, d := range docs {
		typed := typedCreateFor(d.apiVersion, d.kind)
		if !upstreamCreates[d.kind] && typed == nil || IsClassDoc(d.json) {
			stats["not compared: "+d.kind]++
			continue
		}
		if eval.NewObject(d.apiVersion, d.kind) == nil {
			stats["not served: "+d.apiVersion+" "+d.kind]++
			continue
		}
		for _, v := range variantsOf(d.json, func() (realVariant, bool) { return realMistakeIn(rng, d.json) }) {
			label := v.label()
			if typed != nil {
				want, got, parts, err := typed(v.doc)
				if err != nil {
					stats["undecodable: "+d.kind]++
					continue
				}
				if want.allowed && got.code == 409 && got.reason == "AlreadyExists" {
					// A name every cluster has taken (NS-01, VAL-75: default,
					// kube-public, the admin ClusterRole, …), which the
					// upstream side here does not create first.
					stats["name taken in every cluster: "+d.kind]++
					continue
				}
				verdict := "admitted"
				if !want.allowed {
					verdict = "denied"
				}
				stats[fmt.Sprintf("%s %s: %s", d.kind, label, verdict)]++
				if want.allowed != got.allowed || want.code != got.code || want.reason != got.reason ||
					!samePermutation(want.message, got.message, parts) || warned[d.kind] && !slices.Equal(want.warnings, got.warnings) {
					mismatches++
					if mismatches <= *flagShow {
						t.Errorf("%s (%s %s, %s) mismatch:\n  upstream:   %v %d %s %s %q\n  limitcheck: %v %d %s %s %q\ndocument: %s", d.where, d.kind, d.name, label,
							want.allowed, want.code, want.reason, want.message, want.warnings, got.allowed, got.code, got.reason, got.message, got.warnings, v.doc)
					}
				}
				continue
			}
			up, mine, err := createBoth(v.doc, classes)
			if err != nil {
				stats["undecodable: "+d.kind]++
				continue
			}
			verdict := "admitted"
			if !up.Allowed {
				verdict = "denied " + up.Stage
			}
			stats[fmt.Sprintf("%s %s: %s", d.kind, label, verdict)]++
			diff := Diff(up, mine)
			if root, ok := decodeObj(v.doc); ok && podDependents(root) || d.kind == "Pod" && up.Workload == nil {
				// Upstream.Create runs no controller for a Pod of the input,
				// nor the ephemeral volume and claim controllers for any
				// Pod: what they make is TestPodDependentsParity's.
				diff = diffOne(up, mine)
			}
			if len(diff) > 0 {
				mismatches++
				if mismatches <= *flagShow {
					t.Errorf("%s (%s %s, %s) mismatch:\n  %s\ndocument: %s", d.where, d.kind, d.name, label, strings.Join(diff, "\n  "), v.doc)
				}
			}
		}
	}
	b := statsTable(stats, 70)
	t.Logf("%d documents from %v, seed %d, %d mismatches:%s", len(docs), roots, *flagRealSeed, mismatches, b)
	if mismatches > 0 {
		t.Fatalf("%d mismatches", mismatches)
	}
}

// upstreamCreates are the kinds Upstream.Create runs the whole create path of.
var upstreamCreates = map[string]bool{
	"Pod": true, "LimitRange": true, "PersistentVolumeClaim": true, "ResourceQuota": true,
	"Service": true, "ConfigMap": true, "Secret": true, "ServiceAccount": true,
	"Deployment": true, "ReplicaSet": true, "StatefulSet": true, "DaemonSet": true,
	"ReplicationController": true, "Job": true, "CronJob": true, "PodTemplate": true,
}

// createBoth creates doc on a fresh upstream and a fresh engine, alike but
// for the cluster classes the input holds.
func createBoth(doc []byte, classes [][]byte) (Outcome, eval.Result, error) {
	if err := SetGates(map[string]bool{}); err != nil {
		return Outcome{}, eval.Result{}, err
	}
	up, err := NewUpstream(nil)
	if err != nil {
		return Outcome{}, eval.Result{}, err
	}
	up.Controllers = ControllerOptions{Nodes: 1}
	engine := eval.New(eval.Options{DefaultNamespace: "ns1", Gates: features.Default(), Nodes: 1, Rules: celRules()})
	for _, c := range classes {
		if IsNamespaceDoc(c) {
			// A disagreement is the Namespace document's own mismatch,
			// reported where it is compared.
			AddNamespace(up, engine, c)
			continue
		}
		// A class neither side takes is left out of both.
		if up.AddClass(c) == nil && AddClass(engine, c) != nil {
			return Outcome{}, eval.Result{}, errors.New("class taken by upstream only")
		}
	}
	want, err := up.Create(doc, "ns1")
	if err != nil {
		return Outcome{}, eval.Result{}, err
	}
	got, err := Mine(engine, doc)
	return want, got, err
}

// typedCreateFor returns how the validation parity tests create a document
// of apiVersion and kind on both sides (nil: they do not): upstream's
// outcome, limitcheck's and the parts of limitcheck's denial.
func typedCreateFor(apiVersion, kind string) func(doc []byte) (want, got rqOutcome, parts []string, err error) {
	clusterScoped := eval.ClusterScoped(apiVersion, kind)
	typed := func(up func(doc []byte) (rqOutcome, error)) func(doc []byte) (rqOutcome, rqOutcome, []string, error) {
		return func(doc []byte) (rqOutcome, rqOutcome, []string, error) {
			want, err := up(doc)
			if err != nil {
				return want, rqOutcome{}, nil, err
			}
			var meta struct {
				Metadata struct{ Namespace string } `json:"metadata"`
			}
			_ = json.Unmarshal(doc, &meta) // it decoded above
			if ns := meta.Metadata.Namespace; !clusterScoped && ns != "" && len(utilvalidation.IsDNS1123Label(ns)) > 0 {
				// No cluster has a namespace whose name is no DNS label:
				// NamespaceLifecycle refuses the create before validation
				// runs (NS-02; Upstream.Create does the same).
				st := apierrors.NewNotFound(api.Resource("namespaces"), ns).Status()
				want = rqOutcome{code: st.Code, reason: string(st.Reason), message: st.Message}
			}
			if want.allowed && kind == "Namespace" {
				// Every cluster has these: storage's 409 (ST-01, NS-01).
				var m struct {
					Metadata struct{ Name string } `json:"metadata"`
				}
				_ = json.Unmarshal(doc, &m)
				switch m.Metadata.Name {
				case "default", "kube-system", "kube-public", "kube-node-lease":
					st := apierrors.NewAlreadyExists(api.Resource("namespaces"), m.Metadata.Name).Status()
					want = rqOutcome{code: st.Code, reason: string(st.Reason), message: st.Message}
				}
			}
			got, d, err := mineTypedCreate(doc, apiVersion, kind, "ns1", features.Default())
			var parts []string
			if d != nil {
				parts = d.Parts
			}
			return want, got, parts, err
		}
	}
	if k, ok := clusterKinds[kind]; ok && k.apiVersion == apiVersion {
		return typed(func(doc []byte) (rqOutcome, error) { return upstreamClusterCreate(doc, kind) })
	}
	if k, ok := policyRBACKinds[kind]; ok && k.apiVersion == apiVersion {
		return typed(func(doc []byte) (rqOutcome, error) { return upstreamPolicyRBACCreate(doc, kind, "ns1") })
	}
	switch {
	case apiVersion == "networking.k8s.io/v1" && (kind == "Ingress" || kind == "NetworkPolicy"):
		return typed(func(doc []byte) (rqOutcome, error) { return upstreamNetworkingCreate(doc, kind, "ns1") })
	case apiVersion == "v1" && kind == "Endpoints", apiVersion == "discovery.k8s.io/v1" && kind == "EndpointSlice":
		return typed(func(doc []byte) (rqOutcome, error) { return upstreamEndpointsCreate(doc, kind, "ns1") })
	case (apiVersion == "autoscaling/v1" || apiVersion == "autoscaling/v2") && kind == "HorizontalPodAutoscaler":
		return typed(func(doc []byte) (rqOutcome, error) { return upstreamHPACreate(doc, apiVersion, "ns1") })
	}
	return nil
}

// realInput reads the documents of testdata/real, or of the -real roots.
func realInput(t *testing.T) ([]string, []realDoc) {
	roots := []string{"testdata/real"}
	if *flagReal != "" {
		roots = strings.Split(*flagReal, ",")
	}
	var docs []realDoc
	for _, root := range roots {
		docs = append(docs, readRealDocs(t, root)...)
	}
	return roots, docs
}

type realDoc struct {
	where, apiVersion, kind, name string
	json                          []byte
}

type realVariant struct {
	mistake string
	doc     []byte
}

// label names the variant in the statistics.
func (v realVariant) label() string {
	if v.mistake == "" {
		return "as written"
	}
	return "mistake " + v.mistake
}

// variantsOf is the document as written, then -real-mutations variants of
// it, each made by mistake (which may fail to find a place for one).
func variantsOf(doc []byte, mistake func() (realVariant, bool)) []realVariant {
	variants := []realVariant{{doc: doc}}
	for range *flagRealMutations {
		if v, ok := mistake(); ok {
			variants = append(variants, v)
		}
	}
	return variants
}

// readRealDocs reads every YAML or JSON document under root as JSON; a List
// gives its items. Documents that are not YAML (templates) are left out.
func readRealDocs(t *testing.T, root string) []realDoc {
	var docs []realDoc
	err := filepath.WalkDir(root, func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch strings.ToLower(filepath.Ext(path)) {
		case ".yaml", ".yml", ".json":
		default:
			return nil
		}
		if de.IsDir() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		r := yamlutil.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		for i := 0; ; i++ {
			raw, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				break
			}
			js, err := yaml.YAMLToJSONStrict(raw)
			if err != nil || !bytes.HasPrefix(bytes.TrimSpace(js), []byte("{")) {
				continue
			}
			for _, item := range listItems(js) {
				var tm struct {
					metav1.TypeMeta
					Metadata struct{ Name string } `json:"metadata"`
				}
				if json.Unmarshal(item, &tm) != nil || tm.Kind == "" {
					continue
				}
				docs = append(docs, realDoc{where: fmt.Sprintf("%s#%d", path, i), apiVersion: tm.APIVersion, kind: tm.Kind, name: tm.Metadata.Name, json: item})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// listItems is a List's items, or the document itself.
func listItems(js []byte) [][]byte {
	var l struct {
		Kind  string            `json:"kind"`
		Items []json.RawMessage `json:"items"`
	}
	if json.Unmarshal(js, &l) != nil || !strings.HasSuffix(l.Kind, "List") || l.Items == nil {
		return [][]byte{js}
	}
	out := make([][]byte, 0, len(l.Items))
	for _, it := range l.Items {
		out = append(out, it)
	}
	return out
}

// realPolicies are the namespace policies TestRealManifestsUnderPolicy puts
// a project's manifests under: what a platform team sets on a team's
// namespace, tight enough that a project of some size meets its limits.
var realPolicies = []string{
	`{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"defaults","namespace":"ns1"},"spec":{"limits":[
	  {"type":"Container","default":{"cpu":"500m","memory":"512Mi"},"defaultRequest":{"cpu":"100m","memory":"128Mi"},"max":{"cpu":"4","memory":"8Gi"},"min":{"memory":"4Mi"},"maxLimitRequestRatio":{"cpu":"20"}},
	  {"type":"Pod","max":{"memory":"16Gi"}},
	  {"type":"PersistentVolumeClaim","min":{"storage":"1Gi"},"max":{"storage":"100Gi"}}]}}`,
	`{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"compute","namespace":"ns1"},"spec":{"hard":{
	  "requests.cpu":"8","requests.memory":"16Gi","limits.cpu":"24","limits.memory":"32Gi","pods":"40","requests.ephemeral-storage":"20Gi"}}}`,
	`{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"objects","namespace":"ns1"},"spec":{"hard":{
	  "services":"25","services.loadbalancers":"1","services.nodeports":"2","configmaps":"30","secrets":"30",
	  "persistentvolumeclaims":"6","requests.storage":"200Gi","count/deployments.apps":"15","count/jobs.batch":"5",
	  "count/cronjobs.batch":"3","count/statefulsets.apps":"3","count/daemonsets.apps":"2","count/serviceaccounts":"20"}}}`,
	`{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"best-effort","namespace":"ns1"},"spec":{"hard":{"pods":"5"},"scopes":["BestEffort"]}}`,
}

// TestRealManifestsUnderPolicy creates each project's manifests in order, in
// one namespace under realPolicies (their own namespaces dropped), on both
// sides: defaults from the LimitRange, refusals as quotas fill, what the
// controllers create, the 409 of a name used twice, and every quota's final
// usage. A project is a directory directly under each -real root (the
// default testdata/real is one project).
func TestRealManifestsUnderPolicy(t *testing.T) {
	var projects [][]realDoc
	if *flagReal == "" {
		projects = append(projects, readRealDocs(t, "testdata/real"))
	}
	for _, root := range strings.Split(*flagReal, ",") {
		if root == "" {
			continue
		}
		entries, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				projects = append(projects, readRealDocs(t, filepath.Join(root, e.Name())))
			}
		}
	}
	stats := map[string]int{}
	mismatches := 0
	for _, docs := range projects {
		if err := SetGates(map[string]bool{}); err != nil {
			t.Fatal(err)
		}
		up, err := NewUpstream(nil)
		if err != nil {
			t.Fatal(err)
		}
		up.Controllers = ControllerOptions{Nodes: 2}
		engine := eval.New(eval.Options{DefaultNamespace: "ns1", Gates: features.Default(), Nodes: 2, Rules: celRules()})
		var inOrder [][]byte
		var where []string // of each of inOrder
		for _, d := range docs {
			if IsClassDoc(d.json) {
				if up.AddClass(d.json) == nil && AddClass(engine, d.json) != nil {
					t.Fatalf("%s: a class upstream takes and limitcheck does not", d.where)
				}
			}
			if IsNamespaceDoc(d.json) {
				if err := AddNamespace(up, engine, d.json); err != nil {
					t.Errorf("%s: %v", d.where, err)
				}
			}
		}
		for i, p := range realPolicies {
			inOrder = append(inOrder, []byte(p))
			where = append(where, fmt.Sprintf("realPolicies[%d]", i))
		}
		for _, d := range docs {
			if !upstreamCreates[d.kind] || IsClassDoc(d.json) || eval.NewObject(d.apiVersion, d.kind) == nil {
				continue
			}
			root, ok := decodeObj(d.json)
			if !ok {
				continue
			}
			if podDependents(root) {
				// Upstream runs no ephemeral volume or claim controller here:
				// TestPodDependentsParity compares what they create.
				stats["not compared: "+d.kind+" whose Pods have generic ephemeral volumes or claims"]++
				continue
			}
			delete(child(root, "metadata", true), "namespace")
			js, err := json.Marshal(root)
			if err != nil {
				t.Fatal(err)
			}
			inOrder = append(inOrder, js)
			where = append(where, d.where)
		}
		usageDiffers := false
		for i, doc := range inOrder {
			want, err := up.Create(doc, "ns1")
			if err != nil {
				stats["undecodable"]++
				continue
			}
			got, err := Mine(engine, doc)
			if err != nil {
				t.Fatalf("limitcheck: %v\n%s", err, doc)
			}
			verdict := "admitted"
			if !want.Allowed {
				verdict = "denied " + want.Stage
			}
			stats[want.Kind+": "+verdict]++
			if w := want.Workload; w != nil {
				for _, c := range w.Created {
					if c.Allowed {
						stats["created "+c.Kind+": admitted"]++
					} else {
						stats["created "+c.Kind+": denied "+c.Stage]++
					}
				}
			}
			diff := Diff(want, got)
			if want.Kind == "Pod" && want.Workload == nil {
				diff = diffOne(want, got) // TestRealManifestsParity says why
			}
			if !usageDiffers {
				// Where the usage first parts, whatever the verdicts: the
				// document that made the difference, not those it affects.
				if d := DiffQuotas(up.Quotas([]string{"ns1"}), engine.Quotas()); len(d) > 0 {
					usageDiffers = true
					diff = append(diff, d...)
				}
			}
			if len(diff) > 0 {
				mismatches++
				if mismatches <= *flagShow {
					t.Errorf("%s (document %d of its project) mismatch:\n  %s\ndocument: %s", where[i], i, strings.Join(diff, "\n  "), doc)
				}
			}
		}
		if d := DiffQuotas(up.Quotas([]string{"ns1"}), engine.Quotas()); len(d) > 0 {
			mismatches++
			if mismatches <= *flagShow {
				t.Errorf("%s: final quotas mismatch:\n  %s", docs[0].where, strings.Join(d, "\n  "))
			}
		}
	}
	b := statsTable(stats, 50)
	t.Logf("%d projects, %d mismatches:%s", len(projects), mismatches, b)
	if mismatches > 0 {
		t.Fatalf("%d mismatches", mismatches)
	}
}

// podDependents reports whether the Pods of a Pod or workload document make
// the controllers create claims: a generic ephemeral volume or a resource
// claim.
func podDependents(root obj) bool {
	spec, _ := podSpec(root)
	if len(list(spec, "resourceClaims")) > 0 {
		return true
	}
	for _, v := range list(spec, "volumes") {
		if m, ok := v.(obj); ok && m["ephemeral"] != nil {
			return true
		}
	}
	return false
}
