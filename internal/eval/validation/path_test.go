package validation

import (
	"math"
	"math/rand/v2"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestLazyPath: any sequence of Child, Index and Key, from a name or from an
// existing *field.Path, gives the path field.Path gives, past the inline
// elements too.
func TestLazyPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	roots := []*field.Path{nil, field.NewPath("spec", "template"), {}}
	for n := 0; n < 2000; n++ {
		root := roots[n%len(roots)]
		var lp lazyPath
		var fp *field.Path
		if root == nil {
			lp, fp = newLazyPath("spec"), field.NewPath("spec")
		} else {
			lp, fp = lazy(root), root
		}
		for range rng.IntN(3 * maxLazyElems) {
			switch rng.IntN(3) {
			case 0:
				name := []string{"containers", "", "a.b", "resources"}[rng.IntN(4)]
				lp, fp = lp.Child(name), fp.Child(name)
			case 1:
				i := []int{0, 7, -1, math.MaxInt, math.MinInt}[rng.IntN(5)]
				lp, fp = lp.Index(i), fp.Index(i)
			default:
				k := []string{"cpu", "", "example.com/gpu"}[rng.IntN(3)]
				lp, fp = lp.Key(k), fp.Key(k)
			}
		}
		if got, want := lp.Path().String(), fp.String(); got != want {
			t.Fatalf("case %d: got %q, want %q", n, got, want)
		}
	}
}

var lazyPathSink int

func TestLazyPathDoesNotAllocate(t *testing.T) {
	root := newLazyPath("spec")
	n := testing.AllocsPerRun(100, func() {
		p := root
		for p.n+2 <= maxLazyElems {
			p = p.Child("c").Index(int(p.n))
		}
		lazyPathSink = int(p.n)
	})
	if n != 0 {
		t.Errorf("%v allocations", n)
	}
}
