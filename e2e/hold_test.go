package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestHoldPlane keeps the control plane up for probing kubectl by hand:
// E2E_HOLD=DIR go test -run '^TestHoldPlane$' -timeout 0 writes
// DIR/kubeconfig and DIR/kubectl (a wrapper using it) and holds the plane
// until DIR/kubeconfig is removed.
func TestHoldPlane(t *testing.T) {
	dir := os.Getenv("E2E_HOLD")
	if dir == "" {
		t.Skip("E2E_HOLD is not set: nothing to hold the plane for")
	}
	needPlane(t)
	kc := filepath.Join(dir, "kubeconfig")
	if err := WriteKubeconfig(kc, env.plane.URL, env.plane.CAFile, env.plane.AdminToken, "hold"); err != nil {
		t.Fatal(err)
	}
	wrapper := "#!/bin/sh\nexec " + env.kubectl + " --kubeconfig " + kc + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "kubectl"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("holding the plane: %s/kubectl; remove %s to stop", dir, kc)
	for {
		if _, err := os.Stat(kc); err != nil {
			return
		}
		time.Sleep(time.Second)
	}
}
