package resources

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// AddResourceList adds every quantity of add into list (keys missing in list are
// copied), as upstream's AddResourceList does.
func AddResourceList(list, add corev1.ResourceList) {
	for name, q := range add {
		if cur, ok := list[name]; ok {
			cur.Add(q)
			list[name] = cur
		} else {
			list[name] = q.DeepCopy()
		}
	}
}

// Stored turns list into the ResourceList kube-apiserver stores and serves
// back, and returns it: each quantity re-read from its canonical string
// (QS-02). A sum held in memory can print differently: 500Mi + 100M is
// 624288000 in binary format, which reads back as decimal and prints from then
// on as 624288k. list is changed in place: callers pass a list of their own.
func Stored(list corev1.ResourceList) corev1.ResourceList {
	for name, q := range list {
		list[name] = StoredQuantity(q)
	}
	return list
}

// StoredQuantity is q as kube-apiserver stores and serves it back: re-read
// from its canonical string (QS-02, see Stored).
func StoredQuantity(q resource.Quantity) resource.Quantity {
	if p, err := resource.ParseQuantity(q.String()); err == nil {
		return p
	}
	return q
}

// MaxResourceList sets list[k] to the greater of list[k] and other[k] for every k in other.
func MaxResourceList(list, other corev1.ResourceList) {
	for name, q := range other {
		if cur, ok := list[name]; !ok || q.Cmp(cur) > 0 {
			list[name] = q.DeepCopy()
		}
	}
}

// RoundResourceList rounds every value up to milli precision (SetDefaults_ResourceList, PL-01).
func RoundResourceList(list corev1.ResourceList) {
	for k, v := range list {
		was := v
		if v.RoundUp(-3); v != was { // most amounts are whole milli already
			list[k] = v
		}
	}
}

// SortedNames returns the keys of a ResourceList in lexical order. Upstream iterates
// these maps in random order; limitcheck always sorts (LR-22).
func SortedNames(list corev1.ResourceList) []corev1.ResourceName {
	names := make([]corev1.ResourceName, 0, len(list))
	for k := range list {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
