package validation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// BenchmarkPodRealistic is Pod validation of a valid Pod with what Pods
// commonly carry: labels and annotations, two containers with ports, env
// (values, a secret key, a field ref), mounts of configMap, secret and
// projected volumes, probes, resources and security contexts.
func BenchmarkPodRealistic(b *testing.B) {
	pod := basePod()
	pod.Labels = map[string]string{"app": "web", "app.kubernetes.io/name": "web", "pod-template-hash": "5d8f9c7b6"}
	pod.Annotations = map[string]string{"prometheus.io/scrape": "true", "kubectl.kubernetes.io/restartedAt": "2026-01-01T00:00:00Z"}
	no, yes := false, true
	uid := int64(1000)
	mode := int32(0o644)
	expiry := int64(3607)
	pod.Spec.SecurityContext = &corev1.PodSecurityContext{RunAsUser: &uid, RunAsNonRoot: &yes, FSGroup: &uid,
		SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}}
	pod.Spec.Volumes = []corev1.Volume{
		{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: "web-config"}, DefaultMode: &mode}}},
		{Name: "tls", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "web-tls", DefaultMode: &mode}}},
		{Name: "kube-api-access", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{DefaultMode: &mode,
			Sources: []corev1.VolumeProjection{
				{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: &expiry}},
				{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"},
					Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			}}}},
	}
	pod.Spec.ServiceAccountName = "default"
	ctr := func(name string, port int32) corev1.Container {
		c := pod.Spec.Containers[0]
		c.Name = name
		c.Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: port, Protocol: corev1.ProtocolTCP}}
		c.Env = []corev1.EnvVar{
			{Name: "MODE", Value: "production"},
			{Name: "TOKEN", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
				LocalObjectReference: corev1.LocalObjectReference{Name: "web-secret"}, Key: "token"}}},
			{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
		}
		c.VolumeMounts = []corev1.VolumeMount{{Name: "config", MountPath: "/etc/web"}, {Name: "tls", MountPath: "/etc/tls", ReadOnly: true},
			{Name: "kube-api-access", MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true}}
		c.Resources = corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
			Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("256Mi")},
		}
		probe := &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http"),
			Scheme: corev1.URISchemeHTTP}}, TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}
		c.LivenessProbe, c.ReadinessProbe = probe, probe
		c.SecurityContext = &corev1.SecurityContext{AllowPrivilegeEscalation: &no, ReadOnlyRootFilesystem: &yes,
			Capabilities: &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}}}
		return c
	}
	pod.Spec.Containers = []corev1.Container{ctr("web", 8080), ctr("sidecar", 9090)}
	if errs := Pod(pod, PodOptions{}); len(errs) != 0 {
		b.Fatal(errs)
	}
	b.ReportAllocs()
	for b.Loop() {
		Pod(pod, PodOptions{})
	}
}
