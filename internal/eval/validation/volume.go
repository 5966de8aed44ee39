package validation

import (
	"fmt"
	"path"
	"reflect"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Volume validation (VAL-20..VAL-24): ValidateVolumes and validateVolumeSource;
// the in-tree cloud and network sources' own rules are in intree.go.

const fileModeErrorMsg = "must be a number between 0 and 0777 (octal), both inclusive"

// validateVolumes (VAL-20): each volume's source, a unique DNS-label name; a
// volume with errors is not usable by mounts.
func validateVolumes(volumes []corev1.Volume, meta *metav1.ObjectMeta, lp lazyPath, opts podOptions) (map[string]corev1.VolumeSource, field.ErrorList) {
	var errs field.ErrorList
	var names, created map[string]bool // made by mark when needed
	if meta != nil && meta.Name != "" {
		for _, v := range volumes {
			if v.Ephemeral != nil {
				mark(&created, meta.Name+"-"+v.Name)
			}
		}
	}
	var vols map[string]corev1.VolumeSource // only read by the callers: nil when there are no volumes
	if len(volumes) > 0 {
		vols = make(map[string]corev1.VolumeSource, len(volumes))
	}
	for i := range volumes {
		v := &volumes[i]
		ip := lp.Index(i)
		np := ip.Child("name")
		el := validateVolumeSource(&v.VolumeSource, ip, v.Name, meta, opts)
		if v.Name == "" {
			el = append(el, field.Required(np.Path(), ""))
		} else {
			el = append(el, dns1123Label(v.Name, np)...)
		}
		if names[v.Name] {
			el = append(el, field.Duplicate(np.Path(), v.Name))
		}
		if len(el) == 0 {
			mark(&names, v.Name)
			vols[v.Name] = v.VolumeSource
		} else {
			errs = append(errs, el...)
		}
		if v.PersistentVolumeClaim != nil && created[v.PersistentVolumeClaim.ClaimName] {
			errs = append(errs, field.Invalid(ip.Child("persistentVolumeClaim").Child("claimName").Path(), v.PersistentVolumeClaim.ClaimName,
				"must not reference a PVC that gets created for an ephemeral volume"))
		}
	}
	return vols, errs
}

// validateVolumeSource (VAL-21): exactly one source, in upstream's field order.
func validateVolumeSource(s *corev1.VolumeSource, p lazyPath, volName string, meta *metav1.ObjectMeta, opts podOptions) field.ErrorList {
	c := sources{p: p}
	one := c.one
	if s.EmptyDir != nil {
		c.n++
		if s.EmptyDir.SizeLimit != nil && s.EmptyDir.SizeLimit.Cmp(resource.Quantity{}) < 0 {
			c.errs = append(c.errs, field.Forbidden(p.Child("emptyDir").Child("sizeLimit").Path(), "SizeLimit field must be a valid resource quantity"))
		}
	}
	one(s.HostPath != nil, "hostPath", func() field.ErrorList {
		return validateHostPathSource(s.HostPath, p.Child("hostPath"))
	})
	one(s.GitRepo != nil, "gitRepo", func() field.ErrorList {
		gp := p.Child("gitRepo")
		var es field.ErrorList
		if s.GitRepo.Repository == "" {
			es = append(es, field.Required(gp.Child("repository").Path(), ""))
		}
		return append(es, validateLocalDescendingPath(s.GitRepo.Directory, gp.Child("directory"))...)
	})
	c.gcePD(s.GCEPersistentDisk)
	c.awsEBS(s.AWSElasticBlockStore)
	one(s.Secret != nil, "secret", func() field.ErrorList {
		return keyedVolume(p.Child("secret"), "secretName", s.Secret.SecretName, s.Secret.DefaultMode, s.Secret.Items)
	})
	one(s.NFS != nil, "nfs", func() field.ErrorList {
		return validateNFSSource(s.NFS, p.Child("nfs"))
	})
	if is := s.ISCSI; is != nil {
		one(true, "iscsi", func() field.ErrorList {
			return validateISCSI(iscsiSource{is.TargetPortal, is.IQN, is.Lun, is.DiscoveryCHAPAuth || is.SessionCHAPAuth, is.SecretRef != nil, is.InitiatorName},
				p.Child("iscsi"), false, "", nil)
		})
		// Checked whether or not the source was the first.
		if is.InitiatorName != nil && len(volName+":"+is.TargetPortal) > 64 {
			c.errs = append(c.errs, field.Invalid(p.Child("name").Path(), volName, iscsiTooLongMsg))
		}
	}
	if g := s.Glusterfs; g != nil {
		c.required("glusterfs", "endpoints", g.EndpointsName, "path", g.Path)
	}
	c.flocker(s.Flocker)
	one(s.PersistentVolumeClaim != nil, "persistentVolumeClaim", func() field.ErrorList {
		if s.PersistentVolumeClaim.ClaimName == "" {
			return field.ErrorList{field.Required(p.Child("persistentVolumeClaim").Child("claimName").Path(), "")}
		}
		return nil
	})
	if r := s.RBD; r != nil {
		c.ceph("rbd", "rbd", r.CephMonitors, "image", r.RBDImage)
	}
	one(s.Cinder != nil, "cinder", func() field.ErrorList {
		cp := p.Child("cinder")
		es := requireFields(cp, "volumeID", s.Cinder.VolumeID)
		if ref := s.Cinder.SecretRef; ref != nil {
			es = append(es, requireFields(cp.Child("secretRef"), "name", ref.Name)...)
		}
		return es
	})
	if cf := s.CephFS; cf != nil {
		// Upstream's path for the fields is "cephfs", for a second source "cephFS".
		c.ceph("cephFS", "cephfs", cf.Monitors)
	}
	c.quobyte(s.Quobyte)
	// Upstream's own spelling of the path of a second downward API source.
	one(s.DownwardAPI != nil, "downwarAPI", func() field.ErrorList {
		dp := p.Child("downwardAPI")
		es := validateFileMode(s.DownwardAPI.DefaultMode, dp.Child("defaultMode"))
		for i := range s.DownwardAPI.Items {
			es = append(es, validateDownwardAPIVolumeFile(&s.DownwardAPI.Items[i], dp)...)
		}
		return es
	})
	c.fc(s.FC)
	one(s.FlexVolume != nil, "flexVolume", func() field.ErrorList {
		return validateFlex(s.FlexVolume.Driver, s.FlexVolume.Options, p.Child("flexVolume"))
	})
	one(s.ConfigMap != nil, "configMap", func() field.ErrorList {
		return keyedVolume(p.Child("configMap"), "name", s.ConfigMap.Name, s.ConfigMap.DefaultMode, s.ConfigMap.Items)
	})
	if a := s.AzureFile; a != nil {
		c.required("azureFile", "secretName", a.SecretName, "shareName", a.ShareName)
	}
	c.disks(s.VsphereVolume, s.PhotonPersistentDisk, s.PortworxVolume, s.AzureDisk)
	one(s.StorageOS != nil, "storageos", func() field.ErrorList {
		so := s.StorageOS
		return validateStorageOS(so.VolumeName, so.VolumeNamespace, so.SecretRef, nil, p.Child("storageos"))
	})
	one(s.Projected != nil, "projected", func() field.ErrorList {
		pp := p.Child("projected")
		es := validateFileMode(s.Projected.DefaultMode, pp.Child("defaultMode"))
		return append(es, validateProjectionSources(s.Projected, pp)...)
	})
	if sc := s.ScaleIO; sc != nil {
		c.required("scaleIO", "gateway", sc.Gateway, "system", sc.System, "volumeName", sc.VolumeName)
	}
	one(s.CSI != nil, "csi", func() field.ErrorList {
		// validateCSIVolumeSource: the driver name, and a secret reference's
		// name (an invalid one reported at csi.name, as upstream does).
		cp := p.Child("csi")
		es := CSIDriverName(s.CSI.Driver, cp.Child("driver").Path())
		if ref := s.CSI.NodePublishSecretRef; ref != nil {
			if ref.Name == "" {
				es = append(es, field.Required(cp.Child("nodePublishSecretRef").Child("name").Path(), ""))
			} else {
				for _, msg := range namecheck.NameIsDNSSubdomain(ref.Name, false) {
					es = append(es, field.Invalid(cp.Child("name").Path(), ref.Name, msg))
				}
			}
		}
		return es
	})
	one(s.Ephemeral != nil, "ephemeral", func() field.ErrorList {
		ep := p.Child("ephemeral")
		var es field.ErrorList
		if t := s.Ephemeral.VolumeClaimTemplate; t == nil {
			es = append(es, field.Required(ep.Child("volumeClaimTemplate").Path(), ""))
		} else {
			// ValidatePersistentVolumeClaimTemplate (VAL-21): labels and
			// annotations only, then the claim's spec as a claim create's.
			tp := ep.Child("volumeClaimTemplate")
			es = append(es, templateObjectMeta(&t.ObjectMeta, tp.Child("metadata"))...)
			es = append(es, PersistentVolumeClaimSpec(&t.Spec, tp.Child("spec").Path(), CreateClaimOptions())...)
		}
		if meta != nil && meta.Name != "" && volName != "" {
			pvc := meta.Name + "-" + volName
			for _, msg := range namecheck.NameIsDNSSubdomain(pvc, false) {
				es = append(es, field.Invalid(p.Child("name").Path(), volName, fmt.Sprintf("PVC name %q: %v", pvc, msg)))
			}
		}
		return es
	})
	one(s.Image != nil, "image", func() field.ErrorList {
		ip := p.Child("image")
		var es field.ErrorList
		if opts.resourceIsPod && s.Image.Reference == "" {
			es = append(es, field.Required(ip.Child("reference").Path(), ""))
		}
		return append(es, validatePullPolicy(s.Image.PullPolicy, ip.Child("pullPolicy"))...)
	})
	return c.done()
}

// sources checks the volume sources of a Pod's volume or a PersistentVolume
// in upstream's order: the first one set is checked, every later one is
// forbidden, and none at all is required (VAL-21, VAL-91).
type sources struct {
	p    lazyPath
	n    int // sources seen
	errs field.ErrorList
}

// one visits source name, set or not; check validates its fields.
func (c *sources) one(set bool, name string, check func() field.ErrorList) {
	if !set {
		return
	}
	if c.n > 0 {
		c.errs = append(c.errs, field.Forbidden(c.p.Child(name).Path(), "may not specify more than 1 volume type"))
		return
	}
	c.n++
	if check != nil {
		c.errs = append(c.errs, check()...)
	}
}

// done adds that a source is required when none was set.
func (c *sources) done() field.ErrorList {
	if c.n == 0 {
		c.errs = append(c.errs, field.Required(c.p.Path(), "must specify a volume type"))
	}
	return c.errs
}

// validateHostPathSource is validateHostPathVolumeSource, for a Pod's volume
// and a PersistentVolume alike: a path, without "..", and a known type.
func validateHostPathSource(hp *corev1.HostPathVolumeSource, p lazyPath) field.ErrorList {
	if hp.Path == "" {
		return field.ErrorList{field.Required(p.Child("path").Path(), "")}
	}
	errs := validatePathNoBacksteps(hp.Path, p.Child("path"))
	if t := hp.Type; t != nil {
		switch *t {
		case corev1.HostPathUnset, corev1.HostPathDirectoryOrCreate, corev1.HostPathDirectory, corev1.HostPathFileOrCreate,
			corev1.HostPathFile, corev1.HostPathSocket, corev1.HostPathCharDev, corev1.HostPathBlockDev:
		default:
			errs = append(errs, field.NotSupported(p.Child("type").Path(), t, []string{"", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"}))
		}
	}
	return errs
}

// validateNFSSource is validateNFSVolumeSource: a server, and an absolute path.
func validateNFSSource(nfs *corev1.NFSVolumeSource, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	if nfs.Server == "" {
		errs = append(errs, field.Required(p.Child("server").Path(), ""))
	}
	if nfs.Path == "" {
		errs = append(errs, field.Required(p.Child("path").Path(), ""))
	}
	if !path.IsAbs(nfs.Path) {
		errs = append(errs, field.Invalid(p.Child("path").Path(), nfs.Path, "must be an absolute path"))
	}
	return errs
}

func validateFileMode(mode *int32, p lazyPath) field.ErrorList {
	if mode != nil && (*mode > 0777 || *mode < 0) {
		return field.ErrorList{field.Invalid(p.Path(), *mode, fileModeErrorMsg)}
	}
	return nil
}

// validateKeyToPath (VAL-22): an item of a configMap or secret volume.
func validateKeyToPath(kp *corev1.KeyToPath, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	if kp.Key == "" {
		errs = append(errs, field.Required(p.Child("key").Path(), ""))
	}
	if kp.Path == "" {
		errs = append(errs, field.Required(p.Child("path").Path(), ""))
	}
	errs = append(errs, validateLocalNonReservedPath(kp.Path, p.Child("path"))...)
	return append(errs, validateFileMode(kp.Mode, p.Child("mode"))...)
}

// validateDownwardAPIVolumeFile (VAL-22); p is the source's path (upstream reports the file's errors there).
func validateDownwardAPIVolumeFile(f *corev1.DownwardAPIVolumeFile, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	if f.Path == "" {
		errs = append(errs, field.Required(p.Child("path").Path(), ""))
	}
	errs = append(errs, validateLocalNonReservedPath(f.Path, p.Child("path"))...)
	switch {
	case f.FieldRef != nil:
		errs = append(errs, validateObjectFieldSelector(f.FieldRef, volumeFieldPaths, p.Child("fieldRef"))...)
		if f.ResourceFieldRef != nil {
			errs = append(errs, field.Invalid(p.Path(), "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"))
		}
	case f.ResourceFieldRef != nil:
		errs = append(errs, validateResourceFieldSelector(f.ResourceFieldRef, p.Child("resourceFieldRef"), true)...)
	default:
		errs = append(errs, field.Required(p.Path(), "one of fieldRef and resourceFieldRef is required"))
	}
	return append(errs, validateFileMode(f.Mode, p.Child("mode"))...)
}

// validateProjectionSources (VAL-23): secret, configMap, downwardAPI and
// serviceAccountToken sources with paths unique across the volume.
// (clusterTrustBundle and podCertificate sources are gated off in 1.36.)
func validateProjectionSources(proj *corev1.ProjectedVolumeSource, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	paths := map[string]bool{}
	dup := func(pth string, value string) {
		if paths[pth] {
			errs = append(errs, field.Invalid(p.Path(), value, "conflicting duplicate paths"))
		} else {
			paths[pth] = true
		}
	}
	for i, src := range proj.Sources {
		n := 0
		sp := p.Child("sources").Index(i)
		// A secret or configMap source: a name, then its items' paths.
		keyed := func(pp lazyPath, name string, items []corev1.KeyToPath) {
			n++
			if name == "" {
				errs = append(errs, field.Required(pp.Child("name").Path(), ""))
			}
			for j := range items {
				kp := &items[j]
				errs = append(errs, validateKeyToPath(kp, pp.Child("items").Index(j))...)
				if kp.Path != "" {
					dup(kp.Path, name)
				}
			}
		}
		if src.Secret != nil {
			keyed(sp.Child("secret"), src.Secret.Name, src.Secret.Items)
		}
		if src.ConfigMap != nil {
			keyed(sp.Child("configMap"), src.ConfigMap.Name, src.ConfigMap.Items)
		}
		if src.DownwardAPI != nil {
			n++
			pp := sp.Child("downwardAPI")
			for j := range src.DownwardAPI.Items {
				f := &src.DownwardAPI.Items[j]
				errs = append(errs, validateDownwardAPIVolumeFile(f, pp)...)
				if f.Path != "" {
					dup(f.Path, f.Path)
				}
			}
		}
		if t := src.ServiceAccountToken; t != nil {
			n++
			pp := sp.Child("serviceAccountToken")
			exp := int64(0)
			if t.ExpirationSeconds != nil {
				exp = *t.ExpirationSeconds
			}
			if exp < 10*60 {
				errs = append(errs, field.Invalid(pp.Child("expirationSeconds").Path(), exp, "may not specify a duration less than 10 minutes"))
			}
			if exp > 1<<32 {
				errs = append(errs, field.Invalid(pp.Child("expirationSeconds").Path(), exp, "may not specify a duration larger than 2^32 seconds"))
			}
			if t.Path == "" {
				errs = append(errs, field.Required(p.Child("path").Path(), ""))
			} else {
				errs = append(errs, validateLocalNonReservedPath(t.Path, p.Child("path"))...)
			}
		}
		if src.ClusterTrustBundle != nil {
			n++
		}
		if src.PodCertificate != nil {
			n++
		}
		if n > 1 {
			errs = append(errs, field.Forbidden(sp.Path(), "may not specify more than 1 volume type per source"))
		}
	}
	return errs
}

// templateObjectMeta is ValidateTemplateObjectMeta: an embedded template's
// annotations and labels, and every other metadata field that is set is
// `Forbidden: cannot be set` (in the struct's field order).
func templateObjectMeta(meta *metav1.ObjectMeta, p lazyPath) field.ErrorList {
	errs := apivalidation.ValidateAnnotations(meta.Annotations, p.Child("annotations").Path())
	errs = append(errs, metav1validation.ValidateLabels(meta.Labels, p.Child("labels").Path())...)
	v := reflect.ValueOf(*meta)
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if f.Name == "Annotations" || f.Name == "Labels" || v.Field(i).IsZero() {
			continue
		}
		name := strings.ToLower(f.Name[:1]) + f.Name[1:]
		errs = append(errs, field.Forbidden(p.Child(name).Path(), "cannot be set"))
	}
	return errs
}

// keyedVolume is a secret or configMap volume source: the object's name
// (under nameField), the default mode, then each item's key and path.
func keyedVolume(p lazyPath, nameField, name string, mode *int32, items []corev1.KeyToPath) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		errs = append(errs, field.Required(p.Child(nameField).Path(), ""))
	}
	errs = append(errs, validateFileMode(mode, p.Child("defaultMode"))...)
	for i := range items {
		errs = append(errs, validateKeyToPath(&items[i], p.Child("items").Index(i))...)
	}
	return errs
}
