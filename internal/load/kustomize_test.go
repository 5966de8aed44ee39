package load

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

const patchDeploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 3\n"

// IN-10: files a kustomization of the walk names as patches are skipped,
// each document with the reason, wherever the walk meets them.
func TestWalkSkipsKustomizePatches(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"repo/base/kustomization.yaml": "resources: [cm.yaml]\n",
		"repo/base/cm.yaml":            cmYAML("base"),
		// Walked before the kustomization that names it, in another directory.
		"repo/a-shared/limits.yaml": "apiVersion: v1\nkind: LimitRange\nmetadata: {name: l}\nspec:\n  limits:\n  - type: Container\n    max: {cpu: 50m}\n",
		"repo/overlays/prod/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [../../base]
patches:
- path: replicas.yaml
- path: ../../a-shared/limits.yaml
- patch: |-
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: base}
patchesStrategicMerge:
- delete.yaml
- |-
  apiVersion: v1
  kind: ConfigMap
  metadata: {name: inline}
patchesJson6902:
- target: {kind: Deployment, name: web}
  path: ops.yaml
`,
		"repo/overlays/prod/replicas.yaml": patchDeploy,
		"repo/overlays/prod/delete.yaml":   "$patch: delete\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: base}\n---\n" + cmYAML("second"),
		"repo/overlays/prod/ops.yaml":      "- op: replace\n  path: /spec/replicas\n  value: 2\n",
		"repo/overlays/prod/extra.yaml":    cmYAML("extra"),
		// Named as a patch by one kustomization and as a resource by
		// another: an object.
		"repo/overlays/dev/kustomization.yaml": "resources: [../prod/extra.yaml]\npatches: [{path: ../prod/extra.yaml}]\n",
		// A kustomization file kustomize would not read names nothing.
		"repo/other/kustomize.yaml": "patches: [{path: cm.yaml}]\n",
		"repo/other/cm.yaml":        cmYAML("other"),
	})
	repo := filepath.Join(dir, "repo")
	t.Run("recursive", func(t *testing.T) {
		checkEvents(t, walkEvents(t, dir, []string{repo}, nil, Options{Recursive: true}), []string{
			"skip repo/a-shared/limits.yaml:1: a kustomize patch (repo/overlays/prod/kustomization.yaml names it), not an API object",
			"doc repo/base/cm.yaml:1: ConfigMap base",
			"skip repo/base/kustomization.yaml:1: " + ToolConfigReason,
			"doc repo/other/cm.yaml:1: ConfigMap other",
			"skip repo/other/kustomize.yaml:1: not a Kubernetes object: no apiVersion or kind",
			"skip repo/overlays/dev/kustomization.yaml:1: " + ToolConfigReason,
			"skip repo/overlays/prod/delete.yaml:1: a kustomize patch (repo/overlays/prod/kustomization.yaml names it), not an API object",
			"skip repo/overlays/prod/delete.yaml:6: a kustomize patch (repo/overlays/prod/kustomization.yaml names it), not an API object",
			"doc repo/overlays/prod/extra.yaml:1: ConfigMap extra",
			"doc repo/overlays/prod/kustomization.yaml:1: Kustomization ",
			"skip repo/overlays/prod/ops.yaml:1: a kustomize patch (repo/overlays/prod/kustomization.yaml names it), not an API object",
			"skip repo/overlays/prod/replicas.yaml:1: a kustomize patch (repo/overlays/prod/kustomization.yaml names it), not an API object",
			"note repo/overlays/prod/kustomization.yaml: 4 patches skipped; to check what this kustomization creates: kustomize build repo/overlays/prod | limitcheck check -",
		})
	})
	t.Run("resources only", func(t *testing.T) {
		checkEvents(t, walkEvents(t, dir, []string{filepath.Join(repo, "base")}, nil, Options{}), []string{
			"doc repo/base/cm.yaml:1: ConfigMap base",
			"skip repo/base/kustomization.yaml:1: " + ToolConfigReason,
		})
	})
	t.Run("kustomization not walked", func(t *testing.T) {
		// Without -R only repo/a-shared is read: no kustomization names it.
		checkEvents(t, walkEvents(t, dir, []string{filepath.Join(repo, "a-shared")}, nil, Options{}), []string{
			"doc repo/a-shared/limits.yaml:1: LimitRange l",
		})
	})
	t.Run("ignored kustomization", func(t *testing.T) {
		got := walkEvents(t, dir, []string{filepath.Join(repo, "overlays")}, nil, Options{Recursive: true, Ignore: []string{"kustomization.yaml"}})
		checkEvents(t, got, []string{
			"doc repo/overlays/prod/delete.yaml:1: ConfigMap base",
			"doc repo/overlays/prod/delete.yaml:6: ConfigMap second",
			"doc repo/overlays/prod/extra.yaml:1: ConfigMap extra",
			"skip repo/overlays/prod/ops.yaml:1: not a Kubernetes object: not a mapping",
			"doc repo/overlays/prod/replicas.yaml:1: Deployment web",
			"note repo/overlays: 2 paths ignored by --ignore-path",
		})
	})
	t.Run("named explicitly", func(t *testing.T) {
		// A patch named on the command line is read as it is.
		got := walkEvents(t, dir, []string{filepath.Join(repo, "overlays", "prod", "replicas.yaml"), filepath.Join(repo, "overlays")}, nil, Options{Recursive: true})
		if len(got) == 0 || got[0] != "doc repo/overlays/prod/replicas.yaml:1: Deployment web" {
			t.Errorf("first event %q, want the patch named explicitly read", got)
		}
	})
}

func TestKustomizationPatches(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"none", "namePrefix: x-\n", nil},
		{"resources", "resources: [a.yaml, ../b, 'https://example.com/x.yaml']\n", []string{"resource k/a.yaml", "resource b"}},
		{"patches", "patches:\n- path: a.yaml\n- path: ../up/b.yaml\n  target: {kind: Deployment}\n- patch: '{\"metadata\": {}}'\n", []string{"patch k/a.yaml", "patch up/b.yaml"}},
		{"strategic merge", "patchesStrategicMerge:\n- c.yaml\n- |\n  kind: ConfigMap\n- '{\"kind\": \"ConfigMap\"}'\n", []string{"patch k/c.yaml"}},
		{"json6902", "patchesJson6902:\n- path: sub/ops.yaml\n", []string{"patch k/sub/ops.yaml"}},
		{"plugins", "transformers:\n- prefix.yaml\n- |\n  apiVersion: builtin\n  kind: LabelTransformer\ngenerators: [gen/]\nvalidators: [v.yaml]\n", []string{"transformer k/prefix.yaml", "generator k/gen", "validator k/v.yaml"}},
		{"generators' data", "configMapGenerator:\n- name: cfg\n  files: [controller_manager_config.yaml, key=conf/app.yaml]\n  envs: [app.env]\n- name: lit\n  literals: [a=b]\nsecretGenerator:\n- name: s\n  env: s.env\n  files: [tls.crt]\n", []string{"configMapGenerator file k/controller_manager_config.yaml", "configMapGenerator file k/conf/app.yaml", "configMapGenerator file k/app.env", "secretGenerator file k/tls.crt", "secretGenerator file k/s.env"}},
		{"configurations and replacements", "configurations: [kustomizeconfig.yaml]\nreplacements:\n- path: repl.yaml\n- source: {kind: ConfigMap}\n", []string{"transformer configuration k/kustomizeconfig.yaml", "replacement k/repl.yaml"}},
		{"not YAML", "patches: [\n", nil},
		{"wrong shapes", "patches: {path: a.yaml}\npatchesStrategicMerge: [1, {}]\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, "k", "kustomization.yaml")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range kustomizationInputs(p) {
				rel, err := filepath.Rel(dir, f.path)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, f.role+" "+filepath.ToSlash(rel))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("patches = %q, want %q", got, tc.want)
			}
		})
	}
}

// IN-10: the resources of a kustomization that changes them (namespace:,
// namePrefix:, replicas:) are read as written, and the walk says so once,
// with its skipped patches when it has some.
func TestWalkNotesKustomizeTransforms(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"base/kustomization.yaml":  "namespace: kube-system\nnamePrefix: ebs-\nresources: [sa.yaml, cm.yaml]\n",
		"base/sa.yaml":             "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: csi}\n",
		"base/cm.yaml":             cmYAML("settings"),
		"prod/kustomization.yaml":  "namespace: prod\nreplicas: [{name: web, count: 3}]\nresources: [web.yaml]\npatches: [{path: patch.yaml}]\n",
		"prod/web.yaml":            patchDeploy,
		"prod/patch.yaml":          patchDeploy,
		"plain/kustomization.yaml": "resources: [cm.yaml]\n",
		"plain/cm.yaml":            cmYAML("plain"),
	})
	checkEvents(t, walkEvents(t, dir, []string{dir}, nil, Options{Recursive: true}), []string{
		"doc base/cm.yaml:1: ConfigMap settings",
		"skip base/kustomization.yaml:1: " + ToolConfigReason,
		"doc base/sa.yaml:1: ServiceAccount csi",
		"doc plain/cm.yaml:1: ConfigMap plain",
		"skip plain/kustomization.yaml:1: " + ToolConfigReason,
		"skip prod/kustomization.yaml:1: " + ToolConfigReason,
		"skip prod/patch.yaml:1: a kustomize patch (prod/kustomization.yaml names it), not an API object",
		"doc prod/web.yaml:1: Deployment web",
		"note prod/kustomization.yaml: 1 patch skipped, and its namespace: prod, replicas: … are not applied to the files it names; to check what this kustomization creates: kustomize build prod | limitcheck check -",
		"note base/kustomization.yaml: its namespace: kube-system, namePrefix: ebs- are not applied to the files it names, which are checked as written; to check what this kustomization creates: kustomize build base | limitcheck check -",
	})
}

// IN-10: a kustomize Component's skipped patches are said with advice that
// works: kustomize build of the Component's own directory fails, so the
// note points at the kustomizations that include it.
func TestWalkNotesKustomizeComponent(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"components/mon/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches: [{path: patch.yaml}]\n",
		"components/mon/patch.yaml":         patchDeploy,
	})
	checkEvents(t, walkEvents(t, dir, []string{dir}, nil, Options{Recursive: true}), []string{
		"doc components/mon/kustomization.yaml:1: Component ", // skipped by check, as tool configuration
		"skip components/mon/patch.yaml:1: a kustomize patch (components/mon/kustomization.yaml names it), not an API object",
		"note components/mon/kustomization.yaml: 1 patch skipped; it is a kustomize Component, which changes the kustomizations that list it under components:; to check what one of them creates: kustomize build DIR | limitcheck check -, DIR that kustomization's directory",
	})
}
