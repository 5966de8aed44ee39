package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/component-base/compatibility"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/plugin/pkg/admission/security/podsecurity"

	"github.com/limitcheck/limitcheck/internal/eval"
)

// requester is the user of every request: the PodSecurity plugin reads the
// user name (for its exemptions, none by default).
var requester = &user.DefaultInfo{Name: "limitcheck"}

// podSecurityInit gives upstream's PodSecurity plugin what kube-apiserver
// gives it: informers, a client, the effective version.
type podSecurityInit struct {
	client  *fake.Clientset
	factory informers.SharedInformerFactory
}

func (i podSecurityInit) Initialize(p admission.Interface) {
	ps := p.(*podsecurity.Plugin)
	// The version first: the others build the plugin's delegate once all
	// three are known.
	ps.InspectEffectiveVersion(compatibility.NewEffectiveVersionFromString("1.36", "", ""))
	ps.SetExternalKubeInformerFactory(i.factory)
	ps.SetExternalKubeClientSet(i.client)
}

// newPodSecurityPlugin is upstream's PodSecurity admission plugin (PS-01)
// with its default configuration, over a cluster where every namespace
// exists, with the labels labels gives it (none for a namespace the case
// does not create). Its informers are never started: every lookup reaches
// the client.
func newPodSecurityPlugin(labels func(namespace string) map[string]string) (admission.ValidationInterface, error) {
	client := fake.NewSimpleClientset()
	client.PrependReactor("get", "namespaces", func(action k8stesting.Action) (bool, runtime.Object, error) {
		name := action.(k8stesting.GetAction).GetName()
		return true, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels(name)}}, nil
	})
	plugins := admission.NewPlugins()
	podsecurity.Register(plugins)
	p, err := plugins.InitPlugin(podsecurity.PluginName, nil, podSecurityInit{client: client, factory: informers.NewSharedInformerFactory(client, 0)})
	if err != nil {
		return nil, err
	}
	return p.(admission.ValidationInterface), nil
}

var (
	namespaceCheckOnce sync.Once
	namespaceCheck     admission.ValidationInterface
	namespaceCheckErr  error
)

// validateNamespaceLabels is the PodSecurity plugin on a Namespace create
// (stateless: a create looks no namespace up).
func validateNamespaceLabels(ns *api.Namespace) error {
	namespaceCheckOnce.Do(func() {
		namespaceCheck, namespaceCheckErr = newPodSecurityPlugin(func(string) map[string]string { return nil })
	})
	if namespaceCheckErr != nil {
		return namespaceCheckErr
	}
	attrs := admission.NewAttributesRecord(ns, nil, api.Kind("Namespace").WithVersion("v1"), "", ns.Name,
		api.Resource("namespaces").WithVersion("v1"), "", admission.Create, &metav1.CreateOptions{}, false, requester)
	return namespaceCheck.Validate(context.Background(), attrs, nil)
}

// IsNamespaceDoc reports whether a document is a v1 Namespace: like the
// cluster classes it applies to the whole run (check.go admits Namespaces
// with the policies, PS-01).
func IsNamespaceDoc(doc []byte) bool {
	var tm metav1.TypeMeta
	return json.Unmarshal(doc, &tm) == nil && tm.APIVersion == "v1" && tm.Kind == "Namespace"
}

// AddNamespace creates a Namespace document on both sides before anything
// else, as check.go does: upstream's create path (defaulting, validation,
// the PodSecurity plugin) decides whether the namespace exists with its
// labels; limitcheck's engine admits the same document. It returns an
// error when the two disagree on the verdict.
func AddNamespace(u *Upstream, e *eval.Engine, doc []byte) error {
	want, err := upstreamClusterCreate(doc, "Namespace")
	if err != nil {
		return err
	}
	got, err := Mine(e, doc)
	if err != nil {
		return err
	}
	v1 := &corev1.Namespace{}
	if err := json.Unmarshal(doc, v1); err != nil {
		return err
	}
	legacyscheme.Scheme.Default(v1)
	// Storage refuses a second namespace of a name, and one every cluster
	// has, with a 409 (ST-01): it keeps the labels it has.
	_, exists := u.nsLabels[v1.Name]
	switch v1.Name {
	case "default", "kube-system", "kube-public", "kube-node-lease":
		exists = true
	}
	if want.allowed && exists {
		return checkSame(false, "already exists", got)
	}
	if err := checkSame(want.allowed, want.message, got); err != nil {
		return err
	}
	if !want.allowed {
		// Not created, unless every cluster has it (NS-03).
		switch v1.Name {
		case "default", "kube-system", "kube-public", "kube-node-lease":
		default:
			if u.refusedNamespaces == nil {
				u.refusedNamespaces = map[string]bool{}
			}
			u.refusedNamespaces[v1.Name] = true
		}
		return nil
	}
	if u.nsLabels == nil {
		u.nsLabels = map[string]map[string]string{}
	}
	u.nsLabels[v1.Name] = v1.Labels
	return nil
}

// checkSame compares the verdicts of a Namespace's create.
func checkSame(allowed bool, message string, got eval.Result) error {
	if allowed != (got.Denial == nil) {
		mine := ""
		if got.Denial != nil {
			mine = got.Denial.Message
		}
		return fmt.Errorf("Namespace: upstream allowed %v (%s), limitcheck allowed %v (%s)", allowed, message, got.Denial == nil, mine)
	}
	return nil
}
