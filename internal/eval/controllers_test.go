package eval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval/features"
)

// TestCreatedPod: every object a controller creates names the Pod it was created
// for (its own name for a Pod, the Pod of a StatefulSet claim, with
// spec.ordinals.start), and nothing for a ReplicaSet or Job.
func TestCreatedPod(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
		want      []string // kind/name→pod of every created object, in order
	}{
		{
			name: "Deployment",
			doc:  "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 2, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}}",
			want: []string{"ReplicaSet/web-746cd9445b→", "Pod/web-746cd9445b-xxxxx→web-746cd9445b-xxxxx", "Pod/web-746cd9445b-xxxxx→web-746cd9445b-xxxxx"},
		},
		{
			name: "StatefulSet from ordinal 3",
			doc: "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec: {replicas: 2, ordinals: {start: 3}, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}," +
				" volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}]}",
			want: []string{"PersistentVolumeClaim/data-db-3→db-3", "Pod/db-3→db-3", "PersistentVolumeClaim/data-db-4→db-4", "Pod/db-4→db-4"},
		},
		{
			// WL-08: the Deployment's name is cut so that the ReplicaSet's
			// fits 253 characters (the Pods' generated names are cut to 63).
			name: "Deployment of 253 characters",
			doc:  "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " + strings.Repeat("a", 253) + "}\nspec: {replicas: 1, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}}",
			want: []string{"ReplicaSet/" + strings.Repeat("a", 242) + "-746cd9445b→", "Pod/" + strings.Repeat("a", 58) + "xxxxx→" + strings.Repeat("a", 58) + "xxxxx"},
		},
		{
			// WL-14: two templates of one name make one claim per ordinal,
			// and the Pod (one claim volume) is valid.
			name: "StatefulSet with two templates of one name",
			doc: "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec: {replicas: 1, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}," +
				" volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}, {metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 2Gi}}}}]}",
			want: []string{"PersistentVolumeClaim/data-db-0→db-0", "Pod/db-0→db-0"},
		},
		{
			name: "CronJob",
			doc:  "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: nightly}\nspec: {schedule: '0 3 * * *', jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}}",
			want: []string{"Job/nightly-xxxxxxxx→", "Pod/nightly-xxxxxxxx-xxxxx→nightly-xxxxxxxx-xxxxx"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := New(Options{DefaultNamespace: "ns1", Nodes: 1}).Admit(decode(t, tt.doc))
			if r.Workload == nil {
				t.Fatalf("no workload: %+v", r.Denial)
			}
			var got []string
			for _, c := range r.Workload.Created {
				got = append(got, fmt.Sprintf("%s/%s→%s", c.Kind, c.Name, c.Pod))
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("created %q, want %q", got, tt.want)
			}
		})
	}
}

// TestJobZeroActiveDeadline: WL-04, a Job (or a CronJob's Job) whose
// activeDeadlineSeconds is 0 is created and runs no Pod; suspension keeps
// its own note, and any other deadline runs the Pods.
func TestJobZeroActiveDeadline(t *testing.T) {
	const tmpl = "template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}"
	const zero = "activeDeadlineSeconds 0: the Job controller fails the Job (DeadlineExceeded) before creating any Pod"
	for _, tt := range []struct {
		name, doc, note string
		pods            int
	}{
		{name: "Job deadline 0", doc: "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {activeDeadlineSeconds: 0, parallelism: 2, " + tmpl + "}", note: zero},
		{name: "Job deadline 1", doc: "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {activeDeadlineSeconds: 1, parallelism: 2, " + tmpl + "}", pods: 2},
		{name: "suspended Job deadline 0", doc: "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {suspend: true, activeDeadlineSeconds: 0, " + tmpl + "}",
			note: "suspended: the Job controller creates no Pods until it is resumed"},
		{name: "CronJob's Job deadline 0", doc: "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec: {schedule: '0 3 * * *', jobTemplate: {spec: {activeDeadlineSeconds: 0, " + tmpl + "}}}", note: zero},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := New(Options{DefaultNamespace: "ns1", Nodes: 1}).Admit(decode(t, tt.doc))
			if r.Denial != nil || r.Workload == nil {
				t.Fatalf("denial %+v workload %v", r.Denial, r.Workload)
			}
			pods := 0
			for _, c := range r.Workload.Created {
				if c.Kind == "Pod" {
					pods++
				}
			}
			if pods != tt.pods || r.Workload.Replicas != tt.pods || r.Workload.Note != tt.note {
				t.Errorf("pods %d replicas %d note %q, want %d and %q", pods, r.Workload.Replicas, r.Workload.Note, tt.pods, tt.note)
			}
		})
	}
}

// WL-04, WL-08: a Job another controller manages gets no Pods; a CronJob's
// Job carries the scheduled minute's eight characters, which an Indexed
// Job's "<job>-<index>" must fit into a DNS label with.
func TestJobControllerEdges(t *testing.T) {
	managed := run(t, features.Default(), "apiVersion: batch/v1\nkind: Job\nmetadata: {name: jb}\nspec:\n  managedBy: kueue.x-k8s.io/multikueue\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: c:1}]")
	if w := managed.Workload; w == nil || w.Replicas != 0 || len(w.Created) != 0 || w.Note != "managed by kueue.x-k8s.io/multikueue: the Job controller creates no Pods for it" {
		t.Errorf("managed Job: %+v", managed.Workload)
	}
	name := strings.Repeat("c", 52)
	long := run(t, features.Default(), "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: "+name+"}\nspec:\n  schedule: '*/5 * * * *'\n  jobTemplate:\n    spec:\n      completionMode: Indexed\n      completions: 11\n      parallelism: 1\n      template:\n        spec:\n          restartPolicy: Never\n          containers: [{name: c, image: c:1}]")
	want := `Job.batch "` + name + `-xxxxxxxx" is invalid: metadata.name: Invalid value: "` + name + `-xxxxxxxx": will not able to create pod with invalid DNS label: ` + name + `-xxxxxxxx-10`
	if w := long.Workload; w == nil || len(w.Created) != 1 || w.Created[0].Denial == nil || w.Created[0].Denial.Message != want {
		t.Errorf("long Indexed CronJob: %+v\nwant the Job refused: %s", long.Workload, want)
	}
}

// TestReleasedBySelector: WL-10. A Deployment or DaemonSet whose selector
// requires a value of a label its controller sets on what it creates
// (pod-template-hash; controller-revision-hash, pod-template-generation)
// does not own what it creates: it is warned about, with the labels the
// controller gives (the hashes compared with kube-controller-manager 1.36.3:
// the ReplicaSet and Pods it created carry them). One whose selector
// matches them gets no warning.
func TestReleasedBySelector(t *testing.T) {
	for _, tt := range []struct {
		name, doc, note string
	}{
		{"Deployment selecting a copied pod-template-hash",
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: pth}\nspec:\n  selector: {matchLabels: {app: pth, pod-template-hash: abc}}\n  template:\n    metadata: {labels: {app: pth, pod-template-hash: abc}}\n    spec:\n      containers: [{name: c, image: x}]",
			"its selector does not match the labels the Deployment controller gives its ReplicaSet and its Pods (pod-template-hash=595c4495bd): the controller releases each ReplicaSet it creates and creates another, without end, until a quota refuses them"},
		{"DaemonSet selecting a copied controller-revision-hash",
			"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: crh}\nspec:\n  selector: {matchLabels: {app: crh, controller-revision-hash: abc}}\n  template:\n    metadata: {labels: {app: crh, controller-revision-hash: abc}}\n    spec:\n      containers: [{name: c, image: x}]",
			"its selector does not match the labels the DaemonSet controller gives its Pods (controller-revision-hash=8465f57877, pod-template-generation=1): the controller releases each Pod it creates and creates another, without end, until a quota refuses them"},
		{"DaemonSet with a node selector too",
			"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: crh}\nspec:\n  selector: {matchLabels: {app: crh, pod-template-generation: \"2\"}}\n  template:\n    metadata: {labels: {app: crh, pod-template-generation: \"2\"}}\n    spec:\n      nodeSelector: {disk: ssd}\n      containers: [{name: c, image: x}]",
			"its Pods choose their nodes (nodeSelector disk=ssd): limitcheck runs one on the one node it assumes (--nodes), the cluster only on the nodes that match; " +
				"its selector does not match the labels the DaemonSet controller gives its Pods (controller-revision-hash="},
		{"DaemonSet naming its node",
			"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: dn}\nspec:\n  selector: {matchLabels: {app: dn}}\n  template:\n    metadata: {labels: {app: dn}}\n    spec:\n      nodeName: no-such-node\n      containers: [{name: c, image: x}]",
			"its Pods choose their nodes (nodeName no-such-node): limitcheck runs one on the one node it assumes (--nodes), the cluster only on the nodes that match"},
		{"DaemonSet selecting the first template generation",
			"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: gen}\nspec:\n  selector: {matchLabels: {app: gen, pod-template-generation: \"1\"}}\n  template:\n    metadata: {labels: {app: gen, pod-template-generation: \"1\"}}\n    spec:\n      containers: [{name: c, image: x}]", ""},
		{"Deployment selecting its own labels",
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: c, image: x}]", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := New(Options{DefaultNamespace: "ns1", Nodes: 1}).Admit(decode(t, tt.doc))
			if r.Workload == nil {
				t.Fatalf("no workload: %+v", r.Denial)
			}
			got := r.Workload.Note
			if ok := got == tt.note || (strings.HasSuffix(tt.note, "=") && strings.HasPrefix(got, tt.note)); !ok {
				t.Errorf("note\n%q\nwant\n%q", got, tt.note)
			}
		})
	}
}

// TestCronJobIdle: WL-11. A CronJob whose startingDeadlineSeconds is 0, or
// whose schedule names no time that exists, is admitted but its controller
// never creates a Job (kube-controller-manager 1.36.3: no Job after two
// scheduled minutes; an InvalidSchedule event for the 30th of February);
// one that fires rarely (the 29th of February) or has a deadline of a
// second runs as usual.
func TestCronJobIdle(t *testing.T) {
	doc := func(schedule, extra string) string {
		return "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  schedule: \"" + schedule + "\"\n" + extra +
			"  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}"
	}
	for _, tt := range []struct {
		name, doc, note string
		created         int
	}{
		{"deadline 0", doc("* * * * *", "  startingDeadlineSeconds: 0\n"),
			"startingDeadlineSeconds 0: the CronJob controller finds every scheduled time already past its deadline and creates no Job", 0},
		{"30th of February", doc("0 0 30 2 *", ""),
			`schedule "0 0 30 2 *" names no time that exists: the CronJob controller creates no Job (event InvalidSchedule: time difference between two schedules is less than 1 second)`, 0},
		{"31st of April and June", doc("0 0 31 4,6 *", ""),
			`schedule "0 0 31 4,6 *" names no time that exists: the CronJob controller creates no Job (event InvalidSchedule: time difference between two schedules is less than 1 second)`, 0},
		{"29th of February", doc("0 0 29 2 *", ""), "", 2},
		{"30th of February or a Monday", doc("0 0 30 2 1", ""), "", 2},
		{"deadline 1", doc("* * * * *", "  startingDeadlineSeconds: 1\n"), "", 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := New(Options{DefaultNamespace: "ns1"}).Admit(decode(t, tt.doc))
			if !r.Allowed || r.Workload == nil {
				t.Fatalf("got %+v, want admitted with a workload", r.Denial)
			}
			if r.Workload.Note != tt.note || len(r.Workload.Created) != tt.created {
				t.Errorf("note %q, %d created; want %q, %d", r.Workload.Note, len(r.Workload.Created), tt.note, tt.created)
			}
		})
	}
}

// WL-12: a StatefulSet's or DaemonSet's ControllerRevision is created and
// charged before anything else; refused, the controller creates nothing. The
// names and the usage are what kube-controller-manager 1.36.3 gave for these
// manifests.
func TestControllerRevisionFirst(t *testing.T) {
	daemonSet := func(name string) string {
		return "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: " + name + "}\nspec:\n  selector: {matchLabels: {app: " + name + "}}\n" +
			"  template:\n    metadata: {labels: {app: " + name + "}}\n    spec:\n      containers: [{name: c, image: nginx}]"
	}
	statefulSet := "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web}\nspec:\n  serviceName: web\n  replicas: 1\n" +
		"  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: c, image: nginx}]"
	e := New(Options{DefaultNamespace: "ns1"})
	if r := e.Admit(decode(t, "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec:\n  hard: {count/controllerrevisions.apps: \"1\"}")); !r.Allowed {
		t.Fatalf("quota: %+v", r.Denial)
	}
	for _, tt := range []struct {
		name, doc, note, refusal string
		admitted                 int
	}{
		{"first DaemonSet", daemonSet("agent"), "", "", 1},
		{"second DaemonSet", daemonSet("agent2"),
			"its ControllerRevision agent2-6bcdf667cb is refused: the controller creates no Pod and records no event (only the controller manager's log says why)",
			`controllerrevisions.apps "agent2-6bcdf667cb" is forbidden: exceeded quota: q, requested: count/controllerrevisions.apps=1, used: count/controllerrevisions.apps=1, limited: count/controllerrevisions.apps=1`, 0},
		{"StatefulSet", statefulSet,
			"its ControllerRevision web-757df7b85b is refused: the controller creates no Pod and records no event (only the controller manager's log says why)",
			`controllerrevisions.apps "web-757df7b85b" is forbidden: exceeded quota: q, requested: count/controllerrevisions.apps=1, used: count/controllerrevisions.apps=1, limited: count/controllerrevisions.apps=1`, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := e.Admit(decode(t, tt.doc))
			if r.Denial != nil || r.Workload == nil {
				t.Fatalf("got %+v, want admitted with a workload", r.Denial)
			}
			if r.Allowed != (tt.refusal == "") {
				t.Errorf("allowed %v with refusal %q", r.Allowed, tt.refusal)
			}
			w := r.Workload
			if w.Note != tt.note || w.Admitted != tt.admitted {
				t.Errorf("note %q, %d admitted; want %q, %d", w.Note, w.Admitted, tt.note, tt.admitted)
			}
			var refusal string
			for _, c := range w.Created {
				if c.Kind == "ControllerRevision" && c.Denial != nil {
					refusal = c.Denial.Message
				}
			}
			if refusal != tt.refusal {
				t.Errorf("revision refused with %q, want %q", refusal, tt.refusal)
			}
			if tt.refusal != "" && len(w.Created) != 1 {
				t.Errorf("%d objects created after the refused revision, want none", len(w.Created)-1)
			}
		})
	}
}

// TestQuotaRaceWarning: WL-03. A Pod a quota refuses, where the quota also
// holds Pods another workload's controller created, is a race in a cluster
// (compared on kube-apiserver and kube-controller-manager 1.36.3: two
// Deployments of 2 replicas under pods: 3, five runs, the first
// Deployment's Pod refused in two, the second's in three): the refused Pod,
// its workload or the input's Pod say so; a workload refused by its own
// Pods or by the input's Pods before it, which a cluster creates first, is
// not warned, nor a CronJob, whose Pods a cluster creates later.
func TestQuotaRaceWarning(t *testing.T) {
	const quota = "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: pods, namespace: ns1}\nspec: {hard: {pods: \"3\"}}"
	deploy := func(name string, n int) string {
		return fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s, namespace: ns1}\nspec:\n  replicas: %d\n  selector: {matchLabels: {app: %s}}\n  template:\n    metadata: {labels: {app: %s}}\n    spec: {containers: [{name: c, image: i}]}", name, n, name, name)
	}
	pod := func(name string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: ns1}\nspec: {containers: [{name: c, image: i}]}"
	}
	const byA = "quota pods also holds objects created for Deployment ns1/a: in a cluster "
	const cron = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c, namespace: ns1}\nspec:\n  schedule: '0 3 * * *'\n  jobTemplate:\n    spec:\n      parallelism: 2\n      template:\n        spec: {restartPolicy: Never, containers: [{name: c, image: i}]}"
	const storage = "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: storage, namespace: ns1}\nspec: {hard: {pods: \"5\", requests.storage: 3Gi}}"
	claim := func(name, size string) string {
		return "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: " + name + ", namespace: ns1}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: " + size + "}}}"
	}
	const sts = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s, namespace: ns1}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: s}}\n  template:\n    metadata: {labels: {app: s}}\n    spec: {containers: [{name: c, image: i}]}\n  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 2Gi}}}"
	for _, tt := range []struct {
		name string
		docs []string
		want map[string]string // warning of each result, by name; "" none
	}{
		{"two workloads", []string{quota, deploy("a", 2), deploy("b", 2)}, map[string]string{
			"a": "", "b": byA + "the two controllers create theirs at the same time, so which the quota refuses is a race (WL-03)"}},
		{"the input's Pod after a workload", []string{quota, deploy("a", 3), pod("p")}, map[string]string{
			"a": "", "p": byA + "its controller creates them while kubectl creates this Pod, so which the quota refuses is a race (WL-03)"}},
		{"a workload over its own Pods", []string{quota, deploy("a", 4)}, map[string]string{"a": ""}},
		{"a workload after the input's Pods", []string{quota, pod("p"), pod("q"), deploy("a", 2)}, map[string]string{"p": "", "q": "", "a": ""}},
		// Claims too; and a refusal in a resource no workload's objects
		// were charged for is no race, whatever else the quota holds.
		{"a claim after a StatefulSet's", []string{storage, sts, claim("c", "2Gi")}, map[string]string{
			"s": "", "c": "quota storage also holds objects created for StatefulSet ns1/s: in a cluster its controller creates them while kubectl creates this PersistentVolumeClaim, so which the quota refuses is a race (WL-03)"}},
		{"a claim over what no workload charged", []string{storage, deploy("a", 2), claim("c", "2Gi"), claim("d", "2Gi")}, map[string]string{"a": "", "c": "", "d": ""}},
		// A CronJob's Pods come at its schedule, after the others: no race.
		{"a CronJob", []string{quota, deploy("a", 2), cron},
			map[string]string{"a": "", "c": ""}},
		// What its Job took is no race either, but a cluster charges the
		// objects after the CronJob first (WL-13).
		{"after a CronJob", []string{quota, cron, pod("p"), pod("q")}, map[string]string{
			"c": "", "p": "", "q": "quota pods also holds objects created for CronJob ns1/c, which a cluster creates only at its schedule, after this Pod: there the quota charges this one first and may refuse the CronJob's instead (WL-13)"}},
		{"a workload after a CronJob", []string{quota, cron, deploy("a", 2)}, map[string]string{
			"c": "", "a": "quota pods also holds objects created for CronJob ns1/c, which a cluster creates only at its schedule, after what this workload's controller creates: there the quota charges those first and may refuse the CronJob's instead (WL-13)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "ns1", OmitNamespaceObjects: true})
			for _, doc := range tt.docs {
				r := e.Admit(decode(t, doc))
				want, ok := tt.want[r.Name]
				if !ok {
					continue
				}
				var races []string // these warnings only: a CronJob has its own too (WL-13)
				for _, w := range r.Warnings {
					if strings.HasSuffix(w, "is a race (WL-03)") || strings.HasSuffix(w, "may refuse the CronJob's instead (WL-13)") {
						races = append(races, w)
					}
				}
				if got := strings.Join(races, "\n"); got != want {
					t.Errorf("%s: warnings %q\nwant %q", r.Name, got, want)
				}
				if want != "" && r.Workload != nil {
					refused := r.Workload.Created[len(r.Workload.Created)-1]
					if refused.Allowed || len(refused.Warnings) != 1 || refused.Warnings[0] != want {
						t.Errorf("%s: last created %s allowed %v, warnings %q", r.Name, refused.Name, refused.Allowed, refused.Warnings)
					}
				}
			}
		})
	}
}
