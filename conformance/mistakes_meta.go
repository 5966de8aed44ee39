package conformance

// Metadata, Service, ConfigMap, Secret, ServiceAccount and PVC mistakes
// (VAL-01..VAL-05, VAL-60..VAL-64): the generator makes these kinds with
// realistic specs (metaObject) and applies, with some probability, one
// realistic mistake to a generated object (metaMistake): to its metadata
// whatever its kind, or to the spec of the kinds above. Each application is
// counted by name (Generator.Mistakes).

import (
	"slices"
	"sort"
	"strings"
)

// metaMistakeRate is the probability that a generated object gets a
// mistake; specMistakeRate that one of a kind with mistakes of its own
// (Service, ConfigMap, Secret, PVC) does, and specMistakeShare how often it
// is one of those.
const (
	metaMistakeRate  = 0.12
	specMistakeRate  = 0.45
	specMistakeShare = 0.75
)

type mistake struct {
	name  string
	kinds []string // kinds it applies to; nil: any kind but notKinds
	apply func(g *Generator, o obj)
}

// Kinds no mistake goes to: the harness runs no strategy for them (they are
// admitted as metadata only), so there is nothing to compare with.
var unvalidatedKinds = []string{"Event"}

// nameMistakeKinds: name mistakes skip Jobs, whose name becomes a label
// value of the generated selector (spec validation, not simulated here).
var nameMistakeKinds = []string{"Job"}

func metaOf(o obj) obj {
	m, _ := o["metadata"].(obj)
	if m == nil {
		m = obj{}
		o["metadata"] = m
	}
	return m
}

func specOf(o obj) obj {
	s, _ := o["spec"].(obj)
	if s == nil {
		s = obj{}
		o["spec"] = s
	}
	return s
}

func setName(o obj, name string) {
	m := metaOf(o)
	delete(m, "generateName")
	m["name"] = name
}

func addTo(m obj, key string, k string, v any) {
	x, _ := m[key].(obj)
	if x == nil {
		x = obj{}
		m[key] = x
	}
	x[k] = v
}

func ports(o obj) []any {
	p, _ := specOf(o)["ports"].([]any)
	return p
}

var metaMistakes = []mistake{
	// ObjectMeta, any kind (VAL-01..VAL-03)
	{"name uppercase", nil, func(g *Generator, o obj) { setName(o, "My-App") }},
	{"name underscore", nil, func(g *Generator, o obj) { setName(o, "my_app") }},
	{"name 254 characters", nil, func(g *Generator, o obj) { setName(o, strings.Repeat("a", 254)) }},
	{"name 64 characters (label rules)", nil, func(g *Generator, o obj) { setName(o, "x"+strings.Repeat("y", 63)) }},
	{"name with dots", nil, func(g *Generator, o obj) { setName(o, "web.v2") }},
	{"name starts with a digit", nil, func(g *Generator, o obj) { setName(o, "1web") }},
	{"name trailing dash", nil, func(g *Generator, o obj) { setName(o, "web-") }},
	{"generateName invalid", nil, func(g *Generator, o obj) {
		m := metaOf(o)
		delete(m, "name")
		m["generateName"] = g.pick([]any{"Web_", "web.", "-web-"})
	}},
	{"generateName long (cut to 58 before the suffix)", nil, func(g *Generator, o obj) {
		m := metaOf(o)
		delete(m, "name")
		m["generateName"] = strings.Repeat("g", 56+g.r.IntN(6)) + g.pick([]any{"-", "a", "-x-"}).(string)
	}},
	{"label key with two slashes", nil, func(g *Generator, o obj) { addTo(metaOf(o), "labels", "example.com/team/name", "a") }},
	{"label key prefix uppercase", nil, func(g *Generator, o obj) { addTo(metaOf(o), "labels", "Example.com/team", "a") }},
	{"label value 64 characters", nil, func(g *Generator, o obj) { addTo(metaOf(o), "labels", "version", strings.Repeat("v", 64)) }},
	{"label value with spaces", nil, func(g *Generator, o obj) { addTo(metaOf(o), "labels", "owner", "team a") }},
	{"annotation key invalid", nil, func(g *Generator, o obj) { addTo(metaOf(o), "annotations", "bad key!", "x") }},
	{"annotation key uppercase (allowed)", nil, func(g *Generator, o obj) { addTo(metaOf(o), "annotations", "Example.com/Owner", "x") }},
	{"annotations over 256 KiB", nil, func(g *Generator, o obj) {
		addTo(metaOf(o), "annotations", "example.com/blob", strings.Repeat("x", 256*1024))
	}},
	{"ownerReference without uid", nil, func(g *Generator, o obj) {
		metaOf(o)["ownerReferences"] = []any{obj{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}}
	}},
	{"ownerReference without apiVersion and kind", nil, func(g *Generator, o obj) {
		metaOf(o)["ownerReferences"] = []any{obj{"name": "web", "uid": "7d2a1e2c-1111-4b7e-9a55-000000000001"}}
	}},
	{"ownerReference to an Event", nil, func(g *Generator, o obj) {
		metaOf(o)["ownerReferences"] = []any{obj{"apiVersion": "v1", "kind": "Event", "name": "e", "uid": "7d2a1e2c-1111-4b7e-9a55-000000000002"}}
	}},
	{"two controller ownerReferences", nil, func(g *Generator, o obj) {
		metaOf(o)["ownerReferences"] = []any{
			obj{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "a", "uid": "7d2a1e2c-1111-4b7e-9a55-000000000003", "controller": true},
			obj{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "b", "uid": "7d2a1e2c-1111-4b7e-9a55-000000000004", "controller": true},
		}
	}},
	{"finalizer unqualified", nil, func(g *Generator, o obj) { metaOf(o)["finalizers"] = []any{"cleanup"} }},
	{"finalizer invalid", nil, func(g *Generator, o obj) { metaOf(o)["finalizers"] = []any{"example.com/clean up"} }},
	{"finalizers orphan and foreground", nil, func(g *Generator, o obj) {
		metaOf(o)["finalizers"] = []any{"orphan", "foregroundDeletion"}
	}},
	{"managedFields copied from a live object, edited", nil, func(g *Generator, o obj) {
		// VAL-03: the field manager drops entries it cannot decode before
		// validation; decodable ones are validated.
		e := obj{"manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "v1", "fieldsType": "FieldsV1",
			"fieldsV1": obj{"f:metadata": obj{"f:labels": obj{}}}}
		switch g.r.IntN(8) {
		case 0:
			e["operation"] = g.pick([]any{"apply", "Patch", ""})
		case 1:
			delete(e, "fieldsType")
		case 2:
			e["fieldsType"] = "FieldsV2"
		case 3:
			delete(e, "apiVersion")
		case 4:
			e["fieldsV1"] = obj{"f:metadata": 1}
		case 5:
			e["manager"] = strings.Repeat("m", 128+g.r.IntN(2))
		case 6:
			e["subresource"] = strings.Repeat("s", 256+g.r.IntN(2))
		default:
			e = obj{}
		}
		metaOf(o)["managedFields"] = []any{e}
	}},
	{"namespace invalid", nil, func(g *Generator, o obj) { metaOf(o)["namespace"] = "Team_A" }},
	{"generation negative", nil, func(g *Generator, o obj) { metaOf(o)["generation"] = -1 }},
	{"CronJob name 53 characters", []string{"CronJob"}, func(g *Generator, o obj) { setName(o, "c"+strings.Repeat("r", 52)) }},

	// ConfigMap (VAL-61)
	{"ConfigMap key with slash", []string{"ConfigMap"}, func(g *Generator, o obj) { addTo(o, "data", "conf/app.yaml", "x") }},
	{"ConfigMap key in data and binaryData", []string{"ConfigMap"}, func(g *Generator, o obj) {
		addTo(o, "data", "logo", "x")
		addTo(o, "binaryData", "logo", "eA==")
	}},
	{"ConfigMap binaryData key invalid", []string{"ConfigMap"}, func(g *Generator, o obj) { addTo(o, "binaryData", "..", "eA==") }},
	{"ConfigMap over 1 MiB", []string{"ConfigMap"}, func(g *Generator, o obj) { addTo(o, "data", "big", strings.Repeat("x", 1024*1024+1)) }},

	// Secret (VAL-61)
	{"Secret over 1 MiB", []string{"Secret"}, func(g *Generator, o obj) { addTo(o, "stringData", "big", strings.Repeat("x", 1024*1024+1)) }},
	{"Secret key with space", []string{"Secret"}, func(g *Generator, o obj) { addTo(o, "stringData", "my key", "x") }},
	{"tls Secret without tls.key", []string{"Secret"}, func(g *Generator, o obj) {
		o["type"] = "kubernetes.io/tls"
		o["stringData"] = obj{"tls.crt": "cert"}
		delete(o, "data")
	}},
	{"tls Secret whose pair is not PEM", []string{"Secret"}, func(g *Generator, o obj) {
		o["type"] = "kubernetes.io/tls"
		o["stringData"] = g.pick([]any{
			obj{"tls.crt": "cert", "tls.key": "key"},
			obj{"tls.crt": "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", "tls.key": "key"},
			obj{"tls.crt": "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "tls.key": ""},
		})
		delete(o, "data")
	}},
	{"ServiceAccount with enforce-mountable-secrets", []string{"ServiceAccount"}, func(g *Generator, o obj) {
		addTo(metaOf(o), "annotations", "kubernetes.io/enforce-mountable-secrets", g.pick([]any{"true", "false"}))
	}},
	{"dockerconfigjson invalid JSON", []string{"Secret"}, func(g *Generator, o obj) {
		o["type"] = "kubernetes.io/dockerconfigjson"
		o["stringData"] = obj{".dockerconfigjson": g.pick([]any{`{"auths":`, `[1]`, `auths: {}`})}
	}},
	{"dockercfg without .dockercfg", []string{"Secret"}, func(g *Generator, o obj) {
		o["type"] = "kubernetes.io/dockercfg"
		delete(o, "data")
		delete(o, "stringData")
	}},
	{"basic-auth without username and password", []string{"Secret"}, func(g *Generator, o obj) {
		o["type"] = "kubernetes.io/basic-auth"
		delete(o, "data")
		delete(o, "stringData")
	}},
	{"ssh-auth with empty key", []string{"Secret"}, func(g *Generator, o obj) {
		o["type"] = "kubernetes.io/ssh-auth"
		o["stringData"] = obj{"ssh-privatekey": ""}
	}},
	{"service-account-token without annotation", []string{"Secret"}, func(g *Generator, o obj) {
		o["type"] = "kubernetes.io/service-account-token"
	}},

	// Service (VAL-60, VAL-64)
	{"Service without name", []string{"Service"}, func(g *Generator, o obj) {
		m := metaOf(o)
		delete(m, "name")
		delete(m, "generateName")
	}},
	{"Service port 0", []string{"Service"}, func(g *Generator, o obj) { ports(o)[0].(obj)["port"] = 0 }},
	{"Service duplicate port names", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["ports"] = append(ports(o), obj{"name": "a", "port": 8443})
	}},
	{"Service second port without name", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["ports"] = append(ports(o), obj{"port": 9090})
	}},
	{"Service duplicate port", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["ports"] = append(ports(o), obj{"name": "dup", "port": ports(o)[0].(obj)["port"]})
	}},
	{"Service without ports", []string{"Service"}, func(g *Generator, o obj) { delete(specOf(o), "ports") }},
	{"Service nodePort on ClusterIP", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["type"] = "ClusterIP"
		ports(o)[0].(obj)["nodePort"] = 30080
	}},
	{"Service nodePort out of range", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["type"] = "NodePort"
		ports(o)[0].(obj)["nodePort"] = g.pick([]any{29999, 40000, 80})
	}},
	{"Service nodePort twice", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["type"] = "NodePort"
		specOf(o)["ports"] = []any{obj{"name": "a", "port": 80, "nodePort": 30090}, obj{"name": "b", "port": 81, "nodePort": 30090}}
	}},
	{"Service fixed nodePort", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["type"] = "NodePort"
		ports(o)[0].(obj)["nodePort"] = g.pick([]any{30091, 30092})
	}},
	{"Service targetPort invalid", []string{"Service"}, func(g *Generator, o obj) {
		ports(o)[0].(obj)["targetPort"] = g.pick([]any{0, 70000, "http_port", "0", "web"})
	}},
	{"Service protocol HTTP", []string{"Service"}, func(g *Generator, o obj) { ports(o)[0].(obj)["protocol"] = "HTTP" }},
	{"Service appProtocol invalid", []string{"Service"}, func(g *Generator, o obj) { ports(o)[0].(obj)["appProtocol"] = "http 2" }},
	{"Service port name invalid", []string{"Service"}, func(g *Generator, o obj) { ports(o)[0].(obj)["name"] = "HTTP" }},
	{"Service bad sessionAffinity", []string{"Service"}, func(g *Generator, o obj) { specOf(o)["sessionAffinity"] = "Sticky" }},
	{"Service ClientIP timeout 0", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["sessionAffinity"] = "ClientIP"
		specOf(o)["sessionAffinityConfig"] = obj{"clientIP": obj{"timeoutSeconds": g.pick([]any{0, 86401, 3600})}}
	}},
	{"Service externalName on ClusterIP", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["type"] = "ClusterIP"
		specOf(o)["externalName"] = "db.example.com"
	}},
	{"Service ExternalName", []string{"Service"}, func(g *Generator, o obj) {
		s := specOf(o)
		s["type"] = "ExternalName"
		s["externalName"] = g.pick([]any{"db.example.com.", "", "Bad_Host", "db.example.com"})
		if g.chance(0.3) {
			s["clusterIP"] = "10.96.0.50"
		}
	}},
	{"Service type unknown", []string{"Service"}, func(g *Generator, o obj) { specOf(o)["type"] = "Internal" }},
	{"Service sourceRanges bad CIDR", []string{"Service"}, func(g *Generator, o obj) {
		s := specOf(o)
		s["type"] = g.pick([]any{"LoadBalancer", "LoadBalancer", "ClusterIP"})
		s["loadBalancerSourceRanges"] = []any{"10.0.0.0/8", g.pick([]any{"10.0.0.0/33", "10.0.0.1/8", " 192.168.0.0/16 ", "all"})}
	}},
	{"Service sourceRanges annotation", []string{"Service"}, func(g *Generator, o obj) {
		addTo(metaOf(o), "annotations", "service.beta.kubernetes.io/load-balancer-source-ranges", g.pick([]any{"10.0.0.0/8,300.0.0.0/8", "10.0.0.0/8"}))
	}},
	{"Service clusterIP invalid", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["clusterIP"] = g.pick([]any{"10.96.0.300", "010.96.0.5", "fd00::10", "None"})
	}},
	{"Service clusterIP taken or outside the range", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["clusterIP"] = g.pick([]any{"10.96.0.1", "192.168.0.10", "10.96.5.5"})
	}},
	{"Service clusterIPs mismatch", []string{"Service"}, func(g *Generator, o obj) {
		s := specOf(o)
		s["clusterIP"] = "10.96.7.7"
		s["clusterIPs"] = []any{"10.96.7.8"}
	}},
	{"Service dual-stack", []string{"Service"}, func(g *Generator, o obj) {
		s := specOf(o)
		switch g.r.IntN(3) {
		case 0:
			s["ipFamilies"] = []any{"IPv6"}
		case 1:
			s["ipFamilyPolicy"] = g.pick([]any{"RequireDualStack", "PreferDualStack", "DualStack"})
		default:
			s["ipFamilies"] = []any{"IPv4", "IPv6"}
		}
	}},
	{"Service headless", []string{"Service"}, func(g *Generator, o obj) {
		s := specOf(o)
		s["clusterIP"] = "None"
		if g.chance(0.5) {
			delete(s, "selector")
		}
	}},
	{"Service externalTrafficPolicy", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["externalTrafficPolicy"] = g.pick([]any{"Local", "Bogus", "Cluster"})
	}},
	{"Service healthCheckNodePort", []string{"Service"}, func(g *Generator, o obj) {
		s := specOf(o)
		if g.chance(0.7) {
			s["type"] = "LoadBalancer"
			s["externalTrafficPolicy"] = "Local"
		}
		s["healthCheckNodePort"] = g.pick([]any{30093, 1, 30094})
	}},
	{"Service internalTrafficPolicy unknown", []string{"Service"}, func(g *Generator, o obj) { specOf(o)["internalTrafficPolicy"] = "Node" }},
	{"Service trafficDistribution unknown", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["trafficDistribution"] = g.pick([]any{"Nearby", "PreferSameZone"})
	}},
	{"Service loadBalancerClass", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["loadBalancerClass"] = g.pick([]any{"example.com/lb", "bad class"})
	}},
	{"Service allocateLoadBalancerNodePorts on NodePort", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["type"] = "NodePort"
		specOf(o)["allocateLoadBalancerNodePorts"] = false
	}},
	{"Service externalIPs", []string{"Service"}, func(g *Generator, o obj) {
		specOf(o)["externalIPs"] = []any{g.pick([]any{"203.0.113.10", "127.0.0.1", "0.0.0.0", "1.2.3", "169.254.1.1"})}
	}},
	{"Service selector value invalid", []string{"Service"}, func(g *Generator, o obj) { addTo(specOf(o), "selector", "app", "my app") }},
	{"Service topology annotations disagree", []string{"Service"}, func(g *Generator, o obj) {
		addTo(metaOf(o), "annotations", "service.kubernetes.io/topology-aware-hints", "Auto")
		addTo(metaOf(o), "annotations", "service.kubernetes.io/topology-mode", "Disabled")
	}},

	// PersistentVolumeClaim (VAL-62)
	{"PVC without accessModes", []string{"PersistentVolumeClaim"}, func(g *Generator, o obj) { delete(specOf(o), "accessModes") }},
	{"PVC unknown accessMode", []string{"PersistentVolumeClaim"}, func(g *Generator, o obj) {
		specOf(o)["accessModes"] = []any{g.pick([]any{"ReadWriteSometimes", "RWO"})}
	}},
	{"PVC ReadWriteOncePod with others", []string{"PersistentVolumeClaim"}, func(g *Generator, o obj) {
		specOf(o)["accessModes"] = []any{"ReadWriteOncePod", "ReadWriteOnce"}
	}},
	{"PVC without storage request", []string{"PersistentVolumeClaim"}, func(g *Generator, o obj) {
		specOf(o)["resources"] = obj{"limits": obj{"storage": "1Gi"}}
	}},
	{"PVC storage request 0", []string{"PersistentVolumeClaim"}, func(g *Generator, o obj) {
		specOf(o)["resources"] = obj{"requests": obj{"storage": "0"}}
	}},
	{"PVC bad volumeMode", []string{"PersistentVolumeClaim"}, func(g *Generator, o obj) { specOf(o)["volumeMode"] = g.pick([]any{"Raw", "Block"}) }},
	{"PVC dataSource without apiGroup for another kind", []string{"PersistentVolumeClaim"}, func(g *Generator, o obj) {
		specOf(o)["dataSource"] = obj{"kind": "VolumeSnapshot", "name": "snap"}
	}},
	{"PVC dataSourceRef without apiGroup", []string{"PersistentVolumeClaim"}, func(g *Generator, o obj) {
		specOf(o)["dataSourceRef"] = obj{"kind": g.pick([]any{"VolumeSnapshot", "PersistentVolumeClaim", ""}), "name": g.pick([]any{"snap", ""})}
	}},
	{"PVC dataSource snapshot", []string{"PersistentVolumeClaim"}, func(g *Generator, o obj) {
		specOf(o)["dataSource"] = obj{"apiGroup": g.pick([]any{"snapshot.storage.k8s.io", "Snapshot.Storage"}), "kind": "VolumeSnapshot", "name": "snap"}
	}},
	{"PVC dataSource and dataSourceRef differ", []string{"PersistentVolumeClaim"}, func(g *Generator, o obj) {
		specOf(o)["dataSource"] = obj{"kind": "PersistentVolumeClaim", "name": "a"}
		specOf(o)["dataSourceRef"] = obj{"kind": "PersistentVolumeClaim", "name": "b"}
	}},
	{"PVC dataSourceRef other namespace", []string{"PersistentVolumeClaim"}, func(g *Generator, o obj) {
		specOf(o)["dataSourceRef"] = obj{"kind": "PersistentVolumeClaim", "name": "a", "namespace": "Other_NS"}
	}},
	{"PVC selector invalid", []string{"PersistentVolumeClaim"}, func(g *Generator, o obj) {
		specOf(o)["selector"] = obj{"matchLabels": obj{"tier": "gold class"}, "matchExpressions": []any{obj{"key": "zone", "operator": g.pick([]any{"Maybe", "In", "Exists"})}}}
	}},
	{"PVC volumeAttributesClassName invalid", []string{"PersistentVolumeClaim"}, func(g *Generator, o obj) {
		specOf(o)["volumeAttributesClassName"] = "Fast_IO"
	}},
}

// metaObject makes a ConfigMap, Secret, ServiceAccount or Service with a
// realistic, valid spec.
func (g *Generator) metaObject(name string) obj {
	meta := obj{"name": name}
	g.namespace(meta)
	if g.chance(0.2) {
		meta["labels"] = obj{"app.kubernetes.io/name": name, "tier": "web"}
	}
	if g.chance(0.1) {
		meta["annotations"] = obj{"example.com/owner": "team-a"}
	}
	switch g.r.IntN(4) {
	case 0:
		o := obj{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": obj{"app.properties": "a=b", "LOG_LEVEL": "info"}}
		if g.chance(0.2) {
			o["binaryData"] = obj{"logo.png": "iVBORw0KGgo="}
		}
		return o
	case 1:
		o := obj{"apiVersion": "v1", "kind": "Secret", "metadata": meta}
		switch g.r.IntN(4) {
		case 0:
			o["stringData"] = obj{"password": "hunter2"}
		case 1:
			o["type"] = "kubernetes.io/tls"
			o["data"] = obj{"tls.crt": "Y2VydA==", "tls.key": "a2V5"}
		case 2:
			o["type"] = "kubernetes.io/dockerconfigjson"
			o["stringData"] = obj{".dockerconfigjson": `{"auths":{"registry.example":{"auth":"eDp5"}}}`}
		default:
			o["type"] = "kubernetes.io/basic-auth"
			o["stringData"] = obj{"username": "admin"}
		}
		return o
	case 2:
		o := obj{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta}
		if g.chance(0.3) {
			o["automountServiceAccountToken"] = false
		}
		return o
	default:
		t := g.pick([]any{"ClusterIP", "ClusterIP", "NodePort", "LoadBalancer"}).(string)
		port := obj{"name": "http", "port": 80, "targetPort": g.pick([]any{8080, "http", 80})}
		spec := obj{"type": t, "selector": obj{"app": name}, "ports": []any{port}}
		if g.chance(0.3) {
			spec["ports"] = append(spec["ports"].([]any), obj{"name": "metrics", "port": 9090, "protocol": "TCP"})
		}
		if t == "LoadBalancer" && g.chance(0.2) {
			spec["allocateLoadBalancerNodePorts"] = false
		}
		return obj{"apiVersion": "v1", "kind": "Service", "metadata": meta, "spec": spec}
	}
}

// metaMistake sometimes applies one mistake that fits the object's kind.
func (g *Generator) metaMistake(o obj) {
	kind, _ := o["kind"].(string)
	if slices.Contains(unvalidatedKinds, kind) {
		return
	}
	var generic, own []mistake
	for _, m := range metaMistakes {
		isName := strings.HasPrefix(m.name, "name ") || strings.HasPrefix(m.name, "generateName")
		switch {
		case slices.Contains(m.kinds, kind):
			own = append(own, m)
		case m.kinds == nil && !(isName && slices.Contains(nameMistakeKinds, kind)):
			generic = append(generic, m)
		}
	}
	fit := generic
	if len(own) > 0 && kind != "CronJob" {
		if !g.chance(specMistakeRate) {
			return
		}
		if g.chance(specMistakeShare) {
			fit = own
		}
	} else if !g.chance(metaMistakeRate) {
		return
	} else if len(own) > 0 && g.chance(0.3) {
		fit = own
	}
	m := fit[g.r.IntN(len(fit))]
	m.apply(g, o)
	if g.Mistakes == nil {
		g.Mistakes = map[string]int{}
	}
	g.Mistakes[m.name]++
}

// MistakeNames lists every metadata mistake the generator knows.
func MistakeNames() []string {
	var names []string
	for _, m := range metaMistakes {
		names = append(names, m.name)
	}
	sort.Strings(names)
	return names
}
