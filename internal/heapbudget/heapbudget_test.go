package heapbudget

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func pacing() (gogc int, limit int64) {
	gogc = debug.SetGCPercent(-1)
	debug.SetGCPercent(gogc)
	return gogc, debug.SetMemoryLimit(-1)
}

// waitFor polls cond across collections: cleanups run on their own
// goroutine after the collection that frees the sentinel.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 200 {
		if cond() {
			return
		}
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("never: %s", what)
}

func TestBudget(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer Stop()

	Start(64 << 20)
	if gogc, limit := pacing(); gogc != -1 || limit != 64<<20 {
		t.Fatalf("after Start: GOGC %d, limit %d; want off and 64 MiB", gogc, limit)
	}
	// A small live heap keeps the budget across collections.
	for range 5 {
		runtime.GC()
	}
	time.Sleep(20 * time.Millisecond)
	if gogc, limit := pacing(); gogc != -1 || limit != 64<<20 {
		t.Fatalf("small heap: GOGC %d, limit %d; want the budget kept", gogc, limit)
	}
	// A live heap of half the budget hands the pacing back to the defaults.
	live := make([][]byte, 40)
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	waitFor(t, "the defaults restored with 40 MiB live", func() bool {
		gogc, limit := pacing()
		return gogc == 100 && limit == math.MaxInt64
	})
	runtime.KeepAlive(live)
}

func TestUserPacingWins(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(env, "200")
			before, beforeLimit := pacing()
			Start(64 << 20)
			defer Stop()
			if gogc, limit := pacing(); gogc != before || limit != beforeLimit {
				t.Fatalf("%s set: pacing changed to GOGC %d, limit %d", env, gogc, limit)
			}
		})
	}
}
