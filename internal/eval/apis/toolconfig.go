package apis

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Configuration files of clients and components look like API objects
// (apiVersion, kind) but no apiserver serves them; they end up next to
// manifests (a kustomization.yaml in the manifest directory, a kind cluster
// config, a kubelet config in a node-setup repository, a skaffold.yaml at a
// repository's root, a policy repository's kyverno-test.yaml, a Backstage
// catalog-info.yaml). Besides groups with a dot, only the dotless names of
// four tools are: Skaffold's skaffold/v…, the descheduler's
// descheduler/v1alpha…, kube-scheduler-simulator's and kustomize's
// apiVersion builtin.
// Another dotless unknown group (app/v1) cannot be any apiserver's group
// either, but is more likely a mistake, and is NotServed, as kubectl reports
// it.
var (
	// toolConfigSuffixes cover the component configuration groups
	// (kubelet.config.k8s.io, kubeproxy.config.k8s.io,
	// kubescheduler.config.k8s.io, kubecontrollermanager.config.k8s.io,
	// apiserver.config.k8s.io, kustomize.config.k8s.io, kubectl.config.k8s.io
	// (kuberc), pod-security.admission.config.k8s.io, …) and the admission
	// plugin configuration groups (resourcequota.admission.k8s.io,
	// eventratelimit.admission.k8s.io, podtolerationrestriction.admission.k8s.io).
	// Kubernetes reserves both domains for these files.
	toolConfigSuffixes = []string{".config.k8s.io", ".admission.k8s.io"}
	toolConfigGroups   = map[string]bool{
		"apiserver.k8s.io":        true, // v1alpha1 AdmissionConfiguration, before apiserver.config.k8s.io
		"audit.k8s.io":            true, // audit Policy (--audit-policy-file)
		"kubeadm.k8s.io":          true, // InitConfiguration, ClusterConfiguration, JoinConfiguration
		"kind.x-k8s.io":           true, // kind's Cluster
		"config.kubernetes.io":    true, // kyaml/kpt function ResourceList and local config
		"kpt.dev":                 true, // Kptfile
		"fn.kpt.dev":              true, // kpt function configurations
		"skaffold":                true, // skaffold.yaml's Config
		"descheduler":             true, // the descheduler's DeschedulerPolicy (--policy-config-file)
		"cli.kyverno.io":          true, // the Kyverno CLI's Test, Values, UserInfo, Context, …
		"test.gatekeeper.sh":      true, // Gatekeeper's gator Suite
		"chainsaw.kyverno.io":     true, // Chainsaw's Test and Configuration (e2e tests)
		"kuttl.dev":               true, // KUTTL's TestSuite, TestStep, TestAssert (e2e tests)
		"tanka.dev":               true, // a Tanka environment's spec.json
		"backstage.io":            true, // a Backstage catalog-info.yaml (Component, API, System, …)
		"scaffolder.backstage.io": true, // a Backstage software Template
		"config.kwok.x-k8s.io":    true, // kwok's and kwokctl's KwokConfiguration, KwokctlConfiguration
		// kube-scheduler-simulator's SimulatorConfiguration (a dotless group).
		"kube-scheduler-simulator-config": true,
	}
)

// IsToolConfig reports whether apiVersion/kind is a client or component
// configuration file rather than an API object: a kubeconfig (v1 Config), a
// kustomize built-in plugin's configuration (apiVersion builtin), a
// kind of a *.config.k8s.io or *.admission.k8s.io group (kustomize's
// Kustomization and Component, KubeletConfiguration, KubeProxyConfiguration,
// KubeSchedulerConfiguration, AdmissionConfiguration, …), or a kind of
// apiserver.k8s.io, audit.k8s.io, kubeadm.k8s.io, kind.x-k8s.io,
// config.kubernetes.io, kpt.dev, fn.kpt.dev, skaffold, descheduler,
// config.kwok.x-k8s.io, kube-scheduler-simulator-config, of the test tools'
// cli.kyverno.io, test.gatekeeper.sh, chainsaw.kyverno.io and kuttl.dev, or
// Backstage's backstage.io and scaffolder.backstage.io. (internal/admissionconfig reads
// the admission configuration kinds among them.)
func IsToolConfig(apiVersion, kind string) bool {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return false
	}
	if gv.Group == "" {
		// clientcmd's kubeconfig, and the configuration of a kustomize
		// built-in transformer or generator (apiVersion: builtin).
		return gv.Version == "v1" && kind == "Config" || gv.Version == "builtin"
	}
	if toolConfigGroups[gv.Group] {
		return true
	}
	for _, s := range toolConfigSuffixes {
		if strings.HasSuffix(gv.Group, s) {
			return true
		}
	}
	return false
}
