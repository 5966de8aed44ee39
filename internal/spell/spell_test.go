package spell

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "abc", 0},
		{"resource", "resources", 1},
		{"contianers", "containers", 1}, // a swap is one edit
		{"valeu", "value", 1},
		{"kitten", "sitting", 3},
		{"", "abc", 3},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestNearest(t *testing.T) {
	among := []string{"monitoring", "prod", "resources", "staging"}
	for _, tc := range []struct{ word, want string }{
		{"monitorng", "monitoring"},
		{"Resources", "resources"},
		{"prd", "prod"},
		{"pr", ""}, // two edits: too many for a short word
		{"stagingg", "staging"},
		{"qa", ""},
	} {
		if got := Nearest(tc.word, among); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}
