package validation

import (
	"strconv"
	"strings"

	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Create validation of the storage.k8s.io kinds other than StorageClass:
// CSIDriver (VAL-87), VolumeAttributesClass (VAL-88), VolumeAttachment
// (VAL-100), CSINode (VAL-89) and CSIStorageCapacity (VAL-90). Each is
// named as a DNS subdomain through core's ValidateObjectMeta; all but
// CSIStorageCapacity are cluster-scoped (clusterClassMeta). Their
// strategies return the handwritten errors (VolumeAttachment's declarative
// checks only shadow them).

// CSIDriver spec limits.
const (
	minTokenExpirationSeconds = 10 * 60
	maxTokenExpirationSeconds = 1 << 32
	minNodeAllocatableUpdate  = 10
)

// fsGroupPolicies are the supported fsGroupPolicy values, sorted as the
// NotSupported message lists them.
var fsGroupPolicies = []string{
	string(storagev1.FileFSGroupPolicy), string(storagev1.NoneFSGroupPolicy), string(storagev1.ReadWriteOnceWithFSTypeFSGroupPolicy),
}

// volumeLifecycleModes are the supported volumeLifecycleModes, in the order
// the NotSupported message lists them (not sorted).
var volumeLifecycleModes = []string{string(storagev1.VolumeLifecyclePersistent), string(storagev1.VolumeLifecycleEphemeral)}

// PrepareCSIDriverForCreate is the strategy's PrepareForCreate at the 1.36
// gates: of the gated fields only preventPodSchedulingIfMissing (alpha
// VolumeLimitScaling, off) is dropped; the others' gates are locked on.
func PrepareCSIDriverForCreate(d *storagev1.CSIDriver) {
	d.Spec.PreventPodSchedulingIfMissing = nil
}

// CSIDriver is ValidateCSIDriver on a defaulted, prepared CSIDriver: the
// metadata, then the spec in upstream's order. The v1 defaults fill
// attachRequired, podInfoOnMount, storageCapacity and seLinuxMount, so
// their Required errors cannot happen on a v1 create and are not checked.
func CSIDriver(d *storagev1.CSIDriver) field.ErrorList {
	errs := ObjectMeta(&d.ObjectMeta, clusterClassMeta, field.NewPath("metadata"))
	sp := field.NewPath("spec")
	s := &d.Spec
	if fp := s.FSGroupPolicy; fp != nil && !contains(fsGroupPolicies, string(*fp)) {
		errs = append(errs, field.NotSupported(sp.Child("fsGroupPolicy"), *fp, fsGroupPolicies))
	}
	errs = append(errs, tokenRequests(s.TokenRequests, sp.Child("tokenRequests"))...)
	for _, m := range s.VolumeLifecycleModes {
		if !contains(volumeLifecycleModes, string(m)) {
			errs = append(errs, field.NotSupported(sp.Child("volumeLifecycleModes"), m, volumeLifecycleModes))
		}
	}
	if period := s.NodeAllocatableUpdatePeriodSeconds; period != nil && *period < minNodeAllocatableUpdate {
		errs = append(errs, field.Invalid(sp.Child("nodeAllocatableUpdatePeriodSeconds"), *period, "must be greater than or equal to 10 seconds"))
	}
	if v := s.ServiceAccountTokenInSecrets; v != nil && len(s.TokenRequests) == 0 {
		errs = append(errs, field.Invalid(sp.Child("serviceAccountTokenInSecrets"), *v, "serviceAccountTokenInSecrets is set but no tokenRequests are specified"))
	}
	return errs
}

// tokenRequests: audiences distinct (a repeated one is reported and its
// expiration not checked), expirations from 10 minutes to 2^32 seconds.
func tokenRequests(reqs []storagev1.TokenRequest, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := sets.New[string]()
	for i, r := range reqs {
		ip := p.Index(i)
		if seen.Has(r.Audience) {
			errs = append(errs, field.Duplicate(ip.Child("audience"), r.Audience))
			continue
		}
		seen.Insert(r.Audience)
		if r.ExpirationSeconds == nil {
			continue
		}
		exp := *r.ExpirationSeconds
		if exp < minTokenExpirationSeconds {
			errs = append(errs, field.Invalid(ip.Child("expirationSeconds"), exp, "may not specify a duration less than 10 minutes"))
		}
		if exp > maxTokenExpirationSeconds {
			errs = append(errs, field.Invalid(ip.Child("expirationSeconds"), exp, "may not specify a duration larger than 2^32 seconds"))
		}
	}
	return errs
}

// VolumeAttributesClass is ValidateVolumeAttributesClass: the metadata, the
// driver name as a StorageClass's provisioner, and the parameters as a
// StorageClass's, but at least one is required.
func VolumeAttributesClass(vac *storagev1.VolumeAttributesClass) field.ErrorList {
	errs := ObjectMeta(&vac.ObjectMeta, clusterClassMeta, field.NewPath("metadata"))
	errs = append(errs, provisioner(vac.DriverName, field.NewPath("driverName"))...)
	return append(errs, storageParameters(vac.Parameters, false, field.NewPath("parameters"))...)
}

// PrepareVolumeAttachmentForCreate is the strategy's PrepareForCreate: the
// status is cleared.
func PrepareVolumeAttachmentForCreate(va *storagev1.VolumeAttachment) {
	va.Status = storagev1.VolumeAttachmentStatus{}
}

// VolumeAttachment is ValidateVolumeAttachment on a defaulted, prepared
// VolumeAttachment: the metadata, the attacher (a CSI driver name), the
// source (exactly one of persistentVolumeName and inlineVolumeSpec), the
// node name, then the persistent volume's name (so an empty one is both
// required and invalid). The cleared status has nothing to check.
func VolumeAttachment(va *storagev1.VolumeAttachment) field.ErrorList {
	errs := ObjectMeta(&va.ObjectMeta, clusterClassMeta, field.NewPath("metadata"))
	sp := field.NewPath("spec")
	errs = append(errs, CSIDriverName(va.Spec.Attacher, sp.Child("attacher"))...)
	src := &va.Spec.Source
	srcp := sp.Child("source")
	const exactlyOne = "must specify exactly one of inlineVolumeSpec and persistentVolumeName"
	switch {
	case src.InlineVolumeSpec == nil && src.PersistentVolumeName == nil:
		errs = append(errs, field.Required(srcp, exactlyOne))
	case src.InlineVolumeSpec != nil && src.PersistentVolumeName != nil:
		errs = append(errs, field.Forbidden(srcp, exactlyOne))
	case src.PersistentVolumeName != nil:
		if *src.PersistentVolumeName == "" {
			errs = append(errs, field.Required(srcp.Child("persistentVolumeName"), "must specify non empty persistentVolumeName"))
		}
	default:
		errs = append(errs, persistentVolumeSpec(src.InlineVolumeSpec, "", lazy(srcp.Child("inlineVolumeSpec")), true)...)
	}
	for _, msg := range namecheck.NameIsDNSSubdomain(va.Spec.NodeName, false) {
		errs = append(errs, field.Invalid(sp.Child("nodeName"), va.Spec.NodeName, msg))
	}
	if pv := src.PersistentVolumeName; pv != nil {
		for _, msg := range namecheck.NameIsDNSSubdomain(*pv, false) {
			errs = append(errs, field.Invalid(srcp.Child("persistentVolumeName"), *pv, msg))
		}
	}
	return errs
}

// maxCSINodeID is the longest node ID a CSINode driver may report.
const maxCSINodeID = 256

// CSINode is ValidateCSINode: the metadata (a node name), then each driver:
// its name, node ID (required, at most 256 characters), allocatable count
// (not negative), a name already listed, then each topology key (required,
// not repeated, a qualified name; all reported at the driver's path).
func CSINode(n *storagev1.CSINode) field.ErrorList {
	errs := ObjectMeta(&n.ObjectMeta, clusterClassMeta, field.NewPath("metadata"))
	dp := field.NewPath("spec", "drivers")
	names := sets.New[string]()
	for i, d := range n.Spec.Drivers {
		ip := dp.Index(i)
		errs = append(errs, CSIDriverName(d.Name, ip.Child("name"))...)
		idp := ip.Child("nodeID")
		if d.NodeID == "" {
			errs = append(errs, field.Required(idp, ""))
		}
		if len(d.NodeID) > maxCSINodeID {
			errs = append(errs, field.Invalid(idp, d.NodeID, "must be "+strconv.Itoa(maxCSINodeID)+" characters or less"))
		}
		if a := d.Allocatable; a != nil && a.Count != nil {
			errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*a.Count), ip.Child("allocatable", "count"))...)
		}
		if names.Has(d.Name) {
			errs = append(errs, field.Duplicate(ip.Child("name"), d.Name))
		}
		names.Insert(d.Name)
		keys := sets.New[string]()
		for _, k := range d.TopologyKeys {
			if k == "" {
				errs = append(errs, field.Required(ip, ""))
			}
			if keys.Has(k) {
				errs = append(errs, field.Duplicate(ip, k))
			}
			keys.Insert(k)
			for _, msg := range namecheck.IsQualifiedName(k) {
				errs = append(errs, field.Invalid(ip, k, msg))
			}
		}
	}
	return errs
}

// CSIStorageCapacity is ValidateCSIStorageCapacity: the metadata (core's
// rules, namespaced), the node topology (a label selector, label values
// checked), the storage class name (a DNS subdomain, required through
// that rule), then a capacity that is not negative. maximumVolumeSize is
// not checked.
func CSIStorageCapacity(c *storagev1.CSIStorageCapacity) field.ErrorList {
	errs := ObjectMeta(&c.ObjectMeta, core, field.NewPath("metadata"))
	errs = append(errs, metav1validation.ValidateLabelSelector(c.NodeTopology, metav1validation.LabelSelectorValidationOptions{}, field.NewPath("nodeTopology"))...)
	for _, msg := range namecheck.NameIsDNSSubdomain(c.StorageClassName, false) {
		errs = append(errs, field.Invalid(field.NewPath("storageClassName"), c.StorageClassName, msg))
	}
	if q := c.Capacity; q != nil && q.Cmp(resource.Quantity{}) < 0 {
		errs = append(errs, field.Invalid(field.NewPath("capacity"), q.String(), msgNegative))
	}
	return errs
}

// provisioner is validateProvisioner, a StorageClass's provisioner or a
// VolumeAttributesClass's driverName: required; lower-cased, a qualified
// name (the lower-cased value is the one shown).
func provisioner(name string, p *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	low := strings.ToLower(name)
	var errs field.ErrorList
	for _, msg := range utilvalidation.IsQualifiedName(low) {
		errs = append(errs, field.Invalid(p, low, msg))
	}
	return errs
}
