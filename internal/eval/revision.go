package eval

import (
	"encoding/json"
	"hash/fnv"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/utils/dump"
)

// podTemplateHash is the pod-template-hash of a new Deployment's template
// (controller.ComputeHash), which names its ReplicaSet "<deployment>-<hash>"
// and labels the ReplicaSet and its Pods: FNV-32a of the template's dump for
// hashing (k8s.io/utils/dump.ForHash: every field, pointers followed, map
// keys sorted), no collision count (a new Deployment's status has none), its
// decimal digits spelt in rand.SafeEncodeString's alphabet.
//
// The dump shows how each value is held, not only what it is (a nil or an
// empty list, a quantity's internal form), so it is taken of the template as
// the controller holds it: the stored object, with the conversion from the
// internal type's serviceAccount, decoded from the protobuf the apiserver
// serves the controller manager.
func podTemplateHash(t *corev1.PodTemplateSpec) string {
	stored := t.DeepCopy()
	stored.Spec.DeprecatedServiceAccount = stored.Spec.ServiceAccountName
	wire, err := stored.Marshal()
	if err != nil {
		panic(err) // a template always encodes
	}
	var read corev1.PodTemplateSpec
	if err := read.Unmarshal(wire); err != nil {
		panic(err)
	}
	h := fnv.New32a()
	h.Write([]byte(dump.ForHash(read)))
	return rand.SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// statefulSetRevision is the name of the ControllerRevision the StatefulSet
// controller records a new set's template in, which it writes into the
// controller-revision-hash label of every Pod it creates (WL-07): the set's
// name (cut at 223 characters), "-", and a hash of the revision's data.
//
// The data is a strategic merge patch that puts the template back: the
// template as the controller read it from the apiserver (the stored object,
// encoded to JSON, decoded as a generic map) with "$patch": "replace", under
// spec, encoded again with keys sorted. The hash is FNV-32 (not 32a) of those
// bytes and of the collision count, 0 for a new set, in decimal; its decimal
// digits are spelt in rand.SafeEncodeString's alphabet.
//
// A set name of more than 52 characters or so makes the label longer than
// the 63 bytes a label value may have, and every Pod is refused.
//
// A template always encodes (no value of a Pod template can fail to), so an
// error panics, which Engine.Admit reports as an internal error.
func statefulSetRevision(set *appsv1.StatefulSet) string {
	name, _, _ := statefulSetRevisionData(set)
	return name
}

// statefulSetRevisionData is statefulSetRevision's name, its hash and the
// revision's data, the patch the hash is taken of.
func statefulSetRevisionData(set *appsv1.StatefulSet) (name, hash string, data []byte) {
	// The controller reads the set from the apiserver: the stored object,
	// with the conversion from the internal type's serviceAccount, as JSON
	// gives it back (canonical quantities).
	read := overTheWire(set).(*appsv1.StatefulSet)
	t := &read.Spec.Template
	t.Spec.DeprecatedServiceAccount = t.Spec.ServiceAccountName
	patch := templatePatch(t)
	h := fnv.New32()
	h.Write(patch)
	h.Write([]byte("0")) // the collision count
	hash = rand.SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
	name = set.Name
	if len(name) > 223 {
		name = name[:223]
	}
	return name + "-" + hash, hash, patch
}

// templatePatch is the data of a ControllerRevision that records template:
// a strategic merge patch that puts it back under spec.template.
func templatePatch(t *corev1.PodTemplateSpec) []byte {
	raw, err := json.Marshal(t)
	if err != nil {
		panic(err)
	}
	var template map[string]any
	if err := json.Unmarshal(raw, &template); err != nil {
		panic(err)
	}
	template["$patch"] = "replace"
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"template": template}})
	if err != nil {
		panic(err)
	}
	return patch
}

// controllerRevision is the ControllerRevision the StatefulSet or DaemonSet
// controller creates for a new set before anything else (WL-12):
// revision 1 of the template, named name ("<set>-<hash>"), labelled with the
// template's labels and controller-revision-hash: hash. Its owner reference
// is left out, as the ReplicaSet's of a Deployment is (the set has no UID).
func controllerRevision(owner metav1.Object, name, hash string, t *corev1.PodTemplateSpec, data []byte) *appsv1.ControllerRevision {
	labels := make(map[string]string, len(t.Labels)+1)
	for k, v := range t.Labels {
		labels[k] = v
	}
	labels[appsv1.ControllerRevisionHashLabelKey] = hash
	return &appsv1.ControllerRevision{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ControllerRevision"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      name,
			Namespace: owner.GetNamespace(),
			Labels:    labels,
		},
		Data:     runtime.RawExtension{Raw: data},
		Revision: 1,
	}
}
