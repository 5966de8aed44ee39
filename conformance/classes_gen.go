package conformance

// Cluster classes (RQ-34): PriorityClasses, StorageClasses and RuntimeClasses at
// the start of some cases, and the Pod fields the Priority and RuntimeClass
// plugins look at.
//
// A case without PriorityClasses leaves the cluster's classes unknown: Pods
// naming a class other than a system one are trusted by limitcheck, and the
// harness does not run upstream's Priority plugin for them (upstreamPriority).
// A case without RuntimeClasses has no runtimeClassName (upstream would refuse
// every name, limitcheck trusts them).

var (
	classTimestamps = []any{"", "2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z", "2024-06-01T12:00:00Z", "2025-03-04T05:06:07Z"}
	runtimeHandlers = []any{"kata", "runsc", "runc"}
)

// classes returns the class documents of a new case (none for most) and sets
// what podSpec may reference.
func (g *Generator) classes() []obj {
	g.priorityClasses, g.runtimeClasses, g.overheads = false, false, nil
	if !g.chance(0.3) {
		return nil
	}
	var docs []obj
	var defaultValues []int
	for _, name := range g.r.Perm(3)[:g.r.IntN(4)] {
		pc := obj{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
			"metadata": obj{"name": []string{"low", "high", "medium"}[name]}}
		value := g.pick([]any{0, 100, 1000, 1000, 100000}).(int)
		pc["value"] = value
		// Several global defaults only with distinct values: with equal ones,
		// upstream's pick depends on its informer's map order.
		if g.chance(0.35) && !contains(defaultValues, value) {
			pc["globalDefault"] = true
			defaultValues = append(defaultValues, value)
		}
		if g.chance(0.3) {
			pc["preemptionPolicy"] = g.pick([]any{"Never", "PreemptLowerPriority"})
		}
		docs = append(docs, pc)
		g.priorityClasses = true
	}
	for _, name := range g.r.Perm(3)[:g.r.IntN(3)] {
		meta := obj{"name": []string{"gold", "standard", "fast"}[name]}
		if ts := g.pick(classTimestamps); ts != "" { // none: the zero time, the oldest
			meta["creationTimestamp"] = ts
		}
		switch g.r.IntN(4) {
		case 0, 1:
			meta["annotations"] = obj{"storageclass.kubernetes.io/is-default-class": "true"}
		case 2:
			meta["annotations"] = obj{"storageclass.beta.kubernetes.io/is-default-class": g.pick([]any{"true", "false"})}
		}
		docs = append(docs, obj{"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": meta,
			"provisioner": "example.com/csi"})
	}
	for _, name := range g.r.Perm(2)[:g.r.IntN(3)] {
		rc := obj{"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass",
			"metadata": obj{"name": []string{"kata", "gvisor"}[name]}, "handler": g.pick(runtimeHandlers)}
		if g.chance(0.6) {
			fixed := obj{}
			if g.chance(0.8) {
				fixed["cpu"] = g.pick([]any{"100m", "250m", "0.1", "1"})
			}
			if g.chance(0.7) {
				fixed["memory"] = g.pick([]any{"64Mi", "120Mi", "1Gi"})
			}
			rc["overhead"] = obj{"podFixed": fixed}
			g.overheads = append(g.overheads, fixed)
		}
		if g.chance(0.4) {
			sel := obj{"sandbox": "true"}
			if g.chance(0.5) {
				sel["disktype"] = g.pick([]any{"ssd", "hdd"})
			}
			rc["scheduling"] = obj{"nodeSelector": sel}
		}
		if g.chance(0.3) {
			sched, _ := rc["scheduling"].(obj)
			if sched == nil {
				sched = obj{}
				rc["scheduling"] = sched
			}
			sched["tolerations"] = []any{g.pick(classTolerations)}
		}
		docs = append(docs, rc)
		g.runtimeClasses = true
	}
	return docs
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// classFields sets the Pod fields the Priority and RuntimeClass plugins read.
func (g *Generator) classFields(spec obj) {
	if g.chance(0.05) {
		spec["priorityClassName"] = g.pick([]any{"system-cluster-critical", "system-node-critical"})
	}
	if g.priorityClasses && g.chance(0.1) {
		spec["priorityClassName"] = g.pick([]any{"medium", "missing", "high"})
	}
	if g.chance(0.05) {
		spec["priority"] = g.pick([]any{0, 100, 1000, 2000000000})
	}
	if g.chance(0.04) {
		spec["preemptionPolicy"] = g.pick([]any{"Never", "PreemptLowerPriority"})
	}
	if g.runtimeClasses && g.chance(0.4) {
		spec["runtimeClassName"] = g.pick([]any{"kata", "kata", "gvisor", "missing"})
	}
	// A name no class can have: the plugins' lookup fails even where
	// limitcheck takes the cluster's classes on trust.
	if !g.priorityClasses && g.chance(0.02) {
		spec["priorityClassName"] = g.pick([]any{"Bad_PC", "high.priority."})
	}
	if !g.runtimeClasses && g.chance(0.02) {
		spec["runtimeClassName"] = g.pick([]any{"Bad_RC", "-kata"})
	}
	if g.chance(0.04) {
		if len(g.overheads) > 0 && g.chance(0.5) {
			spec["overhead"] = g.overheads[g.r.IntN(len(g.overheads))]
		} else {
			spec["overhead"] = obj{"cpu": g.pick([]any{"100m", "250m"})}
		}
	}
	if g.chance(0.08) {
		spec["nodeSelector"] = obj{"disktype": g.pick([]any{"ssd", "hdd"})}
	}
	if g.runtimeClasses && g.chance(0.15) {
		// Tolerations a class's may cover, some invalid on their own
		// (tolerationSeconds without NoExecute), which the merge drops.
		var ts []any
		for n := g.r.IntN(3) + 1; n > 0; n-- {
			ts = append(ts, g.pick(podTolerations))
		}
		spec["tolerations"] = ts
	}
}

var classTolerations = []any{
	obj{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
	obj{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"},
	obj{"key": "dedicated", "operator": "Exists"},
	obj{"operator": "Exists"},
	obj{"key": "sandbox", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 60},
}

var podTolerations = []any{
	obj{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
	obj{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule", "tolerationSeconds": 5},
	obj{"key": "dedicated", "value": "gpu", "effect": "NoSchedule", "tolerationSeconds": 5},
	obj{"key": "dedicated", "operator": "Exists", "effect": "NoSchedule"},
	obj{"key": "sandbox", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 30},
	obj{"key": "sandbox", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 600},
	obj{"key": "other", "operator": "Exists", "effect": "PreferNoSchedule", "tolerationSeconds": 5},
}
