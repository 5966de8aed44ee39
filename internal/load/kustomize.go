package load

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
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
	{"configurations", "transformer configuration"},
	{"replacements", "replacement"},
	// configMapGenerator and secretGenerator name files their entries read
	// as data (files:, envs:, env:): kustomizeGeneratorInputs.
	{"configMapGenerator", "configMapGenerator file"},
	{"secretGenerator", "secretGenerator file"},
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
		if r.field == "configMapGenerator" || r.field == "secretGenerator" {
			for _, file := range generatorFiles(list) {
				if abs, ok := namedPath(dir, file); ok {
					out = append(out, namedFile{abs, r.role})
				}
			}
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

// buildAdvice says how to check what the kustomization at p creates. A
// Component (kind: Component) creates nothing of its own: it changes the
// kustomizations that list it under components:, and kustomize build of
// its directory fails (its patches find no target there).
func buildAdvice(p string) string {
	var k struct {
		Kind string `json:"kind"`
	}
	if readToolFile(p, &k) && k.Kind == "Component" {
		return "it is a kustomize Component, which changes the kustomizations that list it under components:; to check what one of them creates: kustomize build DIR | limitcheck check -, DIR that kustomization's directory"
	}
	return fmt.Sprintf("to check what this kustomization creates: kustomize build %s | limitcheck check -", filepath.Dir(p))
}

// kustomizeTransformFields are the fields of a kustomization that change
// every resource it names in what admission reads: the namespace, the
// names, the replica counts.
var kustomizeTransformFields = []string{"namespace", "namePrefix", "nameSuffix", "replicas"}

// kustomizationTransforms returns, as `field: value`, the fields of
// kustomizeTransformFields the kustomization at p sets.
func kustomizationTransforms(p string) []string {
	var k map[string]any
	if !readToolFile(p, &k) {
		return nil
	}
	var out []string
	for _, f := range kustomizeTransformFields {
		switch v := k[f].(type) {
		case string:
			if v != "" {
				out = append(out, fmt.Sprintf("%s: %s", f, v))
			}
		case []any:
			if len(v) > 0 {
				out = append(out, f+": …")
			}
		}
	}
	return out
}

// phrase is the fields with their verb: "namespace: x is", "namespace: x,
// namePrefix: y- are".
func (k kustomizeTransform) phrase() string {
	if len(k.fields) == 1 {
		return k.fields[0] + " is"
	}
	return strings.Join(k.fields, ", ") + " are"
}

// noteTransformed says, for each kustomization that changes the files it
// names as resources (namespace:, namePrefix:, …) and whose resources the
// walk read as written, that what kustomize build creates is not what was
// checked.
func (w *walker) noteTransformed() {
	for _, k := range w.transformed {
		if slices.ContainsFunc(w.patched, func(s skippedInputs) bool { return s.by == k.by }) {
			continue // said with its skipped files (noteKustomizeInputs)
		}
		w.note(Note{File: k.by, Msg: fmt.Sprintf("its %s not applied to the files it names, which are checked as written; %s",
			k.phrase(), buildAdvice(k.by))})
	}
}

// generatorFiles are the files the entries of a configMapGenerator or
// secretGenerator read: each of files: ("path" or "key=path"), each of
// envs:, and env:.
func generatorFiles(entries []json.RawMessage) []string {
	var out []string
	for _, entry := range entries {
		var g struct {
			Files []string `json:"files"`
			Envs  []string `json:"envs"`
			Env   string   `json:"env"`
		}
		if json.Unmarshal(entry, &g) != nil {
			continue
		}
		for _, f := range g.Files {
			if _, path, ok := strings.Cut(f, "="); ok {
				f = path
			}
			out = append(out, f)
		}
		out = append(out, g.Envs...)
		if g.Env != "" {
			out = append(out, g.Env)
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
		also := ""
		if i := slices.IndexFunc(w.transformed, func(t kustomizeTransform) bool { return t.by == s.by }); i >= 0 {
			also = ", and its " + w.transformed[i].phrase() + " not applied to the files it names"
		}
		w.note(Note{File: s.by, Msg: fmt.Sprintf("%s skipped%s; %s",
			strings.Join(parts, ", "), also, buildAdvice(s.by))})
	}
}
