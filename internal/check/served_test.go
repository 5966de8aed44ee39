package check

import (
	"testing"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/load"
)

// API-01: a kind kube-apiserver does not serve is kubectl's mapping error,
// in kubectl's words (compared with kubectl 1.36.3), then limitcheck's
// hints.
func TestNotServedMessage(t *testing.T) {
	doc := func(file string, line, item int, apiVersion, kind, ns, name, source string) load.Document {
		return load.Document{Pos: load.Position{File: file, Line: line, Item: item, Source: source}, APIVersion: apiVersion, Kind: kind, Namespace: ns, Name: name}
	}
	for _, tc := range []struct {
		d    load.Document
		want string
	}{
		{doc("a.yaml", 6, -1, "apps/v1beta1", "Deployment", "", "old", ""),
			`resource mapping not found for name: "old" namespace: "" from "a.yaml": no matches for kind "Deployment" in version "apps/v1beta1" (ensure CRDs are installed first; kube-apiserver 1.36 serves Deployment as apps/v1)`},
		{doc(load.StdinName, 1, -1, "v1", "Foo", "team-a", "foo", ""),
			`resource mapping not found for name: "foo" namespace: "team-a" from "STDIN": no matches for kind "Foo" in version "v1" (ensure CRDs are installed first)`},
		{doc("chart.yaml", 2, -1, "policy/v1beta1", "PodDisruptionBudget", "", "pdb", "web/templates/pdb.yaml"),
			`resource mapping not found for name: "pdb" namespace: "" from "chart.yaml": no matches for kind "PodDisruptionBudget" in version "policy/v1beta1" (ensure CRDs are installed first; kube-apiserver 1.36 serves PodDisruptionBudget as policy/v1; helm template renders the old version when it cannot see the cluster's APIs: give it --api-versions policy/v1/PodDisruptionBudget)`},
		// A list's item: kubectl maps it without its file.
		{doc("list.yaml", 4, 0, "batch/v1beta1", "CronJob", "", "c", ""),
			`unable to recognize no matches for kind "CronJob" in version "batch/v1beta1"; kube-apiserver 1.36 serves CronJob as batch/v1`},
		{doc("list.yaml", 7, 1, "v1", "Foo", "", "f", ""),
			`unable to recognize no matches for kind "Foo" in version "v1"`},
		// An all-lower-case kind passes the mapper: kube-apiserver's 400.
		{doc("a.yaml", 1, -1, "v1", "pod", "", "p", ""),
			`pod in version "v1" cannot be handled as a Pod: no kind "pod" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"; kube-apiserver 1.36 serves Pod as v1 (kinds are case-sensitive)`},
	} {
		if got := notServedMessage(apis.New(), tc.d); got != tc.want {
			t.Errorf("%s %s:\ngot  %s\nwant %s", tc.d.APIVersion, tc.d.Kind, got, tc.want)
		}
	}
}
