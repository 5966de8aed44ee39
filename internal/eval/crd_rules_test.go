package eval

import (
	"slices"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/rules/celserver"
)

// crdWithSpec is a CRD whose one version's spec schema is spec (YAML,
// indented for its place).
func crdWithSpec(spec string) string {
	return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
` + spec
}

// TestCRDRulesCompiled: VAL-95, whole messages; the rules of a new CRD are
// compiled as kube-apiserver 1.36.3 compiles them (compared on its plane).
func TestCRDRulesCompiled(t *testing.T) {
	cel := celserver.Pipe() // the limitcheck-cel helper's server, in-process
	defer cel.Close()
	for _, tc := range []struct {
		name, spec string
		want       string // "": created
	}{{
		name: "rules that compile",
		spec: "            type: object\n            x-kubernetes-validations:\n            - {rule: 'self.min <= self.max', messageExpression: \"'min exceeds max'\"}\n            properties:\n              min: {type: integer}\n              max: {type: integer}\n",
	}, {
		name: "a messageExpression joining string() of an integer: its cost",
		spec: "            type: object\n            x-kubernetes-validations:\n            - {rule: 'self.min <= self.max', messageExpression: \"'min ' + string(self.min)\"}\n            properties:\n              min: {type: integer}\n              max: {type: integer}\n",
		want: `CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: [spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared), spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].messageExpression: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema, spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)]`,
	}, {
		name: "a rule over an unbounded list: its cost",
		spec: "            type: object\n            properties:\n              items:\n                type: array\n                items: {type: string}\n                x-kubernetes-validations:\n                - rule: self.all(x, self.all(y, x == y || x != y))\n",
		want: `CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: [spec.validation.openAPIV3Schema.properties[spec].properties[items].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared), spec.validation.openAPIV3Schema.properties[spec].properties[items].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema, spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)]`,
	}, {
		name: "compile errors after the nodes below, oldSelf under items, optionalOldSelf without it",
		spec: "            type: object\n            x-kubernetes-validations:\n            - {rule: 'self.replica > 0'}\n            - {rule: 'self.replicas >= 0', optionalOldSelf: true}\n            properties:\n              replicas: {type: integer}\n              hosts:\n                type: array\n                maxItems: 4\n                items:\n                  type: string\n                  maxLength: 8\n                  x-kubernetes-validations: [{rule: self == oldSelf}]\n",
		want: "CustomResourceDefinition.apiextensions.k8s.io \"widgets.example.com\" is invalid: [spec.validation.openAPIV3Schema.properties[spec].properties[hosts].items.x-kubernetes-validations[0].rule: Invalid value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[hosts], spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: {\"Rule\":\"self.replica \\u003e 0\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}: compilation failed: ERROR: <input>:1:5: undefined field 'replica'\n | self.replica > 0\n | ....^, spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule]",
	}, {
		name: "a schema error below a node: its rules are not compiled, a sibling's are",
		spec: "            type: object\n            x-kubernetes-validations:\n            - {rule: 'self.nosuch > 0'}\n            properties:\n              a:\n                type: object\n                x-kubernetes-validations: [{rule: 'self.nosuch > 0', reason: Bad}]\n              b:\n                type: object\n                x-kubernetes-validations: [{rule: 'self.nosuch > 0'}]\n",
		want: "CustomResourceDefinition.apiextensions.k8s.io \"widgets.example.com\" is invalid: [spec.validation.openAPIV3Schema.properties[spec].properties[a].x-kubernetes-validations[0].reason: Unsupported value: \"Bad\": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\", spec.validation.openAPIV3Schema.properties[spec].properties[b].x-kubernetes-validations[0].rule: Invalid value: {\"Rule\":\"self.nosuch \\u003e 0\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}: compilation failed: ERROR: <input>:1:5: undefined field 'nosuch'\n | self.nosuch > 0\n | ....^]",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			clusterScopedOutcome(t, New(Options{DefaultNamespace: "ns1", Rules: cel}).Admit(decode(t, crdWithSpec(tc.spec))), tc.want)
		})
	}
}

// Without the helper the CRD is judged on the rest and warned of.
func TestCRDRulesNotCompiled(t *testing.T) {
	doc := crdWithSpec("            type: object\n            x-kubernetes-validations: [{rule: 'self.nosuch > 0'}]\n")
	res := New(Options{DefaultNamespace: "ns1", Rules: failingRules{}}).Admit(decode(t, doc))
	clusterScopedOutcome(t, res, "")
	if want := "its CEL expressions were not compiled: the limitcheck-cel helper was not found"; !slices.Contains(res.Warnings, want) {
		t.Errorf("warnings %q, want %q", strings.Join(res.Warnings, "; "), want)
	}
	if CheckCRD(decode(t, doc), failingRules{}).Refusal() != nil {
		t.Error("refused when its rules could not be compiled")
	}
	cel := celserver.Pipe()
	defer cel.Close()
	if CheckCRD(decode(t, doc), cel).Refusal() == nil {
		t.Error("not refused with a rule that does not compile")
	}
}
