package conformance

import (
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval"
)

// TestQuotaStatusStored (QS-02): a Pod of 500Mi and one of 100M are charged in
// that order; the next denial reads the usage as the API served it back,
// memory=624288k, on both sides.
func TestQuotaStatusStored(t *testing.T) {
	docs := []string{
		`{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"mem"},"spec":{"hard":{"limits.memory":"700M"}}}`,
		`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"containers":[{"name":"c","image":"i","resources":{"limits":{"memory":"500Mi"}}}]}}`,
		`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"b"},"spec":{"containers":[{"name":"c","image":"i","resources":{"limits":{"memory":"100M"}}}]}}`,
		`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"c"},"spec":{"containers":[{"name":"c","image":"i","resources":{"limits":{"memory":"100M"}}}]}}`,
	}
	up, err := NewUpstream(nil)
	if err != nil {
		t.Fatal(err)
	}
	engine := eval.New(eval.Options{DefaultNamespace: "ns1"})
	var want Outcome
	var got eval.Result
	for _, d := range docs {
		if want, err = up.Create([]byte(d), "ns1"); err != nil {
			t.Fatal(err)
		}
		if got, err = Mine(engine, []byte(d)); err != nil {
			t.Fatal(err)
		}
	}
	const msg = `pods "c" is forbidden: exceeded quota: mem, requested: limits.memory=100M, used: limits.memory=624288k, limited: limits.memory=700M`
	if want.Message != msg {
		t.Errorf("upstream: %s", want.Message)
	}
	if got.Denial == nil || got.Denial.Message != msg {
		t.Errorf("limitcheck: %+v", got.Denial)
	}
}
