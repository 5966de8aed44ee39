package check_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/limitcheck/limitcheck/internal/casefiles"
	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/quota"
	"github.com/limitcheck/limitcheck/internal/render"
)

// FuzzPipeline runs the whole pipeline on arbitrary input read from stdin:
// loader, engine with controllers, every output format and describe. The first
// byte picks the options. Nothing may panic, no object may be an internal
// error, every document must be accounted for, and the JSON must be valid.
func FuzzPipeline(f *testing.F) {
	for _, seed := range pipelineSeeds(f) {
		f.Add(byte(0), seed)
	}
	f.Add(byte(0x07), []byte("apiVersion: v2\nkind: Pod\nmetadata: {name: p}\n---\napiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec: {hard: {pods: '1'}}\n"))
	f.Fuzz(func(t *testing.T, flags byte, data []byte) {
		opts := check.Options{
			Paths:  []string{"-"},
			Stdin:  bytes.NewReader(data),
			Engine: eval.Options{DefaultNamespace: "default", Nodes: 1 + int(flags>>5)},
			// What check does by default, and what fit adds.
			Lint: true, Fit: true, Rollout: true, SuggestQuota: flags&0x80 != 0,
		}
		if flags&1 != 0 {
			opts.Order = check.OrderInput
		}
		if flags&2 != 0 {
			opts.Engine.DisableControllers = true
		}
		if flags&4 != 0 {
			opts.Engine.QuotaUsage = quota.UsageObserved
		}
		if flags&8 != 0 {
			r := int32(flags>>4) & 7
			opts.Engine.Replicas = &r
		}
		if flags&16 != 0 {
			opts.EnforceNamespace = true
		}
		rep, err := check.Run(opts)
		if err != nil {
			return // the input as a whole was refused (e.g. no objects): fine
		}
		streamedAsKept(t, opts, data)
		for i := range rep.Entries {
			e := &rep.Entries[i]
			if e.Result.Internal != "" {
				t.Fatalf("internal error on entry %d (%s %s): %s", i, e.Result.Kind, e.Result.Name, e.Result.Internal)
			}
			if e.Err == nil && !e.Result.Skipped && !e.Result.Allowed && e.Result.Denial == nil && e.Result.Workload == nil {
				t.Fatalf("entry %d (%s %s) is neither admitted, denied, skipped nor an error", i, e.Result.Kind, e.Result.Name)
			}
			results := []eval.Result{e.Result}
			if w := e.Result.Workload; w != nil {
				results = append(results, w.Created...)
			}
			for _, r := range results {
				if d := r.Denial; d != nil && !d.PartsInOrder() {
					t.Fatalf("%s %s: parts %q are not in the order of the message %q", r.Kind, r.Name, d.Parts, d.Message)
				}
			}
		}
		for _, name := range render.Formats() {
			format, _ := render.Lookup(name)
			var out bytes.Buffer
			for _, color := range []bool{false, true} {
				out.Reset()
				if err := format.Render(&out, rep, render.Options{Color: color}); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
			if name == "json" && !json.Valid(out.Bytes()) {
				t.Fatalf("invalid JSON:\n%s", out.String())
			}
		}
		for name, write := range map[string]func(io.Writer, *check.Report, render.Options) error{
			"fit": render.FitText, "fit json": render.FitJSON, "fit describe": render.FitDescribe,
			"fit quota": render.QuotaYAML, "fit quota json": render.QuotaJSON,
			"fit describe findings": func(w io.Writer, r *check.Report, _ render.Options) error { return render.FitDescribeFindings(w, r) },
		} {
			var out bytes.Buffer
			if err := write(&out, rep, render.Options{}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if strings.HasSuffix(name, "json") && !json.Valid(out.Bytes()) {
				t.Fatalf("invalid %s:\n%s", name, out.String())
			}
		}
		for _, name := range render.LintFormats() {
			format, _ := render.LookupLint(name)
			if err := format.Render(io.Discard, rep, render.Options{}); err != nil {
				t.Fatalf("lint %s: %v", name, err)
			}
		}
		var descriptions []string
		for _, lr := range rep.LimitRanges {
			descriptions = append(descriptions, render.DescribeLimitRange(lr))
		}
		for _, q := range rep.Quotas {
			descriptions = append(descriptions, render.DescribeQuota(q.Quota))
		}
		if err := render.Describe(io.Discard, descriptions); err != nil {
			t.Fatal(err)
		}
	})
}

// streamedAsKept checks that check's report written as its entries are
// decided (check.Options.Stream: the engine told no quota follows, findings
// and results spooled) is byte for byte the report of a run that keeps every
// entry, for every format that streams, and that both count the same. The
// run that keeps every entry also reads every document in its first look
// (check.ReadingEverythingFirst), so the documents the first look leaves
// unread are shown to change nothing.
func streamedAsKept(t *testing.T, opts check.Options, data []byte) {
	t.Helper()
	opts.Fit, opts.Rollout, opts.SuggestQuota = false, false, false
	for _, name := range render.Formats() {
		format, _ := render.Lookup(name)
		streamer, ok := format.(render.Streamer)
		if !ok {
			continue
		}
		o := render.Options{Color: name == "text" && len(data)%2 == 1}
		opts.Stdin, opts.Stream = bytes.NewReader(data), nil
		kept, keptErr := keptRun(opts)
		var want bytes.Buffer
		if keptErr == nil {
			kept.AddLintWarnings()
			if err := format.Render(&want, kept, o); err != nil {
				t.Fatal(err)
			}
		}
		var got bytes.Buffer
		stream := streamer.Stream(&got, o)
		opts.Stdin, opts.Stream = bytes.NewReader(data), stream.Entry
		streamed, err := check.Run(opts)
		if (err == nil) != (keptErr == nil) || (err != nil && err.Error() != keptErr.Error()) {
			t.Fatalf("-o %s: streamed run ends with %v, kept run with %v", name, err, keptErr)
		}
		if err != nil {
			stream.Discard()
			continue
		}
		streamed.AddLintWarnings()
		if err := stream.Finish(streamed); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("-o %s streamed differs from kept:\n--- streamed\n%s\n--- kept\n%s", name, got.String(), want.String())
		}
		if streamed.Summary() != kept.Summary() {
			t.Fatalf("-o %s: streamed summary %+v, kept %+v", name, streamed.Summary(), kept.Summary())
		}
	}
}

// pipelineSeeds are the manifests of the CLI's test scripts and of the
// examples: one seed per file.
func pipelineSeeds(tb testing.TB) [][]byte {
	var seeds [][]byte
	scripts := casefiles.Scripts(tb)
	for _, s := range scripts {
		a, err := txtar.ParseFile(s)
		if err != nil {
			tb.Fatal(err)
		}
		for _, file := range a.Files {
			if ext := filepath.Ext(file.Name); ext == ".yaml" || ext == ".yml" || ext == ".json" {
				seeds = append(seeds, file.Data)
			}
		}
	}
	err := filepath.WalkDir("../../examples", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		b, err := os.ReadFile(p)
		seeds = append(seeds, b)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(seeds) < 20 {
		tb.Fatalf("only %d seeds found", len(seeds))
	}
	return seeds
}

// keptRun is check.Run with a first look that reads every document.
func keptRun(opts check.Options) (rep *check.Report, err error) {
	check.ReadingEverythingFirst(func() { rep, err = check.Run(opts) })
	return rep, err
}
