package resources

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Resource-name classification, mirroring kubernetes/pkg/apis/core/helper
// (HLP in docs/behaviour.md). The sets are the upstream ones; nothing is added.

const (
	HugePagesPrefix         = "hugepages-"
	RequestsHugePagesPrefix = "requests.hugepages-"
	RequestsPrefix          = "requests."
	DefaultNamespacePrefix  = "kubernetes.io/"
)

func NewNameSet(names ...corev1.ResourceName) map[corev1.ResourceName]bool {
	s := make(map[corev1.ResourceName]bool, len(names))
	for _, n := range names {
		s[n] = true
	}
	return s
}

var (
	standardContainerResources = NewNameSet(corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage)

	standardQuotaResources = NewNameSet(
		corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage,
		corev1.ResourceRequestsCPU, corev1.ResourceRequestsMemory, corev1.ResourceRequestsStorage,
		corev1.ResourceRequestsEphemeralStorage, corev1.ResourceLimitsCPU, corev1.ResourceLimitsMemory,
		corev1.ResourceLimitsEphemeralStorage, corev1.ResourcePods, corev1.ResourceQuotas,
		corev1.ResourceServices, corev1.ResourceReplicationControllers, corev1.ResourceSecrets,
		corev1.ResourcePersistentVolumeClaims, corev1.ResourceConfigMaps,
		corev1.ResourceServicesNodePorts, corev1.ResourceServicesLoadBalancers,
	)

	standardResources = NewNameSet(
		corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage,
		corev1.ResourceRequestsCPU, corev1.ResourceRequestsMemory, corev1.ResourceRequestsEphemeralStorage,
		corev1.ResourceLimitsCPU, corev1.ResourceLimitsMemory, corev1.ResourceLimitsEphemeralStorage,
		corev1.ResourcePods, corev1.ResourceQuotas, corev1.ResourceServices,
		corev1.ResourceReplicationControllers, corev1.ResourceSecrets, corev1.ResourceConfigMaps,
		corev1.ResourcePersistentVolumeClaims, corev1.ResourceStorage, corev1.ResourceRequestsStorage,
		corev1.ResourceServicesNodePorts, corev1.ResourceServicesLoadBalancers,
	)

	integerResources = NewNameSet(
		corev1.ResourcePods, corev1.ResourceQuotas, corev1.ResourceServices,
		corev1.ResourceReplicationControllers, corev1.ResourceSecrets, corev1.ResourceConfigMaps,
		corev1.ResourcePersistentVolumeClaims, corev1.ResourceServicesNodePorts,
		corev1.ResourceServicesLoadBalancers,
	)
)

func IsUnqualified(name corev1.ResourceName) bool { return !strings.Contains(string(name), "/") }

func IsHugePageResourceName(name corev1.ResourceName) bool {
	return strings.HasPrefix(string(name), HugePagesPrefix)
}

func IsQuotaHugePageResourceName(name corev1.ResourceName) bool {
	return strings.HasPrefix(string(name), HugePagesPrefix) || strings.HasPrefix(string(name), RequestsHugePagesPrefix)
}

// IsNativeResource: unqualified names and names in the *kubernetes.io/ namespace.
func IsNativeResource(name corev1.ResourceName) bool {
	return IsUnqualified(name) || strings.Contains(string(name), DefaultNamespacePrefix)
}

// IsExtendedResourceName: not native, no "requests." prefix, and "requests.<name>"
// is a qualified name.
func IsExtendedResourceName(name corev1.ResourceName) bool {
	if IsNativeResource(name) || strings.HasPrefix(string(name), RequestsPrefix) {
		return false
	}
	return len(validation.IsQualifiedName(RequestsPrefix+string(name))) == 0
}

// IsOvercommitAllowed: native and not hugepages.
func IsOvercommitAllowed(name corev1.ResourceName) bool {
	return IsNativeResource(name) && !IsHugePageResourceName(name)
}

func IsStandardContainerResourceName(name corev1.ResourceName) bool {
	return standardContainerResources[name] || IsHugePageResourceName(name)
}

func IsStandardQuotaResourceName(name corev1.ResourceName) bool {
	return standardQuotaResources[name] || IsQuotaHugePageResourceName(name)
}

func IsStandardResourceName(name corev1.ResourceName) bool {
	return standardResources[name] || IsQuotaHugePageResourceName(name)
}

func IsIntegerResourceName(name corev1.ResourceName) bool {
	return integerResources[name] || IsExtendedResourceName(name)
}

// IsHugePageResourceValueDivisible: the quantity is a whole multiple of the page size
// named by the resource.
func IsHugePageResourceValueDivisible(name corev1.ResourceName, q resource.Quantity) bool {
	pageSize, err := resource.ParseQuantity(strings.TrimPrefix(string(name), HugePagesPrefix))
	if err != nil || !IsHugePageResourceName(name) {
		return false
	}
	if pageSize.Sign() <= 0 || pageSize.MilliValue()%1000 != 0 {
		return false
	}
	return q.Value()%pageSize.Value() == 0
}
