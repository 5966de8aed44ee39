package eval

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestStoredNames adds names of several resources, repeats included, and
// asks for names added and not, comparing with a Go map.
func TestStoredNames(t *testing.T) {
	type key struct {
		resource uint32
		name     string
	}
	rng := rand.New(rand.NewPCG(3, 5))
	var s storedNames
	want := map[key]bool{}
	name := func() key {
		return key{uint32(rng.IntN(3)), fmt.Sprintf("web-%d", rng.IntN(5000))}
	}
	if s.has(0, "web-1") {
		t.Fatal("an empty set holds web-1")
	}
	for i := 0; i < 20000; i++ {
		k := name()
		if got := s.has(k.resource, k.name); got != want[k] {
			t.Fatalf("has(%d, %q) = %v before add %d, want %v", k.resource, k.name, got, i, want[k])
		}
		s.add(k.resource, k.name)
		want[k] = true
	}
	if len(s.entries) != len(want) {
		t.Errorf("%d entries for %d names: a name was added twice", len(s.entries), len(want))
	}
	c := s.clone()
	c.add(9, "only-in-the-clone")
	if s.has(9, "only-in-the-clone") || !c.has(9, "only-in-the-clone") || !c.has(0, "web-1") == want[key{0, "web-1"}] {
		t.Error("the clone shares what add changes, or lost names")
	}
}

// TestStoredNamesChains puts names under one hash, as a collision would, and
// finds each along the chain by comparing names and resources.
func TestStoredNamesChains(t *testing.T) {
	var s storedNames
	s.add(1, "a")
	h, _ := s.find(1, "a")
	s.insert(h, 1, "b") // b shares a's hash
	s.insert(h, 2, "a") // and so does a of another resource
	for _, c := range []struct {
		resource uint32
		name     string
		want     bool
	}{{1, "a", true}, {1, "b", true}, {2, "a", true}, {3, "a", false}, {1, "c", false}, {2, "b", false}} {
		if got := s.chained(h, c.resource, c.name); got != c.want {
			t.Errorf("%d/%s in the chain of a's hash: %v, want %v", c.resource, c.name, got, c.want)
		}
	}
	if !s.has(1, "a") {
		t.Error("has(1, a) = false behind two entries of its hash")
	}
}

// TestGeneratedName: the name generator cuts a prefix to 58 bytes before the
// 5 random characters (PL-04).
func TestGeneratedName(t *testing.T) {
	long := strings.Repeat("x", 60) + "-"
	tests := []struct{ prefix, want string }{
		{"web-", "web-xxxxx"},
		{strings.Repeat("a", 58), strings.Repeat("a", 58) + "xxxxx"},
		{strings.Repeat("a", 59), strings.Repeat("a", 58) + "xxxxx"},
		{long, strings.Repeat("x", 58) + "xxxxx"},
	}
	for _, tt := range tests {
		if got := GeneratedName(tt.prefix); got != tt.want {
			t.Errorf("GeneratedName(%q) = %q, want %q", tt.prefix, got, tt.want)
		}
	}
	// A Service whose 61-character prefix would make a 66-character name is
	// admitted: the generated name is 63 characters.
	e := New(Options{DefaultNamespace: "ns1"})
	r := e.Admit(decode(t, "apiVersion: v1\nkind: Service\nmetadata: {generateName: "+long+"}\nspec: {ports: [{port: 80}]}"))
	if !r.Allowed || r.Name != strings.Repeat("x", 58)+"xxxxx" {
		t.Errorf("got allowed=%v name %q, denial %+v", r.Allowed, r.Name, r.Denial)
	}
}
