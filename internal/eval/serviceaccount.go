package eval

import (
	"errors"
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/limitcheck/limitcheck/internal/eval/classes"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/eval/validation"
	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// admitServiceAccount is the ServiceAccount admission plugin (PL-11),
// mutating, after LimitRanger and before Priority: a Pod without a service
// account gets default (so validation sees it), then the account is looked
// up: a name that is not a DNS subdomain names no ServiceAccount of any
// cluster, so the lookup fails; other names are taken on trust (the
// cluster's ServiceAccounts are unknown offline). A mirror Pod gets no
// account, and is refused when it names one, a secret or a projected token
// (mirrorPodReference).
func admitServiceAccount(ns string, pod *corev1.Pod) *status.Denial {
	name, ok := podAccount(pod)
	if !ok {
		if err := mirrorPodReference(pod); err != nil {
			return status.Forbidden(status.StageServiceAccount, corev1.Resource("pods"), classes.RequestName(&pod.ObjectMeta), []error{err})
		}
		return nil
	}
	pod.Spec.ServiceAccountName = name
	if len(namecheck.IsDNS1123Subdomain(name)) == 0 {
		return nil
	}
	return accountNotFound(ns, name, pod)
}

// accountPullSecrets is the plugin giving pod, which lists no image pull
// secrets, those of its account, when it is one of the input's that lists
// some (Options.AccountPullSecrets); a mirror Pod is left alone (PL-11).
func (e *Engine) accountPullSecrets(ns string, pod *corev1.Pod) {
	if len(pod.Spec.ImagePullSecrets) > 0 || len(e.opts.AccountPullSecrets) == 0 {
		return
	}
	name, ok := podAccount(pod)
	if !ok {
		return
	}
	if s := e.opts.AccountPullSecrets[Reference{Kind: "ServiceAccount", Namespace: ns, Name: name}]; len(s) > 0 {
		pod.Spec.ImagePullSecrets = make([]corev1.LocalObjectReference, len(s))
		for i := range s {
			pod.Spec.ImagePullSecrets[i].Name = s[i].Name
		}
	}
}

// mirrorPodReference is what the plugin refuses of a mirror Pod, which it
// otherwise leaves alone: a service account (none is defaulted for it), then
// any secret it names (podutil.VisitPodSecretNames: image pull secrets, every
// container's env and envFrom, the volumes that name one; empty names do
// not count), then a projected service account token (PL-11).
func mirrorPodReference(pod *corev1.Pod) error {
	if pod.Spec.ServiceAccountName != "" || pod.Spec.DeprecatedServiceAccount != "" {
		return errors.New("a mirror pod may not reference service accounts")
	}
	if namesSecret(&pod.Spec) {
		return errors.New("a mirror pod may not reference secrets")
	}
	for _, v := range pod.Spec.Volumes {
		if p := v.Projected; p != nil {
			for _, src := range p.Sources {
				if src.ServiceAccountToken != nil {
					return errors.New("a mirror pod may not use ServiceAccountToken volume projections")
				}
			}
		}
	}
	return nil
}

// namesSecret reports whether spec names a secret (a name that is not
// empty) where podutil.VisitPodSecretNames looks.
func namesSecret(spec *corev1.PodSpec) bool {
	for _, r := range spec.ImagePullSecrets {
		if r.Name != "" {
			return true
		}
	}
	for _, cs := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
		for i := range cs {
			for _, from := range cs[i].EnvFrom {
				if from.SecretRef != nil && from.SecretRef.Name != "" {
					return true
				}
			}
			for _, env := range cs[i].Env {
				if env.ValueFrom != nil && env.ValueFrom.SecretKeyRef != nil && env.ValueFrom.SecretKeyRef.Name != "" {
					return true
				}
			}
		}
	}
	for _, c := range spec.EphemeralContainers {
		for _, from := range c.EnvFrom {
			if from.SecretRef != nil && from.SecretRef.Name != "" {
				return true
			}
		}
		for _, env := range c.Env {
			if env.ValueFrom != nil && env.ValueFrom.SecretKeyRef != nil && env.ValueFrom.SecretKeyRef.Name != "" {
				return true
			}
		}
	}
	named := func(ref *corev1.LocalObjectReference) bool { return ref != nil && ref.Name != "" }
	for i := range spec.Volumes {
		v := &spec.Volumes[i].VolumeSource
		// The first source the volume has, in the visitor's order.
		switch {
		case v.AzureFile != nil:
			if v.AzureFile.SecretName != "" {
				return true
			}
		case v.CephFS != nil:
			if named(v.CephFS.SecretRef) {
				return true
			}
		case v.Cinder != nil:
			if named(v.Cinder.SecretRef) {
				return true
			}
		case v.FlexVolume != nil:
			if named(v.FlexVolume.SecretRef) {
				return true
			}
		case v.Projected != nil:
			for _, src := range v.Projected.Sources {
				if src.Secret != nil && src.Secret.Name != "" {
					return true
				}
			}
		case v.RBD != nil:
			if named(v.RBD.SecretRef) {
				return true
			}
		case v.Secret != nil:
			if v.Secret.SecretName != "" {
				return true
			}
		case v.ScaleIO != nil:
			if named(v.ScaleIO.SecretRef) {
				return true
			}
		case v.ISCSI != nil:
			if named(v.ISCSI.SecretRef) {
				return true
			}
		case v.StorageOS != nil:
			if named(v.StorageOS.SecretRef) {
				return true
			}
		case v.CSI != nil:
			if named(v.CSI.NodePublishSecretRef) {
				return true
			}
		}
	}
	return false
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

// accountOfNewNamespace is the plugin's denial of pod when its namespace is
// one the input's Namespace document created and its service account is
// neither default, which the ServiceAccount controller creates there, nor
// one the input creates: nothing else can exist in a namespace that did not
// exist before the run, so the lookup fails (PL-11).
func (e *Engine) accountOfNewNamespace(ns *namespaceState, pod *corev1.Pod) *status.Denial {
	if !e.newNamespaces[ns.name] {
		return nil
	}
	name, ok := podAccount(pod)
	if !ok || name == "default" || ns.stored.has(e.resourceID(serviceAccountsResource), name) ||
		e.inputAccounts[Reference{Kind: "ServiceAccount", Namespace: ns.name, Name: name}] {
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

// noteEnforcing records an admitted ServiceAccount of the input whose
// kubernetes.io/enforce-mountable-secrets annotation parses as true: the
// plugin then limits its Pods to the secrets it lists (PL-11).
func (ns *namespaceState) noteEnforcing(sa *corev1.ServiceAccount) {
	if v, ok := sa.Annotations[validation.EnforceMountableSecrets]; ok {
		if on, _ := strconv.ParseBool(v); on {
			if ns.enforcing == nil {
				ns.enforcing = map[string]*corev1.ServiceAccount{}
			}
			ns.enforcing[sa.Name] = sa
			return
		}
	}
	delete(ns.enforcing, sa.Name)
}

// mountableSecrets is the plugin's check of pod, whose account is one of
// ns.enforcing: every secret the Pod mounts, reads in an environment
// variable or pulls images with must be listed by the account. The plugin
// runs it in its mutating half, right after the lookup (PL-11).
func (ns *namespaceState) mountableSecrets(pod *corev1.Pod) *status.Denial {
	if len(ns.enforcing) == 0 {
		return nil
	}
	name, ok := podAccount(pod)
	sa := ns.enforcing[name]
	if !ok || sa == nil {
		return nil
	}
	if err := unlistedSecret(sa, pod); err != nil {
		// The plugin's mutating half runs the check, on the Pod as the
		// request named it (before name generation: PL-04).
		name := classes.RequestName(&pod.ObjectMeta)
		if g := pod.GenerateName; g != "" && pod.Name == GeneratedName(g) {
			name = g
		}
		return status.Forbidden(status.StageServiceAccount, corev1.Resource("pods"), name, []error{err})
	}
	return nil
}

// unlistedSecret is the first reference of pod to a secret sa does not list,
// in the plugin's order: secret volumes, init containers' then containers'
// env and envFrom, image pull secrets.
func unlistedSecret(sa *corev1.ServiceAccount, pod *corev1.Pod) error {
	listed := map[string]bool{}
	for _, s := range sa.Secrets {
		listed[s.Name] = true
	}
	for _, v := range pod.Spec.Volumes {
		if v.Secret != nil && !listed[v.Secret.SecretName] {
			return fmt.Errorf("volume with secret.secretName=%q is not allowed because service account %s does not reference that secret", v.Secret.SecretName, sa.Name)
		}
	}
	for _, group := range []struct {
		what       string
		containers []corev1.Container
	}{{"init container", pod.Spec.InitContainers}, {"container", pod.Spec.Containers}} {
		for _, c := range group.containers {
			for _, env := range c.Env {
				if env.ValueFrom != nil && env.ValueFrom.SecretKeyRef != nil && !listed[env.ValueFrom.SecretKeyRef.Name] {
					return fmt.Errorf("%s %s with envVar %s referencing secret.secretName=%q is not allowed because service account %s does not reference that secret", group.what, c.Name, env.Name, env.ValueFrom.SecretKeyRef.Name, sa.Name)
				}
			}
			for _, from := range c.EnvFrom {
				if from.SecretRef != nil && !listed[from.SecretRef.Name] {
					return fmt.Errorf("%s %s with envFrom referencing secret.secretName=%q is not allowed because service account %s does not reference that secret", group.what, c.Name, from.SecretRef.Name, sa.Name)
				}
			}
		}
	}
	pull := map[string]bool{}
	for _, s := range sa.ImagePullSecrets {
		pull[s.Name] = true
	}
	for i, ref := range pod.Spec.ImagePullSecrets {
		if !pull[ref.Name] {
			return fmt.Errorf("imagePullSecrets[%d].name=%q is not allowed because service account %s does not reference that imagePullSecret", i, ref.Name, sa.Name)
		}
	}
	return nil
}
