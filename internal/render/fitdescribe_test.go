package render

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/load"
)

// fitDescribeInput has, in namespace shop, a scoped quota and a second one,
// a Deployment an HPA scales beyond what fits, one whose rollout is stuck,
// one with a Helm source that rolls out, a Recreate one and a StatefulSet;
// in namespace other, no quota and a ReplicaSet nothing limits.
const fitDescribeInput = `apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: shop}
spec:
  hard: {requests.cpu: "4", pods: "9", limits.memory: 1G}
  scopes: [NotBestEffort]
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: objects, namespace: shop}
spec:
  hard: {count/deployments.apps: "10", services.loadbalancers: "1"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web:1, resources: {requests: {cpu: 500m}, limits: {memory: 128Mi}}}]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web-hpa, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: shop}
spec:
  replicas: 2
  strategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers: [{name: api, image: api:1, resources: {requests: {cpu: "1"}, limits: {memory: 100Mi}}}]
---
# Source: shop/templates/cache.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: cache, namespace: shop}
spec:
  replicas: 4
  selector: {matchLabels: {app: cache}}
  template:
    metadata: {labels: {app: cache}}
    spec:
      containers: [{name: cache, image: cache:1}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: once, namespace: shop}
spec:
  replicas: 1
  strategy: {type: Recreate}
  selector: {matchLabels: {app: once}}
  template:
    metadata: {labels: {app: once}}
    spec:
      containers: [{name: once, image: once:1}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  replicas: 1
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: db:1}]
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

func fitReportOf(t *testing.T, input string, opts check.Options) *check.Report {
	t.Helper()
	opts.Paths, opts.Stdin = []string{"-"}, strings.NewReader(input)
	rep, err := check.Run(opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestFitDescribeGolden pins the whole describe output (FIT-05) of two
// inputs: fitInput (a quota, a LimitRange, a workload refused itself, one
// nothing limits) and fitDescribeInput with --rollout (scopes, an HPA, every
// kind of rollout). go test ./internal/render -update rewrites them.
func TestFitDescribeGolden(t *testing.T) {
	for _, c := range []struct {
		golden string
		input  string
		opts   check.Options
	}{
		{"fit.describe.golden", fitInput, check.Options{Fit: true}},
		{"fit-rollout.describe.golden", fitDescribeInput, check.Options{Fit: true, Rollout: true}},
	} {
		t.Run(c.golden, func(t *testing.T) {
			var buf bytes.Buffer
			if err := FitDescribe(&buf, fitReportOf(t, c.input, c.opts), Options{Color: true}); err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(buf.Bytes(), []byte("\x1b")) {
				t.Error("describe output is coloured")
			}
			assertGolden(t, filepath.Join("testdata", c.golden), buf.Bytes())
		})
	}
}

// TestDescribeFitBlocks pins whole workload blocks built by hand: every
// form of binding, an HPA whose maxReplicas fits, rollouts complete, stuck
// and not simulated, escaped names.
func TestDescribeFitBlocks(t *testing.T) {
	quotaDenial := &status.Denial{Code: 403, Stage: status.StageQuota, Quota: "compute", Resources: []string{"requests.cpu", "pods"}, Message: `pods "web-3" is forbidden: exceeded quota: compute`}
	lrDenial := &status.Denial{Code: 403, Stage: status.StageLimitRanger, LimitRange: "limits", Message: `pods "web-0" is forbidden: maximum cpu usage per Container is 1, but limit is 2`}
	entry := func(f *eval.Fit, ro *eval.Rollout) *check.Entry {
		return &check.Entry{Pos: load.Position{File: "web.yaml", Line: 3}, Result: eval.Result{Kind: "Deployment", Namespace: "shop", Name: "web"}, Fit: f, Rollout: ro}
	}
	for _, c := range []struct {
		name string
		e    *check.Entry
		want string
	}{
		{"unbounded", entry(&eval.Fit{Wanted: 2, Fit: eval.Unbounded}, nil), `Name:       web
Namespace:  shop
Kind:       Deployment
File:       web.yaml:3
Replicas:   2 wanted | unbounded
Fits:       true
Binding:    <none>
`},
		{"quota at a replica, HPA fits", entry(&eval.Fit{Wanted: 2, Fit: 3, Binding: &eval.Binding{Replica: 4, Kind: "Pod", Name: "web-3", Denial: quotaDenial},
			HPA: &eval.FitHPA{Name: "web", MinReplicas: 1, MaxReplicas: 3, MaxFits: true}}, nil), `Name:       web
Namespace:  shop
Kind:       Deployment
File:       web.yaml:3
Replicas:   2 wanted | 3 fit
Fits:       true
Binding:
  Constraint:  quota compute (requests.cpu, pods)
  Refused:     Pod web-3 (replica 4)
  Message:     pods "web-3" is forbidden: exceeded quota: compute
Autoscaler:
  Name:          web
  Min Replicas:  1
  Max Replicas:  3
  Max Fits:      true
`},
		{"the workload itself, validation", entry(&eval.Fit{Wanted: 1, Fit: 0, Binding: &eval.Binding{Kind: "Deployment", Name: "web",
			Denial: &status.Denial{Code: 422, Stage: status.StageValidation, Message: `Deployment.apps "web" is invalid`}}}, nil), `Name:       web
Namespace:  shop
Kind:       Deployment
File:       web.yaml:3
Replicas:   1 wanted | 0 fit
Fits:       false
Binding:
  Constraint:  validation
  Refused:     Deployment web (the Deployment itself)
  Message:     Deployment.apps "web" is invalid
`},
		{"its ReplicaSet, internal", entry(&eval.Fit{Wanted: 1, Fit: 0, Binding: &eval.Binding{Kind: "ReplicaSet", Name: "web", Internal: "boom"}}, nil), `Name:       web
Namespace:  shop
Kind:       Deployment
File:       web.yaml:3
Replicas:   1 wanted | 0 fit
Fits:       false
Binding:
  Constraint:  limitcheck failed: boom
  Refused:     ReplicaSet web
  Message:     boom
`},
		{"rollout stuck at a LimitRange", entry(&eval.Fit{Wanted: 1, Fit: eval.Unbounded}, &eval.Rollout{Strategy: "RollingUpdate", Replicas: 1, MaxSurge: 1, MaxUnavailable: 0,
			Old: 1, Binding: &eval.Binding{Kind: "Pod", Name: "web-0", Denial: lrDenial}}), `Name:       web
Namespace:  shop
Kind:       Deployment
File:       web.yaml:3
Replicas:   1 wanted | unbounded
Fits:       true
Binding:    <none>
Rollout:
  Strategy:          RollingUpdate
  Replicas:          1
  Max Surge:         1
  Max Unavailable:   0
  Result:            stuck with 0 new and 1 old Pods
  Constraint:        LimitRange limits
  Refused:           Pod web-0
  Message:           pods "web-0" is forbidden: maximum cpu usage per Container is 1, but limit is 2
  Peak Quota Usage:  <none>
`},
		{"rollout completes, peaks", entry(&eval.Fit{Wanted: 4, Fit: eval.Unbounded}, &eval.Rollout{Strategy: "RollingUpdate", Replicas: 4, MaxSurge: 1, MaxUnavailable: 1,
			Complete: true, New: 4, Peak: []eval.QuotaPeak{
				{Quota: "compute", Resource: "requests.cpu", Used: q("2"), Peak: q("2500m"), Hard: q("3"), HasHard: true},
				{Quota: "compute", Resource: corev1.ResourceName("count/replicasets.apps"), Used: q("1"), Peak: q("2")},
			}}), `Name:       web
Namespace:  shop
Kind:       Deployment
File:       web.yaml:3
Replicas:   4 wanted | unbounded
Fits:       true
Binding:    <none>
Rollout:
  Strategy:         RollingUpdate
  Replicas:         4
  Max Surge:        1
  Max Unavailable:  1
  Result:           completes
  Peak Quota Usage:
    Quota    Resource                Used  Peak   Hard
    -----    --------                ----  ----   ----
    compute  requests.cpu            2     2500m  3
    compute  count/replicasets.apps  1     2      -
`},
		{"rollout not simulated", entry(&eval.Fit{Wanted: 5, Fit: 3, Binding: &eval.Binding{Replica: 4, Kind: "Pod", Name: "web-3", Denial: quotaDenial}},
			&eval.Rollout{Strategy: "RollingUpdate", Replicas: 5, Note: "only 3 of 5 replicas run: fix that first"}), `Name:       web
Namespace:  shop
Kind:       Deployment
File:       web.yaml:3
Replicas:   5 wanted | 3 fit
Fits:       false
Binding:
  Constraint:  quota compute (requests.cpu, pods)
  Refused:     Pod web-3 (replica 4)
  Message:     pods "web-3" is forbidden: exceeded quota: compute
Rollout:
  Strategy:  RollingUpdate
  Replicas:  5
  Result:    not simulated
  Note:      only 3 of 5 replicas run: fix that first
`},
		{"escaped, with a source", &check.Entry{Pos: load.Position{File: "chart\x1b.yaml", Line: 7, Source: "shop/templates/web.yaml"},
			Result: eval.Result{Kind: "Deployment", Namespace: "shop", Name: "w\x1b[31m"}, Fit: &eval.Fit{Wanted: 1, Fit: eval.Unbounded}}, `Name:       w^[[31m
Namespace:  shop
Kind:       Deployment
File:       chart^[.yaml:7
Source:     shop/templates/web.yaml
Replicas:   1 wanted | unbounded
Fits:       true
Binding:    <none>
`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := describeFit(c.e); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestDescribeQuotaFree: the Free column (FIT-05) beside kubectl's quirky
// Used cell, and DescribeQuota itself unchanged by it.
func TestDescribeQuotaFree(t *testing.T) {
	quota := quotaFixture("compute", "shop", nil,
		corev1.ResourceList{"limits.memory": q("1G"), "requests.cpu": q("2"), "example.com/untracked": q("3")},
		corev1.ResourceList{"limits.memory": q("512Mi"), "requests.cpu": q("2500m")},
	)
	want := `Name:                  compute
Namespace:             shop
Resource               Used       Hard  Free
--------               ----       ----  ----
example.com/untracked  0          3     -
limits.memory          536870912  1G    463129088
requests.cpu           2500m      2     -500m
`
	if got := describeQuota(quota, true); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got, plain := describeQuota(quota, false), DescribeQuota(quota); got != plain || strings.Contains(plain, "Free") {
		t.Errorf("DescribeQuota changed:\n%s", plain)
	}
}

// TestFitDescribeFindings: what the blocks leave out, worded as the text
// report words it.
func TestFitDescribeFindings(t *testing.T) {
	rep := fitReportOf(t, fitInput+"---\napiVersion: v1\nkind: Pod\nmetadata: {name: bad\n", check.Options{Fit: true})
	var buf bytes.Buffer
	if err := FitDescribeFindings(&buf, rep); err != nil {
		t.Fatal(err)
	}
	want := "<stdin>:66: error: error parsing STDIN: error converting YAML to JSON: yaml: line 3: did not find expected ',' or '}'\n"
	if got := buf.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	buf.Reset()
	if err := FitDescribe(&buf, rep, Options{}); err != nil || strings.Contains(buf.String(), "bad") {
		t.Errorf("describe shows the unreadable document (%v):\n%s", err, buf.String())
	}
}

// TestQuotaJSONGolden pins the whole -o json document of fit --quota
// (FIT-02): a scopeSelector in the manifest, an untracked resource kept, a
// quota that refused nothing left out, what stays refused with its replica.
func TestQuotaJSONGolden(t *testing.T) {
	rep := fitReportOf(t, quotaInput, check.Options{SuggestQuota: true})
	var buf bytes.Buffer
	if err := QuotaJSON(&buf, rep, Options{Version: "v1"}); err != nil {
		t.Fatal(err)
	}
	assertGolden(t, filepath.Join("testdata", "fit-quota.json.golden"), buf.Bytes())
	schema := loadSchemaFile(t, fitQuotaSchemaPath)
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if errs := schema.validate(schema.root, doc, ""); len(errs) > 0 {
		t.Errorf("does not validate: %q", errs)
	}
}

// TestQuotaJSONEmpty: nothing to suggest is empty arrays, not nulls.
func TestQuotaJSONEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := QuotaJSON(&buf, &check.Report{}, Options{Version: "v1"}); err != nil {
		t.Fatal(err)
	}
	want := `{
  "schemaVersion": 1,
  "version": "v1",
  "summary": {
    "suggested": 0,
    "changed": 0,
    "stillRefused": 0
  },
  "suggestions": [],
  "stillRefused": [],
  "errors": []
}
`
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// quotaInput: compute (scoped) refuses the third web replica and keeps
// refusing debug (must specify); storage refuses a claim; spare refuses
// nothing; a LimitRange refuses a StatefulSet's Pods whatever the quotas.
const quotaInput = `apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: shop}
spec:
  hard: {requests.cpu: "1", pods: "10", example.com/untracked: "3"}
  scopeSelector:
    matchExpressions: [{scopeName: PriorityClass, operator: NotIn, values: [batch]}]
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: storage, namespace: shop}
spec:
  hard: {requests.storage: 1Gi}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: spare, namespace: shop}
spec:
  hard: {services: "5"}
---
apiVersion: v1
kind: LimitRange
metadata: {name: limits, namespace: shop}
spec:
  limits:
  - type: Container
    max: {memory: 1Gi}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web:1, resources: {requests: {cpu: 500m}}}]
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: shop}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: debug, namespace: shop}
spec:
  containers: [{name: shell, image: busybox}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  replicas: 2
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: db:1, resources: {requests: {cpu: 100m}, limits: {memory: 2Gi}}}]
`

// TestQuotaJSONMatchesManifest: the manifests of -o json are those the
// text output (a YAML stream) applies, value for value.
func TestQuotaJSONMatchesManifest(t *testing.T) {
	rep := fitReportOf(t, quotaInput, check.Options{SuggestQuota: true})
	var text, js bytes.Buffer
	if err := QuotaYAML(&text, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := QuotaJSON(&js, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	var fromYAML []any
	for _, part := range strings.Split(text.String(), "---\n") {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(part), &m); err != nil {
			t.Fatal(err)
		}
		if m != nil {
			fromYAML = append(fromYAML, m)
		}
	}
	var doc struct {
		Suggestions []struct {
			Manifest any `json:"manifest"`
		} `json:"suggestions"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var fromJSON []any
	for _, s := range doc.Suggestions {
		fromJSON = append(fromJSON, s.Manifest)
	}
	if len(fromJSON) != 2 || !reflect.DeepEqual(fromJSON, fromYAML) {
		t.Errorf("JSON manifests %v\nYAML manifests %v", fromJSON, fromYAML)
	}
}

// TestFitQuotaSchemaChecker: the fit --quota schema rejects what it forbids.
func TestFitQuotaSchemaChecker(t *testing.T) {
	schema := loadSchemaFile(t, fitQuotaSchemaPath)
	render := func() map[string]any {
		var buf bytes.Buffer
		if err := QuotaJSON(&buf, fitReportOf(t, quotaInput, check.Options{SuggestQuota: true}), Options{Version: "v1"}); err != nil {
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
	sug := func(doc map[string]any) map[string]any { return doc["suggestions"].([]any)[0].(map[string]any) }
	for name, mutate := range map[string]func(map[string]any){
		"missing stillRefused":  func(doc map[string]any) { delete(doc, "stillRefused") },
		"suggested a number":    func(doc map[string]any) { sug(doc)["suggested"] = map[string]any{"pods": 3.0} },
		"changed a string":      func(doc map[string]any) { sug(doc)["changed"] = "pods" },
		"manifest of a Pod":     func(doc map[string]any) { sug(doc)["manifest"].(map[string]any)["kind"] = "Pod" },
		"manifest with status":  func(doc map[string]any) { sug(doc)["manifest"].(map[string]any)["status"] = map[string]any{} },
		"extra in a suggestion": func(doc map[string]any) { sug(doc)["extra"] = true },
		"unknown stage": func(doc map[string]any) {
			doc["stillRefused"].([]any)[0].(map[string]any)["refusal"].(map[string]any)["stage"] = "webhook"
		},
	} {
		doc := render()
		mutate(doc)
		if errs := schema.validate(schema.root, doc, ""); len(errs) == 0 {
			t.Errorf("%s: validates", name)
		}
	}
}
