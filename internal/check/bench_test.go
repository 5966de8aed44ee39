package check_test

import (
	"os"
	"testing"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
)

// BenchmarkRunCorpus runs the loader and the engine over the directory
// LIMITCHECK_BENCH_CORPUS (make bench generates one); skipped without it.
func BenchmarkRunCorpus(b *testing.B) {
	dir := os.Getenv("LIMITCHECK_BENCH_CORPUS")
	if dir == "" {
		b.Skip("LIMITCHECK_BENCH_CORPUS names no corpus directory (make bench sets it)")
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := check.Run(check.Options{Paths: []string{dir}, Engine: eval.Options{DefaultNamespace: "default"}}); err != nil {
			b.Fatal(err)
		}
	}
}
