// Package e2e replays limitcheck's inputs against a real control plane (etcd,
// kube-apiserver and kube-controller-manager at the versions limitcheck
// emulates) and compares what it admits with what limitcheck predicts.
package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// The versions the binaries are built at: k8s.io/kubernetes as limitcheck
// emulates it, etcd as that release pins it (both in this module's go.mod).
const (
	KubeVersion = "v1.36.3"
	EtcdVersion = "v3.6.8"
)

// binaries maps a binary's name to the package it is built from; each is a
// tool of this module (go.mod), so its dependencies are this module's.
var binaries = []struct{ Name, Pkg string }{
	{"etcd", "go.etcd.io/etcd/server/v3"},
	{"kube-apiserver", "k8s.io/kubernetes/cmd/kube-apiserver"},
	{"kube-controller-manager", "k8s.io/kubernetes/cmd/kube-controller-manager"},
	{"kubectl", "k8s.io/kubernetes/cmd/kubectl"},
}

// CacheDir is where the binaries are kept, one directory per pair of versions:
// $LIMITCHECK_E2E_CACHE, else the user's cache directory.
func CacheDir() (string, error) {
	base := os.Getenv("LIMITCHECK_E2E_CACHE")
	if base == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		base = filepath.Join(c, "limitcheck-e2e")
	}
	return filepath.Join(base, "kube-"+KubeVersion+"_etcd-"+EtcdVersion), nil
}

// Bin is the path of a built binary.
func Bin(dir, name string) string { return filepath.Join(dir, name) }

// EnsureBinaries builds the binaries missing from dir with the go command, from
// moduleDir (this module's directory), one at a time at low priority, and
// reports each build's time through logf.
func EnsureBinaries(dir, moduleDir string, logf func(string, ...any)) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	ldflags := "-X k8s.io/component-base/version.gitVersion=" + KubeVersion +
		" -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=36"
	for _, b := range binaries {
		out := Bin(dir, b.Name)
		if _, err := os.Stat(out); err == nil {
			continue
		}
		start := time.Now()
		logf("building %s from %s (minutes on a small machine)", b.Name, b.Pkg)
		args := []string{"build", "-ldflags", ldflags, "-o", out + ".tmp", b.Pkg}
		var cmd *exec.Cmd
		if nice, err := exec.LookPath("nice"); err == nil {
			cmd = exec.Command(nice, append([]string{"-n", "10", "go"}, args...)...)
		} else {
			cmd = exec.Command("go", args...)
		}
		cmd.Dir = moduleDir
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("building %s: %w", b.Name, err)
		}
		if err := os.Rename(out+".tmp", out); err != nil {
			return err
		}
		logf("built %s in %s", b.Name, time.Since(start).Round(time.Second))
	}
	return nil
}
