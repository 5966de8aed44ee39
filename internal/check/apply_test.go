package check_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
)

// ST-05: a run warns of the object kubectl apply would refuse, counting the
// namespace kubectl sets (the run's default) where the object names none.
func TestLastAppliedWarned(t *testing.T) {
	for _, tc := range []struct {
		namespace, in string
		warned        bool
	}{
		{"s36z", "", true},
		{"s36", "", false},
		// One it names is in its JSON already.
		{"s36", "  namespace: s36z\n", true},
	} {
		in := fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big261940\n%s  annotations: {note: \"<&>\"}\ndata:\n  x: %q\n", tc.in, strings.Repeat("a", 261940))
		rep, err := check.Run(check.Options{Paths: []string{"-"}, Stdin: bytes.NewReader([]byte(in)), Engine: eval.Options{DefaultNamespace: tc.namespace}})
		if err != nil {
			t.Fatal(err)
		}
		warned := false
		for _, w := range rep.Entries[0].Result.Warnings {
			warned = warned || strings.HasPrefix(w, "kubectl apply refuses it unless --server-side: it would keep the whole object, 262090 bytes")
		}
		if warned != tc.warned || !rep.Entries[0].Result.Allowed {
			t.Errorf("namespace %s %q: warned %v, want %v; result %+v", tc.namespace, tc.in, warned, tc.warned, rep.Entries[0].Result)
		}
	}
}
