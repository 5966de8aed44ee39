package eval

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"

	crdschema "github.com/limitcheck/limitcheck/internal/eval/crd"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/eval/validation"
)

// customSchema is the schema a custom resource is checked with: its CRD's,
// when the CRD is in the input (apis.Catalog.AddCRD) and the resource was
// decoded whole (NewCustomObject); nil otherwise.
func (e *Engine) customSchema(u *unstructured.Unstructured) (*crdschema.Schema, bool) {
	gvk := u.GroupVersionKind()
	return e.catalog().Schema(gvk.GroupVersion().String(), gvk.Kind)
}

// decodeCustom is what kube-apiserver's decoding of a custom resource does
// under strict field validation: the fields its schema neither declares nor
// preserves are a 400 (VAL-76); otherwise the schema's defaults are set
// (VAL-77).
func decodeCustom(u *unstructured.Unstructured, s *crdschema.Schema) *status.Denial {
	gvk := u.GroupVersionKind()
	unknown := metadataUnknown(u.Object)
	if pruned := s.Prune(u.Object); len(pruned) > 0 {
		unknown = append(unknown, pruned...)
	}
	embedded, err := s.EmbeddedUnknown(u.Object)
	if err != nil {
		return status.BadRequest(status.StageDecoding, fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, gvk.Kind, err))
	}
	unknown = append(unknown, embedded...)
	if len(unknown) > 0 {
		parts := make([]string, len(unknown))
		for i, p := range unknown {
			parts[i] = fmt.Sprintf("unknown field %q", p)
		}
		return status.BadRequest(status.StageDecoding, fmt.Sprintf("%s in version %q cannot be handled as a %s: strict decoding error: %s",
			gvk.Kind, gvk.Version, gvk.Kind, strings.Join(parts, ", ")))
	}
	s.Default(u.Object)
	return nil
}

// metadataUnknown returns the paths of the fields of the resource's metadata
// that ObjectMeta does not have ("metadata.labelz"), which kube-apiserver
// lists before the schema's; their order is that of the keys, sorted.
func metadataUnknown(obj map[string]any) []string {
	md, ok := obj["metadata"]
	if !ok {
		return nil
	}
	return crdschema.MetadataUnknown("metadata", md)
}

// validateCustom is the custom resource strategy's validation on create
// (VAL-78): a status the status subresource owns is dropped first; then the
// metadata (a DNS-subdomain name; no namespace for a cluster-scoped
// resource), the schema, the list types, and, when an error blocks the
// schema's x-kubernetes-validations rules, that they were not checked.
func validateCustom(u *unstructured.Unstructured, s *crdschema.Schema, statusSubresource, clusterScoped bool) field.ErrorList {
	if statusSubresource {
		delete(u.Object, "status")
	}
	gk := u.GroupVersionKind().GroupKind()
	rules := validation.MetaRulesFor(gk)
	rules.ClusterScoped = clusterScoped
	errs := validation.ObjectMeta(u, rules, field.NewPath("metadata"))
	errs = append(errs, s.Validate(u.Object)...)
	errs = append(errs, s.Embedded(u.Object, embeddedMeta)...)
	errs = append(errs, s.ListTypes(u.Object)...)
	if e := s.SkippedRules(errs); e != nil {
		errs = append(errs, e)
	}
	return errs
}

// embeddedMeta validates the metadata of an embedded resource as
// apimachinery's ValidateObjectMeta does with a path-segment name: its
// namespace only when it has one.
func embeddedMeta(m *metav1.ObjectMeta, p *field.Path) field.ErrorList {
	if m.Namespace == "" {
		m.Namespace = "default" // not required: a valid stand-in adds no error
	}
	return validation.ObjectMeta(m, validation.MetaRules{Name: validation.NamePathSegment}, p)
}

// NewCustomObject is the object a loader decodes a custom resource into
// when its CRD gives it a schema: the whole content, to be checked against
// it; nil otherwise.
func NewCustomObject(apis interface {
	Schema(apiVersion, kind string) (*crdschema.Schema, bool)
}, apiVersion, kind string) *unstructured.Unstructured {
	if s, _ := apis.Schema(apiVersion, kind); s != nil {
		return &unstructured.Unstructured{}
	}
	return nil
}
