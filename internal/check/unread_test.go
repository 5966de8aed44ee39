package check

import (
	"bytes"
	"testing"
)

// unreadByContains is unread's definition, one search per mark.
func unreadByContains(text []byte) bool {
	if !bytes.HasPrefix(text, []byte("kind:")) && !bytes.Contains(text, []byte("\nkind:")) {
		return false
	}
	for _, w := range append([][]byte{[]byte("\\"), []byte("!!"), []byte("!<"), []byte("%TAG")}, firstLookWords...) {
		if bytes.Contains(text, w) {
			return false
		}
	}
	return true
}

// FuzzUnread: unread's one pass over the text finds what a search for each
// mark finds.
func FuzzUnread(f *testing.F) {
	for _, s := range []string{
		"kind: Pod\nmetadata: {name: p}\n",
		"apiVersion: v1\nkind: Pod\nspec: {serviceAccountName: x, note: ServiceAccount}\n",
		"kind: ConfigMap\ndata: {a: \"x\\ty\"}\n",
		"kind: ConfigMap\ndata: {a: !!str 1}\n",
		"kind: ConfigMap\ndata: {a: !<tag:yaml.org,2002:str> 1}\n",
		"%TAG ! tag:x/\n---\nkind: Pod\n",
		"kind: Secret\ndata: {k: Lis}\n",
		"kind: PodList\n",
		"apiVersion: v1\nkind:Pod\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		if got, want := unread(text), unreadByContains(text); got != want {
			t.Fatalf("unread(%q) = %v, want %v", text, got, want)
		}
	})
}
