package validation

import (
	"encoding/json"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/validate/content"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/resources"
	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Dynamic resource allocation (resource.k8s.io/v1) on create: ResourceClaims
// (VAL-32), ResourceClaimTemplates (VAL-33) and DeviceClasses (VAL-34),
// as the registry strategies validate them at 1.36's default gates
// (DRAPrioritizedList, DRAAdminAccess, DRADeviceTaints and
// DRAConsumableCapacity on, so PrepareForCreate drops no field). The CEL
// expressions of device selectors are compiled by the ExpressionCompiler the
// caller gives, if any (VAL-35).

// Sizes of resource.k8s.io's lists and values.
const (
	draMaxRequests       = 32 // requests in a claim, names in a constraint or config
	draMaxConstraints    = 32
	draMaxConfigs        = 32
	draMaxSelectors      = 32
	draMaxFirstAvailable = 8
	draMaxCELLength      = 10 * 1024
	draMaxOpaqueLength   = 10 * 1024
	draMaxIDLength       = 32 // the name part of a qualified name (a C identifier)
)

// AdminAccessLabel is the namespace label a claim requesting admin access to
// devices needs, set to "true".
const AdminAccessLabel = "resource.kubernetes.io/admin-access"

var (
	resourceClaimGK         = schema.GroupKind{Group: resourcev1.GroupName, Kind: "ResourceClaim"}
	resourceClaimTemplateGK = schema.GroupKind{Group: resourcev1.GroupName, Kind: "ResourceClaimTemplate"}
)

// deviceClassMeta: ValidateObjectMetaWithOpts with declarative validation's
// LongName, no namespace; PrepareForCreate sets the generation.
var deviceClassMeta = MetaRules{Name: nameLongName, NoGenerateName: true, KubeFinalizers: true, SetsGeneration: true, ClusterScoped: true}

// AdminAccess is the strategies' admin-access check: the first request (in
// order) with exactly.adminAccess true is forbidden unless the namespace's
// labels have AdminAccessLabel "true". It comes before the object's own
// errors.
func AdminAccess(d *resourcev1.DeviceClaim, requestsPath *field.Path, nsLabels map[string]string) field.ErrorList {
	for i := range d.Requests {
		x := d.Requests[i].Exactly
		if x == nil || x.AdminAccess == nil || !*x.AdminAccess {
			continue
		}
		if nsLabels[AdminAccessLabel] == "true" {
			return nil
		}
		return field.ErrorList{field.Forbidden(requestsPath.Index(i).Child("adminAccess"),
			fmt.Sprintf("admin access to devices requires the `%s: true` label on the containing namespace", AdminAccessLabel))}
	}
	return nil
}

// ResourceClaim is ValidateResourceClaim on a defaulted claim (VAL-32): its
// metadata, then spec.devices.
func ResourceClaim(c *resourcev1.ResourceClaim, compile ExpressionCompiler) field.ErrorList {
	errs := ObjectMeta(&c.ObjectMeta, MetaRulesFor(resourceClaimGK), field.NewPath("metadata"))
	return append(errs, deviceClaim(&c.Spec.Devices, field.NewPath("spec", "devices"), compile)...)
}

// ResourceClaimTemplate is ValidateResourceClaimTemplate on a defaulted
// template (VAL-33): its metadata, the template's metadata (as a Pod
// template's), then spec.spec.devices.
func ResourceClaimTemplate(t *resourcev1.ResourceClaimTemplate, compile ExpressionCompiler) field.ErrorList {
	errs := ObjectMeta(&t.ObjectMeta, MetaRulesFor(resourceClaimTemplateGK), field.NewPath("metadata"))
	sp := field.NewPath("spec")
	errs = append(errs, templateObjectMeta(&t.Spec.ObjectMeta, lazy(sp.Child("metadata")))...)
	return append(errs, deviceClaim(&t.Spec.Spec.Devices, sp.Child("spec", "devices"), compile)...)
}

// PrepareDeviceClassForCreate is the strategy's PrepareForCreate: generation 1.
func PrepareDeviceClassForCreate(c *resourcev1.DeviceClass) {
	c.Generation = 1
}

// DeviceClass is ValidateDeviceClass (VAL-34): its metadata, then the
// selectors, the configurations and the extended resource name.
func DeviceClass(c *resourcev1.DeviceClass, compile ExpressionCompiler) field.ErrorList {
	errs := ObjectMeta(&c.ObjectMeta, deviceClassMeta, field.NewPath("metadata"))
	sp := field.NewPath("spec")
	errs = append(errs, deviceSelectors(c.Spec.Selectors, sp.Child("selectors"), compile)...)
	errs = append(errs, draList(len(c.Spec.Config), draMaxConfigs, sp.Child("config"), func(i int, p *field.Path) field.ErrorList {
		return deviceConfiguration(&c.Spec.Config[i].DeviceConfiguration, p)
	})...)
	if n := c.Spec.ExtendedResourceName; n != nil && !resources.IsExtendedResourceName(corev1.ResourceName(*n)) {
		errs = append(errs, field.Invalid(sp.Child("extendedResourceName"), *n, "must be a valid extended resource name"))
	}
	return errs
}

// draList is validateSlice: more than max items is the one error (the items
// are not looked at); otherwise each item's errors, in order.
func draList(n, max int, p *field.Path, item func(i int, p *field.Path) field.ErrorList) field.ErrorList {
	if n > max {
		return field.ErrorList{field.TooMany(p, n, max)}
	}
	var errs field.ErrorList
	for i := range n {
		errs = append(errs, item(i, p.Index(i))...)
	}
	return errs
}

// draSet is validateSet: draList, then a Duplicate for each item whose key
// an earlier item has.
func draSet(keys []string, max int, p *field.Path, item func(i int, p *field.Path) field.ErrorList) field.ErrorList {
	if len(keys) > max {
		return field.ErrorList{field.TooMany(p, len(keys), max)}
	}
	errs := draList(len(keys), max, p, item)
	seen := make(map[string]bool, len(keys))
	for i, k := range keys {
		if seen[k] {
			errs = append(errs, field.Duplicate(p.Index(i), k))
		}
		seen[k] = true
	}
	return errs
}

// deviceClaim is validateDeviceClaim: the requests (unique names), the
// constraints and the configurations, which may name only its requests.
func deviceClaim(d *resourcev1.DeviceClaim, p *field.Path, compile ExpressionCompiler) field.ErrorList {
	requests := map[string]map[string]bool{} // request → its subrequests (nil: none)
	names := make([]string, len(d.Requests))
	for i := range d.Requests {
		r := &d.Requests[i]
		names[i] = r.Name
		if len(r.FirstAvailable) == 0 {
			requests[r.Name] = nil
			continue
		}
		subs := map[string]bool{}
		for _, s := range r.FirstAvailable {
			subs[s.Name] = true
		}
		requests[r.Name] = subs
	}
	errs := draSet(names, draMaxRequests, p.Child("requests"), func(i int, p *field.Path) field.ErrorList {
		return deviceRequest(&d.Requests[i], p, compile)
	})
	errs = append(errs, draList(len(d.Constraints), draMaxConstraints, p.Child("constraints"), func(i int, p *field.Path) field.ErrorList {
		c := &d.Constraints[i]
		es := requestRefs(c.Requests, requests, p.Child("requests"))
		switch {
		case c.MatchAttribute != nil:
			es = append(es, fullyQualifiedName(string(*c.MatchAttribute), p.Child("matchAttribute"))...)
		case c.DistinctAttribute != nil:
			es = append(es, fullyQualifiedName(string(*c.DistinctAttribute), p.Child("distinctAttribute"))...)
		default:
			// Upstream's wording (DRAConsumableCapacity on), though neither is set.
			es = append(es, field.Required(p, `exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set`))
		}
		return es
	})...)
	errs = append(errs, draList(len(d.Config), draMaxConfigs, p.Child("config"), func(i int, p *field.Path) field.ErrorList {
		c := &d.Config[i]
		es := requestRefs(c.Requests, requests, p.Child("requests"))
		return append(es, deviceConfiguration(&c.DeviceConfiguration, p)...)
	})...)
	return errs
}

// requestRefs is the set of request names a constraint or configuration
// applies to: each "request" or "request/subrequest" of the claim, once.
func requestRefs(refs []string, requests map[string]map[string]bool, p *field.Path) field.ErrorList {
	const msg = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'"
	return draSet(refs, draMaxRequests, p, func(i int, p *field.Path) field.ErrorList {
		ref := refs[i]
		parts := strings.Split(ref, "/")
		if len(parts) > 2 {
			return field.ErrorList{field.Invalid(p, ref, msg)}
		}
		var es field.ErrorList
		for _, part := range parts {
			es = append(es, dns1123Label(part, lazy(p))...)
		}
		subs, ok := requests[parts[0]]
		if ok && len(parts) == 2 {
			ok = subs[parts[1]]
		}
		if !ok {
			es = append(es, field.Invalid(p, ref, msg))
		}
		return es
	})
}

// deviceRequest is validateDeviceRequest: a DNS-label name and exactly one of
// exactly and firstAvailable.
func deviceRequest(r *resourcev1.DeviceRequest, p *field.Path, compile ExpressionCompiler) field.ErrorList {
	errs := dns1123Label(r.Name, lazy(p.Child("name")))
	switch {
	case r.Exactly == nil && len(r.FirstAvailable) == 0:
		errs = append(errs, field.Required(p, "exactly one of `exactly` or `firstAvailable` is required"))
	case r.Exactly != nil && len(r.FirstAvailable) > 0:
		errs = append(errs, field.Invalid(p, nil, "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set"))
	case r.Exactly != nil:
		x := r.Exactly
		errs = append(errs, deviceRequestBody(x.DeviceClassName, x.Selectors, x.AllocationMode, x.Count, x.Tolerations, p.Child("exactly"), compile)...)
	default:
		names := make([]string, len(r.FirstAvailable))
		for i := range r.FirstAvailable {
			names[i] = r.FirstAvailable[i].Name
		}
		errs = append(errs, draSet(names, draMaxFirstAvailable, p.Child("firstAvailable"), func(i int, p *field.Path) field.ErrorList {
			s := &r.FirstAvailable[i]
			es := dns1123Label(s.Name, lazy(p.Child("name")))
			return append(es, deviceRequestBody(s.DeviceClassName, s.Selectors, s.AllocationMode, s.Count, s.Tolerations, p, compile)...)
		})...)
	}
	return errs
}

// deviceRequestBody is what an exact request and a subrequest share: the
// device class, the selectors, the allocation mode and count, the tolerations.
func deviceRequestBody(class string, selectors []resourcev1.DeviceSelector, mode resourcev1.DeviceAllocationMode, count int64, tolerations []resourcev1.DeviceToleration, p *field.Path, compile ExpressionCompiler) field.ErrorList {
	var errs field.ErrorList
	cp := p.Child("deviceClassName")
	if class == "" {
		errs = append(errs, field.Required(cp, ""))
	} else {
		errs = append(errs, dns1123Subdomain(class, lazy(cp))...)
	}
	errs = append(errs, deviceSelectors(selectors, p.Child("selectors"), compile)...)
	switch mode {
	case resourcev1.DeviceAllocationModeAll:
		if count != 0 {
			errs = append(errs, field.Invalid(p.Child("count"), count, fmt.Sprintf("must not be specified when allocationMode is '%s'", mode)))
		}
	case resourcev1.DeviceAllocationModeExactCount:
		if count <= 0 {
			errs = append(errs, field.Invalid(p.Child("count"), count, "must be greater than zero"))
		}
	default:
		errs = append(errs, field.NotSupported(p.Child("allocationMode"), mode,
			[]resourcev1.DeviceAllocationMode{resourcev1.DeviceAllocationModeAll, resourcev1.DeviceAllocationModeExactCount}))
	}
	for i := range tolerations {
		errs = append(errs, deviceToleration(&tolerations[i], p.Child("tolerations").Index(i))...)
	}
	return errs
}

// deviceSelectors is validateSelectorSlice: each selector needs cel, whose
// expression may be at most 10 KiB; one that is not too long is compiled
// (VAL-35) when compile is not nil.
func deviceSelectors(selectors []resourcev1.DeviceSelector, p *field.Path, compile ExpressionCompiler) field.ErrorList {
	return draList(len(selectors), draMaxSelectors, p, func(i int, p *field.Path) field.ErrorList {
		cel := selectors[i].CEL
		if cel == nil {
			return field.ErrorList{field.Required(p.Child("cel"), "")}
		}
		if len(cel.Expression) > draMaxCELLength {
			return field.ErrorList{field.TooLong(p.Child("cel", "expression"), "", draMaxCELLength)}
		}
		if compile != nil {
			return compile(cel.Expression, p.Child("cel", "expression"))
		}
		return nil
	})
}

// deviceToleration is validateDeviceToleration, on a defaulted toleration.
func deviceToleration(t *resourcev1.DeviceToleration, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if t.Key != "" {
		errs = append(errs, metav1validation.ValidateLabelName(t.Key, p.Child("key"))...)
	}
	switch t.Operator {
	case resourcev1.DeviceTolerationOpExists:
		if t.Value != "" {
			errs = append(errs, field.Invalid(p.Child("value"), t.Value, "must be empty for operator `Exists`"))
		}
	case resourcev1.DeviceTolerationOpEqual:
		for _, msg := range namecheck.IsValidLabelValue(t.Value) {
			errs = append(errs, field.Invalid(p.Child("value"), t.Value, msg))
		}
	case "":
		errs = append(errs, field.Required(p.Child("operator"), ""))
	default:
		errs = append(errs, field.NotSupported(p.Child("operator"), t.Operator,
			[]resourcev1.DeviceTolerationOperator{resourcev1.DeviceTolerationOpEqual, resourcev1.DeviceTolerationOpExists}))
	}
	switch t.Effect {
	case "", resourcev1.DeviceTaintEffectNoSchedule, resourcev1.DeviceTaintEffectNoExecute, resourcev1.DeviceTaintEffectNone:
	default:
		errs = append(errs, field.NotSupported(p.Child("effect"), t.Effect,
			[]resourcev1.DeviceTaintEffect{resourcev1.DeviceTaintEffectNoExecute, resourcev1.DeviceTaintEffectNoSchedule, resourcev1.DeviceTaintEffectNone}))
	}
	return errs
}

// deviceConfiguration is validateDeviceConfiguration: an opaque configuration
// with a driver name and parameters that are a JSON object of at most 10 KiB.
func deviceConfiguration(c *resourcev1.DeviceConfiguration, p *field.Path) field.ErrorList {
	op := p.Child("opaque")
	if c.Opaque == nil {
		return field.ErrorList{field.Required(op, "")}
	}
	errs := CSIDriverName(c.Opaque.Driver, op.Child("driver"))
	return append(errs, opaqueParameters(c.Opaque.Parameters, op.Child("parameters"))...)
}

// opaqueParameters is validateRawExtension on create.
func opaqueParameters(raw runtime.RawExtension, p *field.Path) field.ErrorList {
	if len(raw.Raw) == 0 {
		return field.ErrorList{field.Required(p, "")}
	}
	if len(raw.Raw) > draMaxOpaqueLength {
		return field.ErrorList{field.TooLong(p, "", draMaxOpaqueLength)}
	}
	var v any
	if err := json.Unmarshal(raw.Raw, &v); err != nil {
		return field.ErrorList{field.Invalid(p, "<value omitted>", "error parsing data as JSON: "+err.Error())}
	}
	if v == nil {
		return field.ErrorList{field.Required(p, "")}
	}
	if _, ok := v.(map[string]any); !ok {
		return field.ErrorList{field.Invalid(p, "<value omitted>", "must be a valid JSON object")}
	}
	return nil
}

// fullyQualifiedName is validateFullyQualifiedName: a qualified name that
// has a domain.
func fullyQualifiedName(name string, p *field.Path) field.ErrorList {
	errs := deviceQualifiedName(name, p)
	if !strings.Contains(name, "/") {
		errs = append(errs, field.Invalid(p, name, "a fully qualified name must be a domain and a name separated by a slash"))
	}
	return errs
}

// deviceQualifiedName is validateQualifiedName: a C identifier, or a driver-name
// domain, a slash and a C identifier. (Upstream checks nothing of a name
// with two slashes or more.)
func deviceQualifiedName(name string, p *field.Path) field.ErrorList {
	parts := strings.Split(name, "/")
	switch len(parts) {
	case 1:
		return cIdentifier(parts[0], p)
	case 2:
		var errs field.ErrorList
		if parts[0] == "" {
			errs = append(errs, field.Invalid(p, "", "the domain must not be empty"))
		} else {
			errs = append(errs, CSIDriverName(parts[0], p)...)
		}
		if parts[1] == "" {
			errs = append(errs, field.Invalid(p, "", "the name must not be empty"))
		} else {
			errs = append(errs, cIdentifier(parts[1], p)...)
		}
		return errs
	}
	return nil
}

func cIdentifier(id string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(id) > draMaxIDLength {
		errs = append(errs, field.TooLong(p, "", draMaxIDLength))
	}
	for _, msg := range content.IsCIdentifier(id) {
		errs = append(errs, field.Invalid(p, id, msg))
	}
	return errs
}
