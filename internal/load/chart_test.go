package load

import (
	"path/filepath"
	"testing"
)

// IN-08: a document of a Helm chart's template that parses but holds
// template actions is an input error saying so, walked or named; a
// template without actions is read, and so is a templates directory that
// is not a chart's.
func TestChartTemplates(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"charts/web/Chart.yaml":              "apiVersion: v2\nname: web\nversion: 0.1.0\n",
		"charts/web/templates/cm.yaml":       "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: '{{ .Release.Name }}-config'\n",
		"charts/web/templates/plain.yaml":    cmYAML("plain"),
		"charts/web/templates/if.yaml":       "{{- if .Values.enabled }}\n" + cmYAML("maybe") + "{{- end }}\n",
		"charts/web/templates/bare.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n",
		"charts/web/templates/sub/deep.yaml": cmYAML("ok") + "---\n" + "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: \"{{ .Values.a }}\"\n",
		"charts/web/crds/crd.yaml":           cmYAML("crd-like") + "data: {t: '{{ not a chart template }}'}\n",
		"other/templates/cm.yaml":            cmYAML("other") + "data: {alert: '{{ $labels.instance }}'}\n",
		"charts/web/values.yaml":             "kind: Deployment\nreplicas: 2\n",
		"charts/web/values-prod.yaml":        "kind: DaemonSet\n",
		"charts/web/ci/small-values.yaml":    "replicas: 1\n",
		"other/values.yaml":                  "kind: Deployment\n",
	})
	const hint = "holds template actions ({{ … }}) (an unrendered template: check what it renders to, e.g. helm template charts/web | limitcheck check -)"
	checkEvents(t, walkEvents(t, dir, []string{filepath.Join(dir, "charts"), filepath.Join(dir, "other")}, nil, Options{Recursive: true}), []string{
		"skip charts/web/Chart.yaml:1: not a Kubernetes object: no kind",
		"skip charts/web/ci/small-values.yaml:1: values of the Helm chart in charts/web, not an API object",
		"doc charts/web/crds/crd.yaml:1: ConfigMap crd-like",
		// Not YAML until rendered: the same error, not the parser's.
		"error charts/web/templates/bare.yaml:4: " + hint,
		"error charts/web/templates/cm.yaml:4: " + hint,
		"error charts/web/templates/if.yaml:1: " + hint,
		"doc charts/web/templates/plain.yaml:1: ConfigMap plain",
		"doc charts/web/templates/sub/deep.yaml:1: ConfigMap ok",
		"error charts/web/templates/sub/deep.yaml:11: " + hint,
		"skip charts/web/values-prod.yaml:1: values of the Helm chart in charts/web, not an API object",
		"skip charts/web/values.yaml:1: values of the Helm chart in charts/web, not an API object",
		"doc other/templates/cm.yaml:1: ConfigMap other",
		// Not beside a Chart.yaml: what it says it is.
		"error other/values.yaml:1: apiVersion: error validating \"other/values.yaml\": error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false",
	})
	checkEvents(t, walkEvents(t, dir, []string{filepath.Join(dir, "charts/web/templates/cm.yaml")}, nil, Options{}), []string{
		"error charts/web/templates/cm.yaml:4: " + hint,
	})
}
