package render_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/render"
)

// TestOutputIndependentOfCores: the loader converts a stream's documents on
// every core (internal/load order.go); every format's bytes are the same
// with one core as with many, on a corpus of many files mixing objects,
// Lists, empty documents, syntax errors, bad separators, duplicate keys,
// non-objects and workloads.
func TestOutputIndependentOfCores(t *testing.T) {
	dir := t.TempDir()
	for f := range 12 {
		var b strings.Builder
		ns := fmt.Sprintf("team-%d", f%4)
		if f%4 == 0 {
			fmt.Fprintf(&b, "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q%d, namespace: %s}\nspec: {hard: {pods: '%d', requests.cpu: '%d'}}\n---\n", f, ns, 40+f, 3+f)
			fmt.Fprintf(&b, "apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr%d, namespace: %s}\nspec: {limits: [{type: Container, defaultRequest: {cpu: 100m}, max: {cpu: '1'}}]}\n---\n", f, ns)
		}
		for d := range 60 {
			switch d % 10 {
			case 0:
				b.WriteString("~\n---\n# only a comment\n---\n")
			case 1:
				fmt.Fprintf(&b, "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c%d-%d, namespace: %s}\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: lp%d-%d, namespace: %s}\n  spec: {containers: [{name: c, image: i, resources: {requests: {cpu: '2'}}}]}\n---\n", f, d, ns, f, d, ns)
			case 2:
				b.WriteString("apiVersion: v1\nkind: Pod\nmetadata: {name: bad\n---\n")
			case 3:
				fmt.Fprintf(&b, "apiVersion: v1\nkind: Service\nmetadata: {name: s%d-%d, namespace: %s}\nspec: {ports: [{port: 80}], ports: [{port: 81}]}\n--- junk\n", f, d, ns)
			case 4:
				fmt.Fprintf(&b, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d%d-%d, namespace: %s}\nspec:\n  replicas: %d\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: i}]}\n---\n", f, d, ns, d)
			default:
				fmt.Fprintf(&b, "apiVersion: v1\nkind: Pod\nmetadata: {name: p%d-%d, namespace: %s}\nspec: {containers: [{name: c, image: i, resources: {requests: {cpu: %dm}}}]}\n---\n", f, d, ns, 50*d)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.yaml", f)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(procs int) map[string][]byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		rep, err := check.Run(check.Options{Paths: []string{dir}, Engine: eval.Options{DefaultNamespace: "default"}})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]byte{}
		for _, name := range render.Formats() {
			f, _ := render.Lookup(name)
			var buf bytes.Buffer
			if err := f.Render(&buf, rep, render.Options{Version: "test"}); err != nil {
				t.Fatal(err)
			}
			out[name] = buf.Bytes()
		}
		return out
	}
	one := run(1)
	if !bytes.Contains(one["text"], []byte("did not find expected")) || !bytes.Contains(one["text"], []byte("invalid Yaml document separator")) {
		t.Fatalf("the corpus lacks the errors it is meant to have:\n%s", one["text"])
	}
	for _, procs := range []int{2, 8} {
		many := run(procs)
		for name, want := range one {
			if !bytes.Equal(many[name], want) {
				t.Errorf("-o %s with GOMAXPROCS=%d differs from GOMAXPROCS=1", name, procs)
			}
		}
	}
}
