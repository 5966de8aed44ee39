package load

import (
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
)

// TestJSONAsKubectlSendsIt: a JSON document reaches kube-apiserver as
// kubectl re-encodes it (IN-04): a key given twice keeps its last value
// (a warning; an error under Strict), a number written 2.0 or 1e1 in an
// integer field is that integer; 2.5 stays an error, in an IntOrString too.
func TestJSONAsKubectlSendsIt(t *testing.T) {
	const deploy = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},` +
		`"spec":{"replicas":%s,"selector":{"matchLabels":{"a":"b"}},` +
		`"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i","ports":[{"containerPort":8080.0}]}]}}}}`
	for _, tc := range []struct {
		name, in string
		strict   bool
		replicas int32  // of the Deployment read, when no error
		err      string // the document's error
		warnings []string
	}{
		{name: "fraction", in: strings.Replace(deploy, "%s", "2.0", 1), replicas: 2},
		{name: "exponent", in: strings.Replace(deploy, "%s", "1e1", 1), replicas: 10},
		{name: "not an integer", in: strings.Replace(deploy, "%s", "2.5", 1), err: `f.json:1: spec.replicas: Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 2.5 into Go struct field DeploymentSpec.spec.replicas of type int32`},
		// An IntOrString decodes a number as its int32: a fraction is the
		// decoder's type error at that struct field.
		{name: "IntOrString fraction", in: strings.Replace(deploy, "%s", `1,"strategy":{"rollingUpdate":{"maxUnavailable":0.5}}`, 1),
			err: `f.json:1: spec.strategy.rollingUpdate.maxUnavailable: Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 0.5 into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxUnavailable of type int32`},
		{name: "duplicate", in: "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\n\"labels\":{\"a\":\"1\",\n\"a\":\"2\"}}}",
			warnings: []string{`duplicate key "a" in metadata.labels (line 2 and line 3): kubectl keeps the last value`}},
		{name: "duplicate, strict", strict: true, in: "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\n\"labels\":{\"a\":\"1\",\n\"a\":\"2\"}}}",
			err: `f.json:3: metadata.labels: duplicate key "a" (line 2 and line 3): kubectl keeps the last value`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := typedOpts
			opts.Strict = tc.strict
			var docs []Document
			if err := ReadStream("f.json", strings.NewReader(tc.in), opts, func(d Document) bool { docs = append(docs, d); return true }); err != nil {
				t.Fatal(err)
			}
			if len(docs) != 1 {
				t.Fatalf("%d documents", len(docs))
			}
			d := docs[0]
			var warnings []string
			for _, w := range d.Warnings {
				warnings = append(warnings, w.Msg)
			}
			if !slices.Equal(warnings, tc.warnings) {
				t.Errorf("warnings %q, want %q", warnings, tc.warnings)
			}
			if tc.err != "" {
				if d.Err == nil || d.Err.Error() != tc.err {
					t.Fatalf("error %v, want %s", d.Err, tc.err)
				}
				return
			}
			if d.Err != nil {
				t.Fatalf("error %v", d.Err)
			}
			if dep, ok := d.Object.(*appsv1.Deployment); ok && (dep.Spec.Replicas == nil || *dep.Spec.Replicas != tc.replicas) {
				t.Errorf("replicas %v, want %d", dep.Spec.Replicas, tc.replicas)
			}
		})
	}
}
