package heapbudget

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestPreferHugePages checks, in /proc/self/smaps, that the range advised is
// mapped with the kernel's "hg" (MADV_HUGEPAGE) flag.
func TestPreferHugePages(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("this kernel has no transparent huge pages:", err)
	}
	start, end := preferHugePages(8 << 20)
	if start == 0 || end-start < 4<<20 {
		t.Fatalf("preferHugePages(8 MiB) advised [%#x, %#x)", start, end)
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			in = lo <= start && start < hi
			if in && hi < end {
				t.Errorf("the advised range [%#x, %#x) is split at %#x", start, end, hi)
			}
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			if !strings.Contains(line+" ", " hg ") {
				t.Errorf("the advised range is mapped without hg: %s", line)
			}
			return
		}
	}
	t.Fatalf("no mapping holds %#x in /proc/self/smaps", start)
}

func TestPreferHugePagesNothing(t *testing.T) {
	if s, e := preferHugePages(0); s != 0 || e != 0 {
		t.Errorf("preferHugePages(0) = %#x, %#x; want nothing", s, e)
	}
}
