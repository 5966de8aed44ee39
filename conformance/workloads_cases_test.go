package conformance

import (
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/limitcheck/limitcheck/internal/eval"
)

// TestWorkloadValidationCases (VAL-40..VAL-48): fixed workloads with the
// mistakes of internal/eval/validation's unit tests, each refused by upstream
// and limitcheck with the same message, parts in the same order.
func TestWorkloadValidationCases(t *testing.T) {
	const tmpl = `template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: x}]}}`
	const jobTmpl = `template: {spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}`
	docs := []string{
		`{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {replicas: -1, selector: {matchLabels: {app: other}}, minReadySeconds: 600,
		  strategy: {type: Rolling, rollingUpdate: {maxSurge: 1}}, template: {metadata: {labels: {app: web}}, spec: {restartPolicy: Never, activeDeadlineSeconds: 5, containers: [{name: c, image: x}]}}}}`,
		`{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, annotations: {deprecated.deployment.rollback.to: "-1"}}, spec: {` + tmpl + `}}`,
		`{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {selector: {matchLabels: {app: web}}, strategy: {rollingUpdate: {maxUnavailable: 150%, maxSurge: "50"}}, ` + tmpl + `}}`,
		`{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {selector: {matchLabels: {app: web}}, strategy: {rollingUpdate: {maxUnavailable: 0, maxSurge: 0%}}, ` + tmpl + `}}`,
		`{apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: web}, spec: {minReadySeconds: -5, selector: {matchExpressions: [{key: app, operator: Equals, values: [x]}]}, ` + tmpl + `}}`,
		`{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: db.v2}, spec: {podManagementPolicy: Sequential, updateStrategy: {type: OnDelete, rollingUpdate: {partition: 1, maxUnavailable: 2}},
		  persistentVolumeClaimRetentionPolicy: {whenScaled: Keep}, volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce]}}], ordinals: {start: -1},
		  serviceName: My_Service, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {activeDeadlineSeconds: 1, containers: [{name: c, image: x}]}}}}`,
		`{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: db}, spec: {updateStrategy: {type: Rolling}, selector: {matchExpressions: [{key: app, operator: In}]}, ` + tmpl + `}}`,
		`{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: db}, spec: {updateStrategy: {rollingUpdate: {partition: -1}}, revisionHistoryLimit: -1, ` + tmpl + `}}`,
		`{apiVersion: apps/v1, kind: DaemonSet, metadata: {name: agent}, spec: {updateStrategy: {rollingUpdate: {maxUnavailable: 0}}, ` + tmpl + `}}`,
		`{apiVersion: apps/v1, kind: DaemonSet, metadata: {name: agent}, spec: {selector: {}, updateStrategy: {type: Rolling}, revisionHistoryLimit: -1, ` + tmpl + `}}`,
		`{apiVersion: apps/v1, kind: DaemonSet, metadata: {name: agent}, spec: {selector: {matchLabels: {app: web}}, updateStrategy: {rollingUpdate: {maxSurge: 1}}, ` + tmpl + `}}`,
		`{apiVersion: v1, kind: ReplicationController, metadata: {name: rc}, spec: {replicas: 1}}`,
		`{apiVersion: v1, kind: ReplicationController, metadata: {name: rc}, spec: {replicas: -2, selector: {app: other}, template: {metadata: {labels: {app: web}}, spec: {restartPolicy: OnFailure, containers: [{name: c, image: x}]}}}}`,
		`{apiVersion: batch/v1, kind: Job, metadata: {name: pi}, spec: {parallelism: -1, template: {spec: {restartPolicy: Always, containers: [{name: c, image: x}]}}}}`,
		`{apiVersion: batch/v1, kind: Job, metadata: {name: pi}, spec: {completionMode: Indexed, maxFailedIndexes: 2, ` + jobTmpl + `}}`,
		`{apiVersion: batch/v1, kind: Job, metadata: {name: pi}, spec: {backoffLimitPerIndex: 1, completionMode: Sequential, ` + jobTmpl + `}}`,
		`{apiVersion: batch/v1, kind: Job, metadata: {name: pi}, spec: {podReplacementPolicy: TerminatingOrFailed, podFailurePolicy: {rules: [{action: Retry}]},
		  template: {spec: {restartPolicy: OnFailure, containers: [{name: c, image: x}]}}}}`,
		`{apiVersion: batch/v1, kind: Job, metadata: {name: pi}, spec: {podFailurePolicy: {rules: [{onExitCodes: {operator: In, values: [0, 3, 2, 2]}}]}, ` + jobTmpl + `}}`,
		`{apiVersion: batch/v1, kind: Job, metadata: {name: pi}, spec: {selector: {matchLabels: {role: batch}}, ` + jobTmpl + `}}`,
		`{apiVersion: batch/v1, kind: Job, metadata: {name: pi}, spec: {template: {metadata: {labels: {job-name: other}}, spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}}`,
		`{apiVersion: batch/v1, kind: Job, metadata: {name: pi}, spec: {manualSelector: true, ` + jobTmpl + `}}`,
		`{apiVersion: batch/v1, kind: Job, metadata: {name: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx}, spec: {completionMode: Indexed, completions: 10, ` + jobTmpl + `}}`,
		`{apiVersion: batch/v1, kind: Job, metadata: {name: job-name-longer-than-sixty-three-characters-is-too-long-for-a-label}, spec: {template: {metadata: {labels: {a: b}}, spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}}`,
		`{apiVersion: batch/v1, kind: Job, metadata: {name: pi}, spec: {successPolicy: {rules: [{succeededIndexes: 0-1}]}, ` + jobTmpl + `}}`,
		`{apiVersion: batch/v1, kind: Job, metadata: {name: pi}, spec: {completionMode: Indexed, completions: 4, successPolicy: {rules: [{succeededIndexes: 3-1}, {succeededIndexes: 0-1, succeededCount: 3}]}, ` + jobTmpl + `}}`,
		`{apiVersion: batch/v1, kind: CronJob, metadata: {name: nightly}, spec: {schedule: "*/5 * * *", timeZone: Mars/Olympus, concurrencyPolicy: Sometimes, startingDeadlineSeconds: -10, jobTemplate: {spec: {` + jobTmpl + `}}}}`,
		`{apiVersion: batch/v1, kind: CronJob, metadata: {name: nightly}, spec: {schedule: "61 * * * *", jobTemplate: {spec: {` + jobTmpl + `}}}}`,
		`{apiVersion: batch/v1, kind: CronJob, metadata: {name: nightly}, spec: {schedule: "TZ=UTC 0 * * * *", timeZone: Local, jobTemplate: {spec: {` + jobTmpl + `}}}}`,
		`{apiVersion: batch/v1, kind: CronJob, metadata: {name: nightly}, spec: {schedule: "TZ=0", timeZone: "", jobTemplate: {spec: {` + jobTmpl + `}}}}`,
		`{apiVersion: batch/v1, kind: CronJob, metadata: {name: nightly}, spec: {schedule: "0 3 * * *", failedJobsHistoryLimit: -1, jobTemplate: {spec: {completionMode: Indexed, manualSelector: true,
		  selector: {matchLabels: {a: b}}, template: {spec: {restartPolicy: Always, containers: [{name: c, image: x}]}}}}}}`,
		`{apiVersion: batch/v1, kind: CronJob, metadata: {name: nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn}, spec: {schedule: "@hourly", jobTemplate: {spec: {` + jobTmpl + `}}}}`,
	}
	if err := SetGates(map[string]bool{"PodLevelResources": true, "InPlacePodLevelResourcesVerticalScaling": true}); err != nil {
		t.Fatal(err)
	}
	for i, y := range docs {
		doc, err := yaml.YAMLToJSON([]byte(y))
		if err != nil {
			t.Fatalf("doc %d: %v", i, err)
		}
		up, err := NewUpstream(nil)
		if err != nil {
			t.Fatal(err)
		}
		up.Controllers.Disable = true
		want, err := up.Create(doc, "ns1")
		if err != nil {
			t.Fatalf("doc %d: upstream: %v", i, err)
		}
		got, err := Mine(eval.New(eval.Options{DefaultNamespace: "ns1", DisableControllers: true}), doc)
		if err != nil {
			t.Fatalf("doc %d: limitcheck: %v", i, err)
		}
		if want.Allowed {
			t.Errorf("doc %d: upstream admitted it\n%s", i, doc)
			continue
		}
		if got.Denial == nil || got.Denial.Message != want.Message || got.Denial.Code != want.Code {
			mine := "admitted"
			if got.Denial != nil {
				mine = got.Denial.Message
			}
			t.Errorf("doc %d:\n  upstream:   %d %s\n  limitcheck: %s", i, want.Code, want.Message, mine)
			continue
		}
		t.Logf("doc %d: %s", i, want.Message)
	}
}
