package render

import (
	"strconv"
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
