package eval

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// irregularResources maps built-in kinds whose resource name is not the naive
// plural of the kind.
var irregularResources = map[schema.GroupKind]string{
	{Kind: "Endpoints"}:                                          "endpoints",
	{Group: "networking.k8s.io", Kind: "Ingress"}:                "ingresses",
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"}:          "networkpolicies",
	{Group: "policy", Kind: "PodDisruptionBudget"}:               "poddisruptionbudgets",
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}:      "horizontalpodautoscalers",
	{Group: "discovery.k8s.io", Kind: "EndpointSlice"}:           "endpointslices",
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}:    "rolebindings",
	{Group: "storage.k8s.io", Kind: "CSIStorageCapacity"}:        "csistoragecapacities",
	{Group: "resource.k8s.io", Kind: "ResourceClaim"}:            "resourceclaims",
	{Group: "resource.k8s.io", Kind: "ResourceClaimTemplate"}:    "resourceclaimtemplates",
	{Group: "coordination.k8s.io", Kind: "Lease"}:                "leases",
	{Group: "apps", Kind: "ControllerRevision"}:                  "controllerrevisions",
	{Group: "autoscaling.k8s.io", Kind: "VerticalPodAutoscaler"}: "verticalpodautoscalers",
	{Group: "monitoring.coreos.com", Kind: "ServiceMonitor"}:     "servicemonitors",
	{Group: "cert-manager.io", Kind: "Certificate"}:              "certificates",
	{Group: "gateway.networking.k8s.io", Kind: "HTTPRoute"}:      "httproutes",
	{Group: "networking.istio.io", Kind: "VirtualService"}:       "virtualservices",
	{Group: "networking.istio.io", Kind: "DestinationRule"}:      "destinationrules",
	{Group: "policy", Kind: "Eviction"}:                          "evictions",
	{Group: "batch", Kind: "CronJob"}:                            "cronjobs",
	{Group: "apps", Kind: "DaemonSet"}:                           "daemonsets",
	{Group: "apps", Kind: "ReplicaSet"}:                          "replicasets",
	{Group: "apps", Kind: "StatefulSet"}:                         "statefulsets",
	{Group: "apps", Kind: "Deployment"}:                          "deployments",
	{Group: "batch", Kind: "Job"}:                                "jobs",
	{Kind: "ServiceAccount"}:                                     "serviceaccounts",
	{Kind: "PodTemplate"}:                                        "podtemplates",
	{Group: "rbac.authorization.k8s.io", Kind: "Role"}:           "roles",
	{Group: "networking.k8s.io", Kind: "IngressClassParams"}:     "ingressclassparams",
	{Group: "snapshot.storage.k8s.io", Kind: "VolumeSnapshot"}:   "volumesnapshots",
	{Group: "events.k8s.io", Kind: "Event"}:                      "events",
	{Kind: "Event"}:                                              "events",
	{Kind: "Binding"}:                                            "bindings",
}

// resourceFor returns the group/resource a kind is served as: the table above,
// else kubectl's naive pluralisation (lower-case; y→ies; s,x,z,ch,sh→+es; else +s).
// Custom resources with irregular plurals need their CRD, which limitcheck does
// not read yet.
func resourceFor(gvk schema.GroupVersionKind) schema.GroupResource {
	if r, ok := irregularResources[gvk.GroupKind()]; ok {
		return schema.GroupResource{Group: gvk.Group, Resource: r}
	}
	plural, _ := meta.UnsafeGuessKindToResource(gvk)
	return plural.GroupResource()
}
