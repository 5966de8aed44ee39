package quota

import (
	"strings"

	"github.com/limitcheck/limitcheck/internal/eval/features"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ResourceClaims (RCL in docs/behaviour.md; RQ-32): device counts per device class. Without
// DeviceClass objects (limitcheck reads none yet) no class maps to an extended
// resource, so only the implicit requests.deviceclass.resource.kubernetes.io/<class>
// names are added, as upstream does with an empty class mapping.

// ResourceClaims is the group/resource of ResourceClaims.
var ResourceClaims = schema.GroupResource{Group: "resource.k8s.io", Resource: "resourceclaims"}

var resourceClaimCountName = countName(ResourceClaims)

type resourceClaimEvaluator struct{ gates features.Gates }

func (resourceClaimEvaluator) id() corev1.ResourceName { return resourceClaimCountName }
func (resourceClaimEvaluator) scopedLimits() bool      { return false }
func (resourceClaimEvaluator) matchesScope(corev1.ScopedResourceSelectorRequirement, runtime.Object) (bool, error) {
	return false, nil
}
func (resourceClaimEvaluator) constraints([]corev1.ResourceName, runtime.Object) error { return nil }

func (resourceClaimEvaluator) matchingResources(names []corev1.ResourceName) []corev1.ResourceName {
	var out []corev1.ResourceName
	for _, n := range names {
		if n == resourceClaimCountName || strings.HasSuffix(string(n), corev1.ResourceClaimsPerClass) {
			out = append(out, n)
		}
	}
	return out
}

// devices is how many devices one request may take: its count, or the
// allocation-result maximum for All; unknown modes count nothing.
func devices(mode resourcev1.DeviceAllocationMode, count int64) resource.Quantity {
	switch mode {
	case resourcev1.DeviceAllocationModeExactCount:
		return *resource.NewQuantity(count, resource.DecimalSI)
	case resourcev1.DeviceAllocationModeAll:
		return *resource.NewQuantity(resourcev1.AllocationResultsMaxSize, resource.DecimalSI)
	}
	return *resource.NewQuantity(0, resource.DecimalSI)
}

func (e resourceClaimEvaluator) usage(obj runtime.Object) corev1.ResourceList {
	claim := obj.(*resourcev1.ResourceClaim)
	out := corev1.ResourceList{resourceClaimCountName: one()}
	charge := func(class string, q resource.Quantity) {
		name := corev1.ResourceName(class + corev1.ResourceClaimsPerClass)
		sum := out[name]
		sum.Add(q)
		out[name] = sum
	}
	for _, req := range claim.Spec.Devices.Requests {
		switch {
		case len(req.FirstAvailable) > 0:
			// The worst case per device class over the alternatives.
			worst := map[string]resource.Quantity{}
			var order []string
			for _, sub := range req.FirstAvailable {
				q := devices(sub.AllocationMode, sub.Count)
				if cur := worst[sub.DeviceClassName]; q.Cmp(cur) > 0 {
					if _, seen := worst[sub.DeviceClassName]; !seen {
						order = append(order, sub.DeviceClassName)
					}
					worst[sub.DeviceClassName] = q
				}
			}
			for _, class := range order {
				charge(class, worst[class])
			}
		case req.Exactly != nil:
			charge(req.Exactly.DeviceClassName, devices(req.Exactly.AllocationMode, req.Exactly.Count))
		}
	}
	if e.gates.Enabled(features.DRAExtendedResource) {
		implicit := corev1.ResourceList{}
		for name, q := range out {
			class, ok := strings.CutSuffix(string(name), corev1.ResourceClaimsPerClass)
			if ok && class != "" && q.CmpInt64(0) > 0 {
				implicit[corev1.ResourceName(corev1.ResourceImplicitExtendedClaimsPerClass+class)] = q
			}
		}
		for k, v := range implicit {
			out[k] = v
		}
	}
	return out
}
