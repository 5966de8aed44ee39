package eval

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/limitcheck/limitcheck/internal/eval/quota"
)

// AdmitLive admits a policy read from a live cluster (--from-cluster, CL-01):
// a LimitRange, ResourceQuota or cluster class as the cluster stores it. A
// quota keeps the status the cluster reports, whatever Options.QuotaUsage
// (its status.used counts the namespace's existing objects, which limitcheck
// does not see); its name is taken for the objects after it. Nothing is
// simulated after it, and the objects it counts are not charged again.
func (e *Engine) AdmitLive(obj runtime.Object) (res Result) {
	defer func() {
		if r := recover(); r != nil {
			res = identify(obj)
			res.Internal = fmt.Sprintf("limitcheck failed on this object: %v", r)
		}
	}()
	if e.addLiveClass(obj) {
		res = identify(obj)
		res.Skipped, res.SkipReason = true, "cluster class: read by the Priority, DefaultStorageClass and RuntimeClass plugins for the whole run"
		return res
	}
	e.live = true
	defer func() { e.live = false }()
	return e.admitObject(obj, true)
}

// AddExistingNames records names of objects that exist in a live namespace
// (CL-01): creating one of them again is storage's 409 (ST-01). The objects
// themselves are not added: their usage is already in the live quotas'
// status.used. apiVersion and kind are the input's, resolved to the resource
// as Admit resolves them.
func (e *Engine) AddExistingNames(namespace, apiVersion, kind string, names []string) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return
	}
	gr := resourceIn(e.catalog(), gv.WithKind(kind))
	ns := e.namespace(namespace)
	for _, name := range names {
		ns.stored.add(e.resourceID(gr), name)
	}
}

// SeedQuotaUsage gives the quota namespace/name, when the input admits one,
// the usage a live quota of that name reports (CL-01: an input quota that
// replaces a live one with the same scopes): for each of its hard resources
// the live status.used has, used starts from the live value, which counts the
// cluster's objects, instead of from the input's objects alone.
func (e *Engine) SeedQuotaUsage(namespace, name string, used corev1.ResourceList) {
	if e.seeds == nil {
		e.seeds = map[string]corev1.ResourceList{}
	}
	e.seeds[namespace+"/"+name] = used
}

// seed overlays the usage SeedQuotaUsage gave q onto its status: every hard
// resource the seed has, except those an observed status already had.
func (e *Engine) seed(q *corev1.ResourceQuota, observed corev1.ResourceList) {
	used, ok := e.seeds[q.Namespace+"/"+q.Name]
	if !ok {
		return
	}
	for name := range q.Status.Hard {
		v, ok := used[name]
		if !ok {
			continue
		}
		if _, had := observed[name]; had && e.opts.QuotaUsage == quota.UsageObserved {
			continue
		}
		if q.Status.Used == nil {
			q.Status.Used = corev1.ResourceList{}
		}
		q.Status.Used[name] = v.DeepCopy()
	}
}
