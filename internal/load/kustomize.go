package load

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

// A directory laid out for kustomize holds, beside its objects, the patches
// its kustomization applies to them: partial objects (a Deployment with only
// its replicas), strategic merge directives ($patch: delete) or JSON patch
// operations; and the configurations of the transformers, generators and
// validators it runs. They are kustomize's input, not objects anyone
// creates, so in a directory walk the files a kustomization of the walk
// names as such are skipped, each document with the reason (IN-10). Which
// files those are is known before the walk reads any file: a kustomization
// may name a patch in a directory walked before its own.

// kustomizationNames are the file names kustomize reads a kustomization from.
var kustomizationNames = map[string]bool{"kustomization.yaml": true, "kustomization.yml": true, "Kustomization": true}

// maxKustomizationBytes bounds the kustomization files read for their
// patches: a larger one is not a kustomization anyone writes.
const maxKustomizationBytes = 1 << 20

// kustomizeFiles maps the absolute path of each file a kustomization of a walk
// names as kustomize's input to what it is.
type kustomizeFiles map[string]kustomizeInput

// kustomizeInput is a file a kustomization names: its role (patch,
// transformer, generator, validator) and the kustomization's path, as walked.
type kustomizeInput struct {
	role, by string
}

// kustomizeRoles are the fields of a kustomization that name files, and what
// each names, in the order notes list them.
var kustomizeRoles = []struct{ field, role string }{
	{"patches", "patch"},
	{"patchesStrategicMerge", "patch"},
	{"patchesJson6902", "patch"},
	{"transformers", "transformer"},
	{"generators", "generator"},
	{"validators", "validator"},
	// A file a kustomization names as a resource is an object, whatever
	// another one names it.
	{"resources", "resource"},
}

// of returns what a kustomization of the walk names the file at p as, if it
// does.
func (pf kustomizeFiles) of(p string) (kustomizeInput, bool) {
	if len(pf) == 0 {
		return kustomizeInput{}, false
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return kustomizeInput{}, false
	}
	in, ok := pf[abs]
	return in, ok
}

// reason is why the documents of the file are skipped.
func (in kustomizeInput) reason() string {
	return "a kustomize " + in.role + " (" + in.by + " names it), not an API object"
}

// findKustomizeFiles looks through the directories a walk of paths reads (their
// subdirectories too with opts.Recursive, as the walk does: not ignored,
// not through a symbolic link) for kustomization files, and returns the
// files they name as kustomize's input. A kustomization that cannot be read or parsed
// names none: kustomize itself would report it.
func findKustomizeFiles(paths []string, infos []os.FileInfo, opts Options, ign *ignorer) kustomizeFiles {
	var pf kustomizeFiles
	resources := map[string]bool{}
	var scan func(dir string)
	scan = func(dir string) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			switch {
			case e.IsDir():
				if opts.Recursive && !ign.ignored(p) {
					scan(p)
				}
			case kustomizationNames[e.Name()] && e.Type().IsRegular() && !ign.ignored(p):
				for _, f := range kustomizationInputs(p) {
					if f.role == "resource" {
						resources[f.path] = true
						continue
					}
					if pf == nil {
						pf = kustomizeFiles{}
					}
					if _, named := pf[f.path]; !named {
						pf[f.path] = kustomizeInput{role: f.role, by: p}
					}
				}
			}
		}
	}
	for i, p := range paths {
		if p != "-" && infos[i] != nil && infos[i].IsDir() {
			scan(p)
		}
	}
	for p := range resources {
		delete(pf, p)
	}
	return pf
}

// namedFile is a file a kustomization names, by its absolute path.
type namedFile struct{ path, role string }

// kustomizationInputs returns the files the kustomization at p names in the
// fields of kustomizeRoles (an inline patch or configuration names none).
func kustomizationInputs(p string) []namedFile {
	info, err := os.Stat(p)
	if err != nil || info.Size() > maxKustomizationBytes {
		return nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var k map[string]json.RawMessage
	if yaml.Unmarshal(data, &k) != nil {
		return nil
	}
	dir := filepath.Dir(p)
	var out []namedFile
	for _, r := range kustomizeRoles {
		var list []json.RawMessage
		if json.Unmarshal(k[r.field], &list) != nil {
			continue
		}
		for _, entry := range list {
			var file string
			var ref struct {
				Path string `json:"path"`
			}
			if json.Unmarshal(entry, &file) != nil {
				if json.Unmarshal(entry, &ref) != nil {
					continue
				}
				file = ref.Path
			}
			// A string entry may be the patch or configuration itself,
			// written inline.
			if file == "" || strings.ContainsAny(file, "\n:{") {
				continue
			}
			if !filepath.IsAbs(file) {
				file = filepath.Join(dir, file)
			}
			if abs, err := filepath.Abs(file); err == nil {
				out = append(out, namedFile{abs, r.role})
			}
		}
	}
	return out
}

// skippedInput counts a file skipped as kustomize's input.
func (w *walker) skippedInput(in kustomizeInput) {
	for i := range w.patched {
		if w.patched[i].by == in.by {
			w.patched[i].count[in.role]++
			return
		}
	}
	w.patched = append(w.patched, skippedInputs{by: in.by, count: map[string]int{in.role: 1}})
}

// skippedInputs counts the files of one kustomization skipped, by role.
type skippedInputs struct {
	by    string
	count map[string]int
}

// noteKustomizeInputs says, for each kustomization whose files were skipped, how
// what it creates can be checked.
func (w *walker) noteKustomizeInputs() {
	for _, s := range w.patched {
		var parts []string
		seen := map[string]bool{}
		for _, r := range kustomizeRoles {
			n := s.count[r.role]
			if n == 0 || seen[r.role] {
				continue
			}
			seen[r.role] = true
			what := r.role
			switch {
			case n > 1 && r.role == "patch":
				what = "patches"
			case n > 1:
				what += "s"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
		w.note(Note{File: s.by, Msg: fmt.Sprintf("%s skipped; to check what this kustomization creates: kustomize build %s | limitcheck check -",
			strings.Join(parts, ", "), filepath.Dir(s.by))})
	}
}
