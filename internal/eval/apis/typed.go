package apis

import (
	"sync"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	networkingv1 "k8s.io/api/networking/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	resourcev1 "k8s.io/api/resource/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// typedScheme holds the Go types of the GA versions of the built-in groups
// (k8s.io/api), the shapes kube-apiserver decodes a request body into. It is
// made when a document first needs it: making it took 2 ms, which every run,
// a one-Pod check included, paid at start-up.
var typedScheme = sync.OnceValue(func() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		admissionregistrationv1.AddToScheme, appsv1.AddToScheme, autoscalingv1.AddToScheme,
		autoscalingv2.AddToScheme, batchv1.AddToScheme, certificatesv1.AddToScheme,
		coordinationv1.AddToScheme, corev1.AddToScheme, discoveryv1.AddToScheme,
		eventsv1.AddToScheme, flowcontrolv1.AddToScheme, networkingv1.AddToScheme,
		nodev1.AddToScheme, policyv1.AddToScheme, rbacv1.AddToScheme, resourcev1.AddToScheme,
		schedulingv1.AddToScheme, storagev1.AddToScheme,
	} {
		if err := add(s); err != nil {
			panic(err)
		}
	}
	return s
})

// Typed returns an empty Go object of apiVersion/kind when it is a built-in
// kind served by default whose version's types limitcheck carries (the GA
// versions), else nil. kube-apiserver decodes a body into this type, strictly
// under kubectl's default field validation: a field the type does not have
// is a 400 (strict decoding error), as a value of the wrong JSON type is.
func Typed(apiVersion, kind string) runtime.Object {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil
	}
	gvk := gv.WithKind(kind)
	if k, ok := builtinByGVK[gvk]; !ok || k.Disabled {
		return nil
	}
	obj, err := typedScheme().New(gvk)
	if err != nil {
		return nil
	}
	return obj
}
