package defaults

import (
	corev1 "k8s.io/api/core/v1"
)

// DefaultPodSpec applies the v1 defaults of a Pod spec or Pod template that
// Pod validation reads (SetDefaults_PodSpec, _Volume, _Container, _Probe,
// _HTTPGetAction, _ObjectFieldSelector, the volume sources' modes; VAL-10),
// in the order of SetObjectDefaults_Pod: spec, volumes, init containers,
// containers, ephemeral containers.
func DefaultPodSpec(spec *corev1.PodSpec) {
	if spec.DNSPolicy == "" {
		spec.DNSPolicy = corev1.DNSClusterFirst
	}
	if spec.RestartPolicy == "" {
		spec.RestartPolicy = corev1.RestartPolicyAlways
	}
	if spec.SecurityContext == nil {
		spec.SecurityContext = &corev1.PodSecurityContext{}
	}
	if spec.TerminationGracePeriodSeconds == nil {
		g := int64(corev1.DefaultTerminationGracePeriodSeconds)
		spec.TerminationGracePeriodSeconds = &g
	}
	if spec.SchedulerName == "" {
		spec.SchedulerName = corev1.DefaultSchedulerName
	}
	// The conversion to the internal type reads serviceAccount when
	// serviceAccountName is empty.
	if spec.ServiceAccountName == "" {
		spec.ServiceAccountName = spec.DeprecatedServiceAccount
	}
	for i := range spec.Volumes {
		defaultVolume(&spec.Volumes[i])
	}
	for i := range spec.InitContainers {
		defaultContainer(&spec.InitContainers[i])
	}
	for i := range spec.Containers {
		defaultContainer(&spec.Containers[i])
	}
	for i := range spec.EphemeralContainers {
		c := &spec.EphemeralContainers[i].EphemeralContainerCommon
		defaultImagePullPolicy(&c.ImagePullPolicy, c.Image)
		if c.TerminationMessagePath == "" {
			c.TerminationMessagePath = corev1.TerminationMessagePathDefault
		}
		if c.TerminationMessagePolicy == "" {
			c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
		}
		defaultPorts(c.Ports)
	}
}

func defaultHostNetworkPorts(cs []corev1.Container) {
	for i := range cs {
		for j := range cs[i].Ports {
			if cs[i].Ports[j].HostPort == 0 {
				cs[i].Ports[j].HostPort = cs[i].Ports[j].ContainerPort
			}
		}
	}
}

func defaultVolume(v *corev1.Volume) {
	s := &v.VolumeSource
	if (*s == corev1.VolumeSource{}) {
		s.EmptyDir = &corev1.EmptyDirVolumeSource{}
	}
	mode := func(m **int32, def int32) {
		if *m == nil {
			*m = &def
		}
	}
	if s.Image != nil && s.Image.PullPolicy == "" {
		defaultImagePullPolicy(&s.Image.PullPolicy, s.Image.Reference)
	}
	if s.HostPath != nil && s.HostPath.Type == nil {
		t := corev1.HostPathUnset
		s.HostPath.Type = &t
	}
	if s.Secret != nil {
		mode(&s.Secret.DefaultMode, corev1.SecretVolumeSourceDefaultMode)
	}
	if s.ISCSI != nil {
		defaultEmpty(&s.ISCSI.ISCSIInterface, "default")
	}
	if r := s.RBD; r != nil {
		defaultRBD(&r.RBDPool, &r.RadosUser, &r.Keyring)
	}
	if s.DownwardAPI != nil {
		mode(&s.DownwardAPI.DefaultMode, corev1.DownwardAPIVolumeSourceDefaultMode)
		for j := range s.DownwardAPI.Items {
			defaultFieldRef(s.DownwardAPI.Items[j].FieldRef)
		}
	}
	if s.ConfigMap != nil {
		mode(&s.ConfigMap.DefaultMode, corev1.ConfigMapVolumeSourceDefaultMode)
	}
	if s.AzureDisk != nil {
		defaultAzureDisk(s.AzureDisk)
	}
	if s.Projected != nil {
		mode(&s.Projected.DefaultMode, corev1.ProjectedVolumeSourceDefaultMode)
		for j := range s.Projected.Sources {
			src := &s.Projected.Sources[j]
			if src.DownwardAPI != nil {
				for k := range src.DownwardAPI.Items {
					defaultFieldRef(src.DownwardAPI.Items[k].FieldRef)
				}
			}
			if t := src.ServiceAccountToken; t != nil && t.ExpirationSeconds == nil {
				hour := int64(3600)
				t.ExpirationSeconds = &hour
			}
		}
	}
	if sc := s.ScaleIO; sc != nil {
		defaultScaleIO(&sc.StorageMode, &sc.FSType)
	}
	if e := s.Ephemeral; e != nil && e.VolumeClaimTemplate != nil && e.VolumeClaimTemplate.Spec.VolumeMode == nil {
		fs := corev1.PersistentVolumeFilesystem
		e.VolumeClaimTemplate.Spec.VolumeMode = &fs
	}
}

func defaultFieldRef(f *corev1.ObjectFieldSelector) {
	if f != nil && f.APIVersion == "" {
		f.APIVersion = "v1"
	}
}

func defaultPorts(ports []corev1.ContainerPort) {
	for j := range ports {
		if ports[j].Protocol == "" {
			ports[j].Protocol = corev1.ProtocolTCP
		}
	}
}

func defaultContainer(c *corev1.Container) {
	defaultImagePullPolicy(&c.ImagePullPolicy, c.Image)
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = corev1.TerminationMessagePathDefault
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
	}
	defaultPorts(c.Ports)
	for j := range c.Env {
		if vf := c.Env[j].ValueFrom; vf != nil {
			defaultFieldRef(vf.FieldRef)
			if vf.FileKeyRef != nil && vf.FileKeyRef.Optional == nil {
				off := false
				vf.FileKeyRef.Optional = &off
			}
		}
	}
	for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p == nil {
			continue
		}
		if p.TimeoutSeconds == 0 {
			p.TimeoutSeconds = 1
		}
		if p.PeriodSeconds == 0 {
			p.PeriodSeconds = 10
		}
		if p.SuccessThreshold == 0 {
			p.SuccessThreshold = 1
		}
		if p.FailureThreshold == 0 {
			p.FailureThreshold = 3
		}
		defaultHTTPGet(p.HTTPGet)
		if p.GRPC != nil && p.GRPC.Service == nil {
			empty := ""
			p.GRPC.Service = &empty
		}
	}
	if l := c.Lifecycle; l != nil {
		if l.PostStart != nil {
			defaultHTTPGet(l.PostStart.HTTPGet)
		}
		if l.PreStop != nil {
			defaultHTTPGet(l.PreStop.HTTPGet)
		}
	}
}

func defaultHTTPGet(h *corev1.HTTPGetAction) {
	if h == nil {
		return
	}
	if h.Path == "" {
		h.Path = "/"
	}
	if h.Scheme == "" {
		h.Scheme = corev1.URISchemeHTTP
	}
}

// defaultImagePullPolicy: Always for the tag latest, else IfNotPresent
// (parsers.ParseImageName: a digest reference has no tag; no tag means latest).
func defaultImagePullPolicy(pp *corev1.PullPolicy, image string) {
	if *pp != "" {
		return
	}
	if imageTag(image) == "latest" {
		*pp = corev1.PullAlways
	} else {
		*pp = corev1.PullIfNotPresent
	}
}

// The in-tree sources' defaults, for a Pod's volume and a PersistentVolume
// alike (their +default markers): the RBD pool, user and keyring, the iSCSI
// interface, an Azure disk's caching mode, fsType, readOnly and kind, a
// ScaleIO volume's storage mode and fsType.

func defaultRBD(pool, user, keyring *string) {
	defaultEmpty(pool, "rbd")
	defaultEmpty(user, "admin")
	defaultEmpty(keyring, "/etc/ceph/keyring")
}

func defaultAzureDisk(d *corev1.AzureDiskVolumeSource) {
	defaultPtr(&d.CachingMode, corev1.AzureDataDiskCachingReadWrite)
	defaultPtr(&d.FSType, "ext4")
	defaultPtr(&d.ReadOnly, false)
	defaultPtr(&d.Kind, corev1.AzureSharedBlobDisk)
}

func defaultScaleIO(mode, fsType *string) {
	defaultEmpty(mode, "ThinProvisioned")
	defaultEmpty(fsType, "xfs")
}

// defaultEmpty sets *s to v when it is empty.
func defaultEmpty(s *string, v string) {
	if *s == "" {
		*s = v
	}
}
