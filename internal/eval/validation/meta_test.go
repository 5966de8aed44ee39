package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// joined renders errors as the 422 lists them.
func joined(errs field.ErrorList) string {
	parts := make([]string, len(errs))
	for i, e := range errs {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

const (
	subdomainMsg = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
	labelMsg     = `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`
)

func TestObjectMeta(t *testing.T) {
	tru := true
	ref := func(name, uid string, ctl bool) metav1.OwnerReference {
		r := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: name, UID: "u"}
		r.UID = "x"
		if uid == "" {
			r.UID = ""
		}
		if ctl {
			r.Controller = &tru
		}
		return r
	}
	for _, tc := range []struct {
		name string
		gk   schema.GroupKind
		meta metav1.ObjectMeta
		want string
	}{
		{"valid", schema.GroupKind{Kind: "ConfigMap"}, metav1.ObjectMeta{Name: "web", Namespace: "ns"}, ""},
		{"uppercase", schema.GroupKind{Kind: "ConfigMap"}, metav1.ObjectMeta{Name: "Web", Namespace: "ns"},
			`metadata.name: Invalid value: "Web": ` + subdomainMsg},
		{"generateName", schema.GroupKind{Kind: "ConfigMap"}, metav1.ObjectMeta{GenerateName: "Web_", Name: "Web_xxxxx", Namespace: "ns"},
			`metadata.generateName: Invalid value: "Web_": ` + subdomainMsg + `; metadata.name: Invalid value: "Web_xxxxx": ` + subdomainMsg},
		{"rc: no generateName check, bytes", schema.GroupKind{Kind: "ReplicationController"}, metav1.ObjectMeta{GenerateName: "Web_", Name: "Web_xxxxx", Namespace: "ns"},
			`metadata.name: Invalid value: "Web_xxxxx": ` + subdomainMsg},
		{"statefulset dots", schema.GroupKind{Group: "apps", Kind: "StatefulSet"}, metav1.ObjectMeta{Name: "web.v2", Namespace: "ns"},
			`metadata.name: Invalid value: "web.v2": must not contain dots`},
		{"role path segment", schema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: "Role"}, metav1.ObjectMeta{Name: "a/b", Namespace: "ns"},
			`metadata.name: Invalid value: "a/b": may not contain '/'`},
		{"role uppercase ok", schema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: "Role"}, metav1.ObjectMeta{Name: "system:Admin", Namespace: "ns"}, ""},
		// VAL-70: ValidateRBACName ignores the prefix flag, so "." is refused
		// as a generateName though "..xxxxx" is a fine generated name.
		{"rolebinding generateName held to the name rule", schema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}, metav1.ObjectMeta{GenerateName: "..", Name: "..xxxxx", Namespace: "ns"},
			`metadata.generateName: Invalid value: "..": may not be '..'`},
		{"label key and value", schema.GroupKind{Kind: "Secret"}, metav1.ObjectMeta{Name: "s", Namespace: "ns", Labels: map[string]string{"b": "x y", "a/b/c": "v"}},
			`metadata.labels: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName'); ` +
				`metadata.labels: Invalid value: "x y": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
		{"annotations too big", schema.GroupKind{Kind: "Secret"}, metav1.ObjectMeta{Name: "s", Namespace: "ns", Annotations: map[string]string{"Example.com/Big": strings.Repeat("x", 256*1024)}},
			`metadata.annotations: Too long: may not be more than 262144 bytes`},
		{"owner refs", schema.GroupKind{Kind: "Pod"}, metav1.ObjectMeta{Name: "p", Namespace: "ns", OwnerReferences: []metav1.OwnerReference{ref("a", "", true), ref("b", "x", true)}},
			`metadata.ownerReferences.uid: Invalid value: "": must not be empty; metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"a","uid":"","controller":true},{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"b","uid":"x","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b`},
		{"finalizer core", schema.GroupKind{Kind: "ConfigMap"}, metav1.ObjectMeta{Name: "c", Namespace: "ns", Finalizers: []string{"cleanup"}},
			`metadata.finalizers[0]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified`},
		{"finalizer custom resource", schema.GroupKind{Group: "example.com", Kind: "Widget"}, metav1.ObjectMeta{Name: "c", Namespace: "ns", Finalizers: []string{"cleanup"}}, ""},
		{"finalizer lease", schema.GroupKind{Group: "coordination.k8s.io", Kind: "Lease"}, metav1.ObjectMeta{Name: "c", Namespace: "ns", Finalizers: []string{"cleanup"}}, ""},
		{"generation", schema.GroupKind{Kind: "ConfigMap"}, metav1.ObjectMeta{Name: "c", Namespace: "ns", Generation: -1},
			`metadata.generation: Invalid value: -1: must be greater than or equal to 0`},
		{"generation reset", schema.GroupKind{Group: "apps", Kind: "Deployment"}, metav1.ObjectMeta{Name: "c", Namespace: "ns", Generation: -1}, ""},
		{"pdb generic only", schema.GroupKind{Group: "policy", Kind: "PodDisruptionBudget"}, metav1.ObjectMeta{Name: "Web", Namespace: "ns"}, ""},
		{"namespace", schema.GroupKind{Kind: "ConfigMap"}, metav1.ObjectMeta{Name: "c", Namespace: "Team_A"},
			`metadata.namespace: Invalid value: "Team_A": ` + labelMsg},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := joined(ObjectMeta(&tc.meta, MetaRulesFor(tc.gk), field.NewPath("metadata")))
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestConfigMapSecret(t *testing.T) {
	meta := metav1.ObjectMeta{Name: "x", Namespace: "ns"}
	cm := &corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{"a/b": "1", "logo": "x"}, BinaryData: map[string][]byte{"logo": {1}}}
	want := `data[a/b]: Invalid value: "a/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+'); data[logo]: Invalid value: "logo": duplicate of key present in binaryData`
	if got := joined(ConfigMap(cm)); got != want {
		t.Errorf("configmap: got %s", got)
	}
	for _, tc := range []struct {
		s    corev1.Secret
		want string
	}{
		{corev1.Secret{Type: corev1.SecretTypeTLS, StringData: map[string]string{"tls.crt": "c"}}, `data[tls.key]: Required value`},
		{corev1.Secret{Type: corev1.SecretTypeDockerConfigJson, StringData: map[string]string{".dockerconfigjson": `{"auths":`}},
			`data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": unexpected end of JSON input`},
		{corev1.Secret{Type: corev1.SecretTypeBasicAuth}, `data[username]: Required value; data[password]: Required value`},
		{corev1.Secret{Type: corev1.SecretTypeServiceAccountToken}, `metadata.annotations[kubernetes.io/service-account.name]: Required value`},
		{corev1.Secret{StringData: map[string]string{"big": strings.Repeat("x", 1<<20+1)}}, `data: Too long: may not be more than 1048576 bytes`},
		{corev1.Secret{StringData: map[string]string{"ok": "x"}}, ``},
	} {
		s := tc.s
		s.ObjectMeta = meta
		NormalizeSecret(&s)
		if got := joined(Secret(&s)); got != tc.want {
			t.Errorf("secret %s: got %s, want %s", tc.s.Type, got, tc.want)
		}
	}
}

func TestClaimSpec(t *testing.T) {
	fs := corev1.PersistentVolumeMode("Raw")
	group := "snapshot.storage.k8s.io"
	for _, tc := range []struct {
		name string
		spec corev1.PersistentVolumeClaimSpec
		want string
	}{
		{"empty", corev1.PersistentVolumeClaimSpec{}, `spec.accessModes: Required value: at least 1 access mode is required; spec.resources[storage]: Required value`},
		{"mode and volumeMode", corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{"RWO"}, VolumeMode: &fs,
			Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{"storage": mustQ("0")}}},
			`spec.accessModes: Unsupported value: "RWO": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"; spec.resources[storage]: Invalid value: "0": must be greater than zero; spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"`},
		{"dataSourceRef kind", corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{"ReadWriteOnce"},
			Resources:     corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{"storage": mustQ("1Gi")}},
			DataSourceRef: &corev1.TypedObjectReference{Kind: "VolumeSnapshot", Name: "s"}},
			`spec.dataSource: Invalid value: "VolumeSnapshot": must be 'PersistentVolumeClaim' when referencing the default apiGroup; spec.dataSourceRef: Invalid value: "VolumeSnapshot": must be 'PersistentVolumeClaim' when referencing the default apiGroup`},
		{"dataSource dropped", corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{"ReadWriteOnce"},
			Resources:  corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{"storage": mustQ("1Gi")}},
			DataSource: &corev1.TypedLocalObjectReference{Kind: "VolumeSnapshot", Name: "s"}}, ``},
		{"snapshot kept", corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{"ReadWriteOnce"},
			Resources:  corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{"storage": mustQ("1Gi")}},
			DataSource: &corev1.TypedLocalObjectReference{APIGroup: &group, Kind: "VolumeSnapshot", Name: ""}},
			`spec.dataSource.name: Required value; spec.dataSourceRef.name: Required value`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := tc.spec
			PrepareClaimForCreate(&spec)
			if got := joined(PersistentVolumeClaimSpec(&spec, field.NewPath("spec"), CreateClaimOptions())); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestService(t *testing.T) {
	local := corev1.ServiceInternalTrafficPolicyCluster
	base := func() *corev1.Service {
		return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"}, Spec: corev1.ServiceSpec{
			Type: corev1.ServiceTypeClusterIP, SessionAffinity: corev1.ServiceAffinityNone, InternalTrafficPolicy: &local,
			ClusterIP: "10.96.0.10", ClusterIPs: []string{"10.96.0.10"}, IPFamilies: []corev1.IPFamily{corev1.IPv4Protocol},
			Ports: []corev1.ServicePort{{Name: "a", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(80)}}}}
	}
	for _, tc := range []struct {
		name   string
		mutate func(*corev1.Service)
		want   string
	}{
		{"valid", func(*corev1.Service) {}, ""},
		{"digit name relaxed", func(s *corev1.Service) { s.Name = "1web" }, ""},
		{"dotted name", func(s *corev1.Service) { s.Name = "web.v2" }, `metadata.name: Invalid value: "web.v2": must not contain dots`},
		{"port 0, duplicate names, no name", func(s *corev1.Service) {
			s.Spec.Ports = append(s.Spec.Ports, corev1.ServicePort{Name: "a", Port: 0, Protocol: "TCP", TargetPort: intstr.FromString("http_x")}, corev1.ServicePort{Port: 80, Protocol: "TCP", TargetPort: intstr.FromInt32(80)})
		}, `spec.ports[1].name: Duplicate value: "a"; spec.ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive; spec.ports[1].targetPort: Invalid value: "http_x": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-); spec.ports[2].name: Required value; spec.ports[2]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}`},
		{"nodePort on ClusterIP", func(s *corev1.Service) { s.Spec.Ports[0].NodePort = 30080 }, "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"},
		{"session affinity", func(s *corev1.Service) { s.Spec.SessionAffinity = "Sticky" }, `spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"`},
		{"source ranges", func(s *corev1.Service) { s.Spec.LoadBalancerSourceRanges = []string{"10.0.0.0/33"} },
			"spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'; spec.LoadBalancerSourceRanges[0]: Invalid value: \"10.0.0.0/33\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"},
		{"externalTrafficPolicy", func(s *corev1.Service) { s.Spec.ExternalTrafficPolicy = "Local" },
			`spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := base()
			tc.mutate(s)
			if got := joined(Service(s, ServiceOptions{RelaxedNames: true})); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func mustQ(s string) resource.Quantity { return resource.MustParse(s) }

// TestManagedFieldsOnCreate: managedFields the field manager cannot decode are
// replaced before validation, so only decodable entries are validated (VAL-03).
func TestManagedFieldsOnCreate(t *testing.T) {
	fields := func(raw string) *metav1.FieldsV1 { return &metav1.FieldsV1{Raw: []byte(raw)} }
	long := strings.Repeat("m", 129)
	tests := []struct {
		name string
		mf   []metav1.ManagedFieldsEntry
		want []string
	}{
		{"operation lowercase: replaced", []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: "apply", APIVersion: "v1", FieldsType: "FieldsV1"}}, nil},
		{"no fieldsType: replaced", []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: "Update", APIVersion: "v1"}}, nil},
		{"no apiVersion: replaced", []metav1.ManagedFieldsEntry{{Manager: long, Operation: "Update", FieldsType: "FieldsV1"}}, nil},
		{"fieldsV1 not a field set: replaced", []metav1.ManagedFieldsEntry{{Manager: long, Operation: "Update", APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: fields(`{"f:metadata":1}`)}}, nil},
		{"one bad entry replaces all", []metav1.ManagedFieldsEntry{{Manager: long, Operation: "Update", APIVersion: "v1", FieldsType: "FieldsV1"},
			{Manager: "x", Operation: "Patch", APIVersion: "v1", FieldsType: "FieldsV1"}}, nil},
		{"reset form", []metav1.ManagedFieldsEntry{{}}, nil},
		{"decodable, manager too long", []metav1.ManagedFieldsEntry{{Manager: long, Operation: "Update", APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: fields(`{"f:metadata":{"f:labels":{}}}`)}},
			[]string{`metadata.managedFields[0].manager: Too long: may not be more than 128 bytes`}},
		{"decodable, subresource too long", []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: "Apply", APIVersion: "v1", FieldsType: "FieldsV1", Subresource: strings.Repeat("s", 257)}},
			[]string{`metadata.managedFields[0].subresource: Too long: may not be more than 256 bytes`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &metav1.ObjectMeta{Name: "cm", Namespace: "ns", ManagedFields: tt.mf}
			var got []string
			for _, e := range validateObjectMeta(m) {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}
