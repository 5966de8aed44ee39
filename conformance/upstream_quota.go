package conformance

import (
	"fmt"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/resourcequota"
	resourcequotaapi "k8s.io/apiserver/pkg/admission/plugin/resourcequota/apis/resourcequota"
	quota "k8s.io/apiserver/pkg/quota/v1"
	"k8s.io/apiserver/pkg/quota/v1/generic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/quota/v1/install"

	"github.com/limitcheck/limitcheck/conformance/internal/servedapis"
	evalquota "github.com/limitcheck/limitcheck/internal/eval/quota"
)

// quotaSim is the upstream ResourceQuota admission plugin's CheckRequest plus the
// quota controller's status computation, with quotas and objects kept in input
// order (upstream's listers return them in random order).
type quotaSim struct {
	admission quota.Registry
	ignored   map[schema.GroupResource]struct{}
	limited   []resourcequotaapi.LimitedResource
	informers informers.SharedInformerFactory
	quotas    map[string][]corev1.ResourceQuota
	objects   map[string]map[schema.GroupResource][]runtime.Object // v1 objects, admitted, per namespace
}

func newQuotaSim(cfg *evalquota.Configuration) (*quotaSim, error) {
	inf := informers.NewSharedInformerFactory(fake.NewSimpleClientset(), 0)
	adm, err := install.NewQuotaConfigurationForAdmission(inf, nil)
	if err != nil {
		return nil, err
	}
	s := &quotaSim{
		admission: generic.NewRegistry(adm.Evaluators()),
		ignored:   adm.IgnoredResources(),
		informers: inf,
		quotas:    map[string][]corev1.ResourceQuota{},
		objects:   map[string]map[schema.GroupResource][]runtime.Object{},
	}
	if cfg != nil {
		for _, l := range cfg.LimitedResources {
			s.limited = append(s.limited, resourcequotaapi.LimitedResource{APIGroup: l.APIGroup, Resource: l.Resource, MatchContains: l.MatchContains, MatchScopes: l.MatchScopes})
		}
	}
	return s, nil
}

// check is quotaEvaluator.Evaluate + checkAttributes + CheckRequest for one create.
// v1obj is what the controller's listers would later see.
func (s *quotaSim) check(attrs admission.Attributes, v1obj runtime.Object) error {
	gr := attrs.GetResource().GroupResource()
	if _, ok := s.ignored[gr]; ok {
		return nil
	}
	ev := s.admission.Get(gr)
	if ev == nil {
		ev = generic.NewObjectCountEvaluator(gr, nil, "")
		s.admission.Add(ev)
	}
	if !ev.Handles(attrs) {
		return nil
	}
	ns := attrs.GetNamespace()
	if quotas := s.quotas[ns]; len(quotas) > 0 || len(s.limited) > 0 {
		out, err := resourcequota.CheckRequest(quotas, attrs, ev, s.limited)
		if err != nil {
			return err
		}
		// The plugin writes changed quotas with UpdateStatus and the next
		// request reads them back from the response or the informer (QS-02).
		for i := range out {
			if out[i], err = overTheAPI(out[i]); err != nil {
				return err
			}
		}
		s.quotas[ns] = out
	}
	s.admit(ns, gr, v1obj)
	return nil
}

func (s *quotaSim) admit(ns string, gr schema.GroupResource, obj runtime.Object) {
	if s.objects[ns] == nil {
		s.objects[ns] = map[schema.GroupResource][]runtime.Object{}
	}
	s.objects[ns][gr] = append(s.objects[ns][gr], obj)
}

// unadmit takes back the last admit of obj, whose create failed after
// admission; quota usage already charged stays.
func (s *quotaSim) unadmit(ns string, gr schema.GroupResource, obj runtime.Object) {
	objs := s.objects[ns][gr]
	if n := len(objs); n > 0 && objs[n-1] == obj {
		s.objects[ns][gr] = objs[:n-1]
	}
}

// activate gives a newly created quota the status the quota controller computes
// (syncResourceQuota over CalculateUsage) and makes it visible to admission.
func (s *quotaSim) activate(q *corev1.ResourceQuota) error {
	listerFor := func(gvr schema.GroupVersionResource) (cache.GenericLister, error) {
		return orderedGenericLister{objects: s.objects, gr: gvr.GroupResource()}, nil
	}
	ctrl, err := install.NewQuotaConfigurationForControllers(listerFor, s.informers)
	if err != nil {
		return err
	}
	evaluators := ctrl.Evaluators()
	reg := generic.NewRegistry(evaluators)
	// The controller's quota monitor adds an object-count evaluator for every
	// other resource it discovers; these are the count/<resource> names in use.
	for name := range q.Spec.Hard {
		gr, ok := countResource(name)
		if !ok || reg.Get(gr) != nil || !discovered(gr) {
			continue
		}
		reg.Add(generic.NewObjectCountEvaluator(gr, generic.ListResourceUsingListerFunc(listerFor, gr.WithVersion("v1")), ""))
	}
	used, err := quota.CalculateUsage(q.Namespace, q.Spec.Scopes, quota.Add(corev1.ResourceList{}, q.Spec.Hard), reg, q.Spec.ScopeSelector)
	if err != nil {
		return err
	}
	hard := quota.Add(corev1.ResourceList{}, q.Spec.Hard)
	q.Status = corev1.ResourceQuotaStatus{Hard: hard, Used: quota.Mask(used, quota.ResourceNames(hard))}
	// The controller's UpdateStatus, read back by admission (QS-02).
	if *q, err = overTheAPI(*q); err != nil {
		return err
	}
	s.quotas[q.Namespace] = append(s.quotas[q.Namespace], *q)
	return nil
}

// overTheAPI is a quota as the API serves it after a write: encoded by the
// apiserver's v1 codec and decoded again.
func overTheAPI(q corev1.ResourceQuota) (corev1.ResourceQuota, error) {
	codec := legacyscheme.Codecs.LegacyCodec(corev1.SchemeGroupVersion)
	b, err := runtime.Encode(codec, &q)
	if err != nil {
		return q, err
	}
	var out corev1.ResourceQuota
	if err := runtime.DecodeInto(codec, b, &out); err != nil {
		return q, err
	}
	return out, nil
}

// discovered reports whether the quota monitor's discovery finds gr: a
// resource kube-apiserver 1.36 serves with the default --runtime-config (from
// its discovery documents), or one of a group it does not build in that a
// CRD can have (a custom resource whose CRD is taken as installed): a CRD's
// group has a dot, so "extensions", which 1.36 no longer serves, is neither.
func discovered(gr schema.GroupResource) bool {
	served, groups := discovery()
	return served[gr] || !groups[gr.Group] && strings.Contains(gr.Group, ".")
}

var discovery = sync.OnceValues(func() (map[schema.GroupResource]bool, map[string]bool) {
	u, err := servedapis.Derive()
	if err != nil {
		panic(err)
	}
	served, groups := map[schema.GroupResource]bool{}, map[string]bool{"": true}
	for _, k := range u.Kinds {
		groups[k.Group] = true
	}
	for _, g := range u.Served {
		for _, rs := range g.VersionedResources {
			for _, r := range rs {
				if !strings.Contains(r.Name, "/") {
					served[schema.GroupResource{Group: g.Group.Name, Resource: r.Name}] = true
				}
			}
		}
	}
	return served, groups
})

func countResource(name corev1.ResourceName) (schema.GroupResource, bool) {
	const prefix = "count/"
	s := string(name)
	if len(s) <= len(prefix) || s[:len(prefix)] != prefix {
		return schema.GroupResource{}, false
	}
	return schema.ParseGroupResource(s[len(prefix):]), true
}

// orderedGenericLister lists admitted objects of one resource in input order.
type orderedGenericLister struct {
	objects map[string]map[schema.GroupResource][]runtime.Object
	gr      schema.GroupResource
	ns      string
}

func (l orderedGenericLister) List(labels.Selector) ([]runtime.Object, error) {
	return append([]runtime.Object(nil), l.objects[l.ns][l.gr]...), nil
}

func (l orderedGenericLister) Get(name string) (runtime.Object, error) {
	for _, o := range l.objects[l.ns][l.gr] {
		if m, err := meta.Accessor(o); err == nil && m.GetName() == name {
			return o, nil
		}
	}
	return nil, fmt.Errorf("%s %q not found", l.gr, name)
}

func (l orderedGenericLister) ByNamespace(ns string) cache.GenericNamespaceLister {
	return orderedGenericLister{objects: l.objects, gr: l.gr, ns: ns}
}

// Quotas returns the final quotas of every namespace, in creation order.
func (u *Upstream) Quotas(namespaces []string) []corev1.ResourceQuota {
	var out []corev1.ResourceQuota
	for _, ns := range namespaces {
		out = append(out, u.quota.quotas[ns]...)
	}
	return out
}
