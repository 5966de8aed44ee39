package eval

import (
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/limitcheck/limitcheck/internal/eval/resources"
)

// Rollouts (FIT-03): a Deployment rolled out once, as `kubectl rollout
// restart` makes its controller do, against the namespace as the whole input
// left it.

// Rollout is how one rollout of a Deployment goes.
type Rollout struct {
	// Strategy is the Deployment's strategy type. A Recreate rollout deletes
	// the old Pods first and needs nothing beyond what the Deployment has;
	// it is not simulated (Complete reports whether every replica ran).
	Strategy appsv1.DeploymentStrategyType
	// Replicas is the replica count rolled out; MaxSurge and MaxUnavailable
	// are the Deployment controller's resolved fenceposts for it.
	Replicas, MaxSurge, MaxUnavailable int
	// Note says why the rollout was not simulated ("" when it was): a
	// Recreate Deployment or a StatefulSet needs no extra Pod, a Deployment
	// whose replicas do not all run has nothing to roll yet.
	Note string
	// Complete: every Pod of the new ReplicaSet runs and the old one is
	// scaled to 0. Otherwise the rollout is stuck with New new Pods and Old
	// old ones running, Binding the refusal it keeps meeting.
	Complete bool
	New, Old int
	Binding  *Binding
	// Peak is, per quota resource, the highest usage the rollout reaches
	// (only resources whose usage it changes), in quota order, then by name.
	Peak []QuotaPeak
}

// QuotaPeak is a quota resource's highest usage during a rollout.
type QuotaPeak struct {
	Quota     string
	Resource  corev1.ResourceName
	Used      resource.Quantity // before the rollout
	Peak      resource.Quantity
	Hard      resource.Quantity
	HasHard   bool
	Namespace string
}

// maxRolloutSteps bounds the simulation: a step moves at least one Pod.
const maxRolloutSteps = 100000

// Rollout rolls out an admitted Deployment (its Result from Admit) once, on a
// copy of the engine's state: the Deployment controller's rolling update
// (rolloutRolling: reconcileNewReplicaSet, then reconcileOldReplicaSets),
// with new Pods available as soon as they are admitted and the quota of a
// deleted Pod given back at once. It returns nil for anything but a
// Deployment whose ReplicaSet was admitted.
func (e *Engine) Rollout(res *Result) (r *Rollout) {
	if set, ok := res.Object.(*appsv1.StatefulSet); ok && res.Allowed && res.Workload != nil {
		return &Rollout{Strategy: appsv1.DeploymentStrategyType(set.Spec.UpdateStrategy.Type), Replicas: res.Workload.Replicas, Complete: true, New: res.Workload.Replicas,
			Note: "a StatefulSet replaces its Pods one at a time, deleting each before creating it again: it needs no extra Pod"}
	}
	defer func() {
		if p := recover(); p != nil {
			r = &Rollout{Note: fmt.Sprintf("limitcheck failed on this rollout: %v", p)}
		}
	}()
	d, ok := res.Object.(*appsv1.Deployment)
	w := res.Workload
	if !ok || res.Denial != nil || w == nil || d.Spec.Paused || len(w.Created) == 0 || !w.Created[0].Allowed {
		return nil
	}
	desired := w.Replicas
	r = &Rollout{Strategy: d.Spec.Strategy.Type, Replicas: desired}
	if w.Admitted < desired {
		r.Note = "only " + strconv.Itoa(w.Admitted) + " of " + strconv.Itoa(desired) + " replicas run: fix that first"
		return r
	}
	if r.Strategy != appsv1.RollingUpdateDeploymentStrategyType {
		r.Complete, r.New = true, desired
		r.Note = "Recreate: the old Pods go before the new ones are created; it needs no extra Pod"
		return r
	}
	surge, unavailable := resolveFenceposts(d.Spec.Strategy.RollingUpdate, desired)
	r.MaxSurge = surge
	// MaxUnavailable: at most the replicas, 0 for none (deploymentutil.MaxUnavailable).
	r.MaxUnavailable = min(unavailable, desired)
	if desired == 0 {
		r.MaxUnavailable = 0
	}

	c := e.Clone()
	ns := c.namespace(d.Namespace)
	old := map[runtime.Object]bool{}
	for i := range w.Created {
		if cr := &w.Created[i]; cr.Kind == "Pod" && cr.Allowed {
			old[cr.Object] = true
		}
	}
	before := quotaUsed(ns.Quotas)
	peak := quotaUsed(ns.Quotas)
	watch := func() {
		for i, q := range ns.Quotas {
			for k, v := range q.Status.Used {
				if p, ok := peak[i][k]; !ok || v.Cmp(p) > 0 {
					peak[i][k] = v.DeepCopy()
				}
			}
		}
	}

	// The new ReplicaSet: the template with kubectl's restartedAt annotation.
	nd := d.DeepCopy()
	if nd.Spec.Template.Annotations == nil {
		nd.Spec.Template.Annotations = map[string]string{}
	}
	nd.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"] = "2006-01-02T15:04:05Z"
	oldSpec, newSpec, oldRunning, newRunning := desired, 0, w.Admitted, 0
	newSpec = scaleUp(desired, surge, oldSpec, newSpec)
	rsRes := c.admitCreated(replicaSetFor(nd, int32(newSpec)), 0)
	if !rsRes.Allowed {
		r.Old, r.Binding = oldRunning, newBinding(&rsRes)
		r.Peak = peaks(ns.Quotas, before, peak)
		return r
	}
	watch()
	rs := rsRes.Object.(*appsv1.ReplicaSet)
	created := desired // new Pods are numbered after the old ones
	step := 0
	for ; step < maxRolloutSteps; step++ {
		progress := false
		if up := scaleUp(desired, surge, oldSpec, newSpec); up > newSpec {
			newSpec, progress = up, true
		}
		// The new ReplicaSet creates its missing Pods.
		if missing := newSpec - newRunning; missing > 0 {
			nw := &Workload{}
			first := created
			c.replicate(nw, d.Namespace, replicaPlan{n: missing, firstOrdinal: first, create: func(i int) []Result {
				return []Result{c.admitCreated(podFromTemplate(&rs.Spec.Template, rs.Namespace, rs.Name+"-"), i+1)}
			}})
			created += missing
			watch()
			newRunning += nw.Admitted
			progress = progress || nw.Admitted > 0
			r.Binding = nil
			for i := range nw.Created {
				if cr := &nw.Created[i]; !cr.Allowed {
					r.Binding = newBinding(cr)
					break
				}
			}
		}
		// reconcileOldReplicaSets: the old Pods all run, so there is nothing
		// unhealthy to clean up; scale down to what keeps minAvailable.
		minAvailable := desired - r.MaxUnavailable
		maxScaledDown := oldSpec + newSpec - minAvailable - (newSpec - newRunning)
		if oldSpec > 0 && maxScaledDown > 0 {
			if available := oldRunning + newRunning; available > minAvailable {
				down := min(oldSpec, available-minAvailable)
				oldSpec -= down
				oldRunning -= c.quota.Remove(&ns.Namespace, down, func(o runtime.Object) bool { return old[o] })
				progress = progress || down > 0
			}
		}
		if newRunning == desired && oldSpec == 0 {
			r.Complete, r.Binding = true, nil
			break
		}
		if !progress {
			break
		}
	}
	if step == maxRolloutSteps {
		r.Note = "not simulated to the end: more than " + strconv.Itoa(maxRolloutSteps) + " steps"
	}
	r.New, r.Old = newRunning, oldRunning
	r.Peak = peaks(ns.Quotas, before, peak)
	return r
}

// scaleUp is the new ReplicaSet's replicas after NewRSNewReplicas: up to
// desired + maxSurge Pods in all, at most desired new ones.
func scaleUp(desired, surge, oldSpec, newSpec int) int {
	current := oldSpec + newSpec
	if current >= desired+surge {
		return newSpec
	}
	return newSpec + min(desired+surge-current, desired-newSpec)
}

// resolveFenceposts is the Deployment controller's ResolveFenceposts: maxSurge
// scaled rounding up, maxUnavailable rounding down, and maxUnavailable 1 when
// both come out 0.
func resolveFenceposts(ru *appsv1.RollingUpdateDeployment, desired int) (surge, unavailable int) {
	zero := intstr.FromInt32(0)
	var ms, mu *intstr.IntOrString
	if ru != nil {
		ms, mu = ru.MaxSurge, ru.MaxUnavailable
	}
	surge, _ = intstr.GetScaledValueFromIntOrPercent(intstr.ValueOrDefault(ms, zero), desired, true)
	unavailable, _ = intstr.GetScaledValueFromIntOrPercent(intstr.ValueOrDefault(mu, zero), desired, false)
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return surge, unavailable
}

func quotaUsed(qs []*corev1.ResourceQuota) []corev1.ResourceList {
	out := make([]corev1.ResourceList, len(qs))
	for i, q := range qs {
		out[i] = q.Status.Used.DeepCopy()
		if out[i] == nil {
			out[i] = corev1.ResourceList{}
		}
	}
	return out
}

// peaks lists the quota resources whose highest usage differs from before.
func peaks(qs []*corev1.ResourceQuota, before, peak []corev1.ResourceList) []QuotaPeak {
	var out []QuotaPeak
	for i, q := range qs {
		for _, k := range resources.SortedNames(peak[i]) {
			p, b := peak[i][k], before[i][k]
			if p.Cmp(b) == 0 {
				continue
			}
			hard, has := q.Status.Hard[k]
			out = append(out, QuotaPeak{Namespace: q.Namespace, Quota: q.Name, Resource: k, Used: b, Peak: p, Hard: hard, HasHard: has})
		}
	}
	return out
}
