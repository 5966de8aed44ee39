package validation

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/component-helpers/node/util/sysctl"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Pod-level rules (VAL-25..VAL-31): security contexts, scheduling constraints,
// DNS, OS-specific fields.

// validatePodSecurityContext (VAL-25).
func validatePodSecurityContext(spec *corev1.PodSpec, p lazyPath) field.ErrorList {
	sc := spec.SecurityContext
	var errs field.ErrorList
	if sc == nil {
		sc = &corev1.PodSecurityContext{}
	}
	if sc.FSGroup != nil {
		for _, msg := range validation.IsValidGroupID(*sc.FSGroup) {
			errs = append(errs, field.Invalid(p.Child("fsGroup").Path(), *sc.FSGroup, msg))
		}
	}
	if sc.RunAsUser != nil {
		for _, msg := range validation.IsValidUserID(*sc.RunAsUser) {
			errs = append(errs, field.Invalid(p.Child("runAsUser").Path(), *sc.RunAsUser, msg))
		}
	}
	if sc.RunAsGroup != nil {
		for _, msg := range validation.IsValidGroupID(*sc.RunAsGroup) {
			errs = append(errs, field.Invalid(p.Child("runAsGroup").Path(), *sc.RunAsGroup, msg))
		}
	}
	for g, gid := range sc.SupplementalGroups {
		for _, msg := range validation.IsValidGroupID(gid) {
			errs = append(errs, field.Invalid(p.Child("supplementalGroups").Index(g).Path(), gid, msg))
		}
	}
	if spec.ShareProcessNamespace != nil && spec.HostPID && *spec.ShareProcessNamespace {
		errs = append(errs, field.Invalid(p.Child("shareProcessNamespace").Path(), *spec.ShareProcessNamespace, "ShareProcessNamespace and HostPID cannot both be enabled"))
	}
	if len(sc.Sysctls) != 0 {
		errs = append(errs, validateSysctls(spec, sc.Sysctls, p.Child("sysctls").Path())...)
	}
	if fp := sc.FSGroupChangePolicy; fp != nil && *fp != corev1.FSGroupChangeOnRootMismatch && *fp != corev1.FSGroupChangeAlways {
		errs = append(errs, field.NotSupported(p.Child("fsGroupChangePolicy").Path(), fp, []corev1.PodFSGroupChangePolicy{corev1.FSGroupChangeAlways, corev1.FSGroupChangeOnRootMismatch}))
	}
	errs = append(errs, validateSeccompProfileField(sc.SeccompProfile, p.Child("seccompProfile"))...)
	errs = append(errs, validateWindowsOptions(sc.WindowsOptions, p.Child("windowsOptions"))...)
	errs = append(errs, validateAppArmorProfileField(sc.AppArmorProfile, p.Child("appArmorProfile"))...)
	if sp := sc.SupplementalGroupsPolicy; sp != nil && *sp != corev1.SupplementalGroupsPolicyMerge && *sp != corev1.SupplementalGroupsPolicyStrict {
		errs = append(errs, field.NotSupported(p.Child("supplementalGroupsPolicy").Path(), sp, []corev1.SupplementalGroupsPolicy{corev1.SupplementalGroupsPolicyMerge, corev1.SupplementalGroupsPolicyStrict}))
	}
	// SELinuxMount is off in 1.36: only Recursive is accepted on create.
	if cp := sc.SELinuxChangePolicy; cp != nil && *cp != corev1.SELinuxChangePolicyRecursive {
		errs = append(errs, field.NotSupported(p.Child("seLinuxChangePolicy").Path(), *cp, []corev1.PodSELinuxChangePolicy{corev1.SELinuxChangePolicyRecursive}))
	}
	return errs
}

// sysctlRegexp is compiled on first use: few Pods set sysctls.
var sysctlRegexp = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("^(" + `[a-z0-9]([-_a-z0-9]*[a-z0-9])?` + "[\\./])*" + `[a-z0-9]([-_a-z0-9]*[a-z0-9])?` + "$")
})

func validateSysctls(spec *corev1.PodSpec, sysctls []corev1.Sysctl, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for i, s := range sysctls {
		np := p.Index(i).Child("name")
		switch {
		case s.Name == "":
			errs = append(errs, field.Required(np, ""))
		case len(s.Name) > 253 || !sysctlRegexp().MatchString(s.Name):
			errs = append(errs, field.Invalid(np, s.Name, fmt.Sprintf("must have at most %d characters and match regex %s", 253, sysctlRegexp())))
		case names[s.Name]:
			errs = append(errs, field.Duplicate(np, s.Name))
		}
		ns, _, _ := sysctl.GetNamespace(s.Name)
		switch {
		case spec.HostNetwork && ns == sysctl.NetNamespace:
			errs = append(errs, field.Invalid(np, s.Name, "may not be specified when 'hostNetwork' is true"))
		case spec.HostIPC && ns == sysctl.IPCNamespace:
			errs = append(errs, field.Invalid(np, s.Name, "may not be specified when 'hostIPC' is true"))
		}
		names[s.Name] = true
	}
	return errs
}

// validateSecurityContext (VAL-18): a container's security context; a
// privileged container only where the cluster allows them (kube-apiserver's
// --allow-privileged).
func validateSecurityContext(sc *corev1.SecurityContext, p lazyPath, hostUsers, allowPrivileged bool) field.ErrorList {
	if sc == nil {
		return nil
	}
	var errs field.ErrorList
	if sc.Privileged != nil && *sc.Privileged && !allowPrivileged {
		errs = append(errs, field.Forbidden(p.Child("privileged").Path(), "disallowed by cluster policy"))
	}
	if sc.RunAsUser != nil {
		for _, msg := range validation.IsValidUserID(*sc.RunAsUser) {
			errs = append(errs, field.Invalid(p.Child("runAsUser").Path(), *sc.RunAsUser, msg))
		}
	}
	if sc.RunAsGroup != nil {
		for _, msg := range validation.IsValidGroupID(*sc.RunAsGroup) {
			errs = append(errs, field.Invalid(p.Child("runAsGroup").Path(), *sc.RunAsGroup, msg))
		}
	}
	if pm := sc.ProcMount; pm != nil {
		if *pm != corev1.DefaultProcMount && *pm != corev1.UnmaskedProcMount {
			errs = append(errs, field.NotSupported(p.Child("procMount").Path(), *pm, []corev1.ProcMountType{corev1.DefaultProcMount, corev1.UnmaskedProcMount}))
		}
		if hostUsers && *pm == corev1.UnmaskedProcMount {
			errs = append(errs, field.Invalid(p.Child("procMount").Path(), pm, "`hostUsers` must be false to use `Unmasked`"))
		}
	}
	errs = append(errs, validateSeccompProfileField(sc.SeccompProfile, p.Child("seccompProfile"))...)
	if sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation {
		if sc.Privileged != nil && *sc.Privileged {
			errs = append(errs, field.Invalid(p.Path(), internalValue{sc}, "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"))
		}
		if sc.Capabilities != nil {
			for _, c := range sc.Capabilities.Add {
				if string(c) == "CAP_SYS_ADMIN" {
					errs = append(errs, field.Invalid(p.Path(), internalValue{sc}, "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"))
				}
			}
		}
	}
	errs = append(errs, validateWindowsOptions(sc.WindowsOptions, p.Child("windowsOptions"))...)
	return append(errs, validateAppArmorProfileField(sc.AppArmorProfile, p.Child("appArmorProfile"))...)
}

func validateSeccompProfileField(sp *corev1.SeccompProfile, p lazyPath) field.ErrorList {
	if sp == nil {
		return nil
	}
	var errs field.ErrorList
	switch sp.Type {
	case corev1.SeccompProfileTypeLocalhost, corev1.SeccompProfileTypeRuntimeDefault, corev1.SeccompProfileTypeUnconfined:
	case "":
		errs = append(errs, field.Required(p.Child("type").Path(), "type is required when seccompProfile is set"))
	default:
		errs = append(errs, field.NotSupported(p.Child("type").Path(), sp.Type, []corev1.SeccompProfileType{corev1.SeccompProfileTypeLocalhost, corev1.SeccompProfileTypeRuntimeDefault, corev1.SeccompProfileTypeUnconfined}))
	}
	if sp.Type == corev1.SeccompProfileTypeLocalhost {
		if sp.LocalhostProfile == nil {
			errs = append(errs, field.Required(p.Child("localhostProfile").Path(), "must be set when seccomp type is Localhost"))
		} else {
			errs = append(errs, validateLocalDescendingPath(*sp.LocalhostProfile, p.Child("localhostProfile"))...)
		}
	} else if sp.LocalhostProfile != nil {
		errs = append(errs, field.Invalid(p.Child("localhostProfile").Path(), internalValue{sp}, "can only be set when seccomp type is Localhost"))
	}
	return errs
}

func validateAppArmorProfileField(ap *corev1.AppArmorProfile, p lazyPath) field.ErrorList {
	if ap == nil {
		return nil
	}
	var errs field.ErrorList
	switch ap.Type {
	case corev1.AppArmorProfileTypeLocalhost:
		lp := p.Child("localhostProfile").Path()
		if ap.LocalhostProfile == nil {
			errs = append(errs, field.Required(lp, "must be set when AppArmor type is Localhost"))
			break
		}
		trimmed := strings.TrimSpace(*ap.LocalhostProfile)
		if trimmed != *ap.LocalhostProfile {
			errs = append(errs, field.Invalid(lp, *ap.LocalhostProfile, "must not be padded with whitespace"))
		} else if trimmed == "" {
			errs = append(errs, field.Required(lp, "must be set when AppArmor type is Localhost"))
		}
		if len(*ap.LocalhostProfile) > 4095 {
			errs = append(errs, field.TooLong(lp, "", 4095))
		}
	case corev1.AppArmorProfileTypeRuntimeDefault, corev1.AppArmorProfileTypeUnconfined:
		if ap.LocalhostProfile != nil {
			errs = append(errs, field.Invalid(p.Child("localhostProfile").Path(), ap.LocalhostProfile, "can only be set when AppArmor type is Localhost"))
		}
	case "":
		errs = append(errs, field.Required(p.Child("type").Path(), "type is required when appArmorProfile is set"))
	default:
		errs = append(errs, field.NotSupported(p.Child("type").Path(), ap.Type, []corev1.AppArmorProfileType{corev1.AppArmorProfileTypeLocalhost, corev1.AppArmorProfileTypeRuntimeDefault, corev1.AppArmorProfileTypeUnconfined}))
	}
	return errs
}

// validateSeccompAnnotationsAndFields (VAL-25): annotation and field agree.
func validateSeccompAnnotationsAndFields(meta metav1.ObjectMeta, spec *corev1.PodSpec, p lazyPath) field.ErrorList {
	var errs field.ErrorList
	if spec.SecurityContext != nil && spec.SecurityContext.SeccompProfile != nil {
		if ann, ok := meta.Annotations[annSeccompPod]; ok {
			if e := seccompMatch(ann, spec.SecurityContext.SeccompProfile, p.Child("securityContext").Child("seccompProfile").Path()); e != nil {
				errs = append(errs, e)
			}
		}
	}
	visitContainers(spec, func(c *corev1.Container, list string, i int) {
		if c.SecurityContext == nil || c.SecurityContext.SeccompProfile == nil {
			return
		}
		if ann, ok := meta.Annotations[annSeccompPrefix+c.Name]; ok {
			if e := seccompMatch(ann, c.SecurityContext.SeccompProfile, p.Child(list).Index(i).Child("securityContext").Child("seccompProfile").Path()); e != nil {
				errs = append(errs, e)
			}
		}
	})
	return errs
}

func seccompMatch(ann string, sp *corev1.SeccompProfile, p *field.Path) *field.Error {
	const mismatch = "seccomp type in annotation and field must match"
	switch sp.Type {
	case corev1.SeccompProfileTypeUnconfined:
		if ann != "unconfined" {
			return field.Forbidden(p.Child("type"), mismatch)
		}
	case corev1.SeccompProfileTypeRuntimeDefault:
		if ann != "runtime/default" && ann != "docker/default" {
			return field.Forbidden(p.Child("type"), mismatch)
		}
	case corev1.SeccompProfileTypeLocalhost:
		if !strings.HasPrefix(ann, "localhost/") {
			return field.Forbidden(p.Child("type"), mismatch)
		} else if sp.LocalhostProfile == nil || strings.TrimPrefix(ann, "localhost/") != *sp.LocalhostProfile {
			return field.Forbidden(p.Child("localhostProfile"), "seccomp profile in annotation and field must match")
		}
	}
	return nil
}

// validateAppArmorAnnotationsAndFields (VAL-25): on create, the deprecated
// per-container annotation agrees with the effective profile field.
func validateAppArmorAnnotationsAndFields(meta metav1.ObjectMeta, spec *corev1.PodSpec, p lazyPath) field.ErrorList {
	if spec.OS != nil && spec.OS.Name == corev1.Windows {
		return nil
	}
	var errs field.ErrorList
	var podProfile *corev1.AppArmorProfile
	if spec.SecurityContext != nil {
		podProfile = spec.SecurityContext.AppArmorProfile
	}
	visitContainers(spec, func(c *corev1.Container, list string, i int) {
		prof := podProfile
		if c.SecurityContext != nil && c.SecurityContext.AppArmorProfile != nil {
			prof = c.SecurityContext.AppArmorProfile
		}
		if prof == nil {
			return
		}
		ann, ok := meta.Annotations[annAppArmorPrefix+c.Name]
		if !ok {
			return
		}
		ap := p.Child(list).Index(i).Child("securityContext").Child("appArmorProfile").Path()
		const mismatch = "apparmor type in annotation and field must match"
		switch prof.Type {
		case corev1.AppArmorProfileTypeUnconfined:
			if ann != "unconfined" {
				errs = append(errs, field.Forbidden(ap.Child("type"), mismatch))
			}
		case corev1.AppArmorProfileTypeRuntimeDefault:
			if ann != "runtime/default" {
				errs = append(errs, field.Forbidden(ap.Child("type"), mismatch))
			}
		case corev1.AppArmorProfileTypeLocalhost:
			if !strings.HasPrefix(ann, "localhost/") {
				errs = append(errs, field.Forbidden(ap.Child("type"), mismatch))
			} else if prof.LocalhostProfile == nil || strings.TrimPrefix(ann, "localhost/") != *prof.LocalhostProfile {
				errs = append(errs, field.Forbidden(ap.Child("localhostProfile"), "apparmor profile in annotation and field must match"))
			}
		}
	})
	return errs
}

// validateAffinity (VAL-27): node affinity, pod affinity and anti-affinity.
func validateAffinity(a *corev1.Affinity, lp lazyPath) field.ErrorList {
	if a == nil {
		return nil
	}
	p := lp.Path()
	var errs field.ErrorList
	if na := a.NodeAffinity; na != nil {
		np := p.Child("nodeAffinity")
		if na.RequiredDuringSchedulingIgnoredDuringExecution != nil {
			errs = append(errs, validateNodeSelector(na.RequiredDuringSchedulingIgnoredDuringExecution, np.Child("requiredDuringSchedulingIgnoredDuringExecution"))...)
		}
		for i, t := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			tp := np.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
			if t.Weight <= 0 || t.Weight > 100 {
				errs = append(errs, field.Invalid(tp.Child("weight"), t.Weight, "must be in the range 1-100"))
			}
			errs = append(errs, validateNodeSelectorTerm(t.Preference, true, tp.Child("preference"))...)
		}
	}
	terms := func(req []corev1.PodAffinityTerm, pref []corev1.WeightedPodAffinityTerm, tp *field.Path) {
		if req != nil {
			for i, t := range req {
				errs = append(errs, validatePodAffinityTerm(t, tp.Child("requiredDuringSchedulingIgnoredDuringExecution").Index(i))...)
			}
		}
		if pref != nil {
			for i, t := range pref {
				wp := tp.Child("preferredDuringSchedulingIgnoredDuringExecution").Index(i)
				if t.Weight <= 0 || t.Weight > 100 {
					errs = append(errs, field.Invalid(wp.Child("weight"), t.Weight, "must be in the range 1-100"))
				}
				errs = append(errs, validatePodAffinityTerm(t.PodAffinityTerm, wp.Child("podAffinityTerm"))...)
			}
		}
	}
	if pa := a.PodAffinity; pa != nil {
		terms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, p.Child("podAffinity"))
	}
	if pa := a.PodAntiAffinity; pa != nil {
		terms(pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, p.Child("podAntiAffinity"))
	}
	return errs
}

func validateNodeSelector(ns *corev1.NodeSelector, p *field.Path) field.ErrorList {
	tp := p.Child("nodeSelectorTerms")
	if len(ns.NodeSelectorTerms) == 0 {
		return field.ErrorList{field.Required(tp, "must have at least one node selector term")}
	}
	var errs field.ErrorList
	for i, t := range ns.NodeSelectorTerms {
		errs = append(errs, validateNodeSelectorTerm(t, false, tp.Index(i))...)
	}
	return errs
}

func validateNodeSelectorTerm(t corev1.NodeSelectorTerm, allowInvalidValues bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for j, rq := range t.MatchExpressions {
		rp := p.Child("matchExpressions").Index(j)
		switch rq.Operator {
		case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
			if len(rq.Values) == 0 {
				errs = append(errs, field.Required(rp.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case corev1.NodeSelectorOpExists, corev1.NodeSelectorOpDoesNotExist:
			if len(rq.Values) > 0 {
				errs = append(errs, field.Forbidden(rp.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
			if len(rq.Values) != 1 {
				errs = append(errs, field.Required(rp.Child("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
			}
		default:
			errs = append(errs, field.Invalid(rp.Child("operator"), rq.Operator, "not a valid selector operator"))
		}
		errs = append(errs, metav1validation.ValidateLabelName(rq.Key, rp.Child("key"))...)
		if !allowInvalidValues {
			for vi, v := range rq.Values {
				for _, msg := range namecheck.IsValidLabelValue(v) {
					errs = append(errs, field.Invalid(rp.Child("values").Index(vi), v, msg))
				}
			}
		}
	}
	for j, rq := range t.MatchFields {
		rp := p.Child("matchFields").Index(j)
		switch rq.Operator {
		case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
			if len(rq.Values) != 1 {
				errs = append(errs, field.Required(rp.Child("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
			}
		default:
			errs = append(errs, field.Invalid(rp.Child("operator"), rq.Operator, "not a valid selector operator"))
		}
		if rq.Key != metav1.ObjectNameField {
			errs = append(errs, field.Invalid(rp.Child("key"), rq.Key, "not a valid field selector key"))
		} else {
			for vi, v := range rq.Values {
				for _, msg := range namecheck.IsDNS1123Subdomain(v) {
					errs = append(errs, field.Invalid(rp.Child("values").Index(vi), v, msg))
				}
			}
		}
	}
	return errs
}

func validatePodAffinityTerm(t corev1.PodAffinityTerm, p *field.Path) field.ErrorList {
	opts := metav1validation.LabelSelectorValidationOptions{}
	errs := metav1validation.ValidateLabelSelector(t.LabelSelector, opts, p.Child("labelSelector"))
	errs = append(errs, metav1validation.ValidateLabelSelector(t.NamespaceSelector, opts, p.Child("namespaceSelector"))...)
	for _, ns := range t.Namespaces {
		for _, msg := range namecheck.IsDNS1123Label(ns) {
			errs = append(errs, field.Invalid(p.Child("namespace"), ns, msg))
		}
	}
	errs = append(errs, validateMatchLabelKeysAndMismatchLabelKeys(p, t.MatchLabelKeys, t.MismatchLabelKeys, t.LabelSelector)...)
	if t.TopologyKey == "" {
		errs = append(errs, field.Required(p.Child("topologyKey"), "can not be empty"))
	}
	return append(errs, metav1validation.ValidateLabelName(t.TopologyKey, p.Child("topologyKey"))...)
}

func validateMatchLabelKeysAndMismatchLabelKeys(p *field.Path, match, mismatch []string, sel *metav1.LabelSelector) field.ErrorList {
	var errs field.ErrorList
	keys := func(kp *field.Path, ks []string) {
		if len(ks) == 0 {
			return
		}
		if sel == nil {
			errs = append(errs, field.Forbidden(kp, "must not be specified when labelSelector is not set"))
			return
		}
		for i, k := range ks {
			errs = append(errs, metav1validation.ValidateLabelName(k, kp.Index(i))...)
		}
	}
	keys(p.Child("matchLabelKeys"), match)
	keys(p.Child("mismatchLabelKeys"), mismatch)
	if sel != nil {
		idx := map[string]int{}
		for i, k := range match {
			idx[k] = i
		}
		selKeys := map[string]bool{}
		for k := range sel.MatchLabels {
			selKeys[k] = true
		}
		for _, e := range sel.MatchExpressions {
			if i, ok := idx[e.Key]; ok && selKeys[e.Key] {
				errs = append(errs, field.Invalid(p.Index(i), e.Key, "exists in both matchLabelKeys and labelSelector"))
			}
			selKeys[e.Key] = true
		}
	}
	mm := map[string]bool{}
	for _, k := range mismatch {
		mm[k] = true
	}
	for i, k := range match {
		if mm[k] {
			errs = append(errs, field.Invalid(p.Child("matchLabelKeys").Index(i), k, "exists in both matchLabelKeys and mismatchLabelKeys"))
		}
	}
	return errs
}

// validateTolerations (VAL-28). TaintTolerationComparisonOperators is off in
// 1.36: Lt and Gt are refused.
func validateTolerations(ts []corev1.Toleration, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, t := range ts {
		ip := p.Index(i)
		if t.Key != "" {
			errs = append(errs, metav1validation.ValidateLabelName(t.Key, ip.Child("key"))...)
		}
		if t.Key == "" && t.Operator != corev1.TolerationOpExists {
			errs = append(errs, field.Invalid(ip.Child("operator"), t.Operator, "operator must be Exists when `key` is empty, which means \"match all values and all keys\""))
		}
		if t.TolerationSeconds != nil && t.Effect != corev1.TaintEffectNoExecute {
			errs = append(errs, field.Invalid(ip.Child("effect"), t.Effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
		}
		switch t.Operator {
		case corev1.TolerationOpEqual, "":
			if msgs := namecheck.IsValidLabelValue(t.Value); len(msgs) != 0 {
				errs = append(errs, field.Invalid(ip.Child("operator"), t.Value, strings.Join(msgs, ";")))
			}
		case corev1.TolerationOpExists:
			if t.Value != "" {
				errs = append(errs, field.Invalid(ip.Child("operator"), t.Value, "value must be empty when `operator` is 'Exists'"))
			}
		case "Lt", "Gt":
			errs = append(errs, field.NotSupported(ip.Child("operator"), t.Operator, []corev1.TolerationOperator{corev1.TolerationOpEqual, corev1.TolerationOpExists, "Lt", "Gt"}))
		default:
			errs = append(errs, field.NotSupported(ip.Child("operator"), t.Operator, []corev1.TolerationOperator{corev1.TolerationOpEqual, corev1.TolerationOpExists}))
		}
		if t.Effect != "" {
			switch t.Effect {
			case corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute:
			default:
				errs = append(errs, field.NotSupported(ip.Child("effect"), t.Effect, []corev1.TaintEffect{corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute}))
			}
		}
	}
	return errs
}

// validatePodDNSConfig (VAL-26). RelaxedDNSSearchValidation is on in 1.36.
func validatePodDNSConfig(c *corev1.PodDNSConfig, policy corev1.DNSPolicy, lp lazyPath) field.ErrorList {
	if policy != corev1.DNSNone && c == nil {
		return nil
	}
	p := lp.Path()
	if policy == corev1.DNSNone {
		if c == nil {
			return field.ErrorList{field.Required(p, "must provide `dnsConfig` when `dnsPolicy` is None")}
		}
		if len(c.Nameservers) == 0 {
			return field.ErrorList{field.Required(p.Child("nameservers"), "must provide at least one DNS nameserver when `dnsPolicy` is None")}
		}
	}
	if c == nil {
		return nil
	}
	var errs field.ErrorList
	if len(c.Nameservers) > 3 {
		errs = append(errs, field.Invalid(p.Child("nameservers"), c.Nameservers, "must not have more than 3 nameservers"))
	}
	for i, ns := range c.Nameservers {
		errs = append(errs, validation.IsValidIPForLegacyField(p.Child("nameservers").Index(i), ns, true, nil)...)
	}
	if len(c.Searches) > 32 {
		errs = append(errs, field.Invalid(p.Child("searches"), c.Searches, "must not have more than 32 search paths"))
	}
	if len(strings.Join(c.Searches, " ")) > 2048 {
		errs = append(errs, field.Invalid(p.Child("searches"), c.Searches, "must not have more than 2048 characters (including spaces) in the search list"))
	}
	for i, s := range c.Searches {
		if s == "." {
			continue
		}
		s = strings.TrimSuffix(s, ".")
		for _, msg := range validation.IsDNS1123SubdomainWithUnderscore(s) {
			errs = append(errs, field.Invalid(p.Child("searches").Index(i), s, msg))
		}
	}
	for i, o := range c.Options {
		if o.Name == "" {
			errs = append(errs, field.Required(p.Child("options").Index(i), "must not be empty"))
		}
	}
	return errs
}

// validateTopologySpreadConstraints (VAL-29). MatchLabelKeys and the
// selector merge are on in 1.36.
func validateTopologySpreadConstraints(cs []corev1.TopologySpreadConstraint, lp lazyPath) field.ErrorList {
	if len(cs) == 0 {
		return nil
	}
	p := lp.Path()
	var errs field.ErrorList
	for i, c := range cs {
		ip := p.Index(i)
		if c.MaxSkew <= 0 {
			errs = append(errs, field.Invalid(ip.Child("maxSkew"), int64(c.MaxSkew), "must be greater than zero"))
		}
		if c.TopologyKey == "" {
			errs = append(errs, field.Required(ip.Child("topologyKey"), "can not be empty"))
		}
		if c.WhenUnsatisfiable != corev1.DoNotSchedule && c.WhenUnsatisfiable != corev1.ScheduleAnyway {
			errs = append(errs, field.NotSupported(ip.Child("whenUnsatisfiable"), c.WhenUnsatisfiable, []corev1.UnsatisfiableConstraintAction{corev1.DoNotSchedule, corev1.ScheduleAnyway}))
		}
		for _, rest := range cs[i+1:] {
			if c.TopologyKey == rest.TopologyKey && c.WhenUnsatisfiable == rest.WhenUnsatisfiable {
				errs = append(errs, field.Duplicate(ip.Child("{topologyKey, whenUnsatisfiable}"), fmt.Sprintf("{%v, %v}", c.TopologyKey, c.WhenUnsatisfiable)))
				break
			}
		}
		if md := c.MinDomains; md != nil {
			mp := ip.Child("minDomains")
			if *md <= 0 {
				errs = append(errs, field.Invalid(mp, int64(*md), "must be greater than zero"))
			}
			if c.WhenUnsatisfiable != corev1.DoNotSchedule {
				errs = append(errs, field.Invalid(mp, md, fmt.Sprintf("can only use minDomains if whenUnsatisfiable=%s, not %s", corev1.DoNotSchedule, c.WhenUnsatisfiable)))
			}
		}
		policy := func(pol *corev1.NodeInclusionPolicy, name string) {
			if pol != nil && *pol != corev1.NodeInclusionPolicyIgnore && *pol != corev1.NodeInclusionPolicyHonor {
				errs = append(errs, field.NotSupported(ip.Child(name), pol, []corev1.NodeInclusionPolicy{corev1.NodeInclusionPolicyHonor, corev1.NodeInclusionPolicyIgnore}))
			}
		}
		policy(c.NodeAffinityPolicy, "nodeAffinityPolicy")
		policy(c.NodeTaintsPolicy, "nodeTaintsPolicy")
		errs = append(errs, validateMatchLabelKeysAndMismatchLabelKeys(ip, c.MatchLabelKeys, nil, c.LabelSelector)...)
		errs = append(errs, metav1validation.ValidateLabelSelector(c.LabelSelector, metav1validation.LabelSelectorValidationOptions{}, ip.Child("labelSelector"))...)
	}
	return errs
}

// validateLinux and validateWindows (VAL-30): fields the pod's OS cannot use.
func validateLinux(spec *corev1.PodSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if sc := spec.SecurityContext; sc != nil && sc.WindowsOptions != nil {
		errs = append(errs, field.Forbidden(p.Child("securityContext").Child("windowsOptions"), "windows options cannot be set for a linux pod"))
	}
	visitContainers(spec, func(c *corev1.Container, list string, i int) {
		if c.SecurityContext != nil && c.SecurityContext.WindowsOptions != nil {
			cp := p.Child(list).Index(i)
			errs = append(errs, field.Forbidden(cp.Child("securityContext").Child("windowsOptions"), "windows options cannot be set for a linux pod"))
		}
	})
	return errs
}

func validateWindows(spec *corev1.PodSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	const msg = "cannot be set for a windows pod"
	scp := p.Child("securityContext")
	if sc := spec.SecurityContext; sc != nil {
		forbid := func(set bool, fp *field.Path) {
			if set {
				errs = append(errs, field.Forbidden(fp, msg))
			}
		}
		forbid(sc.AppArmorProfile != nil, scp.Child("appArmorProfile"))
		forbid(sc.SELinuxOptions != nil, scp.Child("seLinuxOptions"))
		forbid(spec.HostUsers != nil, p.Child("hostUsers"))
		forbid(spec.HostPID, p.Child("hostPID"))
		forbid(spec.HostIPC, p.Child("hostIPC"))
		forbid(sc.SeccompProfile != nil, scp.Child("seccompProfile"))
		forbid(sc.FSGroup != nil, scp.Child("fsGroup"))
		forbid(sc.FSGroupChangePolicy != nil, scp.Child("fsGroupChangePolicy"))
		forbid(len(sc.Sysctls) > 0, scp.Child("sysctls"))
		forbid(spec.ShareProcessNamespace != nil, p.Child("shareProcessNamespace"))
		forbid(sc.RunAsUser != nil, scp.Child("runAsUser"))
		forbid(sc.RunAsGroup != nil, scp.Child("runAsGroup"))
		forbid(sc.SupplementalGroups != nil, scp.Child("supplementalGroups"))
		forbid(sc.SupplementalGroupsPolicy != nil, scp.Child("supplementalGroupsPolicy"))
		forbid(sc.SELinuxChangePolicy != nil, scp.Child("seLinuxChangePolicy"))
	}
	visitContainers(spec, func(c *corev1.Container, list string, i int) {
		sc := c.SecurityContext
		if sc == nil {
			return
		}
		fp := p.Child(list).Index(i).Child("securityContext")
		forbid := func(set bool, name string) {
			if set {
				errs = append(errs, field.Forbidden(fp.Child(name), msg))
			}
		}
		forbid(sc.AppArmorProfile != nil, "appArmorProfile")
		forbid(sc.SELinuxOptions != nil, "seLinuxOptions")
		forbid(sc.SeccompProfile != nil, "seccompProfile")
		forbid(sc.Capabilities != nil, "capabilities")
		forbid(sc.ReadOnlyRootFilesystem != nil, "readOnlyRootFilesystem")
		forbid(sc.Privileged != nil, "privileged")
		forbid(sc.AllowPrivilegeEscalation != nil, "allowPrivilegeEscalation")
		forbid(sc.ProcMount != nil, "procMount")
		forbid(sc.RunAsUser != nil, "runAsUser")
		forbid(sc.RunAsGroup != nil, "runAsGroup")
	})
	return errs
}
