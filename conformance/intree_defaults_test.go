package conformance

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	"github.com/limitcheck/limitcheck/internal/eval/defaults"
	"github.com/limitcheck/limitcheck/internal/eval/features"
)

// TestInTreeVolumeDefaultsParity defaults random in-tree volume sources
// (intree_gen.go) of a Pod and of a PersistentVolume with the v1 defaulters
// and with limitcheck's, and compares the volumes field by field as JSON: the
// RBD pool, user and keyring, the iSCSI interface, an Azure disk's caching
// mode, fsType, readOnly and kind, a ScaleIO volume's storage mode and fsType.
func TestInTreeVolumeDefaultsParity(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 0x1f7ee))
	compared := map[string]int{}
	for i := 0; i < 2000; i++ {
		name := intreeSources[r.IntN(len(intreeSources))]
		pvSide := r.IntN(2) == 0
		src := intreeSource(r, name, pvSide, 0.3)
		var upJSON, mineJSON []byte
		if pvSide {
			doc := mustJSON(t, map[string]any{"apiVersion": "v1", "kind": "PersistentVolume", "metadata": map[string]any{"name": "pv"},
				"spec": map[string]any{name: src, "capacity": map[string]any{"storage": "1Gi"}}})
			var up, mine corev1.PersistentVolume
			mustUnmarshal(t, doc, &up)
			mustUnmarshal(t, doc, &mine)
			legacyscheme.Scheme.Default(&up)
			defaults.DefaultPersistentVolume(&mine)
			upJSON, mineJSON = mustJSON(t, up.Spec.PersistentVolumeSource), mustJSON(t, mine.Spec.PersistentVolumeSource)
		} else {
			doc := mustJSON(t, map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "p"},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "i"}}, "volumes": []any{map[string]any{"name": "v", name: src}}}})
			var up, mine corev1.Pod
			mustUnmarshal(t, doc, &up)
			mustUnmarshal(t, doc, &mine)
			legacyscheme.Scheme.Default(&up)
			defaults.DefaultPod(&mine, features.Default())
			upJSON, mineJSON = mustJSON(t, up.Spec.Volumes), mustJSON(t, mine.Spec.Volumes)
		}
		compared[name]++
		if string(upJSON) != string(mineJSON) {
			t.Fatalf("%s (PersistentVolume: %v) defaulted differently:\n  upstream:   %s\n  limitcheck: %s", name, pvSide, upJSON, mineJSON)
		}
	}
	for _, name := range intreeSources {
		if compared[name] == 0 {
			t.Errorf("no case of %s", name)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustUnmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}
