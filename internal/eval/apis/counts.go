package apis

import (
	"maps"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// CountTarget says what a quota's object-count name count/<resource>.<group>
// counts. known is true when some kind is served as gr (a built-in kind, or
// a custom resource of an input CRD); decided is false when nothing can be
// said (a group neither built in nor from an input CRD: its CRD may be
// installed). A group without a dot that is not built in is decided too: a
// CRD's group must have a dot, so nothing serves it (count/services.loadbalancers
// is resource services in group "loadbalancers"). When gr is unknown in a known
// group, meant is the group/resource most likely meant (the same resource in
// another group, the plural of a singular, the resource of a kind written as
// it is), or empty.
func (c *Catalog) CountTarget(gr schema.GroupResource) (known, decided bool, meant schema.GroupResource) {
	c = c.orEmpty()
	served := c.servedResources()
	if served[gr] {
		return true, true, schema.GroupResource{}
	}
	if !builtinGroups[gr.Group] && !c.crdGroups[gr.Group] && strings.Contains(gr.Group, ".") {
		return false, false, schema.GroupResource{}
	}
	lower := strings.ToLower(gr.Resource)
	candidates := []schema.GroupResource{
		{Group: gr.Group, Resource: lower},
		{Group: gr.Group, Resource: strings.ToLower(Plural(gr.Resource))},
	}
	for _, m := range candidates {
		if served[m] {
			return false, true, m
		}
	}
	// The same resource in exactly one other group (count/deployments for
	// count/deployments.apps).
	var other []schema.GroupResource
	for s := range served {
		if s.Group != gr.Group && (s.Resource == lower || s.Resource == strings.ToLower(Plural(gr.Resource))) {
			other = append(other, s)
		}
	}
	if len(other) == 1 {
		return false, true, other[0]
	}
	return false, true, schema.GroupResource{}
}

// servedResources is every group/resource a kind is served as: the built-in
// kinds served by default (subresources left out) and the input CRDs'.
func (c *Catalog) servedResources() map[schema.GroupResource]bool {
	builtin := builtinResources()
	if len(c.crds) == 0 {
		return builtin
	}
	out := maps.Clone(builtin)
	for gk, r := range c.crds {
		out[schema.GroupResource{Group: gk.Group, Resource: r.resource}] = true
	}
	return out
}

// builtinResources is the group/resources of the built-in kinds served by
// default: what the quota controller discovers and counts.
var builtinResources = sync.OnceValue(func() map[schema.GroupResource]bool {
	out := map[schema.GroupResource]bool{}
	for _, k := range builtinOrdered {
		if !k.Disabled && !k.Subresource && !k.CreateOnly && !strings.Contains(k.Resource, "/") {
			out[schema.GroupResource{Group: k.Group, Resource: k.Resource}] = true
		}
	}
	return out
})

// Counted reports whether the quota controller has an object-count
// evaluator for gr: a namespaced resource kube-apiserver serves, or one of a
// group it cannot know (a CRD that may be installed). The controller
// discovers namespaced resources only, so a cluster-scoped one
// (count/namespaces, count/apiservices.apiregistration.k8s.io) gets no used
// value.
func (c *Catalog) Counted(gr schema.GroupResource) bool {
	known, decided, _ := c.CountTarget(gr)
	if known {
		return !c.ClusterScoped(gr)
	}
	return !decided
}

// ClusterScoped reports whether gr is served, as a built-in kind or a
// custom resource of an input CRD, and cluster-scoped.
func (c *Catalog) ClusterScoped(gr schema.GroupResource) bool {
	c = c.orEmpty()
	for gk, r := range c.crds {
		if r.resource == gr.Resource && gk.Group == gr.Group {
			return !r.namespaced
		}
	}
	for _, k := range builtinOrdered {
		if k.Group == gr.Group && k.Resource == gr.Resource && !k.Disabled && !k.Subresource {
			return !k.Namespaced
		}
	}
	return false
}
