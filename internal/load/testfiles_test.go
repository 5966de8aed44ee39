package load

import (
	"path/filepath"
	"testing"
)

// IN-10: a Chainsaw test's assertions and the files named as KUTTL and
// Chainsaw name assertions are skipped; what a step applies is read.
func TestWalkSkipsTestAssertions(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"e2e/env/chainsaw-test.yaml": `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata: {name: env}
spec:
  steps:
  - try:
    - apply: {file: deploy.yaml}
    - assert: {file: deploy-ready.yaml}
    - patch: {file: scale.yaml}
    # Applied, then asserted: an object, whatever its name.
    - apply: {file: cm.yaml}
    - assert: {file: cm.yaml}
    - apply: {file: 09-assert.yaml}
    catch:
    - error: {file: "bad-*.yaml"}
    cleanup:
    - assert: {file: https://example.com/x.yaml}
`,
		"e2e/env/deploy.yaml":          patchDeploy,
		"e2e/env/deploy-ready.yaml":    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nstatus:\n  (readyReplicas > `0`): true\n",
		"e2e/env/bad-one.yaml":         cmYAML("bad"),
		"e2e/env/scale.yaml":           patchDeploy,
		"e2e/env/cm.yaml":              cmYAML("applied"),
		"e2e/env/09-assert.yaml":       cmYAML("applied-too"),
		"e2e/kuttl/00-install.yaml":    cmYAML("installed"),
		"e2e/kuttl/01-assert.yaml":     cmYAML("installed"),
		"e2e/kuttl/02-errors.yaml":     cmYAML("gone"),
		"e2e/kuttl/03-assert-pods.yml": "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nstatus: {phase: Running}\n",
		"e2e/kuttl/assert.yaml":        cmYAML("not-by-convention"),
	})
	e2e := filepath.Join(dir, "e2e")
	const chainsaw = "a Chainsaw assertion (e2e/env/chainsaw-test.yaml names it), not an API object"
	checkEvents(t, walkEvents(t, dir, []string{e2e}, nil, Options{Recursive: true}), []string{
		"doc e2e/env/09-assert.yaml:1: ConfigMap applied-too",
		"skip e2e/env/bad-one.yaml:1: " + chainsaw,
		"doc e2e/env/chainsaw-test.yaml:1: Test env",
		"doc e2e/env/cm.yaml:1: ConfigMap applied",
		"skip e2e/env/deploy-ready.yaml:1: " + chainsaw,
		"doc e2e/env/deploy.yaml:1: Deployment web",
		"skip e2e/env/scale.yaml:1: a Chainsaw patch (e2e/env/chainsaw-test.yaml names it), not an API object",
		"doc e2e/kuttl/00-install.yaml:1: ConfigMap installed",
		"skip e2e/kuttl/01-assert.yaml:1: " + conventionalReason,
		"skip e2e/kuttl/02-errors.yaml:1: " + conventionalReason,
		"skip e2e/kuttl/03-assert-pods.yml:1: " + conventionalReason,
		"doc e2e/kuttl/assert.yaml:1: ConfigMap not-by-convention",
	})
	// Named explicitly, an assertion is read as it is.
	checkEvents(t, walkEvents(t, dir, []string{filepath.Join(e2e, "kuttl", "01-assert.yaml")}, nil, Options{}), []string{
		"doc e2e/kuttl/01-assert.yaml:1: ConfigMap installed",
	})
}
