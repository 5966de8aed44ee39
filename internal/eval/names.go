package eval

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Resource-name classification, mirroring kubernetes/pkg/apis/core/helper
// (HLP in docs/behaviour.md). The sets are the upstream ones; nothing is added.

const (
	hugePagesPrefix         = "hugepages-"
	requestsHugePagesPrefix = "requests.hugepages-"
	requestsPrefix          = "requests."
	defaultNamespacePrefix  = "kubernetes.io/"
)

func newNameSet(names ...corev1.ResourceName) map[corev1.ResourceName]bool {
	s := make(map[corev1.ResourceName]bool, len(names))
	for _, n := range names {
		s[n] = true
	}
	return s
}

var (
	standardContainerResources = newNameSet(corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage)

	standardQuotaResources = newNameSet(
		corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage,
		corev1.ResourceRequestsCPU, corev1.ResourceRequestsMemory, corev1.ResourceRequestsStorage,
		corev1.ResourceRequestsEphemeralStorage, corev1.ResourceLimitsCPU, corev1.ResourceLimitsMemory,
		corev1.ResourceLimitsEphemeralStorage, corev1.ResourcePods, corev1.ResourceQuotas,
		corev1.ResourceServices, corev1.ResourceReplicationControllers, corev1.ResourceSecrets,
		corev1.ResourcePersistentVolumeClaims, corev1.ResourceConfigMaps,
		corev1.ResourceServicesNodePorts, corev1.ResourceServicesLoadBalancers,
	)

	standardResources = newNameSet(
		corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage,
		corev1.ResourceRequestsCPU, corev1.ResourceRequestsMemory, corev1.ResourceRequestsEphemeralStorage,
		corev1.ResourceLimitsCPU, corev1.ResourceLimitsMemory, corev1.ResourceLimitsEphemeralStorage,
		corev1.ResourcePods, corev1.ResourceQuotas, corev1.ResourceServices,
		corev1.ResourceReplicationControllers, corev1.ResourceSecrets, corev1.ResourceConfigMaps,
		corev1.ResourcePersistentVolumeClaims, corev1.ResourceStorage, corev1.ResourceRequestsStorage,
		corev1.ResourceServicesNodePorts, corev1.ResourceServicesLoadBalancers,
	)

	integerResources = newNameSet(
		corev1.ResourcePods, corev1.ResourceQuotas, corev1.ResourceServices,
		corev1.ResourceReplicationControllers, corev1.ResourceSecrets, corev1.ResourceConfigMaps,
		corev1.ResourcePersistentVolumeClaims, corev1.ResourceServicesNodePorts,
		corev1.ResourceServicesLoadBalancers,
	)

	standardLimitTypes = map[corev1.LimitType]bool{
		corev1.LimitTypePod: true, corev1.LimitTypeContainer: true, corev1.LimitTypePersistentVolumeClaim: true,
	}
)

func isUnqualified(name corev1.ResourceName) bool { return !strings.Contains(string(name), "/") }

func isHugePageResourceName(name corev1.ResourceName) bool {
	return strings.HasPrefix(string(name), hugePagesPrefix)
}

func isQuotaHugePageResourceName(name corev1.ResourceName) bool {
	return strings.HasPrefix(string(name), hugePagesPrefix) || strings.HasPrefix(string(name), requestsHugePagesPrefix)
}

// isNativeResource: unqualified names and names in the *kubernetes.io/ namespace.
func isNativeResource(name corev1.ResourceName) bool {
	return isUnqualified(name) || strings.Contains(string(name), defaultNamespacePrefix)
}

// isExtendedResourceName: not native, no "requests." prefix, and "requests.<name>"
// is a qualified name.
func isExtendedResourceName(name corev1.ResourceName) bool {
	if isNativeResource(name) || strings.HasPrefix(string(name), requestsPrefix) {
		return false
	}
	return len(validation.IsQualifiedName(requestsPrefix+string(name))) == 0
}

// isOvercommitAllowed: native and not hugepages.
func isOvercommitAllowed(name corev1.ResourceName) bool {
	return isNativeResource(name) && !isHugePageResourceName(name)
}

func isStandardContainerResourceName(name corev1.ResourceName) bool {
	return standardContainerResources[name] || isHugePageResourceName(name)
}

func isStandardQuotaResourceName(name corev1.ResourceName) bool {
	return standardQuotaResources[name] || isQuotaHugePageResourceName(name)
}

func isStandardResourceName(name corev1.ResourceName) bool {
	return standardResources[name] || isQuotaHugePageResourceName(name)
}

func isIntegerResourceName(name corev1.ResourceName) bool {
	return integerResources[name] || isExtendedResourceName(name)
}

// isHugePageResourceValueDivisible: the quantity is a whole multiple of the page size
// named by the resource.
func isHugePageResourceValueDivisible(name corev1.ResourceName, q resource.Quantity) bool {
	pageSize, err := resource.ParseQuantity(strings.TrimPrefix(string(name), hugePagesPrefix))
	if err != nil || !isHugePageResourceName(name) {
		return false
	}
	if pageSize.Sign() <= 0 || pageSize.MilliValue()%1000 != 0 {
		return false
	}
	return q.Value()%pageSize.Value() == 0
}
