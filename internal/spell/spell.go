// Package spell finds the word a near miss was meant to be: the field name
// of a misspelt key, the namespace of a misspelt namespace.
package spell

import "strings"

// Nearest is the word of among (in the order given, sorted for a stable
// answer) closest to word: the same but for case, or one or two edits away
// (one for words of up to four letters); the first wins a tie, and "" is
// returned when none is that close.
func Nearest(word string, among []string) string {
	best, bestD := "", 3
	if len(word) <= 4 {
		bestD = 2
	}
	for _, w := range among {
		d := Distance(strings.ToLower(word), strings.ToLower(w))
		if strings.EqualFold(word, w) {
			d = 0
		}
		if d < bestD {
			best, bestD = w, d
		}
	}
	return best
}

// Distance is the Levenshtein distance of a and b, with a swap of two
// adjacent letters counted as one edit; 64 for words longer than that.
func Distance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
