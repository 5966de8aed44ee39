package conformance

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/kubectl/pkg/describe"

	"github.com/limitcheck/limitcheck/internal/render"
)

// Differential tests of render.DescribeLimitRange / DescribeQuota / Describe
// against k8s.io/kubectl v0.36.3's own describers (docs/behaviour.md DESC-01..03).
// Quota output must be byte-identical. kubectl prints the rows of one LimitRange
// item in map order, so there every other line must be identical, the rows of each
// item equal as a multiset (tabwriter pads them to the same widths in any order),
// and ours sorted by resource name.

// upstreamDescribe runs kubectl's describer for obj, read back through a fake
// clientset the way `kubectl describe` gets it from the API server.
func upstreamDescribe(obj runtime.Object) (string, error) {
	client := fake.NewSimpleClientset(obj)
	settings := describe.DescriberSettings{ShowEvents: false}
	switch o := obj.(type) {
	case *corev1.LimitRange:
		return (&describe.LimitRangeDescriber{Interface: client}).Describe(o.Namespace, o.Name, settings)
	case *corev1.ResourceQuota:
		return (&describe.ResourceQuotaDescriber{Interface: client}).Describe(o.Namespace, o.Name, settings)
	}
	return "", fmt.Errorf("no describer for %T", obj)
}

// shown is a resource name as printed: kubectl (cli-runtime printers.WriteEscaped)
// replaces ESC and CR before the text reaches the tabwriter.
var shown = strings.NewReplacer("\x1b", "^[", "\r", `\r`).Replace

// limitRangeRows: the resource names of each item, sorted (raw, not as shown),
// i.e. how many rows each item prints and in which order ours come.
func limitRangeRows(lr *corev1.LimitRange) [][]string {
	var rows [][]string
	for _, item := range lr.Spec.Limits {
		set := map[string]bool{}
		for _, list := range []corev1.ResourceList{item.Min, item.Max, item.DefaultRequest, item.Default, item.MaxLimitRequestRatio} {
			for name := range list {
				set[string(name)] = true
			}
		}
		names := make([]string, 0, len(set))
		for name := range set {
			names = append(names, name)
		}
		slices.Sort(names)
		rows = append(rows, names)
	}
	return rows
}

// resourceCell returns the Resource column of a row; header is the
// "Type  Resource  Min ..." line, whose cells are aligned with the rows (by rune).
func resourceCell(header, row string) string {
	r := []rune(row)
	from := strings.Index(header, "Resource") // the header is ASCII: byte = rune index
	to := strings.Index(header, "Min")
	if from < 0 || to < from || to > len(r) {
		return "?"
	}
	return strings.TrimRight(string(r[from:to]), " ")
}

// diffLimitRange compares kubectl's output (want) with ours (got) as described
// above; it returns the problems found.
func diffLimitRange(lr *corev1.LimitRange, want, got string) []string {
	if !strings.HasSuffix(want, "\n") || !strings.HasSuffix(got, "\n") {
		return []string{"output does not end in a newline"}
	}
	wantLines := strings.Split(strings.TrimSuffix(want, "\n"), "\n")
	gotLines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	const fixed = 4 // Name, Namespace, header, dashes
	rows := limitRangeRows(lr)
	n := fixed
	for _, names := range rows {
		n += len(names)
	}
	if len(wantLines) != n || len(gotLines) != n {
		return []string{fmt.Sprintf("line counts: kubectl %d, ours %d, expected %d", len(wantLines), len(gotLines), n)}
	}
	var problems []string
	for i := 0; i < fixed; i++ {
		if wantLines[i] != gotLines[i] {
			problems = append(problems, fmt.Sprintf("line %d: kubectl %q, ours %q", i+1, wantLines[i], gotLines[i]))
		}
	}
	header := gotLines[2]
	at := fixed
	for i, names := range rows {
		w := slices.Clone(wantLines[at : at+len(names)])
		g := gotLines[at : at+len(names)]
		at += len(names)
		gs := slices.Clone(g)
		slices.Sort(w)
		slices.Sort(gs)
		if !slices.Equal(w, gs) {
			problems = append(problems, fmt.Sprintf("item %d: rows differ as a multiset:\n    kubectl %q\n    ours    %q", i, w, gs))
		}
		for j, row := range g {
			if cell := resourceCell(header, row); cell != shown(names[j]) {
				problems = append(problems, fmt.Sprintf("item %d row %d: resource %q, want %q (sorted)", i, j, cell, shown(names[j])))
			}
		}
	}
	return problems
}

// describeGen makes random LimitRanges and ResourceQuotas.
type describeGen struct {
	r *rand.Rand
	n int
}

// Quantities by format family; "odd" holds extremes and mixed spellings.
var descQuantities = map[string][]string{
	"decimal":  {"0", "1", "2", "10", "100m", "250m", "500m", "1.5", "0.1", "1k", "500M", "1G", "1.5G", "7T", "2P", "3E", "100u", "1n", "12345", "4000m"},
	"binary":   {"1Ki", "64Ki", "0.5Ki", "3Mi", "256Mi", "512Mi", "1Gi", "1.5Gi", "0.25Gi", "2Ti", "1Pi", "1Ei", "1536Mi"},
	"exponent": {"1e3", "5e9", "1e-3", "1.5e6", "2E2", "1e0", "3e-9", "1e18", "2.5e2"},
	"odd":      {"-1", "-100m", "-1Gi", "9223372036854775807", "10Ei", "0.0001", "1e20", "999999999999999999999", "0.0000000001"},
}

var descFamilies = []string{"decimal", "binary", "exponent"}

func (g *describeGen) chance(p float64) bool { return g.r.Float64() < p }

func (g *describeGen) pickS(xs []string) string { return xs[g.r.IntN(len(xs))] }

// quantity parses a random spelling, mostly of the given family.
func (g *describeGen) quantity(family string) resource.Quantity {
	if g.chance(0.05) {
		family = "odd"
	} else if g.chance(0.2) {
		family = g.pickS(descFamilies)
	}
	return resource.MustParse(g.pickS(descQuantities[family]))
}

// name makes an object name, now and then with characters kubectl escapes or
// that are wider in bytes than in runes.
func (g *describeGen) name(prefix string) string {
	g.n++
	s := fmt.Sprintf("%s-%d", prefix, g.n)
	switch {
	case g.chance(0.03):
		s += "\x1b[31m"
	case g.chance(0.03):
		s += "\r"
	case g.chance(0.03):
		s = "é" + s
	case g.chance(0.1):
		s += strings.Repeat("x", g.r.IntN(30))
	}
	return s
}

var lrResources = []string{"cpu", "memory", "storage", "ephemeral-storage", "hugepages-2Mi", "example.com/gpu", "hugepages-1Gi", "nvidia.com/gpü", "x\x1by"}

func (g *describeGen) limitRange() *corev1.LimitRange {
	lr := &corev1.LimitRange{ObjectMeta: metav1.ObjectMeta{Name: g.name("lr"), Namespace: g.name("ns")}}
	types := []string{string(corev1.LimitTypeContainer), string(corev1.LimitTypePod), string(corev1.LimitTypePersistentVolumeClaim)}
	for range g.r.IntN(5) {
		item := corev1.LimitRangeItem{Type: corev1.LimitType(g.pickS(types))}
		if g.chance(0.03) {
			item.Type = corev1.LimitType(g.pickS([]string{"", "Node", "Contäiner"}))
		}
		lists := []*corev1.ResourceList{&item.Min, &item.Max, &item.DefaultRequest, &item.Default, &item.MaxLimitRequestRatio}
		for _, name := range lrResources[:6+g.r.IntN(len(lrResources)-5)] {
			if !g.chance(0.45) {
				continue
			}
			family := g.pickS(descFamilies)
			for _, list := range lists {
				if g.chance(0.5) {
					if *list == nil {
						*list = corev1.ResourceList{}
					}
					(*list)[corev1.ResourceName(name)] = g.quantity(family)
				}
			}
		}
		if g.chance(0.1) { // an empty but non-nil map
			item.Max = corev1.ResourceList{}
		}
		lr.Spec.Limits = append(lr.Spec.Limits, item)
	}
	return lr
}

var quotaResources = []string{
	"pods", "services", "configmaps", "secrets", "persistentvolumeclaims", "cpu", "memory",
	"requests.cpu", "limits.cpu", "requests.memory", "limits.memory", "requests.storage",
	"requests.ephemeral-storage", "limits.ephemeral-storage", "hugepages-2Mi", "requests.hugepages-2Mi",
	"requests.nvidia.com/gpu", "count/deployments.apps", "count/widgets.example.com",
	"gold.storageclass.storage.k8s.io/requests.storage", "services.loadbalancers", "example.com/gpu",
}

var quotaScopes = []corev1.ResourceQuotaScope{
	corev1.ResourceQuotaScopeTerminating, corev1.ResourceQuotaScopeNotTerminating,
	corev1.ResourceQuotaScopeBestEffort, corev1.ResourceQuotaScopeNotBestEffort,
	corev1.ResourceQuotaScopePriorityClass, corev1.ResourceQuotaScopeCrossNamespacePodAffinity,
	corev1.ResourceQuotaScopeVolumeAttributesClass, "Unknown",
}

func (g *describeGen) quota() *corev1.ResourceQuota {
	q := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: g.name("quota"), Namespace: g.name("ns")}}
	for range g.r.IntN(4) {
		q.Spec.Scopes = append(q.Spec.Scopes, quotaScopes[g.r.IntN(len(quotaScopes))])
	}
	if g.chance(0.1) { // never shown
		q.Spec.ScopeSelector = &corev1.ScopeSelector{MatchExpressions: []corev1.ScopedResourceSelectorRequirement{{
			ScopeName: corev1.ResourceQuotaScopePriorityClass, Operator: corev1.ScopeSelectorOpIn, Values: []string{"high"},
		}}}
	}
	if g.chance(0.9) {
		q.Status.Hard = corev1.ResourceList{}
		q.Status.Used = corev1.ResourceList{}
	}
	for _, name := range quotaResources {
		if q.Status.Hard == nil || !g.chance(0.3) {
			continue
		}
		family := g.pickS(descFamilies)
		rn := corev1.ResourceName(name)
		q.Status.Hard[rn] = g.quantity(family)
		switch {
		case g.chance(0.2): // used missing
		case g.chance(0.5):
			q.Status.Used[rn] = g.quantity(family)
		default:
			q.Status.Used[rn] = g.quantity(g.pickS(descFamilies))
		}
	}
	if q.Status.Used != nil && g.chance(0.2) { // used without hard: not shown
		q.Status.Used["unrelated"] = g.quantity("decimal")
	}
	if g.chance(0.5) { // spec.hard is not what describe shows
		q.Spec.Hard = corev1.ResourceList{"pods": g.quantity("decimal")}
	}
	return q
}

// TestDescribeDifferential compares our describe output with kubectl's on
// -cases random LimitRanges and as many ResourceQuotas.
func TestDescribeDifferential(t *testing.T) {
	g := &describeGen{r: rand.New(rand.NewPCG(*flagSeed, *flagSeed^0xd35c71be))}
	mismatches, rows := 0, 0
	report := func(kind string, i int, obj any, want, got string, problems []string) {
		mismatches++
		if mismatches > *flagShow {
			return
		}
		doc, _ := json.Marshal(obj)
		t.Errorf("%s %d (seed %d): %s\ninput: %s\n--- kubectl ---\n%s--- ours ---\n%s", kind, i, *flagSeed, strings.Join(problems, "\n  "), doc, want, got)
	}
	for i := 0; i < *flagCases; i++ {
		lr := g.limitRange()
		want, err := upstreamDescribe(lr)
		if err != nil {
			t.Fatalf("LimitRange %d: kubectl: %v", i, err)
		}
		got := render.DescribeLimitRange(lr)
		if d := diffLimitRange(lr, want, got); len(d) > 0 {
			report("LimitRange", i, lr, want, got, d)
		}
		rows += strings.Count(got, "\n") - 4

		q := g.quota()
		want, err = upstreamDescribe(q)
		if err != nil {
			t.Fatalf("ResourceQuota %d: kubectl: %v", i, err)
		}
		if got := render.DescribeQuota(q); got != want {
			report("ResourceQuota", i, q, want, got, []string{"outputs differ"})
		}
	}
	t.Logf("seed %d: %d LimitRanges (%d rows) and %d ResourceQuotas compared, %d mismatches", *flagSeed, *flagCases, rows, *flagCases, mismatches)
	if mismatches > 0 {
		t.Fatalf("%d mismatches", mismatches)
	}
}

// sortedLimitRangeRows rewrites kubectl's LimitRange output with the rows of
// each item sorted by resource name, once diffLimitRange found them equal to ours
// as a multiset.
func sortedLimitRangeRows(lr *corev1.LimitRange, out string) string {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	header := lines[2]
	at := 4
	for _, names := range limitRangeRows(lr) {
		rank := map[string]int{}
		for i, name := range names {
			rank[shown(name)] = i
		}
		block := lines[at : at+len(names)]
		slices.SortFunc(block, func(a, b string) int { return rank[resourceCell(header, a)] - rank[resourceCell(header, b)] })
		at += len(names)
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestDescribeGoldenUpstream proves internal/render/testdata/describe/*.golden
// are kubectl's output: each <name>.input.json (objects written by the render
// tests) is described by kubectl, joined as `kubectl describe` joins several
// objects (cmd/describe: the first, then "\n\n"+next), and compared with the
// golden file — LimitRange rows put in sorted order after the multiset check.
func TestDescribeGoldenUpstream(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("..", "internal", "render", "testdata", "describe", "*.input.json"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs found: %v", err)
	}
	for _, path := range inputs {
		name := strings.TrimSuffix(filepath.Base(path), ".input.json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var raws []json.RawMessage
			if err := json.Unmarshal(data, &raws); err != nil {
				t.Fatal(err)
			}
			var joined strings.Builder
			for i, raw := range raws {
				var tm metav1.TypeMeta
				if err := json.Unmarshal(raw, &tm); err != nil {
					t.Fatal(err)
				}
				var obj runtime.Object
				switch tm.Kind {
				case "LimitRange":
					obj = &corev1.LimitRange{}
				case "ResourceQuota":
					obj = &corev1.ResourceQuota{}
				default:
					t.Fatalf("object %d: unexpected kind %q", i, tm.Kind)
				}
				if err := json.Unmarshal(raw, obj); err != nil {
					t.Fatal(err)
				}
				s, err := upstreamDescribe(obj)
				if err != nil {
					t.Fatal(err)
				}
				if lr, ok := obj.(*corev1.LimitRange); ok {
					if d := diffLimitRange(lr, s, render.DescribeLimitRange(lr)); len(d) > 0 {
						t.Fatalf("object %d: %s", i, strings.Join(d, "\n  "))
					}
					s = sortedLimitRangeRows(lr, s)
				}
				if i > 0 {
					joined.WriteString("\n\n")
				}
				joined.WriteString(s)
			}
			golden, err := os.ReadFile(strings.TrimSuffix(path, ".input.json") + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			if joined.String() != string(golden) {
				t.Errorf("%s.golden is not what kubectl prints:\n--- kubectl ---\n%s--- golden ---\n%s", name, joined.String(), golden)
			}
		})
	}
}
