package eval

import (
	"fmt"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/eval/defaults"
	"github.com/limitcheck/limitcheck/internal/eval/status"
)

// unitWarnings are limitcheck's own warnings (VAL-104) for a container's cpu
// or memory request or limit, in a Pod or a workload's template, whose unit
// is almost surely a mistake kube-apiserver takes without a word: a cpu
// written with a byte unit ("500Mi" for 500m is 524288000 CPUs, which no
// node can run) or without a unit where millicores were meant (cpu: 500),
// and memory without a unit where Mi was meant (memory: 512 is 512 bytes).
func unitWarnings(obj runtime.Object) []string {
	var spec *corev1.PodSpec
	specPath := func() *field.Path { return field.NewPath("spec") }
	switch o := obj.(type) {
	case *corev1.Pod:
		spec = &o.Spec
	default:
		t, path := defaults.PodTemplateOf(obj)
		if t == nil {
			return nil
		}
		spec, specPath = &t.Spec, func() *field.Path { return field.NewPath(path).Child("spec") }
	}
	var w []string
	for _, list := range []struct {
		name string
		cs   []corev1.Container
	}{{"initContainers", spec.InitContainers}, {"containers", spec.Containers}} {
		for i := range list.cs {
			c := &list.cs[i]
			for _, rl := range []struct {
				name string
				l    corev1.ResourceList
			}{{"requests", c.Resources.Requests}, {"limits", c.Resources.Limits}} {
				at := func(r corev1.ResourceName) *field.Path {
					return specPath().Child(list.name).Index(i).Child("resources", rl.name).Key(string(r))
				}
				if q, ok := rl.l[corev1.ResourceCPU]; ok {
					if msg := cpuUnitMistake(q, containerMemory(c)); msg != "" {
						w = append(w, fmt.Sprintf("%s: %s", at(corev1.ResourceCPU), msg))
					}
				}
				if q, ok := rl.l[corev1.ResourceMemory]; ok {
					if msg := memoryUnitMistake(q); msg != "" {
						w = append(w, fmt.Sprintf("%s: %s", at(corev1.ResourceMemory), msg))
					}
				}
			}
		}
	}
	return w
}

// cpusWithoutUnit is the number of whole CPUs from which a cpu quantity
// without a unit reads as millicores written without their m, when the
// container's memory does not say it is that large (memoryPerCPU).
const cpusWithoutUnit = 64

// memoryPerCPU is less memory per CPU than any container of that many CPUs
// has: cpu: 96 with memory: 64Gi is a large container, with 256Mi a
// mistake.
var memoryPerCPU = resource.MustParse("256Mi")

// containerMemory is a container's memory limit, else its request; nil
// when it sets neither.
func containerMemory(c *corev1.Container) *resource.Quantity {
	for _, l := range []corev1.ResourceList{c.Resources.Limits, c.Resources.Requests} {
		if q, ok := l[corev1.ResourceMemory]; ok {
			return &q
		}
	}
	return nil
}

// cpuUnitMistake: a cpu quantity in a byte unit, or more than
// cpusWithoutUnit CPUs written as a bare integer in a container whose
// memory (nil: none given) is under memoryPerCPU for each.
func cpuUnitMistake(q resource.Quantity, memory *resource.Quantity) string {
	switch {
	case q.Sign() <= 0:
		return ""
	case q.Format == resource.BinarySI:
		return fmt.Sprintf("%s is %s CPUs: Ki, Mi and Gi are units of bytes; millicores take m (250m is a quarter of a CPU)", q.String(), q.AsDec().String())
	case q.Format == resource.DecimalSI && q.MilliValue()%1000 == 0 && q.Value() > cpusWithoutUnit && allDigits(q.String()):
		if memory != nil && memory.Value()/q.Value() >= memoryPerCPU.Value() {
			return ""
		}
		return fmt.Sprintf("%s is %s CPUs: a cpu quantity without a unit counts whole CPUs; did you mean %sm?", q.String(), q.String(), q.String())
	}
	return ""
}

var oneMi = resource.MustParse("1Mi")

// maxMiSuggestion is the largest n for which memory: n suggests nMi.
const maxMiSuggestion = 65536

// memoryUnitMistake: a memory quantity under a mebibyte, far less than any
// container needs: a unit left out (memory: 512).
func memoryUnitMistake(q resource.Quantity) string {
	if q.Sign() <= 0 || q.Cmp(oneMi) >= 0 {
		return ""
	}
	msg := fmt.Sprintf("%s is %s bytes: far less memory than a container needs", q.String(), q.AsDec().String())
	if allDigits(q.String()) && q.Value() <= maxMiSuggestion {
		msg += fmt.Sprintf("; a memory quantity without a unit counts bytes; did you mean %sMi?", q.String())
	}
	return msg
}

// allDigits: s is a non-empty string of decimal digits.
func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// unsimulatedAdmission warns of a cluster-scoped object of the input that
// sets up admission limitcheck does not run (PL-12): an admission policy,
// Kyverno's and Gatekeeper's policies. Without the warning, what it would
// refuse is reported admitted in silence, and what it would change is not
// part of the check.
func unsimulatedAdmission(gvk schema.GroupVersionKind) []string {
	switch gvk.Group + "/" + gvk.Kind {
	case "admissionregistration.k8s.io/ValidatingAdmissionPolicy":
		return []string{"not evaluated: limitcheck does not run admission policies, so what this policy refuses is reported admitted"}
	case "admissionregistration.k8s.io/MutatingAdmissionPolicy":
		return []string{"not applied: limitcheck does not run admission policies, so what this policy changes (resources, labels, …) is not part of the check"}
	case "admissionregistration.k8s.io/ValidatingWebhookConfiguration":
		return []string{"not called: limitcheck does not call admission webhooks, so what these webhooks refuse is reported admitted, and so is what they match while their service does not answer, which failurePolicy Fail (the default) refuses: failed calling webhook …"}
	case "admissionregistration.k8s.io/MutatingWebhookConfiguration":
		return []string{"not called: limitcheck does not call admission webhooks, so what these webhooks change (resources, sidecars, …) is not part of the check, and what they match while their service does not answer, which failurePolicy Fail (the default) refuses, is reported admitted: failed calling webhook …"}
	case "kyverno.io/ClusterPolicy":
		return []string{"not evaluated: limitcheck does not run Kyverno, so what this policy refuses is reported admitted and what it mutates is not part of the check"}
	case "templates.gatekeeper.sh/ConstraintTemplate":
		return []string{"not evaluated: limitcheck does not run Gatekeeper, so what this template's constraints refuse is reported admitted"}
	}
	return nil
}

// namespaceObjectsCounted explains a quota refusal whose object count
// includes what every namespace holds (NS-01): `used: configmaps=2` after
// the input's first ConfigMap counts kube-root-ca.crt.
func namespaceObjectsCounted(ns, kind string, d *status.Denial) []string {
	switch kind {
	case "ConfigMap", "ServiceAccount", "Service", "Endpoints", "EndpointSlice", "Role", "RoleBinding":
	default:
		return nil // no namespace holds one of its own (a quota refusing Pods is the common case)
	}
	// The resources the object exceeds (none for "must specify", which is
	// Pods' only).
	counted := slices.ContainsFunc(d.Resources, func(name string) bool {
		return strings.HasPrefix(name, "count/") || name == strings.ToLower(kind)+"s"
	})
	if !counted {
		return nil
	}
	var names []string
	for _, obj := range namespaceObjects(ns) {
		if obj.GetObjectKind().GroupVersionKind().Kind == kind {
			names = append(names, obj.(metav1.Object).GetName())
		}
	}
	switch len(names) {
	case 0:
		return nil
	case 1:
		return []string{fmt.Sprintf("used counts the %s %s, which every namespace holds (--namespace-objects=false leaves it out)", kind, names[0])}
	}
	return []string{fmt.Sprintf("used counts the %ss %s and %s, which namespace %s holds in every cluster (--namespace-objects=false leaves them out)",
		kind, strings.Join(names[:len(names)-1], ", "), names[len(names)-1], ns)}
}

// droppedFieldWarnings are limitcheck's own warnings for a field of the
// input that kube-apiserver 1.36 drops without a word on create because its
// feature gate is off by default: a StatefulSet's maxUnavailable
// (MaxUnavailableStatefulSet, beta and off), which the author expects to
// speed up rollouts.
func droppedFieldWarnings(obj runtime.Object) []string {
	if sts, ok := obj.(*appsv1.StatefulSet); ok {
		if r := sts.Spec.UpdateStrategy.RollingUpdate; r != nil && r.MaxUnavailable != nil {
			return []string{"spec.updateStrategy.rollingUpdate.maxUnavailable is dropped: kube-apiserver 1.36 keeps it only with the MaxUnavailableStatefulSet feature gate (beta, off by default), so the StatefulSet updates one Pod at a time"}
		}
	}
	return nil
}

// jobDeadlineScopeHint explains a Job's Pod refused by a NotTerminating
// quota when the Job sets spec.activeDeadlineSeconds: only the Pod's own
// (the template's) makes a Pod Terminating for quota scopes (RQ-17).
func (e *Engine) jobDeadlineScopeHint(obj runtime.Object, w *Workload) []string {
	var spec *batchv1.JobSpec
	path := "spec"
	switch o := obj.(type) {
	case *batchv1.Job:
		spec = &o.Spec
	case *batchv1.CronJob:
		spec, path = &o.Spec.JobTemplate.Spec, "spec.jobTemplate.spec"
	default:
		return nil
	}
	if spec.ActiveDeadlineSeconds == nil || spec.Template.Spec.ActiveDeadlineSeconds != nil {
		return nil
	}
	for i := range w.Created {
		c := &w.Created[i]
		if c.Kind != "Pod" || c.Denial == nil || c.Denial.Stage != status.StageQuota {
			continue
		}
		name := c.Denial.Quota
		ns := e.namespaces[c.Namespace]
		if ns == nil {
			continue
		}
		for _, q := range ns.Quotas {
			notTerminating := slices.Contains(q.Spec.Scopes, corev1.ResourceQuotaScopeNotTerminating)
			if sel := q.Spec.ScopeSelector; sel != nil {
				notTerminating = notTerminating || slices.ContainsFunc(sel.MatchExpressions, func(r corev1.ScopedResourceSelectorRequirement) bool {
					return r.ScopeName == corev1.ResourceQuotaScopeNotTerminating
				})
			}
			if q.Name == name && notTerminating {
				return []string{fmt.Sprintf("%s.activeDeadlineSeconds bounds the Job, not its Pods: quota %s (NotTerminating) counts them; %s.template.spec.activeDeadlineSeconds makes them Terminating", path, name, path)}
			}
		}
	}
	return nil
}

// ownerWarning is the warning on an object of the input with owner
// references (ST-04): an owner is identified by its uid, which the cluster
// gives, so an object saved from one cluster names owners no other has, and
// the garbage collector deletes it moments after it is created.
func ownerWarning(refs []metav1.OwnerReference) string {
	r := refs[0]
	more := ""
	if len(refs) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(refs)-1)
	}
	return fmt.Sprintf("metadata.ownerReferences names %s %s (uid %s)%s: created, but the garbage collector deletes it within seconds unless an owner of that very uid exists (uids are the cluster's; saved with kubectl get -o yaml?): remove ownerReferences",
		r.Kind, r.Name, r.UID, more)
}
