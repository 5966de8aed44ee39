package eval

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/limitcheck/limitcheck/internal/eval/status"
)

// TestLegacyEventValidation: VAL-06. A core v1 Event whose involvedObject has
// no namespace may live only in namespace default; with one, the two agree.
// The legacy checks come before (and instead of) the metadata check.
func TestLegacyEventValidation(t *testing.T) {
	cases := []struct {
		name, ns, doc, want string
	}{
		{"no involvedObject namespace, namespace team-a", "team-a",
			"apiVersion: v1\nkind: Event\nmetadata: {name: e1}\ninvolvedObject: {kind: Pod, name: p}",
			`Event "e1" is invalid: involvedObject.namespace: Invalid value: "": does not match event.namespace`},
		{"no involvedObject namespace, namespace default", "default",
			"apiVersion: v1\nkind: Event\nmetadata: {name: e2}", ""},
		{"involvedObject in another namespace", "team-a",
			"apiVersion: v1\nkind: Event\nmetadata: {name: e3}\ninvolvedObject: {kind: Pod, name: p, namespace: team-b}",
			`Event "e3" is invalid: involvedObject.namespace: Invalid value: "team-b": does not match event.namespace`},
		{"involvedObject in the same namespace", "team-a",
			"apiVersion: v1\nkind: Event\nmetadata: {name: e4}\ninvolvedObject: {kind: Pod, name: p, namespace: team-a}", ""},
		{"legacy error before a metadata error", "team-a",
			"apiVersion: v1\nkind: Event\nmetadata: {name: e5, labels: {'bad key!': x}}",
			`Event "e5" is invalid: involvedObject.namespace: Invalid value: "": does not match event.namespace`},
		{"eventTime set: the reporting fields are required", "default",
			"apiVersion: v1\nkind: Event\nmetadata: {name: e6}\neventTime: '2026-01-02T03:04:05.000000Z'",
			`Event "e6" is invalid: [reportingComponent: Required value, reportingComponent: Invalid value: "": name part must be non-empty, reportingComponent: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), reportingInstance: Required value, action: Required value, reason: Required value]`},
	}
	for _, c := range cases {
		e := New(Options{DefaultNamespace: c.ns})
		res := e.Admit(decode(t, c.doc))
		got := ""
		if res.Denial != nil {
			got = res.Denial.Message
		}
		if got != c.want || res.Allowed != (c.want == "") {
			t.Errorf("%s: got %q (allowed %v), want %q", c.name, got, res.Allowed, c.want)
		}
	}
}

// TestServiceAccountLookup: PL-11. A Pod naming a service account no cluster
// can have is refused by the ServiceAccount plugin before validation (and
// before Priority); other names are taken on trust.
func TestServiceAccountLookup(t *testing.T) {
	e := New(Options{DefaultNamespace: "team-a"})
	res := e.Admit(decode(t, `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  serviceAccountName: sa..x
  priorityClassName: missing
  containers: [{name: c, image: "i:1", resources: {requests: {cpu: "-1"}}}]`))
	want := `pods "p" is forbidden: error looking up service account team-a/sa..x: serviceaccount "sa..x" not found`
	if res.Denial == nil || res.Denial.Message != want || res.Denial.Code != 403 || res.Denial.Stage != "serviceaccount" {
		t.Errorf("got %+v, want 403 %q", res.Denial, want)
	}
	res = e.Admit(decode(t, "apiVersion: v1\nkind: Pod\nmetadata: {generateName: web-}\nspec:\n  serviceAccountName: Builder\n  containers: [{name: c, image: \"i:1\"}]"))
	want = `pods "web-" is forbidden: error looking up service account team-a/Builder: serviceaccount "Builder" not found`
	if res.Denial == nil || res.Denial.Message != want {
		t.Errorf("generateName: got %+v, want %q", res.Denial, want)
	}
	res = e.Admit(decode(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: q}\nspec:\n  serviceAccountName: builder\n  containers: [{name: c, image: \"i:1\"}]"))
	if !res.Allowed {
		t.Errorf("a valid service account name: %+v, want admitted (trusted)", res.Denial)
	}
}

// TestServiceAccountRefused: PL-11. A ServiceAccount of the input that
// kube-apiserver refuses does not exist: a Pod that names it, the input's or
// a controller's, is refused by the lookup before anything else is checked,
// until one of that name is created. One refused because its name is taken
// exists.
func TestServiceAccountRefused(t *testing.T) {
	e := New(Options{DefaultNamespace: "team-a"})
	admit := func(doc string) Result { t.Helper(); return e.Admit(decode(t, doc)) }
	if res := admit("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: app, labels: {\"a b\": x}}"); res.Allowed {
		t.Fatal("app: admitted, want refused for its label")
	}
	if res := admit("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: taken}"); !res.Allowed {
		t.Fatalf("taken: %+v, want admitted", res.Denial)
	}
	if res := admit("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: taken}"); res.Allowed {
		t.Fatal("taken again: admitted, want AlreadyExists")
	}
	// The Pod's own error (a negative request) comes after the lookup.
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  serviceAccountName: %s\n  containers: [{name: c, image: \"i:1\", resources: {requests: {cpu: \"-1\"}}}]"
	res := admit(fmt.Sprintf(pod, "app"))
	want := `pods "p" is forbidden: error looking up service account team-a/app: serviceaccount "app" not found`
	if res.Denial == nil || res.Denial.Message != want || res.Denial.Stage != status.StageServiceAccount {
		t.Errorf("Pod naming the refused account: got %+v, want %q", res.Denial, want)
	}
	res = admit("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {serviceAccount: app, containers: [{name: c, image: \"i:1\"}]}")
	if res.Workload == nil || len(res.Workload.Created) == 0 || res.Workload.Admitted != 0 {
		t.Fatalf("Deployment: got %+v, want its Pod refused", res.Workload)
	}
	var podDenial *status.Denial
	for _, c := range res.Workload.Created {
		if c.Kind == "Pod" {
			podDenial = c.Denial
		}
	}
	suffix := `-" is forbidden: error looking up service account team-a/app: serviceaccount "app" not found`
	if podDenial == nil || !strings.HasPrefix(podDenial.Message, `pods "web-`) || !strings.HasSuffix(podDenial.Message, suffix) {
		t.Errorf("the Deployment's Pod: got %+v, want pods \"web-<hash>%s", podDenial, suffix)
	}
	if res := admit(fmt.Sprintf(pod, "taken")); res.Denial == nil || res.Denial.Stage != status.StageValidation {
		t.Errorf("Pod naming the account that exists: got %+v, want refused by validation, after the lookup", res.Denial)
	}
	if res := admit("apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: app}"); !res.Allowed {
		t.Fatalf("app again, valid: %+v, want admitted", res.Denial)
	}
	if res := admit(fmt.Sprintf(pod, "app")); res.Denial == nil || res.Denial.Stage != status.StageValidation {
		t.Errorf("Pod naming the account once created: got %+v, want refused by validation", res.Denial)
	}
}

// TestAccountRefusedInOrder: PL-11. In input order, a ServiceAccount of the
// input whose document is still to come is not created yet; one whose
// document came and was refused is not that either (it is not to come): a
// Pod naming it is refused by the lookup all the same.
func TestAccountRefusedInOrder(t *testing.T) {
	e := New(Options{DefaultNamespace: "team-a", AccountsInOrder: true, CreatedAccounts: []Reference{
		{Kind: "ServiceAccount", Namespace: "team-a", Name: "bad"},
		{Kind: "ServiceAccount", Namespace: "team-a", Name: "later"},
	}})
	if res := e.Admit(decode(t, "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: bad, labels: {\"a b\": c}}")); res.Allowed {
		t.Fatal("bad: admitted, want refused for its label")
	}
	for _, tc := range []struct {
		account     string
		notYetThere bool
	}{{"bad", false}, {"later", true}} {
		if got := e.AccountNotYetCreated("team-a", tc.account); got != tc.notYetThere {
			t.Errorf("AccountNotYetCreated(%s) = %v, want %v", tc.account, got, tc.notYetThere)
		}
		res := e.Admit(decode(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: p-"+tc.account+"}\nspec:\n  serviceAccountName: "+tc.account+"\n  containers: [{name: c, image: i}]"))
		want := `pods "p-` + tc.account + `" is forbidden: error looking up service account team-a/` + tc.account + `: serviceaccount "` + tc.account + `" not found`
		if res.Denial == nil || res.Denial.Message != want || res.Denial.Stage != status.StageServiceAccount {
			t.Errorf("Pod naming %s: got %+v, want %q", tc.account, res.Denial, want)
		}
	}
}

// TestMountableSecrets: PL-11. A ServiceAccount of the input annotated
// kubernetes.io/enforce-mountable-secrets: "true" limits its Pods to the
// secrets it lists, in the plugin's order and words; "false" limits nothing.
func TestMountableSecrets(t *testing.T) {
	engine := func(t *testing.T) *Engine {
		e := New(Options{DefaultNamespace: "team-a"})
		for _, sa := range []string{
			"apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: locked, annotations: {kubernetes.io/enforce-mountable-secrets: \"true\"}}\nsecrets: [{name: allowed}]\nimagePullSecrets: [{name: pull}]",
			"apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: open, annotations: {kubernetes.io/enforce-mountable-secrets: \"false\"}}",
		} {
			if res := e.Admit(decode(t, sa)); !res.Allowed {
				t.Fatalf("ServiceAccount: %+v", res.Denial)
			}
		}
		return e
	}
	pod := func(sa, spec string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  serviceAccountName: " + sa + "\n" + spec
	}
	for _, tc := range []struct{ name, doc, want string }{
		{"listed volume", pod("locked", "  containers: [{name: c, image: i}]\n  volumes: [{name: s, secret: {secretName: allowed}}]"), ""},
		{"unlisted volume", pod("locked", "  containers: [{name: c, image: i}]\n  volumes: [{name: s, secret: {secretName: other}}]"),
			`pods "p" is forbidden: volume with secret.secretName="other" is not allowed because service account locked does not reference that secret`},
		{"init container env, before the container's", pod("locked", "  initContainers: [{name: i, image: i, env: [{name: A, valueFrom: {secretKeyRef: {name: x, key: k}}}]}]\n  containers: [{name: c, image: i, envFrom: [{secretRef: {name: z}}]}]"),
			`pods "p" is forbidden: init container i with envVar A referencing secret.secretName="x" is not allowed because service account locked does not reference that secret`},
		{"image pull secret", pod("locked", "  imagePullSecrets: [{name: pull}, {name: other}]\n  containers: [{name: c, image: i}]"),
			`pods "p" is forbidden: imagePullSecrets[1].name="other" is not allowed because service account locked does not reference that imagePullSecret`},
		{"before a later stage's refusal", pod("locked", "  containers: [{name: c, image: i, envFrom: [{secretRef: {name: z}}], resources: {requests: {cpu: \"-1\"}}}]"),
			`pods "p" is forbidden: container c with envFrom referencing secret.secretName="z" is not allowed because service account locked does not reference that secret`},
		{"not enforced", pod("open", "  containers: [{name: c, image: i}]\n  volumes: [{name: s, secret: {secretName: other}}]"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := engine(t).Admit(decode(t, tc.doc))
			switch {
			case tc.want == "" && !res.Allowed:
				t.Errorf("got %+v, want admitted", res.Denial)
			case tc.want != "" && (res.Denial == nil || res.Denial.Message != tc.want || res.Denial.Stage != status.StageServiceAccount):
				t.Errorf("got %+v\nwant %s", res.Denial, tc.want)
			}
		})
	}
}

// TestAccountPullSecrets: PL-11. A Pod that lists no image pull secrets gets
// those of its account, when the input's ServiceAccount lists some, before
// its create warnings are made: an empty or duplicate name the account lists
// is warned about on the Pod. A Pod with its own, a mirror Pod, or one of
// another account gets none.
func TestAccountPullSecrets(t *testing.T) {
	secrets := map[Reference][]corev1.LocalObjectReference{
		{Kind: "ServiceAccount", Namespace: "team-a", Name: "puller"}: {{Name: "regcred"}, {Name: ""}, {Name: "regcred"}},
	}
	pod := func(spec string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n" + spec + "  containers: [{name: c, image: i}]\n"
	}
	for _, tc := range []struct {
		name, doc string
		want      []string
	}{
		{"the account's", pod("  serviceAccountName: puller\n"), []string{
			`spec.imagePullSecrets[2].name: duplicate name "regcred"`,
			`spec.imagePullSecrets[1].name: invalid empty name ""`,
		}},
		{"the account's, named by the deprecated field", pod("  serviceAccount: puller\n  hostAliases: [{ip: 1.1.1.1, hostnames: [a]}, {ip: 1.1.1.1, hostnames: [b]}]\n"), []string{
			`spec.hostAliases[1].ip: duplicate ip "1.1.1.1"`,
			`spec.imagePullSecrets[2].name: duplicate name "regcred"`,
			`spec.imagePullSecrets[1].name: invalid empty name ""`,
		}},
		{"its own", pod("  serviceAccountName: puller\n  imagePullSecrets: [{name: mine}]\n"), nil},
		{"another account", pod("  serviceAccountName: builder\n"), nil},
		{"a mirror Pod", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, annotations: {kubernetes.io/config.mirror: x}}\nspec:\n  nodeName: n1\n  containers: [{name: c, image: i}]\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "team-a", AccountPullSecrets: secrets})
			res := e.Admit(decode(t, tc.doc))
			if !res.Allowed {
				t.Fatalf("got %+v, want admitted", res.Denial)
			}
			if !slices.Equal(res.APIWarnings, tc.want) {
				t.Errorf("warnings:\n got %q\nwant %q", res.APIWarnings, tc.want)
			}
		})
	}
}

// TestMirrorPodReferences: PL-11. The plugin gives a mirror Pod no account
// but refuses one that names an account, then one that names a secret
// anywhere the pod utilities look (empty names do not count), then a
// projected service account token; before validation and Priority, under
// the name before generation. Compared with kube-apiserver 1.36.3.
func TestMirrorPodReferences(t *testing.T) {
	pod := func(meta, spec string) string {
		return "apiVersion: v1\nkind: Pod\nmetadata: {" + meta + ", annotations: {kubernetes.io/config.mirror: x}}\nspec:\n  nodeName: n1\n" + spec
	}
	const c = "  containers: [{name: c, image: x}]\n"
	for _, tc := range []struct{ name, doc, want string }{
		{"deprecated serviceAccount, before validation", pod("name: n1", "  serviceAccount: legacy\n  containers: [{name: c, image: x, resources: {requests: {cpu: \"-1\"}}}]\n"),
			`pods "n1" is forbidden: a mirror pod may not reference service accounts`},
		{"empty pull secret name", pod("name: n2", "  imagePullSecrets: [{name: \"\"}]\n"+c), ""},
		{"projected token", pod("name: n3", "  volumes: [{name: t, projected: {sources: [{serviceAccountToken: {path: t}}]}}]\n"+c),
			`pods "n3" is forbidden: a mirror pod may not use ServiceAccountToken volume projections`},
		{"CSI node publish secret", pod("name: n4", "  volumes: [{name: t, csi: {driver: d.example.com, nodePublishSecretRef: {name: s}}}]\n"+c),
			`pods "n4" is forbidden: a mirror pod may not reference secrets`},
		{"pull secret, before Priority", pod("name: n5", "  priorityClassName: no-such-class\n  imagePullSecrets: [{name: reg}]\n"+c),
			`pods "n5" is forbidden: a mirror pod may not reference secrets`},
		{"init container env, generated name", pod("generateName: n6-", "  initContainers: [{name: i, image: x, env: [{name: A, valueFrom: {secretKeyRef: {name: s, key: k}}}]}]\n"+c),
			`pods "n6-" is forbidden: a mirror pod may not reference secrets`},
		{"secrets before the token", pod("name: n7", "  volumes: [{name: t, projected: {sources: [{serviceAccountToken: {path: t}}, {secret: {name: s}}]}}]\n"+c),
			`pods "n7" is forbidden: a mirror pod may not reference secrets`},
		{"envFrom", pod("name: n8", "  containers: [{name: c, image: x, envFrom: [{secretRef: {name: s}}]}]\n"),
			`pods "n8" is forbidden: a mirror pod may not reference secrets`},
		{"config maps and host paths", pod("name: n9", "  volumes: [{name: h, hostPath: {path: /etc}}, {name: p, projected: {sources: [{configMap: {name: x}}]}}]\n"+c), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := New(Options{DefaultNamespace: "team-a"}).Admit(decode(t, tc.doc))
			switch {
			case tc.want == "" && !res.Allowed:
				t.Errorf("got %+v, want admitted", res.Denial)
			case tc.want != "" && (res.Denial == nil || res.Denial.Message != tc.want || res.Denial.Code != 403 || res.Denial.Stage != status.StageServiceAccount):
				t.Errorf("got %+v\nwant 403 %s", res.Denial, tc.want)
			}
		})
	}
}

// TestServiceAccountDefault: PL-11. The plugin sets serviceAccountName to
// default before validation, so a projected token is accepted.
func TestServiceAccountDefault(t *testing.T) {
	e := New(Options{DefaultNamespace: "team-a"})
	res := e.Admit(decode(t, `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: "i:1", volumeMounts: [{name: t, mountPath: /var/run/t}]}]
  volumes:
  - name: t
    projected: {sources: [{serviceAccountToken: {path: token, expirationSeconds: 3600}}]}`))
	if !res.Allowed {
		t.Errorf("got %+v, want admitted: the Pod runs as default", res.Denial)
	}
}

// TestClaimProtectionFinalizer: ST-02. Every new claim gets the protection
// finalizer before validation, whose finalizer errors list it.
func TestClaimProtectionFinalizer(t *testing.T) {
	e := New(Options{DefaultNamespace: "team-a"})
	res := e.Admit(decode(t, `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, finalizers: [orphan, foregroundDeletion]}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}`))
	want := `PersistentVolumeClaim "data" is invalid: metadata.finalizers: Invalid value: ["orphan","foregroundDeletion","kubernetes.io/pvc-protection"]: finalizer orphan and foregroundDeletion cannot be both set`
	if res.Denial == nil || res.Denial.Message != want {
		t.Errorf("got %+v, want %q", res.Denial, want)
	}
}

// TestWorkloadBeforeItsAccount: PL-11. In input order, a Deployment whose
// Pods name a ServiceAccount the input creates later gets its Pods (its
// controller retries until the account exists) and, when they meet a quota,
// a warning that a cluster charges the objects in between first
// (kube-controller-manager 1.36.3 ran api's Pod and one of web's two under
// pods: "2"); without a quota, none.
func TestWorkloadBeforeItsAccount(t *testing.T) {
	const web = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      serviceAccountName: web\n      containers: [{name: web, image: nginx}]"
	for _, tc := range []struct {
		name  string
		quota bool
		want  []string
	}{
		{"quota", true, []string{`its Pods name ServiceAccount "web", which the input creates after this Deployment: kubectl create -f sends the Deployment first and its controller's Pods are refused (FailedCreate: error looking up service account team-a/web: serviceaccount "web" not found) until the account exists, so a quota charges the objects in between first, while limitcheck charges its Pods here; put the ServiceAccount before it (--order=policies-first checks the input as Helm and Argo CD apply it, ServiceAccounts before Pods)`}},
		{"no quota", false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "team-a", AccountsInOrder: true, CreatedAccounts: []Reference{{Kind: "ServiceAccount", Namespace: "team-a", Name: "web"}}})
			if tc.quota {
				if res := e.Admit(decode(t, "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: pods}\nspec:\n  hard: {pods: \"2\"}")); !res.Allowed {
					t.Fatalf("quota refused: %+v", res.Denial)
				}
			}
			res := e.Admit(decode(t, web))
			if !res.Allowed || res.Workload == nil || res.Workload.Admitted != 2 {
				t.Fatalf("web: allowed %v, workload %+v; want 2 Pods admitted", res.Allowed, res.Workload)
			}
			if !slices.Equal(res.Warnings, tc.want) {
				t.Errorf("warnings:\n got %q\nwant %q", res.Warnings, tc.want)
			}
		})
	}
}
