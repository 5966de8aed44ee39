package eval

import (
	"fmt"
	"math"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
	crdschema "github.com/limitcheck/limitcheck/internal/eval/crd"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/eval/validation"
	"github.com/limitcheck/limitcheck/internal/kubetext"
	"github.com/limitcheck/limitcheck/internal/rules"
)

// customSchema is the schema a custom resource is checked with: its CRD's,
// when the CRD is in the input (apis.Catalog.AddCRD) and the resource was
// decoded whole (NewCustomObject); nil otherwise. err (an internal error)
// says why the CRD's schema could not be read.
func (e *Engine) customSchema(u *unstructured.Unstructured) (*crdschema.Schema, bool, error) {
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
		return status.BadRequest(status.StageDecoding, kubetext.CannotHandle(gvk.Kind, gvk.Version, gvk.Kind, err.Error()))
	}
	unknown = append(unknown, embedded...)
	if len(unknown) > 0 {
		parts := make([]string, len(unknown))
		for i, p := range unknown {
			parts[i] = fmt.Sprintf("unknown field %q", p)
		}
		return status.BadRequest(status.StageDecoding, kubetext.CannotHandle(gvk.Kind, gvk.Version, gvk.Kind, kubetext.StrictDecoding(parts)))
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

// RuleEvaluator is limitcheck's CEL. EvaluateRules evaluates the
// x-kubernetes-validations rules of a CRD's schema on a custom resource
// (VAL-78), as kube-apiserver's CEL validator does on create: key names the
// schema (its digest), schema is its openAPIV3Schema as JSON, obj the
// defaulted object. CompileExpression compiles an expression of an object
// being validated (VAL-35, VAL-83) and returns its errors at p;
// CompilePolicy those of an admission policy (VAL-106), by path;
// CompileCRD the rules of a new CRD's schema (v1 JSON) at p, as its
// validation compiles them (VAL-95). Each returns an error when CEL could
// not be run. limitcheck's own (package rules) runs
// CEL in a helper process, so that runs without CEL do not pay its start-up.
type RuleEvaluator interface {
	EvaluateRules(key string, schema []byte, obj map[string]any) (field.ErrorList, error)
	CompileExpression(kind rules.Expression, expression string, p *field.Path) (field.ErrorList, error)
	CompilePolicy(policy *rules.PolicyCompile) (map[string]field.ErrorList, error)
	CompileCRD(schema []byte, p *field.Path, schemaErrs []string) (field.ErrorList, error)
}

// validateCustom is the custom resource strategy's validation on create
// (VAL-78): a status the status subresource owns is dropped first; then the
// metadata (a DNS-subdomain name; no namespace for a cluster-scoped
// resource), the schema, the embedded resources and the list types; then
// the schema's x-kubernetes-validations rules, or, when an error blocks
// them, that they were not checked. The warnings say when the rules could
// not be evaluated.
func (e *Engine) validateCustom(u *unstructured.Unstructured, s *crdschema.Schema, statusSubresource, clusterScoped bool) (field.ErrorList, []string) {
	if statusSubresource {
		delete(u.Object, "status")
	}
	gk := u.GroupVersionKind().GroupKind()
	rules := validation.MetaRulesFor(gk)
	rules.ClusterScoped = clusterScoped
	errs := validation.ObjectMeta(u, rules, field.NewPath("metadata"))
	errs = append(errs, s.Validate(u.Object)...)
	if sc := e.catalog().ScaleOf(u.GetAPIVersion(), u.GetKind()); sc != nil {
		errs = append(errs, scaleErrors(u.Object, sc)...)
	}
	errs = append(errs, s.Embedded(u.Object, embeddedMeta)...)
	errs = append(errs, s.ListTypes(u.Object)...)
	if !s.HasRules {
		return errs, nil
	}
	if skipped := s.SkippedRules(errs); skipped != nil {
		return append(errs, skipped), nil
	}
	if e.opts.Rules == nil {
		return errs, []string{rulesNotEvaluated + "limitcheck was run without a rule evaluator"}
	}
	ruleErrs, err := e.opts.Rules.EvaluateRules(s.Digest, s.Source, u.Object)
	if err != nil {
		return errs, []string{rulesNotEvaluated + err.Error()}
	}
	return append(errs, ruleErrs...), nil
}

// scaleErrors checks what the scale subresource reads of a custom resource:
// its spec and status replicas are integers from 0 to the int32 maximum,
// its label selector a string. The paths are the subresource's, written as
// given (.spec.replicas).
func scaleErrors(obj map[string]any, sc *apis.Scale) field.ErrorList {
	var errs field.ErrorList
	for _, p := range []string{sc.SpecReplicasPath, sc.StatusReplicasPath} {
		n, _, err := unstructured.NestedInt64(obj, strings.Split(strings.TrimPrefix(p, "."), ".")...)
		switch {
		case err != nil:
			errs = append(errs, field.Invalid(field.NewPath(p), n, err.Error()))
		case n < 0:
			errs = append(errs, field.Invalid(field.NewPath(p), n, "should be a non-negative integer"))
		case n > math.MaxInt32:
			errs = append(errs, field.Invalid(field.NewPath(p), n, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32)))
		}
	}
	if p := sc.LabelSelectorPath; p != nil {
		s, _, err := unstructured.NestedString(obj, strings.Split(strings.TrimPrefix(*p, "."), ".")...)
		if err != nil {
			errs = append(errs, field.Invalid(field.NewPath(*p), s, err.Error()))
		}
	}
	return errs
}

// rulesNotEvaluated begins the warning on a custom resource whose CRD's
// rules could not be evaluated.
const rulesNotEvaluated = "its CRD's x-kubernetes-validations rules were not evaluated: "

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
	Schema(apiVersion, kind string) (*crdschema.Schema, bool, error)
}, apiVersion, kind string) *unstructured.Unstructured {
	if s, _, err := apis.Schema(apiVersion, kind); s != nil || err != nil {
		return &unstructured.Unstructured{}
	}
	return nil
}
