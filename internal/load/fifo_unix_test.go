//go:build unix

package load

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("no named pipes:", err)
	}
}

// TestWalkSkipsNonRegularFiles: named pipes, sockets and symlinks to them
// found by a walk are never opened (opening a named pipe without a writer
// blocks forever: walkEvents fails the test rather than hang).
func TestWalkSkipsNonRegularFiles(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.yaml": cmYAML("a"), "sub/b.yaml": cmYAML("b")})
	mkfifo(t, filepath.Join(dir, "pipe.yaml"))
	mkfifo(t, filepath.Join(dir, "sub", "pipe.json"))
	mkfifo(t, filepath.Join(dir, "pipe.txt")) // not a manifest name: not mentioned
	if err := os.Symlink(filepath.Join(dir, "pipe.yaml"), filepath.Join(dir, "link.yml")); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s.yaml")
	if l, err := net.Listen("unix", sock); err == nil {
		defer l.Close()
	} else {
		sock = ""
	}
	want := []string{
		"doc a.yaml:1: ConfigMap a",
		"note link.yml: a named pipe, not a regular file; skipped",
		"note pipe.yaml: a named pipe, not a regular file; skipped",
	}
	if sock != "" {
		want = append(want, "note s.yaml: a socket, not a regular file; skipped")
	}
	want = append(want, "doc sub/b.yaml:1: ConfigMap b", "note sub/pipe.json: a named pipe, not a regular file; skipped")
	checkEvents(t, walkEvents(t, dir, []string{dir}, nil, Options{Recursive: true}), want)

	if sock != "" {
		got := walkEvents(t, dir, []string{sock}, nil, Options{})
		checkEvents(t, got, []string{`stop cannot read path "s.yaml": a socket, not a file`})
	}
}

// TestExplicitNamedPipe: a named pipe given as a path (as bash's
// <(helm template ...) gives /dev/fd/63) is read, once.
func TestExplicitNamedPipe(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "fifo")
	mkfifo(t, p)
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		f.WriteString("---\n# Source: chart/templates/cm.yaml\n" + cmYAML("piped"))
	}()
	got := walkEvents(t, dir, []string{p, p}, nil, Options{})
	checkEvents(t, got, []string{
		"doc fifo:3: ConfigMap piped",
		"note fifo: already read (as fifo); read once",
	})
}

// TestCopiesReadOnceOnlyStreamsTwice: with a Copies, a second Walk reads
// stdin and an explicit named pipe again, from the copies the first made,
// and yields the same documents; a named pipe is not opened again (that
// would block without a writer). Remove deletes the copies.
func TestCopiesReadOnceOnlyStreamsTwice(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "fifo")
	mkfifo(t, p)
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		f.WriteString(cmYAML("piped") + "---\n" + cmYAML("second"))
	}()
	copies := NewCopies()
	stdin := strings.NewReader(cmYAML("stdin") + "---\nkind: [\n")
	opts := Options{Copies: copies}
	first := walkEvents(t, dir, []string{p, "-"}, stdin, opts)
	want := []string{
		"doc fifo:1: ConfigMap piped", "doc fifo:6: ConfigMap second",
		"doc <stdin>:1: ConfigMap stdin", "error <stdin>:6: error parsing STDIN: error converting YAML to JSON: yaml: line 1: did not find expected node content",
	}
	checkEvents(t, first, want)
	second := walkEvents(t, dir, []string{p, "-"}, strings.NewReader("not read"), opts)
	checkEvents(t, second, want)
	var names []string
	for _, c := range copies.streams {
		names = append(names, c.file.Name())
	}
	if len(names) != 2 {
		t.Fatalf("%d copies, want 2", len(names))
	}
	if err := copies.Remove(); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if _, err := os.Stat(n); !os.IsNotExist(err) {
			t.Errorf("copy %s left behind: %v", n, err)
		}
	}
}
