package render

import (
	"strconv"
	"strings"
)

// Count is n followed by the noun that agrees with it: "1 object", "0 objects",
// "2 objects".
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + plural(n, one, many)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// kindPlural is the English plural of a kind: ConfigMaps, Ingresses,
// NetworkPolicies (the rules of apimachinery's UnsafeGuessKindToResource,
// keeping the kind's case).
func kindPlural(kind string) string {
	lower := strings.ToLower(kind)
	switch {
	case kind == "":
		return kind
	case strings.HasSuffix(lower, "s"), strings.HasSuffix(lower, "x"), strings.HasSuffix(lower, "z"),
		strings.HasSuffix(lower, "ch"), strings.HasSuffix(lower, "sh"):
		return kind + "es"
	case strings.HasSuffix(lower, "y") && len(lower) > 1 && !strings.ContainsRune("aeiou", rune(lower[len(lower)-2])):
		return kind[:len(kind)-1] + "ies"
	}
	return kind + "s"
}
