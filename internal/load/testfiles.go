package load

import (
	"path/filepath"
	"regexp"
	"strings"
)

// The end-to-end tests of operators and policies (Chainsaw, KUTTL) keep,
// next to the manifests a step applies, the assertions it checks the
// cluster against: partial objects, often keyed by JMESPath expressions
// ("(containers[?name == 'app'])"). They are not objects anyone creates, so
// in a directory walk they are skipped, each document with the reason
// (IN-10): the files a chainsaw-test.yaml names under assert, error or
// patch (what a step patches with is partial too), and the files named as
// both tools name assertions by convention (01-assert.yaml, 02-errors.yaml).

// chainsawTestNames are the file names Chainsaw reads a test from.
var chainsawTestNames = map[string]bool{"chainsaw-test.yaml": true, "chainsaw-test.yml": true, "chainsaw-test.json": true}

// conventionalAssertion matches the names KUTTL and Chainsaw give a test
// step's assertions and expected errors.
var conventionalAssertion = regexp.MustCompile(`^[0-9]+-(assert|errors?)([-_.][^/]*)?\.ya?ml$`)

// conventionalReason is why a file named as an assertion is skipped.
const conventionalReason = "an end-to-end test's assertion (KUTTL and Chainsaw name them NN-assert.yaml, NN-errors.yaml), not an API object"

// chainsawInputs returns the files the Chainsaw test at p names in the
// operations of its steps (try, catch, finally, cleanup) that do not create
// them: assert and error (assertions), patch (patches); and, by their
// absolute paths, those it applies, creates or updates, which are objects
// however else it names them. A glob names the files it matches.
func chainsawInputs(p string) (inputs []namedFile, applied []string) {
	type file struct {
		File string `json:"file"`
	}
	type operation struct {
		Assert *file `json:"assert"`
		Error  *file `json:"error"`
		Apply  *file `json:"apply"`
		Create *file `json:"create"`
		Update *file `json:"update"`
		Patch  *file `json:"patch"`
	}
	var test struct {
		Spec struct {
			Steps []struct {
				Try     []operation `json:"try"`
				Catch   []operation `json:"catch"`
				Finally []operation `json:"finally"`
				Cleanup []operation `json:"cleanup"`
			} `json:"steps"`
		} `json:"spec"`
	}
	if !readToolFile(p, &test) {
		return nil, nil
	}
	dir := filepath.Dir(p)
	files := func(out []string, fs ...*file) []string {
		for _, f := range fs {
			if f == nil || f.File == "" || strings.Contains(f.File, "://") {
				continue
			}
			name, ok := namedPath(dir, f.File)
			if !ok {
				continue
			}
			matches := []string{name}
			if strings.ContainsAny(name, "*?[") {
				matches, _ = filepath.Glob(name)
			}
			out = append(out, matches...)
		}
		return out
	}
	for _, step := range test.Spec.Steps {
		for _, ops := range [][]operation{step.Try, step.Catch, step.Finally, step.Cleanup} {
			for _, op := range ops {
				for _, f := range files(nil, op.Assert, op.Error) {
					inputs = append(inputs, namedFile{f, "assertion"})
				}
				for _, f := range files(nil, op.Patch) {
					inputs = append(inputs, namedFile{f, "patch"})
				}
				applied = files(applied, op.Apply, op.Create, op.Update)
			}
		}
	}
	return inputs, applied
}
