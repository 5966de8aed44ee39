package validation

import (
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// ConfigMap, Secret and ServiceAccount validation on create (VAL-61, VAL-63).

// maxDataSize is core.MaxSecretSize: the data of a ConfigMap or Secret
// together at most 1 MiB.
const maxDataSize = 1 * 1024 * 1024

// ConfigMap is ValidateConfigMap: metadata, then data keys (each a valid key,
// none also in binaryData), binaryData keys, then the 1 MiB total (VAL-61).
// Keys are visited in sorted order (upstream's order is random).
func ConfigMap(cm *corev1.ConfigMap) field.ErrorList {
	errs := validateObjectMeta(&cm.ObjectMeta)
	total := 0
	dataPath, binPath := field.NewPath("data"), field.NewPath("binaryData")
	for _, k := range sortedKeys(cm.Data, nil) {
		for _, msg := range namecheck.IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(dataPath.Key(k), k, msg))
		}
		if _, dup := cm.BinaryData[k]; dup {
			errs = append(errs, field.Invalid(dataPath.Key(k), k, "duplicate of key present in binaryData"))
		}
		total += len(cm.Data[k])
	}
	for _, k := range sortedKeys(cm.BinaryData, nil) {
		for _, msg := range namecheck.IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(binPath.Key(k), k, msg))
		}
		total += len(cm.BinaryData[k])
	}
	if total > maxDataSize {
		// upstream's path "" stands for the whole object
		errs = append(errs, field.TooLong(field.NewPath(""), "", maxDataSize))
	}
	return errs
}

// NormalizeSecret does what decoding a v1 Secret does before validation:
// stringData is merged into data (overwriting it) and dropped, and the type
// defaults to Opaque (VAL-61).
func NormalizeSecret(s *corev1.Secret) {
	if len(s.StringData) > 0 {
		if s.Data == nil {
			s.Data = map[string][]byte{}
		}
		for k, v := range s.StringData {
			s.Data[k] = []byte(v)
		}
	}
	s.StringData = nil
	if s.Type == "" {
		s.Type = corev1.SecretTypeOpaque
	}
}

// Secret is ValidateSecret on a normalized Secret (NormalizeSecret):
// metadata, data keys, the 1 MiB total, then what the type requires (VAL-61).
func Secret(s *corev1.Secret) field.ErrorList {
	errs := validateObjectMeta(&s.ObjectMeta)
	dataPath := field.NewPath("data")
	total := 0
	for _, k := range sortedKeys(s.Data, nil) {
		for _, msg := range namecheck.IsConfigMapKey(k) {
			errs = append(errs, field.Invalid(dataPath.Key(k), k, msg))
		}
		total += len(s.Data[k])
	}
	if total > maxDataSize {
		errs = append(errs, field.TooLong(dataPath, "", maxDataSize))
	}
	has := func(k string) bool { _, ok := s.Data[k]; return ok }
	jsonKey := func(k string) {
		if !has(k) {
			errs = append(errs, field.Required(dataPath.Key(k), ""))
			return
		}
		if err := json.Unmarshal(s.Data[k], &map[string]any{}); err != nil {
			errs = append(errs, field.Invalid(dataPath.Key(k), "<secret contents redacted>", err.Error()))
		}
	}
	switch s.Type {
	case corev1.SecretTypeServiceAccountToken:
		if s.Annotations[corev1.ServiceAccountNameKey] == "" {
			errs = append(errs, field.Required(field.NewPath("metadata", "annotations").Key(corev1.ServiceAccountNameKey), ""))
		}
	case corev1.SecretTypeDockercfg:
		jsonKey(corev1.DockerConfigKey)
	case corev1.SecretTypeDockerConfigJson:
		jsonKey(corev1.DockerConfigJsonKey)
	case corev1.SecretTypeBasicAuth:
		// either may be empty, but one must be there
		if !has(corev1.BasicAuthUsernameKey) && !has(corev1.BasicAuthPasswordKey) {
			errs = append(errs, field.Required(dataPath.Key(corev1.BasicAuthUsernameKey), ""),
				field.Required(dataPath.Key(corev1.BasicAuthPasswordKey), ""))
		}
	case corev1.SecretTypeSSHAuth:
		if len(s.Data[corev1.SSHAuthPrivateKey]) == 0 {
			errs = append(errs, field.Required(dataPath.Key(corev1.SSHAuthPrivateKey), ""))
		}
	case corev1.SecretTypeTLS:
		if !has(corev1.TLSCertKey) {
			errs = append(errs, field.Required(dataPath.Key(corev1.TLSCertKey), ""))
		}
		if !has(corev1.TLSPrivateKeyKey) {
			errs = append(errs, field.Required(dataPath.Key(corev1.TLSPrivateKeyKey), ""))
		}
	}
	return errs
}

// ServiceAccount is ValidateServiceAccount: metadata only (VAL-63).
func ServiceAccount(sa *corev1.ServiceAccount) field.ErrorList {
	return validateObjectMeta(&sa.ObjectMeta)
}
