package defaults

import (
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"

	"github.com/limitcheck/limitcheck/internal/eval/resources"
)

// storage.k8s.io/v1 defaulting of the kinds validated by VAL-87..VAL-90 and
// VAL-100 (SetObjectDefaults_* in kubernetes/pkg/apis/storage/v1). The v1
// API defaults nothing in a CSINode, CSIStorageCapacity or
// VolumeAttributesClass; StorageClass defaulting is in internal/eval/classes.

// CSIDriver is SetDefaults_CSIDriver at the 1.36 gates (VAL-87):
// attachRequired true; podInfoOnMount, storageCapacity, requiresRepublish
// and seLinuxMount (its gate is locked on) false; fsGroupPolicy
// ReadWriteOnceWithFSType; volumeLifecycleModes [Persistent] when empty.
// preventPodSchedulingIfMissing is not defaulted: its gate is off.
func CSIDriver(d *storagev1.CSIDriver) {
	s := &d.Spec
	setBool := func(b **bool, v bool) {
		if *b == nil {
			*b = &v
		}
	}
	setBool(&s.AttachRequired, true)
	setBool(&s.PodInfoOnMount, false)
	setBool(&s.StorageCapacity, false)
	if s.FSGroupPolicy == nil {
		p := storagev1.ReadWriteOnceWithFSTypeFSGroupPolicy
		s.FSGroupPolicy = &p
	}
	if len(s.VolumeLifecycleModes) == 0 {
		s.VolumeLifecycleModes = append(s.VolumeLifecycleModes, storagev1.VolumeLifecyclePersistent)
	}
	setBool(&s.RequiresRepublish, false)
	setBool(&s.SELinuxMount, false)
}

// VolumeAttachment is SetObjectDefaults_VolumeAttachment (VAL-100) as far as
// validation reads it: an inline volume spec's capacity rounded (PL-01) and
// its hostPath's type "". The in-tree sources' defaults (RBD pool, iSCSI
// interface, ...) are left out, as for a PersistentVolume (VAL-91).
func VolumeAttachment(va *storagev1.VolumeAttachment) {
	s := va.Spec.Source.InlineVolumeSpec
	if s == nil {
		return
	}
	resources.RoundResourceList(s.Capacity)
	if hp := s.HostPath; hp != nil && hp.Type == nil {
		t := corev1.HostPathUnset
		hp.Type = &t
	}
}
