package e2e

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

// readmeCommands are the limitcheck commands of the README's console blocks
// (as cmd/limitcheck's TestREADME reads them): the words after the one
// naming the binary.
func readmeCommands(md string) [][]string {
	var out [][]string
	inBlock := false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "```console"):
			inBlock = true
		case strings.HasPrefix(line, "```"):
			inBlock = false
		case inBlock && strings.HasPrefix(line, "$ "):
			words := strings.Fields(line[2:])
			for i := len(words) - 1; i >= 0; i-- {
				if strings.HasSuffix(strings.Trim(words[i], `"`), "limitcheck") {
					out = append(out, words[i+1:])
					break
				}
			}
		}
	}
	return out
}

// scriptCommands are the limitcheck commands of a testscript: lines whose
// command, after an optional "!" or "exits N", is limitcheck.
func scriptCommands(script string) [][]string {
	var out [][]string
	for _, line := range strings.Split(script, "\n") {
		words := strings.Fields(line)
		if len(words) > 0 && words[0] == "!" {
			words = words[1:]
		} else if len(words) > 1 && words[0] == "exits" {
			words = words[2:]
		}
		if len(words) > 0 && words[0] == "limitcheck" {
			out = append(out, words[1:])
		}
	}
	return out
}

// TestInputs replays the README's examples and the testscripts' inputs; for
// their describe commands, it compares the tables with kubectl describe.
func TestInputs(t *testing.T) {
	needPlane(t)
	if *flagReplay != "" {
		t.Skip("-replay")
	}
	ctx := context.Background()
	var tl tally
	start := time.Now()
	seen := map[string]bool{}
	n := 0
	// describeOne compares limitcheck describe with kubectl describe after
	// the same input (DESC-01..03).
	describeOne := func(name string, c *Case, types, why string) {
		if c == nil {
			tl.st.skip(why)
			t.Logf("not replayed: %s: %s", name, why)
			return
		}
		key := "describe " + types + string(c.Stream()) + strings.Join(c.Flags, " ") + fmt.Sprint(c.InputOrder, c.Namespace)
		if seen[key] {
			return
		}
		seen[key] = true
		n++
		c.Rename(fmt.Sprintf("in%d-", n))
		diffs, err := runDescribe(ctx, c, types)
		if err != nil {
			tl.fail(t, c, err)
			return
		}
		tl.mu.Lock()
		tl.st.Described++
		tl.mu.Unlock()
		tl.add(t, c, diffs)
	}
	runOne := func(name string, c *Case, why string) {
		if c == nil {
			tl.st.skip(why)
			t.Logf("not replayed: %s: %s", name, why)
			return
		}
		key := string(c.Stream()) + strings.Join(c.Flags, " ") + fmt.Sprint(c.InputOrder, c.Namespace)
		if seen[key] {
			return
		}
		seen[key] = true
		n++
		c.Rename(fmt.Sprintf("in%d-", n))
		var st Stats
		diffs, err := runCase(ctx, c, &st)
		tl.merge(st)
		if err != nil {
			tl.fail(t, c, err)
			return
		}
		tl.add(t, c, diffs)
	}
	command := func(name string, fsys fs.FS, args []string, from string) {
		if len(args) > 0 && args[0] == "describe" {
			c, types, why := DescribeCase(name, fsys, args)
			describeOne(name, c, types, from+": "+why)
			return
		}
		c, why := CommandCase(name, fsys, args)
		runOne(name, c, from+": "+why)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for i, args := range readmeCommands(string(readme)) {
		name := fmt.Sprintf("README example %d (limitcheck %s)", i+1, strings.Join(args, " "))
		command(name, os.DirFS(root), args, "README")
	}
	scripts, err := filepath.Glob(filepath.Join(root, "testdata/script/*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(scripts)
	for _, s := range scripts {
		ar, err := txtar.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		fsys, err := txtar.FS(ar)
		if err != nil {
			t.Fatal(err)
		}
		for i, args := range scriptCommands(string(ar.Comment)) {
			name := fmt.Sprintf("%s command %d (limitcheck %s)", filepath.Base(s), i+1, strings.Join(args, " "))
			command(name, fsys, args, "testscript")
		}
	}
	tl.summary(t, "README and testscripts", start)
}
