// Package gitref reads input paths as they are at a git revision, without a
// checkout: each path's files are written under a temporary directory, which
// the caller reads like any input and maps back to the paths the user gave.
package gitref

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Tree is a revision's copy of some paths on disk.
type Tree struct {
	// Paths are the copies to read, one per path given that the revision
	// has, in order.
	Paths []string
	// New are the paths given that the revision does not have but the
	// work tree does: added since (a pull request's new manifests).
	New   []string
	dir   string
	given []string // by Paths
}

// git runs git in the current directory and returns its standard output.
func git(args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), strings.TrimSpace(stderr.String()))
		}
		return nil, fmt.Errorf("running git: %w", err)
	}
	return out, nil
}

// Read copies the files of paths at revision ref into a new directory under
// tmp. Paths are as the user gave them, relative to the current directory
// (which must be inside a git work tree) or absolute; "-" (stdin) has no
// revision.
func Read(ref string, paths []string, tmp string) (*Tree, error) {
	if out, err := git("rev-parse", "--is-inside-work-tree"); err != nil || strings.TrimSpace(string(out)) != "true" {
		return nil, errors.New("--base-ref needs a git work tree: the current directory is not inside one")
	}
	if _, err := git("rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}"); err != nil {
		return nil, fmt.Errorf("--base-ref %s: no such revision in this repository", ref)
	}
	dir, err := os.MkdirTemp(tmp, "limitcheck-base-")
	if err != nil {
		return nil, err
	}
	t := &Tree{dir: dir}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for i, p := range paths {
		if p == "-" {
			return nil, errors.New("--base-ref: standard input (-) has no revision to read")
		}
		rel := p
		if filepath.IsAbs(p) {
			if rel, err = filepath.Rel(cwd, p); err != nil {
				return nil, err
			}
		}
		rel = filepath.Clean(rel)
		out, err := git("ls-tree", "-r", "-z", "--name-only", ref, "--", rel)
		if err != nil {
			return nil, err
		}
		files := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if len(out) == 0 {
			if _, err := os.Stat(p); err == nil {
				t.New = append(t.New, p)
				continue
			}
			return nil, fmt.Errorf("--base-ref %s: path %s does not exist in that revision", ref, p)
		}
		slot := filepath.Join(dir, strconv.Itoa(i), filepath.Base(rel))
		t.Paths = append(t.Paths, slot)
		t.given = append(t.given, p)
		for _, f := range files {
			under, err := filepath.Rel(rel, filepath.FromSlash(f))
			if err != nil || strings.HasPrefix(under, "..") {
				return nil, fmt.Errorf("--base-ref: git listed %s for %s", f, p)
			}
			data, err := git("cat-file", "blob", ref+":./"+f)
			if err != nil {
				return nil, err
			}
			dst := filepath.Join(slot, under)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				return nil, err
			}
		}
	}
	return t, nil
}

// Name maps a path under the copy back to the path the user gave (a
// directory's files joined to it); other paths are returned as they are.
func (t *Tree) Name(path string) string {
	for i, slot := range t.Paths {
		if path == slot {
			return t.given[i]
		}
		if rest, ok := strings.CutPrefix(path, slot+string(filepath.Separator)); ok {
			return filepath.Join(t.given[i], rest)
		}
	}
	return path
}

// Remove deletes the copy.
func (t *Tree) Remove() error { return os.RemoveAll(t.dir) }
