package eval

import (
	"encoding/json"
	"hash/fnv"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/rand"
)

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
	// The controller reads the set from the apiserver: the stored object,
	// with the conversion from the internal type's serviceAccount, as JSON
	// gives it back (canonical quantities).
	read := overTheWire(set).(*appsv1.StatefulSet)
	t := &read.Spec.Template
	t.Spec.DeprecatedServiceAccount = t.Spec.ServiceAccountName
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
	h := fnv.New32()
	h.Write(patch)
	h.Write([]byte("0")) // the collision count
	name := set.Name
	if len(name) > 223 {
		name = name[:223]
	}
	return name + "-" + rand.SafeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}
