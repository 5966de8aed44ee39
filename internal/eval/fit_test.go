package eval

import (
	"flag"
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"
	"time"
)

var (
	fitCases = flag.Int("fit-cases", 60, "random cases of TestFitBruteForce")
	fitSeed  = flag.Int64("fit-seed", 1, "seed of TestFitBruteForce (0: time)")
)

// TestFitBruteForce (FIT-01): on random namespaces, quotas, LimitRanges, Pods
// and workloads, the fit AdmitFit reports for each workload is admitted in
// full when the workload is admitted at that point with that many replicas
// (Options.Replicas, Nodes or Parallelism), one more is not, and the binding
// is that replica's first refusal, message for message.
func TestFitBruteForce(t *testing.T) {
	seed := *fitSeed
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	rng := rand.New(rand.NewSource(seed))
	bisections := fitBisections.Load()
	kinds := map[string]int{}
	bounded, zero := 0, 0
	for c := range *fitCases {
		docs, nodes := randomFitCase(rng)
		opts := Options{DefaultNamespace: "ns", Nodes: nodes}
		e := New(opts)
		for d, doc := range docs {
			res, fit := e.AdmitFit(decode(t, doc))
			if fit == nil {
				continue
			}
			if fit.Fits() != res.Allowed {
				t.Fatalf("seed %d case %d document %d: admitted %v, but %d wanted, %d fit, binding %+v", seed, c, d, res.Allowed, fit.Wanted, fit.Fit, fit.Binding)
			}
			obj := decode(t, doc)
			kind := obj.GetObjectKind().GroupVersionKind().Kind
			kinds[kind]++
			where := fmt.Sprintf("seed %d case %d document %d (%s, fit %d of %d)", seed, c, d, kind, fit.Fit, fit.Wanted)
			at := func(n int) Result { return admitScaled(t, opts, docs[:d], doc, n) }
			if fit.Fit < Unbounded {
				bounded++
				if fit.Binding == nil {
					t.Fatalf("%s: bounded fit without a binding:\n%s", where, strings.Join(docs, "\n---\n"))
				}
			}
			if fit.Fit == 0 {
				zero++
			}
			// N admitted in full (a DaemonSet cannot be given 0 nodes).
			if fit.Binding == nil || fit.Binding.Replica > 0 {
				if !(kind == "DaemonSet" && fit.Fit == 0) {
					if r := at(fit.Fit); !r.Allowed {
						t.Fatalf("%s: %d replicas are not admitted in full: %s\n%s", where, fit.Fit, firstRefusal(&r), strings.Join(docs, "\n---\n"))
					}
				}
			}
			if fit.Fit == Unbounded {
				continue
			}
			r := at(fit.Fit + 1)
			if r.Allowed {
				t.Fatalf("%s: %d replicas are admitted in full\n%s", where, fit.Fit+1, strings.Join(docs, "\n---\n"))
			}
			if got, want := bindingMessage(fit.Binding), firstRefusal(&r); got != want {
				t.Fatalf("%s: binding %q, replica %d is refused with %q\n%s", where, got, fit.Fit+1, want, strings.Join(docs, "\n---\n"))
			}
		}
	}
	if n := fitBisections.Load() - bisections; n > 0 {
		t.Errorf("seed %d: %d fits were not read off the Unbounded probe but bisected", seed, n)
	}
	if bounded == 0 || zero == 0 || len(kinds) < 5 {
		t.Fatalf("seed %d: the cases do not exercise fit: %d bounded, %d zero, kinds %v", seed, bounded, zero, kinds)
	}
	t.Logf("seed %d: %d cases, workloads %v, %d bounded, %d zero", seed, *fitCases, kinds, bounded, zero)
}

// admitScaled admits prefix as written, then doc with n replicas, on a fresh
// engine: what `--replicas n` (--nodes, a parallelism of n) gives at doc.
func admitScaled(t *testing.T, opts Options, prefix []string, doc string, n int) Result {
	t.Helper()
	e := New(opts)
	for _, d := range prefix {
		e.Admit(decode(t, d))
	}
	count := int32(n)
	e.opts.Replicas, e.opts.Parallelism, e.opts.Nodes = &count, &count, n
	return e.Admit(decode(t, doc))
}

// firstRefusal is the message of the first object refused in r: the workload
// itself or what its controllers created, in creation order.
func firstRefusal(r *Result) string {
	if r.Denial != nil {
		return r.Denial.Message
	}
	if r.Internal != "" {
		return r.Internal
	}
	if r.Workload != nil {
		for _, c := range r.Workload.Created {
			if !c.Allowed {
				return firstRefusal(&c)
			}
		}
	}
	return ""
}

func bindingMessage(b *Binding) string {
	if b.Denial == nil {
		return b.Internal
	}
	return b.Denial.Message
}

// randomFitCase extends randomReplicaCase with what only fit meets: Pods a
// ReplicaSet adopts (WL-02), CronJobs, ReplicationControllers, quotas on
// object counts that refuse the workload or the ReplicaSet or Job created
// for it, and LimitRanges that refuse every replica.
func randomFitCase(rng *rand.Rand) ([]string, int) {
	docs, nodes := randomReplicaCase(rng)
	pod := regexp.MustCompile(`metadata: \{name: (p\d)\}`)
	for i, d := range docs {
		if pod.MatchString(d) && rng.Intn(2) == 0 {
			docs[i] = pod.ReplaceAllString(d, fmt.Sprintf("metadata: {name: $1, labels: {app: a%d}}", rng.Intn(3)))
		}
	}
	tmpl := func(app string) string {
		return fmt.Sprintf("template:\n    metadata: {labels: {app: %s}}\n    spec:\n      restartPolicy: %%s\n      containers: [{name: c, image: i, resources: %s}]",
			app, pick(rng, "{}", "{requests: {cpu: 100m, memory: 128Mi}}", "{limits: {cpu: 3}}", "{requests: {cpu: 250m, memory: 1e8}}"))
	}
	if rng.Intn(3) == 0 {
		docs = append([]string{fmt.Sprintf("apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: counts}\nspec:\n  hard: {%s}",
			pick(rng, `count/replicasets.apps: "0"`, `count/jobs.batch: "0"`, `count/deployments.apps: "0"`, `pods: "3"`, `count/replicasets.apps: "1", pods: "4"`))}, docs...)
	}
	for w := range rng.Intn(3) {
		switch rng.Intn(3) {
		case 0:
			docs = append(docs, fmt.Sprintf("apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cron%d}\nspec:\n  schedule: '* * * * *'\n  jobTemplate:\n    spec:\n      parallelism: %d\n      %s",
				w, pick(rng, 1, 3, 120), strings.ReplaceAll(fmt.Sprintf(tmpl("c"), "Never"), "\n  ", "\n      ")))
		case 1:
			docs = append(docs, fmt.Sprintf("apiVersion: v1\nkind: ReplicationController\nmetadata: {name: rc%d}\nspec:\n  replicas: %d\n  selector: {app: a%d}\n  %s",
				w, pick(rng, 0, 2, 150), rng.Intn(3), fmt.Sprintf(tmpl(fmt.Sprintf("a%d", w)), "Always")))
		default:
			docs = append(docs, fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: dep%d}\nspec:\n  replicas: %d\n  selector: {matchLabels: {app: d%d}}\n  %s",
				w, pick(rng, 1, 4, 99), w, fmt.Sprintf(tmpl(fmt.Sprintf("d%d", w)), "Always")))
		}
	}
	if rng.Intn(4) == 0 {
		docs = append([]string{"apiVersion: v1\nkind: LimitRange\nmetadata: {name: small}\nspec:\n  limits:\n  - type: Container\n    max: {cpu: '2'}"}, docs...)
	}
	return docs, nodes
}

// TestFit pins whole results: the fit, the binding replica, object and message.
func TestFit(t *testing.T) {
	quota := func(hard string) string {
		return "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: compute}\nspec: {hard: {" + hard + "}}"
	}
	deploy := func(name string, replicas int, resources string) string {
		return fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s}\nspec:\n  replicas: %d\n  selector: {matchLabels: {app: %s}}\n  template:\n    metadata: {labels: {app: %s}}\n    spec:\n      containers: [{name: c, image: i, resources: %s}]", name, replicas, name, name, resources)
	}
	tests := []struct {
		name    string
		docs    []string
		nodes   int
		wanted  int
		fit     int
		replica int    // Binding.Replica
		object  string // Binding Kind/Name
		message string
		// accounts are Options.CreatedAccounts.
		accounts []Reference
	}{{
		name:    "quota on requests.cpu",
		docs:    []string{quota("requests.cpu: '2'"), deploy("web", 5, "{requests: {cpu: 500m}}")},
		wanted:  5,
		fit:     4,
		replica: 5,
		object:  "Pod/web-849744c7d7-xxxxx",
		message: `pods "web-849744c7d7-xxxxx" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=2, limited: requests.cpu=2`,
	}, {
		name:   "nothing limits it",
		docs:   []string{quota("requests.memory: 1Gi"), deploy("web", 5, "{requests: {cpu: 500m, memory: '0'}}")},
		wanted: 5,
		fit:    Unbounded,
	}, {
		name: "quota on Pods, the earlier Deployment counted",
		docs: []string{quota("pods: '10'"), deploy("api", 4, "{}"), deploy("web", 3, "{}")},
		// api takes 4 Pods; web's fit is what is left.
		wanted:  3,
		fit:     6,
		replica: 7,
		object:  "Pod/web-6bfcccbf84-xxxxx",
		message: `pods "web-6bfcccbf84-xxxxx" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=10, limited: pods=10`,
	}, {
		name:    "a quota that requires memory refuses the first replica",
		docs:    []string{quota("requests.memory: 1Gi"), deploy("web", 2, "{requests: {cpu: 100m}}")},
		wanted:  2,
		fit:     0,
		replica: 1,
		object:  "Pod/web-647bf7b44c-xxxxx",
		message: `pods "web-647bf7b44c-xxxxx" is forbidden: failed quota: compute: must specify requests.memory for: c`,
	}, {
		name:    "the ReplicaSet is refused: 0 whatever the count",
		docs:    []string{quota("count/replicasets.apps: '0'"), deploy("web", 2, "{}")},
		wanted:  2,
		fit:     0,
		object:  "ReplicaSet/web-6bfcccbf84",
		message: `replicasets.apps "web-6bfcccbf84" is forbidden: exceeded quota: compute, requested: count/replicasets.apps=1, used: count/replicasets.apps=0, limited: count/replicasets.apps=0`,
	}, {
		name:    "the Deployment itself is refused",
		docs:    []string{quota("count/deployments.apps: '0'"), deploy("web", 2, "{}")},
		wanted:  2,
		fit:     0,
		object:  "Deployment/web",
		message: `deployments.apps "web" is forbidden: exceeded quota: compute, requested: count/deployments.apps=1, used: count/deployments.apps=0, limited: count/deployments.apps=0`,
	}, {
		name: "a StatefulSet's claim binds before its Pod",
		docs: []string{quota("requests.storage: 5Gi, pods: '100'"),
			"apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  replicas: 3\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec:\n      containers: [{name: c, image: i}]\n  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 2Gi}}}"},
		wanted:  3,
		fit:     2,
		replica: 3,
		object:  "PersistentVolumeClaim/data-db-2",
		message: `persistentvolumeclaims "data-db-2" is forbidden: exceeded quota: compute, requested: requests.storage=2Gi, used: requests.storage=4Gi, limited: requests.storage=5Gi`,
	}, {
		name: "a DaemonSet's replicas are nodes",
		docs: []string{quota("pods: '4'"),
			"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: c, image: i}]"},
		nodes:   3,
		wanted:  3,
		fit:     4,
		replica: 5,
		object:  "Pod/agent-xxxxx",
		message: `pods "agent-xxxxx" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=4, limited: pods=4`,
	}, {
		name: "a Job's parallelism beyond its completions always fits",
		docs: []string{quota("pods: '4'"),
			"apiVersion: batch/v1\nkind: Job\nmetadata: {name: batch}\nspec:\n  parallelism: 2\n  completions: 3\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: i}]"},
		wanted: 2,
		fit:    Unbounded,
	}, {
		name: "a ReplicaSet counts the Pods it adopts",
		docs: []string{quota("pods: '5'"),
			"apiVersion: v1\nkind: Pod\nmetadata: {name: old, labels: {app: web}}\nspec:\n  containers: [{name: c, image: i}]",
			"apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: c, image: i}]"},
		wanted:  2,
		fit:     5, // the adopted Pod and 4 created
		replica: 6,
		object:  "Pod/web-xxxxx",
		message: `pods "web-xxxxx" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=5, limited: pods=5`,
	}, {
		// Every Pod carries "<set>-<revision hash>" in a label (WL-07):
		// too long a name refuses the first one, whatever the replicas.
		name:    "a name too long for the revision label",
		docs:    []string{"apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: " + strings.Repeat("s", 61) + "}\nspec:\n  replicas: 3\n  serviceName: s\n  selector: {matchLabels: {app: s}}\n  template:\n    metadata: {labels: {app: s}}\n    spec:\n      containers: [{name: c, image: i}]"},
		wanted:  3,
		fit:     0,
		replica: 1,
		object:  "Pod/" + strings.Repeat("s", 61) + "-0",
		message: `Pod "` + strings.Repeat("s", 61) + `-0" is invalid: metadata.labels: Invalid value: "` + strings.Repeat("s", 61) + `-776dff8d98": must be no more than 63 bytes`,
	}, {
		// PL-11: the fit probes run on copies of the engine, which must know
		// the accounts the input refused (kube-apiserver 1.36.3 refuses
		// every Pod: serviceaccount "bad" not found).
		name: "a ServiceAccount kube-apiserver refused: its Pods fit 0",
		docs: []string{"apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: bad, labels: {'bad key!': x}}",
			strings.Replace(deploy("web", 2, "{}"), "    spec:\n", "    spec:\n      serviceAccountName: bad\n", 1)},
		wanted:  2,
		fit:     0,
		replica: 1,
		object:  "Pod/", // refused before its name is generated
		message: `pods "web-7b88ff9cf6-" is forbidden: error looking up service account shop/bad: serviceaccount "bad" not found`,
	}, {
		name: "a ServiceAccount that limits its Pods' secrets: a Pod reading another fits 0",
		docs: []string{"apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: locked, annotations: {kubernetes.io/enforce-mountable-secrets: 'true'}}\nsecrets: [{name: allowed}]",
			strings.Replace(deploy("web", 2, "{}"), "    spec:\n", "    spec:\n      serviceAccountName: locked\n      volumes: [{name: s, secret: {secretName: db}}]\n", 1)},
		wanted:  2,
		fit:     0,
		replica: 1,
		object:  "Pod/web-65884597d4-xxxxx",
		message: `pods "web-65884597d4-" is forbidden: volume with secret.secretName="db" is not allowed because service account locked does not reference that secret`,
	}, {
		// kube-apiserver 1.36.3: a Namespace and a Deployment naming an
		// account nobody creates, kubectl create -f: every Pod refused.
		name: "a namespace the input creates has no account but default and the input's",
		docs: []string{"apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}",
			strings.Replace(deploy("web", 2, "{}"), "    spec:\n", "    spec:\n      serviceAccountName: builder\n", 1)},
		wanted:  2,
		fit:     0,
		replica: 1,
		object:  "Pod/",
		message: `pods "web-55bdbdbd68-" is forbidden: error looking up service account shop/builder: serviceaccount "builder" not found`,
	}, {
		name:     "a namespace the input creates has the accounts the input creates, wherever they are",
		docs:     []string{"apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}", strings.Replace(deploy("web", 2, "{}"), "    spec:\n", "    spec:\n      serviceAccountName: builder\n", 1)},
		accounts: []Reference{{Kind: "ServiceAccount", Namespace: "shop", Name: "builder"}},
		wanted:   2,
		fit:      Unbounded,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "shop", Nodes: tc.nodes, CreatedAccounts: tc.accounts})
			var fit *Fit
			for _, d := range tc.docs {
				_, fit = e.AdmitFit(decode(t, d))
			}
			if fit == nil {
				t.Fatal("no fit")
			}
			if fit.Wanted != tc.wanted || fit.Fit != tc.fit {
				t.Fatalf("wanted %d, fit %d; want %d, %d", fit.Wanted, fit.Fit, tc.wanted, tc.fit)
			}
			if tc.object == "" {
				if fit.Binding != nil {
					t.Fatalf("binding %+v, want none", fit.Binding)
				}
				return
			}
			b := fit.Binding
			if b == nil {
				t.Fatal("no binding")
			}
			if got := b.Kind + "/" + b.Name; b.Replica != tc.replica || got != tc.object {
				t.Errorf("binding replica %d, object %s; want %d, %s", b.Replica, got, tc.replica, tc.object)
			}
			if tc.message != "" && bindingMessage(b) != tc.message {
				t.Errorf("message\n%s\nwant\n%s", bindingMessage(b), tc.message)
			}
		})
	}
}

// TestAdmitFitLeavesState: the engine goes on with the workload as written,
// exactly as Admit would, whatever the probes did on their copies.
func TestAdmitFitLeavesState(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for c := range 20 {
		docs, nodes := randomFitCase(rng)
		fitting, plain := New(Options{DefaultNamespace: "ns", Nodes: nodes}), New(Options{DefaultNamespace: "ns", Nodes: nodes})
		for d, doc := range docs {
			got, _ := fitting.AdmitFit(decode(t, doc))
			want := plain.Admit(decode(t, doc))
			if g, w := resultJSON(t, got), resultJSON(t, want); g != w {
				t.Fatalf("case %d document %d: AdmitFit\n%s\nAdmit\n%s", c, d, g, w)
			}
		}
		if g, w := quotasJSON(t, fitting), quotasJSON(t, plain); g != w {
			t.Fatalf("case %d: quotas\n%s\nwant\n%s", c, g, w)
		}
	}
}

// FIT-01, VAL-44: an Indexed Job's parallelism is bounded by its own
// validation: 100000 fit, and the 100001st is the Job refused.
func TestFitIndexedJobBound(t *testing.T) {
	for _, doc := range []string{
		"apiVersion: batch/v1\nkind: Job\nmetadata: {name: idx}\nspec:\n  completionMode: Indexed\n  completions: 4\n  parallelism: 2\n  template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}",
		"apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: idx}\nspec:\n  schedule: '0 * * * *'\n  jobTemplate:\n    spec:\n      completionMode: Indexed\n      completions: 2\n      template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}",
	} {
		_, fit := New(Options{DefaultNamespace: "ns"}).AdmitFit(decode(t, doc))
		if fit == nil || fit.Fit != 100000 || fit.Binding == nil || fit.Binding.Replica != 100001 || fit.Binding.Denial == nil ||
			!strings.Contains(fit.Binding.Denial.Message, "parallelism: Invalid value: 100001: must be less than or equal to 100000 when completion mode is Indexed") {
			t.Errorf("%s\nfit %+v", doc, fit)
		}
		if fit != nil && !fit.Fits() {
			t.Errorf("%s: wanted fits, Fits() false", doc)
		}
	}
}
