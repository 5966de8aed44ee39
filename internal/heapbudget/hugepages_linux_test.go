package heapbudget

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestPreferHugePages checks, in /proc/self/smaps, that every mapping of
// the range advised has the kernel's "hg" (MADV_HUGEPAGE) flag. The range may
// span more than one mapping (the heap grows in pieces the kernel may or may
// not merge).
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
	covered := start // the range's mappings are read up to here
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			in = lo <= covered && covered < hi && covered < end
			if in {
				covered = hi
			}
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") && !strings.Contains(line+" ", " hg ") {
			t.Errorf("the advised range [%#x, %#x) is mapped without hg up to %#x: %s", start, end, covered, line)
		}
	}
	if covered < end {
		t.Fatalf("no mapping holds %#x in /proc/self/smaps", covered)
	}
}

func TestPreferHugePagesNothing(t *testing.T) {
	if s, e := preferHugePages(0); s != 0 || e != 0 {
		t.Errorf("preferHugePages(0) = %#x, %#x; want nothing", s, e)
	}
}
