package conformance

import (
	"bytes"
	"context"
	"io"
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
	api "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/plugin/pkg/admission/security/podsecurity"
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
	return newPodSecurityPluginWith(labels, nil)
}

// SetPodSecurityConfig gives the PodSecurity plugin a configuration
// (PS-04): a PodSecurityConfiguration document, as the plugin's entry of an
// AdmissionConfiguration holds it.
func (u *Upstream) SetPodSecurityConfig(config []byte) error {
	p, err := newPodSecurityPluginWith(func(ns string) map[string]string { return u.nsLabels[ns] }, config)
	if err != nil {
		return err
	}
	u.podSecurity = p
	return nil
}

// newPodSecurityPluginWith is newPodSecurityPlugin with a configuration (nil:
// the default).
func newPodSecurityPluginWith(labels func(namespace string) map[string]string, config []byte) (admission.ValidationInterface, error) {
	client := fake.NewSimpleClientset()
	client.PrependReactor("get", "namespaces", func(action k8stesting.Action) (bool, runtime.Object, error) {
		name := action.(k8stesting.GetAction).GetName()
		return true, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels(name)}}, nil
	})
	plugins := admission.NewPlugins()
	podsecurity.Register(plugins)
	var reader io.Reader
	if config != nil {
		reader = bytes.NewReader(config)
	}
	p, err := plugins.InitPlugin(podsecurity.PluginName, reader, podSecurityInit{client: client, factory: informers.NewSharedInformerFactory(client, 0)})
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
