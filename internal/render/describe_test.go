package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The golden files under testdata/describe are kubectl's output: for every case
// the inputs are written next to them as <name>.input.json, and the conformance
// module (conformance/describe_test.go) feeds those to k8s.io/kubectl v0.36.3's
// describers and compares with the .golden files.

func lrFixture(name, ns string, items ...corev1.LimitRangeItem) *corev1.LimitRange {
	return &corev1.LimitRange{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "LimitRange"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       corev1.LimitRangeSpec{Limits: items},
	}
}

func quotaFixture(name, ns string, scopes []corev1.ResourceQuotaScope, hard, used corev1.ResourceList) *corev1.ResourceQuota {
	return &corev1.ResourceQuota{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ResourceQuota"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       corev1.ResourceQuotaSpec{Hard: hard, Scopes: scopes},
		Status:     corev1.ResourceQuotaStatus{Hard: hard, Used: used},
	}
}

// describeCases: each case is a list of LimitRanges and ResourceQuotas, described
// one by one and joined by Describe.
func describeCases() []struct {
	name    string
	objects []any
} {
	// DESC-01: the example of docs/behaviour.md.
	basic := lrFixture("limits", "ns1",
		corev1.LimitRangeItem{
			Type:                 corev1.LimitTypeContainer,
			Min:                  corev1.ResourceList{"cpu": q("100m")},
			Max:                  corev1.ResourceList{"cpu": q("2"), "memory": q("1Gi")},
			Default:              corev1.ResourceList{"cpu": q("2"), "memory": q("1Gi")},
			DefaultRequest:       corev1.ResourceList{"cpu": q("200m"), "memory": q("1Gi")},
			MaxLimitRequestRatio: corev1.ResourceList{"cpu": q("4")},
		},
		corev1.LimitRangeItem{Type: corev1.LimitTypePod, Max: corev1.ResourceList{"cpu": q("3")}},
		corev1.LimitRangeItem{Type: corev1.LimitTypePersistentVolumeClaim, Min: corev1.ResourceList{"storage": q("1Gi")}},
	)
	// DESC-01: every column missing somewhere, extended and hugepages names (sorted
	// within an item, items in spec order), DecimalExponent values, an item
	// without resources (no row).
	extended := lrFixture("mixed-limits", "team-a",
		corev1.LimitRangeItem{
			Type:                 corev1.LimitTypeContainer,
			Min:                  corev1.ResourceList{"memory": q("64Mi"), "example.com/gpu": q("0")},
			Max:                  corev1.ResourceList{"memory": q("2Gi"), "hugepages-2Mi": q("1Gi"), "example.com/gpu": q("2")},
			Default:              corev1.ResourceList{"memory": q("512Mi"), "ephemeral-storage": q("1e9"), "example.com/gpu": q("1")},
			DefaultRequest:       corev1.ResourceList{"memory": q("256Mi"), "ephemeral-storage": q("500M"), "example.com/gpu": q("1")},
			MaxLimitRequestRatio: corev1.ResourceList{"memory": q("1500m"), "cpu": q("10")},
		},
		corev1.LimitRangeItem{Type: corev1.LimitTypeContainer},
		corev1.LimitRangeItem{
			Type:                 corev1.LimitTypePod,
			Max:                  corev1.ResourceList{"memory": q("4Gi"), "cpu": q("4000m")},
			MaxLimitRequestRatio: corev1.ResourceList{"memory": q("2")},
		},
		corev1.LimitRangeItem{
			Type: corev1.LimitTypePersistentVolumeClaim,
			Min:  corev1.ResourceList{"storage": q("1Gi")},
			Max:  corev1.ResourceList{"storage": q("10Gi")},
		},
	)
	// DESC-02: the example of docs/behaviour.md (hard 1G, used 512Mi → 536870912;
	// missing used → 0).
	compute := quotaFixture("compute-resources", "ns1",
		[]corev1.ResourceQuotaScope{corev1.ResourceQuotaScopeNotTerminating, corev1.ResourceQuotaScopeNotBestEffort},
		corev1.ResourceList{"pods": q("10"), "requests.cpu": q("1"), "limits.memory": q("1G"), "requests.nvidia.com/gpu": q("4"), "count/deployments.apps": q("2")},
		corev1.ResourceList{"pods": q("1"), "requests.cpu": q("500m"), "limits.memory": q("512Mi"), "count/deployments.apps": q("0")},
	)
	// DESC-02: more of the used-format quirk — the value is rounded up to an
	// integer and printed in the hard format; same formats print as they are.
	usedFormat := quotaFixture("storage", "team-a", nil,
		corev1.ResourceList{
			"requests.storage":           q("10Gi"),
			"requests.ephemeral-storage": q("1e9"),
			"example.com/foo":            q("1Ki"),
			"limits.cpu":                 q("2"),
			"requests.memory":            q("1Gi"),
			"services":                   q("5"),
		},
		corev1.ResourceList{
			"requests.storage":           q("1.5G"),
			"requests.ephemeral-storage": q("300M"),
			"example.com/foo":            q("500m"),
			"limits.cpu":                 q("1500m"),
			"requests.memory":            q("768Mi"),
			"unrelated":                  q("3"),
		},
	)
	// DESC-02: the four scopes with a help text and PriorityClass (none), unsorted.
	scoped := quotaFixture("scoped", "team-a",
		[]corev1.ResourceQuotaScope{
			corev1.ResourceQuotaScopePriorityClass, corev1.ResourceQuotaScopeTerminating, corev1.ResourceQuotaScopeNotBestEffort,
			corev1.ResourceQuotaScopeBestEffort, corev1.ResourceQuotaScopeNotTerminating,
		},
		corev1.ResourceList{"pods": q("10")},
		corev1.ResourceList{"pods": q("3")},
	)
	// Terminal escapes in what kubectl prints are replaced before alignment.
	escaped := lrFixture("evil\x1b[31m", "ns\r1", corev1.LimitRangeItem{
		Type: corev1.LimitTypeContainer,
		Max:  corev1.ResourceList{"cpu": q("1")},
	})
	return []struct {
		name    string
		objects []any
	}{
		{"limitrange", []any{basic}},
		{"limitrange-extended", []any{extended}},
		{"limitrange-empty", []any{lrFixture("empty", "default")}},
		{"limitrange-escaped", []any{escaped}},
		{"quota", []any{compute}},
		{"quota-used-format", []any{usedFormat}},
		{"quota-scopes", []any{scoped}},
		{"quota-empty", []any{quotaFixture("nothing", "default", nil, nil, nil)}},
		// DESC-03: several objects joined like `kubectl describe limitrange,quota`.
		{"several", []any{basic, compute, scoped}},
	}
}

func describeObject(t *testing.T, obj any) string {
	switch o := obj.(type) {
	case *corev1.LimitRange:
		return DescribeLimitRange(o)
	case *corev1.ResourceQuota:
		return DescribeQuota(o)
	}
	t.Fatalf("unexpected object %T", obj)
	return ""
}

func TestDescribeGolden(t *testing.T) {
	for _, c := range describeCases() {
		t.Run(c.name, func(t *testing.T) {
			var descriptions []string
			for _, obj := range c.objects {
				descriptions = append(descriptions, describeObject(t, obj))
			}
			var buf bytes.Buffer
			if err := Describe(&buf, descriptions); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join("testdata", "describe")
			assertGolden(t, filepath.Join(dir, c.name+".golden"), buf.Bytes())
			input, err := json.MarshalIndent(c.objects, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			assertGolden(t, filepath.Join(dir, c.name+".input.json"), append(input, '\n'))
		})
	}
}

// TestDescribeSemanticsExamples pins the two outputs docs/behaviour.md shows as
// verified against kubectl (DESC-01, DESC-02).
func TestDescribeSemanticsExamples(t *testing.T) {
	cases := describeCases()
	want := map[string]string{
		"limitrange": "" +
			"Name:                  limits\n" +
			"Namespace:             ns1\n" +
			"Type                   Resource  Min   Max  Default Request  Default Limit  Max Limit/Request Ratio\n" +
			"----                   --------  ---   ---  ---------------  -------------  -----------------------\n" +
			"Container              cpu       100m  2    200m             2              4\n" +
			"Container              memory    -     1Gi  1Gi              1Gi            -\n" +
			"Pod                    cpu       -     3    -                -              -\n" +
			"PersistentVolumeClaim  storage   1Gi   -    -                -              -\n",
		"quota": "" +
			"Name:       compute-resources\n" +
			"Namespace:  ns1\n" +
			"Scopes:     NotBestEffort, NotTerminating\n" +
			" * Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.\n" +
			" * Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.\n" +
			"Resource                 Used       Hard\n" +
			"--------                 ----       ----\n" +
			"count/deployments.apps   0          2\n" +
			"limits.memory            536870912  1G\n" +
			"pods                     1          10\n" +
			"requests.cpu             500m       1\n" +
			"requests.nvidia.com/gpu  0          4\n",
	}
	for _, c := range cases {
		if w, ok := want[c.name]; ok {
			if got := describeObject(t, c.objects[0]); got != w {
				t.Errorf("%s:\n--- got ---\n%s--- want ---\n%s", c.name, got, w)
			}
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestDescribeJoin: nothing for no descriptions, no separator before the first
// or after the last, write errors returned (DESC-03).
func TestDescribeJoin(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"a\n"}, "a\n"},
		{[]string{"a\n", "b\n", "c\n"}, "a\n\n\nb\n\n\nc\n"},
	} {
		var buf bytes.Buffer
		if err := Describe(&buf, c.in); err != nil || buf.String() != c.want {
			t.Errorf("Describe(%q) = %q, %v; want %q", c.in, buf.String(), err, c.want)
		}
	}
	if err := Describe(failingWriter{}, []string{"a\n"}); err == nil {
		t.Error("Describe to a failing writer: no error")
	}
}
