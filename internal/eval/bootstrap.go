package eval

import "k8s.io/apimachinery/pkg/runtime/schema"

// The cluster-scoped objects every cluster holds before the first manifest
// arrives (ST-01): a Namespace, ClusterRole, ClusterRoleBinding, FlowSchema
// or PriorityLevelConfiguration of the input with one of these names is
// kube-apiserver's 409. The roles and
// bindings are kube-apiserver's RBAC bootstrap policy (its cluster roles and
// controller roles, and their bindings) with the 1.36 default feature gates;
// TestBootstrapNames in conformance/ holds the lists to upstream's.

// InitialNamespaces are the namespaces kube-apiserver creates.
var InitialNamespaces = []string{"default", "kube-node-lease", "kube-public", "kube-system"}

// BootstrapClusterRoles are the ClusterRoles kube-apiserver creates, sorted.
var BootstrapClusterRoles = []string{
	"admin",
	"cluster-admin",
	"edit",
	"system:aggregate-to-admin",
	"system:aggregate-to-edit",
	"system:aggregate-to-view",
	"system:auth-delegator",
	"system:basic-user",
	"system:certificates.k8s.io:certificatesigningrequests:nodeclient",
	"system:certificates.k8s.io:certificatesigningrequests:selfnodeclient",
	"system:certificates.k8s.io:kube-apiserver-client-approver",
	"system:certificates.k8s.io:kube-apiserver-client-kubelet-approver",
	"system:certificates.k8s.io:kubelet-serving-approver",
	"system:certificates.k8s.io:legacy-unknown-approver",
	"system:controller:attachdetach-controller",
	"system:controller:certificate-controller",
	"system:controller:clusterrole-aggregation-controller",
	"system:controller:cronjob-controller",
	"system:controller:daemon-set-controller",
	"system:controller:deployment-controller",
	"system:controller:device-taint-eviction-controller",
	"system:controller:disruption-controller",
	"system:controller:endpoint-controller",
	"system:controller:endpointslice-controller",
	"system:controller:endpointslicemirroring-controller",
	"system:controller:ephemeral-volume-controller",
	"system:controller:expand-controller",
	"system:controller:generic-garbage-collector",
	"system:controller:horizontal-pod-autoscaler",
	"system:controller:job-controller",
	"system:controller:legacy-service-account-token-cleaner",
	"system:controller:namespace-controller",
	"system:controller:node-controller",
	"system:controller:persistent-volume-binder",
	"system:controller:pod-garbage-collector",
	"system:controller:pv-protection-controller",
	"system:controller:pvc-protection-controller",
	"system:controller:replicaset-controller",
	"system:controller:replication-controller",
	"system:controller:resource-claim-controller",
	"system:controller:resourcequota-controller",
	"system:controller:root-ca-cert-publisher",
	"system:controller:route-controller",
	"system:controller:selinux-warning-controller",
	"system:controller:service-account-controller",
	"system:controller:service-cidrs-controller",
	"system:controller:service-controller",
	"system:controller:statefulset-controller",
	"system:controller:ttl-after-finished-controller",
	"system:controller:ttl-controller",
	"system:controller:validatingadmissionpolicy-status-controller",
	"system:controller:volumeattributesclass-protection-controller",
	"system:discovery",
	"system:heapster",
	"system:kube-aggregator",
	"system:kube-controller-manager",
	"system:kube-dns",
	"system:kube-scheduler",
	"system:kubelet-api-admin",
	"system:monitoring",
	"system:node",
	"system:node-bootstrapper",
	"system:node-problem-detector",
	"system:node-proxier",
	"system:persistent-volume-provisioner",
	"system:public-info-viewer",
	"system:service-account-issuer-discovery",
	"system:volume-scheduler",
	"view",
}

// BootstrapClusterRoleBindings are the ClusterRoleBindings kube-apiserver
// creates, sorted.
var BootstrapClusterRoleBindings = []string{
	"cluster-admin",
	"system:basic-user",
	"system:controller:attachdetach-controller",
	"system:controller:certificate-controller",
	"system:controller:clusterrole-aggregation-controller",
	"system:controller:cronjob-controller",
	"system:controller:daemon-set-controller",
	"system:controller:deployment-controller",
	"system:controller:device-taint-eviction-controller",
	"system:controller:disruption-controller",
	"system:controller:endpoint-controller",
	"system:controller:endpointslice-controller",
	"system:controller:endpointslicemirroring-controller",
	"system:controller:ephemeral-volume-controller",
	"system:controller:expand-controller",
	"system:controller:generic-garbage-collector",
	"system:controller:horizontal-pod-autoscaler",
	"system:controller:job-controller",
	"system:controller:legacy-service-account-token-cleaner",
	"system:controller:namespace-controller",
	"system:controller:node-controller",
	"system:controller:persistent-volume-binder",
	"system:controller:pod-garbage-collector",
	"system:controller:pv-protection-controller",
	"system:controller:pvc-protection-controller",
	"system:controller:replicaset-controller",
	"system:controller:replication-controller",
	"system:controller:resource-claim-controller",
	"system:controller:resourcequota-controller",
	"system:controller:root-ca-cert-publisher",
	"system:controller:route-controller",
	"system:controller:selinux-warning-controller",
	"system:controller:service-account-controller",
	"system:controller:service-cidrs-controller",
	"system:controller:service-controller",
	"system:controller:statefulset-controller",
	"system:controller:ttl-after-finished-controller",
	"system:controller:ttl-controller",
	"system:controller:validatingadmissionpolicy-status-controller",
	"system:controller:volumeattributesclass-protection-controller",
	"system:discovery",
	"system:kube-controller-manager",
	"system:kube-dns",
	"system:kube-scheduler",
	"system:monitoring",
	"system:node",
	"system:node-proxier",
	"system:public-info-viewer",
	"system:service-account-issuer-discovery",
	"system:volume-scheduler",
}

// BootstrapFlowSchemas are the FlowSchemas kube-apiserver's API Priority and
// Fairness configuration creates, the mandatory and the suggested ones,
// sorted (VAL-103).
var BootstrapFlowSchemas = []string{
	"catch-all", "exempt", "global-default", "kube-controller-manager", "kube-scheduler", "kube-system-service-accounts",
	"probes", "service-accounts", "system-leader-election", "system-node-high", "system-nodes",
}

// BootstrapPriorityLevelConfigurations are the PriorityLevelConfigurations
// it creates, sorted.
var BootstrapPriorityLevelConfigurations = []string{
	"catch-all", "exempt", "global-default", "leader-election", "node-high", "system", "workload-high", "workload-low",
}

// initialClusterObjects are the resources of those lists.
var initialClusterObjects = []struct {
	resource schema.GroupResource
	names    []string
}{
	{schema.GroupResource{Resource: "namespaces"}, InitialNamespaces},
	{schema.GroupResource{Group: "rbac.authorization.k8s.io", Resource: "clusterroles"}, BootstrapClusterRoles},
	{schema.GroupResource{Group: "rbac.authorization.k8s.io", Resource: "clusterrolebindings"}, BootstrapClusterRoleBindings},
	{schema.GroupResource{Group: "flowcontrol.apiserver.k8s.io", Resource: "flowschemas"}, BootstrapFlowSchemas},
	{schema.GroupResource{Group: "flowcontrol.apiserver.k8s.io", Resource: "prioritylevelconfigurations"}, BootstrapPriorityLevelConfigurations},
}
