package conformance

// Pod and Pod template mistakes (VAL-10..VAL-31): realistic errors in every
// field family of a Pod spec, each a named mutation applied with a small
// probability to a generated Pod or workload template, so that several can
// combine in one object. Mutations marked podOnly are not applied to
// templates: they trip workload rules (restartPolicy, activeDeadlineSeconds)
// that are the workload validation's.

import (
	"strings"
	"sync"

	"k8s.io/kubernetes/pkg/capabilities"
)

func init() {
	// kube-apiserver as clusters run it: --allow-privileged=true.
	capabilities.Initialize(capabilities.Capabilities{AllowPrivileged: true})
}

type podMistake struct {
	name    string
	podOnly bool
	apply   func(g *Generator, spec obj)
}

var (
	podMistakeMu    sync.Mutex
	podMistakeStats = map[string]int{}
)

// PodMistakeStats returns how often each mistake was applied, keyed "mistake: <name>".
func PodMistakeStats() map[string]int {
	podMistakeMu.Lock()
	defer podMistakeMu.Unlock()
	out := map[string]int{}
	for k, v := range podMistakeStats {
		out["mistake: "+k] = v
	}
	return out
}

// podMistakes applies each mistake with a small probability to spec (a Pod's
// spec when pod, else a workload template's).
func (g *Generator) podMistakes(spec obj, pod bool) {
	p := 0.012
	if g.chance(0.5) {
		return // half the objects stay free of spec mistakes
	}
	for _, m := range podMistakeList {
		if (m.podOnly && !pod) || !g.chance(p) {
			continue
		}
		m.apply(g, spec)
		podMistakeMu.Lock()
		podMistakeStats[m.name]++
		podMistakeMu.Unlock()
	}
}

// container picks one of the spec's containers (sometimes an init container).
func (g *Generator) anyContainer(spec obj) obj {
	if inits, ok := spec["initContainers"].([]any); ok && len(inits) > 0 && g.chance(0.3) {
		return inits[g.r.IntN(len(inits))].(obj)
	}
	cs := spec["containers"].([]any)
	return cs[g.r.IntN(len(cs))].(obj)
}

func appendTo(o obj, key string, v any) {
	l, _ := o[key].([]any)
	o[key] = append(l, v)
}

func addVolume(spec obj, v obj) { appendTo(spec, "volumes", v) }

func securityContext(o obj) obj {
	sc, _ := o["securityContext"].(obj)
	if sc == nil {
		sc = obj{}
		o["securityContext"] = sc
	}
	return sc
}

func (g *Generator) probeKind() string {
	return g.pick([]any{"livenessProbe", "readinessProbe", "startupProbe"}).(string)
}

var podMistakeList = []podMistake{
	// Containers (VAL-11).
	{name: "image missing", apply: func(g *Generator, s obj) { delete(g.anyContainer(s), "image") }},
	{name: "image with surrounding spaces", apply: func(g *Generator, s obj) { g.anyContainer(s)["image"] = " registry.example/app:1 " }},
	{name: "container name duplicated", apply: func(g *Generator, s obj) {
		cs := s["containers"].([]any)
		c := g.anyContainer(s)
		c["name"] = cs[0].(obj)["name"]
		if c2 := g.anyContainer(s); g.chance(0.3) {
			c2["name"] = c["name"]
		}
	}},
	{name: "container name uppercase", apply: func(g *Generator, s obj) { g.anyContainer(s)["name"] = g.pick([]any{"Web", "app_1", "my.app"}) }},
	{name: "container name empty", apply: func(g *Generator, s obj) { g.anyContainer(s)["name"] = "" }},
	{name: "terminationMessagePolicy unknown", apply: func(g *Generator, s obj) { g.anyContainer(s)["terminationMessagePolicy"] = "Always" }},
	{name: "imagePullPolicy unknown", apply: func(g *Generator, s obj) {
		g.anyContainer(s)["imagePullPolicy"] = g.pick([]any{"Sometimes", "always"})
	}},
	// Ports (VAL-15).
	{name: "containerPort 0 or out of range", apply: func(g *Generator, s obj) {
		appendTo(g.anyContainer(s), "ports", obj{"containerPort": g.pick([]any{0, 70000, -1})})
	}},
	{name: "port names duplicated", apply: func(g *Generator, s obj) {
		c := g.anyContainer(s)
		appendTo(c, "ports", obj{"name": "http", "containerPort": 80})
		appendTo(c, "ports", obj{"name": "http", "containerPort": 8080})
	}},
	{name: "port name invalid", apply: func(g *Generator, s obj) {
		appendTo(g.anyContainer(s), "ports", obj{"name": g.pick([]any{"this-name-is-too-long", "HTTP", "80", "a--b"}), "containerPort": 81})
	}},
	{name: "port protocol unknown", apply: func(g *Generator, s obj) {
		appendTo(g.anyContainer(s), "ports", obj{"containerPort": 82, "protocol": g.pick([]any{"HTTP", "tcp"})})
	}},
	{name: "hostPort conflict or out of range", apply: func(g *Generator, s obj) {
		hp := g.pick([]any{8080, 8080, 70000}).(int)
		appendTo(g.anyContainer(s), "ports", obj{"containerPort": 83, "hostPort": hp})
		appendTo(g.anyContainer(s), "ports", obj{"containerPort": 84, "hostPort": hp})
	}},
	// Env (VAL-14).
	{name: "env name invalid", apply: func(g *Generator, s obj) {
		appendTo(g.anyContainer(s), "env", obj{"name": g.pick([]any{"A=B", "", "1ST", "my-var", "with space"}), "value": "x"})
	}},
	{name: "env valueFrom two sources", apply: func(g *Generator, s obj) {
		appendTo(g.anyContainer(s), "env", obj{"name": "TWO", "valueFrom": obj{
			"fieldRef":        obj{"fieldPath": "metadata.name"},
			"configMapKeyRef": obj{"name": "cm", "key": "k"}}})
	}},
	{name: "env valueFrom empty or with value", apply: func(g *Generator, s obj) {
		e := obj{"name": "EMPTY", "valueFrom": obj{}}
		if g.chance(0.5) {
			e = obj{"name": "BOTH", "value": "v", "valueFrom": obj{"secretKeyRef": obj{"name": "s", "key": "k"}}}
		}
		appendTo(g.anyContainer(s), "env", e)
	}},
	{name: "env fieldRef path unsupported", apply: func(g *Generator, s obj) {
		fp := g.pick([]any{"metadata.foo", "status.phase", "spec.host", "metadata.labels['app']", "metadata.annotations['Bad Key']", "spec.nodeName['x']"})
		f := obj{"fieldPath": fp}
		if g.chance(0.2) {
			f["apiVersion"] = "v2"
		}
		appendTo(g.anyContainer(s), "env", obj{"name": "F", "valueFrom": obj{"fieldRef": f}})
	}},
	{name: "env key reference invalid", apply: func(g *Generator, s obj) {
		ref := obj{"name": g.pick([]any{"cm", "Bad_Name", ""}), "key": g.pick([]any{"a/b", "", "ok.key", "sp ace"})}
		kind := g.pick([]any{"configMapKeyRef", "secretKeyRef"}).(string)
		appendTo(g.anyContainer(s), "env", obj{"name": "K", "valueFrom": obj{kind: ref}})
	}},
	{name: "env resourceFieldRef invalid", apply: func(g *Generator, s obj) {
		ref := obj{"resource": g.pick([]any{"limits.gpu", "requests.cpu", "limits.memory", "requests.hugepages-2Mi", ""})}
		if g.chance(0.6) {
			ref["divisor"] = g.pick([]any{"3m", "1m", "1Mi", "2"})
		}
		appendTo(g.anyContainer(s), "env", obj{"name": "R", "valueFrom": obj{"resourceFieldRef": ref}})
	}},
	{name: "envFrom without source or bad prefix", apply: func(g *Generator, s obj) {
		e := obj{"prefix": g.pick([]any{"X_", "A=B"})}
		switch g.r.IntN(3) {
		case 0:
			e["configMapRef"] = obj{"name": "cm"}
			e["secretRef"] = obj{"name": "s"}
		case 1:
			e["configMapRef"] = obj{"name": g.pick([]any{"", "Bad_Name"})}
		}
		appendTo(g.anyContainer(s), "envFrom", e)
	}},
	{name: "env fileKeyRef volume not emptyDir", apply: func(g *Generator, s obj) {
		addVolume(s, obj{"name": "cfgfile", "configMap": obj{"name": "cm"}})
		appendTo(g.anyContainer(s), "env", obj{"name": "FK", "valueFrom": obj{"fileKeyRef": obj{
			"volumeName": g.pick([]any{"cfgfile", "missing"}), "path": g.pick([]any{"env", "../env"}), "key": "K"}}})
	}},
	// Mounts and devices (VAL-16).
	{name: "volumeMount of a missing volume", apply: func(g *Generator, s obj) {
		appendTo(g.anyContainer(s), "volumeMounts", obj{"name": "nope", "mountPath": "/nope"})
	}},
	{name: "mountPath duplicated or missing", apply: func(g *Generator, s obj) {
		addVolume(s, obj{"name": "scratch", "emptyDir": obj{}})
		c := g.anyContainer(s)
		appendTo(c, "volumeMounts", obj{"name": "scratch", "mountPath": "/data"})
		appendTo(c, "volumeMounts", obj{"name": "scratch", "mountPath": g.pick([]any{"/data", ""})})
	}},
	{name: "subPath absolute or with ..", apply: func(g *Generator, s obj) {
		addVolume(s, obj{"name": "sub", "emptyDir": obj{}})
		m := obj{"name": "sub", "mountPath": "/sub", "subPath": g.pick([]any{"/abs", "a/../b", "ok"})}
		if g.chance(0.3) {
			m["subPathExpr"] = "$(POD)"
		}
		appendTo(g.anyContainer(s), "volumeMounts", m)
	}},
	{name: "mountPropagation Bidirectional unprivileged", apply: func(g *Generator, s obj) {
		addVolume(s, obj{"name": "prop", "emptyDir": obj{}})
		appendTo(g.anyContainer(s), "volumeMounts", obj{"name": "prop", "mountPath": "/prop", "mountPropagation": g.pick([]any{"Bidirectional", "Shared"})})
	}},
	{name: "volumeDevice on emptyDir", apply: func(g *Generator, s obj) {
		addVolume(s, obj{"name": "blk", "emptyDir": obj{}})
		appendTo(g.anyContainer(s), "volumeDevices", obj{"name": g.pick([]any{"blk", "gone"}), "devicePath": "/dev/xvda"})
	}},
	// Probes and lifecycle (VAL-13).
	{name: "probe with two handlers", apply: func(g *Generator, s obj) {
		g.anyContainer(s)[g.probeKind()] = obj{"exec": obj{"command": []any{"true"}}, "httpGet": obj{"port": 8080}}
	}},
	{name: "probe without handler", apply: func(g *Generator, s obj) {
		g.anyContainer(s)[g.probeKind()] = obj{"periodSeconds": 5}
	}},
	{name: "probe negative values", apply: func(g *Generator, s obj) {
		g.anyContainer(s)[g.probeKind()] = obj{"tcpSocket": obj{"port": 80}, "periodSeconds": -1, "initialDelaySeconds": -5, "failureThreshold": g.pick([]any{-1, 3})}
	}},
	{name: "probe successThreshold not 1", apply: func(g *Generator, s obj) {
		g.anyContainer(s)[g.probeKind()] = obj{"grpc": obj{"port": 9000}, "successThreshold": 2}
	}},
	{name: "probe terminationGracePeriodSeconds", apply: func(g *Generator, s obj) {
		g.anyContainer(s)[g.probeKind()] = obj{"exec": obj{"command": []any{"true"}}, "terminationGracePeriodSeconds": g.pick([]any{0, 10})}
	}},
	{name: "probe handler invalid", apply: func(g *Generator, s obj) {
		h := g.pick([]any{
			obj{"httpGet": obj{"port": 0}},
			obj{"httpGet": obj{"port": "Too_Long_Port_Name", "scheme": "FTP"}},
			obj{"httpGet": obj{"port": 80, "httpHeaders": []any{obj{"name": "Bad Header", "value": "x"}}}},
			obj{"exec": obj{}},
			obj{"tcpSocket": obj{"port": 70000}},
		}).(obj)
		g.anyContainer(s)[g.probeKind()] = h
	}},
	{name: "lifecycle handler invalid", apply: func(g *Generator, s obj) {
		h := g.pick([]any{
			obj{"sleep": obj{"seconds": 100}},
			obj{"sleep": obj{"seconds": -1}},
			obj{},
			obj{"exec": obj{"command": []any{"true"}}, "sleep": obj{"seconds": 1}},
		}).(obj)
		g.anyContainer(s)["lifecycle"] = obj{g.pick([]any{"preStop", "postStart"}).(string): h}
	}},
	{name: "init container with probe", apply: func(g *Generator, s obj) {
		inits, _ := s["initContainers"].([]any)
		c := obj{"name": "init-probe", "image": "registry.example/init:1", "readinessProbe": obj{"exec": obj{"command": []any{"true"}}}}
		if g.chance(0.5) {
			c["restartPolicy"] = "Always" // a sidecar may have probes ...
			c["livenessProbe"] = obj{"exec": obj{"command": []any{"true"}}, "successThreshold": 3}
		}
		s["initContainers"] = append(inits, c)
	}},
	{name: "container restartPolicy rules invalid", apply: func(g *Generator, s obj) {
		c := g.anyContainer(s)
		c["restartPolicy"] = g.pick([]any{"Never", "Sometimes", "OnFailure"})
		c["restartPolicyRules"] = []any{obj{"action": g.pick([]any{"Restart", "Reboot"}), "exitCodes": obj{"operator": g.pick([]any{"In", "Equals"}), "values": []any{42}}}}
	}},
	{name: "resizePolicy invalid", apply: func(g *Generator, s obj) {
		g.anyContainer(s)["resizePolicy"] = []any{
			obj{"resourceName": g.pick([]any{"cpu", "gpu"}), "restartPolicy": g.pick([]any{"NotRequired", "RestartContainer", "Sometimes"})},
			obj{"resourceName": "cpu", "restartPolicy": "NotRequired"},
		}
	}},
	// Security contexts (VAL-18, VAL-25).
	{name: "runAsUser negative", apply: func(g *Generator, s obj) {
		target := g.anyContainer(s)
		if g.chance(0.4) {
			target = s
		}
		securityContext(target)[g.pick([]any{"runAsUser", "runAsGroup"}).(string)] = -1
	}},
	{name: "capabilities lowercase (accepted)", apply: func(g *Generator, s obj) {
		securityContext(g.anyContainer(s))["capabilities"] = obj{"add": []any{"net_admin"}, "drop": []any{"all"}}
	}},
	{name: "privileged without privilege escalation", apply: func(g *Generator, s obj) {
		sc := securityContext(g.anyContainer(s))
		sc["privileged"] = true
		if g.chance(0.6) {
			sc["allowPrivilegeEscalation"] = false
		}
	}},
	{name: "seccomp profile invalid", apply: func(g *Generator, s obj) {
		target := g.anyContainer(s)
		if g.chance(0.4) {
			target = s
		}
		securityContext(target)["seccompProfile"] = g.pick([]any{
			obj{"type": "Localhost"}, obj{"type": "Bogus"}, obj{"type": "RuntimeDefault", "localhostProfile": "p.json"},
			obj{"type": "Localhost", "localhostProfile": "../p.json"},
		})
	}},
	{name: "appArmor profile invalid", apply: func(g *Generator, s obj) {
		securityContext(g.anyContainer(s))["appArmorProfile"] = g.pick([]any{
			obj{"type": "Localhost"}, obj{"type": "Localhost", "localhostProfile": " padded "}, obj{"type": "Unconfined", "localhostProfile": "x"}, obj{"type": "Enforce"},
		})
	}},
	{name: "pod sysctl invalid", apply: func(g *Generator, s obj) {
		securityContext(s)["sysctls"] = []any{obj{"name": g.pick([]any{"net.core.somaxconn", "Bad..Name", ""}), "value": "1"}, obj{"name": "net.core.somaxconn", "value": "2"}}
		if g.chance(0.3) {
			s["hostNetwork"] = true
		}
	}},
	{name: "fsGroupChangePolicy or seLinuxChangePolicy unknown", apply: func(g *Generator, s obj) {
		sc := securityContext(s)
		if g.chance(0.5) {
			sc["fsGroupChangePolicy"] = "Sometimes"
		} else {
			sc["seLinuxChangePolicy"] = g.pick([]any{"MountOption", "Recursive", "Bogus"})
		}
	}},
	{name: "os windows with linux-only fields", apply: func(g *Generator, s obj) {
		s["os"] = obj{"name": "windows"}
		securityContext(s)["runAsUser"] = 1000
		sc := securityContext(g.anyContainer(s))
		sc["capabilities"] = obj{"add": []any{"NET_ADMIN"}}
		sc["readOnlyRootFilesystem"] = true
	}},
	{name: "os name unknown or linux with windowsOptions", apply: func(g *Generator, s obj) {
		if g.chance(0.5) {
			s["os"] = obj{"name": g.pick([]any{"macos", ""})}
		} else {
			s["os"] = obj{"name": "linux"}
			securityContext(g.anyContainer(s))["windowsOptions"] = obj{"runAsUserName": "admin"}
		}
	}},
	{name: "windows hostProcess, runAsUserName or gmsa wrong", apply: func(g *Generator, s obj) {
		// VAL-30: windowsOptions of the pod and its containers, HostProcess pods.
		w := obj{}
		switch g.r.IntN(6) {
		case 0:
			w["hostProcess"] = true
			if g.chance(0.5) {
				s["hostNetwork"] = true
			}
		case 1:
			w["hostProcess"] = g.chance(0.5)
			securityContext(g.anyContainer(s))["windowsOptions"] = obj{"hostProcess": g.chance(0.5)}
		case 2:
			w["runAsUserName"] = g.pick([]any{`CORP\admin`, `a\b\c`, "", `.corp\svc`, `corp.example.com\svc`, `CORP\`, "adm:in", ". .", "ContainerAdministrator", "adm\tin"})
		case 3:
			w["runAsUserName"] = strings.Repeat("u", 104+g.r.IntN(2))
		case 4:
			w["gmsaCredentialSpecName"] = g.pick([]any{"webapp1", "WebApp_Spec", "web.app-1"})
			if g.chance(0.5) {
				w["gmsaCredentialSpec"] = g.pick([]any{"", `{"CmsPlugins":["ActiveDirectory"]}`})
			}
		default:
			w["runAsUserName"] = strings.Repeat("d", 255+g.r.IntN(2)) + `\user`
		}
		if g.chance(0.5) {
			securityContext(s)["windowsOptions"] = w
		} else {
			securityContext(g.anyContainer(s))["windowsOptions"] = w
		}
	}},
	{name: "hostUsers false with host namespaces", apply: func(g *Generator, s obj) {
		s["hostUsers"] = false
		s[g.pick([]any{"hostPID", "hostIPC", "hostNetwork"}).(string)] = true
	}},
	{name: "hostNetwork hostPort mismatch", apply: func(g *Generator, s obj) {
		s["hostNetwork"] = true
		cs := s["containers"].([]any)
		appendTo(cs[0].(obj), "ports", obj{"containerPort": 9090, "hostPort": g.pick([]any{9091, 9090})})
	}},
	// Volumes (VAL-20..VAL-24).
	{name: "volume with two sources", apply: func(g *Generator, s obj) {
		addVolume(s, obj{"name": "two", "emptyDir": obj{}, g.pick([]any{"configMap", "secret", "downwardAPI"}).(string): obj{}})
	}},
	{name: "volume without source (defaulted to emptyDir)", apply: func(g *Generator, s obj) {
		addVolume(s, obj{"name": "nosrc"})
	}},
	{name: "volume names duplicated or invalid", apply: func(g *Generator, s obj) {
		n := g.pick([]any{"data", "Data", "", "a.b"})
		addVolume(s, obj{"name": n, "emptyDir": obj{}})
		addVolume(s, obj{"name": n, "emptyDir": obj{}})
	}},
	{name: "emptyDir sizeLimit negative", apply: func(g *Generator, s obj) {
		addVolume(s, obj{"name": "neg", "emptyDir": obj{"sizeLimit": g.pick([]any{"-1Gi", "1Gi"})}})
	}},
	{name: "configMap or secret item path invalid", apply: func(g *Generator, s obj) {
		item := obj{"key": g.pick([]any{"k", ""}), "path": g.pick([]any{"../x", "..x", "/etc/x", "a/../b", ""})}
		if g.chance(0.3) {
			item["mode"] = 01000
		}
		if g.chance(0.5) {
			addVolume(s, obj{"name": "cmv", "configMap": obj{"name": g.pick([]any{"cm", ""}), "items": []any{item}}})
		} else {
			addVolume(s, obj{"name": "sv", "secret": obj{"secretName": g.pick([]any{"s", ""}), "items": []any{item}, "defaultMode": g.pick([]any{0644, -1})}})
		}
	}},
	{name: "hostPath invalid", apply: func(g *Generator, s obj) {
		addVolume(s, obj{"name": "hp", "hostPath": obj{"path": g.pick([]any{"", "/var/../etc", "/var/log"}), "type": g.pick([]any{"Dir", "Directory"})}})
	}},
	{name: "ephemeral container copied from a live Pod", apply: func(g *Generator, s obj) {
		cs := s["containers"].([]any)
		first := cs[0].(obj)["name"]
		ec := obj{"name": g.pick([]any{"debugger", first, "Debug_1"}), "image": g.pick([]any{"busybox:1.36", " busybox ", ""}),
			"targetContainerName": g.pick([]any{first, "gone", "", "debugger"})}
		if g.chance(0.5) {
			// A field only regular containers may have.
			set := []obj{{"resources": obj{"limits": obj{"cpu": "100m"}}}, {"ports": []any{obj{"containerPort": 8080}}},
				{"livenessProbe": obj{"exec": obj{"command": []any{"true"}}}}, {"lifecycle": obj{"preStop": obj{"exec": obj{"command": []any{"true"}}}}},
				{"resizePolicy": []any{obj{"resourceName": "cpu", "restartPolicy": "NotRequired"}}}, {"restartPolicy": "Always"}}
			for k, v := range set[g.r.IntN(len(set))] {
				ec[k] = v
			}
		}
		if g.chance(0.3) {
			ec["volumeMounts"] = []any{obj{"name": "gone", "mountPath": "/d", g.pick([]any{"subPath", "subPathExpr"}).(string): "x"}}
		}
		if g.chance(0.3) {
			ec["stdin"], ec["tty"] = true, true
		}
		appendTo(s, "ephemeralContainers", ec)
	}},
	{name: "in-tree volume source incomplete", apply: func(g *Generator, s obj) {
		src := intreeSources[g.r.IntN(len(intreeSources))]
		name := g.pick([]any{"disk", "data-volume-with-a-rather-long-name-for-iscsi"}).(string)
		addVolume(s, obj{"name": name, src: intreeSource(g.r, src, false, 0.5)})
		if g.chance(0.5) {
			cs := s["containers"].([]any)
			appendTo(cs[0].(obj), "volumeMounts", obj{"name": name, "mountPath": "/mnt/disk"})
		}
	}},
	{name: "persistentVolumeClaim claimName missing", apply: func(g *Generator, s obj) {
		addVolume(s, obj{"name": "pvc", "persistentVolumeClaim": obj{}})
	}},
	{name: "downwardAPI volume item invalid", apply: func(g *Generator, s obj) {
		item := g.pick([]any{
			obj{"path": "node", "fieldRef": obj{"fieldPath": "spec.nodeName"}},
			obj{"path": "cpu", "resourceFieldRef": obj{"resource": "limits.cpu"}},
			obj{"path": "none"},
			obj{"path": "../up", "fieldRef": obj{"fieldPath": "metadata.name"}},
		})
		addVolume(s, obj{"name": "dapi", "downwardAPI": obj{"items": []any{item}}})
	}},
	{name: "projected volume invalid", apply: func(g *Generator, s obj) {
		srcs := []any{obj{"configMap": obj{"name": "cm", "items": []any{obj{"key": "a", "path": "p"}}}},
			obj{"secret": obj{"name": "s", "items": []any{obj{"key": "b", "path": g.pick([]any{"p", "q"})}}}}}
		if g.chance(0.5) {
			srcs = append(srcs, obj{"serviceAccountToken": obj{"path": g.pick([]any{"token", "/token", ""}), "expirationSeconds": g.pick([]any{60, 3600})}})
		}
		if g.chance(0.3) {
			srcs = append(srcs, obj{"configMap": obj{"name": "x"}, "secret": obj{"name": "y"}})
		}
		addVolume(s, obj{"name": "proj", "projected": obj{"sources": srcs}})
		if g.chance(0.4) {
			s["serviceAccountName"] = "builder"
		}
	}},
	{name: "ephemeral claim template invalid", apply: func(g *Generator, s obj) {
		tmpl := g.pick([]any{
			obj{"spec": obj{"accessModes": []any{"ReadWriteOnce"}}},
			obj{"metadata": obj{"name": "x", "labels": obj{"a": "b"}}, "spec": obj{"accessModes": []any{"ReadWriteOnce"}, "resources": obj{"requests": obj{"storage": "1Gi"}}}},
			obj{"metadata": obj{"labels": obj{"bad key!": "v"}}, "spec": obj{"resources": obj{"requests": obj{"storage": "0"}}}},
			obj{"spec": obj{"accessModes": []any{"ReadWriteOnce"}, "resources": obj{"requests": obj{"storage": "1Gi"}}, "volumeMode": "Raw"}},
		})
		addVolume(s, obj{"name": "scratch", "ephemeral": obj{"volumeClaimTemplate": tmpl}})
	}},
	{name: "ephemeral volume without claim template", apply: func(g *Generator, s obj) {
		addVolume(s, obj{"name": "eph", "ephemeral": obj{}})
	}},
	{name: "csi volume driver or secret reference invalid", apply: func(g *Generator, s obj) {
		csi := obj{"driver": g.pick([]any{"secrets-store.csi.k8s.io", "Secrets_Store", "", "x" + strings.Repeat("y", 63)})}
		if g.chance(0.6) {
			csi["nodePublishSecretRef"] = obj{"name": g.pick([]any{"creds", "", "Creds_1"})}
		}
		addVolume(s, obj{"name": "secrets", "csi": csi})
	}},
	// Pod-level fields (VAL-10, VAL-26..VAL-31).
	{name: "restartPolicy unknown", podOnly: true, apply: func(g *Generator, s obj) { s["restartPolicy"] = g.pick([]any{"Sometimes", "always"}) }},
	{name: "activeDeadlineSeconds 0", podOnly: true, apply: func(g *Generator, s obj) { s["activeDeadlineSeconds"] = g.pick([]any{0, -5}) }},
	{name: "terminationGracePeriodSeconds short for sleep", apply: func(g *Generator, s obj) {
		s["terminationGracePeriodSeconds"] = 5
		g.anyContainer(s)["lifecycle"] = obj{"preStop": obj{"sleep": obj{"seconds": 10}}}
	}},
	{name: "dnsPolicy None without dnsConfig", apply: func(g *Generator, s obj) {
		s["dnsPolicy"] = "None"
		if g.chance(0.3) {
			s["dnsConfig"] = obj{"searches": []any{"example.com"}}
		}
	}},
	{name: "dnsPolicy unknown", apply: func(g *Generator, s obj) { s["dnsPolicy"] = g.pick([]any{"Cluster", "clusterfirst"}) }},
	{name: "dnsConfig invalid", apply: func(g *Generator, s obj) {
		s["dnsConfig"] = g.pick([]any{
			obj{"nameservers": []any{"1.1.1.1", "8.8.8.8", "9.9.9.9", "1.0.0.1"}},
			obj{"nameservers": []any{"300.1.1.1"}},
			obj{"searches": []any{"Bad_Domain.example.", "-bad.example", "."}},
			obj{"options": []any{obj{"name": ""}}},
		})
	}},
	{name: "toleration invalid", apply: func(g *Generator, s obj) {
		t := g.pick([]any{
			obj{"key": "k", "operator": "Equals", "value": "v"},
			obj{"key": "k", "operator": "Equal", "value": "v", "effect": "NoRun"},
			obj{"operator": "Equal", "value": "v"},
			obj{"key": "k", "operator": "Exists", "value": "v"},
			obj{"key": "k", "effect": "NoSchedule", "tolerationSeconds": 30},
			obj{"key": "bad key", "operator": "Exists"},
			obj{"key": "k", "operator": "Lt", "value": "5"},
		})
		appendTo(s, "tolerations", t)
	}},
	{name: "topologySpread invalid", apply: func(g *Generator, s obj) {
		c := obj{"maxSkew": g.pick([]any{0, 1}), "topologyKey": g.pick([]any{"zone", ""}), "whenUnsatisfiable": g.pick([]any{"DoNotSchedule", "Never"}),
			"labelSelector": obj{"matchLabels": obj{"app": "x"}}}
		if g.chance(0.3) {
			c["minDomains"] = g.pick([]any{0, 2})
		}
		if g.chance(0.3) {
			c["matchLabelKeys"] = []any{g.pick([]any{"app", "bad key", "pod-template-hash"})}
		}
		appendTo(s, "topologySpreadConstraints", c)
		if g.chance(0.3) {
			appendTo(s, "topologySpreadConstraints", c)
		}
	}},
	{name: "nodeSelector label invalid", apply: func(g *Generator, s obj) {
		s["nodeSelector"] = g.pick([]any{obj{"disk": "fast ssd"}, obj{"-bad": "x"}, obj{"example.com/Role": "Worker_1"}})
	}},
	{name: "affinity invalid", apply: func(g *Generator, s obj) {
		s["affinity"] = g.pick([]any{
			obj{"nodeAffinity": obj{"requiredDuringSchedulingIgnoredDuringExecution": obj{"nodeSelectorTerms": []any{}}}},
			obj{"nodeAffinity": obj{"requiredDuringSchedulingIgnoredDuringExecution": obj{"nodeSelectorTerms": []any{
				obj{"matchExpressions": []any{obj{"key": "zone", "operator": "Equals", "values": []any{"a b"}}}}}}}},
			obj{"nodeAffinity": obj{"preferredDuringSchedulingIgnoredDuringExecution": []any{obj{"weight": 0, "preference": obj{}}}}},
			obj{"podAffinity": obj{"requiredDuringSchedulingIgnoredDuringExecution": []any{obj{"labelSelector": obj{"matchLabels": obj{"app": "db"}}}}}},
			obj{"podAntiAffinity": obj{"preferredDuringSchedulingIgnoredDuringExecution": []any{obj{"weight": 101, "podAffinityTerm": obj{"topologyKey": "zone", "namespaces": []any{"Bad_NS"}}}}}},
		})
	}},
	{name: "hostAliases invalid", apply: func(g *Generator, s obj) {
		appendTo(s, "hostAliases", obj{"ip": g.pick([]any{"300.1.1.1", "10.0.0.1", "", "010.0.0.1"}), "hostnames": []any{g.pick([]any{"db.local", "Bad_Host"})}})
	}},
	{name: "hostname or subdomain invalid", apply: func(g *Generator, s obj) {
		s[g.pick([]any{"hostname", "subdomain"}).(string)] = g.pick([]any{"Web_1", "a.b", strings.Repeat("h", 64)})
	}},
	{name: "serviceAccountName invalid", apply: func(g *Generator, s obj) {
		s["serviceAccountName"] = g.pick([]any{"Bad_SA", "sa..x"})
	}},
	{name: "schedulingGates duplicated or invalid", apply: func(g *Generator, s obj) {
		n := g.pick([]any{"example.com/gate", "bad gate"})
		s["schedulingGates"] = []any{obj{"name": n}, obj{"name": n}}
	}},
	{name: "readinessGates conditionType invalid", apply: func(g *Generator, s obj) {
		s["readinessGates"] = []any{obj{"conditionType": "bad condition"}}
	}},
	{name: "resourceClaims invalid", apply: func(g *Generator, s obj) {
		claims := []any{obj{"name": "gpu", "resourceClaimName": "gpu-claim"}}
		switch g.r.IntN(3) {
		case 0:
			claims = append(claims, obj{"name": "gpu", "resourceClaimTemplateName": "t"})
		case 1:
			claims = append(claims, obj{"name": "Bad_Name"})
		default:
			claims = append(claims, obj{"name": "both", "resourceClaimName": "a", "resourceClaimTemplateName": "b"})
		}
		s["resourceClaims"] = claims
		if g.chance(0.5) {
			c := g.anyContainer(s)
			res, _ := c["resources"].(obj)
			if res == nil {
				res = obj{}
				c["resources"] = res
			}
			res["claims"] = []any{obj{"name": g.pick([]any{"gpu", "tpu", ""}).(string)}}
		}
	}},
	{name: "preemptionPolicy unknown", apply: func(g *Generator, s obj) { s["preemptionPolicy"] = "Sometimes" }},
}
