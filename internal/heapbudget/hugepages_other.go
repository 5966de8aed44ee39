//go:build !linux

package heapbudget

// preferHugePages does nothing where there is no madvise(MADV_HUGEPAGE).
func preferHugePages(n int) (start, end uintptr) { return 0, 0 }
