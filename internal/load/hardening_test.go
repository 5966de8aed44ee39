package load

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf16"
)

// event renders what Walk reported, one string per document, note or error,
// with base removed from paths.
func event(base string, s string) string {
	if base != "" {
		s = strings.ReplaceAll(s, base+string(filepath.Separator), "")
		s = strings.ReplaceAll(s, base, ".")
	}
	return filepath.ToSlash(s)
}

func docEvent(base string, d Document) []string {
	var out []string
	where := fmt.Sprintf("%s:%d", d.Pos.File, d.Pos.Line)
	switch {
	case d.Err != nil:
		out = append(out, "error "+d.Err.Error())
	case d.Skip != "":
		out = append(out, "skip "+where+": "+d.Skip)
	default:
		out = append(out, fmt.Sprintf("doc %s: %s %s", where, d.Kind, d.Name))
	}
	for _, w := range d.Warnings {
		out = append(out, fmt.Sprintf("warning %s:%d: %s", d.Pos.File, w.Line, w.Msg))
	}
	for i := range out {
		out[i] = event(base, out[i])
	}
	return out
}

// walkEvents runs Walk and returns every document, note and the error as
// strings, in order. It fails the test instead of hanging if Walk does not
// return within a minute.
func walkEvents(t *testing.T, base string, paths []string, stdin io.Reader, opts Options) []string {
	t.Helper()
	var out []string
	opts.Note = func(n Note) { out = append(out, event(base, "note "+n.String())) }
	done := make(chan error, 1)
	go func() {
		done <- Walk(paths, stdin, opts, func(d Document) bool {
			out = append(out, docEvent(base, d)...)
			return true
		})
	}()
	select {
	case err := <-done:
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Errorf("error %T is not *Error", err)
			}
			out = append(out, event(base, "stop "+err.Error()))
		}
		return out
	case <-time.After(time.Minute):
		t.Fatal("Walk did not return within a minute")
		return nil
	}
}

func checkEvents(t *testing.T, got, want []string) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	t.Errorf("got:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
}

// repeatReader returns s forever.
type repeatReader struct {
	s   []byte
	off int
	n   int64 // bytes returned
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.s[r.off:])
		n += c
		r.off = (r.off + c) % len(r.s)
	}
	r.n += int64(n)
	return n, nil
}

func TestEndlessInput(t *testing.T) {
	for _, tc := range []struct {
		name    string
		prefix  string
		repeat  string
		opts    Options
		want    []string
		maxRead int64 // the most that may be read
	}{
		{
			name:    "NUL bytes",
			repeat:  "\x00",
			want:    []string{"error <stdin>:1: error parsing STDIN: error converting YAML to JSON: yaml: control characters are not allowed (binary data, not YAML or JSON: a NUL byte at offset 0; the rest of <stdin> was not read)"},
			maxRead: 1 << 20,
		},
		{
			name:    "NUL bytes after documents",
			prefix:  cmYAML("a") + "---\n" + cmYAML("b") + "  x: y",
			repeat:  "\x00",
			want:    []string{"doc <stdin>:1: ConfigMap a", "error <stdin>:10: error parsing STDIN: error converting YAML to JSON: yaml: control characters are not allowed (binary data, not YAML or JSON: a NUL byte at offset 112; the rest of <stdin> was not read)"},
			maxRead: 1 << 20,
		},
		{
			name:    "NUL bytes in JSON",
			prefix:  `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}` + "\n\n" + `{"kind": "ConfigMap",` + "\n",
			repeat:  "\x00",
			want:    []string{"doc <stdin>:1: ConfigMap a", "error <stdin>:4: error parsing STDIN: json: offset 93: invalid character '\\x00' looking for beginning of object key string (binary data, not YAML or JSON: a NUL byte at offset 92; the rest of <stdin> was not read)"},
			maxRead: 1 << 20,
		},
		{
			name:    "a document without separators",
			repeat:  "a: b\n",
			want:    []string{"error <stdin>:1: document is larger than 3 MiB, the most kube-apiserver accepts in one request; the rest of <stdin> was not read"},
			maxRead: 3<<20 + 256<<10,
		},
		{
			name:    "a document after a Helm source comment",
			prefix:  cmYAML("a") + "---\n# Source: chart/templates/big.yaml\n",
			repeat:  "y\n",
			want:    []string{"doc <stdin>:1: ConfigMap a", "error <stdin>:7: document is larger than 3 MiB, the most kube-apiserver accepts in one request; the rest of <stdin> was not read"},
			maxRead: 3<<20 + 256<<10,
		},
		{
			name:    "one endless line",
			prefix:  "data: ",
			repeat:  "x",
			opts:    Options{MaxDocumentBytes: 100 << 10},
			want:    []string{"error <stdin>:1: document is larger than 100 KiB, the limit for one document; the rest of <stdin> was not read"},
			maxRead: 100<<10 + 256<<10,
		},
		{
			name:    "endless comments",
			repeat:  "# x\n",
			opts:    Options{MaxDocumentBytes: 1 << 20},
			want:    []string{"error <stdin>:1: document is larger than 1 MiB, the limit for one document; the rest of <stdin> was not read"},
			maxRead: 1<<20 + 256<<10,
		},
		{
			name:    "an endless JSON value",
			prefix:  `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}` + "\n" + `{"data": [`,
			repeat:  "1, ",
			opts:    Options{MaxDocumentBytes: 1 << 20},
			want:    []string{"doc <stdin>:1: ConfigMap a", "error <stdin>:2: document is larger than 1 MiB, the limit for one document; the rest of <stdin> was not read"},
			maxRead: 1<<20 + 256<<10,
		},
		{
			name:    "endless JSON white space",
			prefix:  `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}`,
			repeat:  " \n",
			opts:    Options{MaxInputBytes: 10 << 20},
			want:    []string{"doc <stdin>:1: ConfigMap a", "stop <stdin>:5242847: input is larger than 10 MiB, the limit for one run; stopped reading here"},
			maxRead: 10<<20 + 1,
		},
		{
			name:    "the input limit",
			prefix:  cmYAML("a") + "---\n",
			repeat:  cmYAML("b") + "---\n",
			opts:    Options{MaxInputBytes: 1000},
			want:    []string{"doc <stdin>:1: ConfigMap a", "doc <stdin>:6: ConfigMap b", "doc <stdin>:11: ConfigMap b", "doc <stdin>:16: ConfigMap b", "doc <stdin>:21: ConfigMap b", "doc <stdin>:26: ConfigMap b", "doc <stdin>:31: ConfigMap b", "doc <stdin>:36: ConfigMap b", "doc <stdin>:41: ConfigMap b", "doc <stdin>:46: ConfigMap b", "doc <stdin>:51: ConfigMap b", "doc <stdin>:56: ConfigMap b", "doc <stdin>:61: ConfigMap b", "doc <stdin>:66: ConfigMap b", "doc <stdin>:71: ConfigMap b", "doc <stdin>:76: ConfigMap b", "doc <stdin>:81: ConfigMap b", "doc <stdin>:86: ConfigMap b", "stop <stdin>:91: input is larger than 1000 bytes, the limit for one run; stopped reading here"},
			maxRead: 1001,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rr := &repeatReader{s: []byte(tc.repeat)}
			in := io.MultiReader(strings.NewReader(tc.prefix), rr)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			got := walkEvents(t, "", []string{"-"}, in, tc.opts)
			runtime.ReadMemStats(&after)
			checkEvents(t, got, tc.want)
			if read := int64(len(tc.prefix)) + rr.n; read > tc.maxRead {
				t.Errorf("read %d bytes, want at most %d", read, tc.maxRead)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			if alloc > 6*uint64(tc.maxRead)+(8<<20) {
				t.Errorf("allocated %d bytes in all", alloc)
			}
			t.Logf("read %d bytes, allocated %d bytes in %v", int64(len(tc.prefix))+rr.n, alloc, time.Since(start))
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestJSONErrorRemainder(t *testing.T) {
	// Two values decoded, kubectl's decoder is sure the stream is JSON:
	// the error ends it (one value before it: readJSON's YAML reading).
	bad := `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}` + "\n" + `null` + "\n" + `{"kind": }` + "\n"
	good := `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "b"}}` + "\n"
	dir := writeTree(t, map[string]string{
		"deploy.json": bad + strings.Repeat(good, 25),
		"big.json":    bad + strings.Repeat(good, 100000),
		"end.json":    bad,
	})
	for _, tc := range []struct {
		name  string
		paths []string
		stdin io.Reader
		want  []string
	}{
		{
			name:  "a file",
			paths: []string{filepath.Join(dir, "deploy.json")},
			want:  []string{"doc deploy.json:1: ConfigMap a", "error deploy.json:3: error parsing deploy.json: invalid character '}' looking for beginning of value; the remaining 1726 bytes of deploy.json were not read"},
		},
		{
			name:  "a large file",
			paths: []string{filepath.Join(dir, "big.json")},
			want:  []string{"doc big.json:1: ConfigMap a", "error big.json:3: error parsing big.json: invalid character '}' looking for beginning of value; the remaining 6.6 MiB of big.json were not read"},
		},
		{
			name:  "nothing after the error",
			paths: []string{filepath.Join(dir, "end.json")},
			want:  []string{"doc end.json:1: ConfigMap a", "error end.json:3: error parsing end.json: invalid character '}' looking for beginning of value"},
		},
		{
			name:  "stdin",
			paths: []string{"-"},
			stdin: strings.NewReader(bad + good),
			want:  []string{"doc <stdin>:1: ConfigMap a", "error <stdin>:3: error parsing STDIN: invalid character '}' looking for beginning of value; the remaining 70 bytes of <stdin> were not read"},
		},
		{
			name:  "endless stdin",
			paths: []string{"-"},
			stdin: io.MultiReader(strings.NewReader(bad), &repeatReader{s: []byte(good)}),
			want:  []string{"doc <stdin>:1: ConfigMap a", "error <stdin>:3: error parsing STDIN: invalid character '}' looking for beginning of value; the rest of <stdin> was not read"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkEvents(t, walkEvents(t, dir, tc.paths, tc.stdin, Options{}), tc.want)
		})
	}
}

func TestInputLimitFiles(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a.yaml": cmYAML("a"),                                // 51 bytes
		"b.yaml": cmYAML("b") + "---\n" + cmYAML("b2"),       // 107 bytes
		"c.yaml": strings.Repeat("# padding\n", 1000) + "\n", // 10001 bytes
	})
	a, b, c := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "c.yaml")
	for _, tc := range []struct {
		name  string
		paths []string
		max   int64
		want  []string
	}{
		{"all fit", []string{a, b}, 158, []string{"doc a.yaml:1: ConfigMap a", "doc b.yaml:1: ConfigMap b", "doc b.yaml:6: ConfigMap b2"}},
		{"the second does not fit", []string{a, b}, 157, []string{"doc a.yaml:1: ConfigMap a", "stop b.yaml: file is 107 bytes, more than the 106 bytes left of 157 bytes, the input limit for one run; not read"}},
		{"too large alone", []string{c, a}, 10000, []string{"stop c.yaml: file is 10001 bytes, larger than 10000 bytes, the input limit for one run; not read"}},
		{"stdin after files", []string{a, "-"}, 100, []string{"doc a.yaml:1: ConfigMap a", "stop <stdin>:4: input is larger than 100 bytes, the limit for one run; stopped reading here"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdin := strings.NewReader(cmYAML("s") + "---\n" + cmYAML("s2"))
			checkEvents(t, walkEvents(t, dir, tc.paths, stdin, Options{MaxInputBytes: tc.max}), tc.want)
		})
	}
}

func TestDeviceRefused(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir := writeTree(t, map[string]string{"a.yaml": cmYAML("a")})
	got := walkEvents(t, dir, []string{filepath.Join(dir, "a.yaml"), "/dev/zero"}, nil, Options{})
	checkEvents(t, got, []string{`stop cannot read path "/dev/zero": a device, not a file`})
}

func TestFilesReadOnce(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"team-a/policy/quota.yaml": cmYAML("quota"),
		"team-a/web.yaml":          cmYAML("web"),
	})
	quota := filepath.Join(dir, "team-a", "policy", "quota.yaml")
	link := filepath.Join(dir, "team-a", "quota-link.yaml")
	symlinks := os.Symlink(quota, link) == nil
	for _, tc := range []struct {
		name    string
		paths   []string
		opts    Options
		symlink bool
		want    []string
	}{
		{
			name:  "the same path twice",
			paths: []string{"team-a/policy/quota.yaml", "team-a/policy/quota.yaml"},
			want:  []string{"doc team-a/policy/quota.yaml:1: ConfigMap quota", "note team-a/policy/quota.yaml: already read (as team-a/policy/quota.yaml); read once"},
		},
		{
			name:  "two spellings",
			paths: []string{"team-a/policy/quota.yaml", "team-a/../team-a/policy/quota.yaml"},
			want:  []string{"doc team-a/policy/quota.yaml:1: ConfigMap quota", "note team-a/../team-a/policy/quota.yaml: already read (as team-a/policy/quota.yaml); read once"},
		},
		{
			name:    "a directory, then a recursive walk reaching it again",
			paths:   []string{"team-a/policy", "team-a"},
			opts:    Options{Recursive: true},
			symlink: true,
			want: []string{
				"doc team-a/policy/quota.yaml:1: ConfigMap quota",
				"note team-a/policy/quota.yaml: already read (as team-a/policy/quota.yaml); read once",
				"note team-a/quota-link.yaml: already read (as team-a/policy/quota.yaml); read once",
				"doc team-a/web.yaml:1: ConfigMap web",
			},
		},
		{
			name:    "a symbolic link to a file already read",
			paths:   []string{"team-a/policy/quota.yaml", "team-a/quota-link.yaml"},
			symlink: true,
			want:    []string{"doc team-a/policy/quota.yaml:1: ConfigMap quota", "note team-a/quota-link.yaml: already read (as team-a/policy/quota.yaml); read once"},
		},
		{
			name:  "stdin is not a file",
			paths: []string{"team-a/web.yaml", "-"},
			want:  []string{"doc team-a/web.yaml:1: ConfigMap web", "doc <stdin>:1: ConfigMap web"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.symlink && !symlinks {
				t.Skip("no symlinks")
			}
			t.Chdir(dir)
			stdin, err := os.Open(filepath.Join(dir, "team-a", "web.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			checkEvents(t, walkEvents(t, "", tc.paths, stdin, tc.opts), tc.want)
		})
	}
}

func TestWalkSkipsNonObjects(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"chart/Chart.yaml":        "apiVersion: v2\nname: web\nversion: 1.0.0\n",
		"chart/values.yaml":       "# defaults\nreplicas: 3\nimage: {tag: latest}\n",
		"chart/list.yaml":         "- a\n- b\n",
		"chart/package.json":      `["not", "an", "object"]`,
		"chart/tsconfig.json":     `{"compilerOptions": {}}`,
		"chart/devcontainer.json": "{\n  // with a comment\n  \"name\": \"dev\"\n}\n",
		"chart/kep.yaml":          "title: x\nstatus: [implementable\n",
		"chart/broken.yaml":       "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [x}\n",
		"chart/broken.json":       "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\",\n",
		"chart/empty-kind.yaml":   "apiVersion: v1\nkind: \"\"\n",
		"chart/no-api.yaml":       "kind: ConfigMap\nmetadata: {name: x}\n",
		"chart/gce.json":          `{"kind": "compute#diskTypeList", "items": [{"kind": "compute#diskType"}]}`,
		"chart/bad-kind.yaml":     "apiVersion: v1\nkind: config-map\n",
		"chart/typo-kind.yaml":    "kind: config-map\nmetadata: {name: x}\n",
		"chart/case-kind.yaml":    "apiVersion: v1\nKind: ConfigMap\nmetadata: {name: x}\n",
		"chart/mixed.yaml":        "replicas: 3\n---\n" + cmYAML("m"),
		"chart/list-items.yaml":   "apiVersion: v1\nkind: List\nitems:\n- {metadata: {name: i}}\n",
		"chart/templates/x.yaml":  cmYAML("t"),
		// In UTF-16, its "kind" is found once decoded, as kubectl reads it.
		"chart/utf16.json": "\xfe\xff" + string(utf16BE("{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\",\n")),
	})
	chart := filepath.Join(dir, "chart")
	t.Run("walked", func(t *testing.T) {
		checkEvents(t, walkEvents(t, dir, []string{chart}, nil, Options{}), []string{
			"skip chart/Chart.yaml:1: not a Kubernetes object: no kind",
			"doc chart/bad-kind.yaml:1: config-map ",
			"error chart/broken.json:1: error parsing chart/broken.json: unexpected EOF",
			"error chart/broken.yaml:3: error parsing chart/broken.yaml: error converting YAML to JSON: yaml: line 2: did not find expected ',' or ']'",
			"error chart/case-kind.yaml:2: kind: error validating \"chart/case-kind.yaml\": error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false (the document has \"Kind\": keys are case-sensitive)",
			"skip chart/devcontainer.json:1: not a Kubernetes object: not valid JSON, and no \"kind\"",
			"skip chart/empty-kind.yaml:1: not a Kubernetes object: no kind",
			"skip chart/gce.json:1: not a Kubernetes object: no apiVersion, and \"compute#diskTypeList\" is not a kind",
			"skip chart/kep.yaml:1: not a Kubernetes object: not valid YAML, and no kind",
			"error chart/list-items.yaml:4: items[0]: apiVersion not set, kind not set: kubectl validates a v1 List's items before it sends any, so none of them is created, and it stops reading the file there",
			"skip chart/list.yaml:1: not a Kubernetes object: not a mapping",
			"skip chart/mixed.yaml:1: not a Kubernetes object: no apiVersion or kind",
			"doc chart/mixed.yaml:3: ConfigMap m",
			"error chart/no-api.yaml:1: apiVersion: error validating \"chart/no-api.yaml\": error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false",
			"skip chart/package.json:1: not a Kubernetes object: not a mapping",
			"skip chart/tsconfig.json:1: not a Kubernetes object: no apiVersion or kind",
			"error chart/typo-kind.yaml:1: apiVersion: error validating \"chart/typo-kind.yaml\": error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false",
			"error chart/utf16.json:1: error parsing chart/utf16.json: unexpected EOF",
			"skip chart/values.yaml:2: values of the Helm chart in chart, not an API object",
		})
	})
	t.Run("named explicitly", func(t *testing.T) {
		var paths []string
		for _, f := range []string{"Chart.yaml", "values.yaml", "list.yaml", "package.json", "devcontainer.json", "kep.yaml", "gce.json"} {
			paths = append(paths, filepath.Join(chart, f))
		}
		checkEvents(t, walkEvents(t, dir, paths, strings.NewReader("replicas: 3\n"), Options{}), []string{
			"error chart/Chart.yaml:1: kind: error validating \"chart/Chart.yaml\": error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false",
			"error chart/values.yaml:2: apiVersion: error validating \"chart/values.yaml\": error validating data: [apiVersion not set, kind not set]; if you choose to ignore these errors, turn validation off with --validate=false",
			"error chart/list.yaml:1: error validating \"chart/list.yaml\": error validating data: invalid object to validate; if you choose to ignore these errors, turn validation off with --validate=false (not a Kubernetes object: expected a mapping)",
			"error chart/package.json:1: error validating \"chart/package.json\": error validating data: invalid object to validate; if you choose to ignore these errors, turn validation off with --validate=false (not a Kubernetes object: expected a mapping)",
			"error chart/devcontainer.json:2: error parsing chart/devcontainer.json: json: offset 5: invalid character '/' looking for beginning of object key string",
			"error chart/kep.yaml:2: error parsing chart/kep.yaml: error converting YAML to JSON: yaml: line 2: did not find expected ',' or ']'",
			"error chart/gce.json:1: apiVersion: error validating \"chart/gce.json\": error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false",
		})
	})
	t.Run("stdin", func(t *testing.T) {
		checkEvents(t, walkEvents(t, dir, []string{"-"}, strings.NewReader("replicas: 3\n"), Options{}), []string{
			"error <stdin>:1: apiVersion: error validating \"STDIN\": error validating data: [apiVersion not set, kind not set]; if you choose to ignore these errors, turn validation off with --validate=false",
		})
	})
}

func TestIgnorePatterns(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"repo/a.yaml":                          cmYAML("a"),
		"repo/values.yaml":                     "replicas: 1\n",
		"repo/charts/web/values.yaml":          "replicas: 1\n",
		"repo/charts/web/templates/d.yaml":     "{{ .Values.x }}\n",
		"repo/team-a/charts/db/values.yaml":    "replicas: 1\n",
		"repo/team-a/charts/db/x.yaml":         cmYAML("db-x"),
		"repo/team-a/charts/db/sub/y.yaml":     cmYAML("db-y"),
		"repo/team-a/charts/db/sub/notes.txt":  "x",
		"repo/team-a/charts/cache/values.yaml": "replicas: 1\n",
		"repo/team-a/q.yaml":                   cmYAML("q"),
		"repo/team-b/values.yaml":              "replicas: 1\n",
	})
	repo := filepath.Join(dir, "repo")
	for _, tc := range []struct {
		name   string
		paths  []string
		ignore []string
		want   []string
	}{
		{
			name:   "by name",
			paths:  []string{repo},
			ignore: []string{"values.yaml", "templates"},
			want: []string{
				"doc repo/a.yaml:1: ConfigMap a",
				"doc repo/team-a/charts/db/sub/y.yaml:1: ConfigMap db-y",
				"doc repo/team-a/charts/db/x.yaml:1: ConfigMap db-x",
				"doc repo/team-a/q.yaml:1: ConfigMap q",
				"note repo: 6 paths ignored by --ignore-path",
			},
		},
		{
			name:   "by trailing components",
			paths:  []string{repo},
			ignore: []string{"charts/*"},
			want: []string{
				"doc repo/a.yaml:1: ConfigMap a",
				"doc repo/team-a/q.yaml:1: ConfigMap q",
				"skip repo/team-b/values.yaml:1: not a Kubernetes object: no apiVersion or kind",
				"skip repo/values.yaml:1: not a Kubernetes object: no apiVersion or kind",
				"note repo: 3 paths ignored by --ignore-path",
			},
		},
		{
			name:   "by a longer pattern",
			paths:  []string{filepath.Join(repo, "team-a")},
			ignore: []string{"team-a/charts/*/values.yaml", "sub"},
			want: []string{
				"doc repo/team-a/charts/db/x.yaml:1: ConfigMap db-x",
				"doc repo/team-a/q.yaml:1: ConfigMap q",
				"note repo/team-a: 3 paths ignored by --ignore-path",
			},
		},
		{
			name:   "a path given explicitly",
			paths:  []string{filepath.Join(repo, "values.yaml"), filepath.Join(repo, "charts"), filepath.Join(repo, "a.yaml")},
			ignore: []string{"values.yaml", "repo/charts"},
			want: []string{
				`note repo/values.yaml: ignored by --ignore-path "values.yaml"`,
				`note repo/charts: ignored by --ignore-path "repo/charts"`,
				"doc repo/a.yaml:1: ConfigMap a",
			},
		},
		{
			name:   "one path",
			paths:  []string{filepath.Join(repo, "team-b")},
			ignore: []string{"./team-b/values.yaml"},
			want:   []string{"note repo/team-b: 1 path ignored by --ignore-path"},
		},
		{
			name:   "a bad pattern",
			paths:  []string{repo},
			ignore: []string{"*.yaml", "charts/[a-"},
			want:   []string{`stop --ignore-path "charts/[a-": syntax error in pattern`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkEvents(t, walkEvents(t, dir, tc.paths, nil, Options{Recursive: true, Ignore: tc.ignore}), tc.want)
		})
	}
}

// A dangling symbolic link is an error kubectl shares, naming its target,
// of that path only: the walk goes on with the next file, as kubectl's does
// (IN-02); --ignore-path leaves it out, by name or by a trailing pattern.
func TestIgnoreDanglingSymlink(t *testing.T) {
	dir := writeTree(t, map[string]string{"repo/a.yaml": cmYAML("a"), "repo/sub/z.yaml": cmYAML("z")})
	if err := os.MkdirAll(filepath.Join(dir, "repo", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere.json", filepath.Join(dir, "repo", "sub", "link.json")); err != nil {
		t.Skip("no symlinks:", err)
	}
	repo := filepath.Join(dir, "repo")
	for _, tc := range []struct {
		ignore []string
		want   []string
	}{
		{nil, []string{"doc repo/a.yaml:1: ConfigMap a",
			`error repo/sub/link.json: open repo/sub/link.json: no such file or directory (a symbolic link to "nowhere.json", which does not exist; --ignore-path link.json leaves it out)`,
			"doc repo/sub/z.yaml:1: ConfigMap z"}},
		{[]string{"link.json"}, []string{"doc repo/a.yaml:1: ConfigMap a", "doc repo/sub/z.yaml:1: ConfigMap z", "note repo: 1 path ignored by --ignore-path"}},
		{[]string{"sub/*"}, []string{"doc repo/a.yaml:1: ConfigMap a", "note repo: 2 paths ignored by --ignore-path"}},
	} {
		checkEvents(t, walkEvents(t, dir, []string{repo}, nil, Options{Recursive: true, Ignore: tc.ignore}), tc.want)
	}
}

func TestRecursiveHint(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"team-a/envs/prod/web.yaml": cmYAML("web"),
		"team-a/README.md":          "# team a",
		"team-b/x.yaml":             cmYAML("x"),
		"team-b/sub/y.yaml":         cmYAML("y"),
		"team-c/sub/notes.txt":      "nothing",
		"team-d/charts/values.yaml": "replicas: 1\n",
	})
	for _, tc := range []struct {
		name  string
		paths []string
		opts  Options
		want  []string
	}{
		{"only in subdirectories", []string{"team-a"}, Options{}, []string{"note team-a: no manifests in this directory, only in its subdirectories; give -R to read them"}},
		{"recursive", []string{"team-a"}, Options{Recursive: true}, []string{"doc team-a/envs/prod/web.yaml:1: ConfigMap web"}},
		{"own manifests", []string{"team-b"}, Options{}, []string{"doc team-b/x.yaml:1: ConfigMap x"}},
		{"no manifests at all", []string{"team-c"}, Options{}, []string{"note team-c: no .yaml, .yml or .json files in this directory"}},
		{"no manifests at all, recursive", []string{"team-c"}, Options{Recursive: true}, []string{"note team-c: no .yaml, .yml or .json files in this directory or its subdirectories"}},
		{"ignored", []string{"team-d"}, Options{Ignore: []string{"charts"}}, []string{"note team-d: no .yaml, .yml or .json files in this directory"}},
		{"ignored, recursive", []string{"team-d"}, Options{Recursive: true, Ignore: []string{"charts"}}, []string{"note team-d: 1 path ignored by --ignore-path"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(dir)
			checkEvents(t, walkEvents(t, "", tc.paths, nil, tc.opts), tc.want)
		})
	}
}

func TestDeepDirectories(t *testing.T) {
	for _, tc := range []struct {
		levels int
		want   func(deepest string) []string
	}{
		{maxDirDepth, func(deepest string) []string {
			return []string{"doc " + deepest + "/bottom.yaml:1: ConfigMap bottom", "doc top.yaml:1: ConfigMap top"}
		}},
		{maxDirDepth + 1, func(deepest string) []string {
			return []string{fmt.Sprintf("stop directory %q is nested more than 1000 levels deep; not read", deepest)}
		}},
	} {
		t.Run(fmt.Sprint(tc.levels), func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			deepest := strings.TrimSuffix(strings.Repeat("d/", tc.levels), "/")
			if err := os.MkdirAll(deepest, 0o755); err != nil {
				t.Skip("cannot create the tree:", err)
			}
			if err := os.WriteFile("top.yaml", []byte(cmYAML("top")), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(deepest, "bottom.yaml"), []byte(cmYAML("bottom")), 0o644); err != nil {
				t.Skip("cannot create the file:", err)
			}
			got := walkEvents(t, "", []string{"."}, nil, Options{Recursive: true})
			checkEvents(t, got, tc.want(deepest))
		})
	}
}

func TestDuplicateKeys(t *testing.T) {
	deploy := "apiVersion: apps/v1\n" + // 1
		"kind: Deployment\n" + // 2
		"metadata:\n" + // 3
		"  name: web\n" + // 4
		"  labels: {app: web, app: api}\n" + // 5
		"spec:\n" + // 6
		"  template:\n" + // 7
		"    spec:\n" + // 8
		"      containers:\n" + // 9
		"      - name: app\n" + // 10
		"        image: x\n" + // 11
		"        resources:\n" + // 12
		"          limits: {cpu: 1}\n" + // 13
		"        resources:\n" + // 14
		"          requests: {cpu: 1}\n" // 15
	concatenated := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n" + // 1-3
		"apiVersion: v1\nkind: Secret\nmetadata: {name: b}\n" // 4-6
	list := "apiVersion: v1\n" + // 1
		"kind: List\n" + // 2
		"metadata: {}\n" + // 3
		"metadata: {}\n" + // 4
		"items:\n" + // 5
		"- apiVersion: v1\n" + // 6
		"  kind: ConfigMap\n" + // 7
		"  metadata: {name: a}\n" + // 8
		"  data: {x: 1, y: 2, x: 3, x: 4}\n" + // 9
		"- apiVersion: v1\n" + // 10
		"  kind: ConfigMap\n" + // 11
		"  metadata: {name: b}\n" // 12
	merge := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\n" +
		"base: &b {x: 1, y: 2}\n" +
		"data:\n  <<: *b\n  x: \"3\"\n" // not duplicates: x overrides the merged x
	many := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: many}\ndata:\n"
	for i := 0; i < 20; i++ {
		many += fmt.Sprintf("  k%d: v\n", i)
	}
	many += "  k3: again\n" // line 25
	for _, tc := range []struct {
		name   string
		in     string
		strict bool
		want   []string
	}{
		{
			name: "nested",
			in:   deploy,
			want: []string{
				"doc f.yaml:1: Deployment web",
				`warning f.yaml:5: duplicate key "app" in metadata.labels (twice on line 5): kubectl keeps the last value`,
				`warning f.yaml:14: duplicate key "resources" in spec.template.spec.containers[0] (line 12 and line 14): kubectl keeps the last value`,
			},
		},
		{
			name:   "nested, strict",
			in:     deploy,
			strict: true,
			want:   []string{`error f.yaml:5: metadata.labels: duplicate key "app" (twice on line 5): kubectl keeps the last value`},
		},
		{
			name: "concatenated documents",
			in:   concatenated,
			want: []string{
				"doc f.yaml:1: Secret b",
				`warning f.yaml:4: duplicate key "apiVersion" (line 1 and line 4): kubectl keeps the last value; two documents were probably concatenated without a "---" separator`,
				`warning f.yaml:5: duplicate key "kind" (line 2 and line 5): kubectl keeps the last value; two documents were probably concatenated without a "---" separator`,
				`warning f.yaml:6: duplicate key "metadata" (line 3 and line 6): kubectl keeps the last value`,
			},
		},
		{
			name:   "concatenated documents, strict",
			in:     concatenated,
			strict: true,
			want:   []string{`error f.yaml:4: duplicate key "apiVersion" (line 1 and line 4): kubectl keeps the last value; two documents were probably concatenated without a "---" separator`},
		},
		{
			name: "List items",
			in:   list,
			want: []string{
				"doc f.yaml:6: ConfigMap a",
				`warning f.yaml:9: key y (line 9): YAML reads the unquoted key as the boolean true, which kubectl sends as "true": write "y" to keep the key`,
				`warning f.yaml:4: duplicate key "metadata" (line 3 and line 4): kubectl keeps the last value`,
				`warning f.yaml:9: duplicate key "x" in data (3 times on line 9): kubectl keeps the last value`,
				"doc f.yaml:10: ConfigMap b",
			},
		},
		{
			name:   "List items, strict",
			in:     list,
			strict: true,
			want:   []string{`error f.yaml:4: duplicate key "metadata" (line 3 and line 4): kubectl keeps the last value`},
		},
		{
			name: "merge keys are not duplicates",
			in:   merge,
			want: []string{"doc f.yaml:1: ConfigMap m",
				`warning f.yaml:4: key y (line 4): YAML reads the unquoted key as the boolean true, which kubectl sends as "true": write "y" to keep the key`},
		},
		{
			// sigs.k8s.io/yaml keeps one of their values at random: an error
			// whatever --strict says, and no JSON.
			name: "keys that are one once converted",
			in:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {yes: a, 'true': b}\ndata:\n  1: a\n  \"1\": b\n  1.0: c\n",
			want: []string{`error f.yaml:5: metadata.labels: keys yes and 'true' (twice on line 5) are one key "true" once converted to JSON: kubectl sends one of their values, at random; write the key once`},
		},
		{
			name: "keys that are one once converted, after a duplicate",
			in:   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  a: x\n  a: y\n  0x1: a\n  1: b\n  \"1\": c\n",
			want: []string{`error f.yaml:9: data: keys 0x1, 1 and "1" (line 7, line 8 and line 9) are one key "1" once converted to JSON: kubectl sends one of their values, at random; write the key once`},
		},
		{
			name: "a number key alone, and keys that only look alike",
			in:   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  1: a\n  \"01\": b\n  \"true\": c\n  yes_no: d\n  .nan: e\n",
			want: []string{"doc f.yaml:1: ConfigMap c"},
		},
		{
			// yaml v2 decodes each pair to one Go value: the last is kept,
			// as for a duplicate (not reported: IN-04).
			name: "keys that are one value to yaml v2",
			in:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {yes: a, true: b, 1.0: c, 1e0: d}\ndata: {1: a, 0x1: b}\n",
			want: []string{"doc f.yaml:1: ConfigMap c",
				`warning f.yaml:5: key yes (line 5): YAML reads the unquoted key as the boolean true, which kubectl sends as "true": write "yes" to keep the key`,
				`warning f.yaml:5: key 1.0 (line 5): YAML reads the unquoted key as the number 1, which kubectl sends as "1": write "1.0" to keep the key`,
				`warning f.yaml:5: key 1e0 (line 5): YAML reads the unquoted key as the number 1, which kubectl sends as "1": write "1e0" to keep the key`,
				`warning f.yaml:6: key 0x1 (line 6): YAML reads the unquoted key as the number 1, which kubectl sends as "1": write "0x1" to keep the key`},
		},
		{
			// yaml v2 keeps the text of a key with a tag it does not
			// resolve, and resolves !!int, !!float and !!bool.
			name: "tagged keys",
			in:   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {!local 0: a, 0b00: b}\ndata: {!!float 1: a, 1.0: b, !!int \"2\": c, \"2\": d}\n",
			want: []string{`error f.yaml:5: metadata.labels: keys !local 0 and 0b00 (twice on line 5) are one key "0" once converted to JSON: kubectl sends one of their values, at random; write the key once`},
		},
		{
			// The non-specific tag "!": yaml v2 keeps the key a string,
			// where yaml v3 would resolve it (FuzzReadStream found it).
			name: "a key with the non-specific tag",
			in:   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  ! 0: a\n  0: b\n",
			want: []string{`error f.yaml:6: data: keys ! 0 and 0 (line 5 and line 6) are one key "0" once converted to JSON: kubectl sends one of their values, at random; write the key once`},
		},
		{
			name: "explicitly tagged keys",
			in:   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {!!float 1: a, 1.0: b, !!int \"2\": c, \"2\": d}\n",
			want: []string{`error f.yaml:4: data: keys !!int "2" and "2" (twice on line 4) are one key "2" once converted to JSON: kubectl sends one of their values, at random; write the key once`},
		},
		{
			name: "an integer and a float",
			in:   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  1: a\n  1.0: b\n",
			want: []string{`error f.yaml:6: data: keys 1 and 1.0 (line 5 and line 6) are one key "1" once converted to JSON: kubectl sends one of their values, at random; write the key once`},
		},
		{
			name:   "NaN keys are never one",
			in:     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  .nan: a\n  .NaN: b\n",
			strict: true,
			want:   []string{`error f.yaml:6: data: keys .nan and .NaN (line 5 and line 6) are one key ".nan" once converted to JSON: kubectl sends one of their values, at random; write the key once`},
		},
		{
			name: "a large mapping",
			in:   "---\n# Source: x\n" + many,
			want: []string{"doc f.yaml:3: ConfigMap many", `warning f.yaml:27: duplicate key "k3" in data (line 10 and line 27): kubectl keeps the last value`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			err := ReadStream("f.yaml", strings.NewReader(tc.in), Options{Strict: tc.strict}, func(d Document) bool {
				got = append(got, docEvent("", d)...)
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			checkEvents(t, got, tc.want)
		})
	}
}

func TestUTF16(t *testing.T) {
	text := "apiVersion: v1\r\nkind: ConfigMap\r\nmetadata: {name: \"é😀\"}\r\n---\r\n" + cmYAML("b")
	u := utf16.Encode([]rune(text))
	le := []byte{0xFF, 0xFE}
	be := []byte{0xFE, 0xFF}
	for _, c := range u {
		le = append(le, byte(c), byte(c>>8))
		be = append(be, byte(c>>8), byte(c))
	}
	want := []string{"doc f.yaml:1: ConfigMap é😀", "doc f.yaml:5: ConfigMap b"}
	for name, in := range map[string][]byte{"little endian": le, "big endian": be} {
		t.Run(name, func(t *testing.T) {
			var got []string
			err := ReadStream("f.yaml", iotest.HalfReader(bytes.NewReader(in)), Options{}, func(d Document) bool {
				got = append(got, docEvent("", d)...)
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			checkEvents(t, got, want)
			got = nil
			readBytes("f.yaml", in, Options{}, func(d Document) bool {
				got = append(got, docEvent("", d)...)
				return true
			})
			checkEvents(t, got, want)
		})
	}
}

// TestStreamingMatchesWhole reads every stream case one byte at a time and
// as a whole: the documents must be the same.
func TestStreamingMatchesWhole(t *testing.T) {
	for _, tc := range streamCases {
		t.Run(tc.name, func(t *testing.T) {
			compareReads(t, []byte(tc.in), typedOpts)
		})
	}
}

func compareReads(t *testing.T, data []byte, opts Options) {
	t.Helper()
	var whole, oneByte []string
	render := func(out *[]string) func(Document) bool {
		return func(d Document) bool {
			*out = append(*out, fmt.Sprintf("%+v %s/%s %s %q %v %v %q", d.Pos, d.APIVersion, d.Kind, d.Name, d.Skip, d.Err, d.Warnings, d.JSON))
			return true
		}
	}
	if err := readBytes("f", data, opts, render(&whole)); err != nil {
		whole = append(whole, "stop "+err.Error())
	}
	if err := ReadStream("f", iotest.OneByteReader(bytes.NewReader(data)), opts, render(&oneByte)); err != nil {
		oneByte = append(oneByte, "stop "+err.Error())
	}
	if !reflect.DeepEqual(whole, oneByte) {
		t.Errorf("read whole:\n\t%s\nread a byte at a time:\n\t%s", strings.Join(whole, "\n\t"), strings.Join(oneByte, "\n\t"))
	}
}

func TestNoteString(t *testing.T) {
	for _, c := range []struct {
		n    Note
		want string
	}{
		{Note{File: "a.yaml", Line: 3, Msg: "m"}, "a.yaml:3: m"},
		{Note{File: "dir", Msg: "m"}, "dir: m"},
		{Note{Msg: "m"}, "m"},
	} {
		if got := c.n.String(); got != c.want {
			t.Errorf("%+v.String() = %q, want %q", c.n, got, c.want)
		}
	}
}

// TestLongJSONLine: a JSON stream may be one long line of small objects; only
// each object counts against the document limit.
func TestLongJSONLine(t *testing.T) {
	obj := `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}`
	in := "\n  " + strings.Repeat(obj, 100) + "\n"
	n := 0
	err := ReadStream("f.json", strings.NewReader(in), Options{MaxDocumentBytes: 100}, func(d Document) bool {
		if d.Err != nil || d.Pos.Line != 2 {
			t.Errorf("document %d: %+v %v", n, d.Pos, d.Err)
		}
		n++
		return true
	})
	if err != nil || n != 100 {
		t.Errorf("read %d documents, error %v", n, err)
	}
}

// TestDuplicateKeysEmptyList: a List without items is skipped, and its
// document carries its warnings.
func TestDuplicateKeysEmptyList(t *testing.T) {
	var got []string
	opts := Options{Note: func(n Note) { got = append(got, "note "+n.String()) }}
	err := ReadStream("f.yaml", strings.NewReader("apiVersion: v1\nkind: List\nmetadata: {}\nmetadata: {}\nitems: []\n"), opts, func(d Document) bool {
		got = append(got, docEvent("", d)...)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, got, []string{"skip f.yaml:1: a list without items: nothing to create",
		`warning f.yaml:4: duplicate key "metadata" (line 3 and line 4): kubectl keeps the last value`})
}

// utf16BE is s in UTF-16, big-endian, without a byte order mark.
func utf16BE(s string) []byte {
	var out []byte
	for _, c := range utf16.Encode([]rune(s)) {
		out = append(out, byte(c>>8), byte(c))
	}
	return out
}
