package conformance

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/kubernetes/fake"
	resourceinternal "k8s.io/kubernetes/pkg/apis/resource"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaim"
	"k8s.io/kubernetes/pkg/registry/resource/resourceclaimtemplate"

	"github.com/limitcheck/limitcheck/internal/eval/features"
)

var (
	flagDRACases = flag.Int("dra-cases", 6000, "number of random ResourceClaims, ResourceClaimTemplates and DeviceClasses")
	flagDRASeed  = flag.Uint64("dra-seed", 1, "DRA generator seed")
)

// draNamespaces is what the claims' admin-access check reads: the namespace
// of every generated claim exists, without labels (as limitcheck takes a
// namespace the input does not create to be).
func draNamespaces() *fake.Clientset {
	return fake.NewClientset(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ns1"}})
}

// upstreamDRACreate runs kube-apiserver's code on one resource.k8s.io/v1
// ResourceClaim or ResourceClaimTemplate: decode, defaulting, conversion to the
// internal type, name generation, system fields and rest.BeforeCreate with
// the real strategy (admin-access check included).
func upstreamDRACreate(doc []byte, kind string, ns *fake.Clientset) (rqOutcome, error) {
	var ext, internal runtime.Object
	var strategy rest.RESTCreateStrategy
	resource := "resourceclaims"
	switch kind {
	case "ResourceClaim":
		ext, internal = &resourcev1.ResourceClaim{}, &resourceinternal.ResourceClaim{}
		strategy = resourceclaim.NewStrategy(ns.CoreV1().Namespaces(), nil)
	case "ResourceClaimTemplate":
		ext, internal = &resourcev1.ResourceClaimTemplate{}, &resourceinternal.ResourceClaimTemplate{}
		strategy, resource = resourceclaimtemplate.NewStrategy(ns.CoreV1().Namespaces()), "resourceclaimtemplates"
	default:
		return rqOutcome{}, fmt.Errorf("kind %s", kind)
	}
	return upstreamTypedCreate(doc, ext, internal, strategy, nil, "resource.k8s.io/v1", resource, "ns1")
}

// mineDRACreate admits the same document on a fresh engine, decoded as the
// loader decodes it.
func mineDRACreate(doc []byte, kind string) (rqOutcome, error) {
	out, _, err := mineTypedCreate(doc, "resource.k8s.io/v1", kind, "ns1", features.Default())
	return out, err
}

type draGen struct{ epGen }

func (g *draGen) meta(i int, prefix string) map[string]any {
	m := map[string]any{}
	switch {
	case g.chance(0.88):
		m["name"] = fmt.Sprintf("%s-%d", prefix, i)
	case g.chance(0.5):
		m["name"] = g.pick("Gpu_Claim", "a..b", strings.Repeat("a", 254)).(string)
	default:
		m["generateName"] = g.pick(prefix+"-", "Bad_").(string)
	}
	if g.chance(0.05) {
		m["labels"] = map[string]any{g.pick("app", "bad key!").(string): g.pick("web", "-x-").(string)}
	}
	return m
}

func (g *draGen) requestName() string {
	return g.pick("gpu", "gpu", "nic", "tpu", "GPU", "", "a_b", strings.Repeat("r", 64)).(string)
}

func (g *draGen) selectors() []any {
	return g.n(2, func() any {
		switch {
		case g.chance(0.8):
			// Valid ones, and the mistakes the CEL compiler refuses (VAL-35):
			// syntax, a name not declared, a type that is not bool, a cost
			// over the limit.
			return map[string]any{"cel": map[string]any{"expression": g.pick(
				`device.driver == "gpu.example.com"`,
				`device.attributes["gpu.example.com"].model == "a100"`,
				`device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0`,
				`device.driver = "gpu.example.com"`,
				`dev.driver == "gpu.example.com"`,
				`device.driver`,
				`device.capacity["gpu.example.com"].memory >= "40Gi"`,
				`device.attributes.all(d, device.attributes[d].all(a, device.attributes.all(e, device.attributes[e].all(b, true))))`,
				`  `).(string)}}
		case g.chance(0.5):
			return map[string]any{}
		default:
			return map[string]any{"cel": map[string]any{"expression": `device.driver == "` + strings.Repeat("x", 10240) + `"`}}
		}
	})
}

func (g *draGen) tolerations() []any {
	return g.n(2, func() any {
		t := map[string]any{}
		if g.chance(0.8) {
			t["key"] = g.pick("gpu.example.com/unhealthy", "maintenance", "bad key!", "a/b/c").(string)
		}
		if g.chance(0.8) {
			t["operator"] = g.pick("Exists", "Equal", "equal", "").(string)
		}
		if g.chance(0.5) {
			t["value"] = g.pick("true", "", "-bad-", strings.Repeat("v", 64)).(string)
		}
		if g.chance(0.5) {
			t["effect"] = g.pick("NoSchedule", "NoExecute", "None", "PreferNoSchedule", "").(string)
		}
		return t
	})
}

// body is an exact request or a subrequest.
func (g *draGen) body(r map[string]any) map[string]any {
	if g.chance(0.93) {
		r["deviceClassName"] = g.pick("gpu.example.com", "gpu.example.com", "nic", "", "Big_Class").(string)
	}
	if g.chance(0.4) {
		r["allocationMode"] = g.pick("ExactCount", "All", "All", "Some").(string)
	}
	if g.chance(0.4) {
		r["count"] = g.pick(1, 2, 0, -1).(int)
	}
	if g.chance(0.3) {
		r["selectors"] = g.selectors()
	}
	if g.chance(0.15) {
		r["tolerations"] = g.tolerations()
	}
	return r
}

func (g *draGen) request(i int) map[string]any {
	r := map[string]any{"name": g.requestName()}
	if g.chance(0.6) {
		r["name"] = fmt.Sprintf("r%d", i)
	}
	ex := g.chance(0.75)
	fa := !ex || g.chance(0.05)
	if g.chance(0.03) {
		ex, fa = false, false
	}
	if ex {
		x := g.body(map[string]any{})
		if g.chance(0.05) {
			x["adminAccess"] = g.chance(0.8)
		}
		r["exactly"] = x
	}
	if fa {
		n := 1 + g.r.IntN(3)
		if g.chance(0.05) {
			n = 9
		}
		subs := []any{}
		for j := range n {
			s := g.body(map[string]any{"name": fmt.Sprintf("s%d", j)})
			if g.chance(0.1) {
				s["name"] = g.pick("s0", "S1", "").(string)
			}
			subs = append(subs, s)
		}
		r["firstAvailable"] = subs
	}
	return r
}

func (g *draGen) ref() string {
	return g.pick("r0", "r0", "r1", "r0/s0", "r1/s1", "gpu", "nope", "r0/s9", "a/b/c", "R0", "r0/").(string)
}

func (g *draGen) opaque() map[string]any {
	if g.chance(0.1) {
		return map[string]any{}
	}
	o := map[string]any{}
	if g.chance(0.93) {
		o["driver"] = g.pick("gpu.example.com", "gpu.example.com", "", "Bad_Driver", strings.Repeat("d", 64)+".com").(string)
	}
	if g.chance(0.93) {
		o["parameters"] = g.pick(map[string]any{"sharing": "timeSlicing"}, map[string]any{"a": 1}, []any{1, 2}, "text", 5,
			map[string]any{"blob": strings.Repeat("p", 10300)}).(any)
	}
	return map[string]any{"opaque": o}
}

func (g *draGen) devices() map[string]any {
	d := map[string]any{}
	n := g.r.IntN(3)
	if g.chance(0.05) {
		n = 33
	}
	reqs := []any{}
	for i := range n {
		reqs = append(reqs, g.request(i))
	}
	if n > 0 || g.chance(0.5) {
		d["requests"] = reqs
	}
	if g.chance(0.3) {
		d["constraints"] = g.n(2, func() any {
			c := map[string]any{}
			if g.chance(0.7) {
				c["requests"] = g.n(2, func() any { return g.ref() })
			}
			switch {
			case g.chance(0.6):
				c["matchAttribute"] = g.pick("gpu.example.com/model", "model", "/model", "gpu.example.com/", "Bad_Domain/model",
					"gpu.example.com/"+strings.Repeat("m", 33), "gpu.example.com/bad-name", "a/b/c").(string)
			case g.chance(0.6):
				c["distinctAttribute"] = g.pick("gpu.example.com/uuid", "uuid").(string)
			}
			return c
		})
	}
	if g.chance(0.3) {
		d["config"] = g.n(2, func() any {
			c := g.opaque()
			if g.chance(0.6) {
				c["requests"] = g.n(2, func() any { return g.ref() })
			}
			return c
		})
	}
	return d
}

func (g *draGen) claim(i int) map[string]any {
	return map[string]any{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": g.meta(i, "claim"),
		"spec": map[string]any{"devices": g.devices()}}
}

func (g *draGen) template(i int) map[string]any {
	spec := map[string]any{"spec": map[string]any{"devices": g.devices()}}
	if g.chance(0.3) {
		m := map[string]any{}
		switch g.r.IntN(4) {
		case 0:
			m["labels"] = map[string]any{g.pick("app", "bad key!").(string): "gpu"}
		case 1:
			m["annotations"] = map[string]any{g.pick("note", "Bad Key").(string): "x"}
		case 2:
			m["name"] = "fixed"
		default:
			m["namespace"] = "other"
		}
		spec["metadata"] = m
	}
	return map[string]any{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": g.meta(i, "tpl"), "spec": spec}
}

func (g *draGen) class(i int) map[string]any {
	spec := map[string]any{}
	if g.chance(0.5) {
		spec["selectors"] = g.selectors()
	}
	if g.chance(0.3) {
		spec["config"] = g.n(2, func() any { return g.opaque() })
	}
	if g.chance(0.3) {
		spec["extendedResourceName"] = g.pick("example.com/gpu", "cpu", "requests.example.com/gpu", "kubernetes.io/gpu",
			"deviceclass.resource.kubernetes.io/gpu", "bad name").(string)
	}
	m := g.meta(i, "class")
	if n, ok := m["name"].(string); ok && g.chance(0.5) {
		m["name"] = strings.ReplaceAll(n, "-", ".") + ".example.com"
	}
	return map[string]any{"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": m, "spec": spec}
}

// draRules are messages the generated cases must reach: the rules of
// VAL-32..VAL-35.
var draRules = []string{
	"metadata.name: Invalid value: \"Gpu_Claim\"",
	".name: Invalid value: \"GPU\"",
	": Duplicate value: \"gpu\"",
	"Required value: exactly one of `exactly` or `firstAvailable` is required",
	"Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set",
	"firstAvailable: Too many: 9: must have at most 8 items",
	"requests: Too many: 33: must have at most 32 items",
	".deviceClassName: Required value",
	".deviceClassName: Invalid value: \"Big_Class\"",
	".allocationMode: Unsupported value: \"Some\": supported values: \"All\", \"ExactCount\"",
	".count: Invalid value: 2: must not be specified when allocationMode is 'All'",
	".count: Invalid value: -1: must be greater than zero",
	".cel: Required value",
	".cel.expression: Too long: may not be more than 10240 bytes",
	`.cel.expression: Invalid value: "device.driver = \"gpu.example.com\"": compilation failed: ERROR: <input>:1:15: Syntax error: token recognition error at: '= '`,
	`.cel.expression: Invalid value: "dev.driver == \"gpu.example.com\"": compilation failed: ERROR: <input>:1:1: undeclared reference to 'dev'`,
	`.cel.expression: Invalid value: "device.driver": must evaluate to bool or the unknown type, not string`,
	".cel.expression: Forbidden: too complex, exceeds cost limit",
	".operator: Unsupported value: \"equal\": supported values: \"Equal\", \"Exists\"",
	".value: Invalid value: \"true\": must be empty for operator `Exists`",
	".effect: Unsupported value: \"PreferNoSchedule\"",
	".key: Invalid value: \"bad key!\"",
	"adminAccess: Forbidden: admin access to devices requires the `resource.kubernetes.io/admin-access: true` label on the containing namespace",
	"Invalid value: \"nope\": must be the name of a request in the claim or the name of a request and a subrequest separated by '/'",
	"Invalid value: \"a/b/c\": must be the name of a request",
	"matchAttribute: Invalid value: \"model\": a fully qualified name must be a domain and a name separated by a slash",
	"matchAttribute: Invalid value: \"\": the domain must not be empty",
	"matchAttribute: Invalid value: \"\": the name must not be empty",
	"matchAttribute: Too long: may not be more than 32 bytes",
	"matchAttribute: Invalid value: \"bad-name\"",
	"Required value: exactly one of \"matchAttribute\" or \"distinctAttribute\" is required, but multiple fields are set",
	".opaque: Required value",
	".opaque.driver: Required value",
	".opaque.driver: Invalid value: \"Bad_Driver\"",
	".opaque.driver: Too long: may not be more than 63 bytes",
	".opaque.parameters: Required value",
	".opaque.parameters: Invalid value: \"<value omitted>\": must be a valid JSON object",
	".opaque.parameters: Too long: may not be more than 10240 bytes",
	"spec.metadata.name: Forbidden: cannot be set",
	"spec.metadata.labels: Invalid value: \"bad key!\"",
	"spec.extendedResourceName: Invalid value: \"cpu\": must be a valid extended resource name",
}

// TestDRAValidationParity compares limitcheck's create path for
// ResourceClaims, ResourceClaimTemplates and DeviceClasses (VAL-32..VAL-34:
// v1 defaulting, PrepareForCreate, the admin-access check, validation) with
// kube-apiserver's on random documents: verdict, HTTP status, reason and the
// whole message.
func TestDRAValidationParity(t *testing.T) {
	quietKlog(t) // upstream logs where its declarative rules differ from the hand-written ones
	g := &draGen{epGen{r: rand.New(rand.NewPCG(*flagDRASeed, *flagDRASeed^0x2d5a11ce))}}
	p := newParity(t, *flagDRASeed)
	ns := draNamespaces()
	for i := 0; i < *flagDRACases; i++ {
		var (
			kind      string
			m         map[string]any
			want, got rqOutcome
		)
		switch g.r.IntN(5) {
		case 0, 1:
			kind, m = "ResourceClaim", g.claim(i)
		case 2, 3:
			kind, m = "ResourceClaimTemplate", g.template(i)
		default:
			kind, m = "DeviceClass", g.class(i)
		}
		doc, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if kind == "DeviceClass" {
			want, err = upstreamClusterCreate(doc, kind)
			if err == nil {
				got, _, err = mineClusterCreate(doc, kind)
			}
		} else {
			want, err = upstreamDRACreate(doc, kind, ns)
			if err == nil {
				got, err = mineDRACreate(doc, kind)
			}
		}
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, doc)
		}
		p.compare(i, kind, doc, want, got, "", draRules, nil)
	}
	p.finish("ResourceClaims, ResourceClaimTemplates and DeviceClasses", *flagDRACases, []string{""}, map[string][]string{"": draRules})
}
