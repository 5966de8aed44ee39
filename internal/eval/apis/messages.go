package apis

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/limitcheck/limitcheck/internal/kubetext"
)

// NoMatchMessage is kubectl's error when its REST mapper (built from the
// apiserver's discovery) has no mapping for a kind in that version, the text of
// apimachinery's NoKindMatchError (see also Catalog.NotServedMessage):
//
//	no matches for kind "Deployment" in version "apps/v1beta1"
func NoMatchMessage(apiVersion, kind string) string {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return fmt.Sprintf("no matches for kind %q in version %q", kind, apiVersion)
	}
	e := &meta.NoKindMatchError{GroupKind: schema.GroupKind{Group: gv.Group, Kind: kind}, SearchedVersions: []string{gv.Version}}
	return e.Error()
}

// Names of the schemes kube-apiserver decodes request bodies with, as its
// "no kind is registered" errors show them in release builds (built with
// -trimpath): the trimmed file:line of each server's runtime.NewScheme call.
// The conformance tests check them against the k8s.io/kubernetes source.
const legacySchemeName = "pkg/api/legacyscheme/scheme.go:30"

var schemeNames = map[string]string{
	"apiextensions.k8s.io":   "pkg/apiserver/apiserver.go:55",     // apiextensions-apiserver
	"apiregistration.k8s.io": "pkg/apiserver/scheme/scheme.go:28", // kube-aggregator
}

// NotServedMessage is the error `kubectl create -f` reports for a NotServed
// apiVersion/kind (kubectl puts `error when creating "FILE": ` before it).
// Usually kubectl's REST mapper finds nothing and the text is NoMatchMessage's.
// The exception is the all-lower-case spelling of a served kind ("pod",
// "deployment"): kubectl's mapper accepts lower-case kinds too, the request
// reaches the apiserver, and the apiserver refuses it. For a built-in kind it
// cannot decode the body (400 BadRequest):
//
//	pod in version "v1" cannot be handled as a Pod: no kind "pod" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"
//
// For a custom resource of an input CRD, validation refuses the object (422;
// the apiserver puts `Widget.example.com "NAME" is invalid: ` before it):
//
//	kind: Invalid value: "widget": must be Widget
func (c *Catalog) NotServedMessage(apiVersion, kind string) string {
	c = c.orEmpty()
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil || kind == "" || kind != strings.ToLower(kind) {
		return NoMatchMessage(apiVersion, kind)
	}
	for _, k := range builtinOrdered {
		if k.Group == gv.Group && k.Version == gv.Version && !k.Disabled && !k.Subresource && k.Kind != kind && strings.ToLower(k.Kind) == kind {
			scheme := legacySchemeName
			if s, ok := schemeNames[gv.Group]; ok {
				scheme = s
			}
			notRegistered := runtime.NewNotRegisteredErrForKind(scheme, gv.WithKind(kind))
			return kubetext.CannotHandle(kind, gv.Version, k.Kind, notRegistered.Error())
		}
	}
	for gk, r := range c.crds {
		if gk.Group == gv.Group && gk.Kind != kind && strings.ToLower(gk.Kind) == kind && r.versions[gv.Version] {
			return fmt.Sprintf("kind: Invalid value: %q: must be %s", kind, gk.Kind)
		}
	}
	return NoMatchMessage(apiVersion, kind)
}

// release is "1.36" for KubernetesVersion "v1.36.3".
func release() string {
	v := strings.TrimPrefix(KubernetesVersion, "v")
	if i := strings.LastIndexByte(v, '.'); i > 0 {
		v = v[:i]
	}
	return v
}

// Suggest explains a NotServed apiVersion/kind by what is served instead, or
// returns "" when it knows nothing better (the kind exists nowhere). In order:
//
//	kube-apiserver 1.36 serves Deployment as apps/v1
//	kube-apiserver 1.36 serves HorizontalPodAutoscaler as autoscaling/v2 or autoscaling/v1
//	kube-apiserver 1.36 serves Scale only as a subresource (deployments/scale)
//	kube-apiserver 1.36 has ClusterTrustBundle in certificates.k8s.io/v1beta1 and certificates.k8s.io/v1alpha1 but serves none of them by default
//	kube-apiserver 1.36 has StorageVersionMigration in storagemigration.k8s.io/v1beta1 but does not serve it by default
//	kube-apiserver refuses the input's CustomResourceDefinition widgets.example.com, so Widget is not served
//	CustomResourceDefinition widgets.example.com serves Widget as example.com/v1
//	kube-apiserver 1.36 serves Pod as v1 (kinds are case-sensitive)
//	kube-apiserver 1.36 serves Ingress as networking.k8s.io/v1
//
// The same group is searched first, with the exact kind, then ignoring case;
// then every built-in group (a kind that moved, as extensions' Ingress did, or a
// misspelt group such as app/v1).
func (c *Catalog) Suggest(apiVersion, kind string) string {
	c = c.orEmpty()
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil || kind == "" {
		return ""
	}
	if name := c.RefusedCRD(apiVersion, kind); name != "" {
		return fmt.Sprintf("kube-apiserver refuses the input's CustomResourceDefinition %s, so %s is not served", name, kind)
	}
	// Same group, exact kind.
	if s := c.suggestGroupKind(schema.GroupKind{Group: gv.Group, Kind: kind}, ""); s != "" {
		return s
	}
	// Same group, another case.
	for _, gk := range c.groupKinds(gv.Group) {
		if gk.Kind != kind && strings.EqualFold(gk.Kind, kind) {
			if s := c.suggestGroupKind(gk, " (kinds are case-sensitive)"); s != "" {
				return s
			}
		}
	}
	// Any built-in group: exact kind, then another case.
	for _, exact := range []bool{true, false} {
		var served []Kind
		for _, k := range builtinOrdered {
			if k.Disabled || k.Subresource || k.Group == gv.Group {
				continue
			}
			if exact && k.Kind == kind || !exact && k.Kind != kind && strings.EqualFold(k.Kind, kind) {
				served = append(served, k)
			}
		}
		if len(served) > 0 {
			note := ""
			if !exact {
				note = " (kinds are case-sensitive)"
			}
			return fmt.Sprintf("kube-apiserver %s serves %s as %s%s", release(), served[0].Kind, versionList(served), note)
		}
	}
	// A misspelt kind: the one served kind of the group a letter or two
	// away (not across groups: a custom resource's kind would find a
	// built-in one of another meaning).
	var near []Kind
	for _, k := range builtinOrdered {
		if k.Disabled || k.Subresource || k.Group != gv.Group || !misspelt(kind, k.Kind) {
			continue
		}
		if len(near) > 0 && near[0].Kind != k.Kind {
			return "" // two candidates: no guess
		}
		near = append(near, k)
	}
	if len(near) > 0 {
		return fmt.Sprintf("kube-apiserver %s serves %s as %s (misspelt kind?)", release(), near[0].Kind, versionList(near))
	}
	return ""
}

// misspelt: typed is kind with one or two letters added, left out, changed
// or swapped, ignoring case (Deployement, StatefullSet, Secrets, Ingres);
// kinds shorter than five letters are too short to guess but for a plural
// (Pods).
func misspelt(typed, kind string) bool {
	a, b := []rune(strings.ToLower(typed)), []rune(strings.ToLower(kind))
	if string(a) == string(b)+"s" {
		return true // Pods, Jobs
	}
	if len(b) < 5 || string(a) == string(b) {
		return false
	}
	// optimal string alignment distance
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)] <= 2
}

// groupKinds returns the kinds of a group, built in and from CRDs, sorted.
func (c *Catalog) groupKinds(group string) []schema.GroupKind {
	seen := map[schema.GroupKind]bool{}
	for _, k := range builtinOrdered {
		if k.Group == group {
			seen[schema.GroupKind{Group: k.Group, Kind: k.Kind}] = true
		}
	}
	for gk := range c.crds {
		if gk.Group == group {
			seen[gk] = true
		}
	}
	out := make([]schema.GroupKind, 0, len(seen))
	for gk := range seen {
		out = append(out, gk)
	}
	slices.SortFunc(out, func(a, b schema.GroupKind) int { return strings.Compare(a.Kind, b.Kind) })
	return out
}

// suggestGroupKind describes how gk is served, or "" when it is unknown.
func (c *Catalog) suggestGroupKind(gk schema.GroupKind, note string) string {
	if r := c.crds[gk]; r != nil {
		if len(r.served) == 0 {
			return fmt.Sprintf("CustomResourceDefinition %s serves %s in no version%s", r.name, gk.Kind, note)
		}
		ks := make([]Kind, len(r.served))
		for i, v := range r.served {
			ks[i] = Kind{Group: gk.Group, Version: v}
		}
		return fmt.Sprintf("CustomResourceDefinition %s serves %s as %s%s", r.name, gk.Kind, versionList(ks), note)
	}
	rows := builtinByGK[gk]
	if len(rows) == 0 {
		return ""
	}
	var served, sub []Kind
	for _, k := range rows {
		switch {
		case k.Disabled:
		case k.Subresource:
			sub = append(sub, k)
		default:
			served = append(served, k)
		}
	}
	switch {
	case len(served) > 0:
		return fmt.Sprintf("kube-apiserver %s serves %s as %s%s", release(), gk.Kind, versionList(served), note)
	case len(sub) > 0:
		return fmt.Sprintf("kube-apiserver %s serves %s only as a subresource (%s)%s", release(), gk.Kind, sub[0].Resource, note)
	}
	if len(rows) == 1 {
		return fmt.Sprintf("kube-apiserver %s has %s in %s but does not serve it by default%s", release(), gk.Kind, rows[0].APIVersion(), note)
	}
	all := make([]string, len(rows))
	for i, k := range rows {
		all[i] = k.APIVersion()
	}
	return fmt.Sprintf("kube-apiserver %s has %s in %s but serves none of them by default%s", release(), gk.Kind, strings.Join(all, " and "), note)
}

// ServedVersion is the apiVersion kube-apiserver serves a built-in kind of
// group as (the first, if more than one), or "" when it serves it in none.
func ServedVersion(group, kind string) string {
	for _, k := range builtinByGK[schema.GroupKind{Group: group, Kind: kind}] {
		if !k.Disabled && !k.Subresource {
			return k.APIVersion()
		}
	}
	return ""
}

// versionList joins apiVersions: "apps/v1", "autoscaling/v2 or autoscaling/v1",
// "a, b or c".
func versionList(ks []Kind) string {
	var out []string
	seen := map[string]bool{}
	for _, k := range ks {
		if v := k.APIVersion(); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	if len(out) == 1 {
		return out[0]
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}
