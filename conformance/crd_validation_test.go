package conformance

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/unstructuredscheme"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/eval/crd"
	"github.com/limitcheck/limitcheck/internal/rules"
	"github.com/limitcheck/limitcheck/internal/rules/celserver"
)

var (
	flagCRDCases = flag.Int("crd-cases", 10000, "number of random custom resources (a new random CRD every few)")
	flagCRDSeed  = flag.Uint64("crd-seed", 1, "CRD and custom resource generator seed")
)

// upstreamCRD is what kube-apiserver builds from one version of a CRD to
// serve its custom resources (customresource_handler.go's crdInfo): the
// structural schema with pruned defaults, the openapi validator, the
// strategy.
type upstreamCRD struct {
	gvk        schema.GroupVersionKind
	structural *structuralschema.Structural
	strategy   rest.RESTCreateStrategy
	namespaced bool
	// openapi is the schema validator the strategy runs.
	openapi apiservervalidation.SchemaValidator
}

// newUpstreamCRD validates the CRD as kube-apiserver does on its create and,
// when valid, builds what serves version v1 of its resources.
func newUpstreamCRD(doc []byte) (*upstreamCRD, error) {
	v1crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := json.Unmarshal(doc, v1crd); err != nil {
		return nil, err
	}
	apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(v1crd)
	internal := &apiextensions.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(v1crd, internal, nil); err != nil {
		return nil, err
	}
	if errs := crdvalidation.ValidateCustomResourceDefinition(context.Background(), internal); len(errs) > 0 {
		return nil, fmt.Errorf("CRD refused: %v", errs.ToAggregate())
	}
	v := v1crd.Spec.Versions[0]
	val := &apiextensions.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(v.Schema, val, nil); err != nil {
		return nil, err
	}
	s, err := structuralschema.NewStructural(val.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	s = s.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(s); err != nil {
		return nil, err
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(val.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	var status *apiextensions.CustomResourceSubresourceStatus
	var statusValidator apiservervalidation.SchemaValidator
	if v.Subresources != nil && v.Subresources.Status != nil {
		status = &apiextensions.CustomResourceSubresourceStatus{}
		if st, ok := val.OpenAPIV3Schema.Properties["status"]; ok {
			if statusValidator, _, err = apiservervalidation.NewSchemaValidator(&st); err != nil {
				return nil, err
			}
		}
	}
	var scale *apiextensions.CustomResourceSubresourceScale
	if v.Subresources != nil && v.Subresources.Scale != nil {
		scale = &apiextensions.CustomResourceSubresourceScale{}
		if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(v.Subresources.Scale, scale, nil); err != nil {
			return nil, err
		}
	}
	gvk := schema.GroupVersionKind{Group: v1crd.Spec.Group, Version: v.Name, Kind: v1crd.Spec.Names.Kind}
	strategy := customresource.NewStrategy(unstructuredscheme.NewUnstructuredObjectTyper(), v1crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
		gvk, validator, statusValidator, s, status, scale, nil)
	return &upstreamCRD{gvk: gvk, structural: s, strategy: strategy, namespaced: v1crd.Spec.Scope == apiextensionsv1.NamespaceScoped, openapi: validator}, nil
}

// create runs kube-apiserver's create of one custom resource: the decoding
// (schemaCoercingDecoder: metadata and schema pruning with the unknown field
// paths kept under strict field validation, then the null pruning), the
// defaulting, the converter's second coercion, and rest.BeforeCreate with the
// custom resource strategy. A strict decoding error is worded as the create
// handler's transformDecodeError words it.
func (c *upstreamCRD) create(doc []byte, namespace string) (rqOutcome, error) {
	obj, err := runtime.Decode(unstructured.UnstructuredJSONScheme, doc)
	if err != nil {
		return rqOutcome{}, err
	}
	u := obj.(*unstructured.Unstructured)
	objectMeta, foundMeta, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		return rqOutcome{}, err
	}
	kind, apiVersion := u.GetKind(), u.GetAPIVersion()
	unknown = append(unknown, structuralpruning.PruneWithOptions(u.Object, c.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, c.structural)
	if ferr, paths := schemaobjectmeta.CoerceWithOptions(nil, u.Object, c.structural, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true}); ferr != nil {
		st := apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", c.gvk.Kind, c.gvk.Version, c.gvk.Kind, ferr)).Status()
		return rqOutcome{code: st.Code, reason: string(st.Reason), message: st.Message}, nil
	} else {
		unknown = append(unknown, paths...)
	}
	u.SetKind(kind)
	u.SetAPIVersion(apiVersion)
	if foundMeta {
		if err := schemaobjectmeta.SetObjectMeta(u.Object, objectMeta); err != nil {
			return rqOutcome{}, err
		}
	}
	if len(unknown) > 0 {
		var errs []error
		for _, p := range unknown {
			errs = append(errs, fmt.Errorf(`unknown field "%s"`, p))
		}
		strict := runtime.NewStrictDecodingError(errs)
		st := apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", c.gvk.Kind, c.gvk.Version, c.gvk.Kind, strict)).Status()
		return rqOutcome{code: st.Code, reason: string(st.Reason), message: st.Message}, nil
	}
	structuraldefaulting.Default(u.Object, c.structural)
	structuralpruning.Prune(u.Object, c.structural, true)
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, c.structural)

	if !c.namespaced {
		u.SetNamespace("") // kubectl sends a cluster-scoped create without one
	} else if u.GetNamespace() == "" {
		u.SetNamespace(namespace)
	}
	if u.GetGenerateName() != "" && u.GetName() == "" {
		u.SetName(upstreamGeneratedName(u.GetGenerateName()))
	}
	u.SetResourceVersion("") // as kubectl create does (ST-03)
	ctx := genericapirequest.WithNamespace(context.Background(), u.GetNamespace())
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{IsResourceRequest: true, Verb: "create",
		APIGroup: c.gvk.Group, APIVersion: c.gvk.Version, Namespace: u.GetNamespace(), Name: u.GetName()})
	rest.FillObjectMetaSystemFields(u)
	err = rest.BeforeCreate(c.strategy, ctx, u)
	if err == nil {
		return rqOutcome{allowed: true}, nil
	}
	st, ok := err.(apierrors.APIStatus)
	if !ok {
		return rqOutcome{code: 500, message: err.Error()}, nil
	}
	s := st.Status()
	return rqOutcome{code: s.Code, reason: string(s.Reason), message: s.Message}, nil
}

// mineCRDCreate admits the custom resource on a fresh engine whose catalog
// has the CRD.
// celRules is limitcheck's evaluator of x-kubernetes-validations rules, its
// helper's server run in-process behind the same pipe protocol.
var celRules = sync.OnceValue(func() *rules.Client { return celserver.Pipe() })

func mineCRDCreate(catalog *apis.Catalog, doc []byte, apiVersion, kind, namespace string) (rqOutcome, []string, error) {
	return mineCRDCreateRules(catalog, doc, apiVersion, kind, namespace, celRules())
}

// mineCRDCreateRules is mineCRDCreate with the given rule evaluator (nil:
// none).
func mineCRDCreateRules(catalog *apis.Catalog, doc []byte, apiVersion, kind, namespace string, rules eval.RuleEvaluator) (rqOutcome, []string, error) {
	u := eval.NewCustomObject(catalog, apiVersion, kind)
	if u == nil {
		return rqOutcome{}, nil, fmt.Errorf("no schema for %s %s", apiVersion, kind)
	}
	if err := json.Unmarshal(doc, u); err != nil {
		return rqOutcome{}, nil, err
	}
	e := eval.New(eval.Options{DefaultNamespace: namespace, OmitNamespaceObjects: true, DisableControllers: true, APIs: catalog, Rules: rules})
	res := e.Admit(u)
	if res.Internal != "" {
		return rqOutcome{code: 500, message: res.Internal}, nil, nil
	}
	if res.Denial == nil {
		return rqOutcome{allowed: true}, nil, nil
	}
	d := res.Denial
	return rqOutcome{code: d.Code, reason: string(d.Reason), message: d.Message}, d.Parts, nil
}

// crdGen makes CRDs with varied structural schemas and custom resources that
// satisfy them, or miss by one or a few changes.
type crdGen struct {
	r *rand.Rand
	n int // names the properties
}

func (g *crdGen) chance(p float64) bool { return g.r.Float64() < p }
func (g *crdGen) pick(xs ...any) any    { return xs[g.r.IntN(len(xs))] }

func (g *crdGen) name() string {
	g.n++
	return fmt.Sprintf("%s%d", g.pick("size", "mode", "items", "name", "port", "ratio", "tags", "conf").(string), g.n)
}

// node is a generated schema node in the JSONSchemaProps form.
type node = map[string]any

func (g *crdGen) scalar() node {
	switch g.r.IntN(6) {
	case 0, 1:
		s := node{"type": "string"}
		if g.chance(0.3) {
			s["maxLength"] = g.r.IntN(6) + 2
		}
		if g.chance(0.4) {
			s["minLength"] = g.r.IntN(2) + 1
		}
		if g.chance(0.25) {
			s["pattern"] = g.pick("^[a-z]+$", "^v[0-9]+$", "^[a-z0-9-]*$").(string)
		}
		if g.chance(0.25) {
			s = node{"type": "string", "enum": []any{"Always", "Never", "IfNotPresent"}}
		}
		if g.chance(0.1) {
			s["format"] = g.pick("date", "int32", "k8s-short-name", "k8s-long-name", "byte", "password", "uuid", "uuid4",
				"duration", "date-time", "datetime", "ipv4", "ipv6", "cidr", "mac", "hostname", "uri", "email").(string)
		}
		return s
	case 2:
		s := node{"type": "integer"}
		if g.chance(0.4) {
			s["minimum"] = g.pick(0, 1, -5).(int)
			if g.chance(0.3) {
				s["exclusiveMinimum"] = true
			}
		}
		if g.chance(0.4) {
			s["maximum"] = g.pick(10, 65535, 100).(int)
			if g.chance(0.3) {
				s["exclusiveMaximum"] = true
			}
		}
		if g.chance(0.15) {
			s["multipleOf"] = g.pick(2, 5).(int)
		}
		if g.chance(0.15) {
			s["enum"] = []any{1, 2, 3}
		}
		if g.chance(0.3) {
			s["format"] = g.pick("int32", "int64", "uint8").(string)
		}
		return s
	case 3:
		s := node{"type": "number"}
		if g.chance(0.4) {
			s["minimum"] = g.pick(0, 0.5, -1.5).(any)
		}
		if g.chance(0.4) {
			s["maximum"] = g.pick(1, 2.5, 1000000).(any)
		}
		if g.chance(0.15) {
			s["multipleOf"] = g.pick(0.5, 2).(any)
		}
		if g.chance(0.1) {
			s["format"] = g.pick("float", "double", "date").(string)
		}
		return s
	case 4:
		return node{"type": "boolean"}
	default:
		s := node{"x-kubernetes-int-or-string": true}
		// the two forms a structural schema allows (VAL-78's junctors)
		intOrString := []any{node{"type": "integer"}, node{"type": "string"}}
		switch g.r.IntN(4) {
		case 0, 1:
			s["anyOf"] = intOrString
		case 2:
			all := []any{node{"anyOf": intOrString}}
			if g.chance(0.5) {
				all = append(all, node{"pattern": "^[0-9]+%?$"})
			}
			s["allOf"] = all
		}
		return s
	}
}

// constraint is a value validation for a value of the node p, as a junctor's
// schema may hold one (no type, no structure of its own).
func (g *crdGen) constraint(p node) node {
	switch p["type"] {
	case "string":
		return g.pick(node{"minLength": 2}, node{"maxLength": 4}, node{"pattern": "^[a-z]+$"},
			node{"enum": []any{"abc", "web"}}, node{"format": "k8s-short-name"}, node{"format": "date"}).(node)
	case "integer", "number":
		return g.pick(node{"minimum": 3}, node{"maximum": 5}, node{"enum": []any{1, 2}}, node{"multipleOf": 2},
			node{"format": "int32"}, node{"format": "date"}).(node)
	case "array":
		return g.pick(node{"minItems": 1}, node{"maxItems": 2}, node{"items": node{"enum": []any{"abc", 1}}}).(node)
	case "object":
		if props, ok := p["properties"].(node); ok && len(props) > 0 {
			names := sortedKeys(props)
			name := names[g.r.IntN(len(names))]
			if g.chance(0.5) {
				return node{"required": []any{name}}
			}
			return node{"properties": node{name: g.constraint(props[name].(node))}}
		}
		return node{"minProperties": 1}
	case "boolean":
		return node{"enum": []any{true}}
	}
	return node{"enum": []any{"abc", 80}}
}

// rules gives an object x-kubernetes-validations rules over its integer and
// string properties, in the forms real CRDs use: an order between two
// fields, a field's length, one field needing another, with or without a
// message, a fieldPath and a reason.
func (g *crdGen) rules(s node) {
	props := s["properties"].(node)
	var ints, strs []string
	for _, name := range sortedKeys(props) {
		switch props[name].(node)["type"] {
		case "integer":
			ints = append(ints, name)
		case "string":
			if props[name].(node)["format"] == nil { // a date-time is a CEL timestamp
				strs = append(strs, name)
			}
		}
	}
	var rules []any
	if len(ints) >= 2 {
		a, b := ints[0], ints[1]
		r := node{"rule": fmt.Sprintf("!has(self.%s) || !has(self.%s) || self.%s <= self.%s", a, b, a, b)}
		if g.chance(0.6) {
			r["message"] = a + " must not exceed " + b
		}
		rules = append(rules, r)
	}
	if len(strs) > 0 {
		a := strs[g.r.IntN(len(strs))]
		r := node{"rule": fmt.Sprintf("!has(self.%s) || self.%s.size() >= %d", a, a, 3+g.r.IntN(2))}
		if g.chance(0.5) {
			r["fieldPath"] = "." + a
			r["reason"] = g.pick("FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate").(string)
		}
		if g.chance(0.5) {
			r["message"] = a + " is too short"
		}
		rules = append(rules, r)
	}
	names := sortedKeys(props)
	a, b := names[0], names[len(names)-1]
	if a != b && g.chance(0.5) {
		rules = append(rules, node{"rule": fmt.Sprintf("!has(self.%s) || has(self.%s)", a, b), "message": a + " needs " + b})
	}
	if len(rules) > 0 {
		s["x-kubernetes-validations"] = rules
	}
}

// junctors gives an object allOf, anyOf, oneOf or not over its properties,
// in the forms real CRDs use them: one of two fields, at least one, not
// both, or a field's value constrained further. Branches that fail with
// different numbers of checks applied make the choice of which branch's
// errors are reported (the match count) visible.
func (g *crdGen) junctors(s node) {
	props := s["properties"].(node)
	names := sortedKeys(props)
	pickName := func() string { return names[g.r.IntN(len(names))] }
	constrained := func(name string) node { return g.constraint(props[name].(node)) }
	branch := func(name string) node {
		switch g.r.IntN(6) {
		case 0, 1:
			return node{"required": []any{name}}
		case 2:
			return node{"properties": node{name: constrained(name)}}
		case 3:
			return node{"required": []any{name}, "properties": node{name: constrained(name)}}
		case 4:
			return node{"required": []any{pickName()}, "properties": node{name: constrained(name)}}
		default:
			return node{"properties": node{name: constrained(name), pickName(): g.constraint(node{})}}
		}
	}
	branches := func() []any {
		out := []any{}
		for n := 2 + g.r.IntN(2); n > 0; n-- {
			out = append(out, branch(pickName()))
		}
		return out
	}
	i := g.r.IntN(len(names))
	a, b := names[i], names[(i+1)%len(names)]
	switch g.r.IntN(6) {
	case 0:
		s["oneOf"] = []any{node{"required": []any{a}}, node{"required": []any{b}}}
	case 1:
		s["oneOf"] = branches()
	case 2:
		s["anyOf"] = branches()
	case 3:
		s["not"] = g.pick(node{"required": []any{a, b}}, branch(a)).(node)
	case 4:
		s["allOf"] = branches()
	default:
		s["allOf"] = []any{node{"anyOf": branches()}, branch(b)}
	}
}

func (g *crdGen) schema(depth int) node {
	if depth >= 3 || g.chance(0.45) {
		s := g.scalar()
		if g.chance(0.1) {
			s["nullable"] = true
		}
		return s
	}
	switch g.r.IntN(5) {
	case 0:
		var items node
		if g.chance(0.5) {
			items = g.scalar()
		} else {
			items = g.object(depth + 1)
		}
		s := node{"type": "array", "items": items}
		if g.chance(0.3) {
			s["minItems"] = g.r.IntN(2) + 1
		}
		if g.chance(0.3) {
			s["maxItems"] = g.r.IntN(3) + 2
		}
		if items["type"] == "object" && g.chance(0.4) {
			props := items["properties"].(node)
			key := "key"
			props[key] = node{"type": "string"}
			items["required"] = appendUnique(items["required"], key)
			s["x-kubernetes-list-type"] = "map"
			s["x-kubernetes-list-map-keys"] = []any{key}
		} else if items["type"] != "object" && g.chance(0.4) && items["x-kubernetes-int-or-string"] == nil {
			s["x-kubernetes-list-type"] = "set"
		} else if g.chance(0.2) {
			s["x-kubernetes-list-type"] = "atomic"
		}
		return s
	case 1:
		s := node{"type": "object", "additionalProperties": g.schema(depth + 1)}
		if g.chance(0.2) {
			s["maxProperties"] = g.r.IntN(3) + 1
		}
		if g.chance(0.2) {
			s["minProperties"] = 1
		}
		return s
	case 2:
		if g.chance(0.5) {
			return node{"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}
		}
		s := node{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
		if g.chance(0.5) {
			s["properties"] = node{g.name(): g.scalar()}
		}
		return s
	default:
		return g.object(depth + 1)
	}
}

// sortedKeys keeps the generator's draws in a fixed order for a seed.
func sortedKeys(m node) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func appendUnique(list any, s string) []any {
	l, _ := list.([]any)
	for _, x := range l {
		if x == s {
			return l
		}
	}
	return append(l, s)
}

func (g *crdGen) object(depth int) node {
	props := node{}
	var required []any
	for i := g.r.IntN(4) + 1; i > 0; i-- {
		name := g.name()
		props[name] = g.schema(depth)
		if g.chance(0.3) {
			required = append(required, name)
		}
	}
	s := node{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	if g.chance(0.2) {
		g.junctors(s)
	}
	if g.chance(0.2) {
		g.rules(s)
	}
	if g.chance(0.1) {
		s["nullable"] = true
	}
	return s
}

// value makes a value valid under s, or sometimes one close to it.
func (g *crdGen) value(s node, depth int) any {
	if _, ok := s["enum"]; ok && g.chance(0.9) {
		e := s["enum"].([]any)
		return e[g.r.IntN(len(e))]
	}
	if s["x-kubernetes-int-or-string"] == true {
		return g.pick(80, "http", "50%").(any)
	}
	switch s["type"] {
	case "string":
		if p, ok := s["pattern"].(string); ok {
			switch p {
			case "^v[0-9]+$":
				return "v1"
			case "^[a-z]+$":
				return "abc"
			}
		}
		if f, ok := s["format"].(string); ok {
			switch f {
			case "date":
				return "2024-01-02"
			case "k8s-short-name", "k8s-long-name":
				return "abc"
			case "uuid", "uuid4":
				return "123e4567-e89b-42d3-a456-426614174000"
			case "byte":
				return "YWJj"
			case "duration":
				return g.pick("1h30m", "30s", "2 days", "1w", "15min").(string)
			case "date-time", "datetime":
				return g.pick("2024-01-02T03:04:05Z", "2024-01-02t03:04:05.123+02:00").(string)
			case "ipv4":
				return g.pick("10.0.0.1", "010.000.000.001").(string)
			case "ipv6":
				return g.pick("fd00::1", "::ffff:10.0.0.1").(string)
			case "cidr":
				return g.pick("10.0.0.0/8", "fd00::/64").(string)
			case "mac":
				return "00:1a:2b:3c:4d:5e"
			case "hostname":
				return g.pick("example.com", "web-1", "api.example.co").(string)
			case "uri":
				return g.pick("https://example.com/x", "/healthz").(string)
			case "email":
				return g.pick("ops@example.com", "Ops <ops@example.com>").(string)
			}
		}
		return g.pick("abc", "web", "a-b").(string)
	case "integer":
		lo, hi := 1, 9
		if m, ok := s["minimum"].(int); ok {
			lo = m + 1
		}
		if m, ok := s["maximum"].(int); ok && m-1 < hi {
			hi = m - 1
		}
		if f, ok := s["multipleOf"].(int); ok {
			return f * 2
		}
		if hi < lo {
			return lo
		}
		return lo + g.r.IntN(hi-lo+1)
	case "number":
		return g.pick(0.75, 1, 2).(any)
	case "boolean":
		return g.chance(0.5)
	case "array":
		items := s["items"].(node)
		n := g.r.IntN(3)
		if m, ok := s["minItems"].(int); ok && n < m {
			n = m
		}
		if m, ok := s["maxItems"].(int); ok && n > m {
			n = m
		}
		out := []any{}
		for i := 0; i < n; i++ {
			v := g.value(items, depth+1)
			if m, ok := v.(map[string]any); ok && s["x-kubernetes-list-type"] == "map" {
				m["key"] = fmt.Sprintf("k%d", i)
			}
			if s["x-kubernetes-list-type"] == "set" {
				switch x := v.(type) {
				case string:
					v = fmt.Sprintf("%s%d", x, i)
				case int:
					v = x + i
				case float64:
					v = x + float64(i)
				case bool:
					if i > 1 {
						continue
					}
					v = i == 0
				}
			}
			out = append(out, v)
		}
		return out
	case "object":
		out := map[string]any{}
		if s["x-kubernetes-embedded-resource"] == true {
			out = map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cm"}}
			if g.chance(0.3) {
				delete(out["metadata"].(map[string]any), "name")
			}
			return out
		}
		props, _ := s["properties"].(node)
		req := map[any]bool{}
		if r, ok := s["required"].([]any); ok {
			for _, x := range r {
				req[x] = true
			}
		}
		for _, name := range sortedKeys(props) {
			if req[name] || g.chance(0.7) {
				out[name] = g.value(props[name].(node), depth+1)
			}
		}
		if ap, ok := s["additionalProperties"].(node); ok {
			n := g.r.IntN(3)
			if m, ok := s["maxProperties"].(int); ok && n > m {
				n = m
			}
			if _, ok := s["minProperties"]; ok && n == 0 {
				n = 1
			}
			for i := 0; i < n; i++ {
				out[fmt.Sprintf("k%d", i)] = g.value(ap, depth+1)
			}
		}
		if s["x-kubernetes-preserve-unknown-fields"] == true && g.chance(0.5) {
			out["anything"] = map[string]any{"x": 1}
		}
		if g.chance(0.85) {
			g.satisfyJunctors(s, out, depth)
		}
		return out
	}
	return nil
}

// satisfyJunctors makes an object value hold the fields a oneOf, anyOf or
// not asks for, as far as their required fields go: one branch's of a oneOf
// (and no other's), one branch's of an anyOf, not all of a not's.
func (g *crdGen) satisfyJunctors(s node, out map[string]any, depth int) {
	props, _ := s["properties"].(node)
	requiredOf := func(b any) []any {
		r, _ := b.(node)["required"].([]any)
		return r
	}
	ensure := func(name string) {
		if _, ok := out[name]; !ok && props[name] != nil {
			out[name] = g.value(props[name].(node), depth+1)
		}
	}
	if one, ok := s["oneOf"].([]any); ok {
		keep := requiredOf(one[g.r.IntN(len(one))])
		for _, b := range one {
			for _, n := range requiredOf(b) {
				delete(out, n.(string))
			}
		}
		for _, n := range keep {
			ensure(n.(string))
		}
	}
	if any, ok := s["anyOf"].([]any); ok {
		for _, n := range requiredOf(any[g.r.IntN(len(any))]) {
			ensure(n.(string))
		}
	}
	if not, ok := s["not"].(node); ok {
		if r := requiredOf(not); len(r) > 0 {
			delete(out, r[len(r)-1].(string))
		}
	}
}

// mutations are the kinds of near-misses made to a valid value.
var crdMutations = []string{"type", "null", "unknown", "drop-required", "range", "enum", "length", "pattern", "items", "duplicate", "default-null", "fraction", "null-item", "too-many", "too-short", "embedded", "all-fields", "no-fields", "overflow"}

// mutate changes one value under s in v (an object), returning the changed
// object and what it did; "" when nothing could be changed here.
func (g *crdGen) mutate(s node, v map[string]any) string {
	props, _ := s["properties"].(node)
	if len(props) == 0 {
		return ""
	}
	names := sortedKeys(props)
	name := names[g.r.IntN(len(names))]
	p := props[name].(node)
	cur, present := v[name]
	// Go deeper sometimes.
	if m, ok := cur.(map[string]any); ok && p["properties"] != nil && g.chance(0.5) {
		if what := g.mutate(p, m); what != "" {
			return what
		}
	}
	if l, ok := cur.([]any); ok && len(l) > 0 && g.chance(0.5) {
		items, _ := p["items"].(node)
		if m, ok := l[0].(map[string]any); ok && items != nil {
			if what := g.mutate(items, m); what != "" {
				return what
			}
		}
	}
	m := crdMutations[g.r.IntN(len(crdMutations))]
	if p["x-kubernetes-embedded-resource"] == true && g.chance(0.6) {
		m = "embedded"
	}
	switch m {
	case "type":
		v[name] = g.pick("text", 7, 2.5, true, []any{"x"}, map[string]any{"a": "b"}, 3000000000, 1e39)
	case "null", "default-null":
		v[name] = nil
	case "unknown":
		if mm, ok := cur.(map[string]any); ok && g.chance(0.6) {
			mm[g.pick("extra", "colour", "Spec").(string)] = "x"
		} else {
			v[g.pick("extra", "colour", "Spec").(string)] = 1
		}
	case "drop-required":
		if !present {
			return ""
		}
		delete(v, name)
	case "range":
		v[name] = g.pick(-10, 0, 11, 100000, 3, 1e6, -1.5, 4, 3000000000).(any)
	case "enum":
		v[name] = g.pick("Sometimes", "always", 4, 0).(any)
	case "length":
		v[name] = g.pick("", "a", "abcdefghijkl", "日本語日本語日本", "2024-13-01", "not-a-uuid", "YWJj=", "Upper.Case",
			"1h 30", "10 sec", "5x", "2024-01-02T24:00:00Z", "2024-01-02 03:04:05", "10.0.0", "10.0.0.1/33", "fd00::1", "10.0.0.1",
			"00:1a:2b", "-web", "a..b", "example.c", "http//x", "ops@", "ops@example.com").(string)
	case "pattern":
		v[name] = g.pick("ABC", "v", "x_y", "V1").(string)
	case "items":
		v[name] = g.pick([]any{}, []any{"a", "b", "c", "d", "e", "f"}, []any{1, "a"}, []any{map[string]any{"key": "a"}, map[string]any{"key": "a"}}).(any)
	case "duplicate":
		if l, ok := cur.([]any); ok && len(l) > 0 {
			v[name] = append(l, l[0])
		} else {
			v[name] = []any{"x", "x"}
		}
	case "embedded":
		m, ok := cur.(map[string]any)
		if !ok || p["x-kubernetes-embedded-resource"] != true {
			return ""
		}
		switch g.r.IntN(9) {
		case 0:
			delete(m, "kind")
		case 1:
			delete(m, "apiVersion")
		case 2:
			m["kind"] = g.pick("Bad_Kind", "", "config-map", "9Map").(string)
		case 3:
			m["apiVersion"] = g.pick("a/b/c", "", "/v1", "apps/").(string)
		case 4:
			key, other := "apiVersion", "kind"
			if g.chance(0.5) {
				key, other = other, key
			}
			if v, ok := m[other]; ok {
				if _, str := v.(string); !str {
					// Upstream reports one of two non-strings, in map order.
					return ""
				}
			}
			m[key] = g.pick(5, true).(any)
		case 5:
			m["metadata"] = map[string]any{"name": g.pick("a/b", "..", "Bad_Name", "x%y").(string)}
		case 6:
			m["metadata"] = map[string]any{"name": "cm", g.pick("labelz", "Name").(string): "x"}
		case 7:
			m["metadata"] = map[string]any{"name": "cm", "namespace": g.pick("Bad_NS", "ns1").(string), "labels": map[string]any{"a/b/c": "x"}}
		default:
			m["metadata"] = map[string]any{"generateName": g.pick("a/", "web-").(string)}
		}
	case "too-short":
		m, ok := p["minLength"].(int)
		if !ok {
			return ""
		}
		v[name] = strings.Repeat("a", m-1)
	case "too-many":
		if m, ok := p["maxItems"].(int); ok {
			l := []any{}
			for j := 0; j <= m; j++ {
				l = append(l, g.value(p["items"].(node), 0))
			}
			v[name] = l
		} else if m, ok := p["maxProperties"].(int); ok {
			o := map[string]any{}
			for j := 0; j <= m; j++ {
				o[fmt.Sprintf("k%d", j)] = g.value(p["additionalProperties"].(node), 0)
			}
			v[name] = o
		} else {
			return ""
		}
	case "null-item":
		if l, ok := cur.([]any); ok && len(l) > 0 {
			l[0] = nil
		} else {
			v[name] = []any{nil}
		}
	case "fraction":
		v[name] = g.pick(1.5, 2.0, 0.25, 1e20).(any)
	case "overflow":
		// a number beyond what the field's format holds
		if p["type"] != "integer" || p["format"] != "int32" {
			return ""
		}
		v[name] = 3000000000
	case "no-fields":
		// an empty object: no branch of a junctor over required fields holds
		for _, n := range names {
			delete(v, n)
		}
	case "all-fields":
		// every field present: two branches of a oneOf, all of a not
		for _, n := range names {
			if _, ok := v[n]; !ok {
				v[n] = g.value(props[n].(node), 1)
			}
		}
	}
	return "changed " + name
}

func (g *crdGen) crd(i int) (node, node) {
	spec := g.object(0)
	if g.chance(0.3) {
		// a default on a top-level field of spec
		props := spec["properties"].(node)
		for _, name := range sortedKeys(props) {
			pn := props[name].(node)
			if pn["type"] == "string" || pn["type"] == "integer" || pn["type"] == "boolean" {
				pn["default"] = g.value(pn, 0)
				break
			}
		}
	}
	root := node{"type": "object", "properties": node{"spec": spec}}
	if g.chance(0.3) {
		root["properties"].(node)["status"] = node{"type": "object", "properties": node{"ready": node{"type": "boolean"}}}
	}
	if g.chance(0.2) {
		root["required"] = []any{"spec"}
	}
	version := node{"name": "v1", "served": true, "storage": true, "schema": node{"openAPIV3Schema": root}}
	if g.chance(0.3) {
		version["subresources"] = node{"status": node{}}
	}
	// the scale subresource over an integer field of spec (VAL-78)
	specProps := spec["properties"].(node)
	for _, name := range sortedKeys(specProps) {
		if specProps[name].(node)["type"] != "integer" || !g.chance(0.5) {
			continue
		}
		props := root["properties"].(node)
		if props["status"] == nil {
			props["status"] = node{"type": "object", "properties": node{}}
		}
		props["status"].(node)["properties"].(node)["replicas"] = node{"type": "integer"}
		sub, _ := version["subresources"].(node)
		if sub == nil {
			sub = node{}
			version["subresources"] = sub
		}
		sub["scale"] = node{"specReplicasPath": ".spec." + name, "statusReplicasPath": ".status.replicas"}
		break
	}
	kind := fmt.Sprintf("Widget%d", i)
	plural := strings.ToLower(kind) + "s"
	scope := "Namespaced"
	if g.chance(0.3) {
		scope = "Cluster" // VAL-76..VAL-78 for cluster-scoped resources too
	}
	doc := node{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": node{"name": plural + ".example.com"},
		"spec": node{"group": "example.com", "scope": scope,
			"names":    node{"plural": plural, "singular": strings.ToLower(kind), "kind": kind, "listKind": kind + "List"},
			"versions": []any{version}}}
	return doc, root
}

// crdRules are texts every default run must see in some upstream denial.
var crdRules = []string{`unknown field "`, `unknown field "metadata.`, "in body must be of type", "Required value", "Unsupported value", "Too long",
	"chars long", "should match", "should be greater than", "should be less than", "should be a multiple of",
	"items", "Too many", "Duplicate value", `: "null"`, "Checked value", "metadata.name", "kind: Required value", "may have mixed case", "must be a string", ".metadata.name: Invalid value", "int32", "must be of type date",
	"must validate at least one schema (anyOf)", "(oneOf). Found none valid", "(oneOf). Found 2 valid alternatives",
	"must validate all the schemas (allOf)", "(allOf). None validated", "failed rule: ", " must not exceed ", " is too short",
	"some validation rules were not checked", "should be a non-negative integer", "expected int64", "must not validate the schema (not)"}

// TestCustomResourceValidationMatchesUpstream runs random custom resources of
// random CRDs through kube-apiserver's create path and through limitcheck,
// comparing the outcome and the whole message (VAL-76..VAL-78).
func TestCustomResourceValidationMatchesUpstream(t *testing.T) {
	g := &crdGen{r: rand.New(rand.NewPCG(*flagCRDSeed, *flagCRDSeed^0x9e3779b97f4a7c15))}
	stats, rules := map[string]int{}, map[string]int{}
	mismatches, refusedCRDs := 0, 0
	var up *upstreamCRD
	var catalog *apis.Catalog
	var root node
	var ours *crd.Schema
	var kind string
	for i := 0; i < *flagCRDCases; i++ {
		if i%5 == 0 || up == nil {
			var doc node
			doc, root = g.crd(i)
			raw, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if up, err = newUpstreamCRD(raw); err != nil {
				refusedCRDs++
				if refusedCRDs <= 3 {
					t.Logf("generated CRD refused by kube-apiserver (skipped): %v\n%s", err, raw)
				}
				up = nil
				continue
			}
			catalog = apis.New()
			if err := catalog.AddCRD(raw); err != nil {
				t.Fatalf("case %d: AddCRD: %v\n%s", i, err, raw)
			}
			kind = doc["spec"].(node)["names"].(node)["kind"].(string)
			rootRaw, _ := json.Marshal(root)
			if ours, err = crd.Parse(rootRaw); err != nil {
				t.Fatalf("case %d: crd.Parse: %v", i, err)
			}
		}
		obj := map[string]any{"apiVersion": "example.com/v1", "kind": kind, "metadata": map[string]any{"name": fmt.Sprintf("cr-%d", i)}}
		obj["spec"] = g.value(root["properties"].(node)["spec"].(node), 0)
		if g.chance(0.1) {
			obj["status"] = map[string]any{"ready": g.pick(true, "yes").(any)}
		}
		if g.chance(0.8) {
			for n := 1 + g.r.IntN(2); n > 0; n-- {
				g.mutate(root, obj)
			}
		}
		if g.chance(0.04) {
			obj["metadata"].(map[string]any)["name"] = g.pick("Bad_Name", "a/b", "a%b", "..", "web.").(string)
		}
		if g.chance(0.05) {
			// kept in a namespace, cleared on a cluster-scoped resource
			obj["metadata"].(map[string]any)["namespace"] = g.pick("ns1", "team-a").(string)
		}
		if g.chance(0.03) {
			md := obj["metadata"].(map[string]any)
			md[g.pick("labelz", "Labels", "namespaces").(string)] = map[string]any{"a": "b"}
			if g.chance(0.5) {
				md["ownerReferences"] = []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "uid": "u", "owner": true}}
			}
		}
		doc, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		want, err := up.create(doc, "ns1")
		if err != nil {
			t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
		}
		// The match count of the whole object as written, which picks the
		// branch of an anyOf or oneOf whose errors are reported.
		var value any
		if err := utiljson.Unmarshal(doc, &value); err != nil {
			t.Fatal(err)
		}
		wantCount, gotCount := up.openapi.Validate(value).MatchCount, ours.MatchCount(value)
		got, parts, err := mineCRDCreate(catalog, doc, "example.com/v1", kind, "ns1")
		if err != nil {
			t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
		}
		for _, r := range crdRules {
			if !want.allowed && strings.Contains(want.message, r) {
				rules[r]++
			}
		}
		switch {
		case want.allowed:
			stats["admitted"]++
		case want.code == 400:
			stats["400 unknown fields"]++
		default:
			stats[fmt.Sprintf("%d %s", want.code, want.reason)]++
		}
		var diffs []string
		if wantCount != gotCount {
			diffs = append(diffs, fmt.Sprintf("match count: upstream %d, limitcheck %d", wantCount, gotCount))
		}
		if want.allowed != got.allowed || want.code != got.code || want.reason != got.reason {
			diffs = append(diffs, fmt.Sprintf("status: upstream %v %d %q, limitcheck %v %d %q", want.allowed, want.code, want.reason, got.allowed, got.code, got.reason))
		}
		// Upstream visits sibling properties in Go map order: when errors
		// come from more than one property, they may come in any order.
		if want.message != got.message && !samePermutation(want.message, got.message, parts) {
			diffs = append(diffs, fmt.Sprintf("message:\n  upstream:   %s\n  limitcheck: %s", want.message, got.message))
		}
		if len(diffs) > 0 {
			mismatches++
			if mismatches <= 15 {
				crdRaw, _ := json.Marshal(root)
				t.Errorf("case %d (seed %d) mismatch:\n  %s\ninput: %s\nschema: %s", i, *flagCRDSeed, strings.Join(diffs, "\n  "), doc, crdRaw)
			}
		}
	}
	compared := stats["admitted"] + stats["400 unknown fields"] + stats["422 Invalid"]
	t.Logf("seed %d: %d custom resources compared (%d generated CRDs refused by upstream, their case skipped), %d mismatches; outcomes: %v", *flagCRDSeed, compared, refusedCRDs, mismatches, stats)
	for _, r := range crdRules {
		t.Logf("  %5d denials contain %q", rules[r], r)
		if rules[r] == 0 {
			// The default run must exercise every rule; another seed or
			// count only says so.
			if *flagCRDSeed == 1 && *flagCRDCases >= 6000 {
				t.Errorf("no generated case exercises %q", r)
			} else {
				t.Logf("no generated case exercises %q", r)
			}
		}
	}
	if mismatches > 0 {
		t.Fatalf("%d mismatches", mismatches)
	}
}
