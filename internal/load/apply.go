package load

import (
	"bytes"
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// kubectl apply, without --server-side, keeps the object it sends in an
// annotation (kubectl.kubernetes.io/last-applied-configuration): the JSON
// of the object as it read it, its own annotation left out, with a line
// break after it. Annotations may hold 262144 bytes in all, so an object
// much larger than that (a CRD with a long schema, a ConfigMap of
// dashboards) is created by kubectl create and refused by kubectl apply.

// applyCheckFrom is the size of JSON below which no object can reach the
// limit once kubectl has added its annotation: kubectl's encoding of what
// it read is at most six times as long (<, > and & are escaped as \u003c),
// and the annotation holds one copy of it.
const applyCheckFrom = apivalidation.TotalAnnotationSizeLimitB / 6

// LastAppliedWarning is the warning for an object (its JSON, js) whose
// annotations kubectl apply would take over the limit, or "". namespace is
// the one kubectl sets on a namespaced object that names none (-n, else
// the context's), which the annotation holds too; "" for another.
func LastAppliedWarning(js []byte, namespace string) string {
	if len(js) < applyCheckFrom {
		return ""
	}
	var obj map[string]any
	if err := utiljson.Unmarshal(js, &obj); err != nil {
		return ""
	}
	annotations := map[string]string{}
	if md, ok := obj["metadata"].(map[string]any); ok {
		if _, ok := md["namespace"]; !ok && namespace != "" {
			md["namespace"] = namespace
		}
		if a, ok := md["annotations"].(map[string]any); ok {
			for k, v := range a {
				if s, ok := v.(string); ok {
					annotations[k] = s
				}
			}
			delete(a, corev1.LastAppliedConfigAnnotation) // kubectl's own is left out of the new one
		}
	}
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(obj); err != nil {
		return ""
	}
	annotations[corev1.LastAppliedConfigAnnotation] = b.String()
	if apivalidation.ValidateAnnotationsSize(annotations) == nil {
		return ""
	}
	tooLong := field.TooLong(field.NewPath("metadata", "annotations"), "", apivalidation.TotalAnnotationSizeLimitB)
	return fmt.Sprintf("kubectl apply refuses it unless --server-side: it would keep the whole object, %d bytes, in the annotation %s, and kube-apiserver answers %v (kubectl create, or kubectl apply --server-side, creates it)",
		b.Len(), corev1.LastAppliedConfigAnnotation, tooLong)
}
