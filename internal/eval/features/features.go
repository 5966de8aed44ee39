// Package features holds the kube-apiserver 1.36 feature gates the simulated
// admission paths read: their defaults, locks and dependencies, and
// kube-apiserver's --feature-gates syntax.
package features

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Gate names read by the admission paths limitcheck simulates (docs/behaviour.md VER-01).
const (
	PodLevelResources             = "PodLevelResources"
	SidecarContainers             = "SidecarContainers"
	InPlacePodVerticalScaling     = "InPlacePodVerticalScaling"
	VolumeAttributesClass         = "VolumeAttributesClass"
	DynamicResourceAllocation     = "DynamicResourceAllocation"
	DRAExtendedResource           = "DRAExtendedResource"
	RecoverVolumeExpansionFailure = "RecoverVolumeExpansionFailure"
	// RelaxedServiceNameValidation: Service names are DNS-1123 labels (VAL-60).
	RelaxedServiceNameValidation = "RelaxedServiceNameValidation"
	// HPAScaleToZero lets a HorizontalPodAutoscaler's minReplicas be 0 (VAL-50).
	HPAScaleToZero = "HPAScaleToZero"
	// HPAConfigurableTolerance keeps an HPA's behavior tolerance on create (VAL-50).
	HPAConfigurableTolerance = "HPAConfigurableTolerance"
	// Gates limitcheck does not read but must know to check dependencies as
	// kube-apiserver does (turning PodLevelResources off needs these off too).
	InPlacePodLevelResourcesVerticalScaling = "InPlacePodLevelResourcesVerticalScaling"
	PodLevelResourceManagers                = "PodLevelResourceManagers"
	NodeDeclaredFeatures                    = "NodeDeclaredFeatures"
)

type gateSpec struct {
	def    bool
	locked bool
	deps   []string // gates that must be on while this one is on
}

// gates136 are the Kubernetes 1.36 defaults of the gates above.
var gates136 = map[string]gateSpec{
	PodLevelResources:             {def: true},
	SidecarContainers:             {def: true, locked: true},
	InPlacePodVerticalScaling:     {def: true, locked: true},
	VolumeAttributesClass:         {def: true, locked: true},
	DynamicResourceAllocation:     {def: true, locked: true},
	DRAExtendedResource:           {def: true},
	RecoverVolumeExpansionFailure: {def: true, locked: true},
	RelaxedServiceNameValidation:  {def: true},
	HPAScaleToZero:                {def: false},
	HPAConfigurableTolerance:      {def: true},
	InPlacePodLevelResourcesVerticalScaling: {def: true, deps: []string{
		InPlacePodVerticalScaling, PodLevelResources, NodeDeclaredFeatures}},
	PodLevelResourceManagers: {def: false, deps: []string{PodLevelResources}},
	NodeDeclaredFeatures:     {def: true},
}

// Gates is a set of gate values; the zero value holds the 1.36 defaults.
type Gates struct {
	values map[string]bool
}

// Default returns the Kubernetes 1.36 defaults.
func Default() Gates {
	g := Gates{values: make(map[string]bool, len(gates136))}
	for name, spec := range gates136 {
		g.values[name] = spec.def
	}
	return g
}

// Enabled reports whether the named gate is on. Unknown names are off.
func (g Gates) Enabled(name string) bool {
	if g.values == nil {
		return gates136[name].def
	}
	return g.values[name]
}

// Known lists the gate names limitcheck models, sorted.
func Known() []string {
	names := make([]string, 0, len(gates136))
	for n := range gates136 {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Parse parses kube-apiserver's --feature-gates syntax (Name=bool,...)
// on top of the 1.36 defaults. Locked gates can only be set to their locked value,
// as in kube-apiserver.
func Parse(spec string) (Gates, error) {
	g := Default()
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
			return g, fmt.Errorf("unrecognized feature gate: %s (limitcheck models %s)", k, strings.Join(Known(), ", "))
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
func (g Gates) checkDependencies() error {
	var errs []string
	for _, name := range Known() {
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
func (g *Gates) Set(name string, on bool) {
	if g.values == nil {
		*g = Default()
	}
	g.values[name] = on
}
