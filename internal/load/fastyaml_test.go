package load

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/casefiles"
	"github.com/rogpeppe/go-internal/txtar"
	yaml2 "go.yaml.in/yaml/v2"
	yaml3 "go.yaml.in/yaml/v3"
)

// fastYAMLQuirks are documents where yaml v2's YAML 1.1 resolution, the
// conversion of keys to strings or encoding/json's output are easy to get
// wrong.
var fastYAMLQuirks = []string{
	"a: yes\nb: no\nc: on\nd: off\ne: y\nf: n\ng: Yes\nh: NO\ni: On\nj: OFF\nk: True\nl: FALSE\nm: tRUE\nn: YeS\n",
	"a: null\nb: ~\nc:\nd: Null\ne: NULL\nf: nULL\n",
	"a: 0x1F\nb: 0777\nc: 0b101\nd: -0b101\ne: 0o17\nf: 1_000\ng: 0x_1F\nh: +12\ni: -0\nj: 00\nk: 08\nl: 0B11\nm: 0X1f\n",
	"a: 1e3\nb: 1.0\nc: -0.0\nd: .5\ne: 1.5e-7\nf: 1e21\ng: 1e20\nh: 123456789012345678901234567890\ni: 1E+2\nj: 1.\nk: .5e3\nl: 1e999\nm: 3.14_15\nn: 0.1\n",
	"a: 9223372036854775807\nb: 9223372036854775808\nc: 18446744073709551615\nd: 18446744073709551616\ne: -9223372036854775808\nf: -9223372036854775809\ng: 0b1111111111111111111111111111111111111111111111111111111111111111\n",
	"a: .inf\nb: -.Inf\nc: .NaN\nd: +.INF\n",
	"a: inf\nb: nan\nc: infinity\nd: +inf\ne: 0x1p-2\nf: 1_0.5\n",
	"1: a\n2.5: b\ntrue: c\n0x10: d\n1e3: e\nno: f\n123456789.0: g\n",
	"1: a\n\"1\": b\n",
	"a: 1\na: 2\n",
	"a: 1\nb: {a: 1, a: 2}\n",
	"base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3\n",
	"a: &x 1\nb: *x\n",
	"a: !!binary aGVsbG8=\nb: !!str 12\nc: !!int \"12\"\nd: ! 12\ne: !foo bar\n",
	"a: |\n  line 1\n  line 2\nb: >\n  folded\n  text\n\n  para\nc: |-\n  x\nd: >+\n  y\n\ne: \"multi\n  line\"\nf: plain\n  multi\n  line\n",
	"a: \"<b>&amp;</b>\"\nb: '\\u00e9'\nc: \"\\u00e9 \\U0001F600 \\x41 \\t \\u2028 \\0 \\e\"\nd: \"\\xff\"\n",
	"a: 2001-12-14t21:59:43.10-05:00\nb: 2002-12-14\nc: 2001-12-14 21:59:43.10\nd: 1234-5\n",
	"- a\n- [1, 2, {b: c}]\n- {}\n- []\n- ''\n- \"\"\n",
	"\"\": empty\n? [a, b]\n: c\n",
	"~: a\n",
	"? {a: 1}\n: b\n",
	"a: '<<'\n'<<': b\n",
	"just a string\n",
	"12\n",
	"# only a comment\n",
	"a: 1\n--- \nb: 2\n",
	"%YAML 1.1\n---\na: 1\n",
	"a: \"\\\"quoted\\\" and \\\\ back\\\\slash\"\nb: 'it''s'\n",
	"a:\n  - b: 1\n    c: 2\n  - d\nx: [1, 2, 3]\n",
	"a: b # comment\nc: d#not\n",
	"a: \"-\"\nb: -1\nc: +\nd: .\ne: -.5\nf: +.5\ng: 1.2.3\n",
	"a:\tb\n",
	"\ta: b\n",
	"a: héllo wörld ✓\nkey with spaces: v\n",
	"a: Hello!\nb: x !y\n",
	"a: \"<b>&amp;</b>\"\nb: x<y>&z\nc: 'a\\b'\nd: \"q\\\"\\\\\\n\\t\"\n",
	"a: \"\\/\"\n",
	"containers: [{name: web, image: web:1, args: [a:b, 'c', \"d\"]}]\nx: {a: {b: [1, 2.5, yes, ~, 0x10]}, 'k': v}\n",
	"items:\n- a\n-\n- b: 1\n  c: [x]\n-   d: 2\n    e: 3\nnext:\n  - 1\n  -\n    f: g\n",
	"a: b#c # d\ne: 'f' # g\nh: [i] # j\n# k\n  # l\nm: n\n",
	"data:\n  script: |\n    #!/bin/sh\n    echo <hi> & \"x\"\n\n      indented\n    # not a comment\n\n  \n  strip: |-\n    a\n    b\n\n  next: |\n   x\n# c\nz: 1\n",
	"- |\n  a\n- |-\n  b\n- a: |\n    c\n  d: |\n   e\n",
	"- a: |\n  x\n",
	"a: |\n\n  x\n",
	"a: |\n  x\n   \n",
	"a: |\n  x",
	"a: |2\n  x\n",
	"a: >\n  x\n  y\n",
	"a: |+\n  x\n\n",
	"a: héllo wörld ✓ 日本\nkëy: [ü, {ö: 'ä'}]\n\"é\": \"ü\"\n",
	"a: \u00a0x\u2028y\nb: \ufeff\n",
}

// fastYAMLFolded are plain scalars over several lines, as CRD schemas'
// descriptions are written: the first ones the fast path takes.
var fastYAMLFolded = []string{
	"description: Human readable message indicating details about why the workflow\n  is in this condition.\ntype: string\n",
	"a:\n  - description: one two\n      three   four  \n      five\n    name: x\n  - seq item\n    goes on\n",
	"a: first\n\n  after one empty line\n\n\n  after two\nb: 1\n",
	"- a\n b\n- c\n",
	"a: 1\n  2\nb: true\n  x\nc: 0x1F\n  ~\nd: null\n   null\n",
	"a: x{y}\n  [z], w:v\n  q'r\"s\n  - t\n  |u\n  &v *w !x\n  ? y\n",
	"a: x\n  - y\nb: x\n  # c\n  y\nc: x # c\n  y\nd: x\n  y: z\ne: x\n  y #z\nf: x\n  |y\n",
	"a:\n  b: x\n    y\n  c: z\n",
	"a: x\n\t y\n",
	"a:\n  Metadata is a subset\n    of it\n  and more\nb:\n  'q\n   r'\nc:\n  [1, 2]\nd:\n  - x\ne:\n  \"x\"\n",
	"a: 'it''s a\n  long ''one''\n\n  # not a comment\n    end'\nb: \"x\\n\\ \\   y\n  z\\\n  w \\\n\n  v\"\n",
	"- 'a\n  b'\n- \"c\n\n\n  d\" # comment\n- e\n",
	"a:\n  |\n    lit\nb:\n  >\n    fold\nc:\n  'x\n#y'\nd: 'x\n  y' z\ne: \"a\\q\n  b\"\nf: 'x\ny'\n",
	"a: 'x\n  #y'\nb: 1\n",
	"a:\n  b: |2-\n      x\n     y\n\n     z\n  c: |-2\n    q\n  d: |1\n   r\n  e: |2\n\n    s\n",
	"a:\n  f: |3\n   t\n",
	"a:\n  - rule: 'self.all(p1,\n  p2 == ''''\n  ) : true'\n    message: x\n",
}

// fastYAMLSeeds returns the YAML documents of the test scripts and examples,
// the benchmark corpus kinds and fastYAMLQuirks.
func fastYAMLSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	add := func(data []byte) {
		seeds = append(seeds, data)
		// The loader converts one document at a time.
		for _, d := range bytes.Split(data, []byte("\n---")) {
			if i := bytes.IndexByte(d, '\n'); i >= 0 && len(d) < len(data) {
				d = d[i+1:]
			}
			seeds = append(seeds, d)
		}
	}
	scripts := casefiles.Scripts(t)
	for _, name := range scripts {
		a, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, ".yaml") || strings.HasSuffix(f.Name, ".yml") {
				add(f.Data)
			}
		}
	}
	var files []string
	filepath.WalkDir("../../examples", func(path string, d os.DirEntry, err error) error {
		if err == nil && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			files = append(files, path)
		}
		return nil
	})
	files = append(files, "testdata/fastyaml/corpus.yaml")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		add(data)
	}
	if len(scripts) == 0 || len(files) < 2 {
		t.Fatalf("found %d scripts and %d YAML files", len(scripts), len(files))
	}
	for _, q := range fastYAMLQuirks {
		seeds = append(seeds, []byte(q))
	}
	for _, q := range fastYAMLFolded {
		seeds = append(seeds, []byte(q))
	}
	return seeds
}

// checkFastYAML checks that the fast conversion of data declines or gives
// exactly the reference's bytes. It reports whether it did not decline.
func checkFastYAML(t *testing.T, data []byte) bool {
	t.Helper()
	js, _, ok := fastYAMLToJSONSafe(data)
	if !ok {
		return false
	}
	ref, dups, err := yamlToJSONRef(data)
	switch {
	case err != nil:
		t.Errorf("%q: fast path gave %s, reference failed: %v", data, js, err)
	case dups && len(nodeDups(data)) > 0:
		t.Errorf("%q: fast path gave %s, reference found duplicate keys: %+v", data, js, nodeDups(data))
	case !bytes.Equal(js, ref):
		t.Errorf("%q:\nfast path: %s\nreference: %s", data, js, ref)
	}
	return true
}

// nodeDups is what the loader finds of duplicate keys, and keys that are one
// once converted, in a document it converted with the reference.
func nodeDups(data []byte) []dupKey {
	var n yaml3.Node
	if yaml3.Unmarshal(data, &n) != nil {
		return nil
	}
	markNonSpecificKeys(&n, data)
	return findDups(&n, false)
}

func TestFastYAMLToJSON(t *testing.T) {
	seeds := fastYAMLSeeds(t)
	taken := 0
	for _, s := range seeds {
		if checkFastYAML(t, s) {
			taken++
		}
	}
	// Most documents take the fast path.
	if taken*10 < len(seeds)*7 {
		t.Errorf("fast path taken for %d of %d seeds", taken, len(seeds))
	}
	// The documents of the benchmark corpus all take the fast path.
	data, err := os.ReadFile("testdata/fastyaml/corpus.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range bytes.Split(data, []byte("---\n")) {
		if _, _, ok := fastYAMLToJSONSafe(d); !ok {
			t.Errorf("fast path declined %q", d)
		}
	}
	// These must not fall back.
	for _, q := range append(fastYAMLFolded[:6:6], fastYAMLFolded[9], fastYAMLFolded[10], fastYAMLFolded[11], fastYAMLFolded[14], fastYAMLFolded[16]) {
		if _, _, ok := fastYAMLToJSONSafe([]byte(q)); !ok {
			t.Errorf("fast path declined %q", q)
		}
	}
	for _, q := range []string{fastYAMLQuirks[0], fastYAMLQuirks[2], fastYAMLQuirks[3], fastYAMLQuirks[7], fastYAMLQuirks[len(fastYAMLQuirks)-16], fastYAMLQuirks[len(fastYAMLQuirks)-14], fastYAMLQuirks[len(fastYAMLQuirks)-13], fastYAMLQuirks[len(fastYAMLQuirks)-12], fastYAMLQuirks[len(fastYAMLQuirks)-11], fastYAMLQuirks[len(fastYAMLQuirks)-10], fastYAMLQuirks[len(fastYAMLQuirks)-2]} {
		if _, _, ok := fastYAMLToJSONSafe([]byte(q)); !ok {
			t.Errorf("fast path declined %q", q)
		}
	}
}

func FuzzYAMLToJSON(f *testing.F) {
	for _, s := range fastYAMLSeeds(f) {
		f.Add(s)
	}
	// Keys that are one once converted, or one Go value to yaml v2.
	for _, s := range []string{
		"a:\n  1: x\n  1.0: y\n", "a:\n  1: x\n  \"1\": y\n", "a:\n  1: x\n  0x1: y\n",
		"{yes: a, true: b}", "{on: a, 'true': b}", "{.nan: a, .NaN: b}", "{!x 0: a, 0: b}", "{!!int \"0\": a, 0: b}", "{!!float 0: a, 0: b}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastYAML(t, data)
		checkMayCollide(t, data)
	})
}

// checkMayCollide holds mayCollide to what it promises (true for every
// text in which the nodes have keys that are one once converted), and the
// nodes' finding to yaml v2's own decoding: a mapping decoded to a Go map
// with two keys sigs.k8s.io/yaml writes as one name (v2Collides).
func checkMayCollide(t *testing.T, data []byte) {
	t.Helper()
	var found []string
	for _, dk := range nodeDups(data) {
		if dk.written != nil {
			found = append(found, dk.key)
		}
	}
	if len(found) > 0 && !mayCollide(data) {
		t.Errorf("%q: mayCollide is false, but keys are one once converted: %q", data, found)
	}
	// Keys merged with "<<" and aliases used as keys are not searched
	// (findDups); documents yaml v3 reads otherwise than yaml v2 neither.
	if bytes.Contains(data, []byte("<<")) || bytes.ContainsAny(data, "*&") {
		return
	}
	var n yaml3.Node
	if yaml3.Unmarshal(data, &n) != nil {
		return
	}
	if want, ok := v2Collides(data); ok && want != (len(found) > 0) {
		t.Errorf("%q: yaml v2 decodes keys that are one once converted: %v; the nodes found %q", data, want, found)
	}
}

// v2Collides decodes data with yaml v2, as sigs.k8s.io/yaml does, and
// reports whether a mapping has two Go keys it writes as one JSON name
// (false, false when it does not decode, or has a key it cannot convert).
func v2Collides(data []byte) (collides, ok bool) {
	var v any
	if err := yaml2.Unmarshal(data, &v); err != nil {
		return false, false
	}
	var walk func(v any) (bool, bool)
	walk = func(v any) (bool, bool) {
		switch v := v.(type) {
		case map[any]any:
			names := map[string]int{}
			collides := false
			for k, e := range v {
				var name string
				switch k := k.(type) {
				case string:
					name = k
				case int:
					name = strconv.Itoa(k)
				case int64:
					name = strconv.FormatInt(k, 10)
				case float64:
					name = v2Name(v2Value{kind: v2Float, f: k})
				case bool:
					name = strconv.FormatBool(k)
				default:
					return false, false
				}
				names[name]++
				collides = collides || names[name] > 1
				c, ok := walk(e)
				if !ok {
					return false, false
				}
				collides = collides || c
			}
			return collides, true
		case []any:
			collides := false
			for _, e := range v {
				c, ok := walk(e)
				if !ok {
					return false, false
				}
				collides = collides || c
			}
			return collides, true
		}
		return false, true
	}
	return walk(v)
}

func TestMayCollide(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"a: 1\nname: x\nimage: nginx:1.2\nurl: http://x\n", false},
		{"labels: {no_such: x, 'yes': y}\n", false},
		{"data:\n  1: a\n", true},
		{"data: {a: b, 0x10: c}\n", true},
		{"- on: x\n", true},
		{"? complex\n: value\n", true},
		{"k:\n  1.5 : v\n", true},
		{"note: at 5: go\n", false}, // not where a key can be
		{"# step 1: build\ndescription: |\n  Step 2: run\n", false},
		{"- - 1: a\n", true},
		{"!t 1: a\n", true},
		{"&a 1: a\n", true},
		{"k: [2: a]\n", true},
		{"a-1: x\n", false},
		{"x: \"y\"\n", false},
		{"{a, 0}\n", true},        // a key without a value
		{"{'0', 0}\n", true},      // "0" and 0: one once converted
		{"a: {b: c, d}\n", false}, // d is a key, a string
	} {
		if got := mayCollide([]byte(tc.in)); got != tc.want {
			t.Errorf("mayCollide(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
	for _, s := range fastYAMLSeeds(t) {
		checkMayCollide(t, s)
	}
}

// BenchmarkYAMLToJSON compares the fast conversion with the reference on the
// documents of testdata/fastyaml/corpus.yaml.
func BenchmarkYAMLToJSON(b *testing.B) {
	data, err := os.ReadFile("testdata/fastyaml/corpus.yaml")
	if err != nil {
		b.Fatal(err)
	}
	docs := bytes.Split(data, []byte("---\n"))
	for _, bc := range []struct {
		name string
		conv func([]byte) ([]byte, bool, error)
	}{{"fast", func(d []byte) ([]byte, bool, error) {
		js, dups, _, err := yamlToJSON(d)
		return js, dups, err
	}}, {"ref", yamlToJSONRef}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, d := range docs {
					if _, _, err := bc.conv(d); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
