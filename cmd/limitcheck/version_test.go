package main

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionOutput asserts the whole output of `limitcheck version` and
// `limitcheck version -o json` for a release build (-ldflags -X), a `go install
// module@version` build (module version, no VCS settings), a `go build` in a
// modified checkout, and a build that recorded nothing.
func TestVersionOutput(t *testing.T) {
	oldInfo, oldVersion, oldCommit := readBuildInfo, version, commit
	t.Cleanup(func() { readBuildInfo, version, commit = oldInfo, oldVersion, oldCommit })
	cases := []struct {
		name, version, commit string
		info                  *debug.BuildInfo
		text, json            string
	}{{
		name: "release", version: "v1.2.3", commit: "0123456789abcdef0123456789abcdef01234567",
		info: &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
		text: "limitcheck version v1.2.3\ncommit: 0123456789abcdef0123456789abcdef01234567\nkubernetes: v1.36.3\ngo: go1.26.8\n",
		json: `{"version":"v1.2.3","commit":"0123456789abcdef0123456789abcdef01234567","modified":false,"kubernetesVersion":"v1.36.3","goVersion":"go1.26.8"}`,
	}, {
		name: "go install",
		info: &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/limitcheck/limitcheck", Version: "v1.4.0"}},
		text: "limitcheck version v1.4.0\ncommit: unknown\nkubernetes: v1.36.3\ngo: go1.26.8\n",
		json: `{"version":"v1.4.0","commit":"","modified":false,"kubernetesVersion":"v1.36.3","goVersion":"go1.26.8"}`,
	}, {
		name: "modified checkout",
		info: &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.1-0.20260101120000-abcdefabcdef+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "abcdefabcdefabcdefabcdefabcdefabcdefabcd"}, {Key: "vcs.modified", Value: "true"}}},
		text: "limitcheck version v1.4.1-0.20260101120000-abcdefabcdef+dirty\ncommit: abcdefabcdefabcdefabcdefabcdefabcdefabcd (modified)\nkubernetes: v1.36.3\ngo: go1.26.8\n",
		json: `{"version":"v1.4.1-0.20260101120000-abcdefabcdef+dirty","commit":"abcdefabcdefabcdefabcdefabcdefabcdefabcd","modified":true,"kubernetesVersion":"v1.36.3","goVersion":"go1.26.8"}`,
	}, {
		name: "nothing recorded",
		info: nil,
		text: "limitcheck version dev\ncommit: unknown\nkubernetes: v1.36.3\ngo: " + runtime.Version() + "\n",
		json: `{"version":"dev","commit":"","modified":false,"kubernetesVersion":"v1.36.3","goVersion":"` + runtime.Version() + `"}`,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			version, commit = tc.version, tc.commit
			readBuildInfo = func() (*debug.BuildInfo, bool) { return tc.info, tc.info != nil }
			for _, args := range [][]string{{"version"}, {"version", "-o", "text"}} {
				if got := runOK(t, args...); got != tc.text {
					t.Errorf("%q:\n%s\nwant:\n%s", args, got, tc.text)
				}
			}
			if got, want := runOK(t, "--version"), strings.SplitAfter(tc.text, "\n")[0]; got != want {
				t.Errorf("--version = %q, want %q (the first line of version)", got, want)
			}
			got := runOK(t, "version", "-o", "json")
			var compact bytes.Buffer
			if err := json.Compact(&compact, []byte(got)); err != nil {
				t.Fatalf("version -o json is not JSON: %v\n%s", err, got)
			}
			if compact.String() != tc.json {
				t.Errorf("version -o json:\n%s\nwant:\n%s", compact.String(), tc.json)
			}
		})
	}
}

func runOK(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != 0 || stderr.Len() > 0 {
		t.Fatalf("%q: exit %d, stderr %q", args, code, stderr.String())
	}
	return stdout.String()
}
