package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
)

// fitInput has a workload limited by a quota, one nothing limits, one refused
// itself and one a LimitRange refuses at its first replica.
const fitInput = `apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: shop}
spec: {hard: {requests.cpu: "2", count/cronjobs.batch: "0"}}
---
apiVersion: v1
kind: LimitRange
metadata: {name: limits, namespace: shop}
spec:
  limits:
  - type: Container
    max: {cpu: "1"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 5
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web:1, resources: {requests: {cpu: 500m}, limits: {cpu: 500m}}}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: shop}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: agent:1, resources: {limits: {cpu: "2"}}}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: shop}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: job, image: job:1}]
---
apiVersion: v1
kind: Pod
metadata: {name: solo, namespace: other}
spec:
  containers: [{name: app, image: app:1}]
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: free, namespace: other}
spec:
  replicas: 2
  selector: {matchLabels: {app: free}}
  template:
    metadata: {labels: {app: free}}
    spec:
      containers: [{name: app, image: app:1}]
`

func sampleFitReport() *check.Report {
	rep, err := check.Run(check.Options{Paths: []string{"-"}, Stdin: strings.NewReader(fitInput), Fit: true})
	if err != nil {
		panic(err)
	}
	return rep
}

// TestFitText pins the whole text report.
func TestFitText(t *testing.T) {
	var buf bytes.Buffer
	if err := FitText(&buf, sampleFitReport(), Options{}); err != nil {
		t.Fatal(err)
	}
	want := `<stdin>:14: Deployment shop/web: 5 wanted, 4 fit; the 5th is refused: pods "web-6ccd7b4559-xxxxx" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=2, limited: requests.cpu=2
<stdin>:25: DaemonSet shop/agent: 1 wanted, 0 fit; the 1st is refused: pods "agent-xxxxx" is forbidden: maximum cpu usage per Container is 1, but limit is 2
<stdin>:35: CronJob shop/nightly: 1 wanted, 0 fit; the CronJob itself is refused: cronjobs.batch "nightly" is forbidden: exceeded quota: compute, requested: count/cronjobs.batch=1, used: count/cronjobs.batch=0, limited: count/cronjobs.batch=0
<stdin>:53: ReplicaSet other/free: 2 wanted, unbounded
quota usage in namespace shop:
  QUOTA    RESOURCE              USED  HARD  FREE
  compute  count/cronjobs.batch  0     0     0
  compute  requests.cpu          2     2     0
4 workloads: 1 fits as wanted, 3 do not
`
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if Fits(sampleFitReport()) {
		t.Error("Fits: true, want false")
	}
}

// TestFitJSON: the bindings carry their quota, resources or LimitRange.
func TestFitJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := FitJSON(&buf, sampleFitReport(), Options{Version: "v1"}); err != nil {
		t.Fatal(err)
	}
	var doc jsonFitDoc
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Workloads) != 4 {
		t.Fatalf("%d workloads, want 4", len(doc.Workloads))
	}
	web, agent, free := doc.Workloads[0], doc.Workloads[1], doc.Workloads[3]
	if b := web.Binding; b == nil || b.Replica != 5 || b.Quota != "compute" || b.Resource != "requests.cpu" || b.Stage != "quota" || b.LimitRange != "" || b.Name != "web-6ccd7b4559-xxxxx" {
		t.Errorf("web binding %+v", web.Binding)
	}
	if b := agent.Binding; b == nil || b.LimitRange != "limits" || b.Stage != "limitranger" || b.Quota != "" || b.Replica != 1 {
		t.Errorf("agent binding %+v", agent.Binding)
	}
	if free.Fit != eval.Unbounded || !free.Unbounded || free.Binding != nil {
		t.Errorf("free %+v", free)
	}
	if got := doc.Quotas[0].Free["requests.cpu"]; got != "0" {
		t.Errorf("free requests.cpu %q, want 0", got)
	}
	if doc.Summary != (jsonFitSummary{Workloads: 4, Fit: 1, Unfit: 3}) {
		t.Errorf("summary %+v", doc.Summary)
	}
}

// TestFitSchemaChecker: the fit schema rejects what it forbids.
func TestFitSchemaChecker(t *testing.T) {
	schema := loadSchemaFile(t, fitSchemaPath)
	render := func() map[string]any {
		var buf bytes.Buffer
		if err := FitJSON(&buf, sampleFitReport(), Options{Version: "v1"}); err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	if errs := schema.validate(schema.root, render(), ""); len(errs) > 0 {
		t.Fatalf("the sample does not validate: %q", errs)
	}
	wl := func(doc map[string]any) map[string]any { return doc["workloads"].([]any)[0].(map[string]any) }
	for name, mutate := range map[string]func(map[string]any){
		"fit a string":     func(doc map[string]any) { wl(doc)["fit"] = "3" },
		"binding a string": func(doc map[string]any) { wl(doc)["binding"] = "quota" },
		"unknown stage":    func(doc map[string]any) { wl(doc)["binding"].(map[string]any)["stage"] = "webhook" },
		"missing quotas":   func(doc map[string]any) { delete(doc, "quotas") },
		"free a number": func(doc map[string]any) {
			doc["quotas"].([]any)[0].(map[string]any)["free"] = map[string]any{"pods": 1.0}
		},
		"extra in workload": func(doc map[string]any) { wl(doc)["extra"] = true },
	} {
		doc := render()
		mutate(doc)
		if errs := schema.validate(schema.root, doc, ""); len(errs) == 0 {
			t.Errorf("%s: validates", name)
		}
	}
}

// TestFitJSONRollout: with rollouts, the document still validates and
// carries them.
func TestFitJSONRollout(t *testing.T) {
	schema := loadSchemaFile(t, fitSchemaPath)
	rep, err := check.Run(check.Options{Paths: []string{"-"}, Stdin: strings.NewReader(fitInput), Fit: true, Rollout: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := FitJSON(&buf, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if errs := schema.validate(schema.root, doc, ""); len(errs) > 0 {
		t.Fatalf("does not validate: %q", errs)
	}
	free := doc["workloads"].([]any)[3].(map[string]any)
	if _, ok := free["rollout"]; ok {
		t.Error("a ReplicaSet has a rollout")
	}
	web := doc["workloads"].([]any)[0].(map[string]any)["rollout"].(map[string]any)
	if web["note"] != "only 4 of 5 replicas run: fix that first" {
		t.Errorf("web rollout %v", web)
	}
	web["maxSurge"] = "1"
	if errs := schema.validate(schema.root, doc, ""); len(errs) == 0 {
		t.Error("maxSurge a string validates")
	}
}
