package load

import (
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

// Tools that build or test what reaches a cluster keep their input next to
// the manifests: kustomize its patches and plugin configurations
// (kustomize.go), Chainsaw and KUTTL their assertions (testfiles.go), Helm a
// chart's values and templates (below). Which files those are is read from
// the tools' own files, before a directory walk reads any other, or told by
// where they are; the walk skips them, each document with the reason
// (IN-10), and reports a chart's template that still holds its actions
// (IN-08). A tool's file may name a file in a directory walked before its
// own.

// toolInputs maps the absolute path of each file a tool's file of a walk
// names as the tool's input (not an object) to what it is; cwd is the
// directory relative paths are from, read once.
type toolInputs struct {
	files map[string]toolInput
	cwd   string
	// transformedBy maps a file a kustomization names as a resource to
	// that kustomization, when it sets what it changes in every resource
	// (namespace:, namePrefix:, …): checked as written, the file is not
	// what kustomize build creates (noteTransformed).
	transformedBy map[string]kustomizeTransform
}

// kustomizeTransform is a kustomization and the fields it sets that change
// its resources, as `field: value` ("namespace: kube-system").
type kustomizeTransform struct {
	by     string
	fields []string
}

// toolInput is a file a tool's file names as its input: the tool
// (kustomize, Chainsaw), the file's role for it (patch, transformer, …,
// assertion) and the naming file's path, as walked. The zero toolInput is a
// file a tool's file names as an object (a kustomization's resource, what a
// Chainsaw step applies): never skipped, whatever its name.
type toolInput struct {
	tool, role, by string
}

// of returns what a tool's file of the walk names the file at p as, if one
// does.
func (t toolInputs) of(p string) (toolInput, bool) {
	if len(t.files) == 0 {
		return toolInput{}, false
	}
	in, ok := t.files[t.key(p)]
	return in, ok
}

// key is the absolute, clean path of p, as the maps are keyed.
func (t toolInputs) key(p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(t.cwd, p)
	}
	return filepath.Clean(p)
}

// namedFile is a file a tool's file names, by its absolute path, and its
// role for the tool.
type namedFile struct{ path, role string }

// maxToolFileBytes bounds the tools' files read for the files they name: a
// larger one is not a kustomization or a test anyone writes.
const maxToolFileBytes = 1 << 20

// readToolFile reads the tool's file at p (YAML or JSON) into v; false if it
// is too large, cannot be read or does not parse.
func readToolFile(p string, v any) bool {
	info, err := os.Stat(p)
	if err != nil || info.Size() > maxToolFileBytes {
		return false
	}
	data, err := os.ReadFile(p)
	return err == nil && yaml.Unmarshal(data, v) == nil
}

// namedPath is the absolute path of the file a tool's file in dir names as
// name (relative to dir unless absolute).
func namedPath(dir, name string) (string, bool) {
	if !filepath.IsAbs(name) {
		name = filepath.Join(dir, name)
	}
	abs, err := filepath.Abs(name)
	return abs, err == nil
}

// reason is why the documents of the file are skipped.
func (in toolInput) reason() string {
	return "a " + in.tool + " " + in.role + " (" + in.by + " names it), not an API object"
}

// findToolInputs looks through the directories a walk of paths reads (their
// subdirectories too with opts.Recursive, as the walk does: not ignored,
// not through a symbolic link) for kustomization files and Chainsaw tests,
// and returns the files they name as their input. One that cannot be read
// or parsed names none: the tool itself would report it.
func findToolInputs(paths []string, infos []os.FileInfo, opts Options, ign *ignorer) toolInputs {
	pf := map[string]toolInput{}
	objects := map[string]bool{} // named as objects: never skipped
	transformed := map[string]kustomizeTransform{}
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
			case !e.Type().IsRegular() || ign.ignored(p):
			case kustomizationNames[e.Name()]:
				fields := kustomizationTransforms(p)
				for _, f := range kustomizationInputs(p) {
					if f.role == "resource" {
						objects[f.path] = true
						if _, named := transformed[f.path]; len(fields) > 0 && !named {
							transformed[f.path] = kustomizeTransform{by: p, fields: fields}
						}
						continue
					}
					if _, named := pf[f.path]; !named {
						pf[f.path] = toolInput{tool: "kustomize", role: f.role, by: p}
					}
				}
			case chainsawTestNames[e.Name()]:
				inputs, applied := chainsawInputs(p)
				for _, f := range applied {
					objects[f] = true
				}
				for _, f := range inputs {
					if _, named := pf[f.path]; !named {
						pf[f.path] = toolInput{tool: "Chainsaw", role: f.role, by: p}
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
	for p := range objects {
		pf[p] = toolInput{} // an object, however else it is named
	}
	if len(pf) == 0 && len(transformed) == 0 {
		return toolInputs{}
	}
	cwd, err := os.Getwd()
	if err != nil {
		return toolInputs{} // relative paths could not be told apart
	}
	return toolInputs{files: pf, cwd: cwd, transformedBy: transformed}
}

// transformed returns the kustomization that changes the file at p, a
// resource of it, if one does.
func (t toolInputs) transformed(p string) (kustomizeTransform, bool) {
	if len(t.transformedBy) == 0 {
		return kustomizeTransform{}, false
	}
	k, ok := t.transformedBy[t.key(p)]
	return k, ok
}

// isChart reports whether dir is a Helm chart's: it holds a Chart.yaml.
func (w *walker) isChart(dir string) bool {
	chart, known := w.charts[dir]
	if !known {
		info, err := os.Stat(filepath.Join(dir, "Chart.yaml"))
		chart = err == nil && info.Mode().IsRegular()
		if w.charts == nil {
			w.charts = map[string]bool{}
		}
		w.charts[dir] = chart
	}
	return chart
}

// chartOf returns the directory of the Helm chart whose templates directory
// holds the file at p (a templates directory beside a Chart.yaml, at any
// depth above p), or "".
func (w *walker) chartOf(p string) string {
	for dir := filepath.Dir(p); ; {
		parent := filepath.Dir(dir)
		if filepath.Base(dir) == "templates" && w.isChart(parent) {
			return parent
		}
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// chartValues returns the directory of the Helm chart whose values the file
// at p holds (values.yaml, values-prod.yaml, … beside the Chart.yaml, or a
// file of its ci directory, which chart-testing installs it with), or "".
func (w *walker) chartValues(p string) string {
	dir, name := filepath.Dir(p), filepath.Base(p)
	if strings.HasPrefix(name, "values") && w.isChart(dir) {
		return dir
	}
	if filepath.Base(dir) == "ci" && w.isChart(filepath.Dir(dir)) {
		return filepath.Dir(dir)
	}
	return ""
}
