package load

import (
	"testing"

	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestUnquotedScalarHint: a string field given a boolean or a number names
// the unquoted YAML scalar kubectl's YAML 1.1 read that way; quoted values,
// JSON input and other mismatches get no hint.
func TestUnquotedScalarHint(t *testing.T) {
	const head = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"                         // lines 1-4
	const env = "spec:\n  containers:\n  - name: c\n    image: i\n    env:\n    - name: E\n" // lines 5-10
	for _, tc := range []struct{ name, in, want string }{
		{"yes", head + "  labels:\n    canary: yes\n",
			`f.yaml:6: metadata.labels.canary: unable to decode "f.yaml": json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string (YAML reads the unquoted yes as a boolean: write "yes" for a string)`},
		{"NO", head + "spec:\n  nodeSelector:\n    country: NO\n",
			`f.yaml:7: spec.nodeSelector.country: Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field PodSpec.spec.nodeSelector of type string (YAML reads the unquoted NO as a boolean: write "NO" for a string)`},
		{"on in a flow mapping", head + "  annotations: {example.com/inject: on}\n",
			`f.yaml:5: metadata.annotations[example.com/inject]: unable to decode "f.yaml": json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.annotations of type string (YAML reads the unquoted on as a boolean: write "on" for a string)`},
		{"1e3", head + env + "      value: 1e3\n",
			`f.yaml:11: spec.containers[0].env[0].value: Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field EnvVar.spec.containers.env.value of type string (YAML reads the unquoted 1e3 as a number: write "1e3" for a string)`},
		{"1.10", head + "  labels:\n    version: 1.10\n",
			`f.yaml:6: metadata.labels.version: unable to decode "f.yaml": json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string (YAML reads the unquoted 1.10 as a number: write "1.10" for a string)`},
		{"0755", head + env + "      value: 0755\n",
			`f.yaml:11: spec.containers[0].env[0].value: Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field EnvVar.spec.containers.env.value of type string (YAML reads the unquoted 0755 as a number: write "0755" for a string)`},
		{"a sequence item", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: i\n    args: [--port, 8080]\n",
			`f.yaml:8: spec.containers[0].args[1]: Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Container.spec.containers.args of type string (YAML reads the unquoted 8080 as a number: write "8080" for a string)`},
		{"a key that is two dots", head + "  labels:\n    a: \"1\"\n    ..: 1\n",
			`f.yaml:7: metadata.labels[..]: unable to decode "f.yaml": json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string (YAML reads the unquoted 1 as a number: write "1" for a string)`},
		{"a key with a dot and brackets", head + "  labels:\n    a.b: \"1\"\n    a.b]: 1\n",
			`f.yaml:7: metadata.labels[a.b]]: unable to decode "f.yaml": json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string (YAML reads the unquoted 1 as a number: write "1" for a string)`},
		{"tagged: no hint", head + "  labels:\n    canary: !!bool yes\n",
			`f.yaml:6: metadata.labels.canary: unable to decode "f.yaml": json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string`},
		{"object: no hint", head + env + "      value: {a: b}\n",
			`f.yaml:11: spec.containers[0].env[0].value: Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal object into Go struct field EnvVar.spec.containers.env.value of type string`},
		{"JSON: no hint", `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "labels": {"port": 8080}}}`,
			`f.yaml:1: metadata.labels.port: unable to decode "f.yaml": json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gs, _ := readAll(t, "f.yaml", tc.in, typedOpts)
			if len(gs) != 1 || gs[0].Err != tc.want {
				t.Errorf("got %+v\nwant %s", gs, tc.want)
			}
		})
	}
}

// TestBase64Hint: a []byte field whose value is not base64 says how it is
// written: a Secret's data under stringData, a PEM block encoded whole.
func TestBase64Hint(t *testing.T) {
	opts := Options{NewObject: func(apiVersion, kind string) runtime.Object {
		switch kind {
		case "Secret":
			return &corev1.Secret{}
		case "ConfigMap":
			return &corev1.ConfigMap{}
		case "CertificateSigningRequest":
			return &certificatesv1.CertificateSigningRequest{}
		}
		return nil
	}}
	for _, tc := range []struct{ name, in, want string }{
		{"secret data", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  password: hunter2!\n",
			`f.yaml:6: data.password: Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 7 (a Secret's data values are base64: put the text under stringData instead, or encode it: printf %s 'value' | base64)`},
		{"PEM as text", "apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: c\nspec:\n  request: |\n    -----BEGIN CERTIFICATE REQUEST-----\n    MIIB\n    -----END CERTIFICATE REQUEST-----\n",
			`f.yaml:6: spec.request: CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: illegal base64 data at input byte 0 (the PEM text is given as is: this field holds it base64-encoded, e.g. base64 -w0 file.pem)`},
		{"other bytes", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\nbinaryData:\n  blob: not*base64\n",
			`f.yaml:6: binaryData.blob: ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 3 (this field holds bytes, written in base64)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gs, _ := readAll(t, "f.yaml", tc.in, opts)
			if len(gs) != 1 || gs[0].Err != tc.want {
				t.Errorf("got %+v\nwant %s", gs, tc.want)
			}
		})
	}
}

// TestNotUTF8: a file that is not UTF-8 (Latin-1 é is the byte 0xE9) is read
// as kubectl reads it, each ill-formed sequence replaced by U+FFFD (its
// maximal subpart: the truncated E2 82 is one), and warned of; YAML and JSON
// alike.
func TestNotUTF8(t *testing.T) {
	opts := Options{NewObject: func(apiVersion, kind string) runtime.Object { return &corev1.ConfigMap{} }}
	for _, tc := range []struct{ name, in, want, warn string }{
		{"YAML", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: caf\xe9\n  b: \xe2\x82 x\n",
			"caf\uFFFD|\uFFFD x",
			"line 6: byte 0xE9 is not UTF-8 (and 1 more): kubectl sends U+FFFD (\uFFFD) in place of each such byte, so the object holds \uFFFD where the file has them: save the file as UTF-8 (it looks like Latin-1 or Windows-1252)"},
		{"JSON", "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"c\"},\n \"data\": {\"a\": \"caf\xe9\", \"b\": \"\xe2\x82 x\"}}\n",
			"caf\uFFFD|\uFFFD x",
			"line 2: byte 0xE9 is not UTF-8 (and 1 more): kubectl sends U+FFFD (\uFFFD) in place of each such byte, so the object holds \uFFFD where the file has them: save the file as UTF-8 (it looks like Latin-1 or Windows-1252)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gs, ds := readAll(t, "f.yaml", tc.in, opts)
			if len(ds) != 1 || gs[0].Err != "" {
				t.Fatalf("got %+v, want one ConfigMap", gs)
			}
			cm := ds[0].Object.(*corev1.ConfigMap)
			if got := cm.Data["a"] + "|" + cm.Data["b"]; got != tc.want {
				t.Errorf("data: got %q, want %q", got, tc.want)
			}
			if len(ds[0].Warnings) != 1 || ds[0].Warnings[0].Msg != tc.warn {
				t.Errorf("warnings: got %+v\nwant %s", ds[0].Warnings, tc.warn)
			}
		})
	}
}
