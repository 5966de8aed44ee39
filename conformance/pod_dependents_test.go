package conformance

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/controller/resourceclaim"
	"k8s.io/kubernetes/pkg/controller/volume/ephemeral"
	"sigs.k8s.io/yaml"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/defaults"
)

var (
	flagDepCases = flag.Int("dep-cases", 300, "number of random Pods with ephemeral volumes and resource claims")
	flagDepSeed  = flag.Uint64("dep-seed", 1, "Pod dependents generator seed")
	flagDepDebug = flag.String("dep-debug", "", "namespace whose documents to log")
)

// depGen writes a namespace's ResourceClaimTemplates and a ReplicaSet of one
// replica whose Pod has ephemeral volumes and claims from those templates (or
// from templates that do not exist, or a claim by name).
type depGen struct{ epGen }

func (g *depGen) labels(prefix string) map[string]any {
	if g.chance(0.5) {
		return nil
	}
	return map[string]any{prefix + "/part": g.pick("a", "b").(string), "tier": g.pick("scratch", "gpu").(string)}
}

func (g *depGen) templates(ns string) (docs []string, names []string) {
	for i := range g.r.IntN(3) {
		name := fmt.Sprintf("tpl-%d", i)
		meta := map[string]any{}
		if l := g.labels("example.com"); l != nil {
			meta["labels"] = l
		}
		if g.chance(0.4) {
			meta["annotations"] = map[string]any{"note": "from-template"}
		}
		req := map[string]any{"deviceClassName": g.pick("gpu.example.com", "nic.example.com").(string)}
		if g.chance(0.3) {
			req["allocationMode"] = "All"
		} else if g.chance(0.5) {
			req["count"] = 1 + g.r.IntN(3)
		}
		requests := []any{map[string]any{"name": "dev", "exactly": req}}
		if g.chance(0.3) {
			requests = []any{map[string]any{"name": "dev", "firstAvailable": []any{
				map[string]any{"name": "big", "deviceClassName": "gpu.example.com", "count": 2},
				map[string]any{"name": "small", "deviceClassName": "gpu.example.com"}}}}
		}
		doc := map[string]any{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
			"metadata": map[string]any{"name": name, "namespace": ns},
			"spec":     map[string]any{"metadata": meta, "spec": map[string]any{"devices": map[string]any{"requests": requests}}}}
		b, _ := yaml.Marshal(doc)
		docs, names = append(docs, string(b)), append(names, name)
	}
	return docs, names
}

func (g *depGen) replicaSet(ns, name string, templates []string) string {
	var volumes, claims, containerClaims []any
	for i := range g.r.IntN(3) {
		spec := map[string]any{"accessModes": []any{g.pick("ReadWriteOnce", "ReadWriteMany").(string)},
			"resources": map[string]any{"requests": map[string]any{"storage": g.pick("1Gi", "10Gi", "1500Mi").(string)}}}
		if g.chance(0.4) {
			spec["storageClassName"] = g.pick("fast", "standard").(string)
		}
		if g.chance(0.2) {
			spec["volumeMode"] = "Block"
		}
		t := map[string]any{"spec": spec}
		if l := g.labels("volume.example.com"); l != nil {
			t["metadata"] = map[string]any{"labels": l}
		}
		volumes = append(volumes, map[string]any{"name": fmt.Sprintf("%s-%d", g.pick("scratch", "cache", strings.Repeat("v", 30)).(string), i),
			"ephemeral": map[string]any{"volumeClaimTemplate": t}})
	}
	for i := range g.r.IntN(3) {
		c := map[string]any{"name": fmt.Sprintf("%s%d", g.pick("gpu", "nic", strings.Repeat("c", 40), strings.Repeat("k", 55)).(string), i)}
		switch {
		case len(templates) > 0 && g.chance(0.8):
			c["resourceClaimTemplateName"] = templates[g.r.IntN(len(templates))]
		case g.chance(0.5):
			c["resourceClaimTemplateName"] = "missing"
		default:
			c["resourceClaimName"] = "shared"
		}
		claims = append(claims, c)
		containerClaims = append(containerClaims, map[string]any{"name": c["name"]})
	}
	container := map[string]any{"name": "c", "image": "i:1"}
	if len(containerClaims) > 0 {
		container["resources"] = map[string]any{"claims": containerClaims}
	}
	podSpec := map[string]any{"containers": []any{container}}
	if len(volumes) > 0 {
		podSpec["volumes"] = volumes
	}
	if len(claims) > 0 {
		podSpec["resourceClaims"] = claims
	}
	doc := map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": map[string]any{"name": name, "namespace": ns},
		"spec": map[string]any{"replicas": 1, "selector": map[string]any{"matchLabels": map[string]any{"app": name}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": name}}, "spec": podSpec}}}
	b, _ := yaml.Marshal(doc)
	return string(b)
}

// mineYAML admits one YAML document on e (Mine).
func mineYAML(t *testing.T, e *eval.Engine, y string) eval.Result {
	t.Helper()
	doc, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Mine(e, doc)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// depKey identifies a created claim for the comparison: the PVC by name, the
// ResourceClaim by its Pod and the Pod's claim name.
func depKey(obj runtime.Object) string {
	switch o := obj.(type) {
	case *corev1.PersistentVolumeClaim:
		return "PersistentVolumeClaim " + o.Namespace + "/" + o.Name
	case *resourcev1.ResourceClaim:
		owner := ""
		if len(o.OwnerReferences) > 0 {
			owner = o.OwnerReferences[0].Name
		}
		return "ResourceClaim " + o.Namespace + "/" + owner + "/" + o.Annotations[resourcev1.PodResourceClaimAnnotation]
	}
	return fmt.Sprintf("%T", obj)
}

// TestPodDependentsParity (WL-06) runs kube-controller-manager's ephemeral
// volume and resource claim controllers on the Pods limitcheck's ReplicaSet
// controller created (as limitcheck stored them) and the templates it
// stored, and compares what they create with what limitcheck created for the
// same Pods: which objects, their names or generateNames, labels,
// annotations, owner references and, once defaulted, specs.
func TestPodDependentsParity(t *testing.T) {
	if !testing.Verbose() {
		quietKlog(t)
	}
	g := &depGen{epGen{r: rand.New(rand.NewPCG(*flagDepSeed, *flagDepSeed^0xdeb7))}}
	var stored []runtime.Object // the Pods and templates, for the controllers
	mine := map[string]runtime.Object{}
	for i := 0; i < *flagDepCases; i++ {
		ns := fmt.Sprintf("ns%d", i)
		tplDocs, tplNames := g.templates(ns)
		e := eval.New(eval.Options{DefaultNamespace: ns, OmitNamespaceObjects: true})
		for _, d := range tplDocs {
			res := mineYAML(t, e, d)
			if !res.Allowed {
				t.Fatalf("case %d: template refused: %s\n%s", i, res.Denial.Message, d)
			}
			stored = append(stored, res.Object)
		}
		rs := g.replicaSet(ns, fmt.Sprintf("rs%d", i), tplNames)
		if *flagDepDebug == ns {
			t.Logf("%s\n%s", strings.Join(tplDocs, "---\n"), rs)
		}
		res := mineYAML(t, e, rs)
		if res.Workload == nil || len(res.Workload.Created) == 0 {
			t.Fatalf("case %d: no Pod created: %+v\n%s", i, res, rs)
		}
		pod := res.Workload.Created[0] // a ReplicaSet creates its Pod first
		if pod.Kind != "Pod" || !pod.Allowed {
			t.Fatalf("case %d: Pod refused: %+v %q\n%s", i, pod.Denial, pod.Internal, rs)
		}
		p := pod.Object.DeepCopyObject().(*corev1.Pod)
		// kube-apiserver gives each Pod its own UID (the resource claim
		// controller finds a Pod's claims by it); limitcheck's owner
		// references carry its placeholder, which depDiff puts back.
		p.UID = types.UID(fmt.Sprintf("00000000-0000-0000-0000-%012d", i+1))
		stored = append(stored, p)
		for _, c := range res.Workload.Created[1:] {
			if !c.Allowed {
				t.Fatalf("case %d: %s %s refused: %s", i, c.Kind, c.Name, c.Denial.Message)
			}
			mine[depKey(c.Object)] = c.Object
		}
	}

	client := fake.NewClientset(stored...)
	generated := 0
	client.PrependReactor("create", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		// kube-apiserver's name generation, which the fake client lacks.
		if m, ok := a.(k8stesting.CreateAction).GetObject().(metav1.Object); ok && m.GetName() == "" && m.GetGenerateName() != "" {
			generated++
			m.SetName(fmt.Sprintf("%s%05d", m.GetGenerateName(), generated))
		}
		return false, nil, nil
	})
	factory := informers.NewSharedInformerFactory(client, 0)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ec, err := ephemeral.NewController(ctx, client, factory.Core().V1().Pods(), factory.Core().V1().PersistentVolumeClaims())
	if err != nil {
		t.Fatal(err)
	}
	rc, err := resourceclaim.NewController(klog.FromContext(ctx), resourceclaim.Features{AdminAccess: true, PrioritizedList: true}, client,
		factory.Core().V1().Pods(), factory.Scheduling().V1alpha2().PodGroups(), factory.Resource().V1().ResourceClaims(), factory.Resource().V1().ResourceClaimTemplates())
	if err != nil {
		t.Fatal(err)
	}
	factory.Start(ctx.Done())
	go ec.Run(ctx, 2)
	go rc.Run(ctx, 2)

	created := func() map[string]runtime.Object {
		out := map[string]runtime.Object{}
		for _, a := range client.Actions() {
			if c, ok := a.(k8stesting.CreateAction); ok {
				switch o := c.GetObject().(type) {
				case *corev1.PersistentVolumeClaim, *resourcev1.ResourceClaim:
					o = o.DeepCopyObject()
					o.(metav1.Object).SetNamespace(c.GetNamespace()) // the request's, as kube-apiserver sets it
					out[depKey(o)] = o
				}
			}
		}
		return out
	}
	upstream := created()
	for deadline := time.Now().Add(60 * time.Second); len(upstream) < len(mine) && time.Now().Before(deadline); upstream = created() {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // anything beyond what limitcheck created
	upstream = created()

	keys := map[string]bool{}
	for k := range mine {
		keys[k] = true
	}
	for k := range upstream {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	mismatches, pvcs, claims := 0, 0, 0
	for _, k := range sorted {
		m, u := mine[k], upstream[k]
		if d := depDiff(m, u); d != "" {
			mismatches++
			if mismatches <= 10 {
				t.Errorf("%s: %s", k, d)
			}
			continue
		}
		if strings.HasPrefix(k, "Persistent") {
			pvcs++
		} else {
			claims++
		}
	}
	t.Logf("seed %d: %d Pods, %d PersistentVolumeClaims and %d ResourceClaims alike, %d mismatches", *flagDepSeed, *flagDepCases, pvcs, claims, mismatches)
	if pvcs == 0 || claims == 0 {
		t.Errorf("the cases create no %s", map[bool]string{true: "PersistentVolumeClaim", false: "ResourceClaim"}[pvcs == 0])
	}
}

// depDiff says how limitcheck's stored object m and the object upstream's
// controller asked to create, u, differ ("" when alike): u is defaulted first.
func depDiff(m, u runtime.Object) string {
	switch {
	case m == nil:
		return "created by the cluster's controller, not by limitcheck"
	case u == nil:
		return "created by limitcheck, not by the cluster's controller"
	}
	u = u.DeepCopyObject()
	legacyscheme.Scheme.Default(u)
	mm, um := m.(metav1.Object), u.(metav1.Object)
	owners := um.GetOwnerReferences()
	for i := range owners {
		owners[i].UID = defaults.GeneratedUID
	}
	switch {
	case mm.GetGenerateName() != um.GetGenerateName():
		return fmt.Sprintf("generateName %q, upstream %q", mm.GetGenerateName(), um.GetGenerateName())
	case um.GetGenerateName() == "" && mm.GetName() != um.GetName():
		return fmt.Sprintf("name %q, upstream %q", mm.GetName(), um.GetName())
	case !apiequality.Semantic.DeepEqual(mm.GetLabels(), um.GetLabels()) && (len(mm.GetLabels())+len(um.GetLabels()) > 0):
		return fmt.Sprintf("labels %v, upstream %v", mm.GetLabels(), um.GetLabels())
	case !apiequality.Semantic.DeepEqual(mm.GetAnnotations(), um.GetAnnotations()) && (len(mm.GetAnnotations())+len(um.GetAnnotations()) > 0):
		return fmt.Sprintf("annotations %v, upstream %v", mm.GetAnnotations(), um.GetAnnotations())
	case !apiequality.Semantic.DeepEqual(mm.GetOwnerReferences(), um.GetOwnerReferences()):
		return fmt.Sprintf("owners %+v, upstream %+v", mm.GetOwnerReferences(), um.GetOwnerReferences())
	}
	switch mo := m.(type) {
	case *corev1.PersistentVolumeClaim:
		if uo := u.(*corev1.PersistentVolumeClaim); !apiequality.Semantic.DeepEqual(mo.Spec, uo.Spec) {
			return fmt.Sprintf("spec %+v, upstream %+v", mo.Spec, uo.Spec)
		}
	case *resourcev1.ResourceClaim:
		if uo := u.(*resourcev1.ResourceClaim); !apiequality.Semantic.DeepEqual(mo.Spec, uo.Spec) {
			return fmt.Sprintf("spec %+v, upstream %+v", mo.Spec, uo.Spec)
		}
	}
	return ""
}
