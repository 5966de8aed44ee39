// Package apis knows which apiVersion/kind pairs kube-apiserver serves with its
// default --runtime-config, under which resource (plural) and scope, so that an
// object of a version the cluster does not serve (apps/v1beta1 Deployment, v2 Pod,
// a typo) is refused the way kubectl refuses it, and so that every object is
// charged to quota under the right resource name.
//
// The built-in table (zz_served.go) is generated from k8s.io/kubernetes by
// conformance/cmd/genapis and checked against it by the conformance tests; this
// package never imports k8s.io/kubernetes. A Catalog starts from that table and
// learns custom resources from the CustomResourceDefinitions of the input.
//
// Decisions the table encodes:
//
//   - Kinds served only through a subresource (autoscaling/v1 Scale,
//     policy/v1 Eviction, authentication.k8s.io/v1 TokenRequest, the connect
//     options such as v1 PodExecOptions) are in the table with Subresource set
//     and are not served: kubectl maps a manifest's kind through discovery's
//     top-level resources only, so `kubectl create -f` of such a manifest fails
//     with "no matches for kind". v1 Binding is served: besides pods/binding it is
//     the create-only top-level resource "bindings".
//   - Create-only virtual kinds (TokenReview, SubjectAccessReview and the other
//     reviews, SelfSubjectReview, Binding) are served, with CreateOnly set: the
//     apiserver answers a create and stores nothing.
//   - Versions kube-apiserver has but leaves off by default (every alpha, and the
//     betas that 1.36 keeps off: none is on) are in the table with Disabled set
//     and are not served.
//   - v1 ComponentStatus is served (kubectl maps it) although its only verbs are
//     get and list: the apiserver would refuse its creation (405).
//
// Kinds are case-sensitive, as in the apiserver. kubectl's REST mapper also
// accepts the all-lower-case spelling of a served kind ("pod"); the apiserver
// then refuses the object, so Lookup says NotServed and NotServedMessage gives
// the apiserver's text instead of kubectl's "no matches for kind".
package apis

//go:generate go -C ../../../conformance run ./cmd/genapis -o ../internal/eval/apis/zz_served.go

// Kind is one apiVersion/kind and how kube-apiserver serves it.
type Kind struct {
	Group, Version, Kind string
	// Resource is the plural the kind is served under ("deployments"); for a
	// Subresource kind, "parent/subresource" ("deployments/scale").
	Resource string
	// Namespaced is false for cluster-scoped kinds.
	Namespaced bool
	// BuiltIn is set for the kinds of kube-apiserver itself (not from a CRD).
	BuiltIn bool
	// CreateOnly marks virtual kinds: create is their only verb and nothing is
	// stored (TokenReview, SubjectAccessReview, SelfSubjectReview, Binding, …).
	CreateOnly bool
	// Subresource marks kinds served only as a subresource of another resource
	// (Scale, Eviction, TokenRequest, …); a manifest of such a kind is not served.
	Subresource bool
	// Disabled marks built-in kinds whose version kube-apiserver has but does not
	// serve with the default --runtime-config (alpha and beta versions).
	Disabled bool
	// Scale marks kinds whose resource has the scale subresource (what an
	// HPA can scale).
	Scale bool
	// Deprecation is the warning kube-apiserver adds to every request on this
	// version when KubernetesVersion deprecates it ("v1 Endpoints is deprecated
	// in v1.33+; use discovery.k8s.io/v1 EndpointSlice"), else empty.
	Deprecation string
}

// APIVersion returns the kind's apiVersion ("apps/v1", "v1").
func (k Kind) APIVersion() string {
	if k.Group == "" {
		return k.Version
	}
	return k.Group + "/" + k.Version
}

// GroupResource returns the quota-style resource name: "deployments.apps",
// "pods" for the core group.
func (k Kind) GroupResource() string {
	if k.Group == "" {
		return k.Resource
	}
	return k.Resource + "." + k.Group
}

// BuiltIns returns a copy of the built-in table: every kind kube-apiserver
// KubernetesVersion has, with Disabled set on those it does not serve by default.
func BuiltIns() []Kind {
	out := make([]Kind, len(builtIn))
	copy(out, builtIn)
	for i := range out {
		out[i].BuiltIn = true
	}
	return out
}
