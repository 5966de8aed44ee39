package check

import (
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval"
)

const hpaInput = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 6
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web-too, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v2, kind: Deployment, name: web}
  maxReplicas: 9
---
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: db, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: StatefulSet, name: db}
  maxReplicas: 3
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: other-ns, namespace: elsewhere}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 8
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: invalid, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  minReplicas: 5
  maxReplicas: 4
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: api-lower, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: deployment, name: api}
  maxReplicas: 3
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: upper, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: DEPLOYMENT, name: api}
  maxReplicas: 7
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: shop}
spec:
  replicas: 1
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: api, image: nginx}]}
`

const upperNotServed = `its scaleTargetRef apps/v1 DEPLOYMENT "api" cannot be scaled (the HorizontalPodAutoscaler controller reports FailedGetScale): no matches for kind "DEPLOYMENT" in group "apps"; kube-apiserver 1.36 serves Deployment as apps/v1 (kinds are case-sensitive)`

// TestScale: FIT-04. The first valid HPA of a target scales it, wherever it
// is in the input; an invalid HPA scales nothing; an HPA whose target is not
// in the input (another kind, another namespace) is warned about. A kind in
// lower case names the workload as the REST mapper resolves it; in upper
// case, nothing.
func TestScale(t *testing.T) {
	for _, tc := range []struct {
		scale    Scale
		fit      bool
		web, api int
		warnings map[string]string
	}{
		{scale: ScaleSpec, web: 1, api: 1},
		{scale: ScaleMax, web: 6, api: 3, warnings: map[string]string{
			"web-too":  `HorizontalPodAutoscaler "web" already targets Deployment "web": limitcheck scales it by the first one only`,
			"db":       `its scaleTargetRef StatefulSet "db" is not a Deployment, ReplicaSet, StatefulSet or ReplicationController of the input in namespace "shop": --scale and fit do not apply to it`,
			"other-ns": `its scaleTargetRef Deployment "web" is not a Deployment, ReplicaSet, StatefulSet or ReplicationController of the input in namespace "elsewhere": --scale and fit do not apply to it`,
		}},
		{scale: ScaleMin, web: 2, api: 1, warnings: map[string]string{"web-too": "x", "db": "x", "other-ns": "x"}},
		{scale: ScaleSpec, fit: true, web: 1, api: 1},
	} {
		rep, err := Run(Options{Paths: []string{"-"}, Stdin: strings.NewReader(hpaInput), Scale: tc.scale, Fit: tc.fit})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range rep.Entries {
			r := e.Result
			switch {
			case r.Kind == "Deployment":
				want := map[string]int{"web": tc.web, "api": tc.api}[r.Name]
				if r.Workload == nil || r.Workload.Replicas != want {
					t.Errorf("%s %s: %+v, want %d replicas", tc.scale, r.Name, r.Workload, want)
				}
				if tc.fit && r.Name == "web" && (e.Fit == nil || e.Fit.HPA == nil || *e.Fit.HPA != (eval.FitHPA{Name: "web", MinReplicas: 2, MaxReplicas: 6, MaxFits: true})) {
					t.Errorf("fit of web: %+v", e.Fit)
				}
				if tc.fit && r.Name == "api" && (e.Fit == nil || e.Fit.HPA == nil || e.Fit.HPA.Name != "api-lower") {
					t.Errorf("api's HPA is not api-lower (the invalid one never exists): %+v", e.Fit)
				}
			case r.Name == "invalid":
				if r.Allowed || len(r.Warnings) > 0 {
					t.Errorf("invalid HPA: %+v", r)
				}
			default:
				want := ""
				if tc.scale != ScaleSpec {
					want = tc.warnings[r.Name]
				}
				if tc.fit {
					want = map[string]string{"web-too": "x", "db": "x", "other-ns": "x"}[r.Name]
				}
				if r.Name == "upper" {
					// The controller cannot scale it, whatever the flags; the
					// engine says so, and --scale adds nothing.
					got, want := strings.Join(r.Warnings, "; "), upperNotServed
					if got != want {
						t.Errorf("%s upper: warnings %q, want %q", tc.scale, got, want)
					}
					continue
				}
				got := strings.Join(r.Warnings, "; ")
				if want == "x" { // wording checked with --scale=max
					got, want = map[bool]string{true: "x"}[got != ""], "x"
				}
				if got != want || !r.Allowed {
					t.Errorf("%s %s: warnings %q, want %q (allowed %v)", tc.scale, r.Name, got, want, r.Allowed)
				}
			}
		}
	}
}
