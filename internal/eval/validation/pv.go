package validation

import (
	"path"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// PersistentVolume validation on create (VAL-91): the strategy's
// PrepareForCreate (PreparePersistentVolumeForCreate), then
// ValidatePersistentVolume (metadata, then the spec) and the mount-options
// annotation check of pkg/volume/validation.

// pvMeta: core's ValidateObjectMeta with a DNS-subdomain name, no namespace.
var pvMeta = MetaRules{Name: NameDNSSubdomain, KubeFinalizers: true, ClusterScoped: true}

// mountOptionsAnnotation is the beta annotation older manifests give mount
// options in.
const mountOptionsAnnotation = "volume.beta.kubernetes.io/mount-options"

var supportedReclaimPolicies = []string{
	string(corev1.PersistentVolumeReclaimDelete), string(corev1.PersistentVolumeReclaimRecycle), string(corev1.PersistentVolumeReclaimRetain),
}

// PreparePersistentVolumeForCreate is the strategy's PrepareForCreate with the
// 1.36 gates: the status is replaced by phase Pending (the transition time a
// server would stamp is left out: no output shows it).
func PreparePersistentVolumeForCreate(pv *corev1.PersistentVolume) {
	pv.Status = corev1.PersistentVolumeStatus{Phase: corev1.VolumePending}
}

// PersistentVolume validates a defaulted, prepared PersistentVolume as its
// create does, in upstream's order.
func PersistentVolume(pv *corev1.PersistentVolume) field.ErrorList {
	errs := ObjectMeta(&pv.ObjectMeta, pvMeta, field.NewPath("metadata"))
	errs = append(errs, persistentVolumeSpec(&pv.Spec, pv.Name, lazy(field.NewPath("spec")), false)...)
	if _, ok := pv.Annotations[mountOptionsAnnotation]; ok && !mountOptionsSupported(&pv.Spec) {
		errs = append(errs, field.Forbidden(field.NewPath("metadata", "annotations", mountOptionsAnnotation), "may not specify mount options for this volume type"))
	}
	return errs
}

// mountOptionsSupported: the volume types the mount-options annotation may
// be given for (checkMountOption).
func mountOptionsSupported(s *corev1.PersistentVolumeSpec) bool {
	return s.GCEPersistentDisk != nil || s.AWSElasticBlockStore != nil || s.Glusterfs != nil || s.NFS != nil ||
		s.RBD != nil || s.Quobyte != nil || s.ISCSI != nil || s.Cinder != nil || s.CephFS != nil ||
		s.AzureFile != nil || s.VsphereVolume != nil || s.AzureDisk != nil || s.PhotonPersistentDisk != nil
}

// persistentVolumeSpec is ValidatePersistentVolumeSpec with the 1.36 create
// options (VolumeAttributesClass on, label values in node affinity
// checked), for a PersistentVolume object or, inline true, a
// VolumeAttachment's inline spec (VAL-100): there a claimRef, a capacity,
// a node affinity and a storage class are forbidden, csi is required, the
// reclaim policy may only be Retain, the volume mode only Filesystem, and
// volumeAttributesClassName is not checked.
func persistentVolumeSpec(s *corev1.PersistentVolumeSpec, pvName string, p lazyPath, inline bool) field.ErrorList {
	var errs field.ErrorList
	if inline {
		if s.ClaimRef != nil {
			errs = append(errs, field.Forbidden(p.Child("claimRef").Path(), msgNotInline))
		}
		if len(s.Capacity) != 0 {
			errs = append(errs, field.Forbidden(p.Child("capacity").Path(), msgNotInline))
		}
		if s.CSI == nil {
			errs = append(errs, field.Required(p.Child("csi").Path(), "has to be specified in the context of inline volumes"))
		}
	}
	modes := p.Child("accessModes")
	if len(s.AccessModes) == 0 {
		errs = append(errs, field.Required(modes.Path(), ""))
	}
	rwop, other := false, false
	for _, m := range s.AccessModes {
		known := contains(supportedAccessModes, string(m))
		if !known {
			errs = append(errs, field.NotSupported(modes.Path(), m, supportedAccessModes))
		}
		if m == corev1.ReadWriteOncePod {
			rwop = true
		} else if known {
			other = true
		}
	}
	if rwop && other {
		errs = append(errs, field.Forbidden(modes.Path(), "may not use ReadWriteOncePod with other access modes"))
	}

	if !inline {
		errs = append(errs, persistentVolumeCapacity(s.Capacity, p.Child("capacity"))...)
	}
	switch rp := s.PersistentVolumeReclaimPolicy; {
	case rp == "":
	case inline:
		if rp != corev1.PersistentVolumeReclaimRetain {
			errs = append(errs, field.Forbidden(p.Child("persistentVolumeReclaimPolicy").Path(), "may only be Retain in the context of inline volumes"))
		}
	case !contains(supportedReclaimPolicies, string(rp)):
		errs = append(errs, field.NotSupported(p.Child("persistentVolumeReclaimPolicy").Path(), rp, supportedReclaimPolicies))
	}

	affinity := false
	if na := s.NodeAffinity; na != nil {
		if inline {
			errs = append(errs, field.Forbidden(p.Child("nodeAffinity").Path(), msgNotInline))
		} else {
			affinity = true
			if na.Required != nil {
				errs = append(errs, validateNodeSelector(na.Required, p.Child("nodeAffinity").Child("required").Path())...)
			} else {
				errs = append(errs, field.Required(p.Child("nodeAffinity").Child("required").Path(), "must specify required node constraints"))
			}
		}
	}

	errs = append(errs, persistentVolumeSource(s, pvName, p, affinity)...)

	if hp := s.HostPath; hp != nil && path.Clean(hp.Path) == "/" && s.PersistentVolumeReclaimPolicy == corev1.PersistentVolumeReclaimRecycle {
		errs = append(errs, field.Forbidden(p.Child("persistentVolumeReclaimPolicy").Path(), "may not be 'recycle' for a hostPath mount of '/'"))
	}
	if sc := s.StorageClassName; sc != "" {
		if inline {
			errs = append(errs, field.Forbidden(p.Child("storageClassName").Path(), msgNotInline))
		} else {
			for _, msg := range namecheck.NameIsDNSSubdomain(sc, false) {
				errs = append(errs, field.Invalid(p.Child("storageClassName").Path(), sc, msg))
			}
		}
	}
	if vm := s.VolumeMode; vm != nil {
		if inline {
			if *vm != corev1.PersistentVolumeFilesystem {
				errs = append(errs, field.Forbidden(p.Child("volumeMode").Path(), "may not specify volumeMode other than Filesystem in the context of inline volumes"))
			}
		} else if !contains(supportedVolumeModes, string(*vm)) {
			errs = append(errs, field.NotSupported(p.Child("volumeMode").Path(), *vm, supportedVolumeModes))
		}
	}
	// A VolumeAttachment passes no options, so VolumeAttributesClass is
	// off for its inline spec and the class name goes unchecked.
	if vac := s.VolumeAttributesClassName; vac != nil && !inline {
		if *vac == "" {
			errs = append(errs, field.Required(p.Child("volumeAttributesClassName").Path(), "an empty string is disallowed"))
		} else {
			for _, msg := range namecheck.NameIsDNSSubdomain(*vac, false) {
				errs = append(errs, field.Invalid(p.Child("volumeAttributesClassName").Path(), *vac, msg))
			}
		}
		if s.CSI == nil {
			errs = append(errs, field.Required(p.Child("csi").Path(), "has to be specified when using volumeAttributesClassName"))
		}
	}
	return errs
}

// msgNotInline is the detail of a field an inline volume spec may not set.
const msgNotInline = "may not be specified in the context of inline volumes"

// persistentVolumeCapacity: a PersistentVolume's capacity is required, holds
// storage and nothing else, and every quantity is positive.
func persistentVolumeCapacity(capacity corev1.ResourceList, capPath lazyPath) field.ErrorList {
	var errs field.ErrorList
	if len(capacity) == 0 {
		errs = append(errs, field.Required(capPath.Path(), ""))
	}
	if _, ok := capacity[corev1.ResourceStorage]; !ok || len(capacity) > 1 {
		errs = append(errs, field.NotSupported(capPath.Path(), capacity, []corev1.ResourceName{corev1.ResourceStorage}))
	}
	// Upstream walks the map in Go's random order; sorted here, so that two
	// bad entries are reported in a stable order.
	names := make([]string, 0, len(capacity))
	for r := range capacity {
		names = append(names, string(r))
	}
	slices.Sort(names)
	for _, r := range names {
		q := capacity[corev1.ResourceName(r)]
		rp := capPath.Key(r).Path()
		if q.Value() < 0 {
			errs = append(errs, field.Invalid(rp, q.Value(), "must be a valid resource quantity"))
		}
		if q.Cmp(resource.Quantity{}) <= 0 {
			errs = append(errs, field.Invalid(rp, q.String(), msgNotPos))
		}
	}
	return errs
}

// persistentVolumeSource: exactly one volume source, in upstream's order; a
// second or later one is forbidden (but flexVolume, which upstream counts
// and checks without looking for an earlier one). Each source's fields are
// checked (VAL-91; the in-tree ones in intree.go).
func persistentVolumeSource(s *corev1.PersistentVolumeSpec, pvName string, p lazyPath, affinity bool) field.ErrorList {
	c := sources{p: p}
	one := c.one
	one(s.HostPath != nil, "hostPath", func() field.ErrorList {
		return validateHostPathSource(s.HostPath, p.Child("hostPath"))
	})
	c.gcePD(s.GCEPersistentDisk)
	c.awsEBS(s.AWSElasticBlockStore)
	one(s.Glusterfs != nil, "glusterfs", func() field.ErrorList {
		g, gp := s.Glusterfs, p.Child("glusterfs")
		es := requireFields(gp, "endpoints", g.EndpointsName, "path", g.Path)
		if ns := g.EndpointsNamespace; ns != nil {
			if *ns == "" {
				es = append(es, field.Invalid(gp.Child("endpointsNamespace").Path(), *ns, "if the endpointnamespace is set, it must be a valid namespace name"))
			} else {
				es = append(es, dns1123Label(*ns, gp.Child("endpointsNamespace"))...)
			}
		}
		return es
	})
	c.flocker(s.Flocker)
	one(s.NFS != nil, "nfs", func() field.ErrorList {
		return validateNFSSource(s.NFS, p.Child("nfs"))
	})
	if r := s.RBD; r != nil {
		c.ceph("rbd", "rbd", r.CephMonitors, "image", r.RBDImage)
	}
	c.quobyte(s.Quobyte)
	if cf := s.CephFS; cf != nil {
		c.ceph("cephFS", "cephfs", cf.Monitors)
	}
	one(s.ISCSI != nil, "iscsi", func() field.ErrorList {
		is := s.ISCSI
		var secretName *string
		if is.SecretRef != nil {
			secretName = &is.SecretRef.Name
		}
		return validateISCSI(iscsiSource{is.TargetPortal, is.IQN, is.Lun, is.DiscoveryCHAPAuth || is.SessionCHAPAuth, is.SecretRef != nil, is.InitiatorName},
			p.Child("iscsi"), true, pvName, secretName)
	})
	one(s.Cinder != nil, "cinder", func() field.ErrorList {
		cp := p.Child("cinder")
		es := requireFields(cp, "volumeID", s.Cinder.VolumeID)
		if ref := s.Cinder.SecretRef; ref != nil {
			es = append(es, requireFields(cp.Child("secretRef"), "name", ref.Name, "namespace", ref.Namespace)...)
		}
		return es
	})
	c.fc(s.FC)
	if fv := s.FlexVolume; fv != nil {
		// Counted and checked, but never refused as a second source.
		c.n++
		c.errs = append(c.errs, validateFlex(fv.Driver, fv.Options, p.Child("flexVolume"))...)
	}
	one(s.AzureFile != nil, "azureFile", func() field.ErrorList {
		a, ap := s.AzureFile, p.Child("azureFile")
		es := requireFields(ap, "secretName", a.SecretName, "shareName", a.ShareName)
		if a.SecretNamespace != nil && *a.SecretNamespace == "" {
			es = append(es, field.Required(ap.Child("secretNamespace").Path(), ""))
		}
		return es
	})
	c.disks(s.VsphereVolume, s.PhotonPersistentDisk, s.PortworxVolume, s.AzureDisk)
	if sc := s.ScaleIO; sc != nil {
		c.required("scaleIO", "gateway", sc.Gateway, "system", sc.System, "volumeName", sc.VolumeName)
	}
	one(s.Local != nil, "local", func() field.ErrorList {
		var es field.ErrorList
		lp := p.Child("local")
		if s.Local.Path == "" {
			es = append(es, field.Required(lp.Child("path").Path(), ""))
		} else {
			es = append(es, validatePathNoBacksteps(s.Local.Path, lp.Child("path"))...)
		}
		if !affinity {
			es = append(es, field.Required(p.Child("nodeAffinity").Path(), "Local volume requires node affinity"))
		}
		return es
	})
	one(s.StorageOS != nil, "storageos", func() field.ErrorList {
		so := s.StorageOS
		return validateStorageOS(so.VolumeName, so.VolumeNamespace, nil, so.SecretRef, p.Child("storageos"))
	})
	one(s.CSI != nil, "csi", func() field.ErrorList {
		return csiPersistentVolumeSource(s.CSI, p.Child("csi"))
	})
	return c.done()
}

// CSIDriverName is ValidateCSIDriverName, the rule of every field naming a
// CSI driver (a CSI volume's driver, a VolumeAttachment's attacher, a
// CSINode's drivers) and of a DRA driver's name: required, at most 63
// bytes, and a DNS subdomain once lower-cased (the value shown as written).
func CSIDriverName(driver string, p *field.Path) field.ErrorList {
	if driver == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	if len(driver) > 63 {
		errs = append(errs, field.TooLong(p, "", 63))
	}
	for _, msg := range namecheck.IsDNS1123Subdomain(strings.ToLower(driver)) {
		errs = append(errs, field.Invalid(p, driver, msg))
	}
	return errs
}

// csiPersistentVolumeSource is validateCSIPersistentVolumeSource: the driver
// name, a volume handle, and each secret reference's name and namespace.
func csiPersistentVolumeSource(csi *corev1.CSIPersistentVolumeSource, p lazyPath) field.ErrorList {
	errs := CSIDriverName(csi.Driver, p.Child("driver").Path())
	if csi.VolumeHandle == "" {
		errs = append(errs, field.Required(p.Child("volumeHandle").Path(), ""))
	}
	for _, ref := range []struct {
		name string
		ref  *corev1.SecretReference
	}{
		{"controllerPublishSecretRef", csi.ControllerPublishSecretRef},
		{"controllerExpandSecretRef", csi.ControllerExpandSecretRef},
		{"nodePublishSecretRef", csi.NodePublishSecretRef},
		{"nodeExpandSecretRef", csi.NodeExpandSecretRef},
	} {
		if ref.ref == nil {
			continue
		}
		rp := p.Child(ref.name)
		if ref.ref.Name == "" {
			errs = append(errs, field.Required(rp.Child("name").Path(), ""))
		} else {
			for _, msg := range namecheck.IsDNS1123Subdomain(ref.ref.Name) {
				errs = append(errs, field.Invalid(rp.Child("name").Path(), ref.ref.Name, msg))
			}
		}
		if ref.ref.Namespace == "" {
			errs = append(errs, field.Required(rp.Child("namespace").Path(), ""))
		} else {
			for _, msg := range namecheck.IsDNS1123Label(ref.ref.Namespace) {
				errs = append(errs, field.Invalid(rp.Child("namespace").Path(), ref.ref.Namespace, msg))
			}
		}
	}
	return errs
}
