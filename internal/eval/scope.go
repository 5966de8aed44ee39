package eval

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
)

// builtinAPIs is the catalogue of an engine without Options.APIs: the kinds
// kube-apiserver serves, no custom resources. Never given CRDs.
var builtinAPIs = apis.New()

// catalog is the engine's catalogue of served kinds.
func (e *Engine) catalog() *apis.Catalog {
	if e.opts.APIs != nil {
		return e.opts.APIs
	}
	return builtinAPIs
}

// clusterScopedIn reports whether c says gvk is cluster-scoped. Kinds it does
// not serve keep the scope of a served version of the same group/kind when
// there is one; anything else (custom resources without a CRD included) is
// namespaced.
func clusterScopedIn(c *apis.Catalog, gvk schema.GroupVersionKind) bool {
	k, _ := c.Lookup(gvk.GroupVersion().String(), gvk.Kind)
	return !k.Namespaced
}

// ClusterScoped reports whether a built-in kind is cluster-scoped (custom
// resources count as namespaced; see apis.Catalog.Lookup for a catalogue that
// knows the CRDs of the input).
func ClusterScoped(apiVersion, kind string) bool {
	return clusterScopedIn(builtinAPIs, schema.FromAPIVersionAndKind(apiVersion, kind))
}
