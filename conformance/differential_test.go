package conformance

import (
	"bytes"
	"flag"
	"fmt"
	"net/netip"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/limitcheck/limitcheck/internal/admissionconfig"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/features"
	"github.com/limitcheck/limitcheck/internal/eval/podsecurity"
)

var (
	flagCases = flag.Int("cases", 2000, "number of random cases")
	flagSeed  = flag.Uint64("seed", 1, "generator seed")
	flagShow  = flag.Int("show", 10, "mismatches to print in full")
	// flagShowOrder logs denials whose parts upstream lists in another order.
	flagShowOrder = flag.Bool("show-order", false, "log messages equal but for the order of their parts")
)

// TestDifferential compares limitcheck's engine with kube-apiserver's code on
// random cases: defaulted LimitRanges, verdicts, HTTP codes, messages (parts as a
// set), mutated containers and the limit-ranger annotation.
func TestDifferential(t *testing.T) {
	gen := NewGenerator(*flagSeed)
	stats := map[string]int{}
	mismatches := 0
	for i := 0; i < *flagCases; i++ {
		c := gen.Next()
		// Turning PodLevelResources off needs its dependant off too, as in kube-apiserver.
		if err := SetGates(map[string]bool{"PodLevelResources": c.PodLevelResources, "InPlacePodLevelResourcesVerticalScaling": c.PodLevelResources}); err != nil {
			t.Fatal(err)
		}
		gates := features.Default()
		gates.Set(features.PodLevelResources, c.PodLevelResources)
		up, err := NewUpstream(c.QuotaConfig)
		if err != nil {
			t.Fatal(err)
		}
		up.Controllers = ControllerOptions{Disable: c.DisableControllers, Replicas: c.Replicas, Nodes: c.Nodes}
		// Every fourth case runs on other service CIDRs (VAL-64), in turn;
		// the generator's explicit addresses are kubeadm's range.
		var cidrs []netip.Prefix
		if i%4 == 3 {
			cidrs = serviceCIDRCases[(i/4)%len(serviceCIDRCases)]
			stats[fmt.Sprintf("cases: service CIDRs %v", cidrs)]++
			if err := up.SetServiceCIDRs(cidrs); err != nil {
				t.Fatal(err)
			}
		}
		// Every fifth case runs under a PodSecurity configuration (PS-04),
		// in turn.
		var psConfig *podsecurity.Config
		if i%5 == 4 {
			doc := podSecurityConfigCases[(i/5)%len(podSecurityConfigCases)]
			stats[fmt.Sprintf("cases: PodSecurity configuration %d", (i/5)%len(podSecurityConfigCases))]++
			if err := up.SetPodSecurityConfig([]byte(doc)); err != nil {
				t.Fatal(err)
			}
			if psConfig, err = admissionconfig.PodSecurityConfig([]byte(doc)); err != nil {
				t.Fatal(err)
			}
		}
		engine := eval.New(eval.Options{DefaultNamespace: "ns1", Gates: gates, QuotaConfig: c.QuotaConfig,
			DisableControllers: c.DisableControllers, Replicas: c.Replicas, Nodes: c.Nodes, ServiceCIDRs: cidrs, PodSecurity: psConfig})
		opts := caseOptions(c)
		// Cluster classes apply to every object, wherever they are (check.go).
		classes := 0
		for j, doc := range c.Docs {
			if IsNamespaceDoc(doc) {
				// Namespaces apply to the whole run too (PS-01).
				if err := AddNamespace(up, engine, doc); err != nil {
					t.Errorf("case %d doc %d: %v\n%s", i, j, err, doc)
				}
				stats["cases: with a Namespace"]++
				continue
			}
			if !IsClassDoc(doc) {
				continue
			}
			classes++
			if err := up.AddClass(doc); err != nil {
				t.Fatalf("case %d doc %d: upstream class: %v\n%s", i, j, err, doc)
			}
			if err := AddClass(engine, doc); err != nil {
				t.Fatalf("case %d doc %d: limitcheck class: %v\n%s", i, j, err, doc)
			}
		}
		if classes > 0 {
			stats["cases: with classes"]++
		}
		for j, doc := range c.Docs {
			if IsNamespaceDoc(doc) {
				continue // created first, compared there
			}
			if IsClassDoc(doc) {
				if got, err := Mine(engine, doc); err != nil || !got.Skipped {
					t.Errorf("case %d doc %d: class not skipped by limitcheck (err %v)", i, j, err)
				}
				continue
			}
			want, err := up.Create(doc, "ns1")
			if err != nil {
				t.Fatalf("case %d doc %d: upstream: %v\n%s", i, j, err, doc)
			}
			got, err := Mine(engine, doc)
			if err != nil {
				t.Fatalf("case %d doc %d: limitcheck: %v\n%s", i, j, err, doc)
			}
			stats[outcomeKey("", want)]++
			classStats(stats, want, doc)
			if w := want.Workload; w != nil {
				stats["Pods wanted (Workload.Replicas)"] += w.Replicas
				stats["Pods adopted (Workload.Adopted)"] += w.Adopted
				stats["Pods not created (OrderedReady)"] += w.NotCreated
				for _, c := range w.Created {
					stats[outcomeKey("created ", c)]++
					classStats(stats, c, doc)
				}
			}
			if !want.Allowed && got.Denial != nil && want.Message != got.Denial.Message {
				// Accepted as a permutation by Diff: upstream orders some parts by map iteration.
				stats["message parts in another order: "+want.Kind]++
				if *flagShowOrder {
					t.Logf("order: upstream %s\n   limitcheck %s", want.Message, got.Denial.Message)
				}
			}
			if d := Diff(want, got); len(d) > 0 {
				mismatches++
				if mismatches <= *flagShow {
					t.Errorf("case %d doc %d (seed %d, PodLevelResources=%v, config %+v%s) mismatch:\n  %s\ninput case:\n%s", i, j, *flagSeed, c.PodLevelResources, c.QuotaConfig, opts, strings.Join(d, "\n  "), joinDocs(c.Docs))
				}
			}
		}
		if d := DiffQuotas(up.Quotas([]string{"ns1", "ns2"}), engine.Quotas()); len(d) > 0 {
			mismatches++
			if mismatches <= *flagShow {
				t.Errorf("case %d (seed %d%s) final quotas mismatch:\n  %s\ninput case:\n%s", i, *flagSeed, opts, strings.Join(d, "\n  "), joinDocs(c.Docs))
			}
		}
		stats["quotas"] += len(engine.Quotas())
		switch {
		case c.DisableControllers:
			stats["cases: controllers off"]++
		case c.Replicas != nil:
			stats["cases: --replicas"]++
		}
		if c.Nodes > 1 {
			stats["cases: nodes > 1"]++
		}
	}
	for k, n := range gen.Mistakes {
		stats["mistake: "+k] = n
	}
	for k, v := range PodMistakeStats() {
		stats[k] = v
	}
	b := statsTable(stats, 45)
	t.Logf("seed %d: %d cases, %d mismatches; outcomes:%s", *flagSeed, *flagCases, mismatches, b)
	if mismatches > 0 {
		t.Fatalf("%d mismatches", mismatches)
	}
}

// serviceCIDRCases are the clusters' service CIDRs TestDifferential runs
// on besides kubeadm's: kube-apiserver's own default, k3s's, single-stack
// IPv6, and dual-stack with either family first.
var serviceCIDRCases = [][]netip.Prefix{
	{netip.MustParsePrefix("10.0.0.0/24")},
	{netip.MustParsePrefix("10.43.0.0/16")},
	{netip.MustParsePrefix("fd00:10:96::/108")},
	{netip.MustParsePrefix("10.96.0.0/12"), netip.MustParsePrefix("fd00:10:96::/108")},
	{netip.MustParsePrefix("fd00:10:96::/108"), netip.MustParsePrefix("10.96.0.0/12")},
}

// outcomeKey is a stats key: kind and outcome (admitted, or code and stage).
func outcomeKey(prefix string, o Outcome) string {
	if o.Allowed {
		return prefix + o.Kind + " admitted"
	}
	return fmt.Sprintf("%s%s %d %s", prefix, o.Kind, o.Code, o.Stage)
}

func caseOptions(c Case) string {
	var s string
	if c.DisableControllers {
		s += ", controllers off"
	}
	if c.Replicas != nil {
		s += fmt.Sprintf(", replicas %d", *c.Replicas)
	}
	if c.Nodes > 0 {
		s += fmt.Sprintf(", nodes %d", c.Nodes)
	}
	return s
}

func joinDocs(docs [][]byte) string {
	var b strings.Builder
	for _, d := range docs {
		b.WriteString("  ")
		b.Write(d)
		b.WriteByte('\n')
	}
	return b.String()
}

// classStats counts what the class plugins did to an upstream outcome of doc
// (or of an object its controllers created). "Defaulted" counts objects whose
// document has no such field at all.
func classStats(stats map[string]int, o Outcome, doc []byte) {
	if !o.Allowed {
		return // admitted objects only
	}
	has := func(field string) bool { return bytes.Contains(doc, []byte(`"`+field+`"`)) }
	switch obj := o.Object.(type) {
	case *corev1.Pod:
		if obj.Spec.PriorityClassName != "" && !has("priorityClassName") {
			stats["class: Pods defaulted to a PriorityClass"]++
		}
		if len(obj.Spec.Overhead) > 0 && !has("overhead") {
			stats["class: Pods given a RuntimeClass overhead"]++
		}
		if obj.Spec.PriorityClassName != "" {
			stats["class: Pods with a PriorityClass"]++
		}
		if obj.Spec.Priority != nil && *obj.Spec.Priority != 0 {
			stats["class: Pods with priority != 0"]++
		}
		if len(obj.Spec.Overhead) > 0 {
			stats["class: Pods with overhead"]++
		}
		if obj.Spec.RuntimeClassName != nil {
			stats["class: Pods with a RuntimeClass"]++
		}
	case *corev1.PersistentVolumeClaim:
		if obj.Spec.StorageClassName != nil && !has("storageClassName") {
			stats["class: claims defaulted to a StorageClass"]++
		}
		if obj.Spec.StorageClassName != nil {
			stats["class: claims with storageClassName "+*obj.Spec.StorageClassName]++
		}
	}
}

// statsTable lists a run's tallies, one per line in key order, keys padded
// to width.
func statsTable(stats map[string]int, width int) string {
	keys := make([]string, 0, len(stats))
	for k := range stats {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n  %-*s %d", width, k, stats[k])
	}
	return b.String()
}

// podSecurityConfigCases are PodSecurity configurations TestDifferential
// runs cases under (PS-04): cluster defaults of every level and version,
// exempt namespaces and runtime classes.
var podSecurityConfigCases = []string{
	`{"apiVersion":"pod-security.admission.config.k8s.io/v1","kind":"PodSecurityConfiguration","defaults":{"enforce":"baseline","warn":"restricted","audit":"restricted"},"exemptions":{"namespaces":["ns2"]}}`,
	`{"apiVersion":"pod-security.admission.config.k8s.io/v1","kind":"PodSecurityConfiguration","defaults":{"enforce":"restricted","enforce-version":"v1.25"},"exemptions":{"runtimeClasses":["kata","gvisor"]}}`,
	`{"apiVersion":"pod-security.admission.config.k8s.io/v1beta1","kind":"PodSecurityConfiguration","defaults":{"warn":"baseline"},"exemptions":{"namespaces":["ns1"],"usernames":["admin"]}}`,
}
