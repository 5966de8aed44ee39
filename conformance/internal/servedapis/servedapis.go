// Package servedapis derives, from k8s.io/kubernetes itself, the table of
// built-in kinds that internal/eval/apis ships (zz_served.go): which
// group/version/kinds kube-apiserver serves with its default --runtime-config,
// under which resource and scope.
//
// Two upstream sources are combined:
//
//   - the discovery documents k8s.io/kubernetes keeps in api/discovery
//     (hack/update-openapi-spec.sh writes them from a kube-apiserver started with
//     --runtime-config=api/all=true): every group/version the release can
//     serve, with each resource's name, kind, scope and verbs;
//   - the default API resource configurations of the three servers that make up
//     kube-apiserver (controlplane.DefaultAPIResourceConfigSource for the built-in
//     groups, the apiextensions-apiserver's for apiextensions.k8s.io and the
//     kube-aggregator's for apiregistration.k8s.io), merged with an empty
//     --runtime-config as kube-apiserver does: they say which of those
//     group/versions and resources are switched on by default.
//
// The generator (cmd/genapis) writes the table and the conformance test
// (served_apis_test.go) recomputes it and compares it with the committed file.
package servedapis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	apiextensionsserver "k8s.io/apiextensions-apiserver/pkg/apiserver"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/endpoints/deprecation"
	"k8s.io/apiserver/pkg/server/resourceconfig"
	serverstorage "k8s.io/apiserver/pkg/server/storage"
	"k8s.io/client-go/restmapper"
	aggregatorserver "k8s.io/kube-aggregator/pkg/apiserver"
	aggregatorscheme "k8s.io/kube-aggregator/pkg/apiserver/scheme"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/controlplane"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
)

// Upstream is what the k8s.io/kubernetes module in the build says.
type Upstream struct {
	// Version is the k8s.io/kubernetes module version, e.g. v1.36.3.
	Version string
	// Kinds is the table, in the order zz_served.go lists it: the core group
	// first, then the groups in discovery order; within a group the versions in
	// priority order; within a version the kinds by name.
	Kinds []apis.Kind
	// Served is discovery as kube-apiserver shows it with the default
	// --runtime-config: the group/versions and resources of api/discovery that
	// are switched on (what kubectl builds its REST mapper from).
	Served []*restmapper.APIGroupResources
}

// Derive locates the k8s.io/kubernetes module of the build (go list -m, run in
// the current directory, which must be inside the conformance module) and
// derives the table from it.
func Derive() (*Upstream, error) {
	out, err := exec.Command("go", "list", "-m", "-json", "k8s.io/kubernetes").Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m k8s.io/kubernetes: %w", err)
	}
	var mod struct{ Version, Dir string }
	if err := json.Unmarshal(out, &mod); err != nil {
		return nil, err
	}
	if mod.Dir == "" {
		return nil, fmt.Errorf("k8s.io/kubernetes %s is not in the module cache (go mod download k8s.io/kubernetes)", mod.Version)
	}
	u, err := DeriveFrom(filepath.Join(mod.Dir, "api", "discovery"))
	if err != nil {
		return nil, err
	}
	u.Version = mod.Version
	if err := u.setDeprecations(); err != nil {
		return nil, err
	}
	return u, nil
}

// setDeprecations gives every kind the warning kube-apiserver adds to each
// request on its version when the version is deprecated in the release of
// u.Version (the installer's endpoint-level deprecation warning).
func (u *Upstream) setDeprecations() error {
	var major, minor int
	if _, err := fmt.Sscanf(u.Version, "v%d.%d.", &major, &minor); err != nil {
		return fmt.Errorf("k8s.io/kubernetes version %q: %w", u.Version, err)
	}
	for i := range u.Kinds {
		k := &u.Kinds[i]
		gvk := schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}
		for _, s := range []*runtime.Scheme{legacyscheme.Scheme, aggregatorscheme.Scheme, apiextensionsserver.Scheme} {
			if !s.Recognizes(gvk) {
				continue
			}
			obj, err := s.New(gvk)
			if err != nil {
				return err
			}
			obj.GetObjectKind().SetGroupVersionKind(gvk)
			if deprecation.IsDeprecated(obj, major, minor) {
				k.Deprecation = deprecation.WarningMessage(obj)
			}
			break
		}
	}
	return nil
}

// enablement answers whether kube-apiserver serves a group/version/resource with
// the default --runtime-config.
type enablement struct {
	configs []serverConfig
}

type serverConfig struct {
	name   string
	config *serverstorage.ResourceConfig
}

func defaultEnablement() (*enablement, error) {
	e := &enablement{}
	for _, s := range []struct {
		name     string
		defaults *serverstorage.ResourceConfig
		registry *runtime.Scheme
	}{
		{"apiextensions-apiserver", apiextensionsserver.DefaultAPIResourceConfigSource(), apiextensionsserver.Scheme},
		{"kube-aggregator", aggregatorserver.DefaultAPIResourceConfigSource(), aggregatorscheme.Scheme},
		{"kube-apiserver", controlplane.DefaultAPIResourceConfigSource(), legacyscheme.Scheme},
	} {
		// An empty --runtime-config: what every server does with its defaults.
		merged, err := resourceconfig.MergeAPIResourceConfigs(s.defaults, nil, s.registry)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
		e.configs = append(e.configs, serverConfig{s.name, merged})
	}
	return e, nil
}

// owner returns the server whose default configuration mentions group.
func (e *enablement) owner(group string) (*serverConfig, error) {
	var owner *serverConfig
	for i, s := range e.configs {
		for gv := range s.config.GroupVersionConfigs {
			if gv.Group != group {
				continue
			}
			if owner != nil && owner != &e.configs[i] {
				return nil, fmt.Errorf("group %q is in the default configurations of both %s and %s", group, owner.name, s.name)
			}
			owner = &e.configs[i]
		}
	}
	if owner == nil {
		return nil, fmt.Errorf("no default API resource configuration mentions group %q", group)
	}
	return owner, nil
}

// enabled reports whether gvr is served by default. The server whose default
// configuration mentions the group decides; a group/version that no server's
// default configuration mentions, or that two mention, is an error: the table
// would be guessing.
func (e *enablement) enabled(gvr schema.GroupVersionResource) (bool, error) {
	owner, err := e.owner(gvr.Group)
	if err != nil {
		return false, fmt.Errorf("%s is in api/discovery: %w", gvr.GroupVersion(), err)
	}
	if _, known := owner.config.GroupVersionConfigs[gvr.GroupVersion()]; !known {
		return false, fmt.Errorf("%s is in api/discovery but the default API resource configuration of %s does not mention it", gvr.GroupVersion(), owner.name)
	}
	return owner.config.ResourceEnabled(gvr), nil
}

// subresourceUse is one resource that serves a kind only as a subresource.
type subresourceUse struct {
	path       string // "deployments/scale"
	namespaced bool
	enabled    bool
}

// DeriveFrom derives the table and the default discovery from a discovery
// directory (api/discovery of k8s.io/kubernetes); Version is left empty.
func DeriveFrom(dir string) (*Upstream, error) {
	en, err := defaultEnablement()
	if err != nil {
		return nil, err
	}

	// The group/versions, in discovery order: api.json lists the core versions,
	// apis.json the groups with their versions by priority.
	var core metav1.APIVersions
	if err := readJSON(filepath.Join(dir, "api.json"), &core); err != nil {
		return nil, err
	}
	var groups metav1.APIGroupList
	if err := readJSON(filepath.Join(dir, "apis.json"), &groups); err != nil {
		return nil, err
	}
	type gvFile struct {
		gv   schema.GroupVersion
		file string
	}
	var gvs []gvFile
	for _, v := range core.Versions {
		gvs = append(gvs, gvFile{schema.GroupVersion{Version: v}, "api__" + v + ".json"})
	}
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			gvs = append(gvs, gvFile{schema.GroupVersion{Group: g.Name, Version: v.Version}, "apis__" + g.Name + "__" + v.Version + ".json"})
		}
	}
	// Every per-version document must be reached from api.json or apis.json.
	coreFiles, err := filepath.Glob(filepath.Join(dir, "api__*.json"))
	if err != nil {
		return nil, err
	}
	groupFiles, err := filepath.Glob(filepath.Join(dir, "apis__*__*.json"))
	if err != nil {
		return nil, err
	}
	if files := len(coreFiles) + len(groupFiles); files != len(gvs) {
		return nil, fmt.Errorf("%s: %d group/version documents but api.json and apis.json list %d group/versions", dir, files, len(gvs))
	}
	rank := map[schema.GroupVersion]int{}
	for i, g := range gvs {
		rank[g.gv] = i
	}

	var kinds []apis.Kind
	topLevel := map[schema.GroupVersionKind]bool{}
	subresources := map[schema.GroupVersionKind][]subresourceUse{}
	scaled := map[schema.GroupVersionResource]bool{} // resources with the scale subresource
	served := map[string]*restmapper.APIGroupResources{}
	var servedOrder []string
	for _, g := range gvs {
		var list metav1.APIResourceList
		if err := readJSON(filepath.Join(dir, g.file), &list); err != nil {
			return nil, err
		}
		if list.GroupVersion != g.gv.String() {
			return nil, fmt.Errorf("%s: groupVersion %q, want %q", g.file, list.GroupVersion, g.gv)
		}
		for _, r := range list.APIResources {
			parent, _, isSub := strings.Cut(r.Name, "/")
			enabled, err := en.enabled(g.gv.WithResource(parent))
			if err != nil {
				return nil, err
			}
			kindGV := g.gv
			if r.Group != "" || r.Version != "" {
				kindGV = schema.GroupVersion{Group: r.Group, Version: r.Version}
			}
			gvk := kindGV.WithKind(r.Kind)
			if enabled {
				sg := served[g.gv.Group]
				if sg == nil {
					sg = &restmapper.APIGroupResources{Group: metav1.APIGroup{Name: g.gv.Group}, VersionedResources: map[string][]metav1.APIResource{}}
					served[g.gv.Group] = sg
					servedOrder = append(servedOrder, g.gv.Group)
				}
				if _, ok := sg.VersionedResources[g.gv.Version]; !ok {
					// Versions arrive by priority: the first served one is preferred.
					v := metav1.GroupVersionForDiscovery{GroupVersion: g.gv.String(), Version: g.gv.Version}
					sg.Group.Versions = append(sg.Group.Versions, v)
					if len(sg.Group.Versions) == 1 {
						sg.Group.PreferredVersion = v
					}
				}
				sg.VersionedResources[g.gv.Version] = append(sg.VersionedResources[g.gv.Version], r)
			}
			if isSub && strings.HasSuffix(r.Name, "/scale") {
				scaled[g.gv.WithResource(parent)] = true
			}
			if isSub {
				subresources[gvk] = append(subresources[gvk], subresourceUse{r.Name, r.Namespaced, enabled})
				continue
			}
			if kindGV != g.gv {
				return nil, fmt.Errorf("%s: resource %s has kind %s of another group/version", g.file, r.Name, gvk)
			}
			if topLevel[gvk] {
				return nil, fmt.Errorf("%s: kind %s is served by two resources", g.file, gvk)
			}
			topLevel[gvk] = true
			kinds = append(kinds, apis.Kind{
				Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind,
				Resource:   r.Name,
				Namespaced: r.Namespaced,
				CreateOnly: slices.Equal(r.Verbs, metav1.Verbs{"create"}),
				Disabled:   !enabled,
			})
		}
	}
	for i := range kinds {
		k := &kinds[i]
		k.Scale = scaled[schema.GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Resource}]
	}
	// Kinds that exist only as subresources (Scale, Eviction, TokenRequest, the
	// connect options): one row each, named after the alphabetically first
	// subresource serving it, preferring one that is served by default.
	for gvk, uses := range subresources {
		if topLevel[gvk] {
			continue
		}
		if _, ok := rank[gvk.GroupVersion()]; !ok {
			return nil, fmt.Errorf("subresource kind %s belongs to no group/version in discovery", gvk)
		}
		slices.SortFunc(uses, func(a, b subresourceUse) int {
			if a.enabled != b.enabled {
				if a.enabled {
					return -1
				}
				return 1
			}
			return strings.Compare(a.path, b.path)
		})
		for _, u := range uses[1:] {
			if u.namespaced != uses[0].namespaced {
				return nil, fmt.Errorf("subresource kind %s is served by both namespaced and cluster-scoped resources (%s, %s)", gvk, uses[0].path, u.path)
			}
		}
		kinds = append(kinds, apis.Kind{
			Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind,
			Resource:    uses[0].path,
			Namespaced:  uses[0].namespaced,
			Subresource: true,
			Disabled:    !uses[0].enabled,
		})
	}
	slices.SortFunc(kinds, func(a, b apis.Kind) int {
		ra := rank[schema.GroupVersion{Group: a.Group, Version: a.Version}]
		rb := rank[schema.GroupVersion{Group: b.Group, Version: b.Version}]
		if ra != rb {
			return ra - rb
		}
		return strings.Compare(a.Kind, b.Kind)
	})
	u := &Upstream{Kinds: kinds}
	for _, g := range servedOrder {
		u.Served = append(u.Served, served[g])
	}
	return u, nil
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// Render returns the Go source of zz_served.go for u, gofmt'ed.
func Render(u *Upstream) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by conformance/cmd/genapis from k8s.io/kubernetes %s; DO NOT EDIT.\n\n", u.Version)
	b.WriteString("package apis\n\n")
	b.WriteString("// KubernetesVersion is the release the built-in table was generated from.\n")
	fmt.Fprintf(&b, "const KubernetesVersion = %q\n\n", u.Version)
	b.WriteString("// builtIn lists every kind kube-apiserver " + u.Version + " can serve: the kinds of\n")
	b.WriteString("// api/discovery (all API versions switched on), Disabled where the default\n")
	b.WriteString("// --runtime-config leaves them off. Order: core group, then groups in discovery\n")
	b.WriteString("// order, versions by priority, kinds by name.\n")
	b.WriteString("var builtIn = []Kind{\n")
	for _, k := range u.Kinds {
		fmt.Fprintf(&b, "\t{Group: %s, Version: %s, Kind: %s, Resource: %s", strconv.Quote(k.Group), strconv.Quote(k.Version), strconv.Quote(k.Kind), strconv.Quote(k.Resource))
		for _, f := range []struct {
			name string
			set  bool
		}{{"Namespaced", k.Namespaced}, {"CreateOnly", k.CreateOnly}, {"Subresource", k.Subresource}, {"Disabled", k.Disabled}, {"Scale", k.Scale}} {
			if f.set {
				fmt.Fprintf(&b, ", %s: true", f.name)
			}
		}
		if k.Deprecation != "" {
			fmt.Fprintf(&b, ", Deprecation: %s", strconv.Quote(k.Deprecation))
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}
