package validation

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Container validation (VAL-11..VAL-18): validateContainerCommon and what
// validateContainers and validateInitContainers add, in upstream's order.

// validateContainers: at least one container; per container the common
// checks, a name unique among containers, lifecycle, probes and restart rules;
// then host ports across all containers (VAL-11).
func validateContainers(spec *corev1.PodSpec, vols map[string]corev1.VolumeSource, claims map[string]bool, grace *int64, p lazyPath, opts podOptions, hostUsers bool) field.ErrorList {
	if len(spec.Containers) == 0 {
		return field.ErrorList{field.Required(p.Path(), "")}
	}
	var errs field.ErrorList
	names := map[string]bool{}
	for i := range spec.Containers {
		c := &spec.Containers[i]
		cp := p.Index(i)
		errs = append(errs, validateContainerCommon(c, vols, claims, cp, spec.RestartPolicy, hostUsers, opts)...)
		if names[c.Name] {
			errs = append(errs, field.Duplicate(cp.Child("name").Path(), c.Name))
		} else {
			names[c.Name] = true
		}
		if c.Lifecycle != nil {
			errs = append(errs, validateLifecycle(c.Lifecycle, grace, cp.Child("lifecycle"), spec.OS)...)
		}
		errs = append(errs, validateLivenessProbe(c.LivenessProbe, grace, cp.Child("livenessProbe"))...)
		errs = append(errs, validateReadinessProbe(c.ReadinessProbe, grace, cp.Child("readinessProbe"))...)
		errs = append(errs, validateStartupProbe(c.StartupProbe, grace, cp.Child("startupProbe"))...)
		errs = append(errs, validateContainerRestartPolicy(c.RestartPolicy, c.RestartPolicyRules, cp)...)
	}
	return append(errs, checkHostPortConflicts(spec.Containers, p)...)
}

// validateInitContainers (VAL-12): init containers and sidecars (restartPolicy
// Always): names unique across regular and init containers, per-container host
// ports, lifecycle and probes only for sidecars, resize policy rules.
func validateInitContainers(spec *corev1.PodSpec, vols map[string]corev1.VolumeSource, claims map[string]bool, grace *int64, p lazyPath, opts podOptions, hostUsers bool) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for _, c := range spec.Containers {
		names[c.Name] = true
	}
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		cp := p.Index(i)
		errs = append(errs, validateContainerCommon(c, vols, claims, cp, spec.RestartPolicy, hostUsers, opts)...)
		errs = append(errs, validateInitContainerRestartPolicy(c.RestartPolicy, c.RestartPolicyRules, cp)...)
		sidecar := c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
		if names[c.Name] {
			errs = append(errs, field.Duplicate(cp.Child("name").Path(), c.Name))
		} else if c.Name != "" {
			names[c.Name] = true
		}
		errs = append(errs, checkHostPortConflicts([]corev1.Container{*c}, p)...)
		if sidecar {
			if c.Lifecycle != nil {
				errs = append(errs, validateLifecycle(c.Lifecycle, grace, cp.Child("lifecycle"), spec.OS)...)
			}
			errs = append(errs, validateLivenessProbe(c.LivenessProbe, grace, cp.Child("livenessProbe"))...)
			errs = append(errs, validateReadinessProbe(c.ReadinessProbe, grace, cp.Child("readinessProbe"))...)
			errs = append(errs, validateStartupProbe(c.StartupProbe, grace, cp.Child("startupProbe"))...)
		} else {
			const msg = "may not be set for init containers without restartPolicy=Always"
			if c.Lifecycle != nil {
				errs = append(errs, field.Forbidden(cp.Child("lifecycle").Path(), msg))
			}
			if c.LivenessProbe != nil {
				errs = append(errs, field.Forbidden(cp.Child("livenessProbe").Path(), msg))
			}
			if c.ReadinessProbe != nil {
				errs = append(errs, field.Forbidden(cp.Child("readinessProbe").Path(), msg))
			}
			if c.StartupProbe != nil {
				errs = append(errs, field.Forbidden(cp.Child("startupProbe").Path(), msg))
			}
			for j, rp := range c.ResizePolicy {
				if rp.RestartPolicy == corev1.RestartContainer {
					errs = append(errs, field.Invalid(cp.Child("resizePolicy").Index(j).Child("restartPolicy").Path(), rp.RestartPolicy, "must not be set to 'RestartContainer' for non-sidecar initContainers"))
				}
			}
		}
	}
	return errs
}

// validateContainerCommon (VAL-11): name, image, termination message policy,
// ports, env, envFrom, mounts, devices, pull policy, resources, resize policy,
// security context.
func validateContainerCommon(c *corev1.Container, vols map[string]corev1.VolumeSource, claims map[string]bool, p lazyPath, podRestart corev1.RestartPolicy, hostUsers bool, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	if c.Name == "" {
		errs = append(errs, field.Required(p.Child("name").Path(), ""))
	} else {
		errs = append(errs, dns1123Label(c.Name, p.Child("name"))...)
	}
	if c.Image == "" {
		errs = append(errs, field.Required(p.Child("image").Path(), ""))
	}
	switch c.TerminationMessagePolicy {
	case corev1.TerminationMessageReadFile, corev1.TerminationMessageFallbackToLogsOnError:
	case "":
		errs = append(errs, field.Required(p.Child("terminationMessagePolicy").Path(), ""))
	default:
		errs = append(errs, field.NotSupported(p.Child("terminationMessagePolicy").Path(), c.TerminationMessagePolicy,
			[]corev1.TerminationMessagePolicy{corev1.TerminationMessageReadFile, corev1.TerminationMessageFallbackToLogsOnError}))
	}
	var mounts, devices map[string]string // read only: nil when empty
	if len(c.VolumeMounts) > 0 {
		mounts = make(map[string]string, len(c.VolumeMounts))
		for _, m := range c.VolumeMounts {
			mounts[m.Name] = m.MountPath
		}
	}
	if len(c.VolumeDevices) > 0 {
		devices = make(map[string]string, len(c.VolumeDevices))
		for _, d := range c.VolumeDevices {
			devices[d.Name] = d.DevicePath
		}
	}
	errs = append(errs, validateContainerPorts(c.Ports, p.Child("ports"))...)
	errs = append(errs, validateEnv(c.Env, p.Child("env"))...)
	errs = append(errs, validateEnvFrom(c.EnvFrom, p.Child("envFrom"))...)
	errs = append(errs, validateVolumeMounts(c.VolumeMounts, devices, vols, c, p.Child("volumeMounts"))...)
	errs = append(errs, validateVolumeDevices(c.VolumeDevices, mounts, vols, p.Child("volumeDevices"))...)
	errs = append(errs, validatePullPolicy(c.ImagePullPolicy, p.Child("imagePullPolicy"))...)
	// The resource rules shared with LimitRanger's view of a container (PL-05).
	errs = append(errs, validateResourceRequirements(&c.Resources, containerResources, claims, p.Child("resources"))...)
	errs = append(errs, validateResizePolicy(c.ResizePolicy, p.Child("resizePolicy"), podRestart)...)
	errs = append(errs, validateSecurityContext(c.SecurityContext, p.Child("securityContext"), hostUsers, opts.allowPrivileged)...)
	return errs
}

// validateContainerPorts (VAL-15).
func validateContainerPorts(ports []corev1.ContainerPort, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	var names map[string]bool // made by mark when needed
	for i, port := range ports {
		ip := p.Index(i)
		if port.Name != "" {
			if msgs := validation.IsValidPortName(port.Name); len(msgs) != 0 {
				for _, msg := range msgs {
					errs = append(errs, field.Invalid(ip.Child("name").Path(), port.Name, msg))
				}
			} else if names[port.Name] {
				errs = append(errs, field.Duplicate(ip.Child("name").Path(), port.Name))
			} else {
				mark(&names, port.Name)
			}
		}
		if port.ContainerPort == 0 {
			errs = append(errs, field.Required(ip.Child("containerPort").Path(), ""))
		} else {
			for _, msg := range validation.IsValidPortNum(int(port.ContainerPort)) {
				errs = append(errs, field.Invalid(ip.Child("containerPort").Path(), port.ContainerPort, msg))
			}
		}
		if port.HostPort != 0 {
			for _, msg := range validation.IsValidPortNum(int(port.HostPort)) {
				errs = append(errs, field.Invalid(ip.Child("hostPort").Path(), port.HostPort, msg))
			}
		}
		switch port.Protocol {
		case "":
			errs = append(errs, field.Required(ip.Child("protocol").Path(), ""))
		case corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP:
		default:
			errs = append(errs, field.NotSupported(ip.Child("protocol").Path(), port.Protocol, []corev1.Protocol{corev1.ProtocolSCTP, corev1.ProtocolTCP, corev1.ProtocolUDP}))
		}
	}
	return errs
}

// checkHostPortConflicts: one protocol/hostIP/hostPort per set of containers (VAL-15).
func checkHostPortConflicts(cs []corev1.Container, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	var seen map[string]bool // made by mark when needed
	for ci, c := range cs {
		for pi, port := range c.Ports {
			if port.HostPort == 0 {
				continue
			}
			key := fmt.Sprintf("%s/%s/%d", port.Protocol, port.HostIP, port.HostPort)
			if seen[key] {
				errs = append(errs, field.Duplicate(p.Index(ci).Child("ports").Index(pi).Child("hostPort").Path(), key))
			} else {
				mark(&seen, key)
			}
		}
	}
	return errs
}

var (
	envFieldPaths    = []string{"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"}
	volumeFieldPaths = []string{"metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"}
	resourceFields   = []string{"limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"}
)

// validateEnv (VAL-14): names with the relaxed rule of 1.36 (any printable
// ASCII but '='), and exactly one source in valueFrom.
func validateEnv(vars []corev1.EnvVar, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	for i, ev := range vars {
		ip := p.Index(i)
		if ev.Name == "" {
			errs = append(errs, field.Required(ip.Child("name").Path(), ""))
		} else {
			for _, msg := range validation.IsRelaxedEnvVarName(ev.Name) {
				errs = append(errs, field.Invalid(ip.Child("name").Path(), ev.Name, msg))
			}
		}
		errs = append(errs, validateEnvVarValueFrom(ev, ip.Child("valueFrom"))...)
	}
	return errs
}

func validateEnvVarValueFrom(ev corev1.EnvVar, p lazyPath) field.ErrorList {
	vf := ev.ValueFrom
	if vf == nil {
		return nil
	}
	var errs field.ErrorList
	n := 0
	if vf.FieldRef != nil {
		n++
		errs = append(errs, validateObjectFieldSelector(vf.FieldRef, envFieldPaths, p.Child("fieldRef"))...)
	}
	if vf.ResourceFieldRef != nil {
		n++
		errs = append(errs, validateResourceFieldSelector(vf.ResourceFieldRef, p.Child("resourceFieldRef"), false)...)
	}
	if vf.ConfigMapKeyRef != nil {
		n++
		errs = append(errs, validateKeySelector(vf.ConfigMapKeyRef.Name, vf.ConfigMapKeyRef.Key, p.Child("configMapKeyRef"))...)
	}
	if vf.SecretKeyRef != nil {
		n++
		errs = append(errs, validateKeySelector(vf.SecretKeyRef.Name, vf.SecretKeyRef.Key, p.Child("secretKeyRef"))...)
	}
	if fk := vf.FileKeyRef; fk != nil {
		n++
		fp := p.Child("fileKeyRef")
		if fk.Key == "" {
			errs = append(errs, field.Required(fp.Child("key").Path(), ""))
		} else {
			for _, msg := range validation.IsRelaxedEnvVarName(fk.Key) {
				errs = append(errs, field.Invalid(fp.Child("key").Path(), fk.Key, msg))
			}
		}
		if fk.VolumeName == "" {
			errs = append(errs, field.Required(fp.Child("volumeName").Path(), ""))
		} else {
			errs = append(errs, dns1123Label(fk.VolumeName, fp.Child("volumeName"))...)
		}
		if fk.Path == "" {
			errs = append(errs, field.Required(fp.Child("path").Path(), ""))
		} else {
			errs = append(errs, validatePathNoBacksteps(fk.Path, fp.Child("path"))...)
		}
	}
	switch {
	case n == 0:
		errs = append(errs, field.Invalid(p.Path(), "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"))
	case ev.Value != "":
		errs = append(errs, field.Invalid(p.Path(), "", "may not be specified when `value` is not empty"))
	case n > 1:
		errs = append(errs, field.Invalid(p.Path(), "", "may not have more than one field specified at a time"))
	}
	return errs
}

// validateObjectFieldSelector (VAL-14): a downward API field path.
func validateObjectFieldSelector(fs *corev1.ObjectFieldSelector, allowed []string, p lazyPath) field.ErrorList {
	if fs.APIVersion == "" {
		return field.ErrorList{field.Required(p.Child("apiVersion").Path(), "")}
	}
	if fs.FieldPath == "" {
		return field.ErrorList{field.Required(p.Child("fieldPath").Path(), "")}
	}
	path, err := convertDownwardAPIFieldLabel(fs.APIVersion, fs.FieldPath)
	if err != nil {
		return field.ErrorList{field.Invalid(p.Child("fieldPath").Path(), fs.FieldPath, fmt.Sprintf("error converting fieldPath: %v", err))}
	}
	if base, sub, ok := splitSubscriptedPath(path); ok {
		switch base {
		case "metadata.annotations":
			return qualifiedName(strings.ToLower(sub), p)
		case "metadata.labels":
			return qualifiedName(sub, p)
		}
		return field.ErrorList{field.Invalid(p.Path(), base, "does not support subscript")}
	}
	for _, a := range allowed {
		if a == path {
			return nil
		}
	}
	return field.ErrorList{field.NotSupported(p.Child("fieldPath").Path(), path, allowed)}
}

func convertDownwardAPIFieldLabel(version, label string) (string, error) {
	if version != "v1" {
		return "", fmt.Errorf("unsupported pod version: %s", version)
	}
	if base, _, ok := splitSubscriptedPath(label); ok {
		if base == "metadata.annotations" || base == "metadata.labels" {
			return label, nil
		}
		return "", fmt.Errorf("field label does not support subscript: %s", label)
	}
	switch label {
	case "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid",
		"spec.nodeName", "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName",
		"status.phase", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs":
		return label, nil
	case "spec.host":
		return "spec.nodeName", nil
	}
	return "", fmt.Errorf("field label not supported: %s", label)
}

func splitSubscriptedPath(fp string) (string, string, bool) {
	if !strings.HasSuffix(fp, "']") {
		return fp, "", false
	}
	parts := strings.SplitN(strings.TrimSuffix(fp, "']"), "['", 2)
	if len(parts) < 2 || parts[0] == "" {
		return fp, "", false
	}
	return parts[0], parts[1], true
}

var (
	cpuDivisors   = map[string]bool{"1m": true, "1": true}
	bytesDivisors = map[string]bool{"1": true, "1k": true, "1M": true, "1G": true, "1T": true, "1P": true, "1E": true,
		"1Ki": true, "1Mi": true, "1Gi": true, "1Ti": true, "1Pi": true, "1Ei": true}
)

// validateResourceFieldSelector (VAL-14): a container resource exposed by the downward API.
func validateResourceFieldSelector(fs *corev1.ResourceFieldSelector, p lazyPath, volume bool) field.ErrorList {
	var errs field.ErrorList
	switch {
	case volume && fs.ContainerName == "":
		errs = append(errs, field.Required(p.Child("containerName").Path(), ""))
	case fs.Resource == "":
		errs = append(errs, field.Required(p.Child("resource").Path(), ""))
	default:
		known := false
		for _, r := range resourceFields {
			known = known || r == fs.Resource
		}
		if !known && !strings.HasPrefix(fs.Resource, "limits.hugepages-") && !strings.HasPrefix(fs.Resource, "requests.hugepages-") {
			errs = append(errs, field.NotSupported(p.Child("resource").Path(), fs.Resource, resourceFields))
		}
	}
	if fs.Divisor.Cmp(resource.Quantity{}) == 0 {
		return errs
	}
	d, r := fs.Divisor.String(), fs.Resource
	dp := p.Child("divisor")
	const bytesList = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei"
	switch r {
	case "limits.cpu", "requests.cpu":
		if !cpuDivisors[d] {
			errs = append(errs, field.Invalid(dp.Path(), r, "only divisor's values 1m and 1 are supported with the cpu resource"))
		}
	case "limits.memory", "requests.memory":
		if !bytesDivisors[d] {
			errs = append(errs, field.Invalid(dp.Path(), r, "only divisor's values "+bytesList+" are supported with the memory resource"))
		}
	case "limits.ephemeral-storage", "requests.ephemeral-storage":
		if !bytesDivisors[d] {
			errs = append(errs, field.Invalid(dp.Path(), r, "only divisor's values "+bytesList+" are supported with the local ephemeral storage resource"))
		}
	}
	if (strings.HasPrefix(r, "requests.hugepages-") || strings.HasPrefix(r, "limits.hugepages-")) && !bytesDivisors[d] {
		errs = append(errs, field.Invalid(dp.Path(), r, "only divisor's values "+bytesList+" are supported with the hugepages resource"))
	}
	return errs
}

// validateKeySelector: configMapKeyRef and secretKeyRef (VAL-14).
func validateKeySelector(name, key string, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range namecheck.IsDNS1123Subdomain(name) {
		errs = append(errs, field.Invalid(p.Child("name").Path(), name, msg))
	}
	if key == "" {
		errs = append(errs, field.Required(p.Child("key").Path(), ""))
	} else {
		for _, msg := range namecheck.IsConfigMapKey(key) {
			errs = append(errs, field.Invalid(p.Child("key").Path(), key, msg))
		}
	}
	return errs
}

// validateEnvFrom (VAL-14): prefix, exactly one of configMapRef and secretRef.
func validateEnvFrom(vars []corev1.EnvFromSource, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	for i, ev := range vars {
		ip := p.Index(i)
		if ev.Prefix != "" {
			for _, msg := range validation.IsRelaxedEnvVarName(ev.Prefix) {
				errs = append(errs, field.Invalid(ip.Child("prefix").Path(), ev.Prefix, msg))
			}
		}
		n := 0
		ref := func(name string, rp lazyPath) {
			n++
			if name == "" {
				errs = append(errs, field.Required(rp.Child("name").Path(), ""))
				return
			}
			for _, msg := range namecheck.IsDNS1123Subdomain(name) {
				errs = append(errs, field.Invalid(rp.Child("name").Path(), name, msg))
			}
		}
		if ev.ConfigMapRef != nil {
			ref(ev.ConfigMapRef.Name, ip.Child("configMapRef"))
		}
		if ev.SecretRef != nil {
			ref(ev.SecretRef.Name, ip.Child("secretRef"))
		}
		if n == 0 {
			errs = append(errs, field.Invalid(p.Path(), "", "must specify one of: `configMapRef` or `secretRef`"))
		} else if n > 1 {
			errs = append(errs, field.Invalid(p.Path(), "", "may not have more than one field specified at a time"))
		}
	}
	return errs
}

// validateVolumeMounts (VAL-16).
func validateVolumeMounts(mounts []corev1.VolumeMount, devices map[string]string, vols map[string]corev1.VolumeSource, c *corev1.Container, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	var points map[string]bool // made by mark when needed
	for i, m := range mounts {
		ip := p.Index(i)
		if m.Name == "" {
			errs = append(errs, field.Required(ip.Child("name").Path(), ""))
		}
		if _, ok := vols[m.Name]; !ok {
			errs = append(errs, field.NotFound(ip.Child("name").Path(), m.Name))
		}
		if m.MountPath == "" {
			errs = append(errs, field.Required(ip.Child("mountPath").Path(), ""))
		}
		if points[m.MountPath] {
			errs = append(errs, field.Invalid(ip.Child("mountPath").Path(), m.MountPath, "must be unique"))
		}
		mark(&points, m.MountPath)
		if _, ok := devices[m.Name]; ok {
			errs = append(errs, field.Invalid(ip.Child("name").Path(), m.Name, "must not already exist in volumeDevices"))
		}
		if mapHasValue(devices, m.MountPath) {
			errs = append(errs, field.Invalid(ip.Child("mountPath").Path(), m.MountPath, "must not already exist as a path in volumeDevices"))
		}
		// Upstream reports subPath problems at the list's path, not the mount's.
		if m.SubPath != "" {
			errs = append(errs, validateLocalDescendingPath(m.SubPath, p.Child("subPath"))...)
		}
		if m.SubPathExpr != "" {
			if m.SubPath != "" {
				errs = append(errs, field.Invalid(ip.Child("subPathExpr").Path(), m.SubPathExpr, "subPathExpr and subPath are mutually exclusive"))
			}
			errs = append(errs, validateLocalDescendingPath(m.SubPathExpr, p.Child("subPathExpr"))...)
		}
		if mp := m.MountPropagation; mp != nil {
			pp := p.Child("mountPropagation")
			switch *mp {
			case corev1.MountPropagationBidirectional, corev1.MountPropagationHostToContainer, corev1.MountPropagationNone:
			default:
				errs = append(errs, field.NotSupported(pp.Path(), *mp, []corev1.MountPropagationMode{corev1.MountPropagationBidirectional, corev1.MountPropagationHostToContainer, corev1.MountPropagationNone}))
			}
			privileged := c.SecurityContext != nil && c.SecurityContext.Privileged != nil && *c.SecurityContext.Privileged
			if *mp == corev1.MountPropagationBidirectional && !privileged {
				errs = append(errs, field.Forbidden(pp.Path(), "Bidirectional mount propagation is available only to privileged containers"))
			}
		}
		if rro := m.RecursiveReadOnly; rro != nil {
			rp := p.Child("recursiveReadOnly")
			switch *rro {
			case corev1.RecursiveReadOnlyDisabled:
			case corev1.RecursiveReadOnlyEnabled, corev1.RecursiveReadOnlyIfPossible:
				if !m.ReadOnly {
					errs = append(errs, field.Forbidden(rp.Path(), "may only be specified when readOnly is true"))
				}
				if m.MountPropagation != nil && *m.MountPropagation != corev1.MountPropagationNone {
					errs = append(errs, field.Forbidden(rp.Path(), "may only be specified when mountPropagation is None or not specified"))
				}
			default:
				errs = append(errs, field.NotSupported(rp.Path(), *rro, []corev1.RecursiveReadOnlyMode{corev1.RecursiveReadOnlyDisabled, corev1.RecursiveReadOnlyEnabled, corev1.RecursiveReadOnlyIfPossible}))
			}
		}
	}
	return errs
}

func mapHasValue(m map[string]string, v string) bool {
	for _, x := range m {
		if x == v {
			return true
		}
	}
	return false
}

// validateVolumeDevices (VAL-16): block devices come from claims.
func validateVolumeDevices(devices []corev1.VolumeDevice, mounts map[string]string, vols map[string]corev1.VolumeSource, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	paths, names := map[string]bool{}, map[string]bool{}
	for i, d := range devices {
		ip := p.Index(i)
		src, matched := vols[d.Name]
		isPVC := matched && (src.PersistentVolumeClaim != nil || src.Ephemeral != nil)
		if d.Name == "" {
			errs = append(errs, field.Required(ip.Child("name").Path(), ""))
		}
		if names[d.Name] {
			errs = append(errs, field.Invalid(ip.Child("name").Path(), d.Name, "must be unique"))
		}
		if matched && !isPVC {
			errs = append(errs, field.Invalid(ip.Child("name").Path(), d.Name, "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"))
		}
		if !matched {
			errs = append(errs, field.NotFound(ip.Child("name").Path(), d.Name))
		}
		if d.DevicePath == "" {
			errs = append(errs, field.Required(ip.Child("devicePath").Path(), ""))
		}
		if paths[d.DevicePath] {
			errs = append(errs, field.Invalid(ip.Child("devicePath").Path(), d.DevicePath, "must be unique"))
		}
		if d.DevicePath != "" && len(validatePathNoBacksteps(d.DevicePath, p)) > 0 {
			errs = append(errs, field.Invalid(ip.Child("devicePath").Path(), d.DevicePath, "can not contain backsteps ('..')"))
		} else {
			paths[d.DevicePath] = true
		}
		if _, ok := mounts[d.Name]; ok {
			errs = append(errs, field.Invalid(ip.Child("name").Path(), d.Name, "must not already exist in volumeMounts"))
		}
		if mapHasValue(mounts, d.DevicePath) {
			errs = append(errs, field.Invalid(ip.Child("devicePath").Path(), d.DevicePath, "must not already exist as a path in volumeMounts"))
		}
		if d.Name != "" {
			names[d.Name] = true
		}
	}
	return errs
}

func validatePullPolicy(pp corev1.PullPolicy, p lazyPath) field.ErrorList {
	return requiredOneOf(pp, p, corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullNever)
}

// validateResizePolicy (VAL-17).
func validateResizePolicy(list []corev1.ContainerResizePolicy, p lazyPath, podRestart corev1.RestartPolicy) field.ErrorList {
	var errs field.ErrorList
	var seen map[corev1.ResourceName]bool // made by mark when needed
	for i, rp := range list {
		if seen[rp.ResourceName] {
			errs = append(errs, field.Duplicate(p.Index(i).Path(), rp.ResourceName))
		}
		mark(&seen, rp.ResourceName)
		switch rp.ResourceName {
		case corev1.ResourceCPU, corev1.ResourceMemory:
		case "":
			errs = append(errs, field.Required(p.Path(), ""))
		default:
			errs = append(errs, field.NotSupported(p.Path(), rp.ResourceName, []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory}))
		}
		switch rp.RestartPolicy {
		case corev1.NotRequired, corev1.RestartContainer:
		case "":
			errs = append(errs, field.Required(p.Path(), ""))
		default:
			errs = append(errs, field.NotSupported(p.Path(), rp.RestartPolicy, []corev1.ResourceResizeRestartPolicy{corev1.NotRequired, corev1.RestartContainer}))
		}
		if podRestart == corev1.RestartPolicyNever && rp.RestartPolicy != corev1.NotRequired {
			errs = append(errs, field.Invalid(p.Path(), rp.RestartPolicy, "must be 'NotRequired' when pod `restartPolicy` is 'Never'"))
		}
	}
	return errs
}

// validateInitContainerRestartPolicy (VAL-12): with ContainerRestartRules and
// RestartAllContainersOnContainerExits on (1.36 defaults) every init container
// gets the container restart-policy rules.
func validateInitContainerRestartPolicy(policy *corev1.ContainerRestartPolicy, rules []corev1.ContainerRestartRule, p lazyPath) field.ErrorList {
	if policy == nil {
		if len(rules) > 0 {
			return field.ErrorList{field.Required(p.Child("restartPolicy").Path(), "must specify restartPolicy when restart rules are used")}
		}
		return nil
	}
	return validateContainerRestartPolicy(policy, rules, p)
}

// validateContainerRestartPolicy (VAL-17): restartPolicy and restartPolicyRules of a container.
func validateContainerRestartPolicy(policy *corev1.ContainerRestartPolicy, rules []corev1.ContainerRestartRule, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	rpp := p.Child("restartPolicy")
	if policy == nil {
		if len(rules) == 0 {
			return nil
		}
		errs = append(errs, field.Required(rpp.Path(), "must specify restartPolicy when restart rules are used"))
	} else {
		switch *policy {
		case corev1.ContainerRestartPolicyAlways, corev1.ContainerRestartPolicyNever, corev1.ContainerRestartPolicyOnFailure:
		default:
			errs = append(errs, field.NotSupported(rpp.Path(), *policy, []corev1.ContainerRestartPolicy{corev1.ContainerRestartPolicyAlways, corev1.ContainerRestartPolicyNever, corev1.ContainerRestartPolicyOnFailure}))
		}
	}
	if len(rules) > 20 {
		errs = append(errs, field.TooMany(p.Child("restartPolicyRules").Path(), len(rules), 20))
	}
	for i, r := range rules {
		rp := p.Child("restartPolicyRules").Index(i)
		if r.Action != corev1.ContainerRestartRuleActionRestart && r.Action != "RestartAllContainers" {
			errs = append(errs, field.NotSupported(rp.Child("action").Path(), r.Action, []corev1.ContainerRestartRuleAction{corev1.ContainerRestartRuleActionRestart, "RestartAllContainers"}))
		}
		if r.ExitCodes == nil {
			errs = append(errs, field.Required(rp.Child("exitCodes").Path(), "must be specified"))
			continue
		}
		ep := rp.Child("exitCodes")
		if op := r.ExitCodes.Operator; op != corev1.ContainerRestartRuleOnExitCodesOpIn && op != corev1.ContainerRestartRuleOnExitCodesOpNotIn {
			errs = append(errs, field.NotSupported(ep.Child("operator").Path(), op, []corev1.ContainerRestartRuleOnExitCodesOperator{corev1.ContainerRestartRuleOnExitCodesOpIn, corev1.ContainerRestartRuleOnExitCodesOpNotIn}))
		}
		if len(r.ExitCodes.Values) > 255 {
			errs = append(errs, field.TooMany(ep.Child("values").Path(), len(r.ExitCodes.Values), 255))
		}
	}
	return errs
}

// Probes and lifecycle handlers (VAL-13).

func validateLivenessProbe(pr *corev1.Probe, grace *int64, p lazyPath) field.ErrorList {
	if pr == nil {
		return nil
	}
	errs := validateProbe(pr, grace, p)
	if pr.SuccessThreshold != 1 {
		errs = append(errs, field.Invalid(p.Child("successThreshold").Path(), pr.SuccessThreshold, "must be 1"))
	}
	return errs
}

func validateReadinessProbe(pr *corev1.Probe, grace *int64, p lazyPath) field.ErrorList {
	if pr == nil {
		return nil
	}
	errs := validateProbe(pr, grace, p)
	if pr.TerminationGracePeriodSeconds != nil {
		errs = append(errs, field.Invalid(p.Child("terminationGracePeriodSeconds").Path(), pr.TerminationGracePeriodSeconds, "must not be set for readinessProbes"))
	}
	return errs
}

func validateStartupProbe(pr *corev1.Probe, grace *int64, p lazyPath) field.ErrorList {
	return validateLivenessProbe(pr, grace, p)
}

func validateProbe(pr *corev1.Probe, grace *int64, p lazyPath) field.ErrorList {
	h := pr.ProbeHandler
	errs := validateHandler(handler{exec: h.Exec, httpGet: h.HTTPGet, tcpSocket: h.TCPSocket, grpc: h.GRPC}, grace, p)
	nonNeg := func(v int32, name string) {
		if v < 0 {
			errs = append(errs, field.Invalid(p.Child(name).Path(), int64(v), msgNegative))
		}
	}
	nonNeg(pr.InitialDelaySeconds, "initialDelaySeconds")
	nonNeg(pr.TimeoutSeconds, "timeoutSeconds")
	nonNeg(pr.PeriodSeconds, "periodSeconds")
	nonNeg(pr.SuccessThreshold, "successThreshold")
	nonNeg(pr.FailureThreshold, "failureThreshold")
	if t := pr.TerminationGracePeriodSeconds; t != nil && *t <= 0 {
		errs = append(errs, field.Invalid(p.Child("terminationGracePeriodSeconds").Path(), *t, "must be greater than 0"))
	}
	return errs
}

type handler struct {
	exec      *corev1.ExecAction
	httpGet   *corev1.HTTPGetAction
	tcpSocket *corev1.TCPSocketAction
	grpc      *corev1.GRPCAction
	sleep     *corev1.SleepAction
}

// validateHandler: exactly one handler type, each valid (VAL-13).
func validateHandler(h handler, grace *int64, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	n := 0
	one := func(set bool, name string, check func(lazyPath) field.ErrorList) {
		if !set {
			return
		}
		if n > 0 {
			errs = append(errs, field.Forbidden(p.Child(name).Path(), "may not specify more than 1 handler type"))
			return
		}
		n++
		errs = append(errs, check(p.Child(name))...)
	}
	one(h.exec != nil, "exec", func(ep lazyPath) field.ErrorList {
		if len(h.exec.Command) == 0 {
			return field.ErrorList{field.Required(ep.Child("command").Path(), "")}
		}
		return nil
	})
	one(h.httpGet != nil, "httpGet", func(hp lazyPath) field.ErrorList {
		var es field.ErrorList
		if h.httpGet.Path == "" {
			es = append(es, field.Required(hp.Child("path").Path(), ""))
		}
		es = append(es, validatePortNumOrName(h.httpGet.Port, hp.Child("port"))...)
		if s := h.httpGet.Scheme; s != corev1.URISchemeHTTP && s != corev1.URISchemeHTTPS {
			es = append(es, field.NotSupported(hp.Child("scheme").Path(), s, []corev1.URIScheme{corev1.URISchemeHTTP, corev1.URISchemeHTTPS}))
		}
		for _, hd := range h.httpGet.HTTPHeaders {
			for _, msg := range validation.IsHTTPHeaderName(hd.Name) {
				es = append(es, field.Invalid(hp.Child("httpHeaders").Path(), hd.Name, msg))
			}
		}
		return es
	})
	one(h.tcpSocket != nil, "tcpSocket", func(tp lazyPath) field.ErrorList {
		return validatePortNumOrName(h.tcpSocket.Port, tp.Child("port"))
	})
	one(h.grpc != nil, "grpc", func(gp lazyPath) field.ErrorList {
		return validatePortNumOrName(intstr.FromInt32(h.grpc.Port), gp.Child("port"))
	})
	one(h.sleep != nil, "sleep", func(sp lazyPath) field.ErrorList {
		// PodLifecycleSleepActionAllowZero is on in 1.36.
		if grace != nil && (h.sleep.Seconds < 0 || h.sleep.Seconds > *grace) {
			return field.ErrorList{field.Invalid(sp.Path(), h.sleep.Seconds, fmt.Sprintf("must be non-negative and less than terminationGracePeriodSeconds (%d)", *grace))}
		}
		return nil
	})
	if n == 0 {
		errs = append(errs, field.Required(p.Path(), "must specify a handler type"))
	}
	return errs
}

func validatePortNumOrName(port intstr.IntOrString, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	if port.Type == intstr.Int {
		for _, msg := range validation.IsValidPortNum(port.IntValue()) {
			errs = append(errs, field.Invalid(p.Path(), port.IntValue(), msg))
		}
		return errs
	}
	for _, msg := range validation.IsValidPortName(port.StrVal) {
		errs = append(errs, field.Invalid(p.Path(), port.StrVal, msg))
	}
	return errs
}

// validateLifecycle (VAL-13): postStart and preStop handlers (stopSignal is
// dropped on create: ContainerStopSignals is off in 1.36).
func validateLifecycle(l *corev1.Lifecycle, grace *int64, p lazyPath, os *corev1.PodOS) field.ErrorList {
	var errs field.ErrorList
	lh := func(h *corev1.LifecycleHandler) handler {
		return handler{exec: h.Exec, httpGet: h.HTTPGet, tcpSocket: h.TCPSocket, sleep: h.Sleep}
	}
	if l.PostStart != nil {
		errs = append(errs, validateHandler(lh(l.PostStart), grace, p.Child("postStart"))...)
	}
	if l.PreStop != nil {
		errs = append(errs, validateHandler(lh(l.PreStop), grace, p.Child("preStop"))...)
	}
	if l.StopSignal != nil && os == nil {
		errs = append(errs, field.Forbidden(p.Child("stopSignal").Path(), "may not be set for containers with empty `spec.os.name`"))
	}
	return errs
}

// Paths (VAL-16).

func validateLocalDescendingPath(target string, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	if filepath.IsAbs(target) || strings.HasPrefix(target, "/") {
		errs = append(errs, field.Invalid(p.Path(), target, "must be a relative path"))
	}
	return append(errs, validatePathNoBacksteps(target, p)...)
}

func validatePathNoBacksteps(target string, p lazyPath) field.ErrorList {
	// The items strings.Split(…, "/") would return, without the slice.
	for rest, more := filepath.ToSlash(target), true; more; {
		var item string
		item, rest, more = strings.Cut(rest, "/")
		if item == ".." {
			return field.ErrorList{field.Invalid(p.Path(), target, "must not contain '..'")}
		}
	}
	return nil
}

func validateLocalNonReservedPath(target string, p lazyPath) field.ErrorList {
	errs := validateLocalDescendingPath(target, p)
	if strings.HasPrefix(target, "..") && !strings.HasPrefix(target, "../") {
		errs = append(errs, field.Invalid(p.Path(), target, "must not start with '..'"))
	}
	return errs
}

func podClaimNames(spec *corev1.PodSpec) map[string]bool {
	names := map[string]bool{}
	for _, c := range spec.ResourceClaims {
		if c.Name != "" {
			names[c.Name] = true
		}
	}
	return names
}

// validateResourceClaimNames (VAL-17): resources.claims name pod resource claims, once each.
func validateResourceClaimNames(claims []corev1.ResourceClaim, podClaims map[string]bool, lp lazyPath) field.ErrorList {
	if len(claims) == 0 {
		return nil
	}
	p := lp.Path()
	var errs field.ErrorList
	names := map[string]bool{}
	for i, c := range claims {
		ip := p.Index(i)
		if c.Name == "" {
			errs = append(errs, field.Required(ip, ""))
			continue
		}
		if names[c.Name] {
			errs = append(errs, field.Duplicate(ip, c.Name))
		} else {
			key := c.Name
			if c.Request != "" {
				errs = append(errs, dns1123Label(c.Request, lazy(ip.Child("request")))...)
				key += "/" + c.Request
			}
			if names[key] {
				errs = append(errs, field.Duplicate(ip, key))
			} else if c.Request == "" {
				for _, k := range sortedSet(names) {
					if i := strings.Index(k, "/"); i >= 0 && k[:i] == c.Name {
						errs = append(errs, field.Duplicate(ip, c.Name))
					}
				}
			}
			names[key] = true
		}
		if !podClaims[c.Name] {
			e := field.NotFound(ip, c.Name)
			e.Detail = "must be one of the names in pod.spec.resourceClaims"
			if len(podClaims) == 0 {
				e.Detail += " which is empty"
			} else {
				e.Detail += ": " + strings.Join(sortedSet(podClaims), ", ")
			}
			errs = append(errs, e)
		}
	}
	return errs
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// mark adds k to the set *m, making it on the first: most containers have
// no ports, mounts or resize policies, and a map costs even empty.
func mark[K comparable](m *map[K]bool, k K) {
	if *m == nil {
		*m = map[K]bool{}
	}
	(*m)[k] = true
}
