package conformance

import (
	"math/rand/v2"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	"github.com/limitcheck/limitcheck/internal/eval/defaults"
	"github.com/limitcheck/limitcheck/internal/eval/features"
)

// TestImagePullPolicyParity defaults the imagePullPolicy of containers whose
// images are random references, well-formed and not (a registry, a path, a
// tag and a digest from lists of each, then a few characters inserted,
// dropped or replaced), with the v1 defaulters (parsers.ParseImageName) and
// with limitcheck's (VAL-10). The policy reaches the hashes of StatefulSet
// revisions and Deployment ReplicaSets (WL-07, WL-08).
func TestImagePullPolicyParity(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 0x1a6e))
	hex := func(n int, upper bool) string {
		const digits = "0123456789abcdef"
		b := make([]byte, n)
		for i := range b {
			b[i] = digits[r.IntN(16)]
		}
		if upper {
			return strings.ToUpper(string(b))
		}
		return string(b)
	}
	registries := []string{"", "", "", "", "", "", "localhost/", "localhost:5000/", "example.com/", "Example.COM:443/", "REGISTRY/", "Team/",
		"[::1]:5000/", "[fe80::1]/", "[zz]/", "10.0.0.1:5000/", "index.docker.io/", "docker.io/", "ko://", "http://",
		"a..b/", "-x.com/", "x-.com/", "a_b.com/", "host:port/", "host:/", "my-registry:5000/"}
	paths := []string{"nginx", "nginx", "nginx", "nginx", "team/app", "team/app", "library/nginx", "a/b/c", "a__b", "a___b", "a--b", "a-", "A", "App", "app.v2", "",
		"x/", "/x", "_x", "a.b.c/d_e", "team/App", strings.Repeat("a", 250), strings.Repeat("ab/", 90) + "c"}
	tags := []string{"", "", "", "", "", "", ":latest", ":latest", ":1.25", ":", ":-x", ":_x", ":.x", ":" + strings.Repeat("t", 128), ":" + strings.Repeat("t", 129),
		":v1.2-rc_3", ":LATEST", ":a/b", ":a:b"}
	digests := func() string {
		switch r.IntN(10) {
		case 0:
			return "@sha256:" + hex(64, false)
		case 1:
			return "@sha256:" + hex(64, true)
		case 2:
			return "@sha512:" + hex(128, false)
		case 3:
			return "@sha384:" + hex(96, false)
		case 4:
			return "@md5:" + hex(32, false)
		case 5:
			return "@sha256:" + hex(63, false)
		case 6:
			return "@sha256"
		}
		return ""
	}
	wellFormed := []string{"nginx", "team/app", "localhost/app", "localhost:5000/team/app", "example.com/app", "Example.com:443/a/b",
		"REGISTRY/app", "[::1]:5000/app", "10.0.0.1:5000/app", "index.docker.io/app", "docker.io/library/app", "a__b/c--d/e.f_g"}
	const mutations = "/:@._-A[]a0 \t"
	differ := 0
	policies := map[corev1.PullPolicy]int{}
	for i := 0; i < 30000; i++ {
		image := registries[r.IntN(len(registries))] + paths[r.IntN(len(paths))] + tags[r.IntN(len(tags))] + digests()
		if r.IntN(2) == 0 { // well formed, tagged latest or not at all, but for the mutations below
			image = wellFormed[r.IntN(len(wellFormed))] + []string{"", "", ":latest", ":1.25"}[r.IntN(4)]
		}
		switch r.IntN(12) {
		case 0:
			image = hex(64, false)
		case 1, 2:
			for range 1 + r.IntN(2) {
				if image == "" {
					break
				}
				p := r.IntN(len(image))
				c := string(mutations[r.IntN(len(mutations))])
				switch r.IntN(3) {
				case 0:
					image = image[:p] + c + image[p:]
				case 1:
					image = image[:p] + image[p+1:]
				default:
					image = image[:p] + c + image[p+1:]
				}
			}
		}
		up := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: image}}}}
		mine := up.DeepCopy()
		legacyscheme.Scheme.Default(up)
		defaults.DefaultPod(mine, features.Default())
		want, got := up.Spec.Containers[0].ImagePullPolicy, mine.Spec.Containers[0].ImagePullPolicy
		policies[want]++
		if want != got {
			differ++
			if differ <= 10 {
				t.Errorf("image %q: upstream %s, limitcheck %s", image, want, got)
			}
		}
	}
	t.Logf("30000 images: %v; %d differ", policies, differ)
	if policies[corev1.PullAlways] < 3000 || policies[corev1.PullIfNotPresent] < 3000 {
		t.Errorf("too few of one policy: %v", policies)
	}
}
