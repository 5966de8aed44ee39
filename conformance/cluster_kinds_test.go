package conformance

import (
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	networkingv1 "k8s.io/api/networking/v1"
	resourcev1 "k8s.io/api/resource/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kube-aggregator/pkg/apis/apiregistration"
	apiregistrationv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
	"k8s.io/kube-aggregator/pkg/registry/apiservice"
	"k8s.io/kubernetes/pkg/apis/admissionregistration"
	"k8s.io/kubernetes/pkg/apis/certificates"
	api "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/apis/flowcontrol"
	_ "k8s.io/kubernetes/pkg/apis/flowcontrol/install"
	"k8s.io/kubernetes/pkg/apis/networking"
	resourceinternal "k8s.io/kubernetes/pkg/apis/resource"
	"k8s.io/kubernetes/pkg/apis/storage"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/mutatingwebhookconfiguration"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/resolver"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicy"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingadmissionpolicybinding"
	"k8s.io/kubernetes/pkg/registry/admissionregistration/validatingwebhookconfiguration"
	csrregistry "k8s.io/kubernetes/pkg/registry/certificates/certificates"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolume"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/flowschema"
	"k8s.io/kubernetes/pkg/registry/flowcontrol/prioritylevelconfiguration"
	"k8s.io/kubernetes/pkg/registry/networking/ingressclass"
	"k8s.io/kubernetes/pkg/registry/resource/deviceclass"
	"k8s.io/kubernetes/pkg/registry/storage/csidriver"
	"k8s.io/kubernetes/pkg/registry/storage/csinode"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattachment"
	"k8s.io/kubernetes/pkg/registry/storage/volumeattributesclass"

	"github.com/limitcheck/limitcheck/internal/eval/features"
)

// clusterKinds are the cluster-scoped kinds the validation parity tests
// generate: their served version, the upstream types and the strategy, and
// the resource.
var clusterKinds = map[string]struct {
	apiVersion, resource string
	ext, internal        func() runtime.Object
	strategy             rest.RESTCreateStrategy
	scheme               *runtime.Scheme // defaulting and conversion; nil: legacyscheme's
}{
	"ValidatingWebhookConfiguration": {"admissionregistration.k8s.io/v1", "validatingwebhookconfigurations",
		func() runtime.Object { return &admissionregistrationv1.ValidatingWebhookConfiguration{} },
		func() runtime.Object { return &admissionregistration.ValidatingWebhookConfiguration{} }, validatingwebhookconfiguration.Strategy, nil},
	"MutatingWebhookConfiguration": {"admissionregistration.k8s.io/v1", "mutatingwebhookconfigurations",
		func() runtime.Object { return &admissionregistrationv1.MutatingWebhookConfiguration{} },
		func() runtime.Object { return &admissionregistration.MutatingWebhookConfiguration{} }, mutatingwebhookconfiguration.Strategy, nil},
	"IngressClass": {"networking.k8s.io/v1", "ingressclasses",
		func() runtime.Object { return &networkingv1.IngressClass{} },
		func() runtime.Object { return &networking.IngressClass{} }, ingressclass.Strategy, nil},
	"PersistentVolume": {"v1", "persistentvolumes",
		func() runtime.Object { return &corev1.PersistentVolume{} },
		func() runtime.Object { return &api.PersistentVolume{} }, persistentvolume.Strategy, nil},
	"Namespace": {"v1", "namespaces",
		func() runtime.Object { return &corev1.Namespace{} },
		func() runtime.Object { return &api.Namespace{} }, namespace.Strategy, nil},
	"DeviceClass": {"resource.k8s.io/v1", "deviceclasses",
		func() runtime.Object { return &resourcev1.DeviceClass{} },
		func() runtime.Object { return &resourceinternal.DeviceClass{} }, deviceclass.Strategy, nil},
	"APIService": {"apiregistration.k8s.io/v1", "apiservices",
		func() runtime.Object { return &apiregistrationv1.APIService{} },
		func() runtime.Object { return &apiregistration.APIService{} }, apiservice.NewStrategy(aggregatorScheme), aggregatorScheme},
	"CSIDriver": {"storage.k8s.io/v1", "csidrivers",
		func() runtime.Object { return &storagev1.CSIDriver{} },
		func() runtime.Object { return &storage.CSIDriver{} }, csidriver.Strategy, nil},
	"VolumeAttributesClass": {"storage.k8s.io/v1", "volumeattributesclasses",
		func() runtime.Object { return &storagev1.VolumeAttributesClass{} },
		func() runtime.Object { return &storage.VolumeAttributesClass{} }, volumeattributesclass.Strategy, nil},
	"VolumeAttachment": {"storage.k8s.io/v1", "volumeattachments",
		func() runtime.Object { return &storagev1.VolumeAttachment{} },
		func() runtime.Object { return &storage.VolumeAttachment{} }, volumeattachment.Strategy, nil},
	"CSINode": {"storage.k8s.io/v1", "csinodes",
		func() runtime.Object { return &storagev1.CSINode{} },
		func() runtime.Object { return &storage.CSINode{} }, csinode.Strategy, nil},
	"FlowSchema": {"flowcontrol.apiserver.k8s.io/v1", "flowschemas",
		func() runtime.Object { return &flowcontrolv1.FlowSchema{} },
		func() runtime.Object { return &flowcontrol.FlowSchema{} }, flowschema.Strategy, nil},
	"PriorityLevelConfiguration": {"flowcontrol.apiserver.k8s.io/v1", "prioritylevelconfigurations",
		func() runtime.Object { return &flowcontrolv1.PriorityLevelConfiguration{} },
		func() runtime.Object { return &flowcontrol.PriorityLevelConfiguration{} }, prioritylevelconfiguration.Strategy, nil},
	"ValidatingAdmissionPolicy": {"admissionregistration.k8s.io/v1", "validatingadmissionpolicies",
		func() runtime.Object { return &admissionregistrationv1.ValidatingAdmissionPolicy{} },
		func() runtime.Object { return &admissionregistration.ValidatingAdmissionPolicy{} },
		validatingadmissionpolicy.NewStrategy(nil, policyResolver), nil},
	"ValidatingAdmissionPolicyBinding": {"admissionregistration.k8s.io/v1", "validatingadmissionpolicybindings",
		func() runtime.Object { return &admissionregistrationv1.ValidatingAdmissionPolicyBinding{} },
		func() runtime.Object { return &admissionregistration.ValidatingAdmissionPolicyBinding{} },
		validatingadmissionpolicybinding.NewStrategy(nil, nil, policyResolver), nil},
	"MutatingAdmissionPolicy": {"admissionregistration.k8s.io/v1", "mutatingadmissionpolicies",
		func() runtime.Object { return &admissionregistrationv1.MutatingAdmissionPolicy{} },
		func() runtime.Object { return &admissionregistration.MutatingAdmissionPolicy{} },
		mutatingadmissionpolicy.NewStrategy(nil, policyResolver), nil},
	"MutatingAdmissionPolicyBinding": {"admissionregistration.k8s.io/v1", "mutatingadmissionpolicybindings",
		func() runtime.Object { return &admissionregistrationv1.MutatingAdmissionPolicyBinding{} },
		func() runtime.Object { return &admissionregistration.MutatingAdmissionPolicyBinding{} },
		mutatingadmissionpolicybinding.NewStrategy(nil, nil, policyResolver), nil},
	"CertificateSigningRequest": {"certificates.k8s.io/v1", "certificatesigningrequests",
		func() runtime.Object { return &certificatesv1.CertificateSigningRequest{} },
		func() runtime.Object { return &certificates.CertificateSigningRequest{} }, csrregistry.Strategy, nil},
	"CustomResourceDefinition": {"apiextensions.k8s.io/v1", "customresourcedefinitions",
		func() runtime.Object { return &apiextensionsv1.CustomResourceDefinition{} },
		func() runtime.Object { return &apiextensions.CustomResourceDefinition{} }, customresourcedefinition.NewStrategy(apiextensionsScheme), apiextensionsScheme},
}

// policyResolver resolves a paramKind as the REST mapper would; with no
// authorizer (the requester is cluster-admin) the strategies only need one
// to be there.
var policyResolver = resolver.ResourceResolverFunc(func(gvk schema.GroupVersionKind) (schema.GroupVersionResource, error) {
	return gvk.GroupVersion().WithResource(strings.ToLower(gvk.Kind) + "s"), nil
})

// upstreamClusterCreate runs kube-apiserver's code on one document of a
// clusterKinds kind: decode into the v1 type, its defaulting, conversion to
// the internal type, name generation, system fields and rest.BeforeCreate
// with the real strategy (the namespace cleared, PrepareForCreate, Validate,
// the generic metadata check).
func upstreamClusterCreate(doc []byte, kind string) (rqOutcome, error) {
	k := clusterKinds[kind]
	return upstreamTypedCreate(doc, k.ext(), k.internal(), k.strategy, k.scheme, k.apiVersion, k.resource, "")
}

// mineClusterCreate admits the same document on a fresh engine, decoded as
// the loader decodes it: by jsondec, or encoding/json where it declines. It
// also returns the denial's parts (nil when admitted).
func mineClusterCreate(doc []byte, kind string) (rqOutcome, []string, error) {
	out, d, err := mineTypedCreate(doc, clusterKinds[kind].apiVersion, kind, "ns1", features.Gates{})
	if d == nil {
		return out, nil, err
	}
	return out, d.Parts, err
}
