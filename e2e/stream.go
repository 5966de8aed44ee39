package e2e

import (
	"fmt"
	"sort"
	"strings"
)

// StreamArgs takes the arguments of a `limitcheck check` command whose
// input a cluster cannot be given document by document (a file that does
// not split into objects: a syntax error, docs/behaviour.md IN-14), to be
// given to kubectl create -f as it is. Only paths, -f, -R and output flags
// are taken.
func StreamArgs(args []string) (paths []string, recursive bool, why string) {
	if len(args) == 0 || args[0] != "check" {
		return nil, false, "not limitcheck check"
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		flagName, _, hasValue := strings.Cut(a, "=")
		switch {
		case a == "-" || strings.Contains(a, "$"):
			return nil, false, "reads stdin or an environment variable"
		case !strings.HasPrefix(a, "-"):
			paths = append(paths, a)
		case flagName == "-f" || flagName == "--filename":
			if hasValue || i+1 >= len(args) || args[i+1] == "-" {
				return nil, false, "-f without a path of its own"
			}
			i++
			paths = append(paths, args[i])
		case a == "-R" || a == "--recursive":
			recursive = true
		case flagName == "-o" || flagName == "--output" || flagName == "--color" || flagName == "--fail-on":
			if !hasValue {
				i++
			}
		case a == "--lint=false" || a == "--quiet" || a == "-q":
		default:
			return nil, false, "flag " + flagName + " (not reproduced on a cluster)"
		}
	}
	if len(paths) == 0 {
		return nil, false, "no file"
	}
	return paths, recursive, ""
}

// CompareStream compares kubectl create -f's output (stdout and stderr) on
// an input with limitcheck's report on the same: each of kubectl's errors
// in reading a file ("error parsing FILE: …") or in its check of a
// document's apiVersion and kind ("error validating "FILE": …", IN-15) must
// be the start of one of
// limitcheck's errors after its "FILE:LINE: " (limitcheck's hints follow),
// and the reverse, but for a file limitcheck skipped in a directory walk as
// no Kubernetes object (IN-03); the objects kubectl created must be those
// limitcheck admitted, unless kubectl said other errors (its own validation
// of a file that is no object, worded otherwise: IN-06): notCompared then
// says so.
func CompareStream(kubectlOut string, rep *Report) (diffs []string, notCompared string) {
	var real []string
	created := map[string]bool{}
	others := false
	var lines []string
	for _, l := range strings.Split(kubectlOut, "\n") {
		lines = append(lines, splitAggregate(l)...)
	}
	for _, l := range lines {
		l = strings.TrimPrefix(l, "error: ")
		switch {
		case strings.HasPrefix(l, "error parsing "):
			file, _, _ := strings.Cut(strings.TrimPrefix(l, "error parsing "), ": ")
			if skippedAsNoObject(rep, file) {
				continue
			}
			real = append(real, l)
		case strings.HasPrefix(l, "unable to decode \""):
			// IN-08, IN-15: a document kubectl's own decoding refuses.
			real = append(real, l)
		case strings.HasPrefix(l, "error validating \"") && !strings.Contains(l, "ValidationError("):
			// IN-15: apiVersion and kind, as kubectl's schema check reads them.
			file, _, _ := strings.Cut(strings.TrimPrefix(l, "error validating \""), "\"")
			if skippedAsNoObject(rep, file) {
				continue
			}
			real = append(real, l)
		case strings.HasSuffix(l, " created"):
			created[strings.TrimSuffix(l, " created")] = true
		case strings.TrimSpace(l) != "":
			others = true
		}
	}
	var mine []string
	admitted := map[string]bool{}
	for _, r := range rep.Results {
		if r.Live {
			continue
		}
		if _, msg, ok := strings.Cut(r.Error, ": error parsing "); ok {
			mine = append(mine, "error parsing "+msg)
		}
		if _, msg, ok := strings.Cut(r.Error, ": error validating \""); ok {
			mine = append(mine, "error validating \""+msg)
		}
		if _, msg, ok := strings.Cut(r.Error, ": unable to decode \""); ok {
			mine = append(mine, "unable to decode \""+msg)
		}
		if r.Error == "" && !r.Skipped && (r.Allowed != nil && *r.Allowed || len(r.Created) > 0) {
			admitted[strings.ToLower(r.Kind)+"/"+r.Name] = true
		}
	}
	used := make([]bool, len(mine))
	for _, e := range real {
		found := false
		for i, m := range mine {
			if !used[i] && (m == e || strings.HasPrefix(m, e+" (") || strings.HasPrefix(m, e+"; ")) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			diffs = append(diffs, fmt.Sprintf("kubectl: %q; limitcheck has no such error", e))
		}
	}
	for i, m := range mine {
		if !used[i] {
			diffs = append(diffs, fmt.Sprintf("limitcheck: %q; kubectl has no such error", m))
		}
	}
	if others {
		return diffs, "objects created, beside kubectl's errors other than in reading a file"
	}
	if a, b := sortedKeys(created), sortedKeys(admitted); a != b {
		diffs = append(diffs, fmt.Sprintf("kubectl created [%s]; limitcheck admitted [%s]", a, b))
	}
	return diffs, ""
}

// skippedAsNoObject reports whether limitcheck skipped file as no
// Kubernetes object, found in a directory walk (IN-03).
// splitAggregate splits a line of several of kubectl's errors, which it
// prints as "[e1, e2]", into one per error, at each error that starts as a
// reading, validation or decoding error does.
func splitAggregate(l string) []string {
	if !strings.HasPrefix(l, "[") || !strings.HasSuffix(l, "]") {
		return []string{l}
	}
	var out []string
	rest := l[1 : len(l)-1]
	for {
		next := -1
		for _, start := range []string{", error parsing ", ", error validating \"", ", unable to decode \""} {
			if i := strings.Index(rest, start); i >= 0 && (next < 0 || i < next) {
				next = i
			}
		}
		if next < 0 {
			return append(out, rest)
		}
		out = append(out, rest[:next])
		rest = rest[next+2:]
	}
}

func skippedAsNoObject(rep *Report, file string) bool {
	for _, r := range rep.Results {
		if r.File == file && r.Skipped && (strings.HasPrefix(r.SkipReason, "not a Kubernetes object") || strings.HasSuffix(r.SkipReason, ", not an API object")) {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]bool) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}
