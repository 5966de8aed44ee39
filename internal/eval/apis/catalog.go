package apis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilversion "k8s.io/apimachinery/pkg/version"
	"sigs.k8s.io/yaml"

	crdschema "github.com/limitcheck/limitcheck/internal/eval/crd"
)

// Status is Lookup's verdict on an apiVersion/kind.
type Status int

const (
	// Served: a built-in kind served with the default --runtime-config, or a
	// custom resource whose CRD is in the input and serves that version.
	Served Status = iota + 1
	// NotServed: `kubectl create -f` fails, in most cases with kubectl's "no
	// matches for kind" (see Catalog.NotServedMessage). The group is built in
	// (the core group included), comes from a CRD of the input, or cannot be a
	// CRD's group (it has no dot), and the version/kind is not served in it.
	NotServed
	// Custom: a group that is neither built in nor from a CRD of the input; the
	// kind is assumed to be a custom resource whose CRD is already installed,
	// with the plural and scope customKind gives it.
	Custom
	// ToolConfig: a configuration file of a client or component (kustomize,
	// kubelet, kubeadm, kind, a kubeconfig, …), not an API object at all.
	ToolConfig
)

func (s Status) String() string {
	switch s {
	case Served:
		return "Served"
	case NotServed:
		return "NotServed"
	case Custom:
		return "Custom"
	case ToolConfig:
		return "ToolConfig"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// removedGroups are groups earlier releases of kube-apiserver served and 1.36
// serves in no version; discovery no longer lists them. They cannot be the group
// of a custom resource either (extensions has no dot; the others are reserved
// *.k8s.io groups), so their kinds are NotServed rather than Custom.
var removedGroups = map[string]bool{
	"extensions":               true, // last versions removed in 1.22
	"settings.k8s.io":          true, // PodPreset, removed in 1.20
	"auditregistration.k8s.io": true, // AuditSink, removed in 1.19
}

// The built-in table, indexed once; never modified.
var (
	builtinOrdered = BuiltIns()
	builtinByGVK   = make(map[schema.GroupVersionKind]Kind, len(builtinOrdered))
	builtinByGK    = make(map[schema.GroupKind][]Kind, len(builtinOrdered)) // every version, table order
	builtinGroups  = make(map[string]bool, 64)
)

func init() {
	builtinGroups[""] = true
	for _, k := range builtinOrdered {
		gvk := schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}
		builtinByGVK[gvk] = k
		builtinByGK[gvk.GroupKind()] = append(builtinByGK[gvk.GroupKind()], k)
		builtinGroups[k.Group] = true
	}
	for g := range removedGroups {
		builtinGroups[g] = true
	}
}

// Catalog answers which kinds are served: the built-in table plus the custom
// resources of the CustomResourceDefinitions added to it. Make one with New; a
// nil *Catalog answers queries for the built-in kinds only. A Catalog is not
// safe for concurrent AddCRD and queries.
type Catalog struct {
	crds      map[schema.GroupKind]*crd
	crdGroups map[string]bool
	// refused are the group/kinds of the input's CRDs kube-apiserver refuses
	// (VAL-93..VAL-99): a refused CRD is not created, so its kind does not
	// exist.
	refused map[schema.GroupKind]string
	// deprecatedVersions says whether a CRD added marks a served version
	// deprecated.
	deprecatedVersions bool
}

type crd struct {
	name       string // metadata.name, plural.group
	resource   string
	namespaced bool
	served     []string // versions with served: true, in spec order
	versions   map[string]bool
	// schemas are the openAPIV3Schemas of the served versions that have
	// one, by version (VAL-76..VAL-78), read when a custom resource first
	// needs one.
	schemas map[string]*lazySchema
	// status says which served versions have the status subresource: a
	// create then drops the object's status before validating it.
	status map[string]bool
	// scale is the scale subresource of the served versions that have one.
	scale map[string]*Scale
	// deprecation is the warning of each served version marked deprecated.
	deprecation map[string]string
}

// lazySchema is a CRD version's openAPIV3Schema, read from its JSON the
// first time it is asked for: a CRD's schema can be megabytes, and an
// install's CRDs mostly come without any custom resource of their kinds.
type lazySchema struct {
	once sync.Once
	raw  []byte
	s    *crdschema.Schema
	err  error
}

func (l *lazySchema) get() (*crdschema.Schema, error) {
	l.once.Do(func() {
		l.s, l.err = crdschema.Parse(l.raw)
		l.raw = nil
	})
	return l.s, l.err
}

// Scale is a CRD version's scale subresource: where a custom resource
// holds its replicas and label selector (VAL-78 checks them on create).
type Scale struct {
	SpecReplicasPath   string  `json:"specReplicasPath"`
	StatusReplicasPath string  `json:"statusReplicasPath"`
	LabelSelectorPath  *string `json:"labelSelectorPath"`
}

// New returns a catalog of the built-in kinds only.
func New() *Catalog {
	return &Catalog{crds: map[schema.GroupKind]*crd{}, crdGroups: map[string]bool{}, refused: map[schema.GroupKind]string{}}
}

// AddRefusedCRD records that the input's CRD name, of group/kind, is refused
// by kube-apiserver: its custom resources are then of a kind that does not
// exist (NotServed), unless a CRD that is created serves that kind.
func (c *Catalog) AddRefusedCRD(name, group, kind string) {
	if group == "" || kind == "" {
		return
	}
	if c.refused == nil {
		c.refused = map[schema.GroupKind]string{}
	}
	c.refused[schema.GroupKind{Group: group, Kind: kind}] = name
}

// CRDIdentity reads the name, group and kind of a CRD from data (JSON) as
// far as it can: also from a body kube-apiserver cannot decode, whose
// kind is then refused (AddRefusedCRD); "" for what it cannot read.
func CRDIdentity(data []byte) (name, group, kind string) {
	var d struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
		Spec struct {
			Group string `json:"group"`
			Names struct {
				Kind string `json:"kind"`
			} `json:"names"`
		} `json:"spec"`
	}
	_ = json.Unmarshal(data, &d) // a type error elsewhere leaves these read
	return d.Metadata.Name, d.Spec.Group, d.Spec.Names.Kind
}

// RefusedCRD names the input's refused CRD of the kind of apiVersion/kind,
// if there is one and no created CRD serves that kind.
func (c *Catalog) RefusedCRD(apiVersion, kind string) string {
	if c == nil {
		return ""
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return ""
	}
	gk := gv.WithKind(kind).GroupKind()
	if c.crds[gk] != nil {
		return ""
	}
	return c.refused[gk]
}

// crdDocument is the part of an apiextensions.k8s.io/v1 CustomResourceDefinition
// the catalog reads.
type crdDocument struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Spec struct {
		Group string `json:"group"`
		Names struct {
			Plural string `json:"plural"`
			Kind   string `json:"kind"`
		} `json:"names"`
		Scope    string `json:"scope"`
		Versions []struct {
			Name               string  `json:"name"`
			Served             bool    `json:"served"`
			Deprecated         bool    `json:"deprecated"`
			DeprecationWarning *string `json:"deprecationWarning"`
			Schema             struct {
				OpenAPIV3Schema json.RawMessage `json:"openAPIV3Schema"`
			} `json:"schema"`
			Subresources struct {
				Status json.RawMessage `json:"status"`
				Scale  *Scale          `json:"scale"`
			} `json:"subresources"`
		} `json:"versions"`
	} `json:"spec"`
}

// AddCRD reads an apiextensions.k8s.io/v1 CustomResourceDefinition (JSON, or
// YAML) and makes its custom resources known: their scope, plural and served
// versions, and the schema each served version validates its custom resources
// with. A CRD for a group/kind already added replaces it. The CRD must be
// one kube-apiserver creates (validation.CustomResourceDefinition finds
// nothing wrong, VAL-93..VAL-99); the checks below only guard against a
// caller that skipped that and are an error that changes nothing. A CRD of
// a group kube-apiserver serves itself is created but serves nothing: it
// changes nothing either.
func (c *Catalog) AddCRD(data []byte) error {
	var d crdDocument
	unmarshal := func(b []byte, v any) error { return yaml.Unmarshal(b, v) }
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		unmarshal = json.Unmarshal // the loader's JSON: no YAML conversion needed
	}
	if err := unmarshal(data, &d); err != nil {
		return fmt.Errorf("reading CustomResourceDefinition: %w", err)
	}
	if d.APIVersion != "apiextensions.k8s.io/v1" || d.Kind != "CustomResourceDefinition" {
		return fmt.Errorf("not an apiextensions.k8s.io/v1 CustomResourceDefinition: apiVersion %q, kind %q", d.APIVersion, d.Kind)
	}
	s := d.Spec
	switch {
	case s.Names.Kind == "" || s.Names.Plural == "":
		return fmt.Errorf("CustomResourceDefinition %q: spec.names.kind and spec.names.plural are required", d.Metadata.Name)
	case !strings.Contains(s.Group, "."):
		return fmt.Errorf("CustomResourceDefinition %q: spec.group %q must be a domain with at least one dot", d.Metadata.Name, s.Group)
	case d.Metadata.Name != s.Names.Plural+"."+s.Group:
		return fmt.Errorf("CustomResourceDefinition %q: metadata.name must be %q (spec.names.plural + \".\" + spec.group)", d.Metadata.Name, s.Names.Plural+"."+s.Group)
	case s.Scope != "Namespaced" && s.Scope != "Cluster":
		return fmt.Errorf("CustomResourceDefinition %q: spec.scope %q must be Namespaced or Cluster", d.Metadata.Name, s.Scope)
	case len(s.Versions) == 0:
		return fmt.Errorf("CustomResourceDefinition %q: spec.versions is empty", d.Metadata.Name)
	}
	if builtinGroups[s.Group] {
		return nil
	}
	r := &crd{name: d.Metadata.Name, resource: s.Names.Plural, namespaced: s.Scope == "Namespaced", versions: map[string]bool{},
		schemas: map[string]*lazySchema{}, status: map[string]bool{}, scale: map[string]*Scale{}, deprecation: map[string]string{}}
	for _, v := range s.Versions {
		r.versions[v.Name] = v.Served
		if !v.Served {
			continue
		}
		r.served = append(r.served, v.Name)
		if v.Deprecated {
			r.deprecation[v.Name] = crdDeprecation(&d, v.Name, v.DeprecationWarning)
			c.deprecatedVersions = true
		}
		if st := v.Subresources.Status; len(st) > 0 && string(st) != "null" {
			r.status[v.Name] = true
		}
		if sc := v.Subresources.Scale; sc != nil {
			r.scale[v.Name] = sc
		}
		if raw := v.Schema.OpenAPIV3Schema; len(raw) > 0 && string(raw) != "null" {
			r.schemas[v.Name] = &lazySchema{raw: bytes.Clone(raw)}
		}
	}
	c.crds[schema.GroupKind{Group: s.Group, Kind: s.Names.Kind}] = r
	c.crdGroups[s.Group] = true
	return nil
}

// crdDeprecation is the warning of a CRD's deprecated version: its own
// deprecationWarning, else that the version is deprecated, naming the
// highest-priority served version that is not deprecated and is of higher
// priority than it, if any.
func crdDeprecation(d *crdDocument, version string, own *string) string {
	if own != nil {
		return *own
	}
	s := d.Spec
	msg := fmt.Sprintf("%s/%s %s is deprecated", s.Group, version, s.Names.Kind)
	use := ""
	for _, v := range s.Versions {
		if v.Served && !v.Deprecated && utilversion.CompareKubeAwareVersionStrings(version, v.Name) < 0 &&
			(use == "" || utilversion.CompareKubeAwareVersionStrings(v.Name, use) > 0) {
			use = v.Name
		}
	}
	if use == "" {
		return msg
	}
	return fmt.Sprintf("%s; use %s/%s %s", msg, s.Group, use, s.Names.Kind)
}

// Deprecation is the warning kube-apiserver adds to every request on
// apiVersion/kind when it serves it in a deprecated version (a built-in
// version deprecated by KubernetesVersion, a CRD version marked deprecated),
// else empty (VAL-104).
func (c *Catalog) Deprecation(apiVersion, kind string) string {
	// Most objects are of versions nothing deprecates: two map lookups.
	if w := builtinDeprecation[typeKey{apiVersion, kind}]; w != "" {
		return w
	}
	c = c.orEmpty()
	if !c.deprecatedVersions {
		return ""
	}
	k, st := c.Lookup(apiVersion, kind)
	if st != Served {
		return ""
	}
	if r := c.crds[schema.GroupKind{Group: k.Group, Kind: kind}]; r != nil && !builtinGroups[k.Group] {
		return r.deprecation[k.Version]
	}
	return ""
}

// typeKey is an apiVersion and a kind.
type typeKey struct{ apiVersion, kind string }

// builtinDeprecation is the Deprecation of every served built-in kind that
// has one.
var builtinDeprecation = map[typeKey]string{}

func init() {
	for _, k := range builtinOrdered {
		if k.Deprecation != "" && !k.Disabled && !k.Subresource {
			builtinDeprecation[typeKey{k.APIVersion(), k.Kind}] = k.Deprecation
		}
	}
}

// Lookup says whether kube-apiserver serves apiVersion/kind, and how. Like the
// apiserver it is case-sensitive: "deployment" is not a kind of apps/v1 (kubectl
// maps the all-lower-case spelling, but the apiserver then refuses the object;
// NotServedMessage gives the text). The Kind returned always has Group, Version
// and Kind set from the arguments, and:
//
//   - Served: the served kind (resource, scope, flags).
//   - NotServed: for a built-in kind in a version left off by default or served
//     only as a subresource, that table row; otherwise the resource and scope of
//     the group/kind in a version that is served (built-in or from a CRD) when
//     there is one, else those of Custom. Useful for scope only.
//   - Custom: resource and scope as its CRD most likely has them (customKind).
//   - ToolConfig: as Custom; such files are not API objects.
//
// Lists (v1 List, *List kinds) are not looked up: kubectl sends their items.
func (c *Catalog) Lookup(apiVersion, kind string) (Kind, Status) {
	c = c.orEmpty()
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return guessed(schema.GroupVersionKind{Version: apiVersion, Kind: kind}), NotServed
	}
	gvk := gv.WithKind(kind)
	if k, ok := builtinByGVK[gvk]; ok {
		if k.Disabled || k.Subresource {
			return k, NotServed
		}
		return k, Served
	}
	if IsToolConfig(apiVersion, kind) {
		return guessed(gvk), ToolConfig
	}
	if builtinGroups[gv.Group] {
		for _, k := range builtinByGK[gvk.GroupKind()] {
			if !k.Disabled && !k.Subresource {
				k.Version = gv.Version
				return k, NotServed
			}
		}
		return guessed(gvk), NotServed
	}
	if _, refused := c.refused[gvk.GroupKind()]; refused && c.crds[gvk.GroupKind()] == nil {
		return guessed(gvk), NotServed
	}
	if c.crdGroups[gv.Group] {
		r := c.crds[gvk.GroupKind()]
		if r == nil {
			return guessed(gvk), NotServed
		}
		k := Kind{Group: gv.Group, Version: gv.Version, Kind: kind, Resource: r.resource, Namespaced: r.namespaced}
		if r.versions[gv.Version] {
			return k, Served
		}
		return k, NotServed
	}
	if !strings.Contains(gv.Group, ".") {
		// Not built in and not a possible CRD group (CRD groups need a dot).
		return guessed(gvk), NotServed
	}
	return customKind(gvk), Custom
}

// Schema returns the schema custom resources of apiVersion/kind are validated
// with: that of the served version of a CRD added to the catalog (nil for
// every other kind or version), and whether that version has the status
// subresource. err says why a schema the version has could not be read
// (the schema is then nil): never for one of a CRD kube-apiserver
// creates, whose patterns, defaults and enums it has checked. It is safe
// to call on any goroutine.
func (c *Catalog) Schema(apiVersion, kind string) (s *crdschema.Schema, statusSubresource bool, err error) {
	if c == nil {
		return nil, false, nil
	}
	gv, perr := schema.ParseGroupVersion(apiVersion)
	if perr != nil {
		return nil, false, nil
	}
	if r := c.crds[gv.WithKind(kind).GroupKind()]; r != nil && r.versions[gv.Version] {
		if l := r.schemas[gv.Version]; l != nil {
			if s, err = l.get(); err != nil {
				err = fmt.Errorf("CustomResourceDefinition %q, version %q: %w", r.name, gv.Version, err)
			}
		}
		return s, r.status[gv.Version], err
	}
	return nil, false, nil
}

// ScaleOf is the scale subresource of the CRD version serving
// apiVersion/kind, nil when it has none.
func (c *Catalog) ScaleOf(apiVersion, kind string) *Scale {
	if c == nil {
		return nil
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil
	}
	if r := c.crds[gv.WithKind(kind).GroupKind()]; r != nil && r.versions[gv.Version] {
		return r.scale[gv.Version]
	}
	return nil
}

// orEmpty lets a nil *Catalog answer for the built-in kinds.
func (c *Catalog) orEmpty() *Catalog {
	if c == nil {
		return &Catalog{}
	}
	return c
}

// guessed is a namespaced kind under kubectl's plural guess.
func guessed(gvk schema.GroupVersionKind) Kind {
	plural, _ := meta.UnsafeGuessKindToResource(gvk)
	return Kind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind, Resource: plural.Resource, Namespaced: true}
}

// MapGroupKind resolves a group and kind in any served version, as the REST
// mapper of a controller does (the HorizontalPodAutoscaler's for its
// scaleTargetRef): the kind as served or all in lower case. It returns the
// served kind (its preferred version) and Served; NotServed when
// kube-apiserver serves the group/kind in no version (a built-in group, a
// group no CRD can have, a CRD group of the catalog without the kind); Custom
// when a CRD not in the catalog may serve it. scalable says whether the
// served kind has the scale subresource.
func (c *Catalog) MapGroupKind(group, kind string) (k Kind, st Status, scalable bool) {
	c = c.orEmpty()
	matches := func(served string) bool {
		return served == kind || strings.ToLower(served) == kind
	}
	for _, b := range builtinOrdered {
		if b.Group == group && !b.Disabled && !b.Subresource && matches(b.Kind) {
			return b, Served, b.Scale
		}
	}
	if builtinGroups[group] {
		return guessed(schema.GroupVersionKind{Group: group, Kind: kind}), NotServed, false
	}
	for gk, r := range c.crds {
		if gk.Group != group || !matches(gk.Kind) || len(r.served) == 0 {
			continue
		}
		v := r.served[0]
		for _, s := range r.served {
			if utilversion.CompareKubeAwareVersionStrings(s, v) > 0 {
				v = s
			}
		}
		return Kind{Group: group, Version: v, Kind: gk.Kind, Resource: r.resource, Namespaced: r.namespaced}, Served, r.scale[v] != nil
	}
	if c.crdGroups[group] || !strings.Contains(group, ".") {
		return guessed(schema.GroupVersionKind{Group: group, Kind: kind}), NotServed, false
	}
	return customKind(schema.GroupVersionKind{Group: group, Kind: kind}), Custom, false
}

// ListNotMapped says why kubectl cannot take a document of the list kind
// apiVersion/kind (one with items) apart, or "" when it can: kubectl maps the
// list itself before it sends the items, and its discovery REST mapper knows
// List in every served group/version and <Kind>List for every served kind.
// A list of a kind a CRD outside the catalog may serve is taken as mapped.
func (c *Catalog) ListNotMapped(apiVersion, kind string) string {
	c = c.orEmpty()
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return NoMatchMessage(apiVersion, kind)
	}
	if kind == "List" {
		for _, k := range builtinOrdered {
			if k.Group == gv.Group && k.Version == gv.Version && !k.Disabled && !k.Subresource {
				return ""
			}
		}
		for gk, r := range c.crds {
			if gk.Group == gv.Group && r.versions[gv.Version] {
				return ""
			}
		}
		if !builtinGroups[gv.Group] && !c.crdGroups[gv.Group] && strings.Contains(gv.Group, ".") {
			return "" // a CRD's group, maybe installed
		}
		return NoMatchMessage(apiVersion, kind)
	}
	if item, ok := strings.CutSuffix(kind, "List"); ok && item != "" {
		switch _, st := c.Lookup(apiVersion, item); st {
		case Served, Custom:
			return ""
		}
	}
	return NoMatchMessage(apiVersion, kind)
}
