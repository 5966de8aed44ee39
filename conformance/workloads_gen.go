package conformance

// Workload generation: Deployments, ReplicaSets, ReplicationControllers,
// DaemonSets, StatefulSets, Jobs and CronJobs that pass kube-apiserver's full
// validation except, sometimes, for the resources of their Pod template and the
// workload mistakes of mistakes_workloads.go. Their templates come from the Pod
// generator, so LimitRanger defaulting, sidecars, pod-level resources and
// invalid resources all occur in the Pods the controllers create.

import "strings"

// workloadKinds are the kinds workload() picks from.
var workloadKinds = []string{"Deployment", "ReplicaSet", "ReplicationController", "DaemonSet", "StatefulSet", "Job", "CronJob"}

func (g *Generator) workload(name string) obj {
	meta := obj{"name": name}
	g.namespace(meta)
	labels := obj{"app": name}
	if g.chance(0.3) {
		labels["tier"] = g.pick([]any{"web", "db"})
	}
	selector := obj{"matchLabels": obj{"app": name}}
	if g.chance(0.15) {
		selector = obj{"matchExpressions": []any{obj{"key": "app", "operator": "In", "values": []any{name}}}}
	}
	kind := workloadKinds[g.r.IntN(len(workloadKinds))]
	switch kind {
	case "Deployment", "ReplicaSet", "ReplicationController", "DaemonSet":
		// A long name: the Pods' generateName base is cut to 58 characters.
		// (StatefulSet and Job names end up in hostnames and labels: 63 at most.)
		if g.chance(0.05) {
			meta["name"] = name + "-" + strings.Repeat("long", 15)
		}
	}
	if g.chance(0.03) {
		delete(meta, "name")
		meta["generateName"] = name + "-"
	}
	spec := obj{}
	apiVersion := "apps/v1"
	switch kind {
	case "Deployment":
		spec = obj{"selector": selector, "template": g.template(labels, "")}
		g.replicas(spec)
		if g.chance(0.1) {
			spec["paused"] = true
		}
		if g.chance(0.2) {
			spec["strategy"] = obj{"type": "Recreate"}
		} else if g.chance(0.2) {
			spec["strategy"] = obj{"type": "RollingUpdate", "rollingUpdate": obj{"maxSurge": g.pick([]any{0, 1, "50%"}), "maxUnavailable": 1}}
		}
		if g.chance(0.1) {
			spec["minReadySeconds"] = 5
		}
	case "ReplicaSet":
		spec = obj{"selector": selector, "template": g.template(labels, "")}
		g.replicas(spec)
	case "ReplicationController":
		apiVersion = "v1"
		spec = obj{"template": g.template(labels, "")}
		if g.chance(0.5) { // else defaulted from the template's labels
			spec["selector"] = obj{"app": name}
		}
		g.replicas(spec)
	case "DaemonSet":
		spec = obj{"selector": selector, "template": g.template(labels, "")}
	case "StatefulSet":
		spec = obj{"selector": selector, "template": g.template(labels, "")}
		g.replicas(spec)
		if g.chance(0.5) {
			spec["serviceName"] = "svc"
		}
		if g.chance(0.3) {
			spec["podManagementPolicy"] = "Parallel"
		} else if g.chance(0.2) {
			spec["podManagementPolicy"] = "OrderedReady"
		}
		if g.chance(0.2) {
			spec["ordinals"] = obj{"start": g.r.IntN(4)}
		}
		var claims []any
		for i, n := 0, g.r.IntN(3); i < n; i++ {
			claims = append(claims, g.claimTemplate([]string{"data", "logs"}[i]))
		}
		if len(claims) > 0 {
			spec["volumeClaimTemplates"] = claims
		}
	case "Job":
		apiVersion = "batch/v1"
		spec = g.jobSpec()
	case "CronJob":
		apiVersion = "batch/v1"
		jt := obj{"spec": g.jobSpec()}
		if g.chance(0.3) {
			jt["metadata"] = obj{"labels": obj{"cron": name}, "annotations": obj{"team": "b"}}
		}
		spec = obj{"schedule": g.pick([]any{"*/5 * * * *", "0 3 * * *", "@hourly"}), "jobTemplate": jt}
		if g.chance(0.15) {
			spec["suspend"] = true
		}
	}
	g.workloadMistake(kind, meta, spec) // mistakes_workloads.go
	return obj{"apiVersion": apiVersion, "kind": kind, "metadata": meta, "spec": spec}
}

// replicas: 0..6, sometimes unset (the API default 1).
func (g *Generator) replicas(spec obj) {
	if g.chance(0.85) {
		spec["replicas"] = g.r.IntN(7)
	}
}

// template is a Pod template from the Pod generator's spec; restartPolicy is
// set for Jobs (Never/OnFailure), left to the default Always otherwise.
func (g *Generator) template(labels obj, restartPolicy string) obj {
	meta := obj{}
	if labels != nil {
		meta["labels"] = labels
	}
	if g.chance(0.1) {
		meta["annotations"] = obj{"kubernetes.io/limit-ranger": "stale", "team": "a"}
	}
	if g.chance(0.05) { // template finalizers are validated only in the Pods
		meta["finalizers"] = []any{g.pick([]any{"foo", "example.com/cleanup", "kubernetes"})}
	}
	spec := g.podSpec(restartPolicy != "")
	if restartPolicy != "" {
		spec["restartPolicy"] = restartPolicy
	}
	g.podMistakes(spec, false) // mistakes_pod.go
	return obj{"metadata": meta, "spec": spec}
}

// jobSpec: parallelism, completions, Indexed mode, suspend; no selector (the
// Job strategy generates it, and a CronJob's jobTemplate must not have one).
func (g *Generator) jobSpec() obj {
	var labels obj
	if g.chance(0.6) {
		labels = obj{"role": "batch"}
	}
	spec := obj{"template": g.template(labels, g.pick([]any{"Never", "OnFailure"}).(string))}
	if g.chance(0.6) {
		spec["parallelism"] = g.r.IntN(5)
	}
	if g.chance(0.6) {
		spec["completions"] = g.r.IntN(6)
	}
	if g.chance(0.25) {
		spec["completionMode"] = "Indexed"
		if _, ok := spec["completions"]; !ok {
			spec["completions"] = 1 + g.r.IntN(5)
		}
	}
	if g.chance(0.1) {
		spec["suspend"] = true
	}
	if g.chance(0.2) {
		spec["backoffLimit"] = 2
	}
	if g.chance(0.08) {
		spec["activeDeadlineSeconds"] = g.pick([]any{0, 0, 30})
	}
	return spec
}

// claimTemplate is a valid volumeClaimTemplate whose storage may still trip a
// LimitRange's PersistentVolumeClaim min/max or a quota. Valid (invalid ones
// are the mistakes' business: the StatefulSet is refused for them).
func (g *Generator) claimTemplate(name string) obj {
	res := obj{}
	if g.chance(0.15) {
		a, b := g.pick(ladders["storage"]), g.pick(ladders["storage"])
		if x, y := toQuantity(a), toQuantity(b); x.Cmp(y) > 0 {
			a, b = b, a
		}
		res["requests"], res["limits"] = obj{"storage": a}, obj{"storage": b}
	} else {
		res["requests"] = obj{"storage": g.pick(ladders["storage"])}
	}
	spec := obj{"accessModes": []any{"ReadWriteOnce"}, "resources": res}
	if g.chance(0.2) {
		spec["storageClassName"] = g.pick([]any{"gold", "standard"})
	}
	if g.chance(0.1) {
		spec["volumeAttributesClassName"] = g.pick([]any{"silver", "bronze"})
	}
	meta := obj{"name": name}
	if g.chance(0.3) {
		meta["labels"] = obj{"vol": name}
	}
	return obj{"metadata": meta, "spec": spec}
}
