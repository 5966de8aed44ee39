package conformance

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
)

// The mistakes TestRealManifestsParity makes in real documents, one at a
// time: what people get wrong when they write manifests by hand or edit a
// chart's values (a misspelt enum, requests above limits, a milli- for a
// mega-, a name with an underscore, a selector that misses the template, a
// mount of a volume that is not declared, …). Each applies where the
// document has somewhere to make it; realMistakeIn picks one at random among
// those that apply.

type realMistake struct {
	name  string
	apply func(rng *rand.Rand, root obj) bool
}

// realMistakeIn returns doc with one mistake made in it, or false when none
// applies.
func realMistakeIn(rng *rand.Rand, doc []byte) (realVariant, bool) {
	for range 8 {
		m := realMistakes[rng.IntN(len(realMistakes))]
		root, ok := decodeObj(doc)
		if !ok {
			return realVariant{}, false
		}
		if !m.apply(rng, root) {
			continue
		}
		out, err := json.Marshal(root)
		if err != nil {
			return realVariant{}, false
		}
		return realVariant{mistake: m.name, doc: out}, true
	}
	return realVariant{}, false
}

func decodeObj(doc []byte) (obj, bool) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var root obj
	return root, d.Decode(&root) == nil
}

// child returns m[key] as an object, made when make is true.
func child(m obj, key string, make bool) obj {
	if c, ok := m[key].(obj); ok {
		return c
	}
	if !make {
		return nil
	}
	c := obj{}
	m[key] = c
	return c
}

func list(m obj, key string) []any {
	l, _ := m[key].([]any)
	return l
}

// podSpec is the Pod spec of a Pod or of a workload's template, with the
// metadata that goes with it.
func podSpec(root obj) (spec, meta obj) {
	s := child(root, "spec", false)
	if s == nil {
		return nil, nil
	}
	switch root["kind"] {
	case "Pod":
		return s, child(root, "metadata", false)
	case "CronJob":
		s = child(child(s, "jobTemplate", false), "spec", false)
		if s == nil {
			return nil, nil
		}
	}
	t := child(s, "template", false)
	if t == nil {
		return nil, nil
	}
	return child(t, "spec", false), child(t, "metadata", true)
}

// containers are the spec's containers and init containers.
func containers(spec obj) []obj {
	var out []obj
	for _, key := range []string{"containers", "initContainers"} {
		for _, c := range list(spec, key) {
			if m, ok := c.(obj); ok {
				out = append(out, m)
			}
		}
	}
	return out
}

// container picks one of the document's containers.
func container(rng *rand.Rand, root obj) obj {
	spec, _ := podSpec(root)
	cs := containers(spec)
	if len(cs) == 0 {
		return nil
	}
	return cs[rng.IntN(len(cs))]
}

func onContainer(f func(rng *rand.Rand, c obj) bool) func(*rand.Rand, obj) bool {
	return func(rng *rand.Rand, root obj) bool {
		c := container(rng, root)
		return c != nil && f(rng, c)
	}
}

func onPodSpec(f func(rng *rand.Rand, spec obj) bool) func(*rand.Rand, obj) bool {
	return func(rng *rand.Rand, root obj) bool {
		spec, _ := podSpec(root)
		return spec != nil && f(rng, spec)
	}
}

func ofKind(kinds string, f func(rng *rand.Rand, root obj) bool) func(*rand.Rand, obj) bool {
	return func(rng *rand.Rand, root obj) bool {
		k, _ := root["kind"].(string)
		return strings.Contains(" "+kinds+" ", " "+k+" ") && f(rng, root)
	}
}

// setResources sets one entry of a container's requests or limits.
func setResources(c obj, which, name, value string) {
	child(child(c, "resources", true), which, true)[name] = value
}

var realMistakes = []realMistake{
	{"container without image", onContainer(func(_ *rand.Rand, c obj) bool {
		delete(c, "image")
		return true
	})},
	{"container name not a DNS label", onContainer(func(_ *rand.Rand, c obj) bool {
		n, _ := c["name"].(string)
		c["name"] = strings.ToUpper(n) + "_1"
		return true
	})},
	{"two containers of one name", onPodSpec(func(_ *rand.Rand, spec obj) bool {
		cs := list(spec, "containers")
		if len(cs) == 0 {
			return false
		}
		first, _ := cs[0].(obj)
		dup := obj{}
		for k, v := range first {
			dup[k] = v
		}
		delete(dup, "ports")
		spec["containers"] = append(cs, dup)
		return true
	})},
	{"container port out of range", onContainer(func(rng *rand.Rand, c obj) bool {
		ps := list(c, "ports")
		if len(ps) == 0 {
			c["ports"] = []any{obj{"containerPort": 70000}}
			return true
		}
		p, _ := ps[rng.IntN(len(ps))].(obj)
		if p == nil {
			return false
		}
		p["containerPort"] = []int{0, 65536, 80800}[rng.IntN(3)]
		return true
	})},
	{"port name too long or not a name", onContainer(func(rng *rand.Rand, c obj) bool {
		ps := list(c, "ports")
		if len(ps) == 0 {
			return false
		}
		p, _ := ps[rng.IntN(len(ps))].(obj)
		if p == nil {
			return false
		}
		p["name"] = []string{"metrics-endpoint-http", "http_port", "8080", "HTTP"}[rng.IntN(4)]
		return true
	})},
	{"cpu request above limit", onContainer(func(_ *rand.Rand, c obj) bool {
		setResources(c, "limits", "cpu", "500m")
		setResources(c, "requests", "cpu", "1")
		return true
	})},
	{"memory request above limit", onContainer(func(_ *rand.Rand, c obj) bool {
		setResources(c, "limits", "memory", "256Mi")
		setResources(c, "requests", "memory", "1Gi")
		return true
	})},
	{"negative quantity", onContainer(func(rng *rand.Rand, c obj) bool {
		setResources(c, []string{"requests", "limits"}[rng.IntN(2)], []string{"cpu", "memory", "ephemeral-storage"}[rng.IntN(3)], "-100m")
		return true
	})},
	{"milli for mega", onContainer(func(rng *rand.Rand, c obj) bool {
		setResources(c, []string{"requests", "limits"}[rng.IntN(2)], "memory", "512m")
		return true
	})},
	{"unknown resource name", onContainer(func(rng *rand.Rand, c obj) bool {
		setResources(c, "limits", []string{"gpu", "nvidia.com/gpu", "memmory", "hugepages-2Mi"}[rng.IntN(4)], "1")
		return true
	})},
	{"misspelt pull policy", onContainer(func(_ *rand.Rand, c obj) bool {
		c["imagePullPolicy"] = "always"
		return true
	})},
	{"probe with two handlers", onContainer(func(_ *rand.Rand, c obj) bool {
		c["livenessProbe"] = obj{"httpGet": obj{"path": "/healthz", "port": 8080}, "tcpSocket": obj{"port": 8080}}
		return true
	})},
	{"probe without handler", onContainer(func(_ *rand.Rand, c obj) bool {
		c["readinessProbe"] = obj{"initialDelaySeconds": 5, "periodSeconds": 10}
		return true
	})},
	{"probe with a bad port or threshold", onContainer(func(rng *rand.Rand, c obj) bool {
		p := obj{"httpGet": obj{"path": "/ready", "port": []any{"health_port", 0, "a-very-long-port-name"}[rng.IntN(3)]}}
		if rng.IntN(2) == 0 {
			p = obj{"tcpSocket": obj{"port": 8080}, "successThreshold": 3}
		}
		c["livenessProbe"] = p
		return true
	})},
	{"mount of an undeclared volume", onContainer(func(_ *rand.Rand, c obj) bool {
		c["volumeMounts"] = append(list(c, "volumeMounts"), obj{"name": "cache-volume", "mountPath": "/cache"})
		return true
	})},
	{"two mounts at one path", onContainer(func(_ *rand.Rand, c obj) bool {
		ms := list(c, "volumeMounts")
		if len(ms) == 0 {
			return false
		}
		m, _ := ms[0].(obj)
		dup := obj{}
		for k, v := range m {
			dup[k] = v
		}
		c["volumeMounts"] = append(ms, dup)
		return true
	})},
	{"env var with a value and a source", onContainer(func(_ *rand.Rand, c obj) bool {
		c["env"] = append(list(c, "env"), obj{"name": "POD_NAME", "value": "x", "valueFrom": obj{"fieldRef": obj{"fieldPath": "metadata.name"}}})
		return true
	})},
	{"env var from a bad field", onContainer(func(rng *rand.Rand, c obj) bool {
		c["env"] = append(list(c, "env"), obj{"name": "NODE", "valueFrom": obj{"fieldRef": obj{"fieldPath": []string{"spec.node", "status.podIP ", "metadata.labels"}[rng.IntN(3)]}}})
		return true
	})},
	{"restart policy the kind refuses", onPodSpec(func(rng *rand.Rand, spec obj) bool {
		spec["restartPolicy"] = []string{"OnFailure", "Never", "always"}[rng.IntN(3)]
		return true
	})},
	{"negative number in the Pod spec", onPodSpec(func(rng *rand.Rand, spec obj) bool {
		switch rng.IntN(3) {
		case 0:
			spec["terminationGracePeriodSeconds"] = -5
		case 1:
			child(spec, "securityContext", true)["runAsUser"] = -1
		default:
			spec["activeDeadlineSeconds"] = 0
		}
		return true
	})},
	{"init container restart policy", onPodSpec(func(rng *rand.Rand, spec obj) bool {
		cs := list(spec, "initContainers")
		if len(cs) == 0 {
			return false
		}
		c, _ := cs[0].(obj)
		c["restartPolicy"] = []string{"Always", "Never", "OnFailure"}[rng.IntN(3)]
		return true
	})},
	{"bad scheduling constraint", onPodSpec(func(rng *rand.Rand, spec obj) bool {
		switch rng.IntN(4) {
		case 0:
			spec["topologySpreadConstraints"] = []any{obj{"maxSkew": 0, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule"}}
		case 1:
			spec["tolerations"] = append(list(spec, "tolerations"), obj{"key": "dedicated", "operator": "Exists", "value": "infra"})
		case 2:
			child(spec, "nodeSelector", true)["node role"] = "worker"
		default:
			child(child(child(spec, "affinity", true), "nodeAffinity", true), "requiredDuringSchedulingIgnoredDuringExecution", true)["nodeSelectorTerms"] = []any{}
		}
		return true
	})},
	{"name not a DNS subdomain", func(_ *rand.Rand, root obj) bool {
		m := child(root, "metadata", false)
		n, _ := m["name"].(string)
		if m == nil || n == "" {
			return false
		}
		m["name"] = strings.ToUpper(n[:1]) + n[1:] + "_v2"
		return true
	}},
	{"long name (a Helm fullname cut at 63)", func(rng *rand.Rand, root obj) bool {
		// Valid as a DNS label, but what is made of it may not be: a
		// StatefulSet's revision label (WL-07), a CronJob's Jobs, a Job's
		// Pod labels, a Service's name.
		m := child(root, "metadata", false)
		n, _ := m["name"].(string)
		if m == nil || n == "" {
			return false
		}
		long := strings.TrimRight((n + "-" + strings.Repeat("release-name-chart-name-", 3))[:45+rng.IntN(19)], "-")
		m["name"] = long
		return true
	}},
	{"bad label", func(rng *rand.Rand, root obj) bool {
		l := child(child(root, "metadata", true), "labels", true)
		switch rng.IntN(3) {
		case 0:
			l["app.kubernetes.io/version"] = strings.Repeat("1.2.3-", 12)
		case 1:
			l["app/name/part"] = "x"
		default:
			l["release"] = "my release"
		}
		return true
	}},
	{"selector that misses the template", ofKind("Deployment ReplicaSet StatefulSet DaemonSet", func(_ *rand.Rand, root obj) bool {
		_, meta := podSpec(root)
		l := child(meta, "labels", false)
		if len(l) == 0 {
			return false
		}
		for k := range l {
			l[k] = "other"
			break
		}
		return true
	})},
	{"negative or string replicas", ofKind("Deployment ReplicaSet StatefulSet ReplicationController", func(_ *rand.Rand, root obj) bool {
		child(root, "spec", true)["replicas"] = -1
		return true
	})},
	{"bad rollout strategy", ofKind("Deployment", func(rng *rand.Rand, root obj) bool {
		s := child(root, "spec", true)
		if rng.IntN(2) == 0 {
			s["strategy"] = obj{"type": "Rolling"}
		} else {
			s["strategy"] = obj{"type": "RollingUpdate", "rollingUpdate": obj{"maxUnavailable": 0, "maxSurge": 0}}
		}
		return true
	})},
	{"bad StatefulSet field", ofKind("StatefulSet", func(rng *rand.Rand, root obj) bool {
		s := child(root, "spec", true)
		if rng.IntN(2) == 0 {
			s["serviceName"] = "My_Service"
		} else {
			s["podManagementPolicy"] = "parallel"
		}
		return true
	})},
	{"bad Job field", ofKind("Job CronJob", func(rng *rand.Rand, root obj) bool {
		s := child(root, "spec", true)
		if root["kind"] == "CronJob" {
			if rng.IntN(2) == 0 {
				s["schedule"] = "*/5 * * *"
			} else {
				s["concurrencyPolicy"] = "Never"
			}
			return true
		}
		switch rng.IntN(3) {
		case 0:
			s["completions"] = -1
		case 1:
			s["backoffLimit"] = -2
		default:
			s["completionMode"] = "indexed"
		}
		return true
	})},
	{"bad Service port", ofKind("Service", func(rng *rand.Rand, root obj) bool {
		ps := list(child(root, "spec", true), "ports")
		if len(ps) == 0 {
			return false
		}
		p, _ := ps[rng.IntN(len(ps))].(obj)
		switch rng.IntN(4) {
		case 0:
			p["port"] = 0
		case 1:
			p["targetPort"] = "http_port"
		case 2:
			p["protocol"] = "tcp"
		default:
			p["nodePort"] = 30080
		}
		return true
	})},
	{"misspelt Service type", ofKind("Service", func(rng *rand.Rand, root obj) bool {
		child(root, "spec", true)["type"] = []string{"Nodeport", "LoadBalancer ", "clusterIP"}[rng.IntN(3)]
		return true
	})},
	{"bad data key", ofKind("ConfigMap Secret", func(rng *rand.Rand, root obj) bool {
		key := []string{"bad key", "config/app.yaml", ".."}[rng.IntN(3)]
		if root["kind"] == "Secret" {
			child(root, "stringData", true)[key] = "x"
		} else {
			child(root, "data", true)[key] = "x"
		}
		return true
	})},
	{"bad claim", ofKind("PersistentVolumeClaim", func(rng *rand.Rand, root obj) bool {
		s := child(root, "spec", true)
		switch rng.IntN(3) {
		case 0:
			s["accessModes"] = []any{"ReadWriteOnly"}
		case 1:
			delete(child(child(s, "resources", true), "requests", true), "storage")
		default:
			child(child(s, "resources", true), "requests", true)["storage"] = "0"
		}
		return true
	})},
	{"bad Ingress rule", ofKind("Ingress", func(rng *rand.Rand, root obj) bool {
		var paths []obj
		for _, r := range list(child(root, "spec", true), "rules") {
			for _, p := range list(child(r.(obj), "http", true), "paths") {
				paths = append(paths, p.(obj))
			}
		}
		if len(paths) == 0 {
			return false
		}
		p := paths[rng.IntN(len(paths))]
		switch rng.IntN(4) {
		case 0:
			delete(p, "pathType")
		case 1:
			p["pathType"] = "Regex"
		case 2:
			p["path"] = "api/v1"
		default:
			p["backend"] = obj{"service": obj{"name": "web"}}
		}
		return true
	})},
	{"bad Ingress host or TLS", ofKind("Ingress", func(rng *rand.Rand, root obj) bool {
		s := child(root, "spec", true)
		if rng.IntN(2) == 0 {
			rs := list(s, "rules")
			if len(rs) == 0 {
				return false
			}
			rs[0].(obj)["host"] = []string{"https://example.com", "*.*.example.com", "Example.com:443"}[rng.IntN(3)]
			return true
		}
		s["tls"] = []any{obj{"hosts": []any{"bad_host.example.com"}, "secretName": "tls"}}
		return true
	})},
	{"bad NetworkPolicy", ofKind("NetworkPolicy", func(rng *rand.Rand, root obj) bool {
		s := child(root, "spec", true)
		switch rng.IntN(4) {
		case 0:
			s["policyTypes"] = []any{"ingress"}
		case 1:
			s["ingress"] = append(list(s, "ingress"), obj{"ports": []any{obj{"protocol": "HTTP", "port": 80}}})
		case 2:
			s["egress"] = append(list(s, "egress"), obj{"to": []any{obj{"ipBlock": obj{"cidr": "10.0.0.0/33"}}}})
		default:
			s["ingress"] = append(list(s, "ingress"), obj{"ports": []any{obj{"port": 8080, "endPort": 80}}})
		}
		return true
	})},
	{"bad autoscaler bounds", ofKind("HorizontalPodAutoscaler", func(rng *rand.Rand, root obj) bool {
		s := child(root, "spec", true)
		switch rng.IntN(3) {
		case 0:
			s["minReplicas"] = 0
		case 1:
			s["minReplicas"], s["maxReplicas"] = 5, 2
		default:
			delete(s, "scaleTargetRef")
		}
		return true
	})},
	{"PodDisruptionBudget with both bounds", ofKind("PodDisruptionBudget", func(rng *rand.Rand, root obj) bool {
		s := child(root, "spec", true)
		if rng.IntN(2) == 0 {
			s["minAvailable"], s["maxUnavailable"] = 1, 1
		} else {
			s["maxUnavailable"] = "150%"
		}
		return true
	})},
	{"bad binding", ofKind("RoleBinding ClusterRoleBinding", func(rng *rand.Rand, root obj) bool {
		switch rng.IntN(3) {
		case 0:
			child(root, "roleRef", true)["kind"] = "Clusterrole"
		case 1:
			child(root, "roleRef", true)["apiGroup"] = "rbac.authorization.k8s.io/v1"
		default:
			root["subjects"] = append(list(root, "subjects"), obj{"kind": "ServiceAccount", "name": "deployer"})
		}
		return true
	})},
	{"bad rule", ofKind("Role ClusterRole", func(rng *rand.Rand, root obj) bool {
		r := obj{"apiGroups": []any{""}, "resources": []any{"pods"}}
		if rng.IntN(2) == 0 {
			r = obj{"verbs": []any{"get"}, "nonResourceURLs": []any{"/healthz"}, "resources": []any{"pods"}, "apiGroups": []any{""}}
		}
		root["rules"] = append(list(root, "rules"), r)
		return true
	})},
	{"bad webhook", ofKind("ValidatingWebhookConfiguration MutatingWebhookConfiguration", func(rng *rand.Rand, root obj) bool {
		ws := list(root, "webhooks")
		if len(ws) == 0 {
			return false
		}
		w := ws[rng.IntN(len(ws))].(obj)
		switch rng.IntN(4) {
		case 0:
			delete(w, "sideEffects")
		case 1:
			w["admissionReviewVersions"] = []any{"v2"}
		case 2:
			w["failurePolicy"] = "Fail "
		default:
			w["timeoutSeconds"] = 60
		}
		return true
	})},
	{"saved from a cluster", func(rng *rand.Rand, root obj) bool {
		m := child(root, "metadata", true)
		m["resourceVersion"] = []string{"481516", "0", "7"}[rng.IntN(3)]
		m["uid"] = "5f1c0a6e-2b7d-4c1e-9a53-0d6f3e8b2a41"
		m["creationTimestamp"] = "2025-03-02T09:24:46Z"
		m["generation"] = 4
		if root["kind"] == "Pod" {
			root["status"] = obj{"phase": "Running", "qosClass": []string{"BestEffort", "Burstable", "Guaranteed"}[rng.IntN(3)]}
		}
		return true
	}},
}
