package apis

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// A custom resource whose CustomResourceDefinition is not in the input is
// assumed installed; its CRD, not a rule, names its plural and scope. The
// plural is taken as a CRD author writes it (plural English of the
// lower-case kind), and the scope is the CRD's where the kind is one of the
// widely installed projects' cluster-scoped kinds, else namespaced.

// customKind is the Kind a custom resource without a CRD in the input is
// taken to be: namespaced unless clusterScopedCustom lists it, under
// customPlural.
func customKind(gvk schema.GroupVersionKind) Kind {
	return Kind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind,
		Resource: customPlural(gvk.GroupKind()), Namespaced: !clusterScopedCustom(gvk.GroupKind())}
}

// customPlural is the plural a CRD gives kind: its lower-case English
// plural (Plural), which is not always kubectl's offline guess (Gateway:
// gateways, not gatewaies). Gatekeeper names its constraint CRDs by the
// lower-case kind alone.
func customPlural(gk schema.GroupKind) string {
	k := strings.ToLower(gk.Kind)
	if gk.Group == "constraints.gatekeeper.sh" || strings.HasSuffix(k, "endpoints") {
		return k
	}
	return strings.ToLower(Plural(gk.Kind))
}

// Plural is the English plural of a kind, in the kind's case: ConfigMaps,
// Ingresses, NetworkPolicies, Gateways (a consonant and y make -ies, a vowel
// and y just -s; s, x, z, ch and sh take -es).
func Plural(kind string) string {
	lower := strings.ToLower(kind)
	switch n := len(lower); {
	case n == 0:
		return kind
	case strings.HasSuffix(lower, "s"), strings.HasSuffix(lower, "x"), strings.HasSuffix(lower, "z"),
		strings.HasSuffix(lower, "ch"), strings.HasSuffix(lower, "sh"):
		return kind + "es"
	case lower[n-1] == 'y' && n > 1 && !strings.ContainsRune("aeiou", rune(lower[n-2])):
		return kind[:n-1] + "ies"
	}
	return kind + "s"
}

// clusterScopedCustom lists the cluster-scoped kinds of widely installed
// projects' CRDs (Gateway API, cert-manager, External Secrets, KEDA, Argo,
// Kyverno, Gatekeeper, the CSI snapshotter, Cilium), so that manifests using
// them without their CRD are not charged to a namespace.
func clusterScopedCustom(gk schema.GroupKind) bool {
	switch gk.Group {
	case "constraints.gatekeeper.sh", "templates.gatekeeper.sh":
		return true // every constraint kind, and ConstraintTemplate
	}
	return clusterScopedKinds[gk]
}

var clusterScopedKinds = map[schema.GroupKind]bool{
	{Group: "gateway.networking.k8s.io", Kind: "GatewayClass"}:              true,
	{Group: "cert-manager.io", Kind: "ClusterIssuer"}:                       true,
	{Group: "external-secrets.io", Kind: "ClusterSecretStore"}:              true,
	{Group: "external-secrets.io", Kind: "ClusterExternalSecret"}:           true,
	{Group: "keda.sh", Kind: "ClusterTriggerAuthentication"}:                true,
	{Group: "argoproj.io", Kind: "ClusterWorkflowTemplate"}:                 true,
	{Group: "argoproj.io", Kind: "ClusterAnalysisTemplate"}:                 true,
	{Group: "kyverno.io", Kind: "ClusterPolicy"}:                            true,
	{Group: "kyverno.io", Kind: "ClusterCleanupPolicy"}:                     true,
	{Group: "wgpolicyk8s.io", Kind: "ClusterPolicyReport"}:                  true,
	{Group: "snapshot.storage.k8s.io", Kind: "VolumeSnapshotClass"}:         true,
	{Group: "snapshot.storage.k8s.io", Kind: "VolumeSnapshotContent"}:       true,
	{Group: "cilium.io", Kind: "CiliumClusterwideNetworkPolicy"}:            true,
	{Group: "monitoring.coreos.com", Kind: "PrometheusAgent"}:               false,
	{Group: "networking.istio.io", Kind: "Gateway"}:                         false,
	{Group: "policy.networking.k8s.io", Kind: "AdminNetworkPolicy"}:         true,
	{Group: "policy.networking.k8s.io", Kind: "BaselineAdminNetworkPolicy"}: true,
}
