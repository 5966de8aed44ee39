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
	if _, mirror := pod.Annotations[corev1.MirrorPodAnnotationKey]; mirror {
		return nil
	}
	name := pod.Spec.ServiceAccountName
	if name == "" {
		name = pod.Spec.DeprecatedServiceAccount
	}
	if name == "" {
		name = "default"
	}
	pod.Spec.ServiceAccountName = name
	if len(namecheck.IsDNS1123Subdomain(name)) == 0 {
		return nil
	}
	notFound := apierrors.NewNotFound(corev1.Resource("serviceaccount"), name)
	err := fmt.Errorf("error looking up service account %s/%s: %w", ns, name, notFound)
	return status.Forbidden(status.StageServiceAccount, corev1.Resource("pods"), classes.RequestName(&pod.ObjectMeta), []error{err})
}
