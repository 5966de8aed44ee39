package conformance

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/limitcheck/limitcheck/internal/eval/quota"
)

// Case is one generated scenario: documents in input order, created in one
// namespace (some name another), with a feature-gate setting.
type Case struct {
	PodLevelResources bool
	QuotaConfig       *quota.Configuration
	Docs              [][]byte
	// Controller settings (eval.Options): workloads as object counts only,
	// a replica override, the number of nodes a DaemonSet runs on.
	DisableControllers bool
	Replicas           *int32
	Nodes              int
}

// Generator makes random but realistic cases from a seed.
type Generator struct {
	r *rand.Rand
	n int
	// Cluster classes of the case being generated (classes_gen.go).
	priorityClasses, runtimeClasses bool
	overheads                       []obj
	// Mistakes counts the mistakes given to generated objects, by name (mistakes_*.go).
	Mistakes map[string]int
}

// NewGenerator returns a generator; the same seed gives the same cases.
func NewGenerator(seed uint64) *Generator {
	return &Generator{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

type obj = map[string]any

var ladders = map[string][]any{
	"cpu":               {"50m", "100m", "0.1", "200m", "250m", "0.25", "500m", "0.5", "1", "1000m", "1.5", "2", "2000m", "4", "0.0001", "1e3", 1, 0.5, 2, "100u"},
	"memory":            {"32Mi", "64Mi", "100Mi", "128Mi", "0.125Gi", "256Mi", "512Mi", "1Gi", "1024Mi", "1.5Gi", "2Gi", "1G", "500M", "1e9", "134217728", 268435456, "4Gi"},
	"ephemeral-storage": {"100Mi", "500Mi", "1Gi", "2Gi", "5Gi"},
	"hugepages-2Mi":     {"2Mi", "4Mi", "3Mi", "8Mi", "0"},
	"example.com/gpu":   {"1", "2", "0", "0.5", 1},
	"storage":           {"500Mi", "1Gi", "2Gi", "5Gi", "10Gi", "1G", "0.0001"},
	"foo":               {"1", "2"},
	"huge":              {"10Ei", "8Ei", "9223372036854775807", "5e18"},
	"negative":          {"-1", "-100m"},
}

var ratioLadder = []any{"1", "1.5", "2", "3", "4", "10", "0.5", "1100m", 2}

func (g *Generator) pick(xs []any) any     { return xs[g.r.IntN(len(xs))] }
func (g *Generator) chance(p float64) bool { return g.r.Float64() < p }

// quantity picks a value for a resource name, sometimes an extreme one.
func (g *Generator) quantity(name string) any {
	switch {
	case g.chance(0.006):
		return g.pick(ladders["huge"])
	case g.chance(0.006):
		return g.pick(ladders["negative"])
	}
	if l, ok := ladders[name]; ok {
		return g.pick(l)
	}
	return g.pick(ladders["foo"])
}

// containerResourceName: mostly cpu and memory, sometimes the others.
func (g *Generator) resourceNames() []string {
	var names []string
	if g.chance(0.75) {
		names = append(names, "cpu")
	}
	if g.chance(0.7) {
		names = append(names, "memory")
	}
	for _, rare := range []struct {
		name string
		p    float64
	}{{"ephemeral-storage", 0.1}, {"hugepages-2Mi", 0.03}, {"example.com/gpu", 0.05}, {"storage", 0.01}, {"foo", 0.01}} {
		if g.chance(rare.p) {
			names = append(names, rare.name)
		}
	}
	return names
}

func (g *Generator) resourceList(names []string, p float64) obj {
	l := obj{}
	for _, n := range names {
		if g.chance(p) {
			l[n] = g.quantity(n)
		}
	}
	return l
}

// ordered returns n values for a resource in ascending order, so that generated
// objects are consistent (min <= default <= max, request <= limit) more often
// than chance would make them.
func (g *Generator) ordered(name string, n int) []any {
	vals := make([]any, n)
	for i := range vals {
		vals[i] = g.quantity(name)
	}
	sort.SliceStable(vals, func(i, j int) bool {
		a, b := toQuantity(vals[i]), toQuantity(vals[j])
		return a.Cmp(b) < 0
	})
	return vals
}

func toQuantity(v any) resource.Quantity {
	q, err := resource.ParseQuantity(fmt.Sprint(v))
	if err != nil {
		return resource.Quantity{}
	}
	return q
}

// consistentItem fills min <= defaultRequest <= default <= max for some names.
func (g *Generator) consistentItem(item obj, names []string, withDefaults bool) {
	fields := []string{"min", "defaultRequest", "default", "max"}
	for _, n := range names {
		vals := g.ordered(n, 4)
		for i, f := range fields {
			if (!withDefaults && (f == "default" || f == "defaultRequest")) || !g.chance(0.5) {
				continue
			}
			l, _ := item[f].(obj)
			if l == nil {
				l = obj{}
				item[f] = l
			}
			l[n] = vals[i]
		}
	}
}

func (g *Generator) limitRange(name string) obj {
	types := []string{"Container", "Pod", "PersistentVolumeClaim"}
	g.r.Shuffle(len(types), func(i, j int) { types[i], types[j] = types[j], types[i] })
	types = types[:1+g.r.IntN(len(types))]
	if g.chance(0.03) {
		types = append(types, g.pick([]any{"Foo", "example.com/custom", "Container", "bad type!"}).(string))
	}
	var items []any
	for _, t := range types {
		item := obj{"type": t}
		switch t {
		case "PersistentVolumeClaim":
			if g.chance(0.7) {
				item["min"] = obj{"storage": g.quantity("storage")}
			}
			if g.chance(0.7) {
				item["max"] = obj{"storage": g.quantity("storage")}
			}
		default:
			names := g.resourceNames()
			if g.chance(0.6) {
				g.consistentItem(item, names, t != "Pod")
				goto ratios
			}
			for _, field := range []string{"min", "max", "default", "defaultRequest"} {
				if t == "Pod" && (field == "default" || field == "defaultRequest") && !g.chance(0.03) {
					continue
				}
				if l := g.resourceList(names, 0.45); len(l) > 0 {
					item[field] = l
				}
			}
		ratios:
			if g.chance(0.3) {
				ratios := obj{}
				for _, n := range names {
					if g.chance(0.6) {
						ratios[n] = g.pick(ratioLadder)
					}
				}
				if len(ratios) > 0 {
					item["maxLimitRequestRatio"] = ratios
				}
			}
		}
		items = append(items, item)
	}
	meta := obj{"name": name}
	switch {
	case g.chance(0.02):
		meta["name"] = "Bad_Name"
	case g.chance(0.03):
		meta = obj{"generateName": name + "-"}
	}
	g.namespace(meta)
	return obj{"apiVersion": "v1", "kind": "LimitRange", "metadata": meta, "spec": obj{"limits": items}}
}

func (g *Generator) container(name string, sidecar bool) obj {
	c := obj{"name": name, "image": "registry.example/app:1"}
	names := g.resourceNames()
	res := obj{}
	req, lim := g.resourceList(names, 0.5), g.resourceList(names, 0.5)
	if g.chance(0.7) {
		for n := range req {
			if _, ok := lim[n]; ok {
				v := g.ordered(n, 2)
				req[n], lim[n] = v[0], v[1]
			}
		}
	}
	if len(req) > 0 {
		res["requests"] = req
	}
	if len(lim) > 0 {
		res["limits"] = lim
	}
	if len(res) > 0 {
		c["resources"] = res
	}
	if sidecar {
		c["restartPolicy"] = "Always"
	}
	return c
}

func (g *Generator) pod(name string) obj {
	meta := obj{"name": name}
	if g.chance(0.05) {
		meta = obj{"generateName": name + "-"}
	}
	if g.chance(0.1) {
		meta["annotations"] = obj{"kubernetes.io/limit-ranger": "stale", "team": "a"}
	}
	if g.chance(0.03) {
		meta["finalizers"] = []any{g.pick([]any{"foo", "example.com/cleanup", "kubernetes"})}
	}
	if g.chance(0.15) { // a standalone Pod a later ReplicaSet or RC may adopt (WL-02)
		meta["labels"] = obj{"app": fmt.Sprintf("w-%d", g.r.IntN(4))}
	}
	spec := g.podSpec(true)
	g.podMistakes(spec, true) // mistakes_pod.go
	g.namespace(meta)
	return obj{"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
}

// podSpec is a Pod's spec: containers, sidecars, pod-level resources, the fields
// quota scopes look at. deadline allows activeDeadlineSeconds (Pods and Jobs;
// the other workloads' validation forbids it).
func (g *Generator) podSpec(deadline bool) obj {
	var containers, inits []any
	for i := 0; i < 1+g.r.IntN(3); i++ {
		containers = append(containers, g.container(fmt.Sprintf("c%d", i), false))
	}
	for i := 0; i < g.r.IntN(3); i++ {
		inits = append(inits, g.container(fmt.Sprintf("i%d", i), g.chance(0.5)))
	}
	spec := obj{"containers": containers}
	if g.chance(0.3) {
		spec["priorityClassName"] = g.pick([]any{"high", "low"})
	}
	g.classFields(spec)
	if g.chance(0.15) && deadline {
		spec["activeDeadlineSeconds"] = 600
	}
	if g.chance(0.08) {
		term := obj{"labelSelector": obj{"matchLabels": obj{"app": "db"}}, "topologyKey": "kubernetes.io/hostname"}
		if g.chance(0.6) {
			term["namespaces"] = []any{"other"}
		}
		spec["affinity"] = obj{"podAntiAffinity": obj{"requiredDuringSchedulingIgnoredDuringExecution": []any{term}}}
	}
	if len(inits) > 0 {
		spec["initContainers"] = inits
	}
	g.podSecurity(spec)
	if g.chance(0.15) {
		names := []string{"cpu", "memory"}
		if g.chance(0.1) {
			names = append(names, g.pick([]any{"hugepages-2Mi", "ephemeral-storage"}).(string))
		}
		res := obj{}
		if l := g.resourceList(names, 0.6); len(l) > 0 {
			res["requests"] = l
		}
		if l := g.resourceList(names, 0.6); len(l) > 0 {
			res["limits"] = l
		}
		spec["resources"] = res
	}
	return spec
}

func (g *Generator) claim(name string) obj {
	spec := obj{"accessModes": []any{"ReadWriteOnce"}}
	if g.chance(0.03) {
		spec["accessModes"] = []any{}
	}
	res := obj{}
	if g.chance(0.95) {
		res["requests"] = obj{"storage": g.quantity("storage")}
	}
	if g.chance(0.1) {
		res["limits"] = obj{"storage": g.quantity("storage")}
	}
	spec["resources"] = res
	if g.chance(0.15) {
		spec["volumeAttributesClassName"] = g.pick([]any{"silver", "bronze"})
	}
	if g.chance(0.2) {
		spec["storageClassName"] = g.pick([]any{"gold", "gold", "standard", "Bad_Class"})
	}
	meta := obj{"name": name}
	if g.chance(0.05) {
		// The beta class annotation also keeps DefaultStorageClass away.
		meta["annotations"] = obj{"volume.beta.kubernetes.io/storage-class": g.pick([]any{"gold", ""})}
	}
	g.namespace(meta)
	return obj{"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": meta, "spec": spec}
}

// namespace sometimes names a namespace explicitly (the default is ns1), so
// LimitRanges of one namespace must not govern another.
func (g *Generator) namespace(meta obj) {
	switch {
	case g.chance(0.1):
		meta["namespace"] = "ns2"
	case g.chance(0.1):
		meta["namespace"] = "ns1"
	}
}

var quotaKeys = map[string][]any{
	"pods": {"1", "2", "3", "5", "8"}, "count/pods": {"1", "3", "5", "8"},
	"cpu": ladders["cpu"], "requests.cpu": {"500m", "1", "2", "4", "1500m"}, "limits.cpu": {"1", "2", "4", "8"},
	"memory": {"256Mi", "1Gi", "2Gi"}, "requests.memory": {"512Mi", "1Gi", "2Gi", "1G"}, "limits.memory": {"1Gi", "2Gi", "4Gi"},
	"requests.storage": {"1Gi", "5Gi", "20Gi"}, "persistentvolumeclaims": {"1", "2"},
	"gold.storageclass.storage.k8s.io/requests.storage":       {"2Gi", "10Gi"},
	"gold.storageclass.storage.k8s.io/persistentvolumeclaims": {"1", "2"},
	"services": {"1", "2"}, "services.nodeports": {"0", "1", "2"}, "services.loadbalancers": {"0", "1"},
	"configmaps": {"1", "2"}, "count/configmaps": {"1", "2"}, "secrets": {"1"}, "resourcequotas": {"1", "2", "3"},
	"count/deployments.apps": {"0", "1", "2"}, "count/replicasets.apps": {"0", "1", "2"}, "count/statefulsets.apps": {"0", "1"},
	"count/daemonsets.apps": {"0", "1"}, "count/jobs.batch": {"0", "1", "2"}, "count/cronjobs.batch": {"0", "1"},
	"replicationcontrollers": {"0", "1"}, "count/replicationcontrollers": {"1", "2"}, "requests.example.com/gpu": {"1", "2"}, "requests.ephemeral-storage": {"1Gi", "4Gi"},
	"limits.ephemeral-storage": {"2Gi"}, "hugepages-2Mi": {"4Mi"}, "example.com/foo": {"1"},
	"gpu.deviceclass.resource.k8s.io/devices": {"1", "2", "4", "40"}, "count/resourceclaims.resource.k8s.io": {"1", "2"},
	// Names kube-apiserver admits that count nothing: no resource is served so.
	"count/deployments": {"0", "1"}, "count/deployment.apps": {"0", "1"}, "count/jobs": {"1"}, "count/deployments.extensions": {"0", "1"},
}

var workloadQuotaKeys = []string{"count/deployments.apps", "count/replicasets.apps", "count/statefulsets.apps", "count/daemonsets.apps",
	"count/jobs.batch", "count/cronjobs.batch", "replicationcontrollers", "count/replicationcontrollers"}

func (g *Generator) quota(name string) obj {
	keys := make([]string, 0, len(quotaKeys))
	for k := range quotaKeys {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	hard := obj{}
	for i := 0; i < 1+g.r.IntN(5); i++ {
		k := keys[g.r.IntN(len(keys))]
		hard[k] = g.pick(quotaKeys[k])
	}
	if g.chance(0.3) { // workloads and what their controllers create, counted
		k := workloadQuotaKeys[g.r.IntN(len(workloadQuotaKeys))]
		hard[k] = g.pick(quotaKeys[k])
	}
	spec := obj{"hard": hard}
	if g.chance(0.25) {
		spec["scopes"] = []any{g.pick([]any{"BestEffort", "NotBestEffort", "Terminating", "NotTerminating", "CrossNamespacePodAffinity", "VolumeAttributesClass"})}
	}
	if g.chance(0.25) {
		op := g.pick([]any{"In", "NotIn", "Exists", "DoesNotExist"}).(string)
		scope, values := "PriorityClass", []any{"high", "low"}
		if g.chance(0.35) {
			scope, values = "VolumeAttributesClass", []any{"silver", "bronze"}
		}
		expr := obj{"scopeName": scope, "operator": op}
		if op == "In" || op == "NotIn" {
			expr["values"] = []any{g.pick(values)}
		}
		spec["scopeSelector"] = obj{"matchExpressions": []any{expr}}
	}
	meta := obj{"name": name}
	g.namespace(meta)
	return obj{"apiVersion": "v1", "kind": "ResourceQuota", "metadata": meta, "spec": spec}
}

func (g *Generator) other(name string) obj {
	meta := obj{"name": name}
	g.namespace(meta)
	switch g.r.IntN(6) {
	case 5:
		req := func(name string) obj {
			r := obj{"deviceClassName": g.pick([]any{"gpu", "gpu", "fpga"})}
			switch g.r.IntN(3) {
			case 0:
				r["allocationMode"] = "All"
			case 1:
				r["count"] = 1 + g.r.IntN(3)
			}
			if name != "" {
				r["name"] = name
			}
			return r
		}
		var reqs []any
		for i := 0; i < 1+g.r.IntN(2); i++ {
			if g.chance(0.3) {
				reqs = append(reqs, obj{"name": fmt.Sprintf("r%d", i), "firstAvailable": []any{req("a"), req("b")}})
			} else {
				reqs = append(reqs, obj{"name": fmt.Sprintf("r%d", i), "exactly": req("")})
			}
		}
		return obj{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": meta, "spec": obj{"devices": obj{"requests": reqs}}}
	case 0:
		t := g.pick([]any{"ClusterIP", "NodePort", "LoadBalancer"}).(string)
		ports := []any{obj{"name": "a", "port": 80}}
		if g.chance(0.5) {
			ports = append(ports, obj{"name": "b", "port": 81, "nodePort": 30081})
		}
		spec := obj{"type": t, "ports": ports}
		if t == "LoadBalancer" && g.chance(0.3) {
			spec["allocateLoadBalancerNodePorts"] = false
		}
		return obj{"apiVersion": "v1", "kind": "Service", "metadata": meta, "spec": spec}
	case 1:
		return obj{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": obj{"k": "v"}}
	case 2:
		return obj{"apiVersion": "v1", "kind": "Secret", "metadata": meta}
	case 3:
		return g.workload(name)
	default:
		return obj{"apiVersion": "v1", "kind": "Event", "metadata": meta}
	}
}

func (g *Generator) quotaConfig() *quota.Configuration {
	if !g.chance(0.12) {
		return nil
	}
	cfgs := []quota.LimitedResource{
		{Resource: "pods", MatchScopes: []corev1.ScopedResourceSelectorRequirement{{ScopeName: "PriorityClass", Operator: "In", Values: []string{"high"}}}},
		{Resource: "persistentvolumeclaims", MatchContains: []string{"gold.storageclass.storage.k8s.io/requests.storage"}},
		{Resource: "pods", MatchContains: []string{"cpu"}},
		{Resource: "configmaps", MatchContains: []string{"configmaps"}},
	}
	return &quota.Configuration{LimitedResources: []quota.LimitedResource{cfgs[g.r.IntN(len(cfgs))]}}
}

// Next returns the next case.
// reuse returns i, or sometimes an earlier index, so that two objects of a
// kind share a name (storage's 409, ST-01).
func (g *Generator) reuse(i int) int {
	if i > 0 && g.chance(0.08) {
		return g.r.IntN(i)
	}
	return i
}

func (g *Generator) Next() Case {
	g.n++
	c := Case{PodLevelResources: !g.chance(0.1), QuotaConfig: g.quotaConfig()}
	switch {
	case g.chance(0.08):
		c.DisableControllers = true
	case g.chance(0.08):
		r := int32(g.r.IntN(7))
		c.Replicas = &r
	}
	if g.chance(0.1) {
		c.Nodes = 2 + g.r.IntN(3)
	}
	docs := g.classes()
	if g.chance(0.25) {
		docs = append(docs, g.podSecurityNamespace())
	}
	nLR := g.r.IntN(4)
	nObj := 1 + g.r.IntN(6)
	for i := 0; i < nLR; i++ {
		docs = append(docs, g.limitRange(fmt.Sprintf("lr-%d", g.reuse(i))))
	}
	if g.chance(0.5) {
		for i := 0; i < 1+g.r.IntN(3); i++ {
			docs = append(docs, g.quota(fmt.Sprintf("q-%d", g.reuse(i))))
		}
		nObj += g.r.IntN(6)
	}
	for i := 0; i < nObj; i++ {
		var o obj
		n := g.reuse(i)
		switch x := g.r.Float64(); {
		case x < 0.5:
			o = g.pod(fmt.Sprintf("p-%d", n))
		case x < 0.65:
			o = g.claim(fmt.Sprintf("claim-%d", n))
		case x < 0.83:
			o = g.workload(fmt.Sprintf("w-%d", n))
		case x < 0.85:
			o = g.podTemplate(fmt.Sprintf("pt-%d", n))
		case x < 0.93:
			o = g.metaObject(fmt.Sprintf("m-%d", n)) // mistakes_meta.go
		default:
			o = g.other(fmt.Sprintf("o-%d", n))
		}
		g.metaMistake(o)
		// Sometimes an object comes before some LimitRanges.
		pos := len(docs)
		if g.chance(0.15) {
			pos = g.r.IntN(len(docs) + 1)
		}
		docs = append(docs[:pos], append([]obj{o}, docs[pos:]...)...)
	}
	for _, d := range docs {
		b, err := json.Marshal(d)
		if err != nil {
			panic(err)
		}
		c.Docs = append(c.Docs, b)
	}
	return c
}

// podSecurityNamespace is a Namespace document for ns1 or ns2 with Pod
// Security labels (PS-01): levels and versions of every mode, sometimes one
// that does not parse.
func (g *Generator) podSecurityNamespace() obj {
	levels := []any{"privileged", "baseline", "restricted", "restricted", "baseline"}
	versions := []any{"latest", "v1.20", "v1.30", "v1.36", "v1.40"}
	labels := obj{"team": "a"}
	for _, mode := range []string{"enforce", "warn", "audit"} {
		if g.chance(0.6) {
			labels["pod-security.kubernetes.io/"+mode] = g.pick(levels)
			if g.chance(0.02) {
				labels["pod-security.kubernetes.io/"+mode] = g.pick([]any{"strict", "Restricted", ""})
			}
		}
		if g.chance(0.25) {
			labels["pod-security.kubernetes.io/"+mode+"-version"] = g.pick(versions)
			if g.chance(0.02) {
				labels["pod-security.kubernetes.io/"+mode+"-version"] = g.pick([]any{"1.30", "v2.0", "v1.030"})
			}
		}
	}
	return obj{"apiVersion": "v1", "kind": "Namespace", "metadata": obj{"name": g.pick([]any{"ns1", "ns1", "ns2"}), "labels": labels}}
}

// podSecurity sometimes sets what the Pod Security Standards look at (PS-02):
// host namespaces and paths, privileges, capabilities, users, seccomp, in
// settings that meet restricted, baseline or neither.
func (g *Generator) podSecurity(spec obj) {
	if !g.chance(0.35) {
		return
	}
	compliant := g.chance(0.5)
	psc := obj{}
	if compliant || g.chance(0.5) {
		psc["runAsNonRoot"] = compliant || g.chance(0.5)
	}
	switch {
	case compliant || g.chance(0.4):
		psc["seccompProfile"] = obj{"type": "RuntimeDefault"}
	case g.chance(0.3):
		psc["seccompProfile"] = obj{"type": "Unconfined"}
	case g.chance(0.3):
		psc["seccompProfile"] = obj{"type": "Localhost", "localhostProfile": "profiles/app.json"}
	}
	if !compliant && g.chance(0.2) {
		psc["runAsUser"] = g.pick([]any{0, 1000})
	}
	if len(psc) > 0 {
		spec["securityContext"] = psc
	}
	if !compliant && g.chance(0.15) {
		spec[g.pick([]any{"hostNetwork", "hostPID", "hostIPC"}).(string)] = true
	}
	if !compliant && g.chance(0.1) {
		spec["volumes"] = append(anyList(spec["volumes"]), obj{"name": "psa-host", "hostPath": obj{"path": "/var/log"}})
	}
	for _, key := range []string{"containers", "initContainers"} {
		for _, c := range anyList(spec[key]) {
			c := c.(obj)
			sc := obj{}
			if compliant || g.chance(0.5) {
				sc["allowPrivilegeEscalation"] = !compliant && g.chance(0.3)
			}
			switch {
			case compliant:
				caps := obj{"drop": []any{"ALL"}}
				if g.chance(0.2) {
					caps["add"] = []any{"NET_BIND_SERVICE"}
				}
				sc["capabilities"] = caps
			case g.chance(0.3):
				sc["capabilities"] = obj{"add": []any{g.pick([]any{"NET_ADMIN", "SYS_TIME", "CHOWN", "NET_RAW"})}}
			}
			if !compliant && g.chance(0.1) {
				sc["privileged"] = true
				delete(sc, "allowPrivilegeEscalation") // else validation refuses it
			}
			if !compliant && g.chance(0.1) {
				sc["runAsUser"] = 0
			}
			if len(sc) > 0 {
				c["securityContext"] = sc
			}
		}
	}
}

// anyList is v as a list (nil when it is not one).
func anyList(v any) []any {
	l, _ := v.([]any)
	return l
}

// podTemplate is a v1 PodTemplate (VAL-105): its template as a workload's,
// mistakes included.
func (g *Generator) podTemplate(name string) obj {
	meta := obj{"name": name}
	g.namespace(meta)
	return obj{"apiVersion": "v1", "kind": "PodTemplate", "metadata": meta, "template": g.template(obj{"app": name}, "")}
}
