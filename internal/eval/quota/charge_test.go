package quota

import (
	"fmt"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/limitcheck/limitcheck/internal/eval/resources"
)

// TestChargeReadsBackLikeUpdateStatus charges quotas again and again and
// compares each status.used charge writes with the whole list added up and
// read back (QS-02), which is what kube-apiserver's UpdateStatus gives: the
// same amounts printing the same way in the same format. A list a Snapshot
// holds is left as it was. The quotas start from used amounts that are not in their
// stored form (0.5Ki is binary, and reads back as the decimal 512), as an
// observed or seeded status.used can.
func TestChargeReadsBackLikeUpdateStatus(t *testing.T) {
	amounts := []string{"0", "1", "100m", "250m", "0.5Ki", "1Ki", "1536", "1Gi", "500Mi", "100M", "3", "1e3", "0.1", "2k"}
	names := []corev1.ResourceName{"cpu", "memory", "pods", "requests.storage", "count/configmaps"}
	rng := rand.New(rand.NewPCG(7, 11))
	pick := func() resource.Quantity { return resource.MustParse(amounts[rng.IntN(len(amounts))]) }
	for round := 0; round < 200; round++ {
		q := &corev1.ResourceQuota{}
		ns := Namespace{Quotas: []*corev1.ResourceQuota{q}}
		q.Status.Used = corev1.ResourceList{}
		for _, n := range names {
			if rng.IntN(2) == 0 {
				q.Status.Used[n] = pick()
			}
		}
		want := q.Status.Used.DeepCopy()
		for step := 0; step < 8; step++ {
			var sums []namedAmount
			add := corev1.ResourceList{}
			for _, n := range names {
				if rng.IntN(3) != 0 {
					continue
				}
				d := pick()
				add[n] = d
				total := d.DeepCopy()
				if u, ok := q.Status.Used[n]; ok {
					total = u.DeepCopy()
					total.Add(d)
				}
				sums = append(sums, namedAmount{n, total})
			}
			snap := rng.IntN(2) == 0
			if snap {
				ns.Snapshot()
			}
			before := q.Status.Used
			beforeText := describe(before)
			want = resources.Stored(addLists(want, add))
			q.Status.Used = ns.charge(q, sums)
			if got, w := describe(q.Status.Used), describe(want); got != w {
				t.Fatalf("round %d step %d: charging %s gave\n  %s\nwant\n  %s", round, step, describe(add), got, w)
			}
			if snap && describe(before) != beforeText {
				t.Fatalf("round %d step %d: the list before the charge changed: %s, was %s", round, step, describe(before), beforeText)
			}
		}
	}
}

// describe prints every amount of l with its format, names in order.
func describe(l corev1.ResourceList) string {
	s := ""
	for _, n := range resources.SortedNames(l) {
		v := l[n]
		s += fmt.Sprintf("%s=%s(%s) ", n, v.String(), v.Format)
	}
	return s
}
