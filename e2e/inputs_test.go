package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
	stream := func(name string, fsys fs.FS, args []string) {
		n++
		st := Stats{Streams: 1}
		diffs, err := runStream(ctx, fmt.Sprintf("in%d-stream", n), fsys, args, &st)
		if err != nil {
			tl.fail(t, &Case{Name: name}, err)
			return
		}
		tl.merge(st)
		tl.add(t, &Case{Name: name + " as kubectl create -f reads it"}, diffs)
	}
	command := func(name string, fsys fs.FS, args []string, from string) {
		if len(args) > 0 && args[0] == "describe" {
			c, types, why := DescribeCase(name, fsys, args)
			describeOne(name, c, types, from+": "+why)
			return
		}
		c, why := CommandCase(name, fsys, args)
		if c != nil && c.AsIs || c == nil && strings.Contains(why, kubectlMaps) {
			// kubectl words what it cannot map itself (API-01), and
			// reads lines its own way (IN-16).
			stream(name, fsys, args)
			if c == nil {
				return
			}
		}
		if c == nil && strings.Contains(why, notAStream) {
			// kubectl create -f reads it as it is (IN-14).
			stream(name, fsys, args)
			return
		}
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

// runStream gives the files of fsys to kubectl create -f in the namespace ns
// and limitcheck check the same arguments, and compares kubectl's errors in
// reading them and what it created with limitcheck's report (CompareStream).
func runStream(ctx context.Context, ns string, fsys fs.FS, args []string, st *Stats) ([]string, error) {
	paths, recursive, inputOrder, why := StreamArgs(args)
	if why != "" {
		st.Streams = 0
		st.skip("an input given to kubectl create -f as it is: " + why)
		return nil, nil
	}
	dir, err := os.MkdirTemp(env.work, "stream-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, p), b, 0o644)
	})
	if err != nil {
		return nil, err
	}
	if err := env.replayer.CreateNamespace(ctx, ns); err != nil {
		return nil, err
	}
	defer func() {
		_ = env.replayer.Core.CoreV1().Namespaces().Delete(context.Background(), ns, metav1.DeleteOptions{})
	}()
	var flags []string
	if recursive {
		flags = append(flags, "-R")
	}
	for _, p := range paths {
		flags = append(flags, "-f", p)
	}
	// An empty discovery cache, as on a fresh CI runner: kubectl reads the
	// served kinds once, before the first document, so what the input's
	// CRDs serve is never mapped in the same run (API-02), whatever an
	// earlier run left in a cache.
	kc := exec.Command(env.kubectl, append([]string{"--kubeconfig", env.plane.Kubeconfig, "--cache-dir", filepath.Join(dir, ".kube-cache"), "create", "-n", ns}, flags...)...)
	kc.Dir = dir
	out, _ := kc.CombinedOutput() // exit 1 when something failed
	defer deleteCreated(ns, string(out))
	lcArgs := []string{"check", "-o", "json"}
	if inputOrder {
		lcArgs = append(lcArgs, "--order=input")
	}
	lc := exec.Command(env.limitcheck, append(lcArgs, flags...)...)
	lc.Dir = dir
	js, err := lc.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 2 && len(js) == 0 {
		// No object in the input (IN-09): no report to compare.
		st.skip("an input without objects, limitcheck's usage error (IN-09)")
		return nil, nil
	}
	if ee, ok := err.(*exec.ExitError); ok && (ee.ExitCode() == 1 || ee.ExitCode() == 2) && len(js) > 0 {
		err = nil
	}
	if err != nil {
		return nil, fmt.Errorf("limitcheck check -o json %s: %v", strings.Join(flags, " "), err)
	}
	var rep Report
	if err := json.Unmarshal(js, &rep); err != nil {
		return nil, err
	}
	diffs, notCompared := CompareStream(string(out), &rep)
	if notCompared != "" {
		st.skip(notCompared)
	}
	return diffs, nil
}

// deleteCreated deletes what kubectl create -n ns printed as created, so
// that a cluster-scoped object (a CustomResourceDefinition, a class) does
// not outlive the namespace and meet the next input that creates it.
func deleteCreated(ns, out string) {
	var refs []string
	for _, l := range strings.Split(out, "\n") {
		if ref, ok := strings.CutSuffix(l, " created"); ok && strings.Contains(ref, "/") && !strings.Contains(ref, " ") {
			refs = append(refs, ref)
		}
	}
	if len(refs) == 0 {
		return
	}
	_ = exec.Command(env.kubectl, append([]string{"--kubeconfig", env.plane.Kubeconfig, "delete", "-n", ns, "--ignore-not-found", "--wait=false"}, refs...)...).Run()
}
