package load

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

func TestQuantityHint(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"512MB", "512Mi or 512M"},
		{"512mb", "512Mi or 512M"},
		{"1g", "1Gi or 1G"},
		{"1K", "1Ki or 1k"},
		{"1kb", "1Ki or 1k"},
		{"2GiB", "2Gi"},
		{"512mi", "512Mi"},
		{"4TI", "4Ti"},
		{"1024b", "1024"},
		{"64 bytes", "64"},
		{"512 Mi", "512Mi"},
		{"500 m", "500m"},
		{"-1Gb", "-1Gi or -1G"},
		// Nothing clear to suggest.
		{"1.5.Gi", ""},
		{"0.5cores", ""},
		{"1 cpu", ""},
		{"Gi", ""},
		{"", ""},
		{"512Mi", ""}, // already right
	} {
		if got := quantityHint(tc.in); got != tc.want {
			t.Errorf("quantityHint(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFieldHint(t *testing.T) {
	pod := reflect.TypeFor[corev1.Pod]()
	deploy := reflect.TypeFor[appsv1.Deployment]()
	for _, tc := range []struct {
		root       reflect.Type
		path, want string
	}{
		{pod, "spec.containers[0].resource", `did you mean "resources"?`},
		{pod, "spec.containers[0].Resources", `did you mean "resources"?`},
		{pod, "spec.containers[0].imagePullPolice", `did you mean "imagePullPolicy"?`},
		{pod, "spec.containers[0].env[1].valeu", `did you mean "value"?`},
		{pod, "spec.contianers", `did you mean "containers"?`},
		{pod, "spec.containers[0].limits", "limits belongs under resources: check the indentation"},
		{pod, "spec.image", "image belongs under containers: check the indentation"},
		{deploy, "spec.template.containers", "containers belongs under spec: check the indentation"},
		{pod, "spec.containers[0].ports[0].resources", "resources belongs to spec.containers[0], not to ports[0]: check the indentation"},
		{pod, "metadata.lables", `did you mean "labels"?`},
		{pod, "spec.securityContext.allowPrivilegeEscalation", "allowPrivilegeEscalation is set per container, in spec.containers[*].securityContext, not in the Pod's securityContext"},
		{pod, "spec.securityContext.capabilities", "capabilities is set per container, in spec.containers[*].securityContext, not in the Pod's securityContext"},
		{deploy, "spec.template.spec.initContainers[1].securityContext.fsGroup", "fsGroup is set for the whole Pod, in spec.template.spec.securityContext, not in a container's"},
		{pod, "spec.containers[0].securityContext.sysctls", "sysctls is set for the whole Pod, in spec.securityContext, not in a container's"},
		// Nothing close: no hint rather than a wrong one.
		{pod, "spec.containers[0].sizeLimitBytes", ""},
		{pod, "spec.zz", ""},
		{pod, "nonsense.more", ""},
		{pod, "", ""},
	} {
		if got := fieldHint(tc.root, tc.path); got != tc.want {
			t.Errorf("fieldHint(%s, %q) = %q, want %q", tc.root.Name(), tc.path, got, tc.want)
		}
	}
}

func TestQuotedHint(t *testing.T) {
	for _, tc := range []struct{ expected, raw, want string }{
		{"integer", `"3"`, " (a quoted value is a string: write 3 without quotes)"},
		{"non-negative integer", `"8080"`, " (a quoted value is a string: write 8080 without quotes)"},
		{"number", `"0.5"`, " (a quoted value is a string: write 0.5 without quotes)"},
		{"boolean", `"true"`, " (a quoted value is a string: write true without quotes)"},
		{"integer", `"two"`, ""},
		{"integer", `"3.5"`, ""},
		{"boolean", `"yes"`, ""},
		{"integer", `true`, ""},
		{"string", `"3"`, ""},
	} {
		if got := quotedHint(tc.expected, []byte(tc.raw)); got != tc.want {
			t.Errorf("quotedHint(%q, %s) = %q, want %q", tc.expected, tc.raw, got, tc.want)
		}
	}
}

// TestRenamedFields holds the table of fields older versions had to the
// served types: each names a struct of the served version that indeed
// lacks the field, and fieldHint gives the explanation.
func TestRenamedFields(t *testing.T) {
	types := map[string]reflect.Type{}
	for _, ty := range []reflect.Type{
		reflect.TypeFor[networkingv1.IngressBackend](),
		reflect.TypeFor[networkingv1.IngressSpec](),
		reflect.TypeFor[autoscalingv2.HorizontalPodAutoscalerSpec](),
	} {
		types[ty.PkgPath()+"."+ty.Name()] = ty
	}
	for key, want := range renamed {
		i := strings.LastIndexByte(key, '.')
		ty, ok := types[key[:i]]
		if !ok {
			t.Errorf("%s: no such type in the test's list", key)
			continue
		}
		if _, ok := structFields(ty)[key[i+1:]]; ok {
			t.Errorf("%s: the served type has the field: the entry is wrong", key)
		}
		if want == "" {
			t.Errorf("%s: empty explanation", key)
		}
	}
	ingress := reflect.TypeFor[networkingv1.Ingress]()
	for _, tc := range []struct {
		root       reflect.Type
		path, want string
	}{
		{ingress, "spec.rules[0].http.paths[0].backend.serviceName", "networking.k8s.io/v1 names the Service in service.name"},
		{ingress, "spec.rules[0].http.paths[0].backend.servicePort", "networking.k8s.io/v1 gives the port as service.port.number or service.port.name"},
		{ingress, "spec.backend", `did you mean "defaultBackend"? networking.k8s.io/v1 renamed it`},
		{reflect.TypeFor[autoscalingv2.HorizontalPodAutoscaler](), "spec.targetCPUUtilizationPercentage", "autoscaling/v2 sets the CPU target in metrics; the field is autoscaling/v1's"},
	} {
		if got := fieldHint(tc.root, tc.path); got != tc.want {
			t.Errorf("fieldHint(%s, %q) = %q, want %q", tc.root.Name(), tc.path, got, tc.want)
		}
	}
}

func TestTemplateHint(t *testing.T) {
	const want = " (an unrendered template: check what it renders to, e.g. helm template CHART | limitcheck check -)"
	const jinja = " (an unrendered template: {% … %} is a Jinja tag; check what it renders to)"
	for _, tc := range []struct{ text, want string }{
		{"replicas: {{ .Values.replicas }}\n", want},
		{"{{- if .Values.enabled }}\nkind: Service\n", want},
		{"data: {a: {b: c}}\n", ""},
		{"", ""},
		// Jinja (a documentation snippet's {% raw %}, an Ansible role's
		// manifest), whose expressions are also {{ … }}.
		{"{% raw %}\nkind: ConfigMap\ndata:\n  a: \"{{ .value }}\"\n{% endraw %}\n", jinja},
		{"{%", jinja},
	} {
		if got := templateHint([]byte(tc.text)); got != tc.want {
			t.Errorf("templateHint(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// A stream that starts with a template action ({{- if … }}) is read as
// JSON by kubectl, then as YAML; both fail, and the error is JSON's, with
// the template hint, also when the two braces arrive in separate reads.
func TestTemplateActionIsNotJSON(t *testing.T) {
	const text = "{{- if .Values.enabled }}\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n{{- end }}\n"
	dir := writeTree(t, map[string]string{"t.yaml": text})
	const want = ": json: offset 2: invalid character '{' looking for beginning of object key string (an unrendered template: check what it renders to, e.g. helm template CHART | limitcheck check -)"
	checkEvents(t, walkEvents(t, dir, []string{filepath.Join(dir, "t.yaml")}, nil, Options{}), []string{"error t.yaml:1: error parsing t.yaml" + want})
	checkEvents(t, walkEvents(t, dir, []string{"-"}, iotest.OneByteReader(strings.NewReader(text)), Options{}), []string{"error <stdin>:1: error parsing STDIN" + want})
}

func TestSubstitutionHint(t *testing.T) {
	const want = " (an unsubstituted variable: Flux's postBuild or envsubst fills in ${…} before apply; check what it renders to)"
	for _, tc := range []struct{ raw, want string }{
		{`"${REPLICAS}"`, want},
		{`"${VOLSYNC_CAPACITY:-1Gi}"`, want},
		{`"${APP}-data"`, want},
		{`"${X:=1}"`, want},
		{`"$REPLICAS"`, ""}, // not the form Flux substitutes
		{`"${}"`, ""},
		{`3`, ""},
		{`"3"`, ""},
	} {
		if got := substitutionHint([]byte(tc.raw)); got != tc.want {
			t.Errorf("substitutionHint(%s) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

// IN-05: plain keys YAML 1.1 reads as booleans or numbers are warned of;
// quoted keys, block scalar lines and keys kept as written are not.
func TestRenamedKeyWarnings(t *testing.T) {
	text := "data:\n  on: push\n  - n: 1\n  0755: mode\n  '0644': quoted\n  script: |\n    yes: inside\n    no: inside\n  1.0: one\n  true: same\n  10: same\n  nested:\n    - Off: x\n  flow: {n: 1, 'y': 2, a: \"on: x\", b: {no: 3}}\n"
	var got []string
	for _, w := range renamedKeyWarnings([]byte(text), 10) {
		got = append(got, fmt.Sprintf("%d %s", w.Line, w.Msg))
	}
	want := []string{
		`11 key on (line 11): YAML reads the unquoted key as the boolean true, which kubectl sends as "true": write "on" to keep the key`,
		`12 key n (line 12): YAML reads the unquoted key as the boolean false, which kubectl sends as "false": write "n" to keep the key`,
		`13 key 0755 (line 13): YAML reads the unquoted key as the number 493, which kubectl sends as "493": write "0755" to keep the key`,
		`18 key 1.0 (line 18): YAML reads the unquoted key as the number 1, which kubectl sends as "1": write "1.0" to keep the key`,
		`22 key Off (line 22): YAML reads the unquoted key as the boolean false, which kubectl sends as "false": write "Off" to keep the key`,
		`23 key n (line 23): YAML reads the unquoted key as the boolean false, which kubectl sends as "false": write "n" to keep the key`,
		`23 key no (line 23): YAML reads the unquoted key as the boolean false, which kubectl sends as "false": write "no" to keep the key`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
