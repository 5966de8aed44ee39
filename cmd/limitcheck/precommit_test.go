package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Files of the temporary repository the pre-commit hook runs in.
var precommitRepo = map[string]string{
	"policy/limits.yaml": `apiVersion: v1
kind: LimitRange
metadata:
  name: container-limits
  namespace: shop
spec:
  limits:
  - type: Container
    max:
      cpu: "1"
`,
	"deploy/worker.yaml": `apiVersion: v1
kind: Pod
metadata:
  name: worker
  namespace: shop
spec:
  containers:
  - name: worker
    image: example/worker:2.1
    resources:
      limits:
        cpu: "2"
`,
	"deploy/web.yaml": `apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: shop
spec:
  containers:
  - name: nginx
    image: nginx:1.27
    resources:
      limits:
        cpu: 500m
`,
}

const precommitDenial = `deploy/worker.yaml:1: Pod shop/worker: pods "worker" is forbidden: maximum cpu usage per Container is 1, but limit is 2`

// TestPreCommit runs the hook of .pre-commit-hooks.yaml as a user's repository
// gets it, in a temporary git repository, with pre-commit building it by `go
// install ./...` (each run about 15 s: try-repo builds the hook afresh in a
// store of its own). The hook repository is a commit of this work tree as it
// is, untracked files included (try-repo itself would leave out untracked
// files), made once for every run:
//   - `pre-commit try-repo`: a denied Pod fails the hook with the exact denial,
//     though pre-commit passes it before its LimitRange (policies first,
//     ORD-01); an admitted Pod passes;
//   - the README's .pre-commit-config.yaml (examples/ci), pointed at that
//     commit: with only the Pod changed, `args: [-f, policy/]` still reads the
//     LimitRange and the hook fails with the same denial.
//
// It skips when pre-commit is not installed (`make precommit` installs
// Debian's package when it can) and with -short.
func TestPreCommit(t *testing.T) {
	precommit, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Skip("pre-commit is not installed (Debian: apt-get install pre-commit; `make precommit` does it as root)")
	}
	if testing.Short() {
		t.Skip("-short: pre-commit builds the hook with go install")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	gomodcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	// pre-commit's cache in the test's directory; the Go module cache shared,
	// so that the hook's go install (GOPATH set to its environment) does not
	// download every module again.
	env := append(os.Environ(),
		"PRE_COMMIT_HOME="+filepath.Join(t.TempDir(), "pre-commit"),
		"GOMODCACHE="+strings.TrimSpace(string(gomodcache)),
		"NO_COLOR=1", "TERM=dumb",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
	)
	command := func(t *testing.T, dir, name string, args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(t *testing.T, dir, name string, args ...string) string {
		t.Helper()
		out, err := command(t, dir, name, args...)
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return out
	}
	if out, err := command(t, root, precommit, "validate-manifest", ".pre-commit-hooks.yaml"); err != nil {
		t.Fatalf("pre-commit validate-manifest .pre-commit-hooks.yaml: %v\n%s", err, out)
	}
	if out, err := command(t, root, precommit, "validate-config", "examples/ci/pre-commit-config.yaml"); err != nil {
		t.Fatalf("pre-commit validate-config examples/ci/pre-commit-config.yaml: %v\n%s", err, out)
	}

	// The hook repository: the work tree's files, tracked and untracked but
	// not ignored, committed.
	hookRepo := t.TempDir()
	must(t, hookRepo, "git", "init", "-q")
	for _, name := range strings.Split(must(t, root, "git", "ls-files", "-z", "-c", "-o", "--exclude-standard"), "\x00") {
		data, err := os.ReadFile(filepath.Join(root, name))
		if name == "" || os.IsNotExist(err) {
			continue // deleted in the work tree
		} else if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(hookRepo, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(hookRepo, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must(t, hookRepo, "git", "add", "-A")
	must(t, hookRepo, "git", "commit", "-q", "-m", "work tree")
	rev := strings.TrimSpace(must(t, hookRepo, "git", "rev-parse", "HEAD"))

	// The user's repository.
	dir := t.TempDir()
	must(t, dir, "git", "init", "-q")
	for name, body := range precommitRepo {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must(t, dir, "git", "add", ".")
	denied := func(t *testing.T, out string, err error) {
		t.Helper()
		t.Logf("pre-commit:\n%s", out)
		if err == nil {
			t.Fatalf("the hook passed a denied Pod")
		}
		for _, want := range []string{"limitcheck...", "Failed", "- exit code: 1", "namespace shop:\n" + precommitDenial + "\n", "2 objects: 1 admitted, 1 denied, 0 skipped"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q", want)
			}
		}
	}
	t.Run("try-repo denied", func(t *testing.T) {
		// The Pod before its LimitRange: policies are admitted first anyway.
		out, err := command(t, dir, precommit, "try-repo", hookRepo, "limitcheck", "--color", "never", "--files", "deploy/worker.yaml", "policy/limits.yaml")
		denied(t, out, err)
	})
	t.Run("try-repo admitted", func(t *testing.T) {
		out, err := command(t, dir, precommit, "try-repo", hookRepo, "limitcheck", "--color", "never", "--files", "deploy/web.yaml", "policy/limits.yaml")
		if err != nil || !strings.Contains(out, "limitcheck...") || !strings.Contains(out, "Passed") {
			t.Errorf("the hook failed an admitted Pod (%v):\n%s", err, out)
		}
	})
	t.Run("README config, only the Pod changed", func(t *testing.T) {
		example, err := os.ReadFile(filepath.Join(root, "examples/ci/pre-commit-config.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		config := regexp.MustCompile(`(?m)^(\s*- repo: ).*\n(\s*rev: ).*$`).ReplaceAllString(string(example), "${1}"+hookRepo+"\n${2}"+rev)
		if config == string(example) {
			t.Fatal("examples/ci/pre-commit-config.yaml has no repo: and rev: to point at the hook repository")
		}
		if err := os.WriteFile(filepath.Join(dir, ".pre-commit-config.yaml"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := command(t, dir, precommit, "run", "--color", "never", "--files", "deploy/worker.yaml")
		denied(t, out, err)
	})
}
