package conformance

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	"k8s.io/apimachinery/pkg/runtime"
)

var (
	flagCRDDefCases = flag.Int("crddef-cases", 3500, "number of random CustomResourceDefinitions")
	flagCRDDefSeed  = flag.Uint64("crddef-seed", 1, "CustomResourceDefinition generator seed")
)

var apiextensionsScheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
}()

// crdDefGen makes realistic CustomResourceDefinitions (schemas from crdGen,
// one to three versions, subresources, printer columns, selectable fields,
// conversion) with the mistakes CRD authors make mixed in.
type crdDefGen struct {
	*crdGen
}

var crdKinds = []any{"Widget", "Gadget", "Backup", "Certificate", "Policy", "Gateway"}

// plural is the plural a CRD author writes for kind.
func plural(kind string) string {
	l := strings.ToLower(kind)
	switch {
	case strings.HasSuffix(l, "y"):
		return l[:len(l)-1] + "ies"
	case strings.HasSuffix(l, "s"):
		return l + "es"
	}
	return l + "s"
}

// rootSchema is a resource's schema: spec (with a string color and an
// integer replicas the selectable fields, scale and columns can name) and
// status.
func (g *crdDefGen) rootSchema() node {
	spec := g.object(1)
	props := spec["properties"].(node)
	props["color"] = node{"type": "string"}
	props["replicas"] = node{"type": "integer", "minimum": 0}
	if g.chance(0.3) {
		// VAL-104: a format the node's type does not take is warned of.
		props["color"].(node)["format"] = g.pick("int64", "password", "cidr", "uint", "k8s-short-name").(string)
		props["replicas"].(node)["format"] = g.pick("int32", "int64", "uint8", "cidr", "double").(string)
	}
	if g.chance(0.3) {
		props["color"].(node)["default"] = "blue"
		props["replicas"].(node)["default"] = 1
	}
	if g.chance(0.2) {
		spec["x-kubernetes-validations"] = []any{node{"rule": g.pick("self.replicas >= 0", "true", "has(self.color) || true").(string), "message": "replicas must not be negative"}}
	}
	root := node{"type": "object", "properties": node{"spec": spec,
		"status": node{"type": "object", "properties": node{"replicas": node{"type": "integer"}, "ready": node{"type": "boolean"}}}}}
	if g.chance(0.2) {
		root["properties"].(node)["metadata"] = node{"type": "object", "properties": node{"name": node{"type": "string", "maxLength": 40}}}
	}
	if g.chance(0.2) {
		root["description"] = "A " + g.pick("widget", "backup").(string)
	}
	if g.chance(0.2) {
		root["properties"].(node)["apiVersion"] = node{"type": "string"}
		root["properties"].(node)["kind"] = node{"type": "string"}
	}
	return root
}

// valid is a CRD kube-apiserver creates.
func (g *crdDefGen) valid() node {
	kind := g.pick(crdKinds...).(string)
	group := g.pick("example.com", "stable.example.com", "apps.example.org", "acme.io").(string)
	names := node{"plural": plural(kind), "kind": kind}
	if g.chance(0.6) {
		names["singular"] = strings.ToLower(kind)
	}
	if g.chance(0.5) {
		names["listKind"] = kind + "List"
	}
	if g.chance(0.4) {
		names["shortNames"] = []any{strings.ToLower(kind[:2])}
	}
	if g.chance(0.3) {
		names["categories"] = []any{"all", "example"}
	}
	root := g.rootSchema()
	nv := 1 + g.r.IntN(3)
	if g.chance(0.4) {
		nv = 1
	}
	same := g.chance(0.7)
	var versions []any
	storage := g.r.IntN(nv)
	status := g.chance(0.5)
	scale := g.chance(0.25)
	for i, name := range []string{"v1", "v1beta1", "v1alpha1"}[:nv] {
		schema := root
		if !same && i > 0 {
			schema = g.rootSchema()
		}
		v := node{"name": name, "served": i == 0 || g.chance(0.7), "storage": i == storage, "schema": node{"openAPIV3Schema": deepCopy(schema)}}
		if i > 0 && g.chance(0.3) {
			v["deprecated"] = true
			if g.chance(0.5) {
				v["deprecationWarning"] = "example.com/" + name + " is deprecated"
			}
		}
		sub := node{}
		if status {
			sub["status"] = node{}
		}
		if scale {
			sc := node{"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}
			if g.chance(0.5) {
				sc["labelSelectorPath"] = ".status.selector"
			}
			sub["scale"] = sc
		}
		if len(sub) > 0 {
			v["subresources"] = sub
		}
		if g.chance(0.4) {
			cols := []any{node{"name": "Color", "type": "string", "jsonPath": ".spec.color"}}
			if g.chance(0.5) {
				cols = append(cols, node{"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"})
			}
			if g.chance(0.3) {
				cols = append(cols, node{"name": "Replicas", "type": "integer", "format": "int32", "jsonPath": ".spec.replicas", "priority": 1, "description": "desired"})
			}
			v["additionalPrinterColumns"] = cols
		}
		if g.chance(0.15) {
			v["selectableFields"] = []any{node{"jsonPath": ".spec.color"}}
		}
		versions = append(versions, v)
	}
	spec := node{"group": group, "names": names, "scope": g.pick("Namespaced", "Cluster").(string), "versions": versions}
	if g.chance(0.2) {
		spec["conversion"] = node{"strategy": "Webhook", "webhook": node{"conversionReviewVersions": []any{"v1"},
			"clientConfig": node{"service": node{"name": "conv", "namespace": "system", "path": "/convert", "port": 9443}}}}
	} else if g.chance(0.2) {
		spec["conversion"] = node{"strategy": "None"}
	}
	md := node{"name": plural(kind) + "." + group}
	if g.chance(0.1) {
		md["annotations"] = node{"controller-gen.kubebuilder.io/version": "v0.16.1"}
	}
	if g.chance(0.1) {
		md["labels"] = node{"app.kubernetes.io/part-of": "example"}
	}
	return node{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": md, "spec": spec}
}

func deepCopy(n node) node {
	raw, _ := json.Marshal(n)
	var out node
	_ = json.Unmarshal(raw, &out)
	return out
}

// crdMistake changes a valid CRD in one way an author might get wrong.
type crdMistake func(g *crdDefGen, d node)

func pluralOf(d node) string {
	p, _ := crdSpecOf(d)["names"].(node)["plural"].(string)
	return p
}

func crdSpecOf(d node) node    { return d["spec"].(node) }
func crdVersions(d node) []any { return crdSpecOf(d)["versions"].([]any) }
func crdVersion(d node, i int) node {
	return crdVersions(d)[i].(node)
}

// someVersion is a random version of d.
func (g *crdDefGen) someVersion(d node) node {
	vs := crdVersions(d)
	if len(vs) == 0 {
		return node{} // changes nothing
	}
	return vs[g.r.IntN(len(vs))].(node)
}

// someSchema is the root schema of a random version (nil if it has none).
func (g *crdDefGen) someSchema(d node) node {
	v := g.someVersion(d)
	s, _ := v["schema"].(node)
	if s == nil {
		return nil
	}
	r, _ := s["openAPIV3Schema"].(node)
	return r
}

// specProps are the properties of spec in a random version's schema.
func (g *crdDefGen) specProps(d node) node {
	r := g.someSchema(d)
	if r == nil {
		return nil
	}
	spec, _ := r["properties"].(node)["spec"].(node)
	if spec == nil {
		return nil
	}
	p, _ := spec["properties"].(node)
	return p
}

// allSchemas applies f to every version's root schema (they stay identical
// when they were).
func allSchemas(d node, f func(root node)) {
	for _, v := range crdVersions(d) {
		if s, ok := v.(node)["schema"].(node); ok {
			if r, ok := s["openAPIV3Schema"].(node); ok {
				f(r)
			}
		}
	}
}

func allSpecProps(d node, f func(props node)) {
	allSchemas(d, func(r node) {
		if spec, ok := r["properties"].(node)["spec"].(node); ok {
			if p, ok := spec["properties"].(node); ok {
				f(p)
			}
		}
	})
}

var crdMistakes = []crdMistake{
	// metadata
	func(g *crdDefGen, d node) {
		d["metadata"].(node)["name"] = g.pick("widgets.example.com", "Widgets.example.com", "widget.example.com", "example.com").(string)
	},
	func(g *crdDefGen, d node) {
		md := d["metadata"].(node)
		delete(md, "name")
		if g.chance(0.5) {
			md["generateName"] = "widgets."
		}
	},
	// group
	func(g *crdDefGen, d node) {
		grp := g.pick("example", "Example.com", "", "example_com.io").(string)
		crdSpecOf(d)["group"] = grp
		if g.chance(0.7) {
			d["metadata"].(node)["name"] = pluralOf(d) + "." + grp
		}
	},
	func(g *crdDefGen, d node) {
		grp := g.pick("widgets.k8s.io", "example.kubernetes.io").(string)
		crdSpecOf(d)["group"] = grp
		d["metadata"].(node)["name"] = pluralOf(d) + "." + grp
		if g.chance(0.6) {
			d["metadata"].(node)["annotations"] = node{"api-approved.kubernetes.io": g.pick("https://github.com/kubernetes/enhancements/pull/1111", "unapproved, experimental", "yes", "").(string)}
		}
	},
	// names
	func(g *crdDefGen, d node) {
		names := crdSpecOf(d)["names"].(node)
		switch g.r.IntN(7) {
		case 0:
			if p, ok := names["plural"].(string); ok {
				names["plural"] = strings.ToUpper(p[:1]) + p[1:]
			}
		case 1:
			names["singular"] = g.pick("Widget", "my_widget", "1widget").(string)
		case 2:
			names["kind"] = g.pick("1Widget", "Wid-get", "widget.x").(string)
		case 3:
			names["listKind"] = names["kind"]
		case 4:
			names["shortNames"] = []any{g.pick("WG", "w_g", "2w").(string)}
		case 5:
			names["categories"] = []any{"all", g.pick("My Category", "Example").(string)}
		default:
			delete(names, g.pick("plural", "kind").(string))
		}
	},
	// scope
	func(g *crdDefGen, d node) { crdSpecOf(d)["scope"] = g.pick("namespaced", "", "Global").(string) },
	// versions
	func(g *crdDefGen, d node) {
		v := g.someVersion(d)
		delete(v, "schema")
	},
	func(g *crdDefGen, d node) {
		for _, v := range crdVersions(d) {
			delete(v.(node), "schema")
		}
	},
	func(g *crdDefGen, d node) {
		if g.chance(0.5) {
			for _, v := range crdVersions(d) {
				v.(node)["storage"] = false
			}
			return
		}
		vs := crdVersions(d)
		if len(vs) == 0 {
			return
		}
		v2 := node{"name": "v2", "served": true, "storage": true}
		if sch, ok := vs[0].(node)["schema"].(node); ok {
			v2["schema"] = deepCopy(sch)
		}
		crdSpecOf(d)["versions"] = append(vs, v2)
	},
	func(g *crdDefGen, d node) {
		g.someVersion(d)["name"] = g.pick("V1", "1beta1", "v1_beta", "v1.0", "").(string)
	},
	func(g *crdDefGen, d node) {
		vs := crdVersions(d)
		if len(vs) == 0 {
			return
		}
		dup := deepCopy(vs[0].(node))
		dup["storage"] = g.chance(0.5) // two storage versions of one name too
		crdSpecOf(d)["versions"] = append(vs, dup)
	},
	func(g *crdDefGen, d node) { crdSpecOf(d)["versions"] = []any{} },
	func(g *crdDefGen, d node) {
		v := g.someVersion(d)
		switch g.r.IntN(3) {
		case 0:
			v["deprecationWarning"] = "do not use"
			v["deprecated"] = false
		case 1:
			v["deprecated"] = true
			v["deprecationWarning"] = ""
		default:
			v["deprecated"] = true
			v["deprecationWarning"] = strings.Repeat("x", 257)
		}
	},
	// subresources
	func(g *crdDefGen, d node) {
		sc := node{"specReplicasPath": g.pick(".spec.replicas", "spec.replicas", ".status.replicas", "", ".spec").(string),
			"statusReplicasPath": g.pick(".status.replicas", ".spec.replicas", "status.replicas", "").(string)}
		if g.chance(0.5) {
			sc["labelSelectorPath"] = g.pick(".metadata.labels", ".status.selector", "selector").(string)
		}
		for _, v := range crdVersions(d) {
			sub, _ := v.(node)["subresources"].(node)
			if sub == nil {
				sub = node{}
				v.(node)["subresources"] = sub
			}
			sub["status"] = node{}
			sub["scale"] = sc
		}
	},
	func(g *crdDefGen, d node) {
		// the status subresource with a root field only allowed without it
		allSchemas(d, func(r node) {
			switch g.r.IntN(3) {
			case 0:
				r["minProperties"] = 1
			case 1:
				r["type"] = "array"
				r["items"] = node{"type": "string"}
			default:
				r["x-kubernetes-preserve-unknown-fields"] = true
			}
		})
		for _, v := range crdVersions(d) {
			v.(node)["subresources"] = node{"status": node{}}
		}
	},
	// printer columns
	func(g *crdDefGen, d node) {
		col := node{"name": "Color", "type": "string", "jsonPath": ".spec.color"}
		switch g.r.IntN(6) {
		case 0:
			col["type"] = g.pick("int", "String", "object").(string)
		case 1:
			delete(col, "type")
		case 2:
			col["format"] = g.pick("uint", "email", "int16").(string)
		case 3:
			col["jsonPath"] = g.pick("spec.color", "{.spec.color}").(string)
		case 4:
			delete(col, "jsonPath")
		default:
			delete(col, "name")
		}
		v := g.someVersion(d)
		cols, _ := v["additionalPrinterColumns"].([]any)
		v["additionalPrinterColumns"] = append(cols, col)
	},
	// selectable fields
	func(g *crdDefGen, d node) {
		var fields []any
		switch g.r.IntN(6) {
		case 0:
			fields = []any{node{"jsonPath": g.pick(".spec.missing", ".spec", ".status").(string)}}
		case 1:
			fields = []any{node{"jsonPath": ".metadata.name"}}
		case 2:
			fields = []any{node{"jsonPath": ".spec['color']"}}
		case 3:
			fields = []any{node{"jsonPath": ".spec.color"}, node{"jsonPath": ".spec.color"}}
		case 4:
			fields = []any{node{"jsonPath": ""}, node{"jsonPath": "spec.color"}}
		default:
			for i := 0; i < 9; i++ {
				name := fmt.Sprintf("f%d", i)
				allSpecProps(d, func(p node) { p[name] = node{"type": "string"} })
				fields = append(fields, node{"jsonPath": ".spec." + name})
			}
		}
		g.someVersion(d)["selectableFields"] = fields
	},
	// conversion
	func(g *crdDefGen, d node) {
		spec := crdSpecOf(d)
		switch g.r.IntN(8) {
		case 0:
			spec["conversion"] = node{"strategy": "Webhook"}
		case 1:
			spec["conversion"] = node{"strategy": "Webhook", "webhook": node{"conversionReviewVersions": []any{"v1"}}}
		case 2:
			spec["conversion"] = node{"strategy": "Webhook", "webhook": node{"conversionReviewVersions": []any{"v1"},
				"clientConfig": node{"url": g.pick("http://conv.example.com/convert", "https://conv.example.com/convert?x=1", "https://user@conv/convert").(string)}}}
		case 3:
			spec["conversion"] = node{"strategy": "Webhook", "webhook": node{"conversionReviewVersions": []any{"v1"},
				"clientConfig": node{"url": "https://conv.example.com", "service": node{"name": "conv", "namespace": "system"}}}}
		case 4:
			svc := node{"name": "conv", "namespace": "system"}
			delete(svc, g.pick("name", "namespace").(string))
			if g.chance(0.5) {
				svc["port"] = g.pick(0, 70000).(int)
			}
			if g.chance(0.5) {
				svc["path"] = g.pick("convert", "/Convert", "//").(string)
			}
			spec["conversion"] = node{"strategy": "Webhook", "webhook": node{"conversionReviewVersions": []any{"v1"}, "clientConfig": node{"service": svc}}}
		case 5:
			spec["conversion"] = node{"strategy": "Webhook", "webhook": node{"conversionReviewVersions": g.pick([]any{"v2"}, []any{"v1", "v1"}, []any{}, []any{"V1", "v1beta1"}).(any),
				"clientConfig": node{"service": node{"name": "conv", "namespace": "system"}}}}
		case 6:
			spec["conversion"] = node{"strategy": g.pick("Webhok", "none", "").(string)}
		default:
			spec["conversion"] = node{"strategy": "None", "webhook": node{"conversionReviewVersions": []any{"v1"}}}
		}
	},
	func(g *crdDefGen, d node) {
		crdSpecOf(d)["preserveUnknownFields"] = true
		if g.chance(0.5) {
			for _, v := range crdVersions(d) {
				delete(v.(node), "schema")
			}
		}
	},
	// schemas: types
	func(g *crdDefGen, d node) {
		allSchemas(d, func(r node) { delete(r, "type") })
	},
	func(g *crdDefGen, d node) {
		props := g.specProps(d)
		if props == nil {
			return
		}
		props["extra"] = node{"properties": node{"a": node{"type": "string"}}}
	},
	func(g *crdDefGen, d node) {
		allSpecProps(d, func(p node) {
			p["list"] = g.pick(node{"type": "array"}, node{"type": "array", "items": node{}}, node{"type": "strin"}, node{"type": "null"}).(node)
		})
	},
	func(g *crdDefGen, d node) {
		allSchemas(d, func(r node) {
			switch g.r.IntN(4) {
			case 0:
				r["type"] = "array"
			case 1:
				r["nullable"] = true
			case 2:
				r["additionalProperties"] = node{"type": "string"}
			default:
				r["properties"].(node)["metadata"] = node{"type": "object", "properties": node{"name": node{"type": "string"}, "labels": node{"type": "object"}}}
			}
		})
	},
	// schemas: forbidden fields and non-structural parts
	func(g *crdDefGen, d node) {
		allSpecProps(d, func(p node) {
			switch g.r.IntN(9) {
			case 0:
				p["ref"] = node{"$ref": "#/definitions/x"}
			case 1:
				p["uniq"] = node{"type": "array", "items": node{"type": "string"}, "uniqueItems": true}
			case 2:
				p["mix"] = node{"type": "object", "properties": node{"a": node{"type": "string"}}, "additionalProperties": node{"type": "string"}}
			case 3:
				p["pat"] = node{"type": "string", "pattern": g.pick("[a-z", "(?<name>x)", "a{2,1}").(string)}
			case 4:
				p["one"] = node{"type": "string", "anyOf": []any{node{"type": "string"}, node{"maxLength": 3}}}
			case 5:
				p["one"] = node{"type": "object", "properties": node{"a": node{"type": "string"}}, "allOf": []any{node{"properties": node{"b": node{"maxLength": 2}}}}}
			case 6:
				p["ios"] = node{"x-kubernetes-int-or-string": true, "anyOf": []any{node{"type": "integer"}, node{"type": "string"}}}
			case 7:
				p["ios"] = node{"x-kubernetes-int-or-string": true, "x-kubernetes-preserve-unknown-fields": true}
			default:
				p["desc"] = node{"type": "string", "oneOf": []any{node{"description": "x", "pattern": "^a"}, node{"nullable": true}}}
			}
		})
	},
	func(g *crdDefGen, d node) {
		allSpecProps(d, func(p node) {
			switch g.r.IntN(4) {
			case 0:
				p["keep"] = node{"type": "object", "x-kubernetes-preserve-unknown-fields": false}
			case 1:
				p["emb"] = node{"x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}
			case 2:
				p["emb"] = node{"type": "object", "x-kubernetes-embedded-resource": true}
			default:
				p["emb"] = node{"type": "object", "x-kubernetes-embedded-resource": true, "properties": node{"kind": node{"type": "integer"}, "metadata": node{"type": "string"}}}
			}
		})
	},
	func(g *crdDefGen, d node) {
		// value validations at the root naming fields the schema lacks
		allSchemas(d, func(r node) {
			r[g.pick("allOf", "anyOf", "oneOf").(string)] = []any{node{"properties": node{g.pick("other", "spec").(string): node{"maxLength": 2}}}}
			if g.chance(0.3) {
				r["not"] = node{"items": node{"maxLength": 1}}
			}
		})
	},
	func(g *crdDefGen, d node) {
		// what JSON Schema has and CRDs do not
		allSpecProps(d, func(p node) {
			switch g.r.IntN(10) {
			case 0:
				p["tup"] = node{"type": "array", "items": []any{node{"type": "string"}, node{"type": "integer"}}}
			case 1:
				p["defs"] = node{"type": "object", "definitions": node{"a": node{"type": "string"}}}
			case 2:
				p["deps"] = node{"type": "object", "properties": node{"a": node{"type": "string"}}, "dependencies": node{"a": []any{"b"}}}
			case 3:
				p["pp"] = node{"type": "object", "patternProperties": node{"^x-": node{"type": "string"}}}
			case 4:
				p["ai"] = node{"type": "array", "items": node{"type": "string"}, "additionalItems": false}
			case 5:
				p["idd"] = node{"type": "string", "id": "urn:x"}
			case 6:
				p["sch"] = node{"type": "string", "$schema": "http://json-schema.org/draft-04/schema#"}
			case 7:
				p["ios"] = node{"x-kubernetes-int-or-string": true, "allOf": []any{node{"anyOf": []any{node{"type": "integer"}, node{"type": "string"}}}, node{"maxLength": 3}}}
			case 8:
				p["labels"] = node{"type": "object", "additionalProperties": node{"type": "string"}}
				g.someVersion(d)["selectableFields"] = []any{node{"jsonPath": g.pick(".spec.labels.app", ".spec.labels['app']", ".spec.labels").(string)}}
			default:
				p["nest"] = node{"type": "object", "properties": node{"a": node{"type": "string"}}, "anyOf": []any{node{"properties": node{"metadata": node{"maxLength": 3}}}}}
			}
		})
	},
	func(g *crdDefGen, d node) {
		// resource metadata: embedded resources and defaults inside it
		allSchemas(d, func(r node) {
			props := r["properties"].(node)
			switch g.r.IntN(4) {
			case 0:
				props["metadata"] = node{"type": "object", "x-kubernetes-embedded-resource": true}
			case 1:
				props["metadata"] = node{"type": "object", "additionalProperties": node{"type": "string", "default": "x"}}
			case 2:
				spec, _ := props["spec"].(node)
				if spec == nil {
					return
				}
				sp, _ := spec["properties"].(node)
				if sp == nil {
					return
				}
				sp["template"] = node{"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true,
					"properties": node{"metadata": node{"type": "object", "properties": node{"labels": node{"type": "object", "x-kubernetes-embedded-resource": true}}}}}
			default:
				props["kind"] = node{"type": "string", "default": "Widget"}
			}
		})
	},
	func(g *crdDefGen, d node) {
		// validation rules whose fieldPath is right or wrong
		allSchemas(d, func(r node) {
			spec, _ := r["properties"].(node)["spec"].(node)
			if spec == nil {
				return
			}
			spec["x-kubernetes-validations"] = []any{node{"rule": "self.replicas >= 0", "fieldPath": g.pick(".replicas", ".color", "['color']", ".replicas.x", "..", ".color[0]").(string),
				"reason": g.pick("FieldValueInvalid", "FieldValueForbidden").(string)}}
		})
	},
	func(g *crdDefGen, d node) {
		// one version differs from the others: its subresources, columns or
		// schema stay per version instead of moving to the spec
		vs := crdVersions(d)
		if len(vs) < 2 {
			return
		}
		v := vs[len(vs)-1].(node)
		switch g.r.IntN(3) {
		case 0:
			v["subresources"] = node{"status": node{}}
			if s, ok := v["schema"].(node); ok {
				if r, ok := s["openAPIV3Schema"].(node); ok {
					r["maxProperties"] = 5
				}
			}
		case 1:
			v["additionalPrinterColumns"] = []any{node{"name": "Phase", "type": g.pick("string", "enum").(string), "jsonPath": g.pick(".status.phase", "status.phase").(string)}}
		default:
			if s, ok := v["schema"].(node); ok {
				if r, ok := s["openAPIV3Schema"].(node); ok {
					r["properties"].(node)["extra"] = node{"type": g.pick("string", "").(string)}
				}
			}
			v["selectableFields"] = []any{node{"jsonPath": g.pick(".extra", ".spec.color").(string)}}
		}
	},
	// list and map types
	func(g *crdDefGen, d node) {
		allSpecProps(d, func(p node) {
			switch g.r.IntN(8) {
			case 0:
				p["lt"] = node{"type": "object", "x-kubernetes-list-type": "set"}
			case 1:
				p["lt"] = node{"type": "array", "items": node{"type": "object", "properties": node{"k": node{"type": "string"}}}, "x-kubernetes-list-type": "map"}
			case 2:
				p["lt"] = node{"type": "array", "items": node{"type": "object", "properties": node{"k": node{"type": "string"}}, "required": []any{"k"}},
					"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{g.pick("name", "k").(string), "k"}}
			case 3:
				p["lt"] = node{"type": "array", "items": node{"type": "string"}, "x-kubernetes-list-map-keys": []any{"k"}}
			case 4:
				p["lt"] = node{"type": "array", "items": node{"type": "object", "properties": node{"k": node{"type": "string"}}}, "x-kubernetes-list-type": "set"}
			case 5:
				p["lt"] = node{"type": "array", "items": node{"type": "string"}, "x-kubernetes-list-type": g.pick("list", "Set").(string)}
			case 6:
				p["mt"] = node{"type": g.pick("string", "").(string), "x-kubernetes-map-type": g.pick("atomic", "granular", "shallow").(string)}
			default:
				p["lt"] = node{"type": "array", "items": node{"type": "object", "nullable": true, "properties": node{"k": node{"type": "object"}}},
					"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{"k"}}
			}
		})
	},
	// defaults
	func(g *crdDefGen, d node) {
		allSpecProps(d, func(p node) {
			switch g.r.IntN(6) {
			case 0:
				p["replicas"] = node{"type": "integer", "default": g.pick("one", 1.5, true).(any)}
			case 1:
				p["color"] = node{"type": "string", "default": g.pick(3, false).(any)}
			case 2:
				p["opts"] = node{"type": "object", "properties": node{"a": node{"type": "string"}}, "default": node{"a": "x", "b": "y"}}
			case 3:
				p["opts"] = node{"type": "object", "properties": node{"a": node{"type": "integer", "maximum": 5}}, "default": node{"a": 9}}
			case 4:
				p["mode"] = node{"type": "string", "enum": []any{"Fast", "Slow"}, "default": "Medium"}
			default:
				p["tags"] = node{"type": "array", "items": node{"type": "string"}, "maxItems": 1, "default": []any{"a", "b"}}
			}
		})
	},
	func(g *crdDefGen, d node) {
		allSchemas(d, func(r node) {
			r["properties"].(node)["metadata"] = node{"type": "object", "default": node{"name": "x"}}
		})
	},
	// x-kubernetes-validations, statically
	func(g *crdDefGen, d node) {
		allSchemas(d, func(r node) {
			spec, _ := r["properties"].(node)["spec"].(node)
			if spec == nil {
				return
			}
			rule := node{"rule": "self.replicas >= 0"}
			props, _ := spec["properties"].(node)
			if props == nil {
				props = node{}
				spec["properties"] = props
			}
			switch g.r.IntN(12) {
			case 6:
				// compiled when the CRD is validated (VAL-95)
				rule["rule"] = g.pick("self.replicas > \"3\"", "self.nosuch == 1", "self.replicas >= ", "size(self.color) > 0").(string)
			case 7:
				rule["messageExpression"] = g.pick("'replicas: ' + string(self.replicas)", "string(self.replicas)", "'bad: ' + self.nosuch", "'x' + ").(string)
			case 8:
				rule["rule"] = g.pick("self == oldSelf", "!has(oldSelf.replicas) || self.replicas >= oldSelf.replicas").(string)
				if g.r.IntN(2) == 0 {
					rule["optionalOldSelf"] = true
				}
			case 9:
				rule["optionalOldSelf"] = g.r.IntN(2) == 0
			case 10:
				// a rule on the items of an unbounded list: its cost, and
				// oldSelf where items cannot be paired
				props["tags"] = node{"type": "array", "items": node{"type": "string",
					"x-kubernetes-validations": []any{node{"rule": g.pick("self == oldSelf", "self.size() < 10", "self.matches('^[a-z]+$')").(string)}}}}
			case 11:
				props["tags"] = node{"type": "array", "maxItems": 5, "items": node{"type": "string", "maxLength": 10}}
				rule["rule"] = g.pick("self.tags.all(x, self.tags.all(y, x == y || x != y))", "self.tags.all(t, t.size() < 5)").(string)
			case 0:
				rule["rule"] = " "
			case 1:
				rule["message"] = "bad\nmessage"
			case 2:
				rule["rule"] = "self.replicas >= 0 &&\n true"
			case 3:
				rule["reason"] = g.pick("FieldValueBad", "Invalid").(string)
			case 4:
				rule["fieldPath"] = g.pick(".spec.nothere", ".missing", " ").(string)
			default:
				rule["messageExpression"] = "  "
			}
			spec["x-kubernetes-validations"] = []any{rule}
		})
	},
}

var crdDefRules = []string{
	`must be spec.names.plural+"."+spec.group`,
	"metadata.name: Required value: name or generateName is required",
	"spec.group: Invalid value",
	"should be a domain with at least one dot",
	"spec.group: Required value",
	`protected groups must have approval annotation "api-approved.kubernetes.io"`,
	"spec.names.plural: Invalid value",
	"spec.names.singular: Invalid value",
	"may have mixed case, but should otherwise match",
	"kind and listKind may not be the same",
	"spec.names.shortNames[0]",
	"spec.names.categories[1]",
	"spec.names.kind: Required value",
	"spec.scope: Unsupported value",
	"spec.scope: Required value",
	"schema.openAPIV3Schema: Required value",
	"must have exactly one version marked as storage version",
	"must have the storage version",
	"must have at least one stored version",
	".name: Invalid value",
	"spec.version: Invalid value",
	"must contain unique version names",
	"deprecationWarning: Invalid value",
	"scale.specReplicasPath",
	"should be a json path under .status",
	"should be a json path under either .spec or .status",
	"must be a simple json path starting with .",
	`only "object" is allowed as the type at the root of the schema if the status subresource is enabled`,
	"fields are allowed at the root of the schema if the status subresource is enabled",
	"additionalPrinterColumns[",
	".type: Required value: must be one of boolean,date,integer,number,string",
	".format: Invalid value",
	".JSONPath: Required value",
	"selectableFields[0].jsonPath: Invalid value",
	"must not point to fields in metadata",
	"array notation is not allowed",
	"must point to a field of type string, boolean or integer",
	"jsonPath: Duplicate value",
	"Too many: 9: must have at most 8 items",
	"webhookClientConfig: Required value: required when strategy is set to Webhook",
	"exactly one of url or service is required",
	"'https' is the only allowed URL scheme",
	"conversionReviewVersions: Required value",
	"must include at least one of v1, v1beta1",
	"duplicate version",
	"spec.conversion.strategy: Unsupported value",
	"should not be set when strategy is not set to Webhook",
	"port is not valid",
	"must be None if spec.preserveUnknownFields is true",
	"cannot set to true, set x-kubernetes-preserve-unknown-fields to true",
	"must not be empty at the root",
	"must not be empty for specified object fields",
	"must not be empty for specified array items",
	"items: Required value: must be specified",
	`Unsupported value: "strin"`,
	"type cannot be set to null",
	"must be object at the root",
	"nullable cannot be true at the root",
	"additionalProperties: Forbidden: must not be used at the root",
	"must not specify anything other than name and generateName",
	"$ref is not supported",
	"uniqueItems cannot be set to true",
	"additionalProperties and properties are mutual exclusive",
	"must be a valid regular expression",
	"must be empty to be structural",
	"because it is defined in",
	"must be false if x-kubernetes-int-or-string is true",
	"must be true or undefined",
	"must be object if x-kubernetes-embedded-resource is true",
	"must not be empty if x-kubernetes-embedded-resource is true",
	".type: Invalid value: \"integer\": must be string",
	`metadata].type: Invalid value: "string": must be object`,
	"must be array if x-kubernetes-list-type is specified",
	"must not be empty if x-kubernetes-list-type is map",
	"entries must all be names of item properties",
	"must not contain duplicate entries",
	"must be map if x-kubernetes-list-map-keys is non-empty",
	"must be atomic as item of a list with x-kubernetes-list-type=set",
	"x-kubernetes-list-type: Unsupported value",
	"x-kubernetes-map-type: Unsupported value",
	"must be object if x-kubernetes-map-type is specified",
	"cannot be nullable when x-kubernetes-list-type is map",
	"must be a scalar type if parent array's x-kubernetes-list-type is map",
	"so it must have a default or be a required property",
	"must be false in order to use defaults in the schema",
	"in body must be of type",
	"must not have unknown fields",
	"should be less than or equal to 5",
	"Unsupported value: \"Medium\"",
	"must have at most 1 item",
	"must not be set in top-level metadata",
	"rule is not specified",
	"must not contain line breaks",
	"message must be specified if rule contains line breaks",
	"reason: Unsupported value",
	"fieldPath: Invalid value",
	"messageExpression must be non-empty if specified",
	"items must be a schema object and not an array",
	"definitions is not supported",
	"dependencies is not supported",
	"patternProperties is not supported",
	"additionalItems is not supported",
	"id is not supported",
	"OpenAPIV3Schema 'schema' is not supported",
	"must not be used inside of resource meta",
	"inside additionalProperties applying to object metadata",
	"must not be specified in a nested context",
	"must be a valid path",
	"must not be set in top-level kind",
	"compilation failed",
	"estimated rule cost exceeds budget",
	"estimated messageExpression cost exceeds budget",
	"contributed to estimated rule cost total exceeding cost limit",
	"oldSelf cannot be used on the uncorrelatable portion of the schema",
	"may not be set if oldSelf is not used in rule",
}

// TestCRDValidationParity compares limitcheck's create path for
// CustomResourceDefinitions (VAL-93..VAL-99) with apiextensions-apiserver's
// (v1 decoding and defaults, conversion, the strategy's PrepareForCreate and
// Validate, the 422) on random, mostly realistic CRDs with mistakes mixed in.
// Some x-kubernetes-validations rules and message expressions generated do
// not compile, cost too much or use oldSelf where they may not: limitcheck
// compiles them with kube-apiserver's compiler in its helper (VAL-95).
func TestCRDValidationParity(t *testing.T) {
	g := &crdDefGen{&crdGen{r: rand.New(rand.NewPCG(*flagCRDDefSeed, *flagCRDDefSeed^0x2545f4914f6cdd1d))}}
	p := newParity(t, *flagCRDDefSeed)
	for i := 0; i < *flagCRDDefCases; i++ {
		d := g.valid()
		n := 0
		switch x := g.r.Float64(); {
		case x < 0.2:
		case x < 0.7:
			n = 1
		case x < 0.9:
			n = 2
		default:
			n = 3
		}
		for ; n > 0; n-- {
			crdMistakes[g.r.IntN(len(crdMistakes))](g, d)
		}
		doc, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		want, panicked, err := upstreamCRDCreate(doc)
		if panicked {
			// selectableFields with a schema that is not structural: 1.36
			// dereferences the schema it could not build (VAL-96).
			p.stats["upstream panics (skipped)"]++
			continue
		}
		if err != nil {
			t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
		}
		got, parts, err := mineClusterCreate(doc, "CustomResourceDefinition")
		if err != nil {
			t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
		}
		// Upstream visits a schema's properties in Go map order: errors of
		// two properties may come in either order.
		// CEL names the type of a rule's self with a number of its own
		// (selfType440395299), another on every compile.
		p.compare(i, "CustomResourceDefinition", doc, want, got, "", crdDefRules, func(w, g string) bool {
			norm := make([]string, len(parts))
			for j, part := range parts {
				norm[j] = celSelfType.ReplaceAllString(part, "selfType")
			}
			return samePermutation(celSelfType.ReplaceAllString(w, "selfType"), celSelfType.ReplaceAllString(g, "selfType"), norm)
		})
	}
	p.finish("CustomResourceDefinitions", *flagCRDDefCases, []string{""}, map[string][]string{"": crdDefRules})
}

var celSelfType = regexp.MustCompile(`selfType[0-9]+`)

// upstreamCRDCreate is upstreamClusterCreate for a CRD, reporting a panic of
// the upstream code instead of crashing the test.
func upstreamCRDCreate(doc []byte) (out rqOutcome, panicked bool, err error) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	out, err = upstreamClusterCreate(doc, "CustomResourceDefinition")
	return out, false, err
}
