package heapbudget

import (
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// preferHugePages asks the kernel to back the next n bytes of heap with
// transparent huge pages, and returns the range it advised (0, 0 when it
// advised nothing).
//
// A run's heap grows to its budget within the first few thousand documents,
// and every 4 KiB page of it is a page fault the first time it is touched:
// some 11,000 faults for a 48 MiB budget, about a quarter of the CPU time of
// a run over a few megabytes of manifests on a virtual machine. Where
// transparent huge pages are enabled only for memory that asks for them
// ("madvise", the default of many distributions), the Go runtime does not
// ask for its heap. So Start allocates one block of n bytes (fresh memory,
// mapped but never touched), marks its pages MADV_HUGEPAGE and drops it: the
// first collection frees it, and the documents' objects then fill the same
// addresses in 2 MiB faults. The advice is a hint: with huge pages "never"
// or "always" it changes nothing, and an error is ignored.
func preferHugePages(n int) (start, end uintptr) {
	if n <= 0 {
		return 0, 0
	}
	b := make([]byte, n)
	page := uintptr(os.Getpagesize())
	base := unsafe.Pointer(unsafe.SliceData(b))
	p := uintptr(base)
	start = (p + page - 1) &^ (page - 1)
	end = (p + uintptr(n)) &^ (page - 1)
	if start >= end {
		return 0, 0
	}
	if syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(base, start-p)), end-start), syscall.MADV_HUGEPAGE) != nil {
		return 0, 0
	}
	runtime.KeepAlive(b)
	return start, end
}
