package eval

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// resourceFor returns the group/resource a kind is served as, by kubectl's plural
// guess (lower-case; y→ies; s, x, z, ch, sh→+es; endpoints as is), which is right
// for every built-in kind. Custom resources with irregular plurals need their CRD,
// which limitcheck does not read yet.
func resourceFor(gvk schema.GroupVersionKind) schema.GroupResource {
	plural, _ := meta.UnsafeGuessKindToResource(gvk)
	return plural.GroupResource()
}
