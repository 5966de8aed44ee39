package defaults

import (
	"strings"
	"testing"
)

func TestImageTag(t *testing.T) {
	hex64 := strings.Repeat("0a", 32)
	for _, c := range []struct{ image, tag string }{
		{"nginx", "latest"},
		{"nginx:1.25", "1.25"},
		{"nginx:latest", "latest"},
		{"library/nginx:1.25-alpine", "1.25-alpine"},
		{"docker.io/nginx", "latest"},
		{"index.docker.io/bitnami/redis:7", "7"},
		{"localhost/app", "latest"},
		{"localhost:5000/team/app:v1", "v1"},
		{"Registry.Example.com:443/app:v1", "v1"},
		{"REGISTRY/app", "latest"},             // an upper-case first element is a registry
		{"[::1]:5000/app", "latest"},           // an IPv6 registry
		{"nginx@sha256:" + hex64, ""},          // a digest has no tag
		{"nginx:1.25@sha256:" + hex64, "1.25"}, // both
		{"a__b/c---d/e.f_g", "latest"},
		{"ko://example.com/cmd/app", ""}, // not references: the default is IfNotPresent
		{"http://example.com/app", ""},
		{"nginx:", ""},
		{"-nginx", ""},
		{"a..b/c", ""},
		{"x//y", ""},
		{"localhost:5000//x", ""},
		{"a/B", ""},
		{"Nginx", ""},
		{"a___b", ""},
		{"nginx:" + strings.Repeat("t", 129), ""},
		{"nginx:" + strings.Repeat("t", 128), strings.Repeat("t", 128)},
		{"nginx:.x", ""},
		{"nginx@md5:" + hex64[:32], ""},                       // no such algorithm
		{"nginx@sha256:" + strings.ToUpper(hex64), ""},        // upper-case hex
		{"nginx@sha256:" + hex64[:62], ""},                    // too short for sha256
		{hex64, ""},                                           // an image ID
		{"example.com/" + strings.Repeat("a", 255), "latest"}, // a 255-byte path
		{"example.com/" + strings.Repeat("a", 256), ""},       // one byte more
		{"nginx " + "", ""},
		{"", ""},
	} {
		if got := imageTag(c.image); got != c.tag {
			t.Errorf("imageTag(%q) = %q, want %q", c.image, got, c.tag)
		}
	}
}
