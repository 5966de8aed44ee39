// Package kubetext words the messages of kube-apiserver and kubectl that
// more than one part of limitcheck writes: the loader, for a document it
// cannot decode, and the engine, for a custom resource or a kind it does not
// serve.
package kubetext

import "strings"

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
