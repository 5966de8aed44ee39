package check_test

import (
	"os"
	"testing"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
)

// BenchmarkRunCorpus runs the loader and the engine over the directory
// LIMITCHECK_BENCH_CORPUS (make bench generates one); skipped without it.
// "kept" keeps every entry in the report; "streamed" hands each to a Stream
// that keeps none, as the CLI's text and JSON output do (Pods prepared on
// the loader's goroutines).
func BenchmarkRunCorpus(b *testing.B) {
	dir := os.Getenv("LIMITCHECK_BENCH_CORPUS")
	if dir == "" {
		b.Skip("LIMITCHECK_BENCH_CORPUS names no corpus directory (make bench sets it)")
	}
	for _, bc := range []struct {
		name   string
		stream func(*check.Entry) bool
	}{
		{"kept", nil},
		{"streamed", func(*check.Entry) bool { return false }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				opts := check.Options{Paths: []string{dir}, Engine: eval.Options{DefaultNamespace: "default"}, Stream: bc.stream}
				if _, err := check.Run(opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
