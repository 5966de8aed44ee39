package conformance

// Workload mistakes (VAL-40..VAL-48): realistic errors in the spec of a
// generated workload that kube-apiserver's workload validation refuses (or, for
// a few, accepts although they look wrong), applied to some workloads. Each
// mutates only what workload validation reads, so the Pod spec stays valid.

import "strings"

// workloadMistakeRate is the share of generated workloads given a mistake.
const workloadMistakeRate = 0.3

type workloadDoc struct {
	kind       string
	meta, spec obj
}

// job is the Job spec of a Job or of a CronJob's job template.
func (w *workloadDoc) job() obj {
	if w.kind == "CronJob" {
		return w.spec["jobTemplate"].(obj)["spec"].(obj)
	}
	return w.spec
}

// template is the Pod template.
func (w *workloadDoc) template() obj {
	switch w.kind {
	case "Job", "CronJob":
		return w.job()["template"].(obj)
	}
	if t, ok := w.spec["template"].(obj); ok {
		return t
	}
	return obj{"metadata": obj{}, "spec": obj{}} // removed by an earlier mistake
}

func (w *workloadDoc) podSpec() obj { return w.template()["spec"].(obj) }

func (w *workloadDoc) name() string {
	if n, ok := w.meta["name"].(string); ok {
		return n
	}
	return w.meta["generateName"].(string)
}

// rename sets the name (keeping generateName if the workload uses it).
func (w *workloadDoc) rename(n string) {
	if _, ok := w.meta["generateName"]; ok {
		w.meta["generateName"] = n
		return
	}
	w.meta["name"] = n
}

type workloadMistake struct {
	name  string
	kinds string // the kinds it applies to, space-separated
	apply func(g *Generator, w *workloadDoc)
}

const (
	wlApps   = "Deployment ReplicaSet StatefulSet DaemonSet"
	wlAppsRC = wlApps + " ReplicationController"
	wlJobs   = "Job CronJob"
)

var workloadMistakes = []workloadMistake{
	{"selector does not match labels", wlAppsRC, func(g *Generator, w *workloadDoc) {
		if w.kind == "ReplicationController" {
			w.spec["selector"] = obj{"app": "other"}
			return
		}
		w.spec["selector"] = obj{"matchLabels": obj{"app": g.pick([]any{"other", "web"})}}
	}},
	{"selector missing", wlApps, func(g *Generator, w *workloadDoc) { delete(w.spec, "selector") }},
	{"selector empty", wlApps, func(g *Generator, w *workloadDoc) { w.spec["selector"] = obj{} }},
	{"selector bad operator", wlApps, func(g *Generator, w *workloadDoc) {
		w.spec["selector"] = obj{"matchExpressions": []any{obj{"key": "app", "operator": "Equals", "values": []any{"x"}}}}
	}},
	{"template labels missing", wlAppsRC, func(g *Generator, w *workloadDoc) {
		delete(w.template()["metadata"].(obj), "labels")
		if w.kind == "ReplicationController" && g.chance(0.5) {
			delete(w.spec, "selector") // nothing to default it from
		}
	}},
	{"replicas negative", "Deployment ReplicaSet StatefulSet ReplicationController", func(g *Generator, w *workloadDoc) {
		w.spec["replicas"] = -1 - g.r.IntN(3)
	}},
	{"minReadySeconds negative", wlAppsRC, func(g *Generator, w *workloadDoc) { w.spec["minReadySeconds"] = -5 }},
	{"revisionHistoryLimit negative", "Deployment DaemonSet StatefulSet", func(g *Generator, w *workloadDoc) {
		w.spec["revisionHistoryLimit"] = -1 // StatefulSets do not validate it
	}},
	{"progressDeadlineSeconds <= minReadySeconds", "Deployment", func(g *Generator, w *workloadDoc) {
		w.spec["minReadySeconds"] = 30
		w.spec["progressDeadlineSeconds"] = g.pick([]any{30, 10, -1})
	}},
	{"minReadySeconds above default progressDeadlineSeconds", "Deployment", func(g *Generator, w *workloadDoc) {
		w.spec["minReadySeconds"] = 600
	}},
	{"rollback annotation negative", "Deployment", func(g *Generator, w *workloadDoc) {
		w.meta["annotations"] = obj{"deprecated.deployment.rollback.to": "-1"}
	}},
	{"maxSurge and maxUnavailable both 0", "Deployment DaemonSet", func(g *Generator, w *workloadDoc) {
		ru := obj{"maxSurge": g.pick([]any{0, "0%"}), "maxUnavailable": g.pick([]any{0, "0%"})}
		if w.kind == "DaemonSet" {
			w.spec["updateStrategy"] = obj{"type": "RollingUpdate", "rollingUpdate": ru}
			return
		}
		w.spec["strategy"] = obj{"type": "RollingUpdate", "rollingUpdate": ru}
	}},
	{"maxUnavailable over 100%", "Deployment DaemonSet", func(g *Generator, w *workloadDoc) {
		ru := obj{"maxUnavailable": "150%"}
		if w.kind == "DaemonSet" {
			if g.chance(0.5) {
				ru["maxSurge"] = "120%"
			}
			w.spec["updateStrategy"] = obj{"rollingUpdate": ru}
			return
		}
		w.spec["strategy"] = obj{"rollingUpdate": ru}
	}},
	{"maxSurge not a percent", "Deployment DaemonSet", func(g *Generator, w *workloadDoc) {
		ru := obj{"maxSurge": g.pick([]any{"50", "1.5%", "x%"}), "maxUnavailable": g.pick([]any{0, 1})}
		if w.kind == "DaemonSet" {
			w.spec["updateStrategy"] = obj{"type": "RollingUpdate", "rollingUpdate": ru}
			return
		}
		w.spec["strategy"] = obj{"type": "RollingUpdate", "rollingUpdate": ru}
	}},
	{"maxUnavailable negative", "Deployment DaemonSet", func(g *Generator, w *workloadDoc) {
		ru := obj{"maxUnavailable": -1}
		if w.kind == "DaemonSet" {
			w.spec["updateStrategy"] = obj{"rollingUpdate": ru}
			return
		}
		w.spec["strategy"] = obj{"rollingUpdate": ru}
	}},
	{"Recreate with rollingUpdate", "Deployment", func(g *Generator, w *workloadDoc) {
		w.spec["strategy"] = obj{"type": "Recreate", "rollingUpdate": obj{"maxSurge": 1}}
	}},
	{"strategy type unknown", "Deployment DaemonSet StatefulSet", func(g *Generator, w *workloadDoc) {
		s := obj{"type": g.pick([]any{"Rolling", "rollingUpdate"})}
		if g.chance(0.5) {
			s["rollingUpdate"] = obj{"maxUnavailable": "10%"}
			if w.kind == "StatefulSet" {
				s["rollingUpdate"] = obj{"partition": 2}
			}
		}
		if w.kind == "Deployment" {
			w.spec["strategy"] = s
			return
		}
		w.spec["updateStrategy"] = s
	}},
	{"DaemonSet maxSurge with default maxUnavailable", "DaemonSet", func(g *Generator, w *workloadDoc) {
		w.spec["updateStrategy"] = obj{"type": "RollingUpdate", "rollingUpdate": obj{"maxSurge": g.pick([]any{1, "25%"})}}
	}},
	{"activeDeadlineSeconds in template", wlAppsRC, func(g *Generator, w *workloadDoc) { w.podSpec()["activeDeadlineSeconds"] = 300 }},
	{"restartPolicy not Always", wlAppsRC, func(g *Generator, w *workloadDoc) {
		w.podSpec()["restartPolicy"] = g.pick([]any{"Never", "OnFailure"})
	}},
	{"podManagementPolicy unknown", "StatefulSet", func(g *Generator, w *workloadDoc) { w.spec["podManagementPolicy"] = "Sequential" }},
	{"volumeClaimTemplate without storage", "StatefulSet", func(g *Generator, w *workloadDoc) {
		vct := obj{"metadata": obj{"name": "scratch"}, "spec": obj{"accessModes": []any{"ReadWriteOnce"}}}
		if g.chance(0.3) {
			vct["spec"] = obj{"resources": obj{"requests": obj{"storage": "1Gi"}}}
		}
		claims, _ := w.spec["volumeClaimTemplates"].([]any)
		w.spec["volumeClaimTemplates"] = append(claims, vct)
	}},
	{"serviceName not a DNS label", "StatefulSet", func(g *Generator, w *workloadDoc) {
		w.spec["serviceName"] = g.pick([]any{"My_Service", "svc.example"})
	}},
	{"ordinals.start negative", "StatefulSet", func(g *Generator, w *workloadDoc) { w.spec["ordinals"] = obj{"start": -1} }},
	{"OnDelete with rollingUpdate", "StatefulSet", func(g *Generator, w *workloadDoc) {
		w.spec["updateStrategy"] = obj{"type": "OnDelete", "rollingUpdate": obj{"partition": 1}}
	}},
	{"partition negative", "StatefulSet", func(g *Generator, w *workloadDoc) {
		w.spec["updateStrategy"] = obj{"rollingUpdate": obj{"partition": -2, "maxUnavailable": 2}}
	}},
	{"claim retention policy unknown", "StatefulSet", func(g *Generator, w *workloadDoc) {
		w.spec["persistentVolumeClaimRetentionPolicy"] = obj{"whenDeleted": "Keep", "whenScaled": g.pick([]any{"Delete", "Remove"})}
	}},
	{"StatefulSet name not a DNS label", "StatefulSet", func(g *Generator, w *workloadDoc) { w.rename(w.name() + ".v2") }},
	{"ReplicationController without template", "ReplicationController", func(g *Generator, w *workloadDoc) {
		delete(w.spec, "template")
	}},

	{"Job restartPolicy missing", wlJobs, func(g *Generator, w *workloadDoc) { delete(w.podSpec(), "restartPolicy") }},
	{"Job restartPolicy Always", wlJobs, func(g *Generator, w *workloadDoc) { w.podSpec()["restartPolicy"] = "Always" }},
	{"parallelism negative", wlJobs, func(g *Generator, w *workloadDoc) { w.job()["parallelism"] = -1 }},
	{"completions negative", wlJobs, func(g *Generator, w *workloadDoc) { w.job()["completions"] = -3 }},
	{"Job limits negative", wlJobs, func(g *Generator, w *workloadDoc) {
		f := g.pick([]any{"backoffLimit", "activeDeadlineSeconds", "ttlSecondsAfterFinished"}).(string)
		w.job()[f] = -1
	}},
	{"Indexed without completions", wlJobs, func(g *Generator, w *workloadDoc) {
		j := w.job()
		j["completionMode"] = "Indexed"
		delete(j, "completions")
		// A successPolicy with Indexed and no completions makes upstream's
		// validateSuccessPolicyRule dereference nil (a panic, 500 in a
		// cluster); that combination is left out.
		delete(j, "successPolicy")
		if g.chance(0.5) {
			delete(j, "parallelism")
		}
	}},
	{"completionMode unknown", wlJobs, func(g *Generator, w *workloadDoc) {
		j := w.job()
		j["completionMode"] = "Sequential"
		if g.chance(0.5) { // only NonIndexed Jobs are told these need Indexed
			j[g.pick([]any{"backoffLimitPerIndex", "maxFailedIndexes"}).(string)] = 1
		}
	}},
	{"backoffLimitPerIndex without Indexed", wlJobs, func(g *Generator, w *workloadDoc) {
		j := w.job()
		j["backoffLimitPerIndex"] = 1
		delete(j, "completionMode")
		if g.chance(0.5) {
			j["maxFailedIndexes"] = 2
		}
	}},
	{"maxFailedIndexes without backoffLimitPerIndex", wlJobs, func(g *Generator, w *workloadDoc) {
		j := w.job()
		j["completionMode"], j["completions"], j["maxFailedIndexes"] = "Indexed", 3, g.pick([]any{1, 5})
	}},
	{"podFailurePolicy bad rule", wlJobs, func(g *Generator, w *workloadDoc) {
		w.podSpec()["restartPolicy"] = "Never"
		rules := []any{
			obj{"action": "Retry", "onExitCodes": obj{"operator": "In", "values": []any{1}}},
			obj{"action": "FailJob", "onExitCodes": obj{"operator": "In", "values": []any{0, 3, 2, 2}}},
			obj{"action": "Ignore"},
			obj{"action": "Ignore", "onPodConditions": []any{obj{"type": "DisruptionTarget", "status": "Maybe"}}},
			obj{"action": "FailIndex", "onExitCodes": obj{"operator": "NotIn", "values": []any{}, "containerName": "nope"}},
			obj{"onPodConditions": []any{obj{"type": "bad type!"}}, "onExitCodes": obj{"operator": "Equals", "values": []any{1}}},
		}
		w.job()["podFailurePolicy"] = obj{"rules": []any{g.pick(rules)}}
	}},
	{"podFailurePolicy with OnFailure", wlJobs, func(g *Generator, w *workloadDoc) {
		w.podSpec()["restartPolicy"] = "OnFailure"
		w.job()["podFailurePolicy"] = obj{"rules": []any{obj{"action": "Ignore", "onPodConditions": []any{obj{"type": "DisruptionTarget"}}}}}
	}},
	{"podReplacementPolicy with podFailurePolicy", wlJobs, func(g *Generator, w *workloadDoc) {
		w.podSpec()["restartPolicy"] = "Never"
		j := w.job()
		j["podFailurePolicy"] = obj{"rules": []any{obj{"action": "FailJob", "onExitCodes": obj{"operator": "In", "values": []any{42}}}}}
		j["podReplacementPolicy"] = g.pick([]any{"TerminatingOrFailed", "Failed", "Always"})
	}},
	{"successPolicy not Indexed", wlJobs, func(g *Generator, w *workloadDoc) {
		j := w.job()
		delete(j, "completionMode")
		j["successPolicy"] = obj{"rules": []any{obj{"succeededIndexes": "0-1", "succeededCount": 1}}}
	}},
	{"successPolicy bad rule", wlJobs, func(g *Generator, w *workloadDoc) {
		j := w.job()
		j["completionMode"], j["completions"] = "Indexed", 4
		j["successPolicy"] = obj{"rules": []any{g.pick([]any{obj{}, obj{"succeededIndexes": "3-1"}, obj{"succeededIndexes": "0,9"},
			obj{"succeededCount": 5}, obj{"succeededIndexes": "0-1", "succeededCount": 3}})}}
	}},
	{"Job selector without manualSelector", "Job", func(g *Generator, w *workloadDoc) {
		w.spec["selector"] = obj{"matchLabels": obj{"role": "batch"}}
	}},
	{"Job manualSelector not matching", "Job", func(g *Generator, w *workloadDoc) {
		w.spec["manualSelector"] = true
		if g.chance(0.7) {
			w.spec["selector"] = obj{"matchLabels": obj{"role": "other"}}
		}
	}},
	{"Job template label job-name set", "Job", func(g *Generator, w *workloadDoc) {
		md := w.template()["metadata"].(obj)
		labels, _ := md["labels"].(obj)
		if labels == nil {
			labels = obj{}
			md["labels"] = labels
		}
		labels[g.pick([]any{"job-name", "batch.kubernetes.io/job-name", "controller-uid"}).(string)] = "other"
	}},
	{"Job name too long", "Job", func(g *Generator, w *workloadDoc) {
		j := w.spec
		if g.chance(0.5) {
			// Indexed: the longest Pod hostname is not a DNS label.
			j["completionMode"], j["completions"] = "Indexed", 100
			w.rename(w.name() + "-" + strings.Repeat("x", max(61-len(w.name()), 0)))
			return
		}
		w.rename(w.name() + "-" + strings.Repeat("long", 16)) // too long for the job-name label
	}},
	{"jobTemplate with selector", "CronJob", func(g *Generator, w *workloadDoc) {
		w.job()["selector"] = obj{"matchLabels": obj{"role": "batch"}}
	}},
	{"jobTemplate manualSelector", "CronJob", func(g *Generator, w *workloadDoc) { w.job()["manualSelector"] = true }},

	{"schedule with 4 fields", "CronJob", func(g *Generator, w *workloadDoc) { w.spec["schedule"] = "*/5 * * *" }},
	{"schedule out of range", "CronJob", func(g *Generator, w *workloadDoc) {
		w.spec["schedule"] = g.pick([]any{"61 * * * *", "0 24 * * *", "0 0 32 * *", "0 0 * 13 *", "5-2 * * * *", "*/0 * * * *"})
	}},
	{"schedule not cron", "CronJob", func(g *Generator, w *workloadDoc) {
		w.spec["schedule"] = g.pick([]any{"@sometimes", "every 5 minutes", "* * * * * *", "0 0 * * MON-XYZ", "", "@every 5m", "0 0 ? * *"})
	}},
	{"schedule with TZ", "CronJob", func(g *Generator, w *workloadDoc) {
		w.spec["schedule"] = g.pick([]any{"TZ=UTC 0 * * * *", "CRON_TZ=Europe/Berlin 0 3 * * *", "CRON_TZ=Mars/Olympus 0 * * * *", "TZ=0"})
	}},
	{"timeZone unknown", "CronJob", func(g *Generator, w *workloadDoc) {
		w.spec["timeZone"] = g.pick([]any{"Mars/Olympus", "", "Local", "local", "UTC+1", "Europe/../Paris", "America/Argentina/Buenos_Aires_X", "Etc/GMT+1"})
	}},
	{"timeZone valid", "CronJob", func(g *Generator, w *workloadDoc) {
		w.spec["timeZone"] = g.pick([]any{"Europe/Berlin", "UTC", "America/Argentina/Buenos_Aires", "Asia/Kolkata"})
	}},
	{"concurrencyPolicy unknown", "CronJob", func(g *Generator, w *workloadDoc) {
		w.spec["concurrencyPolicy"] = g.pick([]any{"Sometimes", "allow", "Forbid"})
	}},
	{"startingDeadlineSeconds negative", "CronJob", func(g *Generator, w *workloadDoc) { w.spec["startingDeadlineSeconds"] = -10 }},
	{"history limits negative", "CronJob", func(g *Generator, w *workloadDoc) {
		w.spec[g.pick([]any{"successfulJobsHistoryLimit", "failedJobsHistoryLimit"}).(string)] = -1
	}},
	{"CronJob name over 52 characters", "CronJob", func(g *Generator, w *workloadDoc) {
		w.rename(w.name() + "-" + strings.Repeat("n", max(52-len(w.name()), 0)))
	}},
}

// workloadMistake gives a generated workload a mistake, sometimes two.
func (g *Generator) workloadMistake(kind string, meta, spec obj) {
	if !g.chance(workloadMistakeRate) {
		return
	}
	w := &workloadDoc{kind: kind, meta: meta, spec: spec}
	var fit []*workloadMistake
	for i := range workloadMistakes {
		if strings.Contains(" "+workloadMistakes[i].kinds+" ", " "+kind+" ") {
			fit = append(fit, &workloadMistakes[i])
		}
	}
	for n := 1 + g.r.IntN(4)/3; n > 0; n-- {
		m := fit[g.r.IntN(len(fit))]
		m.apply(g, w)
		if g.Mistakes == nil {
			g.Mistakes = map[string]int{}
		}
		g.Mistakes[kind+": "+m.name]++
	}
}
