package eval

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Admission plugin names kube-apiserver 1.36 registers. limitcheck simulates
// LimitRanger, ResourceQuota, Priority, DefaultStorageClass and RuntimeClass; naming any other registered plugin is accepted
// (it changes nothing here), an unregistered name is an error as in kube-apiserver.
var registeredPlugins = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`AlwaysAdmit AlwaysDeny AlwaysPullImages CertificateApproval CertificateSigning
		CertificateSubjectRestriction ClusterTrustBundleAttest DefaultIngressClass DefaultStorageClass
		DefaultTolerationSeconds DenyServiceExternalIPs EventRateLimit ExtendedResourceToleration
		ImagePolicyWebhook JobValidation LimitPodHardAntiAffinityTopology LimitRanger MutatingAdmissionPolicy
		MutatingAdmissionWebhook NamespaceAutoProvision NamespaceExists NamespaceLifecycle
		NodeDeclaredFeatureValidator NodeRestriction OwnerReferencesPermissionEnforcement
		PersistentVolumeClaimResize PodGroupProtection PodGroupWorkloadExists PodNodeSelector
		PodResizeValidator PodSecurity PodTolerationRestriction PodTopologyLabels Priority ResourceQuota
		RuntimeClass ServiceAccount StorageObjectInUseProtection TaintNodesByCondition
		ValidatingAdmissionPolicy ValidatingAdmissionWebhook`) {
		registeredPlugins[n] = true
	}
}

// ApplyAdmissionPlugins applies kube-apiserver's --enable-admission-plugins and
// --disable-admission-plugins (comma-separated) to the options: LimitRanger and
// ResourceQuota are on by default and off when disabled.
func (o *Options) ApplyAdmissionPlugins(enable, disable string) error {
	split := func(s string) []string {
		var out []string
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out
	}
	en, dis := split(enable), split(disable)
	var errs []error
	for _, n := range en {
		if !registeredPlugins[n] {
			errs = append(errs, fmt.Errorf("enable-admission-plugins plugin %q is unknown", n))
		}
	}
	for _, n := range dis {
		if !registeredPlugins[n] {
			errs = append(errs, fmt.Errorf("disable-admission-plugins plugin %q is unknown", n))
		}
	}
	var both []string
	for _, n := range en {
		for _, m := range dis {
			if n == m {
				both = append(both, n)
			}
		}
	}
	if len(both) > 0 {
		sort.Strings(both)
		errs = append(errs, fmt.Errorf("%v in enable-admission-plugins and disable-admission-plugins overlapped", both))
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	for _, n := range dis {
		switch n {
		case "LimitRanger":
			o.DisableLimitRanger = true
		case "ResourceQuota":
			o.DisableResourceQuota = true
		case "Priority":
			o.DisablePriority = true
		case "DefaultStorageClass":
			o.DisableDefaultStorageClass = true
		case "RuntimeClass":
			o.DisableRuntimeClass = true
		case "PodSecurity":
			o.DisablePodSecurity = true
		case "CertificateSubjectRestriction":
			o.DisableCertificateSubjectRestriction = true
		}
	}
	return nil
}

// simulatedPlugins are the admission plugins limitcheck runs.
var simulatedPlugins = map[string]bool{"LimitRanger": true, "ResourceQuota": true, "Priority": true, "DefaultStorageClass": true, "RuntimeClass": true, "PodSecurity": true, "CertificateSubjectRestriction": true}

// UnsimulatedPlugins returns the plugins of an --enable-admission-plugins value
// that kube-apiserver knows and limitcheck does not run, in the order given:
// their verdicts are not part of a check (HINT-01).
func UnsimulatedPlugins(enable string) []string {
	var out []string
	for _, p := range strings.Split(enable, ",") {
		if p = strings.TrimSpace(p); registeredPlugins[p] && !simulatedPlugins[p] {
			out = append(out, p)
		}
	}
	return out
}
