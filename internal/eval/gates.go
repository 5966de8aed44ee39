package eval

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Gate names read by the admission paths limitcheck simulates (docs/behaviour.md VER-01).
const (
	GatePodLevelResources             = "PodLevelResources"
	GateSidecarContainers             = "SidecarContainers"
	GateInPlacePodVerticalScaling     = "InPlacePodVerticalScaling"
	GateVolumeAttributesClass         = "VolumeAttributesClass"
	GateDynamicResourceAllocation     = "DynamicResourceAllocation"
	GateDRAExtendedResource           = "DRAExtendedResource"
	GateRecoverVolumeExpansionFailure = "RecoverVolumeExpansionFailure"
	// Gates limitcheck does not read but must know to check dependencies as
	// kube-apiserver does (turning PodLevelResources off needs these off too).
	GateInPlacePodLevelResourcesVerticalScaling = "InPlacePodLevelResourcesVerticalScaling"
	GatePodLevelResourceManagers                = "PodLevelResourceManagers"
	GateNodeDeclaredFeatures                    = "NodeDeclaredFeatures"
)

type gateSpec struct {
	def    bool
	locked bool
	deps   []string // gates that must be on while this one is on
}

// gates136 are the Kubernetes 1.36 defaults of the gates above.
var gates136 = map[string]gateSpec{
	GatePodLevelResources:             {def: true},
	GateSidecarContainers:             {def: true, locked: true},
	GateInPlacePodVerticalScaling:     {def: true, locked: true},
	GateVolumeAttributesClass:         {def: true, locked: true},
	GateDynamicResourceAllocation:     {def: true, locked: true},
	GateDRAExtendedResource:           {def: true},
	GateRecoverVolumeExpansionFailure: {def: true, locked: true},
	GateInPlacePodLevelResourcesVerticalScaling: {def: true, deps: []string{
		GateInPlacePodVerticalScaling, GatePodLevelResources, GateNodeDeclaredFeatures}},
	GatePodLevelResourceManagers: {def: false, deps: []string{GatePodLevelResources}},
	GateNodeDeclaredFeatures:     {def: true},
}

// FeatureGates is the set of gate values the engine evaluates with.
type FeatureGates struct {
	values map[string]bool
}

// DefaultFeatureGates returns the Kubernetes 1.36 defaults.
func DefaultFeatureGates() FeatureGates {
	g := FeatureGates{values: make(map[string]bool, len(gates136))}
	for name, spec := range gates136 {
		g.values[name] = spec.def
	}
	return g
}

// Enabled reports whether the named gate is on. Unknown names are off.
func (g FeatureGates) Enabled(name string) bool {
	if g.values == nil {
		return gates136[name].def
	}
	return g.values[name]
}

// KnownGates lists the gate names limitcheck models, sorted.
func KnownGates() []string {
	names := make([]string, 0, len(gates136))
	for n := range gates136 {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ParseFeatureGates parses kube-apiserver's --feature-gates syntax (Name=bool,...)
// on top of the 1.36 defaults. Locked gates can only be set to their locked value,
// as in kube-apiserver.
func ParseFeatureGates(spec string) (FeatureGates, error) {
	g := DefaultFeatureGates()
	for _, s := range strings.Split(spec, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		k, v, ok := strings.Cut(s, "=")
		k = strings.TrimSpace(k)
		if !ok {
			return g, fmt.Errorf("missing bool value for %s", k)
		}
		gs, known := gates136[k]
		if !known {
			return g, fmt.Errorf("unrecognized feature gate: %s (limitcheck models %s)", k, strings.Join(KnownGates(), ", "))
		}
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return g, fmt.Errorf("invalid value of %s=%s, err: %v", k, v, err)
		}
		if gs.locked && b != gs.def {
			return g, fmt.Errorf("cannot set feature gate %v to %v, feature is locked to %v", k, b, gs.def)
		}
		g.values[k] = b
	}
	return g, g.checkDependencies()
}

// checkDependencies reports enabled gates whose dependencies are disabled, in
// kube-apiserver's words.
func (g FeatureGates) checkDependencies() error {
	var errs []string
	for _, name := range KnownGates() {
		if !g.Enabled(name) {
			continue
		}
		var off []string
		for _, dep := range gates136[name].deps {
			if !g.Enabled(dep) {
				off = append(off, dep)
			}
		}
		if len(off) > 0 {
			errs = append(errs, fmt.Sprintf("%s is enabled, but depends on features that are disabled: [%s]", name, strings.Join(off, " ")))
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// Set overrides one gate (for tests and the differential harness); locked gates included.
func (g *FeatureGates) Set(name string, on bool) {
	if g.values == nil {
		*g = DefaultFeatureGates()
	}
	g.values[name] = on
}
