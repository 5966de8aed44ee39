package e2e

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
)

// StreamArgs takes the arguments of a `limitcheck check` command whose
// input a cluster cannot be given document by document (a file that does
// not split into objects: a syntax error, docs/behaviour.md IN-14), to be
// given to kubectl create -f as it is. Only paths, -f, -R, output flags and
// --order=input (kubectl's own order, which limitcheck is then given too:
// inputOrder) are taken.
func StreamArgs(args []string) (paths []string, recursive, inputOrder bool, why string) {
	if len(args) == 0 || args[0] != "check" {
		return nil, false, false, "not limitcheck check"
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		flagName, _, hasValue := strings.Cut(a, "=")
		switch {
		case a == "-" || strings.Contains(a, "$"):
			return nil, false, false, "reads stdin or an environment variable"
		case !strings.HasPrefix(a, "-"):
			paths = append(paths, a)
		case flagName == "-f" || flagName == "--filename":
			if hasValue || i+1 >= len(args) || args[i+1] == "-" {
				return nil, false, false, "-f without a path of its own"
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
		case a == "--order=input" || a == "--order" && i+1 < len(args) && args[i+1] == "input":
			inputOrder = true
			if a == "--order" {
				i++
			}
		default:
			return nil, false, false, "flag " + flagName + " (not reproduced on a cluster)"
		}
	}
	if len(paths) == 0 {
		return nil, false, false, "no file"
	}
	return paths, recursive, inputOrder, ""
}

// ensureCRDs is the line kubectl prints after "resource mapping not found
// …" (cli-runtime's mapper.infoForData); limitcheck gives it in parentheses
// after the first line, its hints after it.
const ensureCRDs = "\nensure CRDs are installed first"

// mappingLine takes the parts of kubectl's "resource mapping not found for
// name: "N" namespace: "NS" from "F": no matches for kind "K" in version
// "GV"".
var mappingLine = regexp.MustCompile(`^resource mapping not found for name: "((?:[^"\\]|\\.)*)" namespace: "(?:[^"\\]|\\.)*" from "((?:[^"\\]|\\.)*)": no matches for kind "([^"]*)" in version "([^"]*)" \(ensure CRDs are installed first$`)

// CompareStream compares kubectl create -f's output (stdout and stderr) on
// an input with limitcheck's report on the same: each of kubectl's errors
// in reading a file ("error parsing FILE: …"), in its check of a
// document's apiVersion and kind ("error validating "FILE": …", IN-15), in
// decoding it ("unable to decode "FILE": …", IN-08) or in mapping its kind
// ("resource mapping not found for name: … ensure CRDs are installed first",
// "unable to recognize …" for a list's item, API-01) must be the start of
// one of limitcheck's errors after its "FILE:LINE: " (limitcheck's hints
// follow), and the reverse, but for a file limitcheck skipped in a directory
// walk as no Kubernetes object (IN-03) and a custom resource limitcheck
// takes on trust, whose CRD the plane does not have or does not serve yet
// when kubectl maps the kind (API-01, API-02: kubectl runs with an empty
// discovery cache, so a CRD created in the same run never serves its kind
// to it); the objects kubectl created must be those limitcheck admitted,
// unless kubectl said other errors (its own validation of a file that is no
// object, worded otherwise: IN-06): notCompared then says so.
func CompareStream(kubectlOut string, rep *Report) (diffs []string, notCompared string) {
	var real []string
	created := map[string]bool{}
	others := false
	trusted := map[string]bool{} // custom kinds kubectl did not map, "kind/version"
	var lines []string
	kubectlOut = strings.ReplaceAll(kubectlOut, ensureCRDs, " (ensure CRDs are installed first")
	for _, l := range strings.Split(kubectlOut, "\n") {
		lines = append(lines, splitAggregate(l)...)
	}
	for _, l := range lines {
		l = strings.TrimPrefix(l, "error: ")
		switch {
		case strings.HasPrefix(l, "resource mapping not found for name: "):
			m := mappingLine.FindStringSubmatch(l)
			switch {
			case m != nil && skippedDocAsNoObject(rep, m[2], m[1]):
				// A tool's configuration (a Kustomization), which
				// limitcheck skips (API-01).
				continue
			case m != nil && customKind(m[4], m[3]) && !hasError(rep, l):
				trusted[m[3]+"/"+m[4]] = true
				continue
			}
			real = append(real, l)
		case strings.HasPrefix(l, "unable to recognize "):
			real = append(real, l)
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
			// kubectl names the resource with its group
			// (deployment.apps/web); limitcheck's report, the kind.
			ref := strings.TrimSuffix(l, " created")
			if res, name, ok := strings.Cut(ref, "/"); ok {
				res, _, _ = strings.Cut(res, ".")
				ref = res + "/" + name
			}
			created[ref] = true
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
		if _, msg, ok := strings.Cut(r.Error, ": resource mapping not found for name: "); ok {
			mine = append(mine, "resource mapping not found for name: "+msg)
		}
		if _, msg, ok := strings.Cut(r.Error, ": unable to recognize "); ok {
			mine = append(mine, "unable to recognize "+msg)
		}
		if r.Error != "" || trusted[r.Kind+"/"+r.APIVersion] {
			continue
		}
		if !r.Skipped && (r.Allowed != nil && *r.Allowed || len(r.Created) > 0) || r.Skipped && createdSkip(r.SkipReason) {
			admitted[strings.ToLower(r.Kind)+"/"+r.Name] = true
		}
	}
	used := make([]bool, len(mine))
	for _, e := range real {
		found := false
		for i, m := range mine {
			if !used[i] && (m == e || strings.HasPrefix(m, e+" (") || strings.HasPrefix(m, e+"; ") || strings.HasSuffix(e, " (ensure CRDs are installed first") && strings.HasPrefix(m, e)) {
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
	if len(trusted) > 0 {
		notCompared = "custom resources kubectl could not map, whose CRD limitcheck takes as installed or serving (API-01, API-02)"
	}
	if a, b := sortedKeys(created), sortedKeys(admitted); a != b {
		diffs = append(diffs, fmt.Sprintf("kubectl created [%s]; limitcheck admitted [%s]", a, b))
	}
	return diffs, notCompared
}

// customKind reports whether limitcheck takes kind in apiVersion as a
// custom resource's: one of a group kube-apiserver does not serve itself.
func customKind(apiVersion, kind string) bool {
	_, st := apis.New().Lookup(apiVersion, kind)
	return st == apis.Custom
}

// hasError reports whether one of limitcheck's errors holds kubectl's
// error e.
func hasError(rep *Report, e string) bool {
	for _, r := range rep.Results {
		if strings.Contains(r.Error, ": "+e) {
			return true
		}
	}
	return false
}

// createdSkip: a document limitcheck skips for this reason is created on a
// cluster all the same (a cluster-scoped object, a class).
func createdSkip(reason string) bool {
	return strings.HasPrefix(reason, "cluster-scoped kind") || strings.HasPrefix(reason, "cluster class:")
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
		for _, start := range []string{", error parsing ", ", error validating \"", ", unable to decode \"", ", resource mapping not found for name: ", ", unable to recognize "} {
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
		if r.File == file && r.Skipped && noObjectReason(r.SkipReason) {
			return true
		}
	}
	return false
}

// skippedDocAsNoObject: limitcheck skipped the document name of file as no
// Kubernetes object, or a tool's file (IN-03, API-01).
func skippedDocAsNoObject(rep *Report, file, name string) bool {
	for _, r := range rep.Results {
		if r.File == file && r.Name == name && r.Skipped && noObjectReason(r.SkipReason) {
			return true
		}
	}
	return false
}

func noObjectReason(reason string) bool {
	return strings.HasPrefix(reason, "not a Kubernetes object") || strings.HasSuffix(reason, ", not an API object")
}

func sortedKeys(m map[string]bool) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}
