package defaults

import (
	storagev1 "k8s.io/api/storage/v1"
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
	defaultPtr(&s.AttachRequired, true)
	defaultPtr(&s.PodInfoOnMount, false)
	defaultPtr(&s.StorageCapacity, false)
	defaultPtr(&s.FSGroupPolicy, storagev1.ReadWriteOnceWithFSTypeFSGroupPolicy)
	if len(s.VolumeLifecycleModes) == 0 {
		s.VolumeLifecycleModes = append(s.VolumeLifecycleModes, storagev1.VolumeLifecyclePersistent)
	}
	defaultPtr(&s.RequiresRepublish, false)
	defaultPtr(&s.SELinuxMount, false)
}

// VolumeAttachment is SetObjectDefaults_VolumeAttachment (VAL-100): an inline
// volume spec is defaulted as a PersistentVolume's spec (VAL-91).
func VolumeAttachment(va *storagev1.VolumeAttachment) {
	if s := va.Spec.Source.InlineVolumeSpec; s != nil {
		defaultVolumeSpec(s)
	}
}
