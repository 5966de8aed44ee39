package render

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// encodeBoth returns a result as encoding/json and as appendResult write it.
func encodeBoth(t testing.TB, r jsonResult, prefix string) (want, got []byte) {
	t.Helper()
	enc := &indenter{}
	w, err := enc.encode(r, prefix)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Clone(w), appendResult(nil, &r, prefix)
}

// TestResultEncoding: appendResult writes every result of the examples and
// the CLI's test scripts (Pods, workloads with created objects, errors,
// skipped documents, live policies) as encoding/json does.
func TestResultEncoding(t *testing.T) {
	var paths []string
	for _, glob := range []string{"../../examples/*/*.yaml", "testdata/describe/*.yaml"} {
		m, _ := filepath.Glob(glob)
		paths = append(paths, m...)
	}
	if len(paths) < 10 {
		t.Fatalf("only %d inputs", len(paths))
	}
	n := 0
	for _, p := range paths {
		rep, err := check.Run(check.Options{Paths: []string{p}, Lint: true, Engine: eval.Options{Nodes: 2}})
		if err != nil {
			continue
		}
		for i := range rep.Entries {
			r := newJSONResult(&rep.Entries[i])
			r.Live = i%3 == 0
			for _, prefix := range []string{"", "    "} {
				want, got := encodeBoth(t, r, prefix)
				if !bytes.Equal(want, got) {
					t.Fatalf("%s entry %d:\n%s\nwant\n%s", p, i, got, want)
				}
				n++
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d results compared", n)
	}
	if _, err := os.Stat("../../examples"); err != nil {
		t.Fatal(err)
	}
}

// FuzzResultEncoding: any text in any string of a result (control
// characters, quotes, invalid UTF-8, U+2028) is escaped as encoding/json
// escapes it, and nil and empty lists and maps are told apart as it does.
func FuzzResultEncoding(f *testing.F) {
	f.Add("web", "a\"b\\c\n\t\x01\x7f", "\u2028\u2029é", "\xff\xfe", uint8(0))
	f.Add("", "", "", "<&>", uint8(0xff))
	f.Fuzz(func(t *testing.T, a, b, c, d string, shape uint8) {
		allowed := shape&1 != 0
		r := jsonResult{File: a, Line: len(b), Index: -len(c), Source: d, APIVersion: b, Kind: c, Namespace: d, Name: a, GenerateName: d,
			Skipped: shape&2 != 0, SkipReason: b, Error: c, Live: shape&4 != 0,
			jsonStatus: jsonStatus{Code: int32(len(a)), Reason: a, Stage: b, Message: c, MessageParts: []string{a, b}, Warnings: []string{d}}}
		if shape&8 != 0 {
			r.Allowed = &allowed
			r.MessageParts, r.Warnings = nil, []string{}
		}
		pod := &jsonPod{Containers: []jsonContainer{{Name: a, Init: true, jsonResources: jsonResources{Requests: sortedQuantities(map[string]string{a: b, c: d}), Limits: jsonQuantities{}}}},
			Annotations: map[string]string{d: a, b: c}}
		if shape&16 != 0 {
			pod.PodResources = &jsonResources{Requests: sortedQuantities(map[string]string{b: a})}
			pod.Annotations = nil
		}
		if shape&32 != 0 {
			r.jsonPod = pod
		}
		if shape&64 != 0 {
			r.jsonWorkload = &jsonWorkload{Replicas: 3, Admitted: len(d), Created: []jsonCreated{
				{APIVersion: a, Kind: b, Name: c, GenerateName: b, Pod: d, Allowed: allowed, Count: int(shape >> 7), jsonStatus: r.jsonStatus, jsonPod: pod},
				{Name: d},
			}}
		}
		if shape&128 != 0 && shape&64 == 0 {
			r.jsonWorkload = &jsonWorkload{}
		}
		for _, prefix := range []string{"", "    "} {
			want, got := encodeBoth(t, r, prefix)
			if !bytes.Equal(want, got) {
				t.Fatalf("got\n%s\nwant\n%s", got, want)
			}
		}
	})
}

// sortedQuantities is m as a jsonQuantities.
func sortedQuantities(m map[string]string) jsonQuantities {
	l := jsonQuantities{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		l = append(l, jsonQuantity{k, m[k]})
	}
	return l
}

// TestQuantityList: canonical strings, names in order, {} for none.
func TestQuantityList(t *testing.T) {
	for _, tc := range []struct {
		list corev1.ResourceList
		want string
	}{
		{nil, "[]"},
		{corev1.ResourceList{"memory": resource.MustParse("1024Mi"), "cpu": resource.MustParse("0.5"), "example.com/gpu": resource.MustParse("1"), "ephemeral-storage": resource.MustParse("1e3")},
			"[{cpu 500m} {ephemeral-storage 1e3} {example.com/gpu 1} {memory 1Gi}]"},
	} {
		for range 5 { // map order differs from run to run
			if got := fmt.Sprint(quantityList(tc.list)); got != tc.want {
				t.Errorf("quantityList(%v) = %s, want %s", tc.list, got, tc.want)
			}
		}
	}
}
