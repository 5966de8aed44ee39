package conformance

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/kubernetes/pkg/apis/storage"
	"k8s.io/kubernetes/pkg/registry/storage/csistoragecapacity"

	"github.com/limitcheck/limitcheck/internal/eval/features"
)

var (
	flagStorageCases = flag.Int("storage-cases", 5000, "number of random storage.k8s.io objects")
	flagStorageSeed  = flag.Uint64("storage-seed", 1, "storage.k8s.io generator seed")
)

// upstreamCapacityCreate runs kube-apiserver's code on one CSIStorageCapacity
// document: decode, defaulting, conversion to the internal type, name
// generation, system fields and rest.BeforeCreate with the real strategy.
func upstreamCapacityCreate(doc []byte, namespace string) (rqOutcome, error) {
	return upstreamTypedCreate(doc, &storagev1.CSIStorageCapacity{}, &storage.CSIStorageCapacity{}, csistoragecapacity.Strategy, nil,
		"storage.k8s.io/v1", "csistoragecapacities", namespace)
}

// mineCapacityCreate admits the same document on a fresh engine, decoded as
// the loader decodes it.
func mineCapacityCreate(doc []byte, namespace string) (rqOutcome, error) {
	out, _, err := mineTypedCreate(doc, "storage.k8s.io/v1", "CSIStorageCapacity", namespace, features.Default())
	return out, err
}

type storageGen struct{ r *rand.Rand }

func (g *storageGen) chance(p float64) bool { return g.r.Float64() < p }
func (g *storageGen) pick(xs ...any) any    { return xs[g.r.IntN(len(xs))] }

// meta is the metadata of object i, sometimes with a mistake.
func (g *storageGen) meta(i int, prefix string, namespaced bool) map[string]any {
	m := map[string]any{"name": fmt.Sprintf("%s-%d", prefix, i)}
	switch {
	case g.chance(0.9):
	case g.chance(0.4):
		m["name"] = g.pick("Bad_Name", "a..b", "-x", strings.Repeat("a", 254), "ebs.csi.aws.com", "UPPER")
	case g.chance(0.5):
		delete(m, "name")
		m["generateName"] = g.pick(prefix+"-", "Gen_")
	default:
		delete(m, "name")
	}
	if g.chance(0.05) {
		m["labels"] = map[string]any{"bad key!": "x"}
	}
	if g.chance(0.04) {
		m["finalizers"] = []any{g.pick("custom", "example.com/protect")}
	}
	if g.chance(0.1) {
		if namespaced {
			m["namespace"] = "ns1" // a bad one is NamespaceLifecycle's 404 first
		} else {
			m["namespace"] = "ns1" // dropped: cluster-scoped
		}
	}
	if g.chance(0.03) {
		m["generation"] = -1
	}
	return m
}

// driverName is a CSI driver name, sometimes a bad one.
func (g *storageGen) driverName() any {
	if g.chance(0.8) {
		return g.pick("ebs.csi.aws.com", "pd.csi.storage.gke.io", "csi.example.com", "hostpath.csi.k8s.io")
	}
	return g.pick("", "Bad_Driver", "EBS.CSI.AWS.COM", strings.Repeat("d", 64), "-csi.example.com", "a/b")
}

func (g *storageGen) csiDriver(i int) map[string]any {
	spec := map[string]any{}
	for _, f := range []string{"attachRequired", "podInfoOnMount", "storageCapacity", "requiresRepublish", "seLinuxMount", "preventPodSchedulingIfMissing"} {
		if g.chance(0.4) {
			spec[f] = g.chance(0.5)
		}
	}
	if g.chance(0.4) {
		spec["fsGroupPolicy"] = g.pick("File", "None", "ReadWriteOnceWithFSType", "file", "Bogus", "")
	}
	if g.chance(0.4) {
		var reqs []any
		for range 1 + g.r.IntN(3) {
			r := map[string]any{}
			if !g.chance(0.15) {
				r["audience"] = g.pick("vault", "sts.amazonaws.com", "", "api")
			}
			if g.chance(0.6) {
				r["expirationSeconds"] = g.pick(600, 3600, 86400, 599, 1, -5, int64(1)<<32, int64(1)<<32+1)
			}
			reqs = append(reqs, r)
		}
		spec["tokenRequests"] = reqs
	}
	if g.chance(0.4) {
		spec["volumeLifecycleModes"] = g.pick([]any{}, []any{"Persistent"}, []any{"Ephemeral"}, []any{"Persistent", "Ephemeral"},
			[]any{"persistent"}, []any{"Bogus", "Ephemeral"}, []any{""})
	}
	if g.chance(0.2) {
		spec["nodeAllocatableUpdatePeriodSeconds"] = g.pick(10, 60, 9, 0, -1)
	}
	if g.chance(0.2) {
		spec["serviceAccountTokenInSecrets"] = g.chance(0.5)
	}
	return map[string]any{"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": g.meta(i, "csi-driver", false), "spec": spec}
}

func (g *storageGen) volumeAttributesClass(i int) map[string]any {
	m := map[string]any{"apiVersion": "storage.k8s.io/v1", "kind": "VolumeAttributesClass", "metadata": g.meta(i, "gold", false)}
	switch {
	case g.chance(0.75):
		m["driverName"] = g.pick("ebs.csi.aws.com", "EBS.CSI.AWS.COM", "example.com/driver")
	case g.chance(0.2):
	default:
		m["driverName"] = g.pick("", "Bad_Driver!", "a/b/c", strings.Repeat("d", 64), "-x", "UPPER_CASE")
	}
	switch {
	case g.chance(0.7):
		m["parameters"] = map[string]any{"iops": "3000", "throughput": "125"}
	case g.chance(0.3):
		m["parameters"] = map[string]any{}
	case g.chance(0.3):
	case g.chance(0.5):
		m["parameters"] = map[string]any{"": "x", "type": "gp3"}
	case g.chance(0.5):
		big := map[string]any{}
		for k := range 513 {
			big[fmt.Sprintf("k%d", k)] = "v"
		}
		m["parameters"] = big
	default:
		m["parameters"] = map[string]any{"blob": strings.Repeat("x", 256<<10)}
	}
	return m
}

// inlineSpec is a VolumeAttachment's inline volume spec, sometimes with a
// mistake.
func (g *storageGen) inlineSpec() map[string]any {
	s := map[string]any{"accessModes": []any{"ReadWriteOnce"}, "csi": map[string]any{"driver": "ebs.csi.aws.com", "volumeHandle": "vol-1"}}
	if !g.chance(0.5) {
		return s
	}
	switch g.r.IntN(12) {
	case 0:
		s["capacity"] = map[string]any{"storage": "1Gi"}
	case 1:
		s["claimRef"] = map[string]any{"name": "c", "namespace": "ns1"}
	case 2:
		delete(s, "csi")
		s[g.pick("hostPath", "nfs").(string)] = g.pick(map[string]any{"path": "/mnt"}, map[string]any{"server": "x", "path": "/e"}, map[string]any{"path": ""})
	case 3:
		s["nodeAffinity"] = map[string]any{"required": map[string]any{"nodeSelectorTerms": []any{}}}
	case 4:
		s["storageClassName"] = g.pick("gp3", "Bad_SC")
	case 5:
		s["volumeMode"] = g.pick("Block", "Filesystem", "block")
	case 6:
		s["persistentVolumeReclaimPolicy"] = g.pick("Retain", "Delete", "Bogus")
	case 7:
		delete(s, "accessModes")
	case 8:
		s["csi"] = map[string]any{"driver": g.driverName()}
	case 9:
		s["volumeAttributesClassName"] = g.pick("", "gold", "Bad_VAC")
	case 10:
		s["local"] = map[string]any{"path": "/mnt/disk"}
	default:
		s["accessModes"] = []any{"ReadWriteOncePod", "ReadOnlyMany"}
	}
	return s
}

func (g *storageGen) volumeAttachment(i int) map[string]any {
	spec := map[string]any{}
	if !g.chance(0.05) {
		spec["attacher"] = g.driverName()
	}
	src := map[string]any{}
	switch r := g.r.Float64(); {
	case r < 0.6:
		src["persistentVolumeName"] = g.pick("pv-1", "pvc-0a1b2c", "pv-1", "pv-1")
	case r < 0.7:
		src["persistentVolumeName"] = g.pick("", "Bad_PV", "a..b")
	case r < 0.85:
		src["inlineVolumeSpec"] = g.inlineSpec()
	case r < 0.92:
		src["persistentVolumeName"] = "pv-1"
		src["inlineVolumeSpec"] = g.inlineSpec()
	}
	spec["source"] = src
	switch {
	case g.chance(0.85):
		spec["nodeName"] = g.pick("node-1", "ip-10-0-0-1.ec2.internal")
	case g.chance(0.5):
	default:
		spec["nodeName"] = g.pick("Node_1", "-n", "")
	}
	m := map[string]any{"apiVersion": "storage.k8s.io/v1", "kind": "VolumeAttachment", "metadata": g.meta(i, "csi-0a1b", false), "spec": spec}
	if g.chance(0.1) {
		m["status"] = map[string]any{"attached": true, "attachError": map[string]any{"message": strings.Repeat("e", 2000), "errorCode": -1}}
	}
	return m
}

func (g *storageGen) csiNode(i int) map[string]any {
	var drivers []any
	for range g.r.IntN(4) {
		d := map[string]any{"name": g.driverName(), "nodeID": "i-0123456789"}
		if g.chance(0.2) {
			d["name"] = "ebs.csi.aws.com" // a repeat, now and then
		}
		if g.chance(0.1) {
			d["nodeID"] = g.pick("", strings.Repeat("n", 257), strings.Repeat("n", 256))
		}
		if g.chance(0.3) {
			d["allocatable"] = g.pick(map[string]any{}, map[string]any{"count": 25}, map[string]any{"count": -1}, map[string]any{"count": 0})
		}
		if g.chance(0.5) {
			d["topologyKeys"] = g.pick([]any{"topology.ebs.csi.aws.com/zone"}, []any{"topology.kubernetes.io/zone", "kubernetes.io/hostname"},
				[]any{""}, []any{"zone", "zone"}, []any{"bad key!"}, []any{"a/b/c"})
		}
		drivers = append(drivers, d)
	}
	spec := map[string]any{}
	if drivers != nil || g.chance(0.5) {
		spec["drivers"] = drivers
	}
	return map[string]any{"apiVersion": "storage.k8s.io/v1", "kind": "CSINode", "metadata": g.meta(i, "node", false), "spec": spec}
}

func (g *storageGen) csiStorageCapacity(i int) map[string]any {
	m := map[string]any{"apiVersion": "storage.k8s.io/v1", "kind": "CSIStorageCapacity", "metadata": g.meta(i, "csisc", true)}
	switch g.r.IntN(7) {
	case 0:
	case 1:
		m["nodeTopology"] = map[string]any{"matchLabels": map[string]any{"topology.kubernetes.io/zone": g.pick("bad value!", "-x")}}
	case 2:
		m["nodeTopology"] = map[string]any{"matchLabels": map[string]any{"bad key!": "a"}}
	case 3:
		m["nodeTopology"] = map[string]any{"matchExpressions": []any{map[string]any{"key": "zone", "operator": g.pick("In", "Exists", "in", "NotIn"), "values": g.pick([]any{}, []any{"a"})}}}
	default:
		m["nodeTopology"] = map[string]any{"matchLabels": map[string]any{"topology.kubernetes.io/zone": "us-east-1a"}}
	}
	if g.chance(0.85) {
		m["storageClassName"] = g.pick("gp3", "standard", "fast.ssd")
	} else if g.chance(0.7) {
		m["storageClassName"] = g.pick("", "Bad_SC", "a..b")
	}
	if g.chance(0.7) {
		m["capacity"] = g.pick("10Gi", "0", "-1Gi", "1.5Ti", "-0.001")
	}
	if g.chance(0.3) {
		m["maximumVolumeSize"] = g.pick("1Ti", "-1")
	}
	return m
}

// storageRules are messages of rules the generator must reach.
var storageRules = []string{
	`metadata.name: Invalid value: "Bad_Name"`,
	"metadata.name: Required value: name or generateName is required",
	`spec.fsGroupPolicy: Unsupported value: "Bogus": supported values: "File", "None", "ReadWriteOnceWithFSType"`,
	`spec.tokenRequests[1].audience: Duplicate value: "vault"`,
	"may not specify a duration less than 10 minutes",
	"may not specify a duration larger than 2^32 seconds",
	`spec.volumeLifecycleModes: Unsupported value: "persistent": supported values: "Persistent", "Ephemeral"`,
	"spec.nodeAllocatableUpdatePeriodSeconds: Invalid value: 9: must be greater than or equal to 10 seconds",
	"serviceAccountTokenInSecrets is set but no tokenRequests are specified",
	"driverName: Required value",
	`driverName: Invalid value: "bad_driver!"`,
	"parameters: Required value: must contain at least one key/value pair",
	`parameters: Invalid value: "": field can not be empty.`,
	"parameters: Too long: may not be more than 512 bytes",
	"parameters: Too long: may not be more than 262144 bytes",
	"spec.attacher: Required value",
	`spec.attacher: Invalid value: "Bad_Driver"`,
	"spec.attacher: Too long: may not be more than 63 bytes",
	"spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName",
	"spec.source: Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName",
	"spec.source.persistentVolumeName: Required value: must specify non empty persistentVolumeName",
	`spec.source.persistentVolumeName: Invalid value: "Bad_PV"`,
	"spec.source.inlineVolumeSpec.capacity: Forbidden: may not be specified in the context of inline volumes",
	"spec.source.inlineVolumeSpec.claimRef: Forbidden",
	"spec.source.inlineVolumeSpec.csi: Required value: has to be specified in the context of inline volumes",
	"spec.source.inlineVolumeSpec.nodeAffinity: Forbidden",
	"spec.source.inlineVolumeSpec.storageClassName: Forbidden",
	"spec.source.inlineVolumeSpec.volumeMode: Forbidden: may not specify volumeMode other than Filesystem in the context of inline volumes",
	"spec.source.inlineVolumeSpec.persistentVolumeReclaimPolicy: Forbidden: may only be Retain in the context of inline volumes",
	"spec.source.inlineVolumeSpec.nodeAffinity: Required value: Local volume requires node affinity",
	"spec.source.inlineVolumeSpec.csi.volumeHandle: Required value",
	`spec.nodeName: Invalid value: ""`,
	`spec.nodeName: Invalid value: "Node_1"`,
	`spec.drivers[1].name: Duplicate value: "ebs.csi.aws.com"`,
	"spec.drivers[0].nodeID: Required value",
	"must be 256 characters or less",
	"spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0",
	"spec.drivers[0]: Required value",
	`spec.drivers[0]: Duplicate value: "zone"`,
	`spec.drivers[0]: Invalid value: "bad key!"`,
	`spec.drivers[0].name: Invalid value: "Bad_Driver"`,
	`nodeTopology.matchLabels: Invalid value: "bad value!"`,
	`nodeTopology.matchExpressions[0].operator: Invalid value: "in"`,
	"nodeTopology.matchExpressions[0].values: Required value",
	`storageClassName: Invalid value: ""`,
	`storageClassName: Invalid value: "Bad_SC"`,
	`capacity: Invalid value: "-1Gi": must be greater than or equal to 0`,
}

// TestStorageValidationParity compares limitcheck's create path for the
// storage.k8s.io kinds other than StorageClass (VAL-87..VAL-90, VAL-100)
// with kube-apiserver's on random documents: verdict, HTTP status and the
// whole message.
func TestStorageValidationParity(t *testing.T) {
	g := &storageGen{r: rand.New(rand.NewPCG(*flagStorageSeed, *flagStorageSeed^0x2f1c6a3be5d94817))}
	p := newParity(t, *flagStorageSeed)
	for i := 0; i < *flagStorageCases; i++ {
		var m map[string]any
		switch r := g.r.Float64(); {
		case r < 0.25:
			m = g.csiDriver(i)
		case r < 0.5:
			m = g.volumeAttributesClass(i)
		case r < 0.7:
			m = g.volumeAttachment(i)
		case r < 0.85:
			m = g.csiNode(i)
		default:
			m = g.csiStorageCapacity(i)
		}
		kind := m["kind"].(string)
		doc, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var want, got rqOutcome
		if kind == "CSIStorageCapacity" {
			if want, err = upstreamCapacityCreate(doc, "ns1"); err != nil {
				t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
			}
			if got, err = mineCapacityCreate(doc, "ns1"); err != nil {
				t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
			}
		} else {
			if want, err = upstreamClusterCreate(doc, kind); err != nil {
				t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
			}
			if got, _, err = mineClusterCreate(doc, kind); err != nil {
				t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
			}
		}
		if len(doc) > 4096 {
			doc = append(doc[:4096:4096], "…"...)
		}
		p.compare(i, kind, doc, want, got, "", storageRules, nil)
	}
	p.finish("storage.k8s.io objects", *flagStorageCases, []string{""}, map[string][]string{"": storageRules})
}
