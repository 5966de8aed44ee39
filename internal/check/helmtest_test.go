package check

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// IN-13: which helm.sh/hook values make a test hook.
func TestHelmTest(t *testing.T) {
	pod := func(hooks map[string]string) runtime.Object {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Annotations: hooks}}
	}
	for _, tc := range []struct {
		obj  runtime.Object
		want bool
	}{
		{pod(map[string]string{"helm.sh/hook": "test"}), true},
		{pod(map[string]string{"helm.sh/hook": "test-success"}), true},
		{pod(map[string]string{"helm.sh/hook": "test-failure"}), true},
		{pod(map[string]string{"helm.sh/hook": "pre-install, test"}), true},
		{pod(map[string]string{"helm.sh/hook": "pre-install,post-upgrade"}), false},
		{pod(map[string]string{"helm.sh/hook": "tests"}), false},
		{pod(map[string]string{"helm.sh/hook-weight": "test"}), false},
		{pod(nil), false},
		{&metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"helm.sh/hook": "test"}}}, true},
		{nil, false},
	} {
		if _, got := helmTest(tc.obj); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.obj, got, tc.want)
		}
	}
}
