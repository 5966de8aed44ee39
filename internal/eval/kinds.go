package eval

import (
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
)

// resourceIn returns the group/resource c says gvk is served as: the built-in
// table's plural, a CRD's spec.names.plural, or kubectl's plural guess for other
// custom resources.
func resourceIn(c *apis.Catalog, gvk schema.GroupVersionKind) schema.GroupResource {
	k, _ := c.Lookup(gvk.GroupVersion().String(), gvk.Kind)
	if k.Resource == "" || strings.Contains(k.Resource, "/") {
		// A kind served only as a subresource: no quota resource of its own.
		plural, _ := meta.UnsafeGuessKindToResource(gvk)
		return plural.GroupResource()
	}
	return schema.GroupResource{Group: gvk.Group, Resource: k.Resource}
}

// resourceFor is resourceIn for the built-in kinds only.
func resourceFor(gvk schema.GroupVersionKind) schema.GroupResource {
	return resourceIn(builtinAPIs, gvk)
}
