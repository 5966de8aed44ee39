// Package kubetext words the messages of kube-apiserver and kubectl that
// more than one part of limitcheck writes: the loader, for a document it
// cannot decode, and the engine, for a custom resource or a kind it does not
// serve.
package kubetext

import (
	"fmt"
	"strings"
)

// CannotHandle is kube-apiserver's 400 for a body its decoder refuses
// (k8s.io/apiserver's transformDecodeError): kind and version as the body
// gives them, the kind of the type it decodes into, and the decoder's error.
func CannotHandle(kind, version, into, err string) string {
	return kind + " in version \"" + version + "\" cannot be handled as a " + into + ": " + err
}

// StrictDecoding is the decoder's error under strict field validation
// (k8s.io/apimachinery's strictDecodingError): each field's error, as
// `unknown field "spec.foo"`, in the order the decoder met them.
func StrictDecoding(fieldErrs []string) string {
	return "strict decoding error: " + strings.Join(fieldErrs, ", ")
}

// EnsureCRDs is the line kubectl prints after ResourceMappingNotFound.
const EnsureCRDs = "ensure CRDs are installed first"

// ResourceMappingNotFound is kubectl's error for a document whose kind its
// REST mapper does not find (k8s.io/cli-runtime's mapper.infoForData): the
// document's own name and namespace (as written, "" when absent), the file
// as kubectl names it, and the mapper's "no matches for kind" error. kubectl
// prints EnsureCRDs on the next line.
func ResourceMappingNotFound(name, namespace, source, noMatch string) string {
	return fmt.Sprintf("resource mapping not found for name: %q namespace: %q from %q: %s", name, namespace, source, noMatch)
}

// UnableToRecognize is kubectl's error for a list's item whose kind its REST
// mapper does not find (k8s.io/cli-runtime's mapper.infoForObject): no file,
// no name, no colon.
func UnableToRecognize(noMatch string) string {
	return "unable to recognize " + noMatch
}
