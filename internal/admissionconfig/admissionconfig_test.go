package admissionconfig

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/limitcheck/limitcheck/internal/eval/quota"
)

const (
	wantAnyHint = "want apiserver.config.k8s.io/v1 AdmissionConfiguration, apiserver.k8s.io/v1alpha1 AdmissionConfiguration, " +
		"apiserver.config.k8s.io/v1 ResourceQuotaConfiguration, resourcequota.admission.k8s.io/v1beta1 Configuration " +
		"or resourcequota.admission.k8s.io/v1alpha1 Configuration"
	wantPluginHint = "want apiserver.config.k8s.io/v1 ResourceQuotaConfiguration, resourcequota.admission.k8s.io/v1beta1 Configuration " +
		"or resourcequota.admission.k8s.io/v1alpha1 Configuration"
)

// semanticsExample is the example of docs/behaviour.md CFG-02.
const semanticsExample = `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: ResourceQuota
  configuration:
    apiVersion: apiserver.config.k8s.io/v1
    kind: ResourceQuotaConfiguration
    limitedResources:
    - resource: pods
      matchScopes: [{scopeName: PriorityClass, operator: In, values: [cluster-services]}]
    - resource: persistentvolumeclaims
      matchContains: [.storageclass.storage.k8s.io/requests.storage]
`

var semanticsExampleConfig = &quota.Configuration{LimitedResources: []quota.LimitedResource{
	{
		Resource: "pods",
		MatchScopes: []corev1.ScopedResourceSelectorRequirement{{
			ScopeName: corev1.ResourceQuotaScopePriorityClass,
			Operator:  corev1.ScopeSelectorOpIn,
			Values:    []string{"cluster-services"},
		}},
	},
	{
		Resource:      "persistentvolumeclaims",
		MatchContains: []string{".storageclass.storage.k8s.io/requests.storage"},
	},
}}

// podsOnly is the configuration most cases decode to.
var podsOnly = &quota.Configuration{LimitedResources: []quota.LimitedResource{{Resource: "pods"}}}

// admission wraps an inline plugin configuration (indented YAML) in an
// AdmissionConfiguration of apiVersion.
func admission(apiVersion, configuration string) string {
	return "apiVersion: " + apiVersion + "\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  configuration:\n" + configuration
}

const inlineV1Pods = `    apiVersion: apiserver.config.k8s.io/v1
    kind: ResourceQuotaConfiguration
    limitedResources:
    - resource: pods
`

func TestLoadFile(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // relative to a temporary working directory
		load  string            // the file given to LoadFile
		want  *quota.Configuration
		err   string
	}{
		{
			name:  "CFG-02 example",
			files: map[string]string{"admission.yaml": semanticsExample},
			load:  "admission.yaml",
			want:  semanticsExampleConfig,
		},
		{
			name:  "AdmissionConfiguration apiserver.k8s.io/v1alpha1, inline",
			files: map[string]string{"admission.yaml": admission("apiserver.k8s.io/v1alpha1", inlineV1Pods)},
			load:  "admission.yaml",
			want:  podsOnly,
		},
		{
			// Not in kube-apiserver's configScheme: apiserver v1alpha1 registers
			// AdmissionConfiguration only in apiserver.k8s.io (apis/apiserver/v1alpha1/register.go).
			name:  "AdmissionConfiguration apiserver.config.k8s.io/v1alpha1 is not registered",
			files: map[string]string{"admission.yaml": admission("apiserver.config.k8s.io/v1alpha1", inlineV1Pods)},
			load:  "admission.yaml",
			err:   `admission.yaml: no kind "AdmissionConfiguration" is registered for version "apiserver.config.k8s.io/v1alpha1"; ` + wantAnyHint,
		},
		{
			name: "inline resourcequota.admission.k8s.io/v1alpha1 Configuration",
			files: map[string]string{"admission.yaml": admission("apiserver.config.k8s.io/v1", `    apiVersion: resourcequota.admission.k8s.io/v1alpha1
    kind: Configuration
    limitedResources:
    - resource: pods
`)},
			load: "admission.yaml",
			want: podsOnly,
		},
		{
			name: "path relative to the configuration file's directory",
			files: map[string]string{
				"conf/admission.yaml": "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  path: rq/quota.yaml\n",
				"conf/rq/quota.yaml": `apiVersion: resourcequota.admission.k8s.io/v1beta1
kind: Configuration
limitedResources:
- apiGroup: resource.k8s.io
  resource: resourceclaims
  matchContains: [gpu.example.com]
`,
			},
			load: "conf/admission.yaml",
			want: &quota.Configuration{LimitedResources: []quota.LimitedResource{
				{APIGroup: "resource.k8s.io", Resource: "resourceclaims", MatchContains: []string{"gpu.example.com"}},
			}},
		},
		{
			name: "path to a JSON ResourceQuotaConfiguration",
			files: map[string]string{
				"admission.yaml": "apiVersion: apiserver.k8s.io/v1alpha1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  path: rq.json\n",
				"rq.json":        `{"apiVersion":"apiserver.config.k8s.io/v1","kind":"ResourceQuotaConfiguration","limitedResources":[{"resource":"pods"}]}`,
			},
			load: "admission.yaml",
			want: podsOnly,
		},
		{
			name: "configuration wins over path",
			files: map[string]string{"admission.yaml": `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: ResourceQuota
  path: does-not-exist.yaml
  configuration:
` + inlineV1Pods},
			load: "admission.yaml",
			want: podsOnly,
		},
		{
			name: "only the first ResourceQuota entry counts, even an empty one",
			files: map[string]string{"admission.yaml": `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: ResourceQuota
- name: ResourceQuota
  configuration:
` + inlineV1Pods},
			load: "admission.yaml",
			want: &quota.Configuration{},
		},
		{
			name: "no ResourceQuota entry: empty configuration, other plugins not looked at",
			files: map[string]string{"admission.yaml": `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: EventRateLimit
  configuration: {bogus: true}
- name: resourcequota
  path: does-not-exist.yaml
`},
			load: "admission.yaml",
			want: &quota.Configuration{},
		},
		{
			name:  "no plugins: empty configuration",
			files: map[string]string{"admission.yaml": "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\n"},
			load:  "admission.yaml",
			want:  &quota.Configuration{},
		},
		{
			name:  "configuration: null falls back to path, then to the empty configuration",
			files: map[string]string{"admission.yaml": admission("apiserver.config.k8s.io/v1", "    null\n")},
			load:  "admission.yaml",
			want:  &quota.Configuration{},
		},
		{
			name: "bare ResourceQuotaConfiguration apiserver.config.k8s.io/v1",
			files: map[string]string{"rq.yaml": `apiVersion: apiserver.config.k8s.io/v1
kind: ResourceQuotaConfiguration
limitedResources:
- resource: pods
`},
			load: "rq.yaml",
			want: podsOnly,
		},
		{
			name: "bare Configuration resourcequota.admission.k8s.io/v1beta1",
			files: map[string]string{"rq.yaml": `apiVersion: resourcequota.admission.k8s.io/v1beta1
kind: Configuration
limitedResources:
- resource: pods
`},
			load: "rq.yaml",
			want: podsOnly,
		},
		{
			name: "bare Configuration resourcequota.admission.k8s.io/v1alpha1",
			files: map[string]string{"rq.yaml": `apiVersion: resourcequota.admission.k8s.io/v1alpha1
kind: Configuration
limitedResources:
- resource: pods
`},
			load: "rq.yaml",
			want: podsOnly,
		},
		{
			name:  "bare configuration without limitedResources",
			files: map[string]string{"rq.yaml": "apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResources: null\n"},
			load:  "rq.yaml",
			want:  &quota.Configuration{},
		},
		{
			name: "JSON AdmissionConfiguration",
			files: map[string]string{"admission.json": `{"apiVersion": "apiserver.config.k8s.io/v1", "kind": "AdmissionConfiguration",
 "plugins": [{"name": "ResourceQuota", "configuration":
   {"apiVersion": "apiserver.config.k8s.io/v1", "kind": "ResourceQuotaConfiguration",
    "limitedResources": [{"resource": "pods"}]}}]}`},
			load: "admission.json",
			want: podsOnly,
		},
		{
			name: "matchScopes are not validated",
			files: map[string]string{"rq.yaml": `apiVersion: apiserver.config.k8s.io/v1
kind: ResourceQuotaConfiguration
limitedResources:
- resource: pods
  matchScopes:
  - {scopeName: PriorityClass, operator: In}
  - {scopeName: Bogus, operator: Weird, values: [x]}
`},
			load: "rq.yaml",
			want: &quota.Configuration{LimitedResources: []quota.LimitedResource{{
				Resource: "pods",
				MatchScopes: []corev1.ScopedResourceSelectorRequirement{
					{ScopeName: "PriorityClass", Operator: "In"},
					{ScopeName: "Bogus", Operator: "Weird", Values: []string{"x"}},
				},
			}}},
		},
		{
			name: "unknown fields in the AdmissionConfiguration",
			files: map[string]string{"admission.yaml": `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
metadata: {name: x}
plugins:
- name: ResourceQuota
  config: {}
`},
			load: "admission.yaml",
			err:  `admission.yaml: strict decoding error: unknown field "metadata", unknown field "plugins[0].config"`,
		},
		{
			name: "unknown fields in an inline configuration",
			files: map[string]string{"admission.yaml": admission("apiserver.config.k8s.io/v1", `    apiVersion: apiserver.config.k8s.io/v1
    kind: ResourceQuotaConfiguration
    limitedResources:
    - resource: pods
      matchScope: []
      matchScopes: [{scopeName: PriorityClass, operator: Exists, value: x}]
`)},
			load: "admission.yaml",
			err: `admission.yaml: plugin ResourceQuota: configuration: strict decoding error: ` +
				`unknown field "limitedResources[0].matchScope", unknown field "limitedResources[0].matchScopes[0].value"`,
		},
		{
			name:  "field names are case-sensitive",
			files: map[string]string{"rq.yaml": "apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nLimitedResources: []\n"},
			load:  "rq.yaml",
			err:   `rq.yaml: strict decoding error: unknown field "LimitedResources"`,
		},
		{
			name: "duplicate YAML key in an inline configuration",
			files: map[string]string{"admission.yaml": admission("apiserver.config.k8s.io/v1", `    apiVersion: apiserver.config.k8s.io/v1
    kind: ResourceQuotaConfiguration
    limitedResources:
    - resource: pods
      resource: services
`)},
			load: "admission.yaml",
			err:  "admission.yaml: strict decoding error: yaml: unmarshal errors:\n  line 10: key \"resource\" already set in map",
		},
		{
			name: "duplicate YAML key and unknown field in a path file",
			files: map[string]string{
				"admission.yaml": "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  path: rq.yaml\n",
				"rq.yaml":        "apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResources:\n- resource: pods\n  resource: x\n  foo: 1\n",
			},
			load: "admission.yaml",
			err: "admission.yaml: plugin ResourceQuota: path \"rq.yaml\": strict decoding error: yaml: unmarshal errors:\n" +
				"  line 5: key \"resource\" already set in map, unknown field \"limitedResources[0].foo\"",
		},
		{
			name: "duplicate JSON field in an inline configuration",
			files: map[string]string{"admission.json": `{"apiVersion":"apiserver.config.k8s.io/v1","kind":"AdmissionConfiguration","plugins":[{"name":"ResourceQuota",` +
				`"configuration":{"apiVersion":"apiserver.config.k8s.io/v1","kind":"ResourceQuotaConfiguration","limitedResources":[{"resource":"pods","resource":"x"}]}}]}`},
			load: "admission.json",
			err:  `admission.json: plugin ResourceQuota: configuration: strict decoding error: duplicate field "limitedResources[0].resource"`,
		},
		{
			name: "missing resource",
			files: map[string]string{"rq.yaml": `apiVersion: apiserver.config.k8s.io/v1
kind: ResourceQuotaConfiguration
limitedResources:
- resource: pods
- apiGroup: storage.k8s.io
  matchContains: [requests.storage]
`},
			load: "rq.yaml",
			err:  "rq.yaml: limitedResources[1].resource: Required value",
		},
		{
			name: "missing resource twice, inline",
			files: map[string]string{"admission.yaml": admission("apiserver.config.k8s.io/v1", `    apiVersion: apiserver.config.k8s.io/v1
    kind: ResourceQuotaConfiguration
    limitedResources:
    - resource: ""
    - resource: pods
    - matchContains: [x]
`)},
			load: "admission.yaml",
			err:  "admission.yaml: plugin ResourceQuota: configuration: [limitedResources[0].resource: Required value, limitedResources[2].resource: Required value]",
		},
		{
			name:  "value of the wrong type",
			files: map[string]string{"rq.yaml": "apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResources:\n- resource: pods\n  matchContains: x\n"},
			load:  "rq.yaml",
			err:   "rq.yaml: json: cannot unmarshal string into Go struct field limitedResource.limitedResources.matchContains of type []string",
		},
		{
			name:  "unknown kind",
			files: map[string]string{"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"},
			load:  "cm.yaml",
			err:   `cm.yaml: no kind "ConfigMap" is registered for version "v1"; ` + wantAnyHint,
		},
		{
			name:  "ResourceQuotaConfiguration in the resourcequota.admission.k8s.io group",
			files: map[string]string{"rq.yaml": "apiVersion: resourcequota.admission.k8s.io/v1beta1\nkind: ResourceQuotaConfiguration\n"},
			load:  "rq.yaml",
			err:   `rq.yaml: no kind "ResourceQuotaConfiguration" is registered for version "resourcequota.admission.k8s.io/v1beta1"; ` + wantAnyHint,
		},
		{
			name:  "inline configuration of the wrong kind",
			files: map[string]string{"admission.yaml": admission("apiserver.config.k8s.io/v1", "    apiVersion: apiserver.config.k8s.io/v1\n    kind: Configuration\n")},
			load:  "admission.yaml",
			err:   `admission.yaml: plugin ResourceQuota: configuration: no kind "Configuration" is registered for version "apiserver.config.k8s.io/v1"; ` + wantPluginHint,
		},
		{
			name: "path file must not be an AdmissionConfiguration",
			files: map[string]string{
				"admission.yaml": "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  path: admission.yaml\n",
			},
			load: "admission.yaml",
			err:  `admission.yaml: plugin ResourceQuota: path "admission.yaml": no kind "AdmissionConfiguration" is registered for version "apiserver.config.k8s.io/v1"; ` + wantPluginHint,
		},
		{
			name:  "inline configuration without kind",
			files: map[string]string{"admission.yaml": admission("apiserver.config.k8s.io/v1", "    {}\n")},
			load:  "admission.yaml",
			err:   "admission.yaml: plugin ResourceQuota: configuration: Object 'Kind' is missing; " + wantPluginHint,
		},
		{
			name:  "inline configuration not an object",
			files: map[string]string{"admission.yaml": admission("apiserver.config.k8s.io/v1", "    [pods]\n")},
			load:  "admission.yaml",
			err:   "admission.yaml: plugin ResourceQuota: configuration: couldn't get version/kind: want an object, got array",
		},
		{
			name:  "missing apiVersion",
			files: map[string]string{"admission.yaml": "kind: AdmissionConfiguration\nplugins: []\n"},
			load:  "admission.yaml",
			err:   "admission.yaml: Object 'apiVersion' is missing",
		},
		{
			name: "missing path file",
			files: map[string]string{
				"conf/admission.yaml": "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  path: rq.yaml\n",
			},
			load: "conf/admission.yaml",
			err:  `conf/admission.yaml: plugin ResourceQuota: path "rq.yaml": open conf/rq.yaml: no such file or directory`,
		},
		{
			name:  "empty path file",
			files: map[string]string{"admission.yaml": "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  path: rq.yaml\n", "rq.yaml": ""},
			load:  "admission.yaml",
			err:   `admission.yaml: plugin ResourceQuota: path "rq.yaml": Object 'Kind' is missing (empty document); ` + wantPluginHint,
		},
		{
			name:  "empty file",
			files: map[string]string{"admission.yaml": "# nothing here\n"},
			load:  "admission.yaml",
			err:   "admission.yaml: Object 'Kind' is missing (empty document); " + wantAnyHint,
		},
		{
			name:  "YAML syntax error",
			files: map[string]string{"admission.yaml": admission("apiserver.config.k8s.io/v1", "    [\n")},
			load:  "admission.yaml",
			err:   "admission.yaml: yaml: line 6: did not find expected node content",
		},
		{
			name:  "JSON syntax error",
			files: map[string]string{"admission.json": `{"apiVersion": "apiserver.config.k8s.io/v1",}`},
			load:  "admission.json",
			err:   "admission.json: couldn't get version/kind; json parse error: invalid character '}' looking for beginning of object key string",
		},
		{
			name: "missing file",
			load: "admission.yaml",
			err:  "open admission.yaml: no such file or directory",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			got, err := LoadFile(tt.load)
			checkResult(t, got, err, tt.want, tt.err)
		})
	}
}

func TestLoadFileAbsolutePath(t *testing.T) {
	dir := t.TempDir()
	rq := filepath.Join(dir, "rq.yaml")
	if err := os.WriteFile(rq, []byte("apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResources: [{resource: pods}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	adm := filepath.Join(t.TempDir(), "admission.yaml")
	if err := os.WriteFile(adm, []byte("apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  path: "+rq+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LoadFile(adm)
	checkResult(t, got, err, podsOnly, "")
}

func TestFromDocument(t *testing.T) {
	tests := []struct {
		name       string
		apiVersion string
		kind       string
		json       string
		want       *quota.Configuration
		ok         bool
		err        string
	}{
		{
			name:       "ResourceQuotaConfiguration",
			apiVersion: "apiserver.config.k8s.io/v1",
			kind:       "ResourceQuotaConfiguration",
			json:       `{"apiVersion":"apiserver.config.k8s.io/v1","kind":"ResourceQuotaConfiguration","limitedResources":[{"resource":"pods"}]}`,
			want:       podsOnly,
			ok:         true,
		},
		{
			name:       "v1beta1 Configuration",
			apiVersion: "resourcequota.admission.k8s.io/v1beta1",
			kind:       "Configuration",
			json:       `{"apiVersion":"resourcequota.admission.k8s.io/v1beta1","kind":"Configuration","limitedResources":[{"resource":"pods"}]}`,
			want:       podsOnly,
			ok:         true,
		},
		{
			name:       "v1alpha1 Configuration",
			apiVersion: "resourcequota.admission.k8s.io/v1alpha1",
			kind:       "Configuration",
			json:       `{"apiVersion":"resourcequota.admission.k8s.io/v1alpha1","kind":"Configuration"}`,
			want:       &quota.Configuration{},
			ok:         true,
		},
		{
			name:       "AdmissionConfiguration",
			apiVersion: "apiserver.config.k8s.io/v1",
			kind:       "AdmissionConfiguration",
			json: `{"apiVersion":"apiserver.config.k8s.io/v1","kind":"AdmissionConfiguration","plugins":[{"name":"ResourceQuota","configuration":` +
				`{"apiVersion":"apiserver.config.k8s.io/v1","kind":"ResourceQuotaConfiguration","limitedResources":[{"resource":"pods"}]}}]}`,
			want: podsOnly,
			ok:   true,
		},
		{
			name:       "AdmissionConfiguration without a ResourceQuota entry",
			apiVersion: "apiserver.k8s.io/v1alpha1",
			kind:       "AdmissionConfiguration",
			json:       `{"apiVersion":"apiserver.k8s.io/v1alpha1","kind":"AdmissionConfiguration","plugins":[{"name":"LimitRanger"}]}`,
			want:       &quota.Configuration{},
			ok:         true,
		},
		{
			name:       "missing resource",
			apiVersion: "apiserver.config.k8s.io/v1",
			kind:       "ResourceQuotaConfiguration",
			json:       `{"apiVersion":"apiserver.config.k8s.io/v1","kind":"ResourceQuotaConfiguration","limitedResources":[{"resource":"pods"},{"apiGroup":"x"}]}`,
			ok:         true,
			err:        "limitedResources[1].resource: Required value",
		},
		{
			name:       "unknown field",
			apiVersion: "resourcequota.admission.k8s.io/v1beta1",
			kind:       "Configuration",
			json:       `{"apiVersion":"resourcequota.admission.k8s.io/v1beta1","kind":"Configuration","limitedResource":[]}`,
			ok:         true,
			err:        `strict decoding error: unknown field "limitedResource"`,
		},
		{
			name:       "missing path file",
			apiVersion: "apiserver.config.k8s.io/v1",
			kind:       "AdmissionConfiguration",
			json:       `{"apiVersion":"apiserver.config.k8s.io/v1","kind":"AdmissionConfiguration","plugins":[{"name":"ResourceQuota","path":"does-not-exist.yaml"}]}`,
			ok:         true,
			err:        `plugin ResourceQuota: path "does-not-exist.yaml": open does-not-exist.yaml: no such file or directory`,
		},
		{
			name:       "other kind",
			apiVersion: "v1",
			kind:       "ConfigMap",
			json:       `{"apiVersion":"v1","kind":"ConfigMap"}`,
		},
		{
			name:       "AdmissionConfiguration apiserver.config.k8s.io/v1alpha1 is not a configuration kind",
			apiVersion: "apiserver.config.k8s.io/v1alpha1",
			kind:       "AdmissionConfiguration",
			json:       `{"apiVersion":"apiserver.config.k8s.io/v1alpha1","kind":"AdmissionConfiguration"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			got, ok, err := FromDocument(tt.apiVersion, tt.kind, []byte(tt.json))
			if ok != tt.ok {
				t.Errorf("ok = %v, want %v", ok, tt.ok)
			}
			checkResult(t, got, err, tt.want, tt.err)
		})
	}
}

func TestFromFileDocumentResolvesPathAgainstTheFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "rq.yaml"), []byte("apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResources: [{resource: pods}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	got, ok, err := FromFileDocument(filepath.Join(dir, "manifests.yaml"), "apiserver.config.k8s.io/v1", "AdmissionConfiguration",
		[]byte(`{"apiVersion":"apiserver.config.k8s.io/v1","kind":"AdmissionConfiguration","plugins":[{"name":"ResourceQuota","path":"rq.yaml"}]}`))
	if !ok {
		t.Error("ok = false")
	}
	checkResult(t, got, err, podsOnly, "")
}

func TestIsConfigKind(t *testing.T) {
	tests := []struct {
		apiVersion, kind string
		want             bool
	}{
		{apiVersion: "apiserver.config.k8s.io/v1", kind: "AdmissionConfiguration", want: true},
		{apiVersion: "apiserver.k8s.io/v1alpha1", kind: "AdmissionConfiguration", want: true},
		{apiVersion: "apiserver.config.k8s.io/v1", kind: "ResourceQuotaConfiguration", want: true},
		{apiVersion: "resourcequota.admission.k8s.io/v1beta1", kind: "Configuration", want: true},
		{apiVersion: "resourcequota.admission.k8s.io/v1alpha1", kind: "Configuration", want: true},
		{apiVersion: "apiserver.config.k8s.io/v1alpha1", kind: "AdmissionConfiguration"},
		{apiVersion: "apiserver.config.k8s.io/v1beta1", kind: "AdmissionConfiguration"},
		{apiVersion: "apiserver.k8s.io/v1", kind: "AdmissionConfiguration"},
		{apiVersion: "apiserver.config.k8s.io/v1", kind: "Configuration"},
		{apiVersion: "resourcequota.admission.k8s.io/v1", kind: "Configuration"},
		{apiVersion: "resourcequota.admission.k8s.io/v1beta1", kind: "ResourceQuotaConfiguration"},
		{apiVersion: "apiserver.config.k8s.io/v1", kind: "resourcequotaconfiguration"},
		{apiVersion: "v1", kind: "ResourceQuota"},
	}
	for _, tt := range tests {
		if got := IsConfigKind(tt.apiVersion, tt.kind); got != tt.want {
			t.Errorf("IsConfigKind(%q, %q) = %v, want %v", tt.apiVersion, tt.kind, got, tt.want)
		}
	}
}

func checkResult(t *testing.T, got *quota.Configuration, err error, want *quota.Configuration, wantErr string) {
	t.Helper()
	if wantErr != "" {
		if err == nil {
			t.Fatalf("err = nil, want %q (config %#v)", wantErr, got)
		}
		if err.Error() != wantErr {
			t.Fatalf("err:\n got %q\nwant %q", err.Error(), wantErr)
		}
		if got != nil {
			t.Errorf("config = %#v, want nil with an error", got)
		}
		return
	}
	if err != nil {
		t.Fatalf("err = %q, want none", err.Error())
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("config:\n got %#v\nwant %#v", got, want)
	}
}

// PS-04: the PodSecurity entry of an AdmissionConfiguration, inline or by
// path; none, or another kind of file, is the plugin's default.
func TestLoadPodSecurity(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const psc = "apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\ndefaults: {enforce: baseline, warn: restricted}\nexemptions: {namespaces: [kube-system], runtimeClasses: [kata]}\n"
	write("ps.yaml", psc)
	inline := write("inline.yaml", "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  configuration:\n    apiVersion: pod-security.admission.config.k8s.io/v1\n    kind: PodSecurityConfiguration\n    defaults: {enforce: baseline, warn: restricted}\n    exemptions: {namespaces: [kube-system], runtimeClasses: [kata]}\n")
	byPath := write("path.yaml", "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  configuration: {apiVersion: apiserver.config.k8s.io/v1, kind: ResourceQuotaConfiguration}\n- name: PodSecurity\n  path: ps.yaml\n")
	for _, p := range []string{inline, byPath} {
		cfg, err := LoadPodSecurity(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if cfg == nil || !cfg.NamespaceExempt("kube-system") || cfg.NamespaceExempt("apps") || cfg.Defaults().Enforce() != "baseline:latest" {
			t.Errorf("%s: %+v, want baseline defaults, kube-system exempt", p, cfg)
		}
	}
	none := write("none.yaml", "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  configuration: {apiVersion: apiserver.config.k8s.io/v1, kind: ResourceQuotaConfiguration}\n")
	if cfg, err := LoadPodSecurity(none); cfg != nil || err != nil {
		t.Errorf("no PodSecurity entry: %+v, %v", cfg, err)
	}
	bad := write("bad.yaml", "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  configuration:\n    apiVersion: pod-security.admission.config.k8s.io/v1\n    kind: PodSecurityConfiguration\n    defaults: {enforce: strict}\n")
	if _, err := LoadPodSecurity(bad); err == nil || !strings.Contains(err.Error(), "plugin PodSecurity: configuration: ") || !strings.Contains(err.Error(), "strict") {
		t.Errorf("invalid level: %v", err)
	}
}
