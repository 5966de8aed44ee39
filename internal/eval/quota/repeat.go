package quota

import (
	"slices"

	"gopkg.in/inf.v0"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/limitcheck/limitcheck/internal/eval/resources"
)

// Replica arithmetic (WL-03). A controller creates the replicas of one
// template one after another, each identical to the last but for its name.
// Once one replica's creates were all admitted, the next one's are too as
// long as every quota it charges has room for another replica's worth, and
// each charge adds the same amount; the number of further replicas that fit
// is then a division, not a simulation.

// Snapshot is the quota state of a namespace between two creates: the used
// amounts of its quotas and how many objects it stores. It shares the lists:
// Check replaces a list a Snapshot holds rather than changing it.
type Snapshot struct {
	used    []corev1.ResourceList
	objects int
}

// Snapshot returns the namespace's current quota state.
func (ns *Namespace) Snapshot() Snapshot {
	s := Snapshot{used: make([]corev1.ResourceList, len(ns.Quotas)), objects: len(ns.Objects)}
	for i, q := range ns.Quotas {
		s.used[i] = q.Status.Used
		ns.keptFor(q).shared = true
	}
	return s
}

// Repeat applies, up to limit more times, what happened to the namespace
// between before and after: one replica's creates, all admitted, or none
// changing anything. It stops before the first repetition some quota would
// refuse, and returns how many it applied: each quota's used grows by that
// many times the step's charge and the objects the step stored count that
// many times more in the quota controller's recount.
//
// It returns 0, applying nothing, when the step's effect cannot be repeated
// exactly by arithmetic: quotas came or went, or a used amount would print
// in another format after more charges than it did after one (QS-02: a
// binary amount that stops being a multiple of 1024 reads back as decimal).
// The caller then creates the next replica for real. With enforced false
// (Checker.Unenforced) no hard limit stops the repetition.
//
// frozen are the resources of what the step created and quota refused (a
// Pod's claim): their usage must not change, so that each repetition
// refuses them alike. A step charging any of them is not repeated.
func (ns *Namespace) Repeat(before, after Snapshot, limit int, enforced bool, frozen []corev1.ResourceName) int {
	if limit <= 0 || len(before.used) != len(ns.Quotas) || len(after.used) != len(ns.Quotas) || after.objects < before.objects {
		return 0
	}
	type charge struct {
		quota int
		name  corev1.ResourceName
		step  *inf.Dec
	}
	var charges []charge
	k := int64(limit)
	for i, q := range ns.Quotas {
		for _, name := range resources.SortedNames(after.used[i]) {
			was, ok := before.used[i][name]
			now := after.used[i][name]
			if !ok {
				return 0
			}
			step := new(inf.Dec).Sub(now.AsDec(), was.AsDec())
			switch step.Sign() {
			case 0:
				continue
			case -1:
				return 0
			}
			if slices.Contains(frozen, name) {
				return 0
			}
			if !sameFormatAfterMore(was, now, step) {
				return 0
			}
			charges = append(charges, charge{i, name, step})
			hard, ok := q.Status.Hard[name]
			if !ok || !enforced {
				continue
			}
			room := new(inf.Dec).Sub(hard.AsDec(), now.AsDec())
			if room.Sign() < 0 {
				return 0
			}
			fit := new(inf.Dec).QuoRound(room, step, 0, inf.RoundDown)
			if n, ok := decInt64(fit); ok && n < k {
				k = n
			}
		}
	}
	if k <= 0 {
		return 0
	}
	for _, c := range charges {
		q := ns.Quotas[c.quota]
		used := make(corev1.ResourceList, len(q.Status.Used))
		for name, v := range q.Status.Used {
			used[name] = v
		}
		total := used[c.name].DeepCopy()
		more := new(inf.Dec).Mul(c.step, inf.NewDec(k, 0))
		total.Add(*resource.NewDecimalQuantity(*more, total.Format))
		used[c.name] = total
		q.Status.Used = resources.Stored(used)
	}
	for j := before.objects; j < after.objects; j++ {
		ns.Objects[j].more += int(k)
	}
	return int(k)
}

// sameFormatAfterMore reports whether a used amount that went from was to now
// with one charge of step keeps printing in now's format after any number
// of further charges of step (resources.Stored re-reads it each time).
func sameFormatAfterMore(was, now resource.Quantity, step *inf.Dec) bool {
	if was.Format != now.Format || was.IsZero() {
		return false
	}
	switch now.Format {
	case resource.DecimalSI:
		return true // a decimal amount prints with a decimal suffix or none
	case resource.BinarySI:
		// Printed with a binary suffix only while a multiple of 1024.
		return multipleOf(step, 1024) && multipleOf(now.AsDec(), 1024)
	case resource.DecimalExponent:
		// Printed as <n>e<3k> with k ≠ 0 only while not an integer, or a
		// multiple of 1000; stay on multiples of 1000.
		return multipleOf(step, 1000) && multipleOf(now.AsDec(), 1000)
	}
	return false
}

func multipleOf(d *inf.Dec, n int64) bool {
	q := new(inf.Dec).QuoRound(d, inf.NewDec(n, 0), 0, inf.RoundDown)
	return new(inf.Dec).Mul(q, inf.NewDec(n, 0)).Cmp(d) == 0
}

func decInt64(d *inf.Dec) (int64, bool) {
	b := d.UnscaledBig()
	if d.Scale() != 0 || !b.IsInt64() {
		return 0, false
	}
	return b.Int64(), true
}

// scaled is l times n, each quantity keeping its format.
func scaled(l corev1.ResourceList, n int) corev1.ResourceList {
	if n == 1 {
		return l
	}
	out := make(corev1.ResourceList, len(l))
	for k, v := range l {
		out[k] = *resource.NewDecimalQuantity(*new(inf.Dec).Mul(v.AsDec(), inf.NewDec(int64(n), 0)), v.Format)
	}
	return out
}

// Same reports whether nothing was charged or stored between two snapshots.
func (s Snapshot) Same(t Snapshot) bool {
	if s.objects != t.objects || len(s.used) != len(t.used) {
		return false
	}
	for i := range s.used {
		if len(s.used[i]) != len(t.used[i]) {
			return false
		}
		for name, a := range s.used[i] {
			b, ok := t.used[i][name]
			if !ok || a.Cmp(b) != 0 || a.Format != b.Format {
				return false
			}
		}
	}
	return true
}

// Remove takes up to n stored objects for which pick is true out of ns, as
// their deletion and the quota controller's replenishment would: each quota
// an object matches gives back the usage it was charged (its usage masked
// to the quota's hard resources). It returns how many it removed, taking the
// last stored first.
func (c Checker) Remove(ns *Namespace, n int, pick func(runtime.Object) bool) int {
	removed := 0
	for j := len(ns.Objects) - 1; j >= 0 && removed < n; j-- {
		a := &ns.Objects[j]
		if !pick(a.obj) {
			continue
		}
		k := min(1+a.more, n-removed)
		usage := a.ev.usage(a.obj)
		for _, q := range ns.Quotas {
			hard := ns.hardNames(q)
			if ok, err := matches(a.ev, q, hard, a.obj); err != nil || !ok {
				continue
			}
			back := scaled(maskList(usage, hard), k)
			used := make(corev1.ResourceList, len(q.Status.Used))
			for name, v := range q.Status.Used {
				if b, ok := back[name]; ok {
					v = v.DeepCopy()
					v.Sub(b)
				}
				used[name] = v
			}
			q.Status.Used = resources.Stored(used)
		}
		if k == 1+a.more {
			ns.Objects = append(ns.Objects[:j], ns.Objects[j+1:]...)
		} else {
			a.more -= k
		}
		removed += k
	}
	return removed
}
