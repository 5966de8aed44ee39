package validation

import (
	"reflect"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metavalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// PersistentVolumeClaim validation on create (VAL-62): the claim strategy's
// PrepareForCreate (PrepareClaimForCreate) and ValidatePersistentVolumeClaim
// with the create options.

// ClaimOptions are PersistentVolumeClaimSpecValidationOptions as a create sets
// them: from the feature gates, label values in selectors checked.
type ClaimOptions struct {
	// EnableVolumeAttributesClass: the VolumeAttributesClass gate (locked on in 1.36).
	EnableVolumeAttributesClass bool
}

// CreateClaimOptions are the options of a claim (or claim template) create
// in Kubernetes 1.36.
func CreateClaimOptions() ClaimOptions { return ClaimOptions{EnableVolumeAttributesClass: true} }

// sorted as sets.List sorts them
var supportedAccessModes = []string{
	string(corev1.ReadOnlyMany), string(corev1.ReadWriteMany), string(corev1.ReadWriteOnce), string(corev1.ReadWriteOncePod),
}

var supportedVolumeModes = []string{string(corev1.PersistentVolumeBlock), string(corev1.PersistentVolumeFilesystem)}

// PrepareClaimForCreate is what the claim strategy's PrepareForCreate does to
// the spec (with the 1.36 gates: AnyVolumeDataSource on,
// CrossNamespaceVolumeDataSource off): a dataSourceRef naming another
// namespace is dropped; a dataSource other than a claim or a VolumeSnapshot
// without a dataSourceRef is dropped; then whichever of dataSource and
// dataSourceRef is missing is copied from the other (VAL-62).
func PrepareClaimForCreate(spec *corev1.PersistentVolumeClaimSpec) {
	if r := spec.DataSourceRef; r != nil && r.Namespace != nil && *r.Namespace != "" {
		spec.DataSourceRef = nil
	}
	if spec.DataSourceRef == nil && !claimOrSnapshot(spec.DataSource) {
		spec.DataSource = nil
	}
	switch {
	case spec.DataSource != nil && spec.DataSourceRef == nil:
		spec.DataSourceRef = &corev1.TypedObjectReference{Kind: spec.DataSource.Kind, Name: spec.DataSource.Name}
		if g := spec.DataSource.APIGroup; g != nil {
			spec.DataSourceRef.APIGroup = ptrTo(*g)
		}
	case spec.DataSourceRef != nil && spec.DataSource == nil:
		if spec.DataSourceRef.Namespace == nil || *spec.DataSourceRef.Namespace == "" {
			spec.DataSource = &corev1.TypedLocalObjectReference{Kind: spec.DataSourceRef.Kind, Name: spec.DataSourceRef.Name}
			if g := spec.DataSourceRef.APIGroup; g != nil {
				spec.DataSource.APIGroup = ptrTo(*g)
			}
		}
	}
}

func ptrTo[T any](v T) *T { return &v }

func claimOrSnapshot(ds *corev1.TypedLocalObjectReference) bool {
	if ds == nil {
		return false
	}
	group := ""
	if ds.APIGroup != nil {
		group = *ds.APIGroup
	}
	return (ds.Kind == "PersistentVolumeClaim" && group == "") ||
		(ds.Kind == "VolumeSnapshot" && group == "snapshot.storage.k8s.io")
}

// PersistentVolumeClaim is ValidatePersistentVolumeClaim on a defaulted,
// prepared claim (VAL-62).
func PersistentVolumeClaim(pvc *corev1.PersistentVolumeClaim) field.ErrorList {
	errs := validateObjectMeta(&pvc.ObjectMeta)
	return append(errs, PersistentVolumeClaimSpec(&pvc.Spec, field.NewPath("spec"), CreateClaimOptions())...)
}

// PersistentVolumeClaimSpec is ValidatePersistentVolumeClaimSpec: a claim's
// spec, or a StatefulSet volumeClaimTemplate's (spec at p), in upstream order
// (VAL-62).
func PersistentVolumeClaimSpec(spec *corev1.PersistentVolumeClaimSpec, p *field.Path, opts ClaimOptions) field.ErrorList {
	var errs field.ErrorList
	modes := p.Child("accessModes")
	if len(spec.AccessModes) == 0 {
		errs = append(errs, field.Required(modes, "at least 1 access mode is required"))
	}
	if spec.Selector != nil {
		errs = append(errs, LabelSelector(spec.Selector, p.Child("selector"))...)
	}
	rwop, other := false, false
	for _, m := range spec.AccessModes {
		known := contains(supportedAccessModes, string(m))
		if !known {
			errs = append(errs, field.NotSupported(modes, m, supportedAccessModes))
		}
		if m == corev1.ReadWriteOncePod {
			rwop = true
		} else if known {
			other = true
		}
	}
	if rwop && other {
		errs = append(errs, field.Forbidden(modes, "may not use ReadWriteOncePod with other access modes"))
	}

	sp := p.Child("resources").Key(string(corev1.ResourceStorage))
	if q, ok := spec.Resources.Requests[corev1.ResourceStorage]; !ok {
		errs = append(errs, field.Required(sp, ""))
	} else if q.Cmp(resource.Quantity{}) <= 0 {
		errs = append(errs, field.Invalid(sp, q.String(), msgNotPos))
	} else {
		errs = append(errs, validateResourceQuantityValue(corev1.ResourceStorage, q, lazy(sp))...)
	}

	if sc := spec.StorageClassName; sc != nil && *sc != "" {
		for _, msg := range namecheck.NameIsDNSSubdomain(*sc, false) {
			errs = append(errs, field.Invalid(p.Child("storageClassName"), *sc, msg))
		}
	}
	if vm := spec.VolumeMode; vm != nil && !contains(supportedVolumeModes, string(*vm)) {
		errs = append(errs, field.NotSupported(p.Child("volumeMode"), *vm, supportedVolumeModes))
	}

	if ds := spec.DataSource; ds != nil {
		errs = append(errs, validateDataSource(ds.APIGroup, ds.Kind, ds.Name, nil, p.Child("dataSource"))...)
	}
	if r := spec.DataSourceRef; r != nil {
		errs = append(errs, validateDataSource(r.APIGroup, r.Kind, r.Name, r.Namespace, p.Child("dataSourceRef"))...)
	}
	if r := spec.DataSourceRef; r != nil && r.Namespace != nil && *r.Namespace != "" {
		if spec.DataSource != nil {
			errs = append(errs, field.Invalid(p, p.Child("dataSource"), "may not be specified when dataSourceRef.namespace is specified"))
		}
	} else if ds := spec.DataSource; ds != nil && r != nil {
		if !reflect.DeepEqual(ds.APIGroup, r.APIGroup) || ds.Kind != r.Kind || ds.Name != r.Name {
			errs = append(errs, field.Invalid(p, p.Child("dataSource"), "must match dataSourceRef"))
		}
	}
	if vac := spec.VolumeAttributesClassName; vac != nil && *vac != "" && opts.EnableVolumeAttributesClass {
		for _, msg := range namecheck.NameIsDNSSubdomain(*vac, false) {
			errs = append(errs, field.Invalid(p.Child("volumeAttributesClassName"), *vac, msg))
		}
	}
	return errs
}

// validateDataSource is validateDataSource / validateDataSourceRef (ns is nil
// for a dataSource).
func validateDataSource(apiGroup *string, kind, name string, ns *string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		errs = append(errs, field.Required(p.Child("name"), ""))
	}
	if kind == "" {
		errs = append(errs, field.Required(p.Child("kind"), ""))
	}
	group := ""
	if apiGroup != nil {
		group = *apiGroup
	}
	if group == "" && kind != "PersistentVolumeClaim" {
		errs = append(errs, field.Invalid(p, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"))
	}
	if group != "" {
		for _, msg := range namecheck.IsDNS1123Subdomain(group) {
			errs = append(errs, field.Invalid(p.Child("apiGroup"), group, msg))
		}
	}
	if ns != nil && *ns != "" {
		for _, msg := range namecheck.NameIsDNSLabel(*ns, false) {
			errs = append(errs, field.Invalid(p.Child("namespace"), *ns, msg))
		}
	}
	return errs
}

// LabelSelector is ValidateLabelSelector with label values checked:
// matchLabels (sorted keys), then every expression (VAL-02).
func LabelSelector(ps *metav1.LabelSelector, p *field.Path) field.ErrorList {
	if ps == nil {
		return nil
	}
	errs := Labels(ps.MatchLabels, p.Child("matchLabels"))
	for i, expr := range ps.MatchExpressions {
		errs = append(errs, metavalidation.ValidateLabelSelectorRequirement(expr, metavalidation.LabelSelectorValidationOptions{}, p.Child("matchExpressions").Index(i))...)
	}
	return errs
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
