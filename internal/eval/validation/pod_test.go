package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/features"
)

// basePod is a valid Pod as the defaulting leaves it.
func basePod() *corev1.Pod {
	grace := int64(30)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{Name: "app", Image: "img:1", ImagePullPolicy: corev1.PullIfNotPresent,
				TerminationMessagePolicy: corev1.TerminationMessageReadFile}},
			RestartPolicy: corev1.RestartPolicyAlways, DNSPolicy: corev1.DNSClusterFirst,
			SecurityContext: &corev1.PodSecurityContext{}, TerminationGracePeriodSeconds: &grace,
		},
	}
}

func TestPodValidation(t *testing.T) {
	neg := int64(-1)
	zero := int64(0)
	always := corev1.ContainerRestartPolicyAlways
	tests := []struct {
		name   string
		mutate func(p *corev1.Pod)
		want   []string
	}{
		{"valid", func(p *corev1.Pod) {}, nil},
		{"image missing", func(p *corev1.Pod) { p.Spec.Containers[0].Image = "" },
			[]string{`spec.containers[0].image: Required value`}},
		{"image whitespace", func(p *corev1.Pod) { p.Spec.Containers[0].Image = " img " },
			[]string{`spec.containers[0].image: Invalid value: " img ": must not have leading or trailing whitespace`}},
		{"duplicate container name", func(p *corev1.Pod) { p.Spec.Containers = append(p.Spec.Containers, p.Spec.Containers[0]) },
			[]string{`spec.containers[1].name: Duplicate value: "app"`}},
		{"init container reuses a name and has a probe", func(p *corev1.Pod) {
			c := p.Spec.Containers[0]
			c.ReadinessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}, PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3}
			p.Spec.InitContainers = []corev1.Container{c}
		}, []string{`spec.initContainers[0].name: Duplicate value: "app"`,
			`spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always`}},
		{"sidecar liveness successThreshold", func(p *corev1.Pod) {
			c := p.Spec.Containers[0]
			c.Name, c.RestartPolicy = "side", &always
			c.LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(80)}}, PeriodSeconds: -1, TimeoutSeconds: 1, SuccessThreshold: 2, FailureThreshold: 3}
			p.Spec.InitContainers = []corev1.Container{c}
		}, []string{`spec.initContainers[0].livenessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0`,
			`spec.initContainers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1`}},
		{"probe two handlers", func(p *corev1.Pod) {
			p.Spec.Containers[0].StartupProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"x"}}, GRPC: &corev1.GRPCAction{Port: 9}}, SuccessThreshold: 1}
		}, []string{`spec.containers[0].startupProbe.grpc: Forbidden: may not specify more than 1 handler type`}},
		{"ports", func(p *corev1.Pod) {
			p.Spec.Containers[0].Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: 70000, Protocol: "HTTP"}, {Name: "http", Protocol: corev1.ProtocolTCP}}
		}, []string{`spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive`,
			`spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"`,
			`spec.containers[0].ports[1].name: Duplicate value: "http"`,
			`spec.containers[0].ports[1].containerPort: Required value`}},
		{"env", func(p *corev1.Pod) {
			p.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "A=B"}, {Name: "X", ValueFrom: &corev1.EnvVarSource{
				FieldRef:        &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.phase"},
				ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}, Key: "k"}}}}
		}, []string{`spec.containers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
			`spec.containers[0].env[1].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"`,
			`spec.containers[0].env[1].valueFrom: Invalid value: "": may not have more than one field specified at a time`}},
		{"mount of a missing volume", func(p *corev1.Pod) {
			p.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "v", MountPath: "/d"}, {Name: "v", MountPath: "/d"}}
		}, []string{`spec.containers[0].volumeMounts[0].name: Not found: "v"`, `spec.containers[0].volumeMounts[1].name: Not found: "v"`,
			`spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/d": must be unique`}},
		{"volumes", func(p *corev1.Pod) {
			neg := resource.MustParse("-1Gi")
			p.Spec.Volumes = []corev1.Volume{
				{Name: "a", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{SizeLimit: &neg}, ConfigMap: &corev1.ConfigMapVolumeSource{}}},
				{Name: "b", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cm"}, Items: []corev1.KeyToPath{{Key: "k", Path: "../x"}}}}},
				{Name: "b", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
			}
		}, []string{`spec.volumes[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity`,
			`spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type`,
			// volume 1 has errors, so its name is not taken: no duplicate for volume 2.
			`spec.volumes[1].configMap.items[0].path: Invalid value: "../x": must not contain '..'`}},
		{"ephemeral containers", func(p *corev1.Pod) {
			p.Spec.Volumes = []corev1.Volume{{Name: "v", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
			debug := corev1.EphemeralContainerCommon{Name: "app", Image: " busybox", ImagePullPolicy: corev1.PullIfNotPresent,
				TerminationMessagePolicy: corev1.TerminationMessageReadFile, Stdin: true, TTY: true,
				Ports:        []corev1.ContainerPort{{ContainerPort: 80, Protocol: corev1.ProtocolTCP}},
				Resources:    corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}},
				VolumeMounts: []corev1.VolumeMount{{Name: "v", MountPath: "/v", SubPath: "x"}}}
			p.Spec.EphemeralContainers = []corev1.EphemeralContainer{
				{EphemeralContainerCommon: debug, TargetContainerName: "app"},
				{EphemeralContainerCommon: corev1.EphemeralContainerCommon{Name: "dbg", Image: "busybox", ImagePullPolicy: corev1.PullIfNotPresent,
					TerminationMessagePolicy: corev1.TerminationMessageReadFile}, TargetContainerName: "dbg"},
			}
		}, []string{`spec.ephemeralContainers[0].image: Invalid value: " busybox": must not have leading or trailing whitespace`,
			`spec.ephemeralContainers[0].name: Duplicate value: "app"`,
			`spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container`,
			`spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container`,
			`spec.ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container`,
			// A target must be a regular or init container, not itself.
			`spec.ephemeralContainers[1].targetContainerName: Not found: "dbg"`,
			`spec.ephemeralContainers: Forbidden: cannot be set on create`}},
		{"in-tree sources", func(p *corev1.Pod) {
			client, shared := "client", corev1.AzureSharedBlobDisk
			p.Spec.Volumes = []corev1.Volume{
				{Name: "a", VolumeSource: corev1.VolumeSource{GCEPersistentDisk: &corev1.GCEPersistentDiskVolumeSource{Partition: 256}}},
				{Name: "b", VolumeSource: corev1.VolumeSource{ISCSI: &corev1.ISCSIVolumeSource{TargetPortal: strings.Repeat("10.0.0.1", 8), IQN: "iqn.bad", Lun: 300, InitiatorName: &client}}},
				{Name: "c", VolumeSource: corev1.VolumeSource{AzureDisk: &corev1.AzureDiskVolumeSource{DiskName: "d", DataDiskURI: "/subscriptions/x", Kind: &shared}}},
				{Name: "d", VolumeSource: corev1.VolumeSource{FlexVolume: &corev1.FlexVolumeSource{Options: map[string]string{"kubernetes.io/x": "1", "size": "2"}}}},
				{Name: "e", VolumeSource: corev1.VolumeSource{CephFS: &corev1.CephFSVolumeSource{}, RBD: &corev1.RBDVolumeSource{}}},
			}
		}, []string{`spec.volumes[0].persistentDisk.pdName: Required value`,
			`spec.volumes[0].persistentDisk.partition: Invalid value: 256: must be between 1 and 255, inclusive`,
			`spec.volumes[1].iscsi.iqn: Invalid value: "iqn.bad": must be valid format`,
			`spec.volumes[1].iscsi.lun: Invalid value: 300: must be between 0 and 255, inclusive`,
			`spec.volumes[1].iscsi.initiatorname: Invalid value: "client": must be valid format starting with iqn, eui, or naa`,
			`spec.volumes[1].name: Invalid value: "b": Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.`,
			`spec.volumes[2].azureDisk.diskURI: Unsupported value: "/subscriptions/x": supported values: "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"`,
			`spec.volumes[3].flexVolume.driver: Required value`,
			`spec.volumes[3].flexVolume.options[kubernetes.io/x]: Invalid value: "kubernetes.io/x": kubernetes.io and k8s.io namespaces are reserved`,
			// rbd comes before cephfs in upstream's order; cephFS is the second source.
			`spec.volumes[4].rbd.monitors: Required value`,
			`spec.volumes[4].rbd.image: Required value`,
			`spec.volumes[4].cephFS: Forbidden: may not specify more than 1 volume type`}},
		{"pod fields", func(p *corev1.Pod) {
			p.Spec.RestartPolicy = "Sometimes"
			p.Spec.DNSPolicy = corev1.DNSNone
			p.Spec.ActiveDeadlineSeconds = &zero
			p.Spec.Hostname = "Web_1"
			p.Spec.SecurityContext.RunAsUser = &neg
		}, []string{`spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`,
			`spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive`,
			`spec.dnsConfig: Required value: must provide ` + "`dnsConfig` when `dnsPolicy`" + ` is None`,
			`spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive`,
			`spec.hostname: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`}},
		{"scheduling", func(p *corev1.Pod) {
			p.Spec.Tolerations = []corev1.Toleration{{Key: "k", Operator: "Equals", Value: "v", Effect: "NoRun"}}
			p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 0, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule}}
			p.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "g"}, {Name: "g"}}
		}, []string{`spec.schedulingGates[1]: Duplicate value: "g"`,
			`spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero`,
			`spec.tolerations[0].operator: Unsupported value: "Equals": supported values: "Equal", "Exists"`,
			`spec.tolerations[0].effect: Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`}},
		{"privilege escalation with privileged", func(p *corev1.Pod) {
			yes, no := true, false
			p.Spec.Containers[0].SecurityContext = &corev1.SecurityContext{Privileged: &yes, AllowPrivilegeEscalation: &no}
		}, []string{`spec.containers[0].securityContext: Invalid value: {"Capabilities":null,"Privileged":true,"SELinuxOptions":null,"WindowsOptions":null,"RunAsUser":null,"RunAsGroup":null,"RunAsNonRoot":null,"ReadOnlyRootFilesystem":null,"AllowPrivilegeEscalation":false,"ProcMount":null,"SeccompProfile":null,"AppArmorProfile":null}: cannot set ` + "`allowPrivilegeEscalation` to false and `privileged`" + ` to true`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := basePod()
			tt.mutate(p)
			var got []string
			for _, e := range Pod(p, PodOptions{Gates: features.Default()}) {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

func TestPodTemplateSpecSkipsPodOnlyRules(t *testing.T) {
	p := basePod()
	p.Spec.Containers[0].Image = " img "
	tmpl := &corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "bad value!"}}, Spec: p.Spec}
	var got []string
	for _, e := range PodTemplateSpec(tmpl, nil, PodOptions{Gates: features.Default()}) {
		got = append(got, e.Error())
	}
	want := `labels: Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`
	if strings.Join(got, "\n") != want {
		t.Errorf("got %q", got)
	}
}

// TestEphemeralClaimTemplate (VAL-21): an ephemeral volume's claim template
// may set only labels and annotations, and its spec is validated as a claim's.
func TestEphemeralClaimTemplate(t *testing.T) {
	spec := corev1.PodSpec{
		Volumes: []corev1.Volume{{Name: "scratch", VolumeSource: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{
			VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{
				ObjectMeta: metav1.ObjectMeta{Name: "x", Labels: map[string]string{"a": "b"}},
				Spec:       corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}},
			}}}}},
	}
	var got []string
	_, errs := validateVolumes(spec.Volumes, nil, lazy(field.NewPath("spec", "volumes")), newPodOptions(PodOptions{}, false))
	for _, e := range errs {
		got = append(got, e.Error())
	}
	want := []string{
		"spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.name: Forbidden: cannot be set",
		"spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage]: Required value",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
