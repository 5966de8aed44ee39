package validation

// ObjectMeta validation on create: the ONE place limitcheck checks metadata
// (VAL-01 names, VAL-02 labels and annotations, VAL-03 owner references,
// finalizers and the rest). Every kind goes through ObjectMeta with the
// MetaRules of its kind (MetaRulesFor); validateObjectMeta is the common case
// (DNS-subdomain name, core's finalizer rule) that Pod, PVC, LimitRange and
// ResourceQuota validation call. Workload validation (apps, batch) should call
// ObjectMeta(meta, MetaRulesFor(gk, version), field.NewPath("metadata")): the
// StatefulSet, ReplicationController and CronJob rules are in the table.

import (
	"bytes"
	"reflect"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/validate/content"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metavalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// NameRule checks a name, or a generateName prefix when prefix is true, and
// returns upstream's messages (apimachinery's ValidateNameFunc shape).
type NameRule func(name string, prefix bool) []string

// The name rules kube-apiserver's kinds use (VAL-01).
var (
	// NameDNSSubdomain: lowercase RFC 1123 subdomain, at most 253 characters
	// (most kinds).
	NameDNSSubdomain NameRule = namecheck.NameIsDNSSubdomain
	// NameDNSLabel: lowercase RFC 1123 label, at most 63 characters
	// (StatefulSets, Services with RelaxedServiceNameValidation, namespaces).
	NameDNSLabel NameRule = namecheck.NameIsDNSLabel
	// NameDNS1035Label: RFC 1035 label, starting with a letter (Services
	// with RelaxedServiceNameValidation off).
	NameDNS1035Label NameRule = apivalidation.NameIsDNS1035Label
	// NamePathSegment: anything that can be one URL path segment (the
	// generic check every create ends with).
	NamePathSegment NameRule = pathSegment
	// nameRBAC is ValidateRBACName (Roles and RoleBindings, a RoleBinding's
	// roleRef.name; VAL-70, VAL-71): a path segment, and a generateName
	// prefix is held to the same rule as a whole name, so "." and ".."
	// are refused there too.
	nameRBAC NameRule = func(name string, _ bool) []string { return content.IsPathSegmentName(name) }
)

func pathSegment(name string, prefix bool) []string {
	if prefix {
		return content.IsPathSegmentPrefix(name)
	}
	return content.IsPathSegmentName(name)
}

// MetaRules says how a kind's create validation checks its metadata.
type MetaRules struct {
	// Name is the kind's name rule; nil means no metadata validation of the
	// kind's own: only the generic check of rest.BeforeCreate (path-segment
	// name, apimachinery's rules), which then is all that applies.
	Name NameRule
	// NoGenerateName: the kind uses ValidateObjectMetaWithOpts (e.g.
	// ReplicationController), which checks the generated name but not the
	// generateName prefix on its own.
	NoGenerateName bool
	// KubeFinalizers: core's ValidateObjectMeta wrapper, which adds that an
	// unqualified finalizer must be a standard one (kubernetes,
	// orphan, foregroundDeletion). apimachinery's own function (custom
	// resources, Leases) and the generic check do not.
	KubeFinalizers bool
	// SetsGeneration: the kind's PrepareForCreate sets metadata.generation
	// to 1, so the value given is never checked.
	SetsGeneration bool
	// Skip: kinds whose create validation is not simulated at all
	// (create-only reviews and bindings, which are not stored).
	Skip bool
	// ClusterScoped: the kind has no namespace (its validation passes
	// requiresNamespace false, and rest.BeforeCreate clears any namespace
	// the object names), so the namespace is not checked.
	ClusterScoped bool
}

// core is the usual rule: core's ValidateObjectMeta with a DNS-subdomain
// name; coreGen the same for a kind whose PrepareForCreate sets generation.
var (
	core    = MetaRules{Name: NameDNSSubdomain, KubeFinalizers: true}
	coreGen = MetaRules{Name: NameDNSSubdomain, KubeFinalizers: true, SetsGeneration: true}
)

// nameLongName is declarative validation's LongName (ReplicationController):
// a DNS subdomain, its length counted in bytes.
func nameLongName(name string, prefix bool) []string {
	if prefix && len(name) > 1 && strings.HasSuffix(name, "-") {
		name = name[:len(name)-2] + "a" // a prefix may end with a dash
	}
	return content.IsDNS1123Subdomain(name)
}

// metaRules lists the namespaced kinds kube-apiserver 1.36 serves and the
// metadata rules of their create validation (VAL-04). Kinds not listed: a
// custom resource (apiextensions-apiserver's validator: DNS subdomain,
// apimachinery's rules), see MetaRulesFor.
var metaRules = map[schema.GroupKind]MetaRules{
	{Kind: "ConfigMap"}:             core,
	{Kind: "Endpoints"}:             core,
	{Kind: "LimitRange"}:            core,
	{Kind: "PersistentVolumeClaim"}: core,
	{Kind: "Pod"}:                   coreGen,
	{Kind: "PodTemplate"}:           coreGen,
	{Kind: "ResourceQuota"}:         core,
	{Kind: "Secret"}:                core,
	{Kind: "ServiceAccount"}:        core,
	// ValidateServiceCreate: DNS label (RelaxedServiceNameValidation) or
	// DNS-1035 label, see ServiceMetaRules.
	{Kind: "Service"}: {Name: NameDNSLabel, KubeFinalizers: true},
	// ValidateReplicationController uses ValidateObjectMetaWithOpts.
	{Kind: "ReplicationController"}: {Name: nameLongName, NoGenerateName: true, KubeFinalizers: true, SetsGeneration: true},
	// core/v1 Events get the legacy checks only (ValidateEventCreate), no
	// ObjectMeta validation: only rest.BeforeCreate's generic check.
	{Kind: "Event"}:   {},
	{Kind: "Binding"}: {Skip: true},

	{Group: "apps", Kind: "ControllerRevision"}: core,
	{Group: "apps", Kind: "DaemonSet"}:          coreGen,
	{Group: "apps", Kind: "Deployment"}:         coreGen,
	{Group: "apps", Kind: "ReplicaSet"}:         coreGen,
	// ValidateStatefulSetName is a DNS label.
	{Group: "apps", Kind: "StatefulSet"}: {Name: NameDNSLabel, KubeFinalizers: true, SetsGeneration: true},

	{Group: "batch", Kind: "Job"}:     coreGen,
	{Group: "batch", Kind: "CronJob"}: coreGen,

	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}:       core,
	{Group: "events.k8s.io", Kind: "Event"}:                       core,
	{Group: "networking.k8s.io", Kind: "Ingress"}:                 coreGen,
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"}:           coreGen,
	{Group: "storage.k8s.io", Kind: "CSIStorageCapacity"}:         core,
	{Group: "discovery.k8s.io", Kind: "EndpointSlice"}:            coreGen,
	{Group: "resource.k8s.io", Kind: "ResourceClaim"}:             core,
	{Group: "resource.k8s.io", Kind: "ResourceClaimTemplate"}:     core,
	{Group: "certificates.k8s.io", Kind: "PodCertificateRequest"}: core,
	{Group: "scheduling.k8s.io", Kind: "PodGroup"}:                core,
	{Group: "scheduling.k8s.io", Kind: "Workload"}:                core,
	// ValidateRBACName: a path segment, through core's wrapper.
	{Group: "rbac.authorization.k8s.io", Kind: "Role"}:        {Name: nameRBAC, KubeFinalizers: true},
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}: {Name: nameRBAC, KubeFinalizers: true},
	// ValidateLease calls apimachinery's ValidateObjectMeta directly.
	{Group: "coordination.k8s.io", Kind: "Lease"}:          {Name: NameDNSSubdomain},
	{Group: "coordination.k8s.io", Kind: "LeaseCandidate"}: {Name: NameDNSSubdomain},
	// ValidatePodDisruptionBudget validates the spec only.
	{Group: "policy", Kind: "PodDisruptionBudget"}: {SetsGeneration: true},

	{Group: "authorization.k8s.io", Kind: "LocalSubjectAccessReview"}: {Skip: true},
}

// builtInGroups are the API groups kube-apiserver itself serves; a kind of
// any other group is a custom resource (or an aggregated API).
var builtInGroups = map[string]bool{
	"": true, "apps": true, "batch": true, "autoscaling": true, "events.k8s.io": true,
	"networking.k8s.io": true, "storage.k8s.io": true, "discovery.k8s.io": true,
	"resource.k8s.io": true, "certificates.k8s.io": true, "scheduling.k8s.io": true,
	"rbac.authorization.k8s.io": true, "coordination.k8s.io": true, "policy": true,
	"authorization.k8s.io": true, "authentication.k8s.io": true, "node.k8s.io": true,
	"admissionregistration.k8s.io": true, "apiregistration.k8s.io": true,
	"flowcontrol.apiserver.k8s.io": true, "internal.apiserver.k8s.io": true,
	"storagemigration.k8s.io": true,
}

// MetaRulesFor returns the metadata rules of a namespaced kind's create
// validation (VAL-04). A kind of a group kube-apiserver does not serve
// itself is a custom resource: apiextensions-apiserver validates its
// metadata with apimachinery's ValidateObjectMetaAccessor and a DNS-subdomain
// name (no finalizer-name rule: that is only a warning there). An unlisted
// built-in kind gets the generic check only.
func MetaRulesFor(gk schema.GroupKind) MetaRules {
	if r, ok := metaRules[gk]; ok {
		return r
	}
	if !builtInGroups[gk.Group] {
		return MetaRules{Name: NameDNSSubdomain}
	}
	return MetaRules{}
}

// ObjectMeta validates a namespaced object's metadata on create, name
// generation done, as the kind's validation does (rules) and, when that
// passes, as rest.BeforeCreate's generic check does (VAL-01..VAL-03). Map keys
// are visited in sorted order (upstream's order is random).
func ObjectMeta(meta metav1.Object, rules MetaRules, p *field.Path) field.ErrorList {
	return objectMetaWithRules(meta, rules, lazy(p))
}

// objectMetaWithRules is ObjectMeta at a lazy path.
func objectMetaWithRules(meta metav1.Object, rules MetaRules, p lazyPath) field.ErrorList {
	if rules.Skip {
		return nil
	}
	if rules.Name == nil {
		return genericObjectMeta(meta, rules, p)
	}
	errs := objectMeta(meta, rules, p)
	if len(errs) == 0 {
		// rest.BeforeCreate's generic check: weaker than every name rule
		// above, so it can only add errors to kinds without a rule.
		errs = genericObjectMeta(meta, rules, p)
	}
	return errs
}

// genericObjectMeta is rest.BeforeCreate's generic check of the metadata,
// which runs once the kind's own validation found nothing: a name that is a
// path segment, apimachinery's other rules. A kind whose name rule is
// weaker than a path segment (CertificateSigningRequest) calls it after its
// whole validation.
func genericObjectMeta(meta metav1.Object, rules MetaRules, p lazyPath) field.ErrorList {
	return objectMeta(meta, MetaRules{Name: NamePathSegment, SetsGeneration: rules.SetsGeneration, ClusterScoped: rules.ClusterScoped}, p)
}

// validateObjectMeta is core's ValidateObjectMeta for a namespaced object with a
// DNS-subdomain name (Pods, PVCs, LimitRanges, quotas, ConfigMaps, Secrets…).
func validateObjectMeta(meta *metav1.ObjectMeta) field.ErrorList {
	return objectMeta(meta, core, newLazyPath("metadata"))
}

// objectMeta is ValidateObjectMetaAccessor (and, with kubeFinalizers, core's
// wrapper around it) for a namespaced object.
func objectMeta(meta metav1.Object, rules MetaRules, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	name := rules.Name
	if g := meta.GetGenerateName(); g != "" && !rules.NoGenerateName {
		for _, msg := range name(g, true) {
			errs = append(errs, field.Invalid(p.Child("generateName").Path(), g, msg))
		}
	}
	if n := meta.GetName(); n == "" {
		errs = append(errs, field.Required(p.Child("name").Path(), "name or generateName is required"))
	} else {
		for _, msg := range name(n, false) {
			errs = append(errs, field.Invalid(p.Child("name").Path(), n, msg))
		}
	}
	if rules.ClusterScoped {
		// no namespace to check
	} else if ns := meta.GetNamespace(); ns == "" {
		errs = append(errs, field.Required(p.Child("namespace").Path(), ""))
	} else {
		for _, msg := range namecheck.NameIsDNSLabel(ns, false) {
			errs = append(errs, field.Invalid(p.Child("namespace").Path(), ns, msg))
		}
	}
	// The apimachinery checks below report nothing for a non-negative
	// generation and empty lists: their paths are built only when needed.
	if gen := meta.GetGeneration(); !rules.SetsGeneration && gen < 0 {
		errs = append(errs, apivalidation.ValidateNonnegativeField(gen, p.Child("generation").Path())...)
	}
	errs = append(errs, validateLabels(meta.GetLabels(), p.Child("labels"))...)
	errs = append(errs, validateAnnotations(meta.GetAnnotations(), p.Child("annotations"))...)
	if refs := meta.GetOwnerReferences(); len(refs) != 0 {
		errs = append(errs, apivalidation.ValidateOwnerReferences(refs, p.Child("ownerReferences").Path())...)
	}
	if fins := meta.GetFinalizers(); len(fins) != 0 {
		errs = append(errs, apivalidation.ValidateFinalizers(fins, p.Child("finalizers").Path())...)
	}
	if mf := meta.GetManagedFields(); len(mf) != 0 && !managedFieldsReplaced(mf) {
		errs = append(errs, metavalidation.ValidateManagedFields(mf, p.Child("managedFields").Path())...)
	}
	if rules.KubeFinalizers {
		errs = append(errs, validateKubeFinalizerNames(meta.GetFinalizers(), p.Child("finalizers"))...)
	}
	return errs
}

// Labels is ValidateLabels: every key a qualified name, every value a label
// value; keys in sorted order (VAL-02).
func Labels(labels map[string]string, p *field.Path) field.ErrorList {
	return validateLabels(labels, lazy(p))
}

func validateLabels(labels map[string]string, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	var buf [8]string
	for _, k := range sortedKeys(labels, buf[:0]) {
		for _, msg := range namecheck.IsQualifiedName(k) {
			errs = append(errs, field.Invalid(p.Path(), k, msg))
		}
		v := labels[k]
		for _, msg := range namecheck.IsValidLabelValue(v) {
			errs = append(errs, field.Invalid(p.Path(), v, msg))
		}
	}
	return errs
}

// Annotations is ValidateAnnotations: keys are qualified names, case
// ignored; keys and values together at most 256 KiB (VAL-02).
func Annotations(annotations map[string]string, p *field.Path) field.ErrorList {
	return validateAnnotations(annotations, lazy(p))
}

func validateAnnotations(annotations map[string]string, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	total := 0
	var buf [8]string
	for _, k := range sortedKeys(annotations, buf[:0]) {
		for _, msg := range namecheck.IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, field.Invalid(p.Path(), k, msg))
		}
		total += len(k) + len(annotations[k])
	}
	if total > apivalidation.TotalAnnotationSizeLimitB {
		errs = append(errs, field.TooLong(p.Path(), "", apivalidation.TotalAnnotationSizeLimitB))
	}
	return errs
}

// sortedKeys appends m's keys to buf, sorted: a caller on the hot path
// passes a small array on its stack, others nil.
func sortedKeys[V any](m map[string]V, buf []string) []string {
	for k := range m {
		buf = append(buf, k)
	}
	sort.Strings(buf)
	return buf
}

// managedFieldsReplaced reports whether the field manager, which runs on a
// create before admission and validation, throws the request's managedFields
// away (VAL-03): the reset form (one empty entry), or entries it cannot decode
// (an operation other than Apply or Update, no apiVersion, a fieldsType other
// than FieldsV1, fieldsV1 that is not a field set). The object is then stored
// with the manager's own entry only, which validation accepts.
func managedFieldsReplaced(mf []metav1.ManagedFieldsEntry) bool {
	if len(mf) == 1 && reflect.DeepEqual(mf[0], metav1.ManagedFieldsEntry{}) {
		return true
	}
	for _, e := range mf {
		switch {
		case e.Operation != metav1.ManagedFieldsOperationApply && e.Operation != metav1.ManagedFieldsOperationUpdate,
			e.APIVersion == "", e.FieldsType != "FieldsV1":
			return true
		}
		if e.FieldsV1 != nil {
			var set fieldpath.Set
			if err := set.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err != nil {
				return true
			}
		}
	}
	return false
}
