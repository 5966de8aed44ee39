package conformance

import (
	"slices"
	"testing"

	"k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap"
	"k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac/bootstrappolicy"

	"github.com/limitcheck/limitcheck/internal/eval"
)

// TestBootstrapNames holds limitcheck's lists of the ClusterRoles and
// ClusterRoleBindings every cluster has (ST-01) to kube-apiserver's RBAC
// bootstrap policy: a role upstream adds or renames fails it.
func TestBootstrapNames(t *testing.T) {
	var roles, bindings []string
	for _, r := range append(bootstrappolicy.ClusterRoles(), bootstrappolicy.ControllerRoles()...) {
		roles = append(roles, r.Name)
	}
	for _, b := range append(bootstrappolicy.ClusterRoleBindings(), bootstrappolicy.ControllerRoleBindings()...) {
		bindings = append(bindings, b.Name)
	}
	slices.Sort(roles)
	slices.Sort(bindings)
	if !slices.Equal(roles, eval.BootstrapClusterRoles) {
		t.Errorf("ClusterRoles:\n upstream   %q\n limitcheck %q", roles, eval.BootstrapClusterRoles)
	}
	if !slices.Equal(bindings, eval.BootstrapClusterRoleBindings) {
		t.Errorf("ClusterRoleBindings:\n upstream   %q\n limitcheck %q", bindings, eval.BootstrapClusterRoleBindings)
	}
	if len(roles) < 60 || len(bindings) < 40 {
		t.Errorf("only %d roles and %d bindings: the bootstrap policy was not read", len(roles), len(bindings))
	}
}

// TestBootstrapFlowcontrolNames holds limitcheck's lists of the FlowSchemas
// and PriorityLevelConfigurations every cluster has (ST-01, VAL-103) to
// kube-apiserver's API Priority and Fairness configuration, the mandatory
// and the suggested objects.
func TestBootstrapFlowcontrolNames(t *testing.T) {
	var schemas, levels []string
	for _, fs := range append(bootstrap.MandatoryFlowSchemas, bootstrap.SuggestedFlowSchemas...) {
		schemas = append(schemas, fs.Name)
	}
	for _, pl := range append(bootstrap.MandatoryPriorityLevelConfigurations, bootstrap.SuggestedPriorityLevelConfigurations...) {
		levels = append(levels, pl.Name)
	}
	slices.Sort(schemas)
	slices.Sort(levels)
	if !slices.Equal(schemas, eval.BootstrapFlowSchemas) {
		t.Errorf("FlowSchemas:\n upstream   %q\n limitcheck %q", schemas, eval.BootstrapFlowSchemas)
	}
	if !slices.Equal(levels, eval.BootstrapPriorityLevelConfigurations) {
		t.Errorf("PriorityLevelConfigurations:\n upstream   %q\n limitcheck %q", levels, eval.BootstrapPriorityLevelConfigurations)
	}
}
