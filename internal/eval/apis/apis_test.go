package apis

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

const widgetCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgetries.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgetries, singular: widget}
  scope: Cluster
  versions:
  - {name: v1, served: true, storage: true}
  - {name: v1beta1, served: false, storage: false}
`

// A namespaced custom resource with a plural kubectl would not guess, in JSON.
const octopusCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"octopi.zoo.example.org"},
"spec":{"group":"zoo.example.org","names":{"kind":"Octopus","plural":"octopi"},"scope":"Namespaced",
"versions":[{"name":"v2","served":true,"storage":true},{"name":"v1","served":true}]}}`

func catalogWithCRDs(t *testing.T) *Catalog {
	t.Helper()
	c := New()
	for _, d := range []string{widgetCRD, octopusCRD} {
		if err := c.AddCRD([]byte(d)); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func TestLookup(t *testing.T) {
	c := catalogWithCRDs(t)
	for _, tc := range []struct {
		apiVersion, kind string
		status           Status
		resource         string // Kind.GroupResource()
		cluster          bool
		flags            string // CreateOnly, Subresource, Disabled, BuiltIn as letters
		// For NotServed: kubectl's message is always NoMatchMessage; suggest is Suggest.
		suggest string
	}{
		// Built-in kinds served by default.
		{"v1", "Pod", Served, "pods", false, "B", ""},
		{"v1", "Namespace", Served, "namespaces", true, "B", ""},
		{"v1", "Endpoints", Served, "endpoints", false, "B", ""},
		{"apps/v1", "Deployment", Served, "deployments.apps", false, "B", ""},
		{"networking.k8s.io/v1", "NetworkPolicy", Served, "networkpolicies.networking.k8s.io", false, "B", ""},
		{"networking.k8s.io/v1", "IngressClass", Served, "ingressclasses.networking.k8s.io", true, "B", ""},
		{"autoscaling/v2", "HorizontalPodAutoscaler", Served, "horizontalpodautoscalers.autoscaling", false, "B", ""},
		{"autoscaling/v1", "HorizontalPodAutoscaler", Served, "horizontalpodautoscalers.autoscaling", false, "B", ""},
		{"storage.k8s.io/v1", "CSIStorageCapacity", Served, "csistoragecapacities.storage.k8s.io", false, "B", ""},
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition", Served, "customresourcedefinitions.apiextensions.k8s.io", true, "B", ""},
		{"apiregistration.k8s.io/v1", "APIService", Served, "apiservices.apiregistration.k8s.io", true, "B", ""},
		{"admissionregistration.k8s.io/v1", "MutatingAdmissionPolicy", Served, "mutatingadmissionpolicies.admissionregistration.k8s.io", true, "B", ""},
		// resource.k8s.io: 1.36 serves v1 only; v1beta1 and v1beta2 are off by default.
		{"resource.k8s.io/v1", "ResourceClaim", Served, "resourceclaims.resource.k8s.io", false, "B", ""},
		{"resource.k8s.io/v1", "DeviceClass", Served, "deviceclasses.resource.k8s.io", true, "B", ""},
		{"resource.k8s.io/v1beta2", "ResourceClaim", NotServed, "resourceclaims.resource.k8s.io", false, "BD",
			"kube-apiserver 1.36 serves ResourceClaim as resource.k8s.io/v1"},
		{"resource.k8s.io/v1beta1", "ResourceClaim", NotServed, "resourceclaims.resource.k8s.io", false, "BD",
			"kube-apiserver 1.36 serves ResourceClaim as resource.k8s.io/v1"},
		{"resource.k8s.io/v1alpha3", "ResourceClaim", NotServed, "resourceclaims.resource.k8s.io", false, "B",
			"kube-apiserver 1.36 serves ResourceClaim as resource.k8s.io/v1"},
		{"resource.k8s.io/v1", "DeviceTaintRule", NotServed, "devicetaintrules.resource.k8s.io", false, "",
			"kube-apiserver 1.36 has DeviceTaintRule in resource.k8s.io/v1beta2 and resource.k8s.io/v1alpha3 but serves none of them by default"},
		{"storagemigration.k8s.io/v1beta1", "StorageVersionMigration", NotServed, "storageversionmigrations.storagemigration.k8s.io", true, "BD",
			"kube-apiserver 1.36 has StorageVersionMigration in storagemigration.k8s.io/v1beta1 but does not serve it by default"},
		// Virtual kinds: served for create.
		{"authentication.k8s.io/v1", "TokenReview", Served, "tokenreviews.authentication.k8s.io", true, "BC", ""},
		{"authorization.k8s.io/v1", "LocalSubjectAccessReview", Served, "localsubjectaccessreviews.authorization.k8s.io", false, "BC", ""},
		{"v1", "Binding", Served, "bindings", false, "BC", ""},
		// Subresource-only kinds: not served from a manifest.
		{"autoscaling/v1", "Scale", NotServed, "deployments/scale.autoscaling", false, "BS",
			"kube-apiserver 1.36 serves Scale only as a subresource (deployments/scale)"},
		{"policy/v1", "Eviction", NotServed, "pods/eviction.policy", false, "BS",
			"kube-apiserver 1.36 serves Eviction only as a subresource (pods/eviction)"},
		{"authentication.k8s.io/v1", "TokenRequest", NotServed, "serviceaccounts/token.authentication.k8s.io", false, "BS",
			"kube-apiserver 1.36 serves TokenRequest only as a subresource (serviceaccounts/token)"},
		// Versions and kinds kube-apiserver 1.36 does not serve.
		{"apps/v1beta1", "Deployment", NotServed, "deployments.apps", false, "B",
			"kube-apiserver 1.36 serves Deployment as apps/v1"},
		{"extensions/v1beta1", "Ingress", NotServed, "ingresses.extensions", false, "",
			"kube-apiserver 1.36 serves Ingress as networking.k8s.io/v1"},
		{"batch/v1beta1", "CronJob", NotServed, "cronjobs.batch", false, "B",
			"kube-apiserver 1.36 serves CronJob as batch/v1"},
		{"policy/v1beta1", "PodSecurityPolicy", NotServed, "podsecuritypolicies.policy", false, "", ""},
		{"policy/v1beta1", "PodDisruptionBudget", NotServed, "poddisruptionbudgets.policy", false, "B",
			"kube-apiserver 1.36 serves PodDisruptionBudget as policy/v1"},
		{"autoscaling/v2beta2", "HorizontalPodAutoscaler", NotServed, "horizontalpodautoscalers.autoscaling", false, "B",
			"kube-apiserver 1.36 serves HorizontalPodAutoscaler as autoscaling/v2 or autoscaling/v1"},
		{"rbac.authorization.k8s.io/v1beta1", "ClusterRole", NotServed, "clusterroles.rbac.authorization.k8s.io", true, "B",
			"kube-apiserver 1.36 serves ClusterRole as rbac.authorization.k8s.io/v1"},
		{"v2", "Pod", NotServed, "pods", false, "B", "kube-apiserver 1.36 serves Pod as v1"},
		{"v1", "pod", NotServed, "pods", false, "", "kube-apiserver 1.36 serves Pod as v1 (kinds are case-sensitive)"},
		{"apps/v1", "deployment", NotServed, "deployments.apps", false, "",
			"kube-apiserver 1.36 serves Deployment as apps/v1 (kinds are case-sensitive)"},
		{"v1", "Deployment", NotServed, "deployments", false, "", "kube-apiserver 1.36 serves Deployment as apps/v1"},
		{"app/v1", "Deployment", NotServed, "deployments.app", false, "", "kube-apiserver 1.36 serves Deployment as apps/v1"},
		{"v1", "Event", Served, "events", false, "B", ""},
		{"events.k8s.io/v1beta1", "Event", NotServed, "events.events.k8s.io", false, "B",
			"kube-apiserver 1.36 serves Event as events.k8s.io/v1"},
		{"settings.k8s.io/v1alpha1", "PodPreset", NotServed, "podpresets.settings.k8s.io", false, "", ""},
		{"v1", "Frobnicator", NotServed, "frobnicators", false, "", ""},
		// misspelt kinds: the one served kind of the group a letter or two away
		{"apps/v1", "Deployement", NotServed, "deployements.apps", false, "", "kube-apiserver 1.36 serves Deployment as apps/v1 (misspelt kind?)"},
		{"apps/v1", "StatefullSet", NotServed, "statefullsets.apps", false, "", "kube-apiserver 1.36 serves StatefulSet as apps/v1 (misspelt kind?)"},
		{"v1", "Secrets", NotServed, "secretses", false, "", "kube-apiserver 1.36 serves Secret as v1 (misspelt kind?)"},
		{"v1", "Pods", NotServed, "podses", false, "", "kube-apiserver 1.36 serves Pod as v1 (misspelt kind?)"},
		{"v1", "Serivce", NotServed, "serivces", false, "", "kube-apiserver 1.36 serves Service as v1 (misspelt kind?)"},
		{"networking.k8s.io/v1", "Ingres", NotServed, "ingreses.networking.k8s.io", false, "", "kube-apiserver 1.36 serves Ingress as networking.k8s.io/v1 (misspelt kind?)"},
		{"autoscaling/v2", "HorizontalPodAutoscalar", NotServed, "horizontalpodautoscalars.autoscaling", false, "",
			"kube-apiserver 1.36 serves HorizontalPodAutoscaler as autoscaling/v2 or autoscaling/v1 (misspelt kind?)"},
		{"v1", "Nod", NotServed, "nods", false, "", ""},                                   // too short to guess
		{"example.com/v1", "Endpoint", NotServed, "endpoints.example.com", false, "", ""}, // not across groups
		// Custom resources from the input's CRDs.
		{"example.com/v1", "Widget", Served, "widgetries.example.com", true, "", ""},
		{"example.com/v1beta1", "Widget", NotServed, "widgetries.example.com", true, "",
			"CustomResourceDefinition widgetries.example.com serves Widget as example.com/v1"},
		{"example.com/v2", "Widget", NotServed, "widgetries.example.com", true, "",
			"CustomResourceDefinition widgetries.example.com serves Widget as example.com/v1"},
		{"example.com/v1", "widget", NotServed, "widgets.example.com", false, "",
			"CustomResourceDefinition widgetries.example.com serves Widget as example.com/v1 (kinds are case-sensitive)"},
		{"example.com/v1", "Gadget", NotServed, "gadgets.example.com", false, "", ""},
		{"zoo.example.org/v1", "Octopus", Served, "octopi.zoo.example.org", false, "", ""},
		{"zoo.example.org/v3", "Octopus", NotServed, "octopi.zoo.example.org", false, "",
			"CustomResourceDefinition octopi.zoo.example.org serves Octopus as zoo.example.org/v2 or zoo.example.org/v1"},
		// Custom resources without a CRD in the input.
		{"stable.example.com/v1", "CronTab", Custom, "crontabs.stable.example.com", false, "", ""},
		{"monitoring.coreos.com/v1", "ServiceMonitor", Custom, "servicemonitors.monitoring.coreos.com", false, "", ""},
		{"cert-manager.io/v1", "ClusterIssuer", Custom, "clusterissuers.cert-manager.io", true, "", ""},          // a known cluster-scoped kind
		{"gateway.networking.k8s.io/v1", "Gateway", Custom, "gateways.gateway.networking.k8s.io", false, "", ""}, // not kubectl's offline "gatewaies"
		{"gateway.networking.k8s.io/v1", "GatewayClass", Custom, "gatewayclasses.gateway.networking.k8s.io", true, "", ""},
		{"gateway.networking.k8s.io/v1alpha3", "BackendTLSPolicy", Custom, "backendtlspolicies.gateway.networking.k8s.io", false, "", ""},
		{"monitoring.coreos.com/v1", "Prometheus", Custom, "prometheuses.monitoring.coreos.com", false, "", ""},
		{"constraints.gatekeeper.sh/v1beta1", "K8sRequiredLabels", Custom, "k8srequiredlabels.constraints.gatekeeper.sh", true, "", ""},
		{"example.com/v1", "Deployment", NotServed, "deployments.example.com", false, "", "kube-apiserver 1.36 serves Deployment as apps/v1"},
		{"other.example.com/v1", "Deployment", Custom, "deployments.other.example.com", false, "", ""},
		// Client and component configuration files.
		{"kustomize.config.k8s.io/v1beta1", "Kustomization", ToolConfig, "kustomizations.kustomize.config.k8s.io", false, "", ""},
		{"kustomize.config.k8s.io/v1alpha1", "Component", ToolConfig, "components.kustomize.config.k8s.io", false, "", ""},
		{"kubelet.config.k8s.io/v1beta1", "KubeletConfiguration", ToolConfig, "kubeletconfigurations.kubelet.config.k8s.io", false, "", ""},
		{"apiserver.config.k8s.io/v1", "AdmissionConfiguration", ToolConfig, "admissionconfigurations.apiserver.config.k8s.io", false, "", ""},
		{"resourcequota.admission.k8s.io/v1beta1", "Configuration", ToolConfig, "configurations.resourcequota.admission.k8s.io", false, "", ""},
		{"audit.k8s.io/v1", "Policy", ToolConfig, "policies.audit.k8s.io", false, "", ""},
		{"kubeadm.k8s.io/v1beta4", "ClusterConfiguration", ToolConfig, "clusterconfigurations.kubeadm.k8s.io", false, "", ""},
		{"kind.x-k8s.io/v1alpha4", "Cluster", ToolConfig, "clusters.kind.x-k8s.io", false, "", ""},
		{"v1", "Config", ToolConfig, "configs", false, "", ""},
		{"cli.kyverno.io/v1alpha1", "Test", ToolConfig, "tests.cli.kyverno.io", false, "", ""},
		{"test.gatekeeper.sh/v1alpha1", "Suite", ToolConfig, "suites.test.gatekeeper.sh", false, "", ""},
		{"chainsaw.kyverno.io/v1alpha1", "Test", ToolConfig, "tests.chainsaw.kyverno.io", false, "", ""},
		{"kuttl.dev/v1beta1", "TestStep", ToolConfig, "teststeps.kuttl.dev", false, "", ""},
		{"tanka.dev/v1alpha1", "Environment", ToolConfig, "environments.tanka.dev", false, "", ""},
		{"backstage.io/v1alpha1", "Component", ToolConfig, "components.backstage.io", false, "", ""},
		{"scaffolder.backstage.io/v1beta3", "Template", ToolConfig, "templates.scaffolder.backstage.io", false, "", ""},
		{"config.kwok.x-k8s.io/v1alpha1", "KwokctlConfiguration", ToolConfig, "kwokctlconfigurations.config.kwok.x-k8s.io", false, "", ""},
		{"kube-scheduler-simulator-config/v1alpha1", "SimulatorConfiguration", ToolConfig, "simulatorconfigurations.kube-scheduler-simulator-config", false, "", ""},
		// A dotless group that is not built in cannot be served at all:
		// Skaffold's is a tool's, another one more likely a typo.
		{"skaffold/v4beta11", "Config", ToolConfig, "configs.skaffold", false, "", ""},
		{"descheduler/v1alpha2", "DeschedulerPolicy", ToolConfig, "deschedulerpolicies.descheduler", false, "", ""},
		{"app/v1", "Deployment", NotServed, "deployments.app", false, "", "kube-apiserver 1.36 serves Deployment as apps/v1"},
		// kustomize's built-in plugins are configured with apiVersion builtin.
		{"builtin", "PatchTransformer", ToolConfig, "patchtransformers", false, "", ""},
	} {
		name := tc.apiVersion + " " + tc.kind
		k, st := c.Lookup(tc.apiVersion, tc.kind)
		if st != tc.status {
			t.Errorf("%s: status %v, want %v", name, st, tc.status)
		}
		if k.Kind != tc.kind {
			t.Errorf("%s: Kind.Kind %q", name, k.Kind)
		}
		if got := k.GroupResource(); got != tc.resource {
			t.Errorf("%s: resource %q, want %q", name, got, tc.resource)
		}
		if k.Namespaced == tc.cluster {
			t.Errorf("%s: Namespaced = %v, want %v", name, k.Namespaced, !tc.cluster)
		}
		flags := ""
		for _, f := range []struct {
			set    bool
			letter string
		}{{k.BuiltIn, "B"}, {k.CreateOnly, "C"}, {k.Subresource, "S"}, {k.Disabled, "D"}} {
			if f.set {
				flags += f.letter
			}
		}
		if flags != tc.flags {
			t.Errorf("%s: flags %q, want %q", name, flags, tc.flags)
		}
		if got := c.Suggest(tc.apiVersion, tc.kind); st == NotServed && got != tc.suggest {
			t.Errorf("%s: Suggest = %q, want %q", name, got, tc.suggest)
		}
	}
}

func TestNoMatchMessage(t *testing.T) {
	for _, tc := range []struct{ apiVersion, kind, want string }{
		{"apps/v1beta1", "Deployment", `no matches for kind "Deployment" in version "apps/v1beta1"`},
		{"extensions/v1beta1", "Ingress", `no matches for kind "Ingress" in version "extensions/v1beta1"`},
		{"batch/v1beta1", "CronJob", `no matches for kind "CronJob" in version "batch/v1beta1"`},
		{"policy/v1beta1", "PodSecurityPolicy", `no matches for kind "PodSecurityPolicy" in version "policy/v1beta1"`},
		{"autoscaling/v2beta2", "HorizontalPodAutoscaler", `no matches for kind "HorizontalPodAutoscaler" in version "autoscaling/v2beta2"`},
		{"v2", "Pod", `no matches for kind "Pod" in version "v2"`},
		{"v1", "pod", `no matches for kind "pod" in version "v1"`},
		{"skaffold/v4beta11", "Config", `no matches for kind "Config" in version "skaffold/v4beta11"`},
		{"example.com/v1beta1", "Widget", `no matches for kind "Widget" in version "example.com/v1beta1"`},
		{"a/b/c", "X", `no matches for kind "X" in version "a/b/c"`},
	} {
		if got := NoMatchMessage(tc.apiVersion, tc.kind); got != tc.want {
			t.Errorf("NoMatchMessage(%q, %q) = %s, want %s", tc.apiVersion, tc.kind, got, tc.want)
		}
	}
}

func TestAddCRDErrors(t *testing.T) {
	crd := func(apiVersion, name, group, kind, plural, scope, versions string) string {
		return `{"apiVersion":"` + apiVersion + `","kind":"CustomResourceDefinition","metadata":{"name":"` + name +
			`"},"spec":{"group":"` + group + `","names":{"kind":"` + kind + `","plural":"` + plural +
			`"},"scope":"` + scope + `","versions":[` + versions + `]}}`
	}
	v1 := `{"name":"v1","served":true,"storage":true}`
	for _, tc := range []struct{ doc, want string }{
		{crd("apiextensions.k8s.io/v1beta1", "ws.example.com", "example.com", "W", "ws", "Namespaced", v1),
			`not an apiextensions.k8s.io/v1 CustomResourceDefinition: apiVersion "apiextensions.k8s.io/v1beta1", kind "CustomResourceDefinition"`},
		{crd("apiextensions.k8s.io/v1", "ws.example", "example", "W", "ws", "Namespaced", v1),
			`CustomResourceDefinition "ws.example": spec.group "example" must be a domain with at least one dot`},
		{crd("apiextensions.k8s.io/v1", "deployments.apps", "apps", "Deployment", "deployments", "Namespaced", v1),
			`CustomResourceDefinition "deployments.apps": spec.group "apps" must be a domain with at least one dot`},
		{crd("apiextensions.k8s.io/v1", "widgets.example.com", "example.com", "W", "ws", "Namespaced", v1),
			`CustomResourceDefinition "widgets.example.com": metadata.name must be "ws.example.com" (spec.names.plural + "." + spec.group)`},
		{crd("apiextensions.k8s.io/v1", "ws.example.com", "example.com", "W", "ws", "namespaced", v1),
			`CustomResourceDefinition "ws.example.com": spec.scope "namespaced" must be Namespaced or Cluster`},
		{crd("apiextensions.k8s.io/v1", "ws.example.com", "example.com", "W", "ws", "Cluster", ""),
			`CustomResourceDefinition "ws.example.com": spec.versions is empty`},
		{crd("apiextensions.k8s.io/v1", "ws.example.com", "example.com", "", "ws", "Cluster", v1),
			`CustomResourceDefinition "ws.example.com": spec.names.kind and spec.names.plural are required`},
		{`[1`, `reading CustomResourceDefinition: `},
	} {
		c := New()
		err := c.AddCRD([]byte(tc.doc))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || (!strings.HasSuffix(tc.want, ": ") && err.Error() != tc.want) {
			t.Errorf("AddCRD error = %v, want %s", err, tc.want)
		}
		if len(c.crds) != 0 {
			t.Errorf("a refused CRD was added: %v", c.crds)
		}
	}
}

// TestSchemaRead: a CRD version's schema is read when first asked for, once
// (the same schema after), and a schema that cannot be read is an error
// then, naming the CRD and version, not when the CRD is added.
func TestSchemaRead(t *testing.T) {
	c := New()
	doc := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"ws.example.com"},` +
		`"spec":{"group":"example.com","names":{"kind":"W","plural":"ws"},"scope":"Namespaced","versions":[` +
		`{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}},` +
		`{"name":"v2","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object","properties":{"a":{"type":"string","pattern":"("}}}}}]}}`
	if err := c.AddCRD([]byte(doc)); err != nil {
		t.Fatal(err)
	}
	s1, _, err1 := c.Schema("example.com/v1", "W")
	s2, _, err2 := c.Schema("example.com/v1", "W")
	if s1 == nil || s1 != s2 || err1 != nil || err2 != nil {
		t.Errorf("v1: %p %v, then %p %v; want one schema, no error", s1, err1, s2, err2)
	}
	s, _, err := c.Schema("example.com/v2", "W")
	const want = `CustomResourceDefinition "ws.example.com", version "v2": openAPIV3Schema.a: pattern "(": error parsing regexp: missing closing ): ` + "`(`"
	if s != nil || err == nil || err.Error() != want {
		t.Errorf("v2: %v, %v; want no schema and\n%s", s, err, want)
	}
	if s, _, err := c.Schema("example.com/v3", "W"); s != nil || err != nil {
		t.Errorf("v3 (not served): %v, %v", s, err)
	}
}

// A CRD of a group kube-apiserver serves itself is created (with its API
// approval) but serves nothing: it changes nothing, without an error.
func TestAddCRDBuiltinGroup(t *testing.T) {
	c := New()
	doc := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"ingresses.networking.k8s.io"},` +
		`"spec":{"group":"networking.k8s.io","names":{"kind":"Ingress","plural":"ingresses"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true}]}}`
	if err := c.AddCRD([]byte(doc)); err != nil {
		t.Fatal(err)
	}
	if len(c.crds) != 0 || c.crdGroups["networking.k8s.io"] {
		t.Errorf("a CRD of a built-in group was added: %v", c.crds)
	}
}

// The kind of a refused CRD does not exist (VAL-93), unless a CRD that is
// created serves it; other kinds of its group are unaffected.
func TestRefusedCRD(t *testing.T) {
	c := New()
	c.AddRefusedCRD("widgets.example.org", "example.org", "Widget")
	if _, st := c.Lookup("example.org/v1", "Widget"); st != NotServed {
		t.Errorf("Widget of a refused CRD: %v, want NotServed", st)
	}
	if _, st := c.Lookup("example.org/v1", "Gadget"); st != Custom {
		t.Errorf("another kind of the group: %v, want Custom", st)
	}
	want := "kube-apiserver refuses the input's CustomResourceDefinition widgets.example.org, so Widget is not served"
	if got := c.Suggest("example.org/v1", "Widget"); got != want {
		t.Errorf("Suggest = %q, want %q", got, want)
	}
	doc := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"widgets.example.org"},` +
		`"spec":{"group":"example.org","names":{"kind":"Widget","plural":"widgets"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true}]}}`
	if err := c.AddCRD([]byte(doc)); err != nil {
		t.Fatal(err)
	}
	if _, st := c.Lookup("example.org/v1", "Widget"); st != Served {
		t.Errorf("Widget with a created CRD too: %v, want Served", st)
	}
	if got := c.RefusedCRD("example.org/v1", "Widget"); got != "" {
		t.Errorf("RefusedCRD = %q with a created CRD", got)
	}
}

// VAL-104: the deprecation warning of a served version, built in or of a
// CRD (its own text, else one naming the best served version above it).
func TestDeprecation(t *testing.T) {
	c := New()
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - {name: v1alpha1, served: true, storage: false, deprecated: true}
  - {name: v1beta1, served: true, storage: false, deprecated: true, deprecationWarning: "v1beta1 goes away in 2.0"}
  - {name: v1beta2, served: true, storage: false}
  - {name: v1, served: true, storage: true}
  - {name: v2alpha1, served: true, storage: false}
  - {name: v2, served: false, storage: false}
  - {name: v3, served: true, storage: false, deprecated: true}
  - {name: v0, served: false, storage: false, deprecated: true}
`
	if err := c.AddCRD([]byte(crd)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ apiVersion, kind, want string }{
		{"v1", "Endpoints", "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"},
		{"v1", "ComponentStatus", "v1 ComponentStatus is deprecated in v1.19+"},
		{"discovery.k8s.io/v1", "EndpointSlice", ""},
		{"resource.k8s.io/v1beta2", "DeviceClass", ""}, // not served by default
		{"example.com/v1alpha1", "Gadget", "example.com/v1alpha1 Gadget is deprecated; use example.com/v1 Gadget"},
		{"example.com/v1beta1", "Gadget", "v1beta1 goes away in 2.0"},
		{"example.com/v1", "Gadget", ""},
		{"example.com/v3", "Gadget", "example.com/v3 Gadget is deprecated"},
		{"example.com/v0", "Gadget", ""}, // not served
		{"example.com/v1", "Gizmo", ""},
	} {
		if got := c.Deprecation(tc.apiVersion, tc.kind); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.apiVersion, tc.kind, got, tc.want)
		}
	}
}

// IN-11: a document with items is taken apart as kubectl's discovery REST
// mapper allows: List in a served group/version, <Kind>List of a served kind.
func TestListNotMapped(t *testing.T) {
	c := catalogWithCRDs(t)
	for _, tc := range []struct{ apiVersion, kind, want string }{
		{"v1", "List", ""},
		{"apps/v1", "List", ""},
		{"v1", "ConfigMapList", ""},
		{"apps/v1", "DeploymentList", ""},
		{"example.com/v1", "WidgetList", ""},
		{"example.com/v1", "List", ""},
		{"other.example.org/v1", "ThingList", ""}, // a CRD not in the input
		{"v2", "List", `no matches for kind "List" in version "v2"`},
		{"v1", "NotAList", `no matches for kind "NotAList" in version "v1"`},
		{"apps/v1", "ServiceList", `no matches for kind "ServiceList" in version "apps/v1"`},
		{"example.com/v1", "GadgetList", `no matches for kind "GadgetList" in version "example.com/v1"`},
		{"extensions/v1beta1", "List", `no matches for kind "List" in version "extensions/v1beta1"`},
	} {
		if got := c.ListNotMapped(tc.apiVersion, tc.kind); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.apiVersion, tc.kind, got, tc.want)
		}
	}
}

// A CRD added again replaces the first; catalogues do not share CRDs.
func TestAddCRDReplaces(t *testing.T) {
	c := catalogWithCRDs(t)
	namespaced := strings.Replace(widgetCRD, "scope: Cluster", "scope: Namespaced", 1)
	if err := c.AddCRD([]byte(namespaced)); err != nil {
		t.Fatal(err)
	}
	if k, st := c.Lookup("example.com/v1", "Widget"); st != Served || !k.Namespaced {
		t.Errorf("after replacing: %+v %v", k, st)
	}
	if _, st := New().Lookup("example.com/v1", "Widget"); st != Custom {
		t.Errorf("a new catalogue knows the CRD: %v", st)
	}
}

// The table's invariants: one row per group/version/kind, every row either
// served or flagged, tool-configuration groups disjoint from built-in groups.
func TestBuiltInTable(t *testing.T) {
	seen := map[string]bool{}
	served := 0
	c := New()
	for _, k := range BuiltIns() {
		id := k.APIVersion() + " " + k.Kind
		if seen[id] {
			t.Errorf("%s listed twice", id)
		}
		seen[id] = true
		if !k.BuiltIn || k.Resource == "" || k.Kind == "" || k.Version == "" {
			t.Errorf("incomplete row %+v", k)
		}
		if strings.Contains(k.Resource, "/") != k.Subresource {
			t.Errorf("%s: resource %q but Subresource %v", id, k.Resource, k.Subresource)
		}
		got, st := c.Lookup(k.APIVersion(), k.Kind)
		if want := map[bool]Status{true: NotServed, false: Served}[k.Disabled || k.Subresource]; st != want || got != k {
			t.Errorf("Lookup(%s) = %+v %v, want %+v %v", id, got, st, k, want)
		}
		if st == Served {
			served++
		}
		if IsToolConfig(k.APIVersion(), k.Kind) {
			t.Errorf("%s is built in and a tool configuration", id)
		}
	}
	for g := range builtinGroups {
		if g != "" && IsToolConfig(g+"/v1", "X") {
			t.Errorf("built-in group %s is a tool-configuration group", g)
		}
	}
	if served < 60 {
		t.Errorf("only %d kinds served", served)
	}
	if got := release(); got != "1.36" {
		t.Errorf("release() = %q", got)
	}
}

func TestNotServedMessage(t *testing.T) {
	c := catalogWithCRDs(t)
	for _, tc := range []struct{ apiVersion, kind, want string }{
		{"apps/v1beta1", "Deployment", `no matches for kind "Deployment" in version "apps/v1beta1"`},
		{"v2", "Pod", `no matches for kind "Pod" in version "v2"`},
		{"autoscaling/v1", "Scale", `no matches for kind "Scale" in version "autoscaling/v1"`},
		{"resource.k8s.io/v1beta2", "ResourceClaim", `no matches for kind "ResourceClaim" in version "resource.k8s.io/v1beta2"`},
		// kubectl maps the all-lower-case spelling of a served kind; the apiserver refuses the body.
		{"v1", "pod", `pod in version "v1" cannot be handled as a Pod: no kind "pod" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"`},
		{"apps/v1", "deployment", `deployment in version "v1" cannot be handled as a Deployment: no kind "deployment" is registered for version "apps/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"`},
		{"apiextensions.k8s.io/v1", "customresourcedefinition", `customresourcedefinition in version "v1" cannot be handled as a CustomResourceDefinition: no kind "customresourcedefinition" is registered for version "apiextensions.k8s.io/v1" in scheme "pkg/apiserver/apiserver.go:55"`},
		{"example.com/v1", "widget", `kind: Invalid value: "widget": must be Widget`},
		// Other spellings, and lower case in a version that is not served, find no mapping.
		{"v1", "POD", `no matches for kind "POD" in version "v1"`},
		{"apps/v1", "deployMent", `no matches for kind "deployMent" in version "apps/v1"`},
		{"apps/v1beta1", "deployment", `no matches for kind "deployment" in version "apps/v1beta1"`},
		{"autoscaling/v1", "scale", `no matches for kind "scale" in version "autoscaling/v1"`},
		{"example.com/v1beta1", "widget", `no matches for kind "widget" in version "example.com/v1beta1"`},
		{"skaffold/v4beta11", "Config", `no matches for kind "Config" in version "skaffold/v4beta11"`},
	} {
		if got := c.NotServedMessage(tc.apiVersion, tc.kind); got != tc.want {
			t.Errorf("NotServedMessage(%q, %q) =\n %s\nwant\n %s", tc.apiVersion, tc.kind, got, tc.want)
		}
	}
}

// A nil catalogue answers for the built-in kinds.
func TestNilCatalog(t *testing.T) {
	var c *Catalog
	if k, st := c.Lookup("apps/v1", "Deployment"); st != Served || k.Resource != "deployments" {
		t.Errorf("Lookup = %+v %v", k, st)
	}
	if _, st := c.Lookup("example.com/v1", "Widget"); st != Custom {
		t.Errorf("Lookup custom = %v", st)
	}
	if got := c.Suggest("apps/v1beta1", "Deployment"); got != "kube-apiserver 1.36 serves Deployment as apps/v1" {
		t.Errorf("Suggest = %q", got)
	}
	if got := c.NotServedMessage("v1", "pod"); got == NoMatchMessage("v1", "pod") {
		t.Errorf("NotServedMessage = %q", got)
	}
}

func TestCustomPlural(t *testing.T) {
	for _, tc := range []struct {
		gk   schema.GroupKind
		want string
	}{
		{schema.GroupKind{Group: "gateway.networking.k8s.io", Kind: "Gateway"}, "gateways"},
		{schema.GroupKind{Group: "gateway.networking.k8s.io", Kind: "HTTPRoute"}, "httproutes"},
		{schema.GroupKind{Group: "example.com", Kind: "NetworkPolicy"}, "networkpolicies"},
		{schema.GroupKind{Group: "telemetry.istio.io", Kind: "Telemetry"}, "telemetries"},
		{schema.GroupKind{Group: "monitoring.coreos.com", Kind: "Prometheus"}, "prometheuses"},
		{schema.GroupKind{Group: "elasticsearch.k8s.elastic.co", Kind: "Elasticsearch"}, "elasticsearches"},
		{schema.GroupKind{Group: "example.com", Kind: "Endpoints"}, "endpoints"},
		{schema.GroupKind{Group: "constraints.gatekeeper.sh", Kind: "K8sRequiredLabels"}, "k8srequiredlabels"},
		{schema.GroupKind{Group: "example.com", Kind: ""}, ""},
	} {
		if got := customPlural(tc.gk); got != tc.want {
			t.Errorf("customPlural(%v) = %q, want %q", tc.gk, got, tc.want)
		}
	}
}

func TestPlural(t *testing.T) {
	for kind, want := range map[string]string{
		"ConfigMap": "ConfigMaps", "Ingress": "Ingresses", "NetworkPolicy": "NetworkPolicies",
		"PriorityClass": "PriorityClasses", "Gateway": "Gateways", "Mesh": "Meshes", "Box": "Boxes",
		"Key": "Keys", "Y": "Ys", "": "",
	} {
		if got := Plural(kind); got != want {
			t.Errorf("Plural(%q) = %q, want %q", kind, got, want)
		}
	}
}

// The identity of a CRD kube-apiserver cannot decode is read as far as it
// can be.
func TestCRDIdentity(t *testing.T) {
	for _, tc := range []struct{ doc, name, group, kind string }{
		{`{"metadata":{"name":"widgets.example.org"},"spec":{"group":"example.org","version":"v1","names":{"kind":"Widget"},"versions":[{"served":"yes"}]}}`, "widgets.example.org", "example.org", "Widget"},
		{`{"spec":{"group":"example.org","names":{"kind":5}}}`, "", "example.org", ""},
		{`[1`, "", "", ""},
	} {
		if n, g, k := CRDIdentity([]byte(tc.doc)); n != tc.name || g != tc.group || k != tc.kind {
			t.Errorf("CRDIdentity(%s) = %q, %q, %q", tc.doc, n, g, k)
		}
	}
}

// RQ-08: the quota controller counts namespaced resources only; a
// cluster-scoped one, built in or from an input CRD, gets no used value.
func TestCountedNamespacedOnly(t *testing.T) {
	c := New()
	if err := c.AddCRD([]byte(widgetCRD)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		gr   schema.GroupResource
		want bool
	}{
		{schema.GroupResource{Group: "apps", Resource: "deployments"}, true},
		{schema.GroupResource{Resource: "configmaps"}, true},
		{schema.GroupResource{Resource: "namespaces"}, false},
		{schema.GroupResource{Resource: "persistentvolumes"}, false},
		{schema.GroupResource{Group: "apiregistration.k8s.io", Resource: "apiservices"}, false},
		{schema.GroupResource{Group: "storage.k8s.io", Resource: "storageclasses"}, false},
		{schema.GroupResource{Group: "example.com", Resource: "widgetries"}, false},
		{schema.GroupResource{Group: "other.example.org", Resource: "things"}, true},
		{schema.GroupResource{Resource: "deployments"}, false},
	} {
		if got := c.Counted(tc.gr); got != tc.want {
			t.Errorf("Counted(%s) = %v, want %v", tc.gr, got, tc.want)
		}
	}
}
