package e2e

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/limitcheck/limitcheck/conformance"
)

var flagWorkers = flag.Int("workers", 4, "cases replayed at once (cases with classes run alone)")

// randomCase turns a generated case into one a real cluster reproduces, or
// says why it cannot.
func randomCase(seed uint64, n int, g conformance.Case) (*Case, string) {
	switch {
	case !g.PodLevelResources:
		return nil, "feature gate PodLevelResources off (needs another kube-apiserver)"
	case g.QuotaConfig != nil:
		return nil, "a quota admission configuration (needs another kube-apiserver)"
	case g.DisableControllers:
		return nil, "--simulate-controllers=false (the cluster runs its controllers)"
	case g.Replicas != nil:
		return nil, "--replicas N (the cluster creates what the spec says)"
	}
	c := &Case{Name: fmt.Sprintf("seed%d-case%d", seed, n), Namespace: "ns1"}
	hasPC := false
	mentions := map[string]bool{}
	for _, d := range g.Docs {
		c.Docs = append(c.Docs, d)
		if metaOf(d).Kind == "PriorityClass" {
			hasPC = true
		}
		for _, name := range []string{"high", "low"} {
			if strings.Contains(string(d), `"priorityClassName":"`+name+`"`) {
				mentions[name] = true
			}
		}
	}
	// Without PriorityClasses in the input, limitcheck trusts the names Pods
	// give (the cluster's classes are unknown to it); the real cluster has
	// none, so the classes the generator's Pods name are given to both.
	if !hasPC && len(mentions) > 0 {
		var pcs [][]byte
		for _, name := range []string{"high", "low"} {
			if mentions[name] {
				b, _ := json.Marshal(map[string]any{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
					"metadata": map[string]any{"name": name}, "value": 0})
				pcs = append(pcs, b)
			}
		}
		c.Docs = append(pcs, c.Docs...)
	}
	// The cluster has one node (createNode).
	c.Flags = []string{"--nodes", "1"}
	c.Rename(fmt.Sprintf("r%d-%d-", seed, n))
	return c, ""
}

// TestRandom replays cases of the conformance generators.
func TestRandom(t *testing.T) {
	needPlane(t)
	if *flagReplay != "" {
		t.Skip("-replay")
	}
	gen := conformance.NewGenerator(*flagSeed)
	var tl tally
	start := time.Now()
	ctx := context.Background()
	cases := make(chan *Case)
	var wg sync.WaitGroup
	for w := 0; w < *flagWorkers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range cases {
				var st Stats
				diffs, err := runCase(ctx, c, &st)
				tl.merge(st)
				if err != nil {
					tl.fail(t, c, err)
					continue
				}
				tl.add(t, c, diffs)
			}
		}()
	}
	// -cases counts the cases replayed; those a cluster cannot take are
	// generated on top, and counted apart.
	for i, replayed := 0, 0; replayed < *flagCases; i++ {
		g := gen.Next()
		c, why := randomCase(*flagSeed, i, g)
		if c == nil {
			tl.mu.Lock()
			tl.st.skip("case: " + why)
			tl.mu.Unlock()
			continue
		}
		replayed++
		cases <- c
	}
	close(cases)
	wg.Wait()
	tl.summary(t, fmt.Sprintf("random (seed %d)", *flagSeed), start)
}
