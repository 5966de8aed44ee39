package eval

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/limitcheck/limitcheck/internal/eval/classes"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// admitServiceAccount is the ServiceAccount admission plugin (PL-11),
// mutating, after LimitRanger and before Priority: a Pod without a service
// account gets default (so validation sees it), then the account is looked
// up: a name that is not a DNS subdomain names no ServiceAccount of any
// cluster, so the lookup fails; other names are taken on trust (the
// cluster's ServiceAccounts are unknown offline). A mirror Pod is left alone.
func admitServiceAccount(ns string, pod *corev1.Pod) *status.Denial {
	name, ok := podAccount(pod)
	if !ok {
		return nil
	}
	pod.Spec.ServiceAccountName = name
	if len(namecheck.IsDNS1123Subdomain(name)) == 0 {
		return nil
	}
	return accountNotFound(ns, name, pod)
}

// podAccount is the service account the plugin looks up for pod, false for
// a mirror Pod, which it leaves alone.
func podAccount(pod *corev1.Pod) (string, bool) {
	if _, mirror := pod.Annotations[corev1.MirrorPodAnnotationKey]; mirror {
		return "", false
	}
	name := pod.Spec.ServiceAccountName
	if name == "" {
		name = pod.Spec.DeprecatedServiceAccount
	}
	if name == "" {
		name = "default"
	}
	return name, true
}

// accountNotFound is the plugin's denial of pod, whose service account
// name does not exist in namespace ns.
func accountNotFound(ns, name string, pod *corev1.Pod) *status.Denial {
	notFound := apierrors.NewNotFound(corev1.Resource("serviceaccount"), name)
	err := fmt.Errorf("error looking up service account %s/%s: %w", ns, name, notFound)
	return status.Forbidden(status.StageServiceAccount, corev1.Resource("pods"), classes.RequestName(&pod.ObjectMeta), []error{err})
}

// refusedAccount is the plugin's denial of pod when its service account is
// one the input tried to create in ns and kube-apiserver refused (and no
// later one of that name was created): the account does not exist, so the
// lookup fails before anything else of the Pod is checked (PL-11).
func (ns *namespaceState) refusedAccount(pod *corev1.Pod) *status.Denial {
	if len(ns.refusedAccounts) == 0 {
		return nil
	}
	name, ok := podAccount(pod)
	if !ok || !ns.refusedAccounts[name] {
		return nil
	}
	return accountNotFound(ns.name, name, pod)
}

// noteAccount records the outcome of the input's ServiceAccount name in ns:
// refused (but not for its name being taken: that one exists) or created.
func (ns *namespaceState) noteAccount(name string, refused, exists bool) {
	switch {
	case refused && !exists:
		if ns.refusedAccounts == nil {
			ns.refusedAccounts = map[string]bool{}
		}
		ns.refusedAccounts[name] = true
	default:
		delete(ns.refusedAccounts, name)
	}
}

var serviceAccountsResource = corev1.Resource("serviceaccounts")

// assumed is what the admitted pod names that the run takes on trust
// (Result.Assumed): its service account unless the input created it (or it
// is default, which every namespace has), its classes when the input has
// none of their kind.
func (e *Engine) assumed(ns *namespaceState, pod *corev1.Pod) []Reference {
	var refs []Reference
	if name, ok := podAccount(pod); ok && name != "default" && !ns.stored.has(e.resourceID(serviceAccountsResource), name) &&
		!e.inputAccounts[Reference{Kind: "ServiceAccount", Namespace: ns.name, Name: name}] {
		refs = append(refs, Reference{Kind: "ServiceAccount", Namespace: ns.name, Name: name})
	}
	priority, runtime := e.classes.Trusted(pod)
	if priority != "" {
		refs = append(refs, Reference{Kind: "PriorityClass", Name: priority})
	}
	if runtime != "" {
		refs = append(refs, Reference{Kind: "RuntimeClass", Name: runtime})
	}
	return refs
}
