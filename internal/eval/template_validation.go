package eval

import (
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// templateToValidate is the Pod template a workload's validation checks
// (VAL-10): the template itself, except for a StatefulSet, whose validation
// ignores the template's hostname and subdomain (the controller sets them)
// and sees a volume per volumeClaimTemplate in front of the template's own
// volumes. Upstream orders those claim volumes by map iteration; limitcheck
// sorts them by name.
func templateToValidate(obj runtime.Object, t *corev1.PodTemplateSpec) *corev1.PodTemplateSpec {
	set, ok := obj.(*appsv1.StatefulSet)
	if !ok || (t.Spec.Subdomain == "" && t.Spec.Hostname == "" && len(set.Spec.VolumeClaimTemplates) == 0) {
		return t
	}
	c := t.DeepCopy()
	c.Spec.Subdomain, c.Spec.Hostname = "", ""
	if len(set.Spec.VolumeClaimTemplates) > 0 {
		claims := map[string]bool{}
		var vols []corev1.Volume
		for _, ct := range set.Spec.VolumeClaimTemplates {
			if claims[ct.Name] {
				continue
			}
			claims[ct.Name] = true
			vols = append(vols, corev1.Volume{Name: ct.Name, VolumeSource: corev1.VolumeSource{
				PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: ct.Name}}})
		}
		sort.Slice(vols, func(i, j int) bool { return vols[i].Name < vols[j].Name })
		for _, v := range c.Spec.Volumes {
			if !claims[v.Name] {
				vols = append(vols, v)
			}
		}
		c.Spec.Volumes = vols
	}
	return c
}

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
