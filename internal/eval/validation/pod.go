package validation

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/features"
	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Pod validation on create (docs/behaviour.md VAL-10..VAL-31): the checks of
// kube-apiserver's ValidatePodCreate and ValidatePodSpec, on the v1 object after
// API defaulting, in upstream's order so that the aggregated 422 lists the
// errors as kube-apiserver does.

// podOptions are the PodValidationOptions the pod and workload strategies build on
// create with the Kubernetes 1.36 gate defaults (VAL-10): only PodLevelResources
// is read from the gates limitcheck models; every other gate is at its default.
type podOptions struct {
	resourceIsPod     bool
	podLevelResources bool
	allowPrivileged   bool
	// gates on by default in 1.36 (relaxed env names, relaxed DNS search,
	// env files, sleep 0, container restart rules, restart-all-containers)
	// are assumed on; TaintTolerationComparisonOperators, SELinuxMount and
	// UserNamespacesHostNetworkSupport are off.
}

func newPodOptions(o PodOptions, resourceIsPod bool) podOptions {
	return podOptions{resourceIsPod: resourceIsPod, podLevelResources: o.Gates.Enabled(features.PodLevelResources),
		allowPrivileged: !o.DisallowPrivileged}
}

// Pod is ValidatePodCreate for a defaulted Pod (VAL-10): metadata, pod-specific
// annotations, the spec, then the checks only Pods (not templates) get.
func Pod(pod *corev1.Pod, o PodOptions) field.ErrorList {
	opts := newPodOptions(o, true)
	meta := newLazyPath("metadata")
	spec := newLazyPath("spec")
	errs := objectMetaWithRules(&pod.ObjectMeta, MetaRulesFor(schema.GroupKind{Kind: "Pod"}), meta)
	errs = append(errs, validatePodSpecificAnnotations(pod.Annotations, &pod.Spec, meta.Child("annotations"))...)
	errs = append(errs, validatePodSpec(&pod.Spec, &pod.ObjectMeta, spec, opts)...)

	// VAL-12: only for Pods: a projected service account token needs a service account.
	if pod.Spec.ServiceAccountName == "" {
		for vi, vol := range pod.Spec.Volumes {
			if vol.Projected == nil {
				continue
			}
			p := spec.Child("volumes").Index(vi).Child("projected")
			for si, src := range vol.Projected.Sources {
				if src.ServiceAccountToken != nil {
					errs = append(errs, field.Forbidden(p.Child("sources").Index(si).Child("serviceAccountToken").Path(), "must not be specified when serviceAccountName is not set"))
				}
			}
		}
	}
	errs = append(errs, validateImagesTrimmed(pod.Spec.Containers, spec.Child("containers"))...)
	errs = append(errs, validateImagesTrimmed(pod.Spec.InitContainers, spec.Child("initContainers"))...)

	if len(pod.Spec.EphemeralContainers) > 0 {
		errs = append(errs, field.Forbidden(spec.Child("ephemeralContainers").Path(), "cannot be set on create"))
	}
	if pod.Spec.NodeName != "" && len(pod.Spec.SchedulingGates) != 0 {
		errs = append(errs, field.Forbidden(spec.Child("nodeName").Path(), "cannot be set until all schedulingGates have been cleared"))
	}
	errs = append(errs, validateSeccompAnnotationsAndFields(pod.ObjectMeta, &pod.Spec, spec)...)
	errs = append(errs, validateAppArmorAnnotationsAndFields(pod.ObjectMeta, &pod.Spec, spec)...)
	return errs
}

// PodTemplateSpec is ValidatePodTemplateSpec (VAL-10): the template's labels and
// annotations, its pod-specific annotations and its spec, as a workload's
// validation runs it at p (e.g. spec.template). Workload rules around it
// (selector, restartPolicy, activeDeadlineSeconds) are the workload's.
func PodTemplateSpec(t *corev1.PodTemplateSpec, fp *field.Path, o PodOptions) field.ErrorList {
	opts := newPodOptions(o, false)
	p := lazy(fp)
	errs := metav1validation.ValidateLabels(t.Labels, fp.Child("labels"))
	errs = append(errs, apivalidation.ValidateAnnotations(t.Annotations, fp.Child("annotations"))...)
	errs = append(errs, validatePodSpecificAnnotations(t.Annotations, &t.Spec, p.Child("annotations"))...)
	errs = append(errs, validatePodSpec(&t.Spec, nil, p.Child("spec"), opts)...)
	errs = append(errs, validateSeccompAnnotationsAndFields(t.ObjectMeta, &t.Spec, p.Child("spec"))...)
	errs = append(errs, validateAppArmorAnnotationsAndFields(t.ObjectMeta, &t.Spec, p.Child("spec"))...)
	if len(t.Spec.EphemeralContainers) > 0 {
		errs = append(errs, field.Forbidden(fp.Child("spec", "ephemeralContainers"), "ephemeral containers not allowed in pod template"))
	}
	return errs
}

// DropDisabledFields clears what the pod strategies' PrepareForCreate drops
// for gates off by default in 1.36 (VAL-10): ContainerStopSignals
// (lifecycle.stopSignal), GenericWorkload (schedulingGroup) and the
// clusterTrustBundle and podCertificate projections.
func DropDisabledFields(spec *corev1.PodSpec) {
	drop := func(cs []corev1.Container) {
		for i := range cs {
			if cs[i].Lifecycle != nil {
				cs[i].Lifecycle.StopSignal = nil
			}
		}
	}
	drop(spec.InitContainers)
	drop(spec.Containers)
	for i := range spec.EphemeralContainers {
		if l := spec.EphemeralContainers[i].Lifecycle; l != nil {
			l.StopSignal = nil
		}
	}
	spec.SchedulingGroup = nil
	// ClusterTrustBundleProjection and PodCertificateRequest are off.
	for i := range spec.Volumes {
		if pr := spec.Volumes[i].Projected; pr != nil {
			for j := range pr.Sources {
				pr.Sources[j].ClusterTrustBundle = nil
				pr.Sources[j].PodCertificate = nil
			}
		}
	}
}

const msgImageSpaces = "must not have leading or trailing whitespace"

// validateImagesTrimmed: a Pod's image may not have surrounding whitespace (VAL-11).
func validateImagesTrimmed(cs []corev1.Container, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	for i := range cs {
		if len(cs[i].Image) != len(strings.TrimSpace(cs[i].Image)) {
			errs = append(errs, field.Invalid(p.Index(i).Child("image").Path(), cs[i].Image, msgImageSpaces))
		}
	}
	return errs
}

const (
	annMirrorPod      = "kubernetes.io/config.mirror"
	annTolerations    = "scheduler.alpha.kubernetes.io/tolerations"
	annDeletionCost   = "controller.kubernetes.io/pod-deletion-cost"
	annSeccompPod     = "seccomp.security.alpha.kubernetes.io/pod"
	annSeccompPrefix  = "container.seccomp.security.alpha.kubernetes.io/"
	annAppArmorPrefix = "container.apparmor.security.beta.kubernetes.io/"
)

// validatePodSpecificAnnotations (VAL-25): the mirror-pod, deletion-cost,
// seccomp and AppArmor annotations. The tolerations annotation is not parsed.
func validatePodSpecificAnnotations(ann map[string]string, spec *corev1.PodSpec, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	if v, ok := ann[annMirrorPod]; ok && spec.NodeName == "" {
		errs = append(errs, field.Invalid(p.Key(annMirrorPod).Path(), v, "must set spec.nodeName if mirror pod annotation is set"))
	}
	if v, ok := ann[annDeletionCost]; ok && !validDeletionCost(v) {
		errs = append(errs, field.Invalid(p.Key(annDeletionCost).Path(), v, "must be a 32bit integer"))
	}
	if v, ok := ann[annSeccompPod]; ok {
		errs = append(errs, validateSeccompProfileAnnotation(v, p.Child(annSeccompPod))...)
	}
	var buf [8]string
	keys := sortedKeys(ann, buf[:0])
	for _, k := range keys {
		if strings.HasPrefix(k, annSeccompPrefix) {
			errs = append(errs, validateSeccompProfileAnnotation(ann[k], p.Child(k))...)
		}
	}
	for _, k := range keys {
		if !strings.HasPrefix(k, annAppArmorPrefix) {
			continue
		}
		name := strings.TrimPrefix(k, annAppArmorPrefix)
		if !podSpecHasContainer(spec, name) {
			errs = append(errs, field.Invalid(p.Key(k).Path(), name, "container not found"))
		}
		v := ann[k]
		if v != "" && v != "runtime/default" && v != "unconfined" && !strings.HasPrefix(v, "localhost/") {
			errs = append(errs, field.Invalid(p.Key(k).Path(), v, fmt.Sprintf("invalid AppArmor profile name: %q", v)))
		}
	}
	return errs
}

func validDeletionCost(v string) bool {
	if v == "" || !(v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) || (len(v) > 1 && v[0] == '0') {
		return v != "" && v == "0"
	}
	_, err := strconv.ParseInt(v, 10, 32)
	return err == nil
}

func validateSeccompProfileAnnotation(v string, p lazyPath) field.ErrorList {
	switch {
	case v == "runtime/default" || v == "docker/default" || v == "unconfined":
		return nil
	case strings.HasPrefix(v, "localhost/"):
		return validateLocalDescendingPath(strings.TrimPrefix(v, "localhost/"), p)
	}
	return field.ErrorList{field.Invalid(p.Path(), v, "must be a valid seccomp profile")}
}

func podSpecHasContainer(spec *corev1.PodSpec, name string) bool {
	found := false
	visitContainers(spec, func(c *corev1.Container, _ string, _ int) {
		found = found || c.Name == name
	})
	return found
}

// visitContainers calls fn on init, regular and ephemeral containers, in that
// order, with the container's list and index in the spec: fn builds the
// container's path (p.Child(list).Index(i)) where it reports an error.
func visitContainers(spec *corev1.PodSpec, fn func(c *corev1.Container, list string, i int)) {
	for i := range spec.InitContainers {
		fn(&spec.InitContainers[i], "initContainers", i)
	}
	for i := range spec.Containers {
		fn(&spec.Containers[i], "containers", i)
	}
	for i := range spec.EphemeralContainers {
		c := corev1.Container(spec.EphemeralContainers[i].EphemeralContainerCommon)
		fn(&c, "ephemeralContainers", i)
	}
}

// validatePodSpec is ValidatePodSpec (VAL-10), in upstream's order.
// meta is nil for a Pod template.
func validatePodSpec(spec *corev1.PodSpec, meta *metav1.ObjectMeta, p lazyPath, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	if spec.TerminationGracePeriodSeconds == nil {
		errs = append(errs, field.Required(p.Child("terminationGracePeriodSeconds").Path(), ""))
	}
	grace := spec.TerminationGracePeriodSeconds
	hostUsers := spec.HostUsers == nil || *spec.HostUsers

	vols, vErrs := validateVolumes(spec.Volumes, meta, p.Child("volumes"), opts)
	errs = append(errs, vErrs...)
	var claimNames map[string]bool // made by mark when needed; read only
	for _, c := range spec.ResourceClaims {
		if c.Name != "" {
			mark(&claimNames, c.Name)
		}
	}
	errs = append(errs, validatePodResourceClaims(meta, spec.ResourceClaims, p.Child("resourceClaims"))...)
	errs = append(errs, validateContainers(spec, vols, claimNames, grace, p.Child("containers"), opts, hostUsers)...)
	errs = append(errs, validateInitContainers(spec, vols, claimNames, grace, p.Child("initContainers"), opts, hostUsers)...)
	errs = append(errs, validateEphemeralContainers(spec, vols, claimNames, p.Child("ephemeralContainers"), opts, hostUsers)...)

	if opts.podLevelResources && spec.Resources != nil {
		errs = append(errs, validatePodLevelResources(spec, claimNames, p.Child("resources").Path())...)
	}

	errs = append(errs, validatePodHostNetworkDeps(spec, p, opts)...)
	errs = append(errs, validateRestartPolicy(spec.RestartPolicy, p.Child("restartPolicy"))...)
	errs = append(errs, validateDNSPolicy(spec.DNSPolicy, p.Child("dnsPolicy"))...)
	errs = append(errs, validateNodeSelectorLabels(spec.NodeSelector, p.Child("nodeSelector"))...)
	errs = append(errs, validatePodSecurityContext(spec, p.Child("securityContext"))...)
	errs = append(errs, validateAffinity(spec.Affinity, p.Child("affinity"))...)
	errs = append(errs, validatePodDNSConfig(spec.DNSConfig, spec.DNSPolicy, p.Child("dnsConfig"))...)
	for i, g := range spec.ReadinessGates {
		errs = append(errs, qualifiedName(string(g.ConditionType), p.Child("readinessGates").Index(i).Child("conditionType"))...)
	}
	errs = append(errs, validateSchedulingGates(spec.SchedulingGates, p.Child("schedulingGates"))...)
	errs = append(errs, validateTopologySpreadConstraints(spec.TopologySpreadConstraints, p.Child("topologySpreadConstraints"))...)
	errs = append(errs, validateHostProcessPod(spec, p, opts.allowPrivileged)...)
	errs = append(errs, validateHostUsers(spec, p)...)
	errs = append(errs, validatePodHostnameOverride(spec, p)...)
	if spec.ServiceAccountName != "" {
		for _, msg := range namecheck.NameIsDNSSubdomain(spec.ServiceAccountName, false) {
			errs = append(errs, field.Invalid(p.Child("serviceAccountName").Path(), spec.ServiceAccountName, msg))
		}
	}
	if spec.NodeName != "" {
		for _, msg := range namecheck.NameIsDNSSubdomain(spec.NodeName, false) {
			errs = append(errs, field.Invalid(p.Child("nodeName").Path(), spec.NodeName, msg))
		}
	}
	if ads := spec.ActiveDeadlineSeconds; ads != nil && (*ads < 1 || *ads > math.MaxInt32) {
		errs = append(errs, field.Invalid(p.Child("activeDeadlineSeconds").Path(), *ads, validation.InclusiveRangeError(1, math.MaxInt32)))
	}
	if spec.Hostname != "" {
		errs = append(errs, dns1123Label(spec.Hostname, p.Child("hostname"))...)
	}
	if spec.Subdomain != "" {
		errs = append(errs, dns1123Label(spec.Subdomain, p.Child("subdomain"))...)
	}
	if len(spec.Tolerations) > 0 {
		errs = append(errs, validateTolerations(spec.Tolerations, p.Child("tolerations").Path())...)
	}
	for i, ha := range spec.HostAliases {
		errs = append(errs, validation.IsValidIPForLegacyField(p.Child("hostAliases").Index(i).Child("ip").Path(), ha.IP, true, nil)...)
		for j, h := range ha.Hostnames {
			errs = append(errs, dns1123Subdomain(h, p.Child("hostAliases").Index(i).Child("hostnames").Index(j))...)
		}
	}
	if spec.PriorityClassName != "" {
		for _, msg := range namecheck.NameIsDNSSubdomain(spec.PriorityClassName, false) {
			errs = append(errs, field.Invalid(p.Child("priorityClassName").Path(), spec.PriorityClassName, msg))
		}
	}
	if spec.RuntimeClassName != nil {
		for _, msg := range namecheck.NameIsDNSSubdomain(*spec.RuntimeClassName, false) {
			errs = append(errs, field.Invalid(p.Child("runtimeClassName").Path(), *spec.RuntimeClassName, msg))
		}
	}
	if pp := spec.PreemptionPolicy; pp != nil {
		switch *pp {
		case corev1.PreemptLowerPriority, corev1.PreemptNever:
		case "":
			errs = append(errs, field.Required(p.Child("preemptionPolicy").Path(), ""))
		default:
			errs = append(errs, field.NotSupported(p.Child("preemptionPolicy").Path(), *pp, []corev1.PreemptionPolicy{corev1.PreemptLowerPriority, corev1.PreemptNever}))
		}
	}
	if spec.Overhead != nil {
		// VAL-10: overhead is checked as a container's limits.
		errs = append(errs, validateResourceRequirements(&corev1.ResourceRequirements{Limits: spec.Overhead}, containerResources, nil, p.Child("overhead"))...)
	}
	if spec.OS != nil {
		switch {
		case spec.OS.Name == "":
			errs = append(errs, field.Required(p.Child("os").Child("name").Path(), ""))
		case spec.OS.Name != corev1.Linux && spec.OS.Name != corev1.Windows:
			errs = append(errs, field.NotSupported(p.Child("os").Path(), spec.OS.Name, []corev1.OSName{corev1.Linux, corev1.Windows}))
		case spec.OS.Name == corev1.Linux:
			errs = append(errs, validateLinux(spec, p.Path())...)
		default:
			errs = append(errs, validateWindows(spec, p.Path())...)
		}
	}
	errs = append(errs, validateFileKeyRefVolumes(spec, p)...)
	return errs
}

func validatePodResourceClaims(meta *metav1.ObjectMeta, claims []corev1.PodResourceClaim, lp lazyPath) field.ErrorList {
	if len(claims) == 0 {
		return nil
	}
	p := lp.Path()
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, c := range claims {
		if meta != nil {
			if _, ok := meta.Annotations[annMirrorPod]; ok {
				errs = append(errs, field.Forbidden(field.NewPath(""), "static pods do not support resource claims"))
				continue
			}
		}
		ip := p.Index(i)
		switch {
		case c.Name == "":
			errs = append(errs, field.Required(ip.Child("name"), ""))
		case seen[c.Name]:
			errs = append(errs, field.Duplicate(ip.Child("name"), c.Name))
		default:
			errs = append(errs, dns1123Label(c.Name, lazy(ip.Child("name")))...)
			seen[c.Name] = true
		}
		internal := internalValue{c}
		if c.ResourceClaimName != nil && c.ResourceClaimTemplateName != nil {
			errs = append(errs, field.Invalid(ip, internal, "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"))
		}
		if c.ResourceClaimName == nil && c.ResourceClaimTemplateName == nil {
			errs = append(errs, field.Invalid(ip, internal, "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"))
		}
		if c.ResourceClaimName != nil {
			for _, msg := range namecheck.NameIsDNSSubdomain(*c.ResourceClaimName, false) {
				errs = append(errs, field.Invalid(ip.Child("resourceClaimName"), *c.ResourceClaimName, msg))
			}
		}
		if c.ResourceClaimTemplateName != nil {
			for _, msg := range namecheck.NameIsDNSSubdomain(*c.ResourceClaimTemplateName, false) {
				errs = append(errs, field.Invalid(ip.Child("resourceClaimTemplateName"), *c.ResourceClaimTemplateName, msg))
			}
		}
	}
	return errs
}

func validatePodHostNetworkDeps(spec *corev1.PodSpec, lp lazyPath, opts podOptions) field.ErrorList {
	if !spec.HostNetwork {
		return nil
	}
	p := lp.Path()
	var errs field.ErrorList
	for i, c := range spec.Containers {
		for j, port := range c.Ports {
			if (opts.resourceIsPod || port.HostPort != 0) && port.HostPort != port.ContainerPort {
				errs = append(errs, field.Invalid(p.Child("containers").Index(i).Child("ports").Index(j).Child("hostPort"), port.HostPort, "must match `containerPort` when `hostNetwork` is true"))
			}
		}
	}
	return errs
}

func validateRestartPolicy(rp corev1.RestartPolicy, p lazyPath) field.ErrorList {
	return requiredOneOf(rp, p, corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever)
}

// requiredOneOf: an enumerated field that must be set (`Required value`) to one
// of the supported values, listed in upstream's order (`Unsupported value`).
func requiredOneOf[T ~string](v T, p lazyPath, supported ...T) field.ErrorList {
	if v == "" {
		return field.ErrorList{field.Required(p.Path(), "")}
	}
	for _, s := range supported {
		if v == s {
			return nil
		}
	}
	return field.ErrorList{field.NotSupported(p.Path(), v, supported)}
}

func validateDNSPolicy(dp corev1.DNSPolicy, p lazyPath) field.ErrorList {
	return requiredOneOf(dp, p, corev1.DNSClusterFirstWithHostNet, corev1.DNSClusterFirst, corev1.DNSDefault, corev1.DNSNone)
}

func validateSchedulingGates(gates []corev1.PodSchedulingGate, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	var seen map[string]bool // made by mark when needed
	for i, g := range gates {
		errs = append(errs, qualifiedName(g.Name, p.Index(i))...)
		if seen[g.Name] {
			errs = append(errs, field.Duplicate(p.Index(i).Path(), g.Name))
		}
		mark(&seen, g.Name)
	}
	return errs
}

// validateHostUsers (VAL-19): a user namespace (hostUsers false) excludes the
// host's network, PID and IPC namespaces and block devices.
func validateHostUsers(spec *corev1.PodSpec, lp lazyPath) field.ErrorList {
	if spec.HostUsers == nil || *spec.HostUsers {
		return nil
	}
	p := lp.Path()
	var errs field.ErrorList
	if spec.HostNetwork {
		errs = append(errs, field.Forbidden(p.Child("hostNetwork"), "when `hostUsers` is false"))
	}
	if spec.HostPID {
		errs = append(errs, field.Forbidden(p.Child("HostPID"), "when `hostUsers` is false"))
	}
	if spec.HostIPC {
		errs = append(errs, field.Forbidden(p.Child("HostIPC"), "when `hostUsers` is false"))
	}
	visitContainers(spec, func(c *corev1.Container, list string, i int) {
		if len(c.VolumeDevices) > 0 {
			errs = append(errs, field.Forbidden(p.Child(list).Index(i).Child("volumeDevices"), "when `hostUsers` is false"))
		}
	})
	return errs
}

func validatePodHostnameOverride(spec *corev1.PodSpec, lp lazyPath) field.ErrorList {
	if spec.HostnameOverride == nil {
		return nil
	}
	p := lp.Path()
	var errs field.ErrorList
	fp := p.Child("hostnameOverride")
	if spec.SetHostnameAsFQDN != nil && *spec.SetHostnameAsFQDN {
		errs = append(errs, field.Forbidden(fp, "may not be specified when setHostnameAsFQDN is true"))
	}
	if spec.HostNetwork {
		errs = append(errs, field.Forbidden(fp, "may not be specified when hostNetwork is true"))
	}
	if len(*spec.HostnameOverride) > 64 {
		errs = append(errs, field.TooLong(fp, "", 64))
	}
	return append(errs, dns1123Subdomain(*spec.HostnameOverride, lazy(fp))...)
}

// validateFileKeyRefVolumes: an env var read from a file names an emptyDir volume (VAL-14).
func validateFileKeyRefVolumes(spec *corev1.PodSpec, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	var vols map[string]*corev1.VolumeSource // built at the first fileKeyRef
	visitContainers(spec, func(c *corev1.Container, list string, i int) {
		for j, env := range c.Env {
			if env.ValueFrom == nil || env.ValueFrom.FileKeyRef == nil {
				continue
			}
			if vols == nil {
				vols = make(map[string]*corev1.VolumeSource, len(spec.Volumes))
				for i := range spec.Volumes {
					vols[spec.Volumes[i].Name] = &spec.Volumes[i].VolumeSource
				}
			}
			name := env.ValueFrom.FileKeyRef.VolumeName
			np := p.Child(list).Index(i).Child("env").Index(j).Child("valueFrom").Child("fileKeyRef").Child("volumeName")
			if src, ok := vols[name]; !ok {
				errs = append(errs, field.NotFound(np.Path(), name))
			} else if src.EmptyDir == nil {
				errs = append(errs, field.Invalid(np.Path(), name, "referenced volume must be of type emptyDir"))
			}
		}
	})
	return errs
}

// validateNodeSelectorLabels is metav1validation.ValidateLabels, whose
// path is built only for a selector that has labels.
func validateNodeSelectorLabels(labels map[string]string, p lazyPath) field.ErrorList {
	if len(labels) == 0 {
		return nil
	}
	return metav1validation.ValidateLabels(labels, p.Path())
}

func dns1123Label(v string, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range namecheck.IsDNS1123Label(v) {
		errs = append(errs, field.Invalid(p.Path(), v, msg))
	}
	return errs
}

func dns1123Subdomain(v string, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range namecheck.IsDNS1123Subdomain(v) {
		errs = append(errs, field.Invalid(p.Path(), v, msg))
	}
	return errs
}

func qualifiedName(v string, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range namecheck.IsQualifiedName(v) {
		errs = append(errs, field.Invalid(p.Path(), v, msg))
	}
	return errs
}

// PrepareForCreate is what the pod strategy's PrepareForCreate does to the
// spec before validation (VAL-10): the gated-off fields dropped, the
// matchLabelKeys and mismatchLabelKeys of pod (anti-)affinity terms and
// topology spread constraints merged into their label selectors with the
// Pod's label values, and the deprecated AppArmor annotations copied to
// container fields.
func PrepareForCreate(pod *corev1.Pod) {
	DropDisabledFields(&pod.Spec)
	merge := func(sel *metav1.LabelSelector, keys []string, op metav1.LabelSelectorOperator) {
		for _, k := range keys {
			if v, ok := pod.Labels[k]; ok {
				sel.MatchExpressions = append(sel.MatchExpressions, metav1.LabelSelectorRequirement{Key: k, Operator: op, Values: []string{v}})
			}
		}
	}
	term := func(t *corev1.PodAffinityTerm) {
		if (len(t.MatchLabelKeys) == 0 && len(t.MismatchLabelKeys) == 0) || t.LabelSelector == nil {
			return
		}
		merge(t.LabelSelector, t.MatchLabelKeys, metav1.LabelSelectorOpIn)
		merge(t.LabelSelector, t.MismatchLabelKeys, metav1.LabelSelectorOpNotIn)
	}
	if a := pod.Spec.Affinity; a != nil {
		if pa := a.PodAffinity; pa != nil {
			for i := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
				term(&pa.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
			}
			for i := range pa.RequiredDuringSchedulingIgnoredDuringExecution {
				term(&pa.RequiredDuringSchedulingIgnoredDuringExecution[i])
			}
		}
		if pa := a.PodAntiAffinity; pa != nil {
			for i := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
				term(&pa.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
			}
			for i := range pa.RequiredDuringSchedulingIgnoredDuringExecution {
				term(&pa.RequiredDuringSchedulingIgnoredDuringExecution[i])
			}
		}
	}
	for i := range pod.Spec.TopologySpreadConstraints {
		c := &pod.Spec.TopologySpreadConstraints[i]
		if len(c.MatchLabelKeys) > 0 && c.LabelSelector != nil {
			merge(c.LabelSelector, c.MatchLabelKeys, metav1.LabelSelectorOpIn)
		}
	}
	applyAppArmorAnnotations(pod)
}

// applyAppArmorAnnotations copies a valid deprecated AppArmor annotation to a
// container without a profile field, unless it equals the pod's profile.
func applyAppArmorAnnotations(pod *corev1.Pod) {
	if pod.Spec.OS != nil && pod.Spec.OS.Name == corev1.Windows {
		return
	}
	var podProfile *corev1.AppArmorProfile
	if pod.Spec.SecurityContext != nil {
		podProfile = pod.Spec.SecurityContext.AppArmorProfile
	}
	apply := func(c *corev1.Container) {
		// The key built on the stack: a map lookup by string(bytes) does not allocate.
		var buf [128]byte
		ann, ok := pod.Annotations[string(append(append(buf[:0], annAppArmorPrefix...), c.Name...))]
		if !ok || (c.SecurityContext != nil && c.SecurityContext.AppArmorProfile != nil) {
			return
		}
		prof := validAppArmorProfileFor(ann)
		if prof == nil || sameAppArmorProfile(prof, podProfile) {
			return
		}
		if c.SecurityContext == nil {
			c.SecurityContext = &corev1.SecurityContext{}
		}
		c.SecurityContext.AppArmorProfile = prof
	}
	for i := range pod.Spec.InitContainers {
		apply(&pod.Spec.InitContainers[i])
	}
	for i := range pod.Spec.Containers {
		apply(&pod.Spec.Containers[i])
	}
	for i := range pod.Spec.EphemeralContainers {
		c := corev1.Container(pod.Spec.EphemeralContainers[i].EphemeralContainerCommon)
		apply(&c)
		pod.Spec.EphemeralContainers[i].EphemeralContainerCommon = corev1.EphemeralContainerCommon(c)
	}
}

// appArmorProfileFor is the profile a deprecated AppArmor annotation's
// value stands for: nil for a value it cannot (an unknown one, "localhost/"
// without a name).
func appArmorProfileFor(ann string) *corev1.AppArmorProfile {
	switch {
	case ann == "runtime/default":
		return &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeRuntimeDefault}
	case ann == "unconfined":
		return &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeUnconfined}
	case strings.HasPrefix(ann, "localhost/") && len(ann) > len("localhost/"):
		lp := strings.TrimPrefix(ann, "localhost/")
		return &corev1.AppArmorProfile{Type: corev1.AppArmorProfileTypeLocalhost, LocalhostProfile: &lp}
	}
	return nil
}

// validAppArmorProfileFor is appArmorProfileFor, nil also for a profile that
// is not valid as a field.
func validAppArmorProfileFor(ann string) *corev1.AppArmorProfile {
	prof := appArmorProfileFor(ann)
	if prof != nil && len(validateAppArmorProfileField(prof, lazy(&field.Path{}))) > 0 {
		return nil
	}
	return prof
}

func sameAppArmorProfile(a, b *corev1.AppArmorProfile) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Type != b.Type || (a.LocalhostProfile == nil) != (b.LocalhostProfile == nil) {
		return false
	}
	return a.LocalhostProfile == nil || *a.LocalhostProfile == *b.LocalhostProfile
}
