package validation

import (
	"net"
	"regexp"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The in-tree cloud and network volume sources (VAL-21, VAL-91): a Pod's
// volume and a PersistentVolume name the disk, share or target they attach,
// and kube-apiserver requires what identifies it. Most of these plugins are
// gone from the kubelet, but their fields are still checked on create, so a
// manifest copied from an old example is refused for a missing pdName as it
// always was.

// partitionMsg is the range upstream prints for a disk partition; the check
// itself lets 0 through (the whole disk).
var partitionMsg = validation.InclusiveRangeError(1, 255)

// iSCSI qualified names: iqn.YYYY-MM.reversed.domain[:name], eui. and naa.
// with 16 or 32 alphanumerics. The iqn pattern is anchored only at its end,
// as upstream's is.
var (
	iqnPattern = regexp.MustCompile(`iqn\.\d{4}-\d{2}\.([[:alnum:]-.]+)(:[^,;*&$|\s]+)$`)
	euiPattern = regexp.MustCompile(`^eui.[[:alnum:]]{16}$`)
	naaPattern = regexp.MustCompile(`^naa.[[:alnum:]]{32}$`)
)

// iscsiNameErr is what is wrong with an iSCSI qualified name ("" when
// nothing): its prefix, or its form for the prefix it has.
func iscsiNameErr(name, badPrefix string) string {
	switch {
	case strings.HasPrefix(name, "iqn"):
		if !iqnPattern.MatchString(name) {
			return iscsiFormMsg
		}
	case strings.HasPrefix(name, "eui"):
		if !euiPattern.MatchString(name) {
			return iscsiFormMsg
		}
	case strings.HasPrefix(name, "naa"):
		if !naaPattern.MatchString(name) {
			return iscsiFormMsg
		}
	default:
		return badPrefix
	}
	return ""
}

const (
	iscsiFormMsg     = "must be valid format"
	iscsiPrefixMsg   = "must be valid format starting with iqn, eui, or naa"
	iscsiTooLongMsg  = "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified."
	quobyteHostPorts = "must be a host:port pair or multiple pairs separated by commas"
)

// iscsiSource is what a Pod's and a PersistentVolume's iSCSI sources share.
type iscsiSource struct {
	portal, iqn   string
	lun           int32
	chap, secret  bool
	initiatorName *string
}

// validateISCSI checks an iSCSI source. pv selects the PersistentVolume's
// variant: its portal length check (pvName non-empty only there), a plain
// "must be valid format" for an IQN of an unknown prefix, and the secret
// reference's name.
func validateISCSI(s iscsiSource, p lazyPath, pv bool, pvName string, secretName *string) field.ErrorList {
	var errs field.ErrorList
	// The message for a name of an unknown prefix.
	badPrefix := iscsiPrefixMsg
	if pv {
		badPrefix = iscsiFormMsg
	}
	if s.portal == "" {
		errs = append(errs, field.Required(p.Child("targetPortal").Path(), ""))
	}
	if pv && s.initiatorName != nil && len(pvName+":"+s.portal) > 64 {
		errs = append(errs, field.Invalid(p.Child("targetportal").Path(), s.portal, iscsiTooLongMsg))
	}
	if s.iqn == "" {
		errs = append(errs, field.Required(p.Child("iqn").Path(), ""))
	} else if msg := iscsiNameErr(s.iqn, badPrefix); msg != "" {
		errs = append(errs, field.Invalid(p.Child("iqn").Path(), s.iqn, msg))
	}
	if s.lun < 0 || s.lun > 255 {
		errs = append(errs, field.Invalid(p.Child("lun").Path(), s.lun, validation.InclusiveRangeError(0, 255)))
	}
	if s.chap && !s.secret {
		errs = append(errs, field.Required(p.Child("secretRef").Path(), ""))
	}
	if secretName != nil && *secretName == "" {
		errs = append(errs, field.Required(p.Child("secretRef").Child("name").Path(), ""))
	}
	if in := s.initiatorName; in != nil {
		if msg := iscsiNameErr(*in, badPrefix); msg != "" {
			errs = append(errs, field.Invalid(p.Child("initiatorname").Path(), *in, msg))
		}
	}
	return errs
}

func validateFC(fc *corev1.FCVolumeSource, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	if len(fc.TargetWWNs) < 1 && len(fc.WWIDs) < 1 {
		errs = append(errs, field.Required(p.Child("targetWWNs").Path(), "must specify either targetWWNs or wwids, but not both"))
	}
	if len(fc.TargetWWNs) != 0 && len(fc.WWIDs) != 0 {
		errs = append(errs, field.Invalid(p.Child("targetWWNs").Path(), fc.TargetWWNs, "targetWWNs and wwids can not be specified simultaneously"))
	}
	if len(fc.TargetWWNs) != 0 {
		if fc.Lun == nil {
			errs = append(errs, field.Required(p.Child("lun").Path(), "lun is required if targetWWNs is specified"))
		} else if *fc.Lun < 0 || *fc.Lun > 255 {
			errs = append(errs, field.Invalid(p.Child("lun").Path(), fc.Lun, validation.InclusiveRangeError(0, 255)))
		}
	}
	return errs
}

// validateDisk checks a cloud disk named by id (GCE's pdName, AWS's
// volumeID) with a partition.
func validateDisk(id, idField string, partition int32, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	if id == "" {
		errs = append(errs, field.Required(p.Child(idField).Path(), ""))
	}
	if partition < 0 || partition > 255 {
		errs = append(errs, field.Invalid(p.Child("partition").Path(), partition, partitionMsg))
	}
	return errs
}

// requireFields reports each named field whose value is empty, in order.
func requireFields(p lazyPath, fields ...string) field.ErrorList {
	var errs field.ErrorList
	for i := 0; i+1 < len(fields); i += 2 {
		if fields[i+1] == "" {
			errs = append(errs, field.Required(p.Child(fields[i]).Path(), ""))
		}
	}
	return errs
}

func validateQuobyte(q *corev1.QuobyteVolumeSource, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	switch {
	case q.Registry == "":
		errs = append(errs, field.Required(p.Child("registry").Path(), quobyteHostPorts))
	case len(q.Tenant) >= 65:
		errs = append(errs, field.Required(p.Child("tenant").Path(), "must be a UUID and may not exceed a length of 64 characters"))
	default:
		// One error per pair that is not host:port, each naming the whole
		// registry.
		for _, pair := range strings.Split(q.Registry, ",") {
			if _, _, err := net.SplitHostPort(pair); err != nil {
				errs = append(errs, field.Invalid(p.Child("registry").Path(), q.Registry, quobyteHostPorts))
			}
		}
	}
	if q.Volume == "" {
		errs = append(errs, field.Required(p.Child("volume").Path(), ""))
	}
	return errs
}

func validateFlocker(f *corev1.FlockerVolumeSource, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	if f.DatasetName == "" && f.DatasetUUID == "" {
		errs = append(errs, field.Required(p.Path(), "one of datasetName and datasetUUID is required"))
	}
	if f.DatasetName != "" && f.DatasetUUID != "" {
		errs = append(errs, field.Invalid(p.Path(), "resource", "datasetName and datasetUUID can not be specified simultaneously"))
	}
	if strings.Contains(f.DatasetName, "/") {
		errs = append(errs, field.Invalid(p.Child("datasetName").Path(), f.DatasetName, "must not contain '/'"))
	}
	return errs
}

// validateFlex checks a FlexVolume driver and its options, whose keys may
// not be in the kubernetes.io or k8s.io namespaces. Upstream visits the
// options in map order; limitcheck reports them in key order.
func validateFlex(driver string, options map[string]string, p lazyPath) field.ErrorList {
	errs := requireFields(p, "driver", driver)
	keys := make([]string, 0, len(options))
	for k := range options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ns := k
		if prefix, _, ok := strings.Cut(k, "/"); ok {
			ns = prefix
		}
		n := "." + strings.ToLower(ns)
		if strings.HasSuffix(n, ".kubernetes.io") || strings.HasSuffix(n, ".k8s.io") {
			errs = append(errs, field.Invalid(p.Child("options").Key(k).Path(), k, "kubernetes.io and k8s.io namespaces are reserved"))
		}
	}
	return errs
}

var (
	azureCachingModes = []corev1.AzureDataDiskCachingMode{corev1.AzureDataDiskCachingNone, corev1.AzureDataDiskCachingReadOnly, corev1.AzureDataDiskCachingReadWrite}
	azureDiskKinds    = []corev1.AzureDataDiskKind{corev1.AzureDedicatedBlobDisk, corev1.AzureManagedDisk, corev1.AzureSharedBlobDisk}
)

func validateAzureDisk(d *corev1.AzureDiskVolumeSource, p lazyPath) field.ErrorList {
	errs := requireFields(p, "diskName", d.DiskName, "diskURI", d.DataDiskURI)
	if m := d.CachingMode; m != nil && *m != corev1.AzureDataDiskCachingNone && *m != corev1.AzureDataDiskCachingReadOnly && *m != corev1.AzureDataDiskCachingReadWrite {
		errs = append(errs, field.NotSupported(p.Child("cachingMode").Path(), *m, azureCachingModes))
	}
	if k := d.Kind; k != nil && *k != corev1.AzureDedicatedBlobDisk && *k != corev1.AzureManagedDisk && *k != corev1.AzureSharedBlobDisk {
		errs = append(errs, field.NotSupported(p.Child("kind").Path(), *k, azureDiskKinds))
	}
	if k := d.Kind; k != nil {
		if *k == corev1.AzureManagedDisk && !strings.HasPrefix(d.DataDiskURI, "/subscriptions/") {
			errs = append(errs, field.NotSupported(p.Child("diskURI").Path(), d.DataDiskURI,
				[]string{"/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"}))
		}
		if *k != corev1.AzureManagedDisk && !strings.HasPrefix(d.DataDiskURI, "https://") {
			errs = append(errs, field.NotSupported(p.Child("diskURI").Path(), d.DataDiskURI,
				[]string{"https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"}))
		}
	}
	return errs
}

// validateStorageOS checks a StorageOS volume: a DNS-label volume name and
// namespace, and a secret reference's name (and, for a PersistentVolume,
// namespace: pvRef).
func validateStorageOS(volume, namespace string, ref *corev1.LocalObjectReference, pvRef *corev1.ObjectReference, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	if volume == "" {
		errs = append(errs, field.Required(p.Child("volumeName").Path(), ""))
	} else {
		errs = append(errs, dns1123Label(volume, p.Child("volumeName"))...)
	}
	if namespace != "" {
		errs = append(errs, dns1123Label(namespace, p.Child("volumeNamespace"))...)
	}
	switch {
	case ref != nil:
		errs = append(errs, requireFields(p.Child("secretRef"), "name", ref.Name)...)
	case pvRef != nil:
		errs = append(errs, requireFields(p.Child("secretRef"), "name", pvRef.Name, "namespace", pvRef.Namespace)...)
	}
	return errs
}

// The sources a Pod's volume and a PersistentVolume share, each checked
// through c in its place in upstream's order.

func (c *sources) gcePD(s *corev1.GCEPersistentDiskVolumeSource) {
	c.one(s != nil, "gcePersistentDisk", func() field.ErrorList {
		// Upstream reports the fields under "persistentDisk".
		return validateDisk(s.PDName, "pdName", s.Partition, c.p.Child("persistentDisk"))
	})
}

func (c *sources) awsEBS(s *corev1.AWSElasticBlockStoreVolumeSource) {
	c.one(s != nil, "awsElasticBlockStore", func() field.ErrorList {
		return validateDisk(s.VolumeID, "volumeID", s.Partition, c.p.Child("awsElasticBlockStore"))
	})
}

func (c *sources) fc(s *corev1.FCVolumeSource) {
	c.one(s != nil, "fc", func() field.ErrorList { return validateFC(s, c.p.Child("fc")) })
}

func (c *sources) quobyte(s *corev1.QuobyteVolumeSource) {
	c.one(s != nil, "quobyte", func() field.ErrorList { return validateQuobyte(s, c.p.Child("quobyte")) })
}

func (c *sources) flocker(s *corev1.FlockerVolumeSource) {
	c.one(s != nil, "flocker", func() field.ErrorList { return validateFlocker(s, c.p.Child("flocker")) })
}

// disks checks the vSphere, Photon, Portworx and Azure disks, which come
// one after another in both upstream orders.
func (c *sources) disks(v *corev1.VsphereVirtualDiskVolumeSource, ph *corev1.PhotonPersistentDiskVolumeSource,
	px *corev1.PortworxVolumeSource, ad *corev1.AzureDiskVolumeSource) {
	if v != nil {
		c.required("vsphereVolume", "volumePath", v.VolumePath)
	}
	if ph != nil {
		c.required("photonPersistentDisk", "pdID", ph.PdID)
	}
	if px != nil {
		c.required("portworxVolume", "volumeID", px.VolumeID)
	}
	c.one(ad != nil, "azureDisk", func() field.ErrorList { return validateAzureDisk(ad, c.p.Child("azureDisk")) })
}

// required checks a source, present, whose only rule is that the named
// string fields are set (pairs of field name and value).
func (c *sources) required(name string, fields ...string) {
	c.one(true, name, func() field.ErrorList { return requireFields(c.p.Child(name), fields...) })
}

// ceph checks a Ceph source (rbd, cephfs), named name and with its fields
// under path: its monitors, and the named string fields.
func (c *sources) ceph(name, path string, monitors []string, fields ...string) {
	c.one(true, name, func() field.ErrorList {
		var errs field.ErrorList
		if len(monitors) == 0 {
			errs = append(errs, field.Required(c.p.Child(path).Child("monitors").Path(), ""))
		}
		return append(errs, requireFields(c.p.Child(path), fields...)...)
	})
}
