package conformance

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/limitcheck/limitcheck/internal/eval/classes"
	"github.com/limitcheck/limitcheck/internal/eval/limitranger"
	"github.com/limitcheck/limitcheck/internal/eval/quota"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/limitcheck/limitcheck/internal/eval"
)

// Mine runs one document through limitcheck's engine.
func Mine(e *eval.Engine, doc []byte) (eval.Result, error) {
	var tm metav1.TypeMeta
	if err := json.Unmarshal(doc, &tm); err != nil {
		return eval.Result{}, err
	}
	obj := eval.NewObject(tm.APIVersion, tm.Kind)
	if obj == nil {
		obj = &metav1.PartialObjectMetadata{}
	}
	if err := json.Unmarshal(doc, obj); err != nil {
		return eval.Result{}, err
	}
	return e.Admit(obj), nil
}

// AddClass adds a PriorityClass, StorageClass or RuntimeClass document to the
// engine's cluster, as check.go does before admitting anything.
func AddClass(e *eval.Engine, doc []byte) error {
	var tm metav1.TypeMeta
	if err := json.Unmarshal(doc, &tm); err != nil {
		return err
	}
	obj := eval.NewObject(tm.APIVersion, tm.Kind)
	if obj == nil || !classes.IsClusterClass(tm.APIVersion, tm.Kind) {
		return fmt.Errorf("not a class: %s/%s", tm.APIVersion, tm.Kind)
	}
	if err := json.Unmarshal(doc, obj); err != nil {
		return err
	}
	if !e.AddClusterObject(obj) {
		return fmt.Errorf("engine refused class %s", tm.Kind)
	}
	return nil
}

// Diff compares upstream's outcome with limitcheck's result and returns the
// differences (empty when they agree): the object's own verdict, then, for a
// workload, what its controllers created (DiffWorkload).
func Diff(up Outcome, mine eval.Result) []string {
	d := diffOne(up, mine)
	return append(d, DiffWorkload(up, mine)...)
}

// diffOne compares the verdict of one object, status, message and mutations.
// A workload's Result.Allowed also covers what its controllers created, so
// its own verdict is its Denial.
func diffOne(up Outcome, mine eval.Result) []string {
	var d []string
	own := mine.Allowed
	if mine.Workload != nil {
		own = mine.Denial == nil && !mine.Skipped
	}
	if up.Allowed != own {
		d = append(d, fmt.Sprintf("allowed: upstream %v, limitcheck %v", up.Allowed, own))
	}
	if !up.Allowed && mine.Denial != nil {
		m := mine.Denial
		if up.Code != m.Code || up.Reason != m.Reason || up.Stage != string(m.Stage) {
			d = append(d, fmt.Sprintf("status: upstream %d %q %s, limitcheck %d %q %s", up.Code, up.Reason, up.Stage, m.Code, m.Reason, m.Stage))
		}
		// The address a cluster picks shows in the refusal of a Service
		// without a name (VAL-64); both sides' are placeholders.
		upMessage := pickedClusterIP.ReplaceAllString(up.Message, "${1}N")
		if !samePermutation(upMessage, pickedClusterIP.ReplaceAllString(m.Message, "${1}N"), m.Parts) {
			d = append(d, fmt.Sprintf("message:\n  upstream:   %s\n  limitcheck: %s", up.Message, m.Message))
		}
	}
	if up.Allowed != own && mine.Denial != nil {
		d = append(d, "limitcheck message: "+mine.Denial.Message)
	}
	if !up.Allowed && own {
		d = append(d, "upstream message: "+up.Message)
	}
	d = append(d, diffObjects(up.Object, mine.Object)...)
	if warned[up.Kind] && !sameWarnings(up.Kind, up.Warnings, mine.APIWarnings) {
		d = append(d, fmt.Sprintf("warnings:\n  upstream:   %q\n  limitcheck: %q", up.Warnings, mine.APIWarnings))
	}
	return d
}

// warned are the kinds whose create warnings limitcheck gives (VAL-104).
var warned = map[string]bool{"Pod": true, "PersistentVolumeClaim": true, "Service": true, "Ingress": true, "NetworkPolicy": true, "Deployment": true, "ReplicaSet": true,
	"ReplicationController": true, "DaemonSet": true, "StatefulSet": true, "Job": true, "CronJob": true, "PodTemplate": true,
	"Endpoints": true, "EndpointSlice": true, "Secret": true, "ServiceAccount": true, "RuntimeClass": true,
	"CustomResourceDefinition": true}

// sameWarnings: the same warnings in the same order; a CRD's unrecognized
// formats in any order, as upstream visits a schema's properties in Go map
// order (VAL-104).
func sameWarnings(kind string, want, got []string) bool {
	if kind != "CustomResourceDefinition" {
		return slices.Equal(want, got)
	}
	return slices.Equal(slices.Sorted(slices.Values(want)), slices.Sorted(slices.Values(got)))
}

// DiffWorkload compares what the controllers created: the counts, then every
// created object in creation order (kind, name, Pod ordinal and diffOne).
func DiffWorkload(up Outcome, mine eval.Result) []string {
	u, m := up.Workload, mine.Workload
	if u == nil && m == nil {
		return nil
	}
	if u == nil || m == nil {
		return []string{fmt.Sprintf("workload simulated: upstream %v, limitcheck %v", u != nil, m != nil)}
	}
	var d []string
	created, folded := unfold(m.Created)
	if u.Replicas != m.Replicas || u.Adopted != m.Adopted || u.Admitted != m.Admitted || u.NotCreated != m.NotCreated || len(u.Created) != len(created) {
		d = append(d, fmt.Sprintf("workload: upstream replicas=%d adopted=%d admitted=%d notCreated=%d created=%d, limitcheck replicas=%d adopted=%d admitted=%d notCreated=%d created=%d",
			u.Replicas, u.Adopted, u.Admitted, u.NotCreated, len(u.Created), m.Replicas, m.Adopted, m.Admitted, m.NotCreated, len(created)))
	}
	all := mine.Denial == nil
	for _, c := range m.Created {
		all = all && c.Allowed
	}
	if mine.Allowed != all {
		d = append(d, fmt.Sprintf("limitcheck workload allowed=%v, but its own verdict and the created objects' make %v", mine.Allowed, all))
	}
	for i := range min(len(u.Created), len(created)) {
		a, b := u.Created[i], created[i]
		if folded[i] {
			// A replica folded into the one it repeats (WL-03): the same
			// kind and verdict, under another name.
			if a.Kind != b.Kind || a.Allowed != b.Allowed {
				d = append(d, fmt.Sprintf("created[%d]: upstream %s %q allowed=%v, limitcheck (folded) %s allowed=%v", i, a.Kind, a.Name, a.Allowed, b.Kind, b.Allowed))
			}
			continue
		}
		if a.Kind != b.Kind || a.Name != b.Name || a.Replica != b.Replica {
			d = append(d, fmt.Sprintf("created[%d]: upstream %s %q replica %d, limitcheck %s %q replica %d", i, a.Kind, a.Name, a.Replica, b.Kind, b.Name, b.Replica))
			continue
		}
		for _, x := range diffOne(a, b) {
			d = append(d, fmt.Sprintf("created[%d] %s %q: %s", i, a.Kind, a.Name, x))
		}
	}
	return d
}

// unfold expands a created list whose long runs of identical replicas are
// folded (Result.Repeat, WL-03) into one entry per created object, marking
// the entries that stand for folded replicas. The objects of one replica
// are consecutive and carry the same Repeat.
func unfold(created []eval.Result) ([]eval.Result, []bool) {
	var out []eval.Result
	var folded []bool
	for i := 0; i < len(created); {
		k := created[i].Repeat
		j := i + 1
		for k > 0 && j < len(created) && created[j].Repeat == k {
			j++
		}
		step := created[i:j]
		out = append(out, step...)
		folded = append(folded, make([]bool, len(step))...)
		for range k {
			out = append(out, step...)
			for range step {
				folded = append(folded, true)
			}
		}
		i = j
	}
	return out, folded
}

// samePermutation: identical, or the same prefix and the same distinct parts in
// another order inside the brackets (upstream orders some parts by map iteration).
var pickedClusterIP = regexp.MustCompile(`(failed to allocate IP: IPAddress\.networking\.k8s\.io )"[^"]*"`)

func samePermutation(up, mine string, parts []string) bool {
	if up == mine {
		return true
	}
	if len(up) != len(mine) || len(parts) < 2 || !strings.HasSuffix(mine, "]") {
		return false
	}
	for k := strings.Index(mine, "["); k >= 0; {
		prefix := mine[:k]
		if strings.HasPrefix(up, prefix+"[") && strings.HasSuffix(up, "]") && splitsInto(up[k+1:len(up)-1], parts, make([]bool, len(parts))) {
			return true
		}
		next := strings.Index(mine[k+1:], "[")
		if next < 0 {
			break
		}
		k += next + 1
	}
	return false
}

func splitsInto(s string, parts []string, used []bool) bool {
	all := true
	for _, u := range used {
		all = all && u
	}
	if all {
		return s == ""
	}
	for i, p := range parts {
		if used[i] || !strings.HasPrefix(s, p) {
			continue
		}
		rest := s[len(p):]
		if rest != "" {
			if !strings.HasPrefix(rest, ", ") {
				continue
			}
			rest = rest[2:]
		}
		used[i] = true
		if splitsInto(rest, parts, used) {
			return true
		}
		used[i] = false
	}
	return false
}

func diffObjects(up, mine runtime.Object) []string {
	switch u := up.(type) {
	case *corev1.Pod:
		m, ok := mine.(*corev1.Pod)
		if !ok {
			return []string{"limitcheck returned no Pod"}
		}
		return diffPods(u, m)
	case *corev1.PersistentVolumeClaim:
		m, ok := mine.(*corev1.PersistentVolumeClaim)
		if !ok {
			return []string{"limitcheck returned no PersistentVolumeClaim"}
		}
		if a, b := strPtr(u.Spec.StorageClassName), strPtr(m.Spec.StorageClassName); a != b {
			return []string{fmt.Sprintf("storageClassName: upstream %s, limitcheck %s", a, b)}
		}
		return nil
	case *corev1.LimitRange:
		m, ok := mine.(*corev1.LimitRange)
		if !ok {
			return []string{"limitcheck returned no LimitRange"}
		}
		var d []string
		if len(u.Spec.Limits) != len(m.Spec.Limits) {
			return []string{"limit item count differs"}
		}
		for i := range u.Spec.Limits {
			a, b := &u.Spec.Limits[i], &m.Spec.Limits[i]
			for _, f := range []struct {
				name string
				a, b corev1.ResourceList
			}{{"max", a.Max, b.Max}, {"min", a.Min, b.Min}, {"default", a.Default, b.Default}, {"defaultRequest", a.DefaultRequest, b.DefaultRequest}, {"maxLimitRequestRatio", a.MaxLimitRequestRatio, b.MaxLimitRequestRatio}} {
				if x, y := listString(f.a), listString(f.b); x != y {
					d = append(d, fmt.Sprintf("limits[%d].%s: upstream %s, limitcheck %s", i, f.name, x, y))
				}
			}
		}
		return d
	}
	return nil
}

func diffPods(u, m *corev1.Pod) []string {
	var d []string
	cmp := func(what string, a, b corev1.ResourceList) {
		if x, y := listString(a), listString(b); x != y {
			d = append(d, fmt.Sprintf("%s: upstream %s, limitcheck %s", what, x, y))
		}
	}
	if len(u.Spec.Containers) != len(m.Spec.Containers) || len(u.Spec.InitContainers) != len(m.Spec.InitContainers) {
		return []string{"container count differs"}
	}
	for i := range u.Spec.Containers {
		cmp(fmt.Sprintf("containers[%d].requests", i), u.Spec.Containers[i].Resources.Requests, m.Spec.Containers[i].Resources.Requests)
		cmp(fmt.Sprintf("containers[%d].limits", i), u.Spec.Containers[i].Resources.Limits, m.Spec.Containers[i].Resources.Limits)
	}
	for i := range u.Spec.InitContainers {
		cmp(fmt.Sprintf("initContainers[%d].requests", i), u.Spec.InitContainers[i].Resources.Requests, m.Spec.InitContainers[i].Resources.Requests)
		cmp(fmt.Sprintf("initContainers[%d].limits", i), u.Spec.InitContainers[i].Resources.Limits, m.Spec.InitContainers[i].Resources.Limits)
	}
	if (u.Spec.Resources == nil) != (m.Spec.Resources == nil) {
		d = append(d, fmt.Sprintf("spec.resources: upstream set=%v, limitcheck set=%v", u.Spec.Resources != nil, m.Spec.Resources != nil))
	} else if u.Spec.Resources != nil {
		cmp("spec.resources.requests", u.Spec.Resources.Requests, m.Spec.Resources.Requests)
		cmp("spec.resources.limits", u.Spec.Resources.Limits, m.Spec.Resources.Limits)
	}
	if a, b := u.Annotations[limitranger.Annotation], m.Annotations[limitranger.Annotation]; a != b {
		d = append(d, fmt.Sprintf("annotation: upstream %q, limitcheck %q", a, b))
	}
	if u.Name != m.Name {
		d = append(d, fmt.Sprintf("name: upstream %q, limitcheck %q", u.Name, m.Name))
	}
	// A StatefulSet's revision (WL-07). (A DaemonSet's Pods carry a hash of
	// their template under the same key, which limitcheck leaves out: it is
	// never too long, and nothing else reads it.)
	if _, stateful := u.Labels[appsv1.StatefulSetPodNameLabel]; stateful {
		if a, b := u.Labels[appsv1.StatefulSetRevisionLabel], m.Labels[appsv1.StatefulSetRevisionLabel]; a != b {
			d = append(d, fmt.Sprintf("label %s: upstream %q, limitcheck %q", appsv1.StatefulSetRevisionLabel, a, b))
		}
	}
	// The Priority and RuntimeClass plugins' mutations (RQ-34).
	if u.Spec.PriorityClassName != m.Spec.PriorityClassName {
		d = append(d, fmt.Sprintf("priorityClassName: upstream %q, limitcheck %q", u.Spec.PriorityClassName, m.Spec.PriorityClassName))
	}
	if a, b := fmt.Sprint(derefOr(u.Spec.Priority)), fmt.Sprint(derefOr(m.Spec.Priority)); a != b {
		d = append(d, fmt.Sprintf("priority: upstream %s, limitcheck %s", a, b))
	}
	if a, b := fmt.Sprint(derefOr(u.Spec.PreemptionPolicy)), fmt.Sprint(derefOr(m.Spec.PreemptionPolicy)); a != b {
		d = append(d, fmt.Sprintf("preemptionPolicy: upstream %s, limitcheck %s", a, b))
	}
	if (u.Spec.Overhead == nil) != (m.Spec.Overhead == nil) {
		d = append(d, fmt.Sprintf("overhead: upstream set=%v, limitcheck set=%v", u.Spec.Overhead != nil, m.Spec.Overhead != nil))
	}
	cmp("overhead", u.Spec.Overhead, m.Spec.Overhead)
	if a, b := fmt.Sprint(u.Spec.NodeSelector), fmt.Sprint(m.Spec.NodeSelector); a != b {
		d = append(d, fmt.Sprintf("nodeSelector: upstream %s, limitcheck %s", a, b))
	}
	return d
}

func strPtr(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%q", *s)
}

// derefOr renders a pointer's value, "<nil>" for nil.
func derefOr[T any](p *T) any {
	if p == nil {
		return "<nil>"
	}
	return *p
}

// listString renders a ResourceList canonically: sorted keys, Quantity.String().
func listString(l corev1.ResourceList) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, string(k))
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		q := l[corev1.ResourceName(k)]
		b.WriteString(k + "=" + q.String())
	}
	b.WriteByte('}')
	return b.String()
}

// DiffQuotas compares the final state of every quota.
func DiffQuotas(up []corev1.ResourceQuota, mine []quota.State) []string {
	if len(up) != len(mine) {
		return []string{fmt.Sprintf("quota count: upstream %d, limitcheck %d", len(up), len(mine))}
	}
	// Upstream's list is per namespace in name order; put ours the same way.
	mine = append([]quota.State(nil), mine...)
	sort.SliceStable(mine, func(i, j int) bool { return mine[i].Quota.Namespace < mine[j].Quota.Namespace })
	var d []string
	for i := range up {
		u, m := &up[i], mine[i].Quota
		if u.Namespace != m.Namespace || u.Name != m.Name {
			d = append(d, fmt.Sprintf("quota %d: upstream %s/%s, limitcheck %s/%s", i, u.Namespace, u.Name, m.Namespace, m.Name))
			continue
		}
		if a, b := listString(u.Status.Hard), listString(m.Status.Hard); a != b {
			d = append(d, fmt.Sprintf("quota %s/%s hard: upstream %s, limitcheck %s", u.Namespace, u.Name, a, b))
		}
		if a, b := listString(u.Status.Used), listString(m.Status.Used); a != b {
			d = append(d, fmt.Sprintf("quota %s/%s used: upstream %s, limitcheck %s", u.Namespace, u.Name, a, b))
		}
	}
	return d
}
