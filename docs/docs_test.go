// Package docs holds limitcheck's behaviour reference (behaviour.md) and the
// tests that keep it and the repository consistent: every behaviour ID cited
// anywhere has a section, and every section names its upstream source or says
// that it is limitcheck's own behaviour.
package docs

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// repoRoot is the repository root as seen from this package's directory.
const repoRoot = ".."

// families are the ID prefixes the reference defines.
const families = `PL|LR|RQ|DESC|ST|QS|ORD|API|IN|CFG|VER|NS|PS|CL|WL|FIT|HINT|VAL|LINT`

var (
	// idRE matches a behaviour ID anywhere in a file.
	idRE = regexp.MustCompile(`\b(?:` + families + `)-[0-9]{2,3}\b`)
	// headingRE matches a section heading: "### LR-12 — title".
	headingRE = regexp.MustCompile(`^(#{2,4}) ((?:` + families + `)-[0-9]{2,3}) — (\S.*)$`)
	// looseHeadingRE matches any heading that starts with an ID, to catch
	// headings in the wrong format.
	looseHeadingRE = regexp.MustCompile(`^#+\s*(?:` + families + `)-[0-9]{2,3}\b`)
	anyHeadingRE   = regexp.MustCompile(`^#{1,6} `)
	upstreamRE     = regexp.MustCompile(`^\*\*Upstream:\*\*(.*)$`)
	markerRE       = regexp.MustCompile(`^\*\*limitcheck behaviour(?::)?\*\*`)
	codeSpanRE     = regexp.MustCompile("`([^`]+)`")
	// refRE is one upstream reference: "import/path: Ident, Type.Method".
	refRE = regexp.MustCompile(`^((?:k8s\.io|sigs\.k8s\.io)/[A-Za-z0-9._/-]+): ([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?(?:, [A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)*)$`)
)

// section is one ID's section of the reference.
type section struct {
	id, file string
	line     int
	refs     []ref
	marker   bool
	problems []string
}

// ref is one upstream identifier named by a section.
type ref struct {
	pkg, ident string
}

// parseSections reads the ID sections of every Markdown file in this
// directory. Problems of form (headings, duplicate IDs, fences) are returned
// for TestSectionsNameTheirSource to report.
func parseSections(t *testing.T) (map[string]*section, []string) {
	t.Helper()
	var problems []string
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no Markdown files in docs/")
	}
	sections := map[string]*section{}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f := "docs/" + name
		var cur *section
		inFence := false
		for i, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "```") {
				inFence = !inFence
				continue
			}
			if inFence {
				continue
			}
			if anyHeadingRE.MatchString(line) {
				cur = nil
				m := headingRE.FindStringSubmatch(line)
				if m == nil {
					if looseHeadingRE.MatchString(line) {
						problems = append(problems, fmt.Sprintf("%s:%d: heading %q is not of the form \"### <ID> — <title>\"", f, i+1, line))
					}
					continue
				}
				id := m[2]
				if prev, ok := sections[id]; ok {
					problems = append(problems, fmt.Sprintf("%s:%d: %s is defined twice (first at %s:%d)", f, i+1, id, prev.file, prev.line))
					continue
				}
				cur = &section{id: id, file: f, line: i + 1}
				sections[id] = cur
				continue
			}
			if cur == nil {
				continue
			}
			if markerRE.MatchString(line) {
				cur.marker = true
			}
			if m := upstreamRE.FindStringSubmatch(line); m != nil {
				spans := codeSpanRE.FindAllStringSubmatch(m[1], -1)
				if len(spans) == 0 {
					cur.problems = append(cur.problems, fmt.Sprintf("line %d: Upstream: names no `import/path: Identifier`", i+1))
				}
				for _, s := range spans {
					rm := refRE.FindStringSubmatch(s[1])
					if rm == nil {
						cur.problems = append(cur.problems, fmt.Sprintf("line %d: %q is not of the form `import/path: Identifier[, Identifier]`", i+1, s[1]))
						continue
					}
					for _, ident := range strings.Split(rm[2], ", ") {
						cur.refs = append(cur.refs, ref{pkg: rm[1], ident: ident})
					}
				}
			}
		}
		if inFence {
			problems = append(problems, f+": unterminated code fence")
		}
	}
	return sections, problems
}

// repoFiles lists the repository's *.go, *.md and *.txtar files (relative to
// the root): tracked and untracked-but-not-ignored files per git, or a walk of
// the tree when git is not available.
func repoFiles(t *testing.T) []string {
	t.Helper()
	var names []string
	out, err := exec.Command("git", "-C", repoRoot, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err == nil {
		for _, n := range strings.Split(string(out), "\x00") {
			if n != "" {
				names = append(names, filepath.FromSlash(n))
			}
		}
	} else {
		t.Logf("git ls-files: %v; walking the tree instead", err)
		err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == ".git" {
				return filepath.SkipDir
			}
			if !d.IsDir() {
				rel, err := filepath.Rel(repoRoot, path)
				if err != nil {
					return err
				}
				names = append(names, rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var files []string
	for _, n := range names {
		switch filepath.Ext(n) {
		case ".go", ".md", ".txtar":
			files = append(files, n)
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatal("found no .go, .md or .txtar files in the repository")
	}
	return files
}

// TestCitedIDsHaveSections fails for every behaviour ID cited in the
// repository that has no section in docs/.
func TestCitedIDsHaveSections(t *testing.T) {
	sections, _ := parseSections(t)
	cited := 0
	for _, f := range repoFiles(t) {
		data, err := os.ReadFile(filepath.Join(repoRoot, f))
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted in the work tree but still in the index
		}
		if err != nil {
			t.Fatal(err)
		}
		reported := map[string]bool{}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
		for n := 1; sc.Scan(); n++ {
			for _, id := range idRE.FindAllString(sc.Text(), -1) {
				cited++
				if _, ok := sections[id]; !ok && !reported[id] {
					reported[id] = true
					t.Errorf("%s:%d cites %s, which has no section in docs/ (add \"### %s — <title>\" to docs/behaviour.md)", filepath.ToSlash(f), n, id, id)
				}
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	if cited == 0 {
		t.Fatal("no behaviour IDs cited anywhere: the scan is broken")
	}
}

// TestContentsRanges fails when a line of behaviour.md's contents does not
// reach a family's last section: the highest ID a line names must be the
// highest section of that family.
func TestContentsRanges(t *testing.T) {
	sections, _ := parseSections(t)
	last := map[string]int{}
	for id := range sections {
		family, num, _ := strings.Cut(id, "-")
		n, err := strconv.Atoi(num)
		if err != nil {
			t.Fatalf("section %s: %v", id, err)
		}
		last[family] = max(last[family], n)
	}
	data, err := os.ReadFile("behaviour.md")
	if err != nil {
		t.Fatal(err)
	}
	contents, _, _ := strings.Cut(string(data), "\n## Conventions")
	_, contents, ok := strings.Cut(contents, "## Contents\n")
	if !ok {
		t.Fatal("behaviour.md has no Contents section")
	}
	checked := 0
	for _, line := range strings.Split(contents, "\n") {
		named := map[string]int{}
		for _, id := range idRE.FindAllString(line, -1) {
			family, num, _ := strings.Cut(id, "-")
			n, _ := strconv.Atoi(num)
			named[family] = max(named[family], n)
		}
		for family, n := range named {
			checked++
			if n != last[family] {
				t.Errorf("contents: %q names %s-%02d last, but the last section is %s-%02d", line, family, n, family, last[family])
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d families in the contents: the scan is broken", checked)
	}
}

// TestSectionsNameTheirSource fails for every section that names neither an
// upstream function (a "**Upstream:**" line) nor is marked as limitcheck's own
// behaviour ("**limitcheck behaviour**"), and for malformed references.
func TestSectionsNameTheirSource(t *testing.T) {
	sections, problems := parseSections(t)
	for _, p := range problems {
		t.Error(p)
	}
	if len(sections) == 0 {
		t.Fatal("docs/ defines no sections")
	}
	for _, id := range sortedIDs(sections) {
		s := sections[id]
		for _, p := range s.problems {
			t.Errorf("%s:%d: %s: %s", s.file, s.line, id, p)
		}
		if len(s.refs) == 0 && !s.marker {
			t.Errorf("%s:%d: %s names no upstream source (**Upstream:** `import/path: Function`) and is not marked **limitcheck behaviour**", s.file, s.line, id)
		}
	}
}

// TestUpstreamIdentifiersExist checks, for the modules present in the Go module
// cache at the versions the repository's go.mod files require, that every
// identifier a section names exists in the package named. Modules that are not
// downloaded are skipped (conformance/ downloads k8s.io/kubernetes and friends).
func TestUpstreamIdentifiersExist(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	versions := moduleVersions(t)
	cache := modCache()
	if cache == "" {
		t.Skip("no Go module cache found")
	}
	sources := map[string]string{} // package dir → its non-test Go source, concatenated
	checked, skipped := 0, map[string]bool{}
	sections, _ := parseSections(t)
	for _, id := range sortedIDs(sections) {
		s := sections[id]
		for _, r := range s.refs {
			dir, ok := packageDir(cache, versions, r.pkg)
			if !ok {
				skipped[r.pkg] = true
				continue
			}
			src, ok := sources[dir]
			if !ok {
				src = readPackage(dir)
				sources[dir] = src
			}
			if src == "" {
				t.Errorf("%s:%d: %s: package %s not found in %s", s.file, s.line, id, r.pkg, dir)
				continue
			}
			checked++
			if !declares(src, r.ident) {
				t.Errorf("%s:%d: %s: %s declares no %s", s.file, s.line, id, r.pkg, r.ident)
			}
		}
	}
	if len(skipped) > 0 {
		var list []string
		for p := range skipped {
			list = append(list, p)
		}
		sort.Strings(list)
		t.Logf("not in the module cache, not checked: %s", strings.Join(list, ", "))
	}
	if checked == 0 {
		t.Skip("no upstream module in the module cache")
	}
	t.Logf("%d upstream identifiers found in %s", checked, cache)
}

func sortedIDs(sections map[string]*section) []string {
	ids := make([]string, 0, len(sections))
	for id := range sections {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// moduleVersions returns the version of every module the main module and the
// conformance module require, after the latter's replace directives.
func moduleVersions(t *testing.T) map[string]string {
	t.Helper()
	versions := map[string]string{}
	for _, gomod := range []string{"go.mod", filepath.Join("conformance", "go.mod")} {
		data, err := os.ReadFile(filepath.Join(repoRoot, gomod))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		mf, err := modfile.Parse(gomod, data, nil)
		if err != nil {
			t.Fatal(err)
		}
		local := map[string]string{}
		for _, r := range mf.Require {
			local[r.Mod.Path] = r.Mod.Version
		}
		for _, r := range mf.Replace {
			if r.New.Version != "" && r.New.Path == r.Old.Path {
				if _, ok := local[r.Old.Path]; ok || r.Old.Version == "" {
					local[r.Old.Path] = r.New.Version
				}
			}
		}
		for p, v := range local {
			if _, ok := versions[p]; !ok {
				versions[p] = v
			}
		}
	}
	return versions
}

// modCache returns the Go module cache directory, or "".
func modCache() string {
	if d := os.Getenv("GOMODCACHE"); d != "" {
		return d
	}
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		if d := strings.TrimSpace(string(out)); d != "" {
			return d
		}
	}
	return ""
}

// packageDir returns the directory of an import path inside the module cache,
// if its module is required by the repository and downloaded.
func packageDir(cache string, versions map[string]string, pkg string) (string, bool) {
	best := ""
	for m := range versions {
		if (pkg == m || strings.HasPrefix(pkg, m+"/")) && len(m) > len(best) {
			best = m
		}
	}
	if best == "" {
		return "", false
	}
	escPath, err := module.EscapePath(best)
	if err != nil {
		return "", false
	}
	escVersion, err := module.EscapeVersion(versions[best])
	if err != nil {
		return "", false
	}
	root := filepath.Join(cache, escPath+"@"+escVersion)
	if _, err := os.Stat(root); err != nil {
		return "", false
	}
	return filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(pkg, best))), true
}

// readPackage returns the concatenated non-test Go files of dir ("" if none).
func readPackage(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var b strings.Builder
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			continue
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.String()
}

// declares reports whether src declares ident: a function, a method
// ("Type.Method"), or a top-level var, const or type (also inside a group).
func declares(src, ident string) bool {
	if typ, method, ok := strings.Cut(ident, "."); ok {
		re := regexp.MustCompile(`(?m)^func \((?:\w+ )?\*?` + regexp.QuoteMeta(typ) + `(?:\[[^\]]*\])?\) ` + regexp.QuoteMeta(method) + `[\[(]`)
		return re.MatchString(src)
	}
	q := regexp.QuoteMeta(ident)
	re := regexp.MustCompile(`(?m)^(?:func (?:\([^)]*\) )?` + q + `[\[(]|(?:var|const|type) ` + q + `\b|\t` + q + `\b)`)
	return re.MatchString(src)
}
