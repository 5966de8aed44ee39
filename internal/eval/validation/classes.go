package validation

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Create validation of the cluster classes the admission plugins read:
// PriorityClass (VAL-72), StorageClass (VAL-73), RuntimeClass (VAL-74). All
// three are cluster-scoped, named as DNS subdomains through core's
// ValidateObjectMeta, and their strategies return the handwritten errors.

var clusterClassMeta = MetaRules{Name: NameDNSSubdomain, KubeFinalizers: true, ClusterScoped: true}

// The PriorityClasses kube-apiserver creates itself: the only names the
// "system-" prefix allows, each with its value (and globalDefault false).
var systemPriorityValues = map[string]int32{"system-cluster-critical": 2000000000, "system-node-critical": 2000001000}

// highestUserPriority is the largest value a PriorityClass not named
// "system-…" may have.
const highestUserPriority = 1000000000

// PriorityClass is the PriorityClass strategy's Validate on a defaulted class
// (preemptionPolicy PreemptLowerPriority when absent): metadata (generation is
// set by PrepareForCreate), then the reserved "system-" prefix or the highest
// user-definable value, then the preemption policy.
func PriorityClass(pc *schedulingv1.PriorityClass) field.ErrorList {
	rules := clusterClassMeta
	rules.SetsGeneration = true
	errs := ObjectMeta(&pc.ObjectMeta, rules, field.NewPath("metadata"))
	if strings.HasPrefix(pc.Name, "system-") {
		var why string
		if want, ok := systemPriorityValues[pc.Name]; !ok {
			why = pc.Name + " is not a known system priority class"
		} else if pc.Value != want {
			why = "value of " + pc.Name + " PriorityClass must be " + strconv.FormatInt(int64(want), 10)
		} else if pc.GlobalDefault {
			why = "globalDefault of " + pc.Name + " PriorityClass must be false"
		}
		if why != "" {
			errs = append(errs, field.Forbidden(field.NewPath("metadata", "name"),
				"priority class names with 'system-' prefix are reserved for system use only. error: "+why))
		}
	} else if pc.Value > highestUserPriority {
		errs = append(errs, field.Forbidden(field.NewPath("value"), "maximum allowed value of a user defined priority is "+strconv.Itoa(highestUserPriority)))
	}
	if pp := pc.PreemptionPolicy; pp != nil {
		switch *pp {
		case corev1.PreemptLowerPriority, corev1.PreemptNever:
		case "":
			errs = append(errs, field.Required(field.NewPath("preemptionPolicy"), ""))
		default:
			errs = append(errs, field.NotSupported(field.NewPath("preemptionPolicy"), *pp,
				[]corev1.PreemptionPolicy{corev1.PreemptLowerPriority, corev1.PreemptNever}))
		}
	}
	return errs
}

// StorageClass parameter limits (upstream's maxProvisionerParameterLen and
// maxProvisionerParameterSize).
const (
	maxStorageClassParameters    = 512
	maxStorageClassParameterSize = 256 << 10
)

// StorageClass is the StorageClass strategy's Validate on a defaulted class
// (reclaimPolicy Delete and volumeBindingMode Immediate when absent):
// metadata, the provisioner (required; lowercased, a qualified name), the
// parameters (at most 512, no empty key, 256 KiB in all), the reclaim policy
// (Delete or Retain; an empty one passes), the binding mode, the allowed
// topologies.
func StorageClass(sc *storagev1.StorageClass) field.ErrorList {
	errs := ObjectMeta(&sc.ObjectMeta, clusterClassMeta, field.NewPath("metadata"))
	errs = append(errs, provisioner(sc.Provisioner, field.NewPath("provisioner"))...)
	errs = append(errs, storageParameters(sc.Parameters, true, field.NewPath("parameters"))...)
	if rp := sc.ReclaimPolicy; rp != nil && *rp != "" && *rp != corev1.PersistentVolumeReclaimDelete && *rp != corev1.PersistentVolumeReclaimRetain {
		errs = append(errs, field.NotSupported(field.NewPath("reclaimPolicy"), *rp,
			[]string{string(corev1.PersistentVolumeReclaimDelete), string(corev1.PersistentVolumeReclaimRetain)}))
	}
	mp := field.NewPath("volumeBindingMode")
	if m := sc.VolumeBindingMode; m == nil {
		errs = append(errs, field.Required(mp, ""))
	} else if *m != storagev1.VolumeBindingImmediate && *m != storagev1.VolumeBindingWaitForFirstConsumer {
		errs = append(errs, field.NotSupported(mp, *m,
			[]string{string(storagev1.VolumeBindingImmediate), string(storagev1.VolumeBindingWaitForFirstConsumer)}))
	}
	return append(errs, storageClassTopologies(sc.AllowedTopologies, field.NewPath("allowedTopologies"))...)
}

// storageClassTopologies is validateAllowedTopologies: every term's label
// requirements (values required and distinct, a label-name key, no key twice),
// then a term equal to an earlier one is a duplicate. Upstream's list of
// earlier terms starts with one empty entry per term, so a term without
// expressions is a duplicate of each of them.
func storageClassTopologies(terms []corev1.TopologySelectorTerm, p *field.Path) field.ErrorList {
	if len(terms) == 0 {
		return nil
	}
	var errs field.ErrorList
	seen := make([]map[string]sets.Set[string], len(terms))
	for i, term := range terms {
		ep := p.Index(i).Child("matchLabelExpressions")
		m := map[string]sets.Set[string]{}
		for j, req := range term.MatchLabelExpressions {
			jp := ep.Index(j)
			vp := jp.Child("values")
			if len(req.Values) == 0 {
				errs = append(errs, field.Required(vp, ""))
			}
			vals := sets.New[string]()
			for k, v := range req.Values {
				if vals.Has(v) {
					errs = append(errs, field.Duplicate(vp.Index(k), v))
				}
				vals.Insert(v)
			}
			errs = append(errs, metav1validation.ValidateLabelName(req.Key, jp.Child("key"))...)
			if _, ok := m[req.Key]; ok {
				errs = append(errs, field.Duplicate(jp.Child("key"), req.Key))
			}
			m[req.Key] = vals
		}
		for _, t := range seen {
			if sameTopology(m, t) {
				errs = append(errs, field.Duplicate(ep, ""))
			}
		}
		seen = append(seen, m)
	}
	return errs
}

// sameTopology is semantic equality of two terms' key → values maps (an
// empty map equals a nil one).
func sameTopology(a, b map[string]sets.Set[string]) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}

// storageParameters is validateParameters, a StorageClass's or (allowEmpty
// false) a VolumeAttributesClass's parameters: at most 512 (nothing else
// checked past that), no empty key, 256 KiB of keys and values in all, and,
// unless allowEmpty, at least one.
func storageParameters(params map[string]string, allowEmpty bool, p *field.Path) field.ErrorList {
	if len(params) > maxStorageClassParameters {
		return field.ErrorList{field.TooLong(p, "", maxStorageClassParameters)}
	}
	var errs field.ErrorList
	size := 0
	for _, k := range sortedKeys(params, nil) {
		if k == "" {
			errs = append(errs, field.Invalid(p, k, "field can not be empty."))
		}
		size += len(k) + len(params[k])
	}
	if size > maxStorageClassParameterSize {
		errs = append(errs, field.TooLong(p, "", maxStorageClassParameterSize))
	}
	if !allowEmpty && len(params) == 0 {
		errs = append(errs, field.Required(p, "must contain at least one key/value pair"))
	}
	return errs
}

// internalToleration is core's internal Toleration: its JSON keys are the
// Go field names.
type internalToleration struct {
	Key               string
	Operator          corev1.TolerationOperator
	Value             string
	Effect            corev1.TaintEffect
	TolerationSeconds *int64
}

// RuntimeClass is the RuntimeClass strategy's Validate: metadata, the handler
// (required, a DNS label), the overhead (as a container's limits), then the
// scheduling node selector's labels and tolerations (each valid, none
// repeated on key, operator, value and effect).
func RuntimeClass(rc *nodev1.RuntimeClass) field.ErrorList {
	errs := ObjectMeta(&rc.ObjectMeta, clusterClassMeta, field.NewPath("metadata"))
	hp := field.NewPath("handler")
	if rc.Handler == "" {
		errs = append(errs, field.Required(hp, ""))
	} else {
		for _, msg := range namecheck.NameIsDNSLabel(rc.Handler, false) {
			errs = append(errs, field.Invalid(hp, rc.Handler, msg))
		}
	}
	if rc.Overhead != nil {
		// upstream reuses a container's check on limits alone, so the paths
		// read overhead.limits[...]
		r := corev1.ResourceRequirements{Limits: rc.Overhead.PodFixed}
		errs = append(errs, validateResourceRequirements(&r, containerResources, nil, lazy(field.NewPath("overhead")))...)
	}
	if s := rc.Scheduling; s != nil {
		sp := field.NewPath("scheduling")
		if s.NodeSelector != nil {
			errs = append(errs, Labels(s.NodeSelector, sp.Child("nodeSelector"))...)
		}
		tp := sp.Child("tolerations")
		errs = append(errs, validateTolerations(s.Tolerations, tp)...)
		type key struct {
			k, op, v, eff string
		}
		seen := sets.New[key]()
		for i, t := range s.Tolerations {
			k := key{t.Key, string(t.Operator), t.Value, string(t.Effect)}
			if seen.Has(k) {
				// The internal type, without json tags, is the value shown.
				errs = append(errs, field.Duplicate(tp.Index(i), internalToleration{t.Key, t.Operator, t.Value, t.Effect, t.TolerationSeconds}))
			}
			seen.Insert(k)
		}
	}
	return errs
}
