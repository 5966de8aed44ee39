package check_test

import (
	"testing"

	"github.com/limitcheck/limitcheck/internal/check"
)

func TestUnread(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"a Pod", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priorityClassName: high\n  runtimeClassName: gvisor\n", true},
		{"kind first", "kind: Service\napiVersion: v1\n", true},
		{"a shell script", "apiVersion: v1\nkind: ConfigMap\ndata:\n  run.sh: |\n    #!/bin/sh\n    exit 0\n", true},
		{"a LimitRange", "apiVersion: v1\nkind: LimitRange\n", false},
		{"a ResourceQuota", "apiVersion: v1\nkind: ResourceQuota\n", false},
		{"a quota configuration", "apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\n", false},
		{"a legacy configuration", "apiVersion: resourcequota.admission.k8s.io/v1beta1\nkind: Configuration\n", false},
		{"classes", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n", false},
		{"an HPA", "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n", false},
		{"a CRD", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n", false},
		{"an adopter", "apiVersion: apps/v1\nkind: Deployment\n", false},
		{"a List", "apiVersion: v1\nkind: PodList\nitems: []\n", false},
		{"the kind written with an escape", "apiVersion: v1\nkind: \"Limit\\x52ange\"\n", false},
		{"a tag", "apiVersion: v1\nkind: !!binary TGltaXRSYW5nZQ==\n", false},
		{"a verbatim tag", "apiVersion: v1\nkind: !<tag:yaml.org,2002:binary> TGltaXRSYW5nZQ==\n", false},
		{"a tag directive", "%TAG !e! tag:yaml.org,2002:\n---\nkind: !e!binary TGltaXRSYW5nZQ==\n", false},
		{"no top-level kind", "apiVersion: v1\n  kind: Pod\n", false},
		{"a flow mapping", "{apiVersion: v1, kind: Pod}\n", false},
		{"null", "~\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := check.Unread([]byte(tc.text)); got != tc.want {
				t.Fatalf("Unread(%q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}
