package validation

import (
	"crypto/tls"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	nodev1 "k8s.io/api/node/v1"
	storagev1 "k8s.io/api/storage/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	netutils "k8s.io/utils/net"

	"github.com/limitcheck/limitcheck/internal/eval/crd"
	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// The warnings kube-apiserver sends with the response to a create
// (VAL-104): kubectl prints each as "Warning: <text>". They do not refuse
// anything. The strategies compute them once the object has passed
// validation (WarningsOnCreate, in rest.BeforeCreate); the Pod strategy's
// PrepareForCreate adds one for a deprecated AppArmor annotation before
// validation (AppArmorWarnings).

// WarningsOnCreate is the create warnings of a validated object of a kind
// whose strategy gives any that limitcheck reports: Pods, workloads,
// Services, Ingresses, NetworkPolicies, PersistentVolumes, StorageClasses,
// CSIDrivers, CSIStorageCapacities, PersistentVolumeClaims, Endpoints,
// EndpointSlices, Secrets, ServiceAccounts, ResourceQuotas, RuntimeClasses
// and CustomResourceDefinitions. Nil for every other kind.
func WarningsOnCreate(obj runtime.Object) []string {
	template := templatePath
	switch o := obj.(type) {
	case *corev1.Pod:
		w := dnsLabelWarning(o.Name, "metadata.name: this is used in the Pod's hostname")
		return append(w, podSpecWarnings(nil, &o.Spec, &o.ObjectMeta)...)
	case *appsv1.Deployment:
		return append(workloadNameWarning(o.Name), podSpecWarnings(template, &o.Spec.Template.Spec, &o.Spec.Template.ObjectMeta)...)
	case *appsv1.ReplicaSet:
		return append(workloadNameWarning(o.Name), podSpecWarnings(template, &o.Spec.Template.Spec, &o.Spec.Template.ObjectMeta)...)
	case *corev1.ReplicationController:
		w := workloadNameWarning(o.Name)
		if o.Spec.Template != nil {
			w = append(w, podSpecWarnings(template, &o.Spec.Template.Spec, &o.Spec.Template.ObjectMeta)...)
		}
		return w
	case *appsv1.DaemonSet:
		return podSpecWarnings(template, &o.Spec.Template.Spec, &o.Spec.Template.ObjectMeta)
	case *corev1.PodTemplate:
		return podSpecWarnings(podTemplateTemplatePath, &o.Template.Spec, &o.Template.ObjectMeta)
	case *admissionregistrationv1.ValidatingWebhookConfiguration, *admissionregistrationv1.MutatingWebhookConfiguration,
		*admissionregistrationv1.ValidatingAdmissionPolicy, *admissionregistrationv1.ValidatingAdmissionPolicyBinding,
		*admissionregistrationv1.MutatingAdmissionPolicy, *admissionregistrationv1.MutatingAdmissionPolicyBinding:
		return staticSuffixWarning(o.(metav1.Object).GetName())
	case *appsv1.StatefulSet:
		w := podSpecWarnings(template, &o.Spec.Template.Spec, &o.Spec.Template.ObjectMeta)
		for i := range o.Spec.VolumeClaimTemplates {
			w = append(w, claimSpecWarnings(field.NewPath("spec", "volumeClaimTemplates").Index(i), &o.Spec.VolumeClaimTemplates[i].Spec)...)
		}
		if l := o.Spec.RevisionHistoryLimit; l != nil && *l < 0 {
			w = append(w, "spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended")
		}
		return w
	case *batchv1.Job:
		return append(workloadNameWarning(o.Name), jobSpecWarnings(specPath, &o.Spec)...)
	case *batchv1.CronJob:
		return append(workloadNameWarning(o.Name), jobSpecWarnings(jobTemplateSpecPath, &o.Spec.JobTemplate.Spec)...)
	case *corev1.Service:
		return serviceWarnings(o)
	case *networkingv1.NetworkPolicy:
		return networkPolicyWarnings(o)
	case *networkingv1.Ingress:
		if _, ok := o.Annotations["kubernetes.io/ingress.class"]; ok && o.Spec.IngressClassName == nil {
			return []string{`annotation "kubernetes.io/ingress.class" is deprecated, please use 'spec.ingressClassName' instead`}
		}
		return nil
	case *corev1.PersistentVolume:
		return persistentVolumeWarnings(o)
	case *storagev1.StorageClass:
		return storageClassWarnings(o)
	case *storagev1.CSIStorageCapacity:
		return nodeLabelSelectorWarnings(o.NodeTopology, field.NewPath("nodeTopology"))
	case *storagev1.CSIDriver:
		if len(o.Spec.TokenRequests) > 0 && o.Spec.ServiceAccountTokenInSecrets == nil {
			return []string{"spec.serviceAccountTokenInSecrets is unset; if supported by this CSI driver, set to true to prevent possible logging of tokens in volume attributes"}
		}
		return nil
	case *corev1.PersistentVolumeClaim:
		var w []string
		if _, ok := o.Annotations[corev1.BetaStorageClassAnnotation]; ok {
			w = append(w, fmt.Sprintf("%s: %s", field.NewPath("metadata", "annotations").Key(corev1.BetaStorageClassAnnotation),
				`deprecated since v1.8; use "storageClassName" attribute instead`))
		}
		return append(w, claimSpecWarnings(specPath, &o.Spec)...)
	case *corev1.Secret:
		// The strategy checks a TLS Secret's pair (tls.X509KeyPair).
		if o.Type == corev1.SecretTypeTLS {
			if _, err := tls.X509KeyPair(o.Data[corev1.TLSCertKey], o.Data[corev1.TLSPrivateKeyKey]); err != nil {
				return []string{err.Error()}
			}
		}
		return nil
	case *corev1.ResourceQuota:
		return quotaWarnings(o)
	case *corev1.ServiceAccount:
		if _, ok := o.Annotations[EnforceMountableSecrets]; ok {
			return []string{fmt.Sprintf("%s: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets",
				field.NewPath("metadata", "annotations").Key(EnforceMountableSecrets))}
		}
		return nil
	case *nodev1.RuntimeClass:
		var w []string
		if o.Scheduling != nil {
			// Upstream ranges over the map; sorted here, so that the output
			// is the same on every run.
			for _, k := range slices.Sorted(maps.Keys(o.Scheduling.NodeSelector)) {
				if msg, ok := deprecatedNodeLabels[k]; ok {
					w = append(w, fmt.Sprintf("%s: %s", field.NewPath("scheduling", "nodeSelector"), msg))
				}
			}
		}
		return w
	case *apiextensionsv1.CustomResourceDefinition:
		return crdFormatWarnings(o)
	case *corev1.Endpoints:
		return endpointsWarnings(o)
	case *discoveryv1.EndpointSlice:
		return endpointSliceWarnings(o)
	}
	return nil
}

// crdFormatWarnings: `unrecognized format "F"` for each format of the
// versions' schemas kube-apiserver ignores for the node's type (a string's
// int64, an integer's uint8), each text once, as the warning recorder keeps
// it (VAL-99). The nodes are visited as upstream's SchemaHas visits them:
// the node, items, allOf, anyOf, oneOf, not, properties,
// additionalProperties, patternProperties, additionalItems, definitions,
// dependencies; upstream ranges over the maps in Go's order, limitcheck by
// sorted key.
func crdFormatWarnings(c *apiextensionsv1.CustomResourceDefinition) []string {
	var w []string
	seen := map[string]bool{}
	var visit func(s *apiextensionsv1.JSONSchemaProps)
	visit = func(s *apiextensionsv1.JSONSchemaProps) {
		if s == nil {
			return
		}
		if crd.UnrecognizedFormat(s.Format, s.Type) {
			if text := fmt.Sprintf("unrecognized format %q", s.Format); !seen[text] {
				seen[text] = true
				w = append(w, text)
			}
		}
		if s.Items != nil {
			visit(s.Items.Schema)
			for i := range s.Items.JSONSchemas {
				visit(&s.Items.JSONSchemas[i])
			}
		}
		for _, list := range [][]apiextensionsv1.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
			for i := range list {
				visit(&list[i])
			}
		}
		visit(s.Not)
		visitMap := func(m map[string]apiextensionsv1.JSONSchemaProps) {
			for _, k := range slices.Sorted(maps.Keys(m)) {
				v := m[k]
				visit(&v)
			}
		}
		visitMap(s.Properties)
		if s.AdditionalProperties != nil {
			visit(s.AdditionalProperties.Schema)
		}
		visitMap(s.PatternProperties)
		if s.AdditionalItems != nil {
			visit(s.AdditionalItems.Schema)
		}
		visitMap(map[string]apiextensionsv1.JSONSchemaProps(s.Definitions))
		for _, k := range slices.Sorted(maps.Keys(s.Dependencies)) {
			visit(s.Dependencies[k].Schema)
		}
	}
	for i := range c.Spec.Versions {
		if v := c.Spec.Versions[i].Schema; v != nil {
			visit(v.OpenAPIV3Schema)
		}
	}
	return w
}

// EnforceMountableSecrets is the ServiceAccount annotation that limits its
// Pods to the secrets it lists (deprecated since 1.32; the ServiceAccount
// plugin reads it).
const EnforceMountableSecrets = "kubernetes.io/enforce-mountable-secrets"

// endpointsWarnings: addresses in a non-standard form, unless the Endpoints
// says the endpoints controller manages it.
func endpointsWarnings(ep *corev1.Endpoints) []string {
	if ep.Labels["endpoints.kubernetes.io/managed-by"] == "endpoint-controller" {
		return nil
	}
	var w []string
	for i := range ep.Subsets {
		s := &ep.Subsets[i]
		for j := range s.Addresses {
			w = append(w, utilvalidation.GetWarningsForIP(field.NewPath("subsets").Index(i).Child("addresses").Index(j).Child("ip"), s.Addresses[j].IP)...)
		}
		for j := range s.NotReadyAddresses {
			w = append(w, utilvalidation.GetWarningsForIP(field.NewPath("subsets").Index(i).Child("notReadyAddresses").Index(j).Child("ip"), s.NotReadyAddresses[j].IP)...)
		}
	}
	return w
}

// endpointSliceWarnings: the FQDN address type, deprecated, then addresses
// that parse as IPs in a non-standard form (an FQDN slice's too), unless the
// slice says one of the EndpointSlice controllers manages it.
func endpointSliceWarnings(eps *discoveryv1.EndpointSlice) []string {
	var w []string
	if eps.AddressType == discoveryv1.AddressTypeFQDN {
		w = append(w, "spec.addressType: FQDN endpoints are deprecated")
	}
	switch eps.Labels[discoveryv1.LabelManagedBy] {
	case "endpointslice-controller.k8s.io", "endpointslicemirroring-controller.k8s.io":
		return w
	}
	for i := range eps.Endpoints {
		for j, addr := range eps.Endpoints[i].Addresses {
			if netutils.ParseIPSloppy(addr) == nil {
				continue // not an IP: upstream only logs
			}
			w = append(w, utilvalidation.GetWarningsForIP(field.NewPath("endpoints").Index(i).Child("addresses").Index(j), addr)...)
		}
	}
	return w
}

// The paths warnings start from, made once (a path is never changed).
var (
	specPath     = field.NewPath("spec")
	templatePath = field.NewPath("spec", "template")
	// podTemplateTemplatePath is a PodTemplate's template.
	podTemplateTemplatePath = field.NewPath("template")
	jobTemplateSpecPath     = field.NewPath("spec", "jobTemplate", "spec")
)

// annotation looks up the annotation prefix+name without building the key
// (a lookup by string(bytes) does not allocate).
func annotation(m map[string]string, prefix, name string) (string, bool) {
	if len(m) == 0 {
		return "", false
	}
	var buf [128]byte
	v, ok := m[string(append(append(buf[:0], prefix...), name...))]
	return v, ok
}

// AppArmorWarnings is the Pod strategy's warning for each container whose
// deprecated AppArmor annotation PrepareForCreate copies into its
// securityContext, or cannot (an invalid value): called before
// PrepareForCreate, on what it will read.
func AppArmorWarnings(pod *corev1.Pod) []string {
	if pod.Spec.OS != nil && pod.Spec.OS.Name == corev1.Windows || len(pod.Annotations) == 0 {
		return nil
	}
	var podProfile *corev1.AppArmorProfile
	if pod.Spec.SecurityContext != nil {
		podProfile = pod.Spec.SecurityContext.AppArmorProfile
	}
	var w []string
	for i, n := 0, containerCount(&pod.Spec); i < n; i++ {
		c, _, _ := containerAt(&pod.Spec, i)
		ann, ok := annotation(pod.Annotations, annAppArmorPrefix, c.Name)
		if !ok || c.SecurityContext != nil && c.SecurityContext.AppArmorProfile != nil {
			continue
		}
		if prof := validAppArmorProfileFor(ann); prof == nil || !sameAppArmorProfile(prof, podProfile) {
			w = append(w, fmt.Sprintf(`%s: deprecated since v1.30; use the "appArmorProfile" field instead`, field.NewPath("metadata", "annotations").Key(annAppArmorPrefix+c.Name)))
		}
	}
	return w
}

// containerCount is the number of containers of spec, every list.
func containerCount(spec *corev1.PodSpec) int {
	return len(spec.InitContainers) + len(spec.Containers) + len(spec.EphemeralContainers)
}

// containerAt is the i-th container of spec in visitContainers' order, with
// its list and its index there: a loop over them needs no closure.
func containerAt(spec *corev1.PodSpec, i int) (*corev1.Container, string, int) {
	if i < len(spec.InitContainers) {
		return &spec.InitContainers[i], "initContainers", i
	}
	if i -= len(spec.InitContainers); i < len(spec.Containers) {
		return &spec.Containers[i], "containers", i
	}
	i -= len(spec.Containers)
	return (*corev1.Container)(&spec.EphemeralContainers[i].EphemeralContainerCommon), "ephemeralContainers", i
}

// dnsLabelWarning: a name that is a subdomain but not a label.
func dnsLabelWarning(name, what string) []string {
	if msgs := namecheck.IsDNS1123Label(name); len(msgs) > 0 {
		return []string{fmt.Sprintf("%s, which can result in surprising behavior; a DNS label is recommended: %v", what, msgs)}
	}
	return nil
}

func workloadNameWarning(name string) []string {
	return dnsLabelWarning(name, "metadata.name: this is used in Pod names and hostnames")
}

// jobSpecWarnings: an Indexed Job too large to track, then its template's.
func jobSpecWarnings(path *field.Path, spec *batchv1.JobSpec) []string {
	var w []string
	if spec.CompletionMode != nil && *spec.CompletionMode == batchv1.IndexedCompletion {
		completions, parallelism := int32(0), int32(0)
		if spec.Completions != nil {
			completions = *spec.Completions
		}
		if spec.Parallelism != nil {
			parallelism = *spec.Parallelism
		}
		if completions > 100_000 && parallelism > 10_000 {
			w = append(w, fmt.Sprintf("%s: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail", path))
		}
	}
	return append(w, podSpecWarnings(path.Child("template"), &spec.Template.Spec, &spec.Template.ObjectMeta)...)
}

// deprecatedVolumeAnnotations are the annotations a PersistentVolume is warned
// of, in the PersistentVolume strategy's order, with its words.
var deprecatedVolumeAnnotations = []struct{ key, msg string }{
	{corev1.BetaStorageClassAnnotation, `deprecated since v1.8; use "storageClassName" attribute instead`},
	{corev1.MountOptionAnnotation, `deprecated since v1.31; use "mountOptions" attribute instead`},
}

// deprecatedVolumeSources are the in-tree volume plugins a PersistentVolume
// is warned of, in the strategy's order.
func deprecatedVolumeSources(spec *corev1.PersistentVolumeSpec) []string {
	var w []string
	add := func(set bool, name, msg string) {
		if set {
			w = append(w, field.NewPath("spec", name).String()+": "+msg)
		}
	}
	add(spec.CephFS != nil, "cephfs", "deprecated in v1.28, non-functional in v1.31+")
	add(spec.PhotonPersistentDisk != nil, "photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+")
	add(spec.ScaleIO != nil, "scaleIO", "deprecated in v1.16, non-functional in v1.22+")
	add(spec.StorageOS != nil, "storageOS", "deprecated in v1.22, non-functional in v1.25+")
	add(spec.Glusterfs != nil, "glusterfs", "deprecated in v1.25, non-functional in v1.26+")
	add(spec.RBD != nil, "rbd", "deprecated in v1.28, non-functional in v1.31+")
	return w
}

// persistentVolumeWarnings is the PersistentVolume strategy's create warnings
// (VAL-104): deprecated annotations, the Recycle reclaim policy, deprecated
// node labels in its node affinity, deprecated volume plugins.
func persistentVolumeWarnings(pv *corev1.PersistentVolume) []string {
	var w []string
	for _, a := range deprecatedVolumeAnnotations {
		if _, ok := pv.Annotations[a.key]; ok {
			w = append(w, fmt.Sprintf("%s: %s", field.NewPath("metadata", "annotations").Key(a.key), a.msg))
		}
	}
	if pv.Spec.PersistentVolumeReclaimPolicy == corev1.PersistentVolumeReclaimRecycle {
		w = append(w, field.NewPath("spec", "persistentVolumeReclaimPolicy").String()+
			": The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.")
	}
	if na := pv.Spec.NodeAffinity; na != nil && na.Required != nil {
		terms := field.NewPath("spec", "nodeAffinity", "required", "nodeSelectorTerms")
		for i := range na.Required.NodeSelectorTerms {
			w = append(w, nodeSelectorTermWarnings(&na.Required.NodeSelectorTerms[i], false, terms.Index(i))...)
		}
	}
	return append(w, deprecatedVolumeSources(&pv.Spec)...)
}

// storageClassWarnings is the StorageClass strategy's create warnings: a
// deprecated node label as the key of an allowedTopologies expression.
func storageClassWarnings(sc *storagev1.StorageClass) []string {
	var w []string
	for i, t := range sc.AllowedTopologies {
		for j, e := range t.MatchLabelExpressions {
			if msg, ok := deprecatedNodeLabels[e.Key]; ok {
				w = append(w, fmt.Sprintf("%s: %s", field.NewPath("allowedTopologies").Index(i).Child("matchLabelExpressions").Index(j).Child("key"), msg))
			}
		}
	}
	return w
}

// nodeLabelSelectorWarnings is the warnings of deprecated node labels in a
// label selector over nodes (a CSIStorageCapacity's nodeTopology): its
// expressions' keys, then its matchLabels' (kube-apiserver visits those in
// Go map order; limitcheck by key).
func nodeLabelSelectorWarnings(sel *metav1.LabelSelector, path *field.Path) []string {
	if sel == nil {
		return nil
	}
	var w []string
	for i, e := range sel.MatchExpressions {
		if msg, ok := deprecatedNodeLabels[e.Key]; ok {
			w = append(w, fmt.Sprintf("%s: %s is %s", path.Child("matchExpressions").Index(i).Child("key"), e.Key, msg))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(sel.MatchLabels)) {
		if msg, ok := deprecatedNodeLabels[k]; ok {
			w = append(w, fmt.Sprintf("%s: %s", path.Child("matchLabels").Child(k), msg))
		}
	}
	return w
}

// claimSpecWarnings: a storage request or limit that is not a whole number
// of bytes.
func claimSpecWarnings(path *field.Path, spec *corev1.PersistentVolumeClaimSpec) []string {
	var w []string
	if q := spec.Resources.Requests[corev1.ResourceStorage]; q.MilliValue()%1000 != 0 {
		w = append(w, fractionalBytes(path.Child("resources", "requests").Key("storage"), q.String()))
	}
	if q := spec.Resources.Limits[corev1.ResourceStorage]; q.MilliValue()%1000 != 0 {
		w = append(w, fractionalBytes(path.Child("resources", "limits").Key("storage"), q.String()))
	}
	return w
}

func fractionalBytes(p *field.Path, value string) string {
	return fmt.Sprintf("%s: fractional byte value %q is invalid, must be an integer", p, value)
}

// deprecatedNodeLabels are the node labels a selector, an affinity or a
// spread constraint should no longer name, and what to name instead.
var deprecatedNodeLabels = map[string]string{
	`beta.kubernetes.io/arch`:                       `deprecated since v1.14; use "kubernetes.io/arch" instead`,
	`beta.kubernetes.io/os`:                         `deprecated since v1.14; use "kubernetes.io/os" instead`,
	`failure-domain.beta.kubernetes.io/region`:      `deprecated since v1.17; use "topology.kubernetes.io/region" instead`,
	`failure-domain.beta.kubernetes.io/zone`:        `deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
	`beta.kubernetes.io/instance-type`:              `deprecated since v1.17; use "node.kubernetes.io/instance-type" instead`,
	`app.kubernetes.io/created-by`:                  `deprecated since v1.9`,
	`scheduler.alpha.kubernetes.io/preferAvoidPods`: `deprecated since v1.22; use Taints and Tolerations instead`,
	`node-role.kubernetes.io/master`:                `use "node-role.kubernetes.io/control-plane" instead`,
}

// deprecatedPodAnnotations are annotations that no longer do anything.
var deprecatedPodAnnotations = []struct{ key, message string }{
	{`scheduler.alpha.kubernetes.io/critical-pod`, `non-functional in v1.16+; use the "priorityClassName" field instead`},
	{`security.alpha.kubernetes.io/sysctls`, `non-functional in v1.11+; use the "sysctls" field instead`},
	{`security.alpha.kubernetes.io/unsafe-sysctls`, `non-functional in v1.11+; use the "sysctls" field instead`},
}

// deprecatedVolumes are the volume sources that are deprecated or gone.
var deprecatedVolumes = []struct {
	field, message string
	set            func(*corev1.Volume) bool
}{
	{"photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+", func(v *corev1.Volume) bool { return v.PhotonPersistentDisk != nil }},
	{"gitRepo", "deprecated in v1.11, and disabled by default in v1.33+", func(v *corev1.Volume) bool { return v.GitRepo != nil }},
	{"scaleIO", "deprecated in v1.16, non-functional in v1.22+", func(v *corev1.Volume) bool { return v.ScaleIO != nil }},
	{"flocker", "deprecated in v1.22, non-functional in v1.25+", func(v *corev1.Volume) bool { return v.Flocker != nil }},
	{"storageOS", "deprecated in v1.22, non-functional in v1.25+", func(v *corev1.Volume) bool { return v.StorageOS != nil }},
	{"quobyte", "deprecated in v1.22, non-functional in v1.25+", func(v *corev1.Volume) bool { return v.Quobyte != nil }},
	{"glusterfs", "deprecated in v1.25, non-functional in v1.26+", func(v *corev1.Volume) bool { return v.Glusterfs != nil }},
	{"cephfs", "deprecated in v1.28, non-functional in v1.31+", func(v *corev1.Volume) bool { return v.CephFS != nil }},
	{"rbd", "deprecated in v1.28, non-functional in v1.31+", func(v *corev1.Volume) bool { return v.RBD != nil }},
}

// podSpecWarnings is warningsForPodSpecAndMeta for a create, under path
// (nil for a Pod, spec.template for a workload): in upstream's order, with
// map keys (a nodeSelector's) in sorted order where upstream's is random.
func podSpecWarnings(path *field.Path, spec *corev1.PodSpec, meta *metav1.ObjectMeta) []string {
	var w []string
	add := func(format string, args ...any) { w = append(w, fmt.Sprintf(format, args...)) }

	keys := make([]string, 0, len(spec.NodeSelector))
	for k := range spec.NodeSelector {
		if _, ok := deprecatedNodeLabels[k]; ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		add("%s: %s", path.Child("spec", "nodeSelector").Key(k), deprecatedNodeLabels[k])
	}
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil {
		n := a.NodeAffinity
		if n.RequiredDuringSchedulingIgnoredDuringExecution != nil {
			p := path.Child("spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
			for i := range n.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
				w = append(w, nodeSelectorTermWarnings(&n.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[i], false, p.Index(i))...)
			}
		}
		p := path.Child("spec", "affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution")
		for i := range n.PreferredDuringSchedulingIgnoredDuringExecution {
			w = append(w, nodeSelectorTermWarnings(&n.PreferredDuringSchedulingIgnoredDuringExecution[i].Preference, true, p.Index(i).Child("preference"))...)
		}
	}
	for i, t := range spec.TopologySpreadConstraints {
		p := path.Child("spec", "topologySpreadConstraints").Index(i)
		if msg, ok := deprecatedNodeLabels[t.TopologyKey]; ok {
			add("%s: %s is %s", p.Child("topologyKey"), t.TopologyKey, msg)
		}
		if t.LabelSelector == nil {
			add("%s: a null labelSelector results in matching no pod", p.Child("labelSelector"))
		}
	}

	for _, d := range deprecatedPodAnnotations {
		if _, ok := meta.Annotations[d.key]; ok {
			add("%s: %s", path.Child("metadata", "annotations").Key(d.key), d.message)
		}
	}

	for i := range spec.Volumes {
		v := &spec.Volumes[i]
		p := path.Child("spec", "volumes").Index(i)
		// A valid volume has one source, so the order of these never shows.
		for _, d := range deprecatedVolumes {
			if d.set(v) {
				add("%s: %s", p.Child(d.field), d.message)
			}
		}
		if v.Ephemeral != nil && v.Ephemeral.VolumeClaimTemplate != nil {
			w = append(w, claimSpecWarnings(p.Child("ephemeral", "volumeClaimTemplate", "spec"), &v.Ephemeral.VolumeClaimTemplate.Spec)...)
		}
	}
	w = append(w, overlappingPathWarnings(spec.Volumes)...)

	if len(spec.HostAliases) > 1 {
		seen := map[string]bool{}
		for i, h := range spec.HostAliases {
			if seen[h.IP] {
				add("%s: duplicate ip %q", path.Child("spec", "hostAliases").Index(i).Child("ip"), h.IP)
			}
			seen[h.IP] = true
		}
	}
	if len(spec.ImagePullSecrets) > 1 {
		seen := map[string]bool{}
		for i, s := range spec.ImagePullSecrets {
			if seen[s.Name] {
				add("%s: duplicate name %q", path.Child("spec", "imagePullSecrets").Index(i).Child("name"), s.Name)
			}
			seen[s.Name] = true
		}
	}
	for i, s := range spec.ImagePullSecrets {
		if s.Name == "" {
			add("%s: invalid empty name %q", path.Child("spec", "imagePullSecrets").Index(i).Child("name"), s.Name)
		}
	}

	for _, r := range []corev1.ResourceName{corev1.ResourceMemory, corev1.ResourceEphemeralStorage} {
		if q, ok := spec.Overhead[r]; ok && q.MilliValue()%1000 != 0 {
			w = append(w, fractionalBytes(path.Child("spec", "overhead").Key(string(r)), q.String()))
		}
	}

	if spec.SecurityContext == nil || spec.SecurityContext.SeccompProfile == nil {
		if _, ok := meta.Annotations[corev1.SeccompPodAnnotationKey]; ok {
			add(`%s: non-functional in v1.27+; use the "seccompProfile" field instead`, path.Child("metadata", "annotations").Key(corev1.SeccompPodAnnotationKey))
		}
	}
	var podAppArmor *corev1.AppArmorProfile
	if spec.SecurityContext != nil {
		podAppArmor = spec.SecurityContext.AppArmorProfile
	}
	for ci, n := 0, containerCount(spec); ci < n; ci++ {
		c, list, idx := containerAt(spec, ci)
		p := func() *field.Path { return path.Child("spec", list).Index(idx) }
		if c.SecurityContext == nil || c.SecurityContext.SeccompProfile == nil {
			if _, ok := annotation(meta.Annotations, corev1.SeccompContainerAnnotationKeyPrefix, c.Name); ok {
				add(`%s: non-functional in v1.27+; use the "seccompProfile" field instead`, path.Child("metadata", "annotations").Key(corev1.SeccompContainerAnnotationKeyPrefix+c.Name))
			}
		}
		// A Pod's AppArmor annotations are AppArmorWarnings'.
		if path != nil && (c.SecurityContext == nil || c.SecurityContext.AppArmorProfile == nil) {
			if ann, ok := annotation(meta.Annotations, annAppArmorPrefix, c.Name); ok && (podAppArmor == nil || !sameAppArmorProfile(podAppArmor, appArmorProfileFor(ann))) {
				add(`%s: deprecated since v1.30; use the "appArmorProfile" field instead`, path.Child("metadata", "annotations").Key(annAppArmorPrefix+c.Name))
			}
		}
		for _, r := range [...]corev1.ResourceName{corev1.ResourceMemory, corev1.ResourceEphemeralStorage} {
			for _, l := range [...]struct {
				name string
				list corev1.ResourceList
			}{{"limits", c.Resources.Limits}, {"requests", c.Resources.Requests}} {
				if q, ok := l.list[r]; ok && q.MilliValue()%1000 != 0 {
					w = append(w, fractionalBytes(p().Child("resources", l.name).Key(string(r)), q.String()))
				}
			}
		}
		for i, e := range c.Env {
			if !slices.ContainsFunc(c.Env[:i], func(d corev1.EnvVar) bool { return d.Name == e.Name }) {
				continue
			}
			// A redefinition is fine when it builds on the earlier value.
			ref := "$(" + e.Name + ")"
			if e.ValueFrom != nil || e.Value == ref || !strings.Contains(e.Value, ref) {
				add("%s: hides previous definition of %q, which may be dropped when using apply", p().Child("env").Index(i), e.Name)
			}
		}
	}

	nPorts, nNamed := 0, 0
	for ci, n := 0, containerCount(spec); ci < n; ci++ {
		c, _, _ := containerAt(spec, ci)
		for _, port := range c.Ports {
			nPorts++
			if port.Name != "" {
				nNamed++
			}
			if port.HostIP != "" && port.HostPort == 0 {
				nPorts += 2 // reported by the loop below even when alone
			}
		}
	}
	if nPorts > 1 {
		type portAt struct {
			path *field.Path
			port corev1.ContainerPort
		}
		ports := map[string][]portAt{}
		for ci, n := 0, containerCount(spec); ci < n; ci++ {
			c, list, idx := containerAt(spec, ci)
			for i, port := range c.Ports {
				pp := path.Child("spec", list).Index(idx).Child("ports").Index(i)
				if port.HostIP != "" && port.HostPort == 0 {
					add("%s: hostIP set without hostPort: %+v", pp, port)
				}
				k := fmt.Sprintf("%d/%s", port.ContainerPort, port.Protocol)
				for _, other := range ports[k] {
					switch a, b := port.HostIP == "", other.port.HostIP == ""; {
					case port.HostIP == other.port.HostIP && port.HostPort == other.port.HostPort:
						add("%s: duplicate port definition with %s", pp, other.path)
					case port.HostPort == 0 || other.port.HostPort == 0:
						add("%s: overlapping port definition with %s", pp, other.path)
					case port.HostPort == other.port.HostPort && (a || b) && !(a && b):
						add("%s: dangerously ambiguous port definition with %s", pp, other.path)
					}
				}
				ports[k] = append(ports[k], portAt{pp, port})
			}
		}
	}
	if nNamed > 1 {
		names := map[string]*field.Path{}
		for ci, n := 0, containerCount(spec); ci < n; ci++ {
			c, list, idx := containerAt(spec, ci)
			for i, port := range c.Ports {
				if port.Name == "" {
					continue
				}
				pp := path.Child("spec", list).Index(idx).Child("ports").Index(i)
				if other, ok := names[port.Name]; ok {
					add("%s: duplicate port name %q with %s, services and probes that select ports by name will use %s", pp, port.Name, other, other)
				} else {
					names[port.Name] = pp
				}
			}
		}
	}

	if g := spec.TerminationGracePeriodSeconds; g != nil && *g < 0 {
		add("%s: must be >= 0; negative values are invalid and will be treated as 1", path.Child("spec", "terminationGracePeriodSeconds"))
	}
	if a := spec.Affinity; a != nil {
		nullTerms := func(name string, required []corev1.PodAffinityTerm, preferred []corev1.WeightedPodAffinityTerm) {
			for i, t := range required {
				if t.LabelSelector == nil {
					add("%s: a null labelSelector results in matching no pod", path.Child("spec", "affinity", name, "requiredDuringSchedulingIgnoredDuringExecution").Index(i).Child("labelSelector"))
				}
			}
			for i, t := range preferred {
				if t.PodAffinityTerm.LabelSelector == nil {
					add("%s: a null labelSelector results in matching no pod", path.Child("spec", "affinity", name, "preferredDuringSchedulingIgnoredDuringExecution").Index(i).Child("podAffinityTerm", "labelSelector"))
				}
			}
		}
		if pa := a.PodAffinity; pa != nil {
			nullTerms("podAffinity", pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
		}
		if pa := a.PodAntiAffinity; pa != nil {
			nullTerms("podAntiAffinity", pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
		}
	}
	if spec.DNSConfig != nil {
		for i, ns := range spec.DNSConfig.Nameservers {
			w = append(w, utilvalidation.GetWarningsForIP(path.Child("spec", "dnsConfig", "nameservers").Index(i), ns)...)
		}
	}
	for i, h := range spec.HostAliases {
		w = append(w, utilvalidation.GetWarningsForIP(path.Child("spec", "hostAliases").Index(i).Child("ip"), h.IP)...)
	}
	return w
}

// nodeSelectorTermWarnings: deprecated node labels as keys and, in a
// preferred term, values that are no label values.
func nodeSelectorTermWarnings(term *corev1.NodeSelectorTerm, checkValues bool, path *field.Path) []string {
	var w []string
	for i, e := range term.MatchExpressions {
		if msg, ok := deprecatedNodeLabels[e.Key]; ok {
			w = append(w, fmt.Sprintf("%s: %s is %s", path.Child("matchExpressions").Index(i).Child("key"), e.Key, msg))
		}
		if checkValues {
			for j, v := range e.Values {
				for _, msg := range utilvalidation.IsValidLabelValue(v) {
					w = append(w, fmt.Sprintf("%s: %s is invalid, %s", path.Child("matchExpressions").Index(i).Child("values").Index(j), v, msg))
				}
			}
		}
	}
	return w
}

// pathSource is a file a volume writes, and where it comes from.
type pathSource struct{ path, source string }

func (p pathSource) String() string {
	if p.source != "" {
		return fmt.Sprintf("%q (%s)", p.path, p.source)
	}
	return fmt.Sprintf("%q", p.path)
}

// overlappingPathWarnings: two items of a ConfigMap, Secret, downward API
// or projected volume that write the same file, or one inside the other.
func overlappingPathWarnings(volumes []corev1.Volume) []string {
	var w []string
	warn := func(vol, desc, body string) {
		w = append(w, fmt.Sprintf("volume %q (%s): overlapping paths: %s", vol, desc, body))
	}
	keyPaths := func(items []corev1.KeyToPath, source string) []pathSource {
		out := make([]pathSource, 0, len(items))
		for _, it := range items {
			out = append(out, pathSource{it.Path, source})
		}
		return out
	}
	fieldPaths := func(items []corev1.DownwardAPIVolumeFile, source string) []pathSource {
		out := make([]pathSource, 0, len(items))
		for _, it := range items {
			out = append(out, pathSource{it.Path, source})
		}
		return out
	}
	// overlaps adds each of paths to the ones before it, calling found for
	// every earlier path it collides with.
	overlaps := func(seen *[]pathSource, paths []pathSource, found func(p, with pathSource)) {
		for _, p := range paths {
			p.path = strings.TrimRight(p.path, "/")
			if p.path != "" {
				for _, q := range *seen {
					switch {
					case q.path == "":
					case q == p,
						strings.HasPrefix(q.path+"/", p.path+"/"),
						strings.HasPrefix(p.path+"/", q.path+"/"):
						found(p, q)
					}
				}
			}
			*seen = append(*seen, p)
		}
	}
	for _, v := range volumes {
		single := func(desc string, paths []pathSource) {
			var seen []pathSource
			overlaps(&seen, paths, func(p, q pathSource) { warn(v.Name, desc, p.String()+" with "+q.String()) })
		}
		if v.ConfigMap != nil && v.ConfigMap.Items != nil {
			single(fmt.Sprintf("ConfigMap %q", v.ConfigMap.Name), keyPaths(v.ConfigMap.Items, ""))
		}
		if v.Secret != nil && v.Secret.Items != nil {
			single(fmt.Sprintf("Secret %q", v.Secret.SecretName), keyPaths(v.Secret.Items, ""))
		}
		if v.DownwardAPI != nil && v.DownwardAPI.Items != nil {
			single("DownwardAPI", fieldPaths(v.DownwardAPI.Items, ""))
		}
		if v.Projected == nil {
			continue
		}
		var seen []pathSource
		for _, s := range v.Projected.Sources {
			if s == (corev1.VolumeProjection{}) {
				w = append(w, fmt.Sprintf("volume %q (Projected) has no sources provided", v.Name))
				continue
			}
			var paths []pathSource
			switch {
			case s.ConfigMap != nil && s.ConfigMap.Items != nil:
				paths = keyPaths(s.ConfigMap.Items, fmt.Sprintf("ConfigMap %q", s.ConfigMap.Name))
			case s.Secret != nil && s.Secret.Items != nil:
				paths = keyPaths(s.Secret.Items, fmt.Sprintf("Secret %q", s.Secret.Name))
			case s.DownwardAPI != nil && s.DownwardAPI.Items != nil:
				paths = fieldPaths(s.DownwardAPI.Items, "DownwardAPI")
			case s.ServiceAccountToken != nil:
				paths = []pathSource{{s.ServiceAccountToken.Path, "ServiceAccountToken"}}
			case s.ClusterTrustBundle != nil:
				name := ""
				if s.ClusterTrustBundle.Name != nil {
					name = *s.ClusterTrustBundle.Name
				} else if s.ClusterTrustBundle.SignerName != nil {
					name = *s.ClusterTrustBundle.SignerName
				}
				paths = []pathSource{{s.ClusterTrustBundle.Path, fmt.Sprintf("ClusterTrustBundle %q", name)}}
			case s.PodCertificate != nil:
				for _, f := range []struct{ path, what string }{
					{s.PodCertificate.CertificateChainPath, "PodCertificate chain"},
					{s.PodCertificate.KeyPath, "PodCertificate key"},
					{s.PodCertificate.CredentialBundlePath, "PodCertificate credential bundle"},
				} {
					if f.path != "" {
						paths = append(paths, pathSource{f.path, f.what})
					}
				}
			}
			overlaps(&seen, paths, func(p, q pathSource) { warn(v.Name, "Projected", p.String()+" with "+q.String()) })
		}
	}
	return w
}

// serviceWarnings is GetWarningsForService for a create: a deprecated
// annotation, addresses in a non-standard form, fields a headless or
// ExternalName Service ignores, externalIPs, and the deprecated PreferClose.
func serviceWarnings(svc *corev1.Service) []string {
	s := &svc.Spec
	var w []string
	if _, ok := svc.Annotations["service.kubernetes.io/topology-aware-hints"]; ok {
		w = append(w, "annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead")
	}
	if s.ClusterIP != corev1.ClusterIPNone && s.ClusterIP != "" {
		for i, ip := range s.ClusterIPs {
			w = append(w, utilvalidation.GetWarningsForIP(specPath.Child("clusterIPs").Index(i), ip)...)
		}
	}
	headless := s.Type == corev1.ServiceTypeClusterIP && s.ClusterIP == corev1.ClusterIPNone
	if headless {
		if s.LoadBalancerIP != "" {
			w = append(w, "spec.loadBalancerIP is ignored for headless services")
		}
		if len(s.ExternalIPs) > 0 {
			w = append(w, "spec.externalIPs is ignored for headless services")
		}
		if s.SessionAffinity != corev1.ServiceAffinityNone {
			w = append(w, "spec.SessionAffinity is ignored for headless services")
		}
	}
	for i, ip := range s.ExternalIPs {
		w = append(w, utilvalidation.GetWarningsForIP(specPath.Child("externalIPs").Index(i), ip)...)
	}
	if len(s.ExternalIPs) > 0 && !headless && s.Type != corev1.ServiceTypeExternalName {
		w = append(w, "spec.externalIPs is deprecated and may no longer be implemented in some clusters")
	}
	if s.LoadBalancerIP != "" {
		w = append(w, utilvalidation.GetWarningsForIP(specPath.Child("loadBalancerIP"), s.LoadBalancerIP)...)
	}
	for i, cidr := range s.LoadBalancerSourceRanges {
		w = append(w, utilvalidation.GetWarningsForCIDR(specPath.Child("loadBalancerSourceRanges").Index(i), cidr)...)
	}
	if s.Type == corev1.ServiceTypeExternalName && len(s.ExternalIPs) > 0 {
		w = append(w, fmt.Sprintf("spec.externalIPs is ignored when spec.type is %q", corev1.ServiceTypeExternalName))
	}
	if s.Type != corev1.ServiceTypeExternalName && s.ExternalName != "" {
		w = append(w, fmt.Sprintf("spec.externalName is ignored when spec.type is not %q", corev1.ServiceTypeExternalName))
	}
	if d := s.TrafficDistribution; d != nil && *d == "PreferClose" {
		w = append(w, `spec.trafficDistribution: "PreferClose" is deprecated; use "PreferSameZone"`)
	}
	return w
}

// networkPolicyWarnings: an ipBlock's CIDRs in a non-standard form (host
// bits set, leading zeros, an IPv4-mapped address), ingress rules first.
func networkPolicyWarnings(np *networkingv1.NetworkPolicy) []string {
	var w []string
	block := func(p *field.Path, b *networkingv1.IPBlock) {
		w = append(w, utilvalidation.GetWarningsForCIDR(p.Child("cidr"), b.CIDR)...)
		for k, except := range b.Except {
			w = append(w, utilvalidation.GetWarningsForCIDR(p.Child("except").Index(k), except)...)
		}
	}
	for i := range np.Spec.Ingress {
		for j, peer := range np.Spec.Ingress[i].From {
			if peer.IPBlock != nil {
				block(specPath.Child("ingress").Index(i).Child("from").Index(j).Child("ipBlock"), peer.IPBlock)
			}
		}
	}
	for i := range np.Spec.Egress {
		for j, peer := range np.Spec.Egress[i].To {
			if peer.IPBlock != nil {
				block(specPath.Child("egress").Index(i).Child("to").Index(j).Child("ipBlock"), peer.IPBlock)
			}
		}
	}
	return w
}

// staticSuffix ends the names kube-apiserver reserves for the admission
// configurations it loads from manifest files (an alpha feature, off in
// 1.36): such a name is still accepted on create, with a warning.
const staticSuffix = ".static.k8s.io"

func staticSuffixWarning(name string) []string {
	if !strings.HasSuffix(name, staticSuffix) {
		return nil
	}
	return []string{fmt.Sprintf("metadata.name: names ending with %q are reserved for static manifest-based configurations and cannot be managed via the API", staticSuffix)}
}

// quotaWarnings is the ResourceQuota strategy's warning for a hard request
// above the hard limit of the same resource (VAL-104): for cpu, memory,
// storage and ephemeral-storage in that order, requests.<r> (for cpu and
// memory the bare name when requests.<r> is absent) against limits.<r>.
func quotaWarnings(q *corev1.ResourceQuota) []string {
	var w []string
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceStorage, corev1.ResourceEphemeralStorage} {
		reqName := "requests." + r
		req, ok := q.Spec.Hard[reqName]
		if !ok && (r == corev1.ResourceCPU || r == corev1.ResourceMemory) {
			if req, ok = q.Spec.Hard[r]; ok {
				reqName = r
			}
		}
		limName := "limits." + r
		lim, limOK := q.Spec.Hard[limName]
		if ok && limOK && req.Cmp(lim) > 0 {
			w = append(w, fmt.Sprintf("ResourceQuota %s (%s) should be less than %s (%s)", reqName, req.String(), limName, lim.String()))
		}
	}
	return w
}
