// Package defaults is what kube-apiserver does to an object between decoding and
// validation: the v1 API defaulting (SetObjectDefaults_*, SetDefaults_*) and the
// REST strategies' PrepareForCreate of workloads (a Job's UID, generated selector
// and labels), with the rounding of every ResourceList. The engine applies them
// before validation and admission (docs/behaviour.md PL-01..03, LR-01, VAL-10,
// VAL-40..VAL-46).
package defaults

import (
	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/limitcheck/limitcheck/internal/eval/resources"

	"github.com/limitcheck/limitcheck/internal/eval/features"
)

// API defaulting applied at decode time, before any admission plugin
// (SetObjectDefaults_* in kubernetes/pkg/apis/core/v1; docs/behaviour.md PL-01..03, LR-01).

// DefaultPod applies the v1 defaulting of a Pod, in upstream order:
// SetDefaults_Pod first (requests := limits, then pod-level defaulting on unrounded
// values, service links, host-network ports), then the spec's defaults
// validation reads (DefaultPodSpec, VAL-10), then rounding of every ResourceList.
func DefaultPod(pod *corev1.Pod, gates features.Gates) {
	// The conversion to the internal type makes a Pod's negative grace
	// period 1 (not a template's: a workload keeps it, and is warned).
	if g := pod.Spec.TerminationGracePeriodSeconds; g != nil && *g < 0 {
		one := int64(1)
		pod.Spec.TerminationGracePeriodSeconds = &one
	}
	defaultRequestsFromLimits(pod.Spec.Containers)
	defaultRequestsFromLimits(pod.Spec.InitContainers)
	if gates.Enabled(features.PodLevelResources) {
		defaultHugePagePodLimits(pod)
		defaultPodRequests(pod)
	}
	if pod.Spec.EnableServiceLinks == nil {
		on := corev1.DefaultEnableServiceLinks
		pod.Spec.EnableServiceLinks = &on
	}
	if pod.Spec.HostNetwork {
		defaultHostNetworkPorts(pod.Spec.Containers)
		defaultHostNetworkPorts(pod.Spec.InitContainers)
	}
	DefaultPodSpec(&pod.Spec)
	roundPodSpec(&pod.Spec)
}

// roundPodSpec rounds every ResourceList of a Pod spec or Pod template (PL-01).
func roundPodSpec(spec *corev1.PodSpec) {
	for i := range spec.InitContainers {
		roundRequirements(&spec.InitContainers[i].Resources)
	}
	for i := range spec.Containers {
		roundRequirements(&spec.Containers[i].Resources)
	}
	for i := range spec.EphemeralContainers {
		roundRequirements(&spec.EphemeralContainers[i].Resources)
	}
	resources.RoundResourceList(spec.Overhead)
	if spec.Resources != nil {
		roundRequirements(spec.Resources)
	}
}

func roundRequirements(r *corev1.ResourceRequirements) {
	resources.RoundResourceList(r.Limits)
	resources.RoundResourceList(r.Requests)
}

// defaultRequestsFromLimits: for containers with limits, every limit missing from
// requests is copied (PL-02).
func defaultRequestsFromLimits(containers []corev1.Container) {
	for i := range containers {
		res := &containers[i].Resources
		if res.Limits == nil {
			continue
		}
		if res.Requests == nil {
			res.Requests = corev1.ResourceList{}
		}
		for k, v := range res.Limits {
			if _, ok := res.Requests[k]; !ok {
				res.Requests[k] = v.DeepCopy()
			}
		}
	}
}

// defaultPodRequests fills pod-level requests when pod-level limits are set (PL-03).
func defaultPodRequests(pod *corev1.Pod) {
	if pod.Spec.Resources == nil || len(pod.Spec.Resources.Limits) == 0 {
		return
	}
	podReqs := pod.Spec.Resources.Requests
	if podReqs == nil {
		podReqs = corev1.ResourceList{}
	}
	for k, v := range resourcehelper.AggregateContainerRequests(pod, resourcehelper.PodResourcesOptions{}) {
		if _, ok := podReqs[k]; !ok && resourcehelper.IsSupportedPodLevelResource(k) && resources.IsOvercommitAllowed(k) {
			podReqs[k] = v.DeepCopy()
		}
	}
	for k, v := range pod.Spec.Resources.Limits {
		if _, ok := podReqs[k]; !ok && resourcehelper.IsSupportedPodLevelResource(k) {
			podReqs[k] = v.DeepCopy()
		}
	}
	if len(podReqs) > 0 {
		pod.Spec.Resources.Requests = podReqs
	}
}

// defaultHugePagePodLimits fills missing pod-level hugepage limits from the
// containers' aggregate, unless a pod-level request for it exists (PL-03).
func defaultHugePagePodLimits(pod *corev1.Pod) {
	r := pod.Spec.Resources
	if r == nil || (len(r.Limits) == 0 && len(r.Requests) == 0) {
		return
	}
	podLims := r.Limits
	if podLims == nil {
		podLims = corev1.ResourceList{}
	}
	for k, v := range resourcehelper.AggregateContainerLimits(pod, resourcehelper.PodResourcesOptions{}) {
		if !resourcehelper.IsSupportedPodLevelResource(k) || !resources.IsHugePageResourceName(k) {
			continue
		}
		if _, ok := r.Requests[k]; ok {
			continue
		}
		if _, ok := podLims[k]; !ok {
			podLims[k] = v.DeepCopy()
		}
	}
	if len(podLims) > 0 {
		r.Limits = podLims
	}
}

// DefaultLimitRange applies SetDefaults_LimitRangeItem to every item and rounds all
// five maps (LR-01, PL-01).
func DefaultLimitRange(lr *corev1.LimitRange) {
	for i := range lr.Spec.Limits {
		item := &lr.Spec.Limits[i]
		if item.Type == corev1.LimitTypeContainer {
			if item.Default == nil {
				item.Default = corev1.ResourceList{}
			}
			if item.DefaultRequest == nil {
				item.DefaultRequest = corev1.ResourceList{}
			}
			copyMissing(item.Default, item.Max)
			copyMissing(item.DefaultRequest, item.Default)
			copyMissing(item.DefaultRequest, item.Min)
		}
		resources.RoundResourceList(item.Max)
		resources.RoundResourceList(item.Min)
		resources.RoundResourceList(item.Default)
		resources.RoundResourceList(item.DefaultRequest)
		resources.RoundResourceList(item.MaxLimitRequestRatio)
	}
}

// defaultPtr points *p at v when it is nil, as upstream's pointer defaults do.
func defaultPtr[T any](p **T, v T) {
	if *p == nil {
		*p = &v
	}
}

func copyMissing(dst, src corev1.ResourceList) {
	for k, v := range src {
		if _, ok := dst[k]; !ok {
			dst[k] = v.DeepCopy()
		}
	}
}

// DefaultPersistentVolumeClaim rounds the claim's resource lists (PL-01).
func DefaultPersistentVolumeClaim(pvc *corev1.PersistentVolumeClaim) {
	if pvc.Spec.VolumeMode == nil {
		mode := corev1.PersistentVolumeFilesystem
		pvc.Spec.VolumeMode = &mode
	}
	roundRequirementsVolume(&pvc.Spec.Resources)
	resources.RoundResourceList(pvc.Status.Capacity)
	resources.RoundResourceList(pvc.Status.AllocatedResources)
}

// DefaultPersistentVolume is the v1 defaulting of a PersistentVolume (VAL-91):
// phase Pending, reclaim policy Retain, volume mode Filesystem, the capacity
// rounded (PL-01), a hostPath's type "", and the in-tree sources' defaults
// (RBD pool, iSCSI interface, Azure disk kind, ...).
func DefaultPersistentVolume(pv *corev1.PersistentVolume) {
	if pv.Status.Phase == "" {
		pv.Status.Phase = corev1.VolumePending
	}
	if pv.Spec.PersistentVolumeReclaimPolicy == "" {
		pv.Spec.PersistentVolumeReclaimPolicy = corev1.PersistentVolumeReclaimRetain
	}
	if pv.Spec.VolumeMode == nil {
		mode := corev1.PersistentVolumeFilesystem
		pv.Spec.VolumeMode = &mode
	}
	defaultVolumeSpec(&pv.Spec)
}

// defaultVolumeSpec is what SetObjectDefaults_PersistentVolume and
// SetObjectDefaults_VolumeAttachment (an inline spec) do alike, as far as
// validation reads it: the capacity rounded (PL-01), a hostPath's type "".
func defaultVolumeSpec(s *corev1.PersistentVolumeSpec) {
	resources.RoundResourceList(s.Capacity)
	if hp := s.HostPath; hp != nil {
		defaultPtr(&hp.Type, corev1.HostPathUnset)
	}
	if r := s.RBD; r != nil {
		defaultRBD(&r.RBDPool, &r.RadosUser, &r.Keyring)
	}
	if s.ISCSI != nil {
		defaultEmpty(&s.ISCSI.ISCSIInterface, "default")
	}
	if s.AzureDisk != nil {
		defaultAzureDisk(s.AzureDisk)
	}
	if sc := s.ScaleIO; sc != nil {
		defaultScaleIO(&sc.StorageMode, &sc.FSType)
	}
}

func roundRequirementsVolume(r *corev1.VolumeResourceRequirements) {
	resources.RoundResourceList(r.Limits)
	resources.RoundResourceList(r.Requests)
}

// DefaultResourceQuota rounds spec.hard, status.hard and status.used (PL-01).
func DefaultResourceQuota(q *corev1.ResourceQuota) {
	resources.RoundResourceList(q.Spec.Hard)
	resources.RoundResourceList(q.Status.Hard)
	resources.RoundResourceList(q.Status.Used)
}

// DefaultResourceClaim is the v1 defaulting of a ResourceClaim's requests
// (defaultDeviceClaim).
func DefaultResourceClaim(claim *resourcev1.ResourceClaim) {
	defaultDeviceClaim(&claim.Spec.Devices)
}

// DefaultResourceClaimTemplate is the same defaulting of a template's claim.
func DefaultResourceClaimTemplate(t *resourcev1.ResourceClaimTemplate) {
	defaultDeviceClaim(&t.Spec.Spec.Devices)
}

// defaultDeviceClaim: each exact request and subrequest gets allocationMode
// ExactCount and then, in that mode, count 1; each toleration operator Equal.
func defaultDeviceClaim(d *resourcev1.DeviceClaim) {
	mode := func(m *resourcev1.DeviceAllocationMode, count *int64) {
		if *m == "" {
			*m = resourcev1.DeviceAllocationModeExactCount
		}
		if *m == resourcev1.DeviceAllocationModeExactCount && *count == 0 {
			*count = 1
		}
	}
	operators := func(ts []resourcev1.DeviceToleration) {
		for i := range ts {
			if ts[i].Operator == "" {
				ts[i].Operator = resourcev1.DeviceTolerationOpEqual
			}
		}
	}
	for i := range d.Requests {
		r := &d.Requests[i]
		if r.Exactly != nil {
			mode(&r.Exactly.AllocationMode, &r.Exactly.Count)
			operators(r.Exactly.Tolerations)
		}
		for j := range r.FirstAvailable {
			s := &r.FirstAvailable[j]
			mode(&s.AllocationMode, &s.Count)
			operators(s.Tolerations)
		}
	}
}
