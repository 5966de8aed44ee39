package validation

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// TestCustomResourceDefinition: VAL-93..VAL-98, whole messages (held to
// apiextensions-apiserver's by conformance TestCRDValidationParity).
func TestCustomResourceDefinition(t *testing.T) {
	const head = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
	const widgets = head + "metadata: {name: widgets.example.org}\nspec:\n  group: example.org\n  names: {plural: widgets, kind: Widget}\n  scope: Namespaced\n"
	const label = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"a valid CRD with defaults and the status subresource", widgets + `  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer, default: 1}}}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
`, nil},
		{"name, scope, names, versions", head + `metadata: {name: widget.example.org}
spec:
  group: example.org
  names: {plural: widgets, kind: Widget, listKind: Widget, shortNames: [w_g]}
  scope: namespaced
  versions:
  - {name: V1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`, []string{
			`metadata.name: Invalid value: "widget.example.org": must be spec.names.plural+"."+spec.group`,
			`spec.scope: Unsupported value: "namespaced": supported values: "Cluster", "Namespaced"`,
			`spec.versions[0].name: Invalid value: "V1": ` + label,
			`spec.version: Invalid value: "V1": ` + label,
			`spec.names.shortNames[0]: Invalid value: "w_g": ` + label,
			`spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same`,
		}},
		{"a schema that cannot be read as structural", widgets + `  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {$schema: "http://json-schema.org/draft-04/schema", type: object}}}
`, []string{`spec.validation.openAPIV3Schema: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`}},
		{"versions that differ, structural errors, scale, columns, conversion", head + `metadata: {name: widgets.example.org}
spec:
  group: example.org
  names: {plural: widgets, kind: Widget}
  scope: Cluster
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns: [{name: Size, type: int, jsonPath: spec.size}]
    subresources:
      status: {}
      scale: {specReplicasPath: .status.replicas, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {properties: {size: {type: integer, default: big}, tags: {type: array}}}
  - {name: v1beta1, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
  conversion:
    strategy: Webhook
    webhook: {conversionReviewVersions: [v2]}
`, []string{
			`spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[tags].items: Required value: must be specified`,
			`spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields`,
			`spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec`,
			`spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "int": must be one of boolean,date,integer,number,string`,
			`spec.versions[0].additionalPrinterColumns[0].JSONPath: Invalid value: "spec.size": must be a simple json path starting with .`,
			`spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook`,
			`spec.conversion.conversionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1`,
		}},
		{"defaults that do not fit their schema", widgets + `  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              opts: {type: object, properties: {a: {type: string}}, default: {a: x, b: z}}
              size: {type: integer, default: big}
`, []string{
			`spec.validation.openAPIV3Schema.properties[spec].properties[opts].default: Invalid value: {"a":"x","b":"z"}: must not have unknown fields`,
			`spec.validation.openAPIV3Schema.properties[spec].properties[size].default: Invalid value: "string":  in body must be of type integer: "string"`,
		}},
		{"list types and validation rules", widgets + `  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - {rule: "self.size > 0", message: "bad\nline"}
            - {rule: "true", reason: Invalid}
            properties:
              size: {type: integer}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items: {type: object, properties: {name: {type: string}}}
              tags: {type: array, x-kubernetes-list-type: set, items: {type: object, properties: {a: {type: string}}}}
`, []string{
			`spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
			`spec.validation.openAPIV3Schema.properties[spec].properties[tags].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`,
			`spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].message: Invalid value: "bad\nline": must not contain line breaks`,
			`spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].reason: Unsupported value: "Invalid": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
		}},
		{"a protected group without approval", head + `metadata: {name: gateways.gateway.networking.k8s.io}
spec:
  group: gateway.networking.k8s.io
  names: {plural: gateways, kind: Gateway}
  scope: Namespaced
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
`, []string{`metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111`}},
		{"two storage versions, no schema", widgets + `  versions:
  - {name: v1, served: true, storage: true}
  - {name: v2, served: true, storage: true}
`, []string{
			`spec.versions[0].schema.openAPIV3Schema: Required value`,
			`spec.versions[1].schema.openAPIV3Schema: Required value`,
			`spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null},{"Name":"v2","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version`,
			`status.storedVersions: Invalid value: ["v1"]: must have the storage version v2`,
		}},
		{"two versions of one name: the status subresource is the first's", widgets + `  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
  - {name: v1, served: true, storage: false, subresources: {status: {}}, schema: {openAPIV3Schema: {type: object, minProperties: 1}}}
`, []string{
			`spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":true,"Deprecated":false,"DeprecationWarning":null,"Schema":{"OpenAPIV3Schema":{"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","Nullable":false,"Format":"","Title":"","Default":null,"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":null,"Required":null,"Items":null,"AllOf":null,"OneOf":null,"AnyOf":null,"Not":null,"Properties":null,"AdditionalProperties":null,"PatternProperties":null,"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}},"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null},{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":{"OpenAPIV3Schema":{"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","Nullable":false,"Format":"","Title":"","Default":null,"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":1,"Required":null,"Items":null,"AllOf":null,"OneOf":null,"AnyOf":null,"Not":null,"Properties":null,"AdditionalProperties":null,"PatternProperties":null,"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}},"Subresources":{"Status":{},"Scale":null},"AdditionalPrinterColumns":null,"SelectableFields":null}]: must contain unique version names`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := &apiextensionsv1.CustomResourceDefinition{}
			if err := yaml.Unmarshal([]byte(tc.doc), in); err != nil {
				t.Fatal(err)
			}
			c, err := PrepareCRDForCreate(in)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range CustomResourceDefinition(c, nil) {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}
