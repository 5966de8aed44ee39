package load

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// A directory laid out for kustomize holds, beside its objects, the patches
// its kustomization applies to them: partial objects (a Deployment with only
// its replicas), strategic merge directives ($patch: delete) or JSON patch
// operations; and the configurations of the transformers, generators and
// validators it runs. They are kustomize's input, not objects anyone
// creates, so in a directory walk the files a kustomization of the walk
// names as such are skipped, each document with the reason (IN-10,
// toolinputs.go).

// kustomizationNames are the file names kustomize reads a kustomization from.
var kustomizationNames = map[string]bool{"kustomization.yaml": true, "kustomization.yml": true, "Kustomization": true}

// versionlessToolKinds are tools' configuration kinds that come without an
// apiVersion, which no apiserver serves under any (API-01).
var versionlessToolKinds = map[string]bool{
	"CustomResourceStateMetrics": true, // kube-state-metrics' custom resource state configuration
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

// kustomizationInputs returns the files the kustomization at p names in the
// fields of kustomizeRoles (an inline patch or configuration names none).
func kustomizationInputs(p string) []namedFile {
	var k map[string]json.RawMessage
	if !readToolFile(p, &k) {
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
			if abs, ok := namedPath(dir, file); ok {
				out = append(out, namedFile{abs, r.role})
			}
		}
	}
	return out
}

// skippedInput counts a file skipped as kustomize's input.
func (w *walker) skippedInput(in toolInput) {
	if in.tool != "kustomize" {
		return
	}
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
