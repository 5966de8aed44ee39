package check_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/check"
)

// TestFileChangedBetweenReadings: a file rewritten between the first look
// and the admitting reading (IN-07) is an input error naming it, never a
// policy admitted twice or an object taken for a policy.
func TestFileChangedBetweenReadings(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop}\nspec: {containers: [{name: c, image: i}]}\n"
	quota := "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: shop}\nspec: {hard: {pods: '5'}}\n"
	for _, tc := range []struct{ name, before, after string }{
		{"a policy became an object", quota, pod},
		{"an object became a policy", pod, quota},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// a.yaml is long enough that the second reading, which runs
			// ahead of admission (load.WalkAhead), is still in it when the
			// first entry is delivered.
			if err := os.WriteFile(a, []byte(strings.Repeat("---\n"+strings.Replace(pod, "name: p,", "generateName: p-,", 1), 2000)), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(b, []byte(tc.before), 0o644); err != nil {
				t.Fatal(err)
			}
			rewritten := false
			_, err := check.Run(check.Options{Paths: []string{a, b}, Stream: func(*check.Entry) bool {
				if !rewritten {
					rewritten = true
					if err := os.WriteFile(b, []byte(tc.after), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				return false
			}})
			if want := b + ": changed while limitcheck was reading it; run again"; err == nil || err.Error() != want {
				t.Fatalf("error %v, want %s", err, want)
			}
		})
	}
}
