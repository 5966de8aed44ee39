// Package admissionconfig reads the ResourceQuota admission plugin's
// configuration the way kube-apiserver 1.36 does (docs/behaviour.md CFG-01,
// CFG-02), without linking k8s.io/apiserver:
//
//   - an AdmissionConfiguration (apiserver.config.k8s.io/v1 or
//     apiserver.k8s.io/v1alpha1) is decoded strictly; the first plugins[]
//     entry named exactly "ResourceQuota" supplies the configuration, inline
//     (configuration) or from a file (path, relative to the directory of the
//     file that names it); configuration wins over path. No such entry, or an
//     entry with neither, gives the empty configuration. Other plugins'
//     entries are not looked at (apiserver admission/config.go
//     ReadAdmissionConfiguration, configProvider.ConfigFor,
//     GetAdmissionPluginConfigurationFor).
//   - the plugin configuration is a ResourceQuotaConfiguration
//     (apiserver.config.k8s.io/v1) or a Configuration
//     (resourcequota.admission.k8s.io/v1beta1 or v1alpha1), decoded strictly
//     (unknown and duplicate fields are errors) and validated: every
//     limitedResources[i].resource is required. matchScopes are kept as
//     written and not validated (resourcequota config.go LoadConfiguration,
//     apis/resourcequota/validation ValidateConfiguration).
//
// As a convenience LoadFile also accepts a bare plugin configuration in place
// of an AdmissionConfiguration (kube-apiserver itself rejects that).
package admissionconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/limitcheck/limitcheck/internal/eval/podsecurity"
	"github.com/limitcheck/limitcheck/internal/eval/quota"
	"github.com/limitcheck/limitcheck/internal/load"
)

// PluginName is the admission plugin whose entry is read from an
// AdmissionConfiguration.
const PluginName = "ResourceQuota"

// The accepted apiVersion/kind pairs (the schemes kube-apiserver 1.36 decodes
// with: apiserver server/options/admission.go configScheme, resourcequota
// apis/resourcequota/install).
const (
	admissionKind = "AdmissionConfiguration"
	rqKind        = "ResourceQuotaConfiguration"
	legacyRQKind  = "Configuration"

	apiserverConfigV1     = "apiserver.config.k8s.io/v1"
	apiserverV1alpha1     = "apiserver.k8s.io/v1alpha1"
	resourceQuotaV1beta1  = "resourcequota.admission.k8s.io/v1beta1"
	resourceQuotaV1alpha1 = "resourcequota.admission.k8s.io/v1alpha1"
)

// Hints listing the accepted "apiVersion kind" pairs, for error messages.
const (
	wantPlugin = "want " + apiserverConfigV1 + " " + rqKind + ", " +
		resourceQuotaV1beta1 + " " + legacyRQKind + " or " +
		resourceQuotaV1alpha1 + " " + legacyRQKind
	wantAny = "want " + apiserverConfigV1 + " " + admissionKind + ", " +
		apiserverV1alpha1 + " " + admissionKind + ", " +
		apiserverConfigV1 + " " + rqKind + ", " +
		resourceQuotaV1beta1 + " " + legacyRQKind + " or " +
		resourceQuotaV1alpha1 + " " + legacyRQKind
)

func isAdmissionKind(apiVersion, kind string) bool {
	return kind == admissionKind && (apiVersion == apiserverConfigV1 || apiVersion == apiserverV1alpha1)
}

func isPluginKind(apiVersion, kind string) bool {
	switch kind {
	case rqKind:
		return apiVersion == apiserverConfigV1
	case legacyRQKind:
		return apiVersion == resourceQuotaV1beta1 || apiVersion == resourceQuotaV1alpha1
	}
	return false
}

// IsConfigKind reports whether apiVersion/kind is one of the configuration
// kinds: an AdmissionConfiguration or a ResourceQuota plugin configuration.
func IsConfigKind(apiVersion, kind string) bool {
	return isAdmissionKind(apiVersion, kind) || isPluginKind(apiVersion, kind)
}

// LoadFile reads --admission-control-config-file: an AdmissionConfiguration
// (whose ResourceQuota plugin entry has an inline configuration or a path),
// or a bare ResourceQuotaConfiguration / Configuration document. YAML or JSON;
// of a multi-document YAML file only the first document is read, as upstream.
// Every error but a failure to read path itself starts with path.
func LoadFile(path string) (*quota.Configuration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cfg, err := decodeFile(path, data, true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, nil
}

// FromDocument recognises a ResourceQuota configuration document found among
// the ordinary inputs (apiVersion/kind as LoadFile accepts for a bare
// configuration, and AdmissionConfiguration too); ok is false for any other
// kind. json is the document as JSON. A relative plugin path in an
// AdmissionConfiguration is resolved against the working directory; use
// FromFileDocument to resolve it against the document's file. Errors do not
// name a file.
func FromDocument(apiVersion, kind string, json []byte) (cfg *quota.Configuration, ok bool, err error) {
	return FromFileDocument("", apiVersion, kind, json)
}

// FromFileDocument is FromDocument for a document read from file: a relative
// plugin path in an AdmissionConfiguration is resolved against file's
// directory, as kube-apiserver resolves it against the configuration file's.
// Errors do not name file.
func FromFileDocument(file, apiVersion, kind string, js []byte) (cfg *quota.Configuration, ok bool, err error) {
	switch {
	case isAdmissionKind(apiVersion, kind):
		cfg, err = decodeAdmission(file, js, nil)
	case isPluginKind(apiVersion, kind):
		cfg, err = decodePlugin(js, nil)
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	return cfg, true, nil
}

// typeMeta is metav1.TypeMeta without its dependency.
type typeMeta struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

// admissionConfiguration mirrors apiserver/pkg/apis/apiserver/v1 (and
// v1alpha1) AdmissionConfiguration.
type admissionConfiguration struct {
	typeMeta `json:",inline"`
	Plugins  []admissionPluginConfiguration `json:"plugins"`
}

// admissionPluginConfiguration mirrors AdmissionPluginConfiguration;
// configuration is a runtime.Unknown upstream: kept raw, checked only when the
// entry is used.
type admissionPluginConfiguration struct {
	Name          string          `json:"name"`
	Path          string          `json:"path"`
	Configuration json.RawMessage `json:"configuration"`
}

// configuration mirrors resourcequota/apis/resourcequota/v1 (and v1beta1,
// v1alpha1) Configuration.
type configuration struct {
	typeMeta         `json:",inline"`
	LimitedResources []limitedResource `json:"limitedResources"`
}

type limitedResource struct {
	APIGroup      string                                     `json:"apiGroup,omitempty"`
	Resource      string                                     `json:"resource"`
	MatchContains []string                                   `json:"matchContains,omitempty"`
	MatchScopes   []corev1.ScopedResourceSelectorRequirement `json:"matchScopes,omitempty"`
}

// decodeFile decodes the contents of a configuration file: an
// AdmissionConfiguration or, when admission is true, also a bare plugin
// configuration; with admission false only a plugin configuration.
func decodeFile(file string, data []byte, admission bool) (*quota.Configuration, error) {
	js, yamlStrictErr, err := toJSON(data)
	if err != nil {
		return nil, err
	}
	want := wantPlugin
	if admission {
		want = wantAny
	}
	tm, err := interpret(js, want)
	if err != nil {
		return nil, err
	}
	switch {
	case admission && isAdmissionKind(tm.APIVersion, tm.Kind):
		return decodeAdmission(file, js, yamlStrictErr)
	case isPluginKind(tm.APIVersion, tm.Kind):
		return decodePlugin(js, yamlStrictErr)
	}
	return nil, notRegistered(tm, want)
}

// notRegistered is the runtime.Scheme error for an unknown apiVersion/kind,
// with a hint.
func notRegistered(tm typeMeta, want string) error {
	return fmt.Errorf("no kind %q is registered for version %q; %s", tm.Kind, tm.APIVersion, want)
}

// toJSON converts a YAML or JSON file to JSON the way the apimachinery
// universal decoder does: JSON input (first non-space byte '{') is used as
// is; YAML is converted with sigs.k8s.io/yaml (first document only), and its
// duplicate keys, invisible in the converted JSON, are returned as a strict
// decoding error to report together with the JSON decoder's (apimachinery
// serializer/json Serializer.Decode and unmarshal).
func toJSON(data []byte) (js []byte, yamlStrictErr error, err error) {
	if utilyaml.IsJSONBuffer(data) {
		return data, nil, nil
	}
	js, err = yaml.YAMLToJSON(data)
	if err != nil {
		return nil, nil, err
	}
	if _, err := yaml.YAMLToJSONStrict(data); err != nil {
		yamlStrictErr = err
	}
	return js, yamlStrictErr, nil
}

// interpret reads apiVersion and kind; both are required. want is the hint
// for a missing kind.
func interpret(js []byte, want string) (typeMeta, error) {
	var tm typeMeta
	switch t := load.JSONType(js); t {
	case "null", "nothing":
		return tm, errors.New("Object 'Kind' is missing (empty document); " + want)
	case "object":
	default:
		return tm, fmt.Errorf("couldn't get version/kind: want an object, got %s", t)
	}
	// Like apimachinery's SimpleMetaFactory.Interpret (encoding/json).
	if err := json.Unmarshal(js, &tm); err != nil {
		return tm, fmt.Errorf("couldn't get version/kind; json parse error: %w", err)
	}
	switch {
	case tm.Kind == "":
		return tm, errors.New("Object 'Kind' is missing; " + want)
	case tm.APIVersion == "":
		return tm, errors.New("Object 'apiVersion' is missing")
	}
	return tm, nil
}

// strictDecode decodes js into v like apimachinery's strict JSON serializer:
// case-sensitive, unknown and duplicate fields collected into one
// "strict decoding error: ..." (preceded by YAML duplicate keys, if any).
func strictDecode(js []byte, v any, yamlStrictErr error) error {
	strictErrs, err := kjson.UnmarshalStrict(js, v)
	if err != nil {
		return err
	}
	if yamlStrictErr != nil {
		strictErrs = append([]error{yamlStrictErr}, strictErrs...)
	}
	if len(strictErrs) > 0 {
		return runtime.NewStrictDecodingError(strictErrs)
	}
	return nil
}

// decodeAdmission decodes an AdmissionConfiguration and returns the
// configuration of its ResourceQuota entry.
func decodeAdmission(file string, js []byte, yamlStrictErr error) (*quota.Configuration, error) {
	var ac admissionConfiguration
	if err := strictDecode(js, &ac, yamlStrictErr); err != nil {
		return nil, err
	}
	for _, p := range ac.Plugins {
		if p.Name != PluginName {
			continue
		}
		// Only the first entry counts, even one with neither configuration
		// nor path (configProvider.ConfigFor).
		switch {
		case load.JSONType(p.Configuration) != "null" && load.JSONType(p.Configuration) != "nothing":
			cfg, err := decodeInline(p.Configuration)
			if err != nil {
				return nil, fmt.Errorf("plugin %s: configuration: %w", PluginName, err)
			}
			return cfg, nil
		case p.Path != "":
			cfg, err := decodePath(file, p.Path)
			if err != nil {
				return nil, fmt.Errorf("plugin %s: path %q: %w", PluginName, p.Path, err)
			}
			return cfg, nil
		}
		return &quota.Configuration{}, nil
	}
	return &quota.Configuration{}, nil
}

// decodeInline decodes an inline plugin configuration (JSON).
func decodeInline(js []byte) (*quota.Configuration, error) {
	tm, err := interpret(js, wantPlugin)
	if err != nil {
		return nil, err
	}
	if !isPluginKind(tm.APIVersion, tm.Kind) {
		return nil, notRegistered(tm, wantPlugin)
	}
	return decodePlugin(js, nil)
}

// decodePath reads a plugin configuration file named by an
// AdmissionConfiguration in file: a relative path is relative to file's
// directory (admission/config.go makeAbs).
func decodePath(file, path string) (*quota.Configuration, error) {
	if !filepath.IsAbs(path) {
		if dir := filepath.Dir(file); dir != "." {
			path = filepath.Join(dir, path)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return decodeFile(path, data, false)
}

// decodePlugin decodes and validates a plugin configuration whose
// apiVersion/kind has been checked. The versions are identical and convert
// field by field (zz_generated.conversion.go), with no defaults.
func decodePlugin(js []byte, yamlStrictErr error) (*quota.Configuration, error) {
	var c configuration
	if err := strictDecode(js, &c, yamlStrictErr); err != nil {
		return nil, err
	}
	if errs := validate(&c); len(errs) > 0 {
		return nil, errs.ToAggregate()
	}
	cfg := &quota.Configuration{}
	if c.LimitedResources != nil {
		cfg.LimitedResources = make([]quota.LimitedResource, len(c.LimitedResources))
	}
	for i, lr := range c.LimitedResources {
		cfg.LimitedResources[i] = quota.LimitedResource{
			APIGroup:      lr.APIGroup,
			Resource:      lr.Resource,
			MatchContains: lr.MatchContains,
			MatchScopes:   lr.MatchScopes,
		}
	}
	return cfg, nil
}

// validate is upstream's ValidateConfiguration: only resource is checked.
func validate(c *configuration) field.ErrorList {
	var errs field.ErrorList
	fldPath := field.NewPath("limitedResources")
	for i, lr := range c.LimitedResources {
		if len(lr.Resource) == 0 {
			errs = append(errs, field.Required(fldPath.Index(i).Child("resource"), ""))
		}
	}
	return errs
}

// PodSecurityPluginName is the admission plugin whose entry LoadPodSecurity
// reads.
const PodSecurityPluginName = "PodSecurity"

// LoadPodSecurity reads the PodSecurity plugin's configuration (PS-04) from
// --admission-control-config-file: the first plugins[] entry named
// "PodSecurity" of an AdmissionConfiguration, inline or from its path
// (relative to path's directory). It returns nil when the file is not an
// AdmissionConfiguration or has no such entry: the plugin's defaults.
// Errors start with path.
func LoadPodSecurity(path string) (*podsecurity.Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	js, yamlStrictErr, err := toJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var tm typeMeta
	if json.Unmarshal(js, &tm) != nil || !isAdmissionKind(tm.APIVersion, tm.Kind) {
		return nil, nil // LoadFile reports what else is wrong with it
	}
	var ac admissionConfiguration
	if err := strictDecode(js, &ac, yamlStrictErr); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, p := range ac.Plugins {
		if p.Name != PodSecurityPluginName {
			continue
		}
		var cfg *podsecurity.Config
		switch {
		case load.JSONType(p.Configuration) != "null" && load.JSONType(p.Configuration) != "nothing":
			if cfg, err = decodePodSecurity(p.Configuration, nil); err != nil {
				return nil, fmt.Errorf("%s: plugin %s: configuration: %w", path, PodSecurityPluginName, err)
			}
		case p.Path != "":
			file := p.Path
			if !filepath.IsAbs(file) {
				file = filepath.Join(filepath.Dir(path), file)
			}
			data, err := os.ReadFile(file)
			if err == nil {
				var js []byte
				var yamlStrictErr error
				if js, yamlStrictErr, err = toJSON(data); err == nil {
					cfg, err = decodePodSecurity(js, yamlStrictErr)
				}
			}
			if err != nil {
				return nil, fmt.Errorf("%s: plugin %s: path %q: %w", path, PodSecurityPluginName, p.Path, err)
			}
		}
		return cfg, nil
	}
	return nil, nil
}

// podSecurityVersions are the versions of PodSecurityConfiguration
// kube-apiserver 1.36 decodes (pod-security-admission admission/api/scheme).
var podSecurityVersions = []string{
	"pod-security.admission.config.k8s.io/v1", "pod-security.admission.config.k8s.io/v1beta1", "pod-security.admission.config.k8s.io/v1alpha1",
}

// podSecurityConfiguration mirrors PodSecurityConfiguration (its versions
// are identical).
type podSecurityConfiguration struct {
	typeMeta `json:",inline"`
	Defaults struct {
		Enforce        string `json:"enforce,omitempty"`
		EnforceVersion string `json:"enforce-version,omitempty"`
		Audit          string `json:"audit,omitempty"`
		AuditVersion   string `json:"audit-version,omitempty"`
		Warn           string `json:"warn,omitempty"`
		WarnVersion    string `json:"warn-version,omitempty"`
	} `json:"defaults"`
	Exemptions struct {
		Usernames      []string `json:"usernames,omitempty"`
		Namespaces     []string `json:"namespaces,omitempty"`
		RuntimeClasses []string `json:"runtimeClasses,omitempty"`
	} `json:"exemptions"`
}

// decodePodSecurity decodes a PodSecurityConfiguration strictly, then
// defaults and validates it (podsecurity.NewConfig).
func decodePodSecurity(js []byte, yamlStrictErr error) (*podsecurity.Config, error) {
	want := "want PodSecurityConfiguration of " + strings.Join(podSecurityVersions, ", ")
	tm, err := interpret(js, want)
	if err != nil {
		return nil, err
	}
	if tm.Kind != "PodSecurityConfiguration" || !slices.Contains(podSecurityVersions, tm.APIVersion) {
		return nil, notRegistered(tm, want)
	}
	var c podSecurityConfiguration
	if err := strictDecode(js, &c, yamlStrictErr); err != nil {
		return nil, err
	}
	d, x := c.Defaults, c.Exemptions
	return podsecurity.NewConfig(podsecurity.Settings{
		Enforce: d.Enforce, EnforceVersion: d.EnforceVersion, Audit: d.Audit, AuditVersion: d.AuditVersion, Warn: d.Warn, WarnVersion: d.WarnVersion,
		Usernames: x.Usernames, Namespaces: x.Namespaces, RuntimeClasses: x.RuntimeClasses,
	})
}

// PodSecurityConfig decodes a PodSecurityConfiguration document (JSON or
// YAML): what the plugin's entry of an AdmissionConfiguration holds.
func PodSecurityConfig(data []byte) (*podsecurity.Config, error) {
	js, yamlStrictErr, err := toJSON(data)
	if err != nil {
		return nil, err
	}
	return decodePodSecurity(js, yamlStrictErr)
}
