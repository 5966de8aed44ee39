package load

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestScratchCorpus(t *testing.T) {
	dir := os.Getenv("CORPUS")
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		lines := strings.SplitN(string(b), "\n", 3)
		if len(lines) < 2 { continue }
		s := strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")")
		data, err := strconv.Unquote(s)
		if err != nil { t.Log(err); continue }
		start := time.Now()
		n := 0
		ReadStream("x", strings.NewReader(data), typedOpts, func(Document) bool { n++; return true })
		if d := time.Since(start); d > 5*time.Millisecond {
			t.Logf("%s: %v len=%d docs=%d", e.Name(), d, len(data), n)
		}
	}
}
