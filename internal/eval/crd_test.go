package eval

import "testing"

// TestCustomResourceDefinitionValidation: VAL-93..VAL-99 through the engine,
// whole messages (held to apiextensions-apiserver's by conformance
// TestCRDValidationParity).
func TestCustomResourceDefinitionValidation(t *testing.T) {
	const crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
	for _, tc := range []struct{ name, doc, want string }{
		{"cert-manager's shape", crd + `metadata: {name: certificates.cert-manager.io}
spec:
  group: cert-manager.io
  names: {plural: certificates, singular: certificate, kind: Certificate, listKind: CertificateList, shortNames: [cert, certs], categories: [cert-manager]}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    additionalPrinterColumns:
    - {jsonPath: '.status.conditions[?(@.type=="Ready")].status', name: Ready, type: string}
    - {jsonPath: .metadata.creationTimestamp, name: Age, type: date}
    schema:
      openAPIV3Schema:
        type: object
        required: [spec]
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata: {type: object}
          spec: {type: object, required: [secretName], properties: {secretName: {type: string}, duration: {type: string}}}
          status: {type: object, properties: {conditions: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [type], items: {type: object, required: [type], properties: {type: {type: string}, status: {type: string}}}}}}
`, ""},
		{"the name, a nested property without a type, a webhook without a client", crd + `metadata: {name: widget.example.org}
spec:
  group: example.org
  names: {plural: widgets, kind: Widget}
  scope: Namespaced
  conversion: {strategy: Webhook, webhook: {conversionReviewVersions: [v1]}}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {properties: {size: {type: integer}}}
`, `CustomResourceDefinition.apiextensions.k8s.io "widget.example.org" is invalid: [metadata.name: Invalid value: "widget.example.org": must be spec.names.plural+"."+spec.group, spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields, spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook]`},
		{"a generated name cannot be plural.group", crd + `metadata: {generateName: widgets.}
spec:
  group: example.org
  names: {plural: widgets, kind: Widget}
  scope: Cluster
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`, "CustomResourceDefinition.apiextensions.k8s.io \"widgets." + GeneratedNameSuffix + `" is invalid: [metadata.generateName: Invalid value: "widgets.": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), metadata.generateName: Invalid value: "widgets.": must be spec.names.plural+"."+spec.group, metadata.name: Invalid value: "widgets.` + GeneratedNameSuffix + `": must be spec.names.plural+"."+spec.group]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := New(Options{DefaultNamespace: "ns1"}).Admit(decode(t, tc.doc))
			got := ""
			if res.Denial != nil {
				got = res.Denial.Message
			} else if !res.Skipped {
				t.Fatalf("admitted, not skipped as cluster-scoped: %+v", res)
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
