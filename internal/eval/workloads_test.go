package eval

import (
	"testing"

	batchv1 "k8s.io/api/batch/v1"

	"github.com/limitcheck/limitcheck/internal/eval/defaults"
)

// TestWorkloadRefused (VAL-40..VAL-49): workloads refused by their validation
// create nothing, want no Pods for a negative count, and see their defaults.
func TestWorkloadRefused(t *testing.T) {
	const tmpl = "template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: i}]}}"
	for _, tt := range []struct {
		name, doc, msg string
		replicas       int
	}{
		{
			name:     "negative replicas",
			doc:      "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web}\nspec: {replicas: -3, selector: {matchLabels: {a: b}}, " + tmpl + "}",
			msg:      `ReplicaSet.apps "web" is invalid: spec.replicas: Invalid value: -3: must be greater than or equal to 0`,
			replicas: 0,
		},
		{
			name:     "RC without template",
			doc:      "apiVersion: v1\nkind: ReplicationController\nmetadata: {name: rc}\nspec: {replicas: 2}",
			msg:      `ReplicationController "rc" is invalid: [spec.selector: Required value, spec.template: Required value]`,
			replicas: 2,
		},
		{
			name:     "negative parallelism",
			doc:      "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {parallelism: -1, template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}",
			msg:      `Job.batch "j" is invalid: spec.parallelism: Invalid value: -1: must be greater than or equal to 0`,
			replicas: 0,
		},
		{
			name:     "CronJob template not defaulted as a Job",
			doc:      "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec: {schedule: '@daily', jobTemplate: {spec: {completionMode: Indexed, template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}}}",
			msg:      `CronJob.batch "c" is invalid: spec.jobTemplate.spec.completions: Required value: when completion mode is Indexed`,
			replicas: 1,
		},
		{
			name:     "Deployment minReadySeconds against the default progress deadline",
			doc:      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {minReadySeconds: 900, selector: {matchLabels: {a: b}}, " + tmpl + "}",
			msg:      `Deployment.apps "web" is invalid: spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds`,
			replicas: 1,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := New(Options{DefaultNamespace: "ns1"}).Admit(decode(t, tt.doc))
			if r.Denial == nil || r.Denial.Message != tt.msg || r.Denial.Code != 422 {
				t.Fatalf("denial %+v, want 422 %s", r.Denial, tt.msg)
			}
			if r.Workload == nil || r.Workload.Replicas != tt.replicas || len(r.Workload.Created) != 0 {
				t.Errorf("workload %+v, want %d replicas and nothing created", r.Workload, tt.replicas)
			}
		})
	}
}

// TestJobGeneratedSelector (VAL-45): an admitted Job carries the selector and
// labels PrepareForCreate generates, and its Pods the labels.
func TestJobGeneratedSelector(t *testing.T) {
	r := New(Options{DefaultNamespace: "ns1"}).Admit(decode(t, "apiVersion: batch/v1\nkind: Job\nmetadata: {name: pi}\nspec: {template: {metadata: {labels: {a: b}}, spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}"))
	if !r.Allowed {
		t.Fatalf("refused: %+v", r.Denial)
	}
	job := r.Object.(*batchv1.Job)
	if got := job.Spec.Selector.MatchLabels[batchv1.ControllerUidLabel]; got != defaults.GeneratedUID {
		t.Errorf("selector %v", job.Spec.Selector)
	}
	if job.Labels[batchv1.JobNameLabel] != "pi" || job.Spec.Template.Labels["job-name"] != "pi" {
		t.Errorf("labels %v, template labels %v", job.Labels, job.Spec.Template.Labels)
	}
	if len(r.Workload.Created) != 1 || r.Workload.Created[0].Object.(interface{ GetLabels() map[string]string }).GetLabels()["controller-uid"] != defaults.GeneratedUID {
		t.Errorf("created %+v", r.Workload.Created)
	}
}
