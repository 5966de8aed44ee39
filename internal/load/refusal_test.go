package load

import "testing"

// TestDecodeRefusal: a value that does not fit its field is refused in the
// words kubectl prints (IN-08), each checked against kubectl and
// kube-apiserver 1.36: kubectl's own for metadata, kube-apiserver's 400
// elsewhere, naming the first value in kubectl's order of the keys; a
// value a type decodes itself (a quantity) ends the decoding and is the
// error even after a type mismatch.
func TestDecodeRefusal(t *testing.T) {
	const pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n" // lines 1-4
	const deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n"
	for _, tc := range []struct{ name, file, in, want string }{
		{"annotation before label", "app.yaml", pod + "  labels: {debug: true}\n  annotations:\n    prometheus.io/port: 9090\n",
			`app.yaml:7: metadata.annotations[prometheus.io/port]: unable to decode "app.yaml": json: cannot unmarshal number into Go struct field ObjectMeta.metadata.annotations of type string (YAML reads the unquoted 9090 as a number: write "9090" for a string)`},
		{"metadata before spec", "app.yaml", pod + "  labels: {debug: true}\nspec:\n  hostNetwork: \"true\"\n",
			`app.yaml:5: metadata.labels.debug: unable to decode "app.yaml": json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string (YAML reads the unquoted true as a boolean: write "true" for a string)`},
		{"metadata not an object", "app.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: foo\n",
			`app.yaml:3: metadata: unable to decode "app.yaml": json: cannot unmarshal string into Go struct field metadataOnlyObject.metadata of type v1.ObjectMeta`},
		{"a time", "app.yaml", pod + "  creationTimestamp: yesterday\n",
			`app.yaml:5: metadata.creationTimestamp: unable to decode "app.yaml": parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`},
		{"stdin", StdinName, pod + "  labels: {v: 1.10}\n",
			`<stdin>:5: metadata.labels.v: unable to decode "STDIN": json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string (YAML reads the unquoted 1.10 as a number: write "1.10" for a string)`},
		{"key order, not file order", "app.yaml", deploy + "  replicas: \"3\"\n  minReadySeconds: \"5\"\n",
			`app.yaml:6: spec.minReadySeconds: Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.minReadySeconds of type int32 (a quoted value is a string: write 5 without quotes)`},
		{"a quantity after a mismatch", "app.yaml", pod + "spec:\n  containers:\n  - name: c\n    image: i\n    env: [{name: A, value: true}]\n    resources:\n      limits: {cpu: 1.5.Gi}\n",
			`app.yaml:11: spec.containers[0].resources.limits.cpu: Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' (got "1.5.Gi")`},
		{"an int32 out of range", "app.yaml", deploy + "  replicas: 3000000000\n",
			`app.yaml:5: spec.replicas: Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32`},
		{"an object for a list", "app.yaml", pod + "spec:\n  containers:\n  - name: c\n    image: i\n    ports: {containerPort: 80}\n",
			`app.yaml:9: spec.containers[0].ports: Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal object into Go struct field Container.spec.containers.ports of type []v1.ContainerPort`},
		{"a list's item: kube-apiserver's words", "app.yaml", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n    labels: {x: true}\n",
			`app.yaml:8: metadata.labels.x: ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string (YAML reads the unquoted true as a boolean: write "true" for a string)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gs, _ := readAll(t, tc.file, tc.in, typedOpts)
			if len(gs) != 1 || gs[0].Err != tc.want {
				t.Errorf("got %+v\nwant %s", gs, tc.want)
			}
		})
	}
}
