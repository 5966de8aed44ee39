package eval

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// setPodIdentity is what the StatefulSet controller gives each Pod before
// creating it (initIdentity, updateStorage; VAL-10): its name as hostname,
// the service as subdomain, and a claim volume per volumeClaimTemplate
// replacing a template volume of the same name.
func setPodIdentity(set *appsv1.StatefulSet, pod *corev1.Pod, ordinal int) {
	pod.Spec.Hostname = pod.Name
	pod.Spec.Subdomain = set.Spec.ServiceName
	if len(set.Spec.VolumeClaimTemplates) == 0 {
		return
	}
	vols := make([]corev1.Volume, 0, len(set.Spec.VolumeClaimTemplates)+len(pod.Spec.Volumes))
	templates := map[string]bool{}
	for j := range set.Spec.VolumeClaimTemplates {
		t := &set.Spec.VolumeClaimTemplates[j]
		templates[t.Name] = true
		vols = append(vols, corev1.Volume{Name: t.Name, VolumeSource: corev1.VolumeSource{
			PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: claimFor(set, t, ordinal).Name}}})
	}
	for _, v := range pod.Spec.Volumes {
		if !templates[v.Name] {
			vols = append(vols, v)
		}
	}
	pod.Spec.Volumes = vols
}
