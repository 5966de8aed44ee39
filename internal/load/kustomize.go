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
// operations. They are kustomize's input, not objects anyone creates, so in
// a directory walk the files a kustomization of the walk names as patches
// are skipped, each document with the reason (IN-10). Which files those are
// is known before the walk reads any file: a kustomization may name a patch
// in a directory walked before its own.

// kustomizationNames are the file names kustomize reads a kustomization from.
var kustomizationNames = map[string]bool{"kustomization.yaml": true, "kustomization.yml": true, "Kustomization": true}

// maxKustomizationBytes bounds the kustomization files read for their
// patches: a larger one is not a kustomization anyone writes.
const maxKustomizationBytes = 1 << 20

// patchFiles maps the absolute path of each file named as a patch by a
// kustomization of a walk to that kustomization's path, as walked.
type patchFiles map[string]string

// of returns the kustomization naming the file at p as a patch, or "".
func (pf patchFiles) of(p string) string {
	if len(pf) == 0 {
		return ""
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	return pf[abs]
}

// findPatchFiles looks through the directories a walk of paths reads (their
// subdirectories too with opts.Recursive, as the walk does: not ignored,
// not through a symbolic link) for kustomization files, and returns the
// files they name as patches. A kustomization that cannot be read or parsed
// names none: kustomize itself would report it.
func findPatchFiles(paths []string, infos []os.FileInfo, opts Options, ign *ignorer) patchFiles {
	var pf patchFiles
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
				for _, patch := range kustomizationPatches(p) {
					if pf == nil {
						pf = patchFiles{}
					}
					if _, named := pf[patch]; !named {
						pf[patch] = p
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
	return pf
}

// kustomizationPatches returns the absolute paths of the files the
// kustomization at p names in patches, patchesStrategicMerge and
// patchesJson6902 (an inline patch names none).
func kustomizationPatches(p string) []string {
	info, err := os.Stat(p)
	if err != nil || info.Size() > maxKustomizationBytes {
		return nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var k struct {
		Patches               []json.RawMessage `json:"patches"`
		PatchesStrategicMerge []json.RawMessage `json:"patchesStrategicMerge"`
		PatchesJSON6902       []json.RawMessage `json:"patchesJson6902"`
	}
	if yaml.Unmarshal(data, &k) != nil {
		return nil
	}
	dir := filepath.Dir(p)
	var out []string
	for _, list := range [][]json.RawMessage{k.Patches, k.PatchesStrategicMerge, k.PatchesJSON6902} {
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
			// A string entry of patchesStrategicMerge or patches may be the
			// patch itself, written inline.
			if file == "" || strings.ContainsAny(file, "\n:{") {
				continue
			}
			if !filepath.IsAbs(file) {
				file = filepath.Join(dir, file)
			}
			if abs, err := filepath.Abs(file); err == nil {
				out = append(out, abs)
			}
		}
	}
	return out
}

// skippedPatch counts a file skipped as a patch of the kustomization k.
func (w *walker) skippedPatch(k string) {
	for i, p := range w.patched {
		if p == k {
			w.skipped[i]++
			return
		}
	}
	w.patched = append(w.patched, k)
	w.skipped = append(w.skipped, 1)
}

// notePatches says, for each kustomization whose patches were skipped, how
// what it creates can be checked.
func (w *walker) notePatches() {
	for i, k := range w.patched {
		files := "files"
		if w.skipped[i] == 1 {
			files = "file"
		}
		w.note(Note{File: k, Msg: fmt.Sprintf("%d patch %s skipped; to check what this kustomization creates: kustomize build %s | limitcheck check -",
			w.skipped[i], files, filepath.Dir(k))})
	}
}
