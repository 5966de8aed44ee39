package features

import "testing"

func TestParse(t *testing.T) {
	tests := []struct{ spec, err string }{
		{"", ""},
		{"PodLevelResources=true", ""},
		{"PodLevelResources=false", "InPlacePodLevelResourcesVerticalScaling is enabled, but depends on features that are disabled: [PodLevelResources]"},
		{"SidecarContainers=false", "cannot set feature gate SidecarContainers to false, feature is locked to true"},
		{"PodLevelResources", "missing bool value for PodLevelResources"},
		{"PodLevelResources=maybe", `invalid value of PodLevelResources=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax`},
		{"Nope=true", "unrecognized feature gate: Nope (limitcheck models DRAExtendedResource, DynamicResourceAllocation, HPAConfigurableTolerance, HPAScaleToZero, InPlacePodLevelResourcesVerticalScaling, InPlacePodVerticalScaling, NodeDeclaredFeatures, PodLevelResourceManagers, PodLevelResources, RecoverVolumeExpansionFailure, RelaxedServiceNameValidation, SidecarContainers, VolumeAttributesClass)"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.spec)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("Parse(%q) error = %q, want %q", tc.spec, got, tc.err)
		}
	}
}
