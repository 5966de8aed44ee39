package check_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/limitcheck/limitcheck/internal/casefiles"
	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
)

// TestFitOnScripts (FIT-01..03): on the input of every testscript (its
// manifests joined), fit, rollouts and quota suggestions leave check's
// verdicts and final quotas as they are, fail on nothing, and every
// workload is admitted exactly when it fits the replicas it wants.
func TestFitOnScripts(t *testing.T) {
	scripts := casefiles.Scripts(t)
	fits, rollouts := 0, 0
	for _, path := range scripts {
		a, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var docs []string
		for _, f := range a.Files {
			if ext := filepath.Ext(f.Name); ext == ".yaml" || ext == ".yml" {
				docs = append(docs, string(f.Data))
			}
		}
		input := strings.Join(docs, "\n---\n")
		run := func(opts check.Options) *check.Report {
			opts.Paths, opts.Stdin, opts.Engine = []string{"-"}, strings.NewReader(input), eval.Options{DefaultNamespace: "default", Nodes: 2}
			rep, err := check.Run(opts)
			if err != nil {
				return nil
			}
			return rep
		}
		plain := run(check.Options{})
		if plain == nil {
			continue
		}
		name := filepath.Base(path)
		for _, opts := range []check.Options{{Fit: true, Rollout: true}, {SuggestQuota: true}} {
			rep := run(opts)
			if g, w := verdicts(rep), verdicts(plain); g != w {
				t.Fatalf("%s %+v: verdicts\n%s\nwant\n%s", name, opts, g, w)
			}
		}
		rep := run(check.Options{Fit: true, Rollout: true})
		for i := range rep.Entries {
			e := &rep.Entries[i]
			if f := e.Fit; f != nil {
				fits++
				if f.WantedFits() != e.Result.Allowed {
					t.Errorf("%s: %s %s: admitted %v, but %d wanted, %d fit (binding %+v)", name, e.Result.Kind, e.Result.Name, e.Result.Allowed, f.Wanted, f.Fit, f.Binding)
				}
			}
			if r := e.Rollout; r != nil {
				rollouts++
				if strings.HasPrefix(r.Note, "limitcheck failed") || (!r.Complete && r.Note == "" && r.Binding == nil) {
					t.Errorf("%s: %s %s: rollout %+v", name, e.Result.Kind, e.Result.Name, r)
				}
				if r.Complete && r.Note == "" && (r.New != r.Replicas || r.Old != 0) {
					t.Errorf("%s: %s %s: complete with %d new, %d old", name, e.Result.Kind, e.Result.Name, r.New, r.Old)
				}
			}
		}
	}
	if fits < 20 || rollouts < 5 {
		t.Fatalf("only %d fits and %d rollouts", fits, rollouts)
	}
	t.Logf("%d scripts, %d fits, %d rollouts", len(scripts), fits, rollouts)
}

// verdicts is every entry's verdict and message and every quota's final use.
func verdicts(rep *check.Report) string {
	var b bytes.Buffer
	for i := range rep.Entries {
		e := &rep.Entries[i]
		fmt.Fprintf(&b, "%s %s/%s allowed=%v", e.Result.Kind, e.Result.Namespace, e.Result.Name, e.Result.Allowed)
		if d := e.Result.Denial; d != nil {
			b.WriteString(" " + d.Message)
		}
		if w := e.Result.Workload; w != nil {
			fmt.Fprintf(&b, " admitted %d of %d", w.Admitted, w.Replicas)
		}
		b.WriteString("\n")
	}
	for _, q := range rep.Quotas {
		fmt.Fprintf(&b, "%s/%s used %v\n", q.Quota.Namespace, q.Quota.Name, q.Quota.Status.Used)
	}
	return b.String()
}
