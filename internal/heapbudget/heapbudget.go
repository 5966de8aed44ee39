// Package heapbudget sets how the garbage collector paces a run of
// limitcheck: a one-shot process whose live heap is small (the policies, the
// names taken, one position per finding) while it allocates a great deal per
// document.
//
// Go's default (GOGC=100) collects whenever the heap has doubled since the
// last collection: with 5-15 MiB live, that is a collection every few
// megabytes allocated, well over a hundred in a run of a few seconds. Go
// has no setting for a minimum heap, so Start makes one: the collector is
// paced by a memory limit alone (GOGC off, GOMEMLIMIT at the budget) until
// the live heap reaches handBack of the budget, and from then on by GOGC=100
// with no limit, as if nothing had been set. With the small live heap a run
// usually has, it collects far less often than the default; nearer
// handBack, somewhat more often, which is what keeps memory within the
// budget; above it, a large live heap never makes the collector run against
// the limit.
package heapbudget

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Default is the memory limit a run starts under: the runtime's own memory
// (heap, stacks, its structures), not the program's code.
const Default = 48 << 20

// handBack is the share of the budget the live heap may reach before the
// pacing is handed back to the defaults.
const handBack = 0.6

var (
	mu      sync.Mutex
	budget  int64 // 0: not started, or handed back to the defaults
	samples = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
)

// Start paces the collector by a memory limit of b bytes until the live
// heap reaches handBack of it, and asks for three quarters of it in huge
// pages (preferHugePages). It does nothing when the user chose a pacing:
// either of GOGC and GOMEMLIMIT is set in the environment.
func Start(b int64) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" || b <= 0 {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	if budget != 0 {
		return
	}
	budget = b
	debug.SetMemoryLimit(b)
	debug.SetGCPercent(-1)
	preferHugePages(int(b / 4 * 3))
	watch()
}

// Stop restores the runtime's default pacing: GOGC=100, no memory limit.
func Stop() {
	mu.Lock()
	defer mu.Unlock()
	stop()
}

func stop() {
	if budget == 0 {
		return
	}
	budget = 0
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
}

// watch runs check after the next collection.
func watch() {
	runtime.AddCleanup(new(sentinel), func(struct{}) { check() }, struct{}{})
}

// sentinel is garbage as soon as it is made; its cleanup runs after the
// collection that frees it. (Large enough not to share a tiny block.)
type sentinel struct{ _ [32]byte }

// check hands the pacing back to the defaults once the live heap has
// reached handBack of the budget, and otherwise watches the next collection.
func check() {
	mu.Lock()
	defer mu.Unlock()
	if budget == 0 {
		return
	}
	metrics.Read(samples)
	if samples[0].Value.Uint64() >= uint64(float64(budget)*handBack) {
		stop()
		return
	}
	watch()
}
