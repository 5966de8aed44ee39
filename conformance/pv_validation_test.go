package conformance

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

var (
	flagPVCases = flag.Int("pv-cases", 4000, "number of random PersistentVolumes")
	flagPVSeed  = flag.Uint64("pv-seed", 1, "PersistentVolume generator seed")
)

type pvGen struct{ r *rand.Rand }

func (g *pvGen) chance(p float64) bool { return g.r.Float64() < p }
func (g *pvGen) pick(xs ...any) any    { return xs[g.r.IntN(len(xs))] }

// source is one volume source: mostly valid, sometimes with a mistake.
func (g *pvGen) source(name string) any {
	bad := g.chance(0.3)
	switch name {
	case "hostPath":
		s := map[string]any{"path": "/mnt/data"}
		if bad {
			s["path"] = g.pick("", "/mnt/../etc", "relative", "/")
		}
		if g.chance(0.3) {
			s["type"] = g.pick("Directory", "DirectoryOrCreate", "", "directory", "Socket")
		}
		return s
	case "nfs":
		s := map[string]any{"server": "10.0.0.1", "path": "/exports"}
		if bad {
			switch g.r.IntN(3) {
			case 0:
				delete(s, "server")
			case 1:
				s["path"] = g.pick("", "exports", "/a/../b")
			default:
				delete(s, "path")
			}
		}
		return s
	case "local":
		s := map[string]any{"path": "/mnt/disks/ssd1"}
		if bad {
			s["path"] = g.pick("", "/mnt/../x", "rel")
		}
		return s
	case "csi":
		s := map[string]any{"driver": "ebs.csi.aws.com", "volumeHandle": "vol-1"}
		if bad {
			switch g.r.IntN(5) {
			case 0:
				s["driver"] = g.pick("", "Ebs.CSI.aws.com", "bad_driver", strings.Repeat("d", 64), "-x")
			case 1:
				delete(s, "volumeHandle")
			case 2:
				s[g.pick("controllerPublishSecretRef", "nodePublishSecretRef", "controllerExpandSecretRef", "nodeExpandSecretRef").(string)] =
					g.pick(map[string]any{"name": "s"}, map[string]any{"namespace": "ns"}, map[string]any{"name": "Bad_Name", "namespace": "ns"},
						map[string]any{"name": "s", "namespace": "a.b"}, map[string]any{"name": "s", "namespace": "ns"})
			default:
				s["fsType"] = "ext4"
			}
		}
		return s
	}
	return intreeSource(g.r, name, true, 0.5)
}

var pvSources = append([]string{"hostPath", "nfs", "local", "csi"}, intreeSources...)

func (g *pvGen) nodeAffinity() any {
	switch g.r.IntN(6) {
	case 0:
		return map[string]any{}
	case 1:
		return map[string]any{"required": map[string]any{"nodeSelectorTerms": []any{}}}
	case 2:
		return map[string]any{"required": map[string]any{"nodeSelectorTerms": []any{map[string]any{"matchExpressions": []any{
			map[string]any{"key": "kubernetes.io/hostname", "operator": g.pick("In", "Exists", "in"), "values": []any{g.pick("node-1", "bad value!")}}}}}}}
	default:
		return map[string]any{"required": map[string]any{"nodeSelectorTerms": []any{map[string]any{"matchExpressions": []any{
			map[string]any{"key": "kubernetes.io/hostname", "operator": "In", "values": []any{"node-1"}}}}}}}
	}
}

// pv is a PersistentVolume with zero or more mistakes.
func (g *pvGen) pv(i int) map[string]any {
	meta := map[string]any{"name": fmt.Sprintf("pv-%d", i)}
	if g.chance(0.08) {
		meta["name"] = g.pick("PV_1", "pv.", "", "a/b", "..")
		if meta["name"] == "" {
			if g.chance(0.5) {
				meta["generateName"] = g.pick("pv-", "PV-")
			} else {
				delete(meta, "name")
			}
		}
	}
	if g.chance(0.1) {
		meta["namespace"] = "ns1" // dropped: cluster-scoped
	}
	if g.chance(0.08) {
		meta["annotations"] = map[string]any{"volume.beta.kubernetes.io/mount-options": "hard,nfsvers=4.1"}
	}
	if g.chance(0.05) {
		meta["labels"] = map[string]any{"bad key!": "x"}
	}
	spec := map[string]any{}
	if !g.chance(0.07) {
		switch g.r.IntN(8) {
		case 0:
			spec["accessModes"] = []any{g.pick("ReadWriteOnce", "RWO", "readwriteonce")}
		case 1:
			spec["accessModes"] = []any{"ReadWriteOncePod", g.pick("ReadWriteOnce", "ReadOnlyMany", "Bogus")}
		case 2:
			spec["accessModes"] = []any{"ReadWriteOncePod"}
		case 3:
			spec["accessModes"] = []any{}
		default:
			spec["accessModes"] = []any{g.pick("ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany")}
		}
	}
	if !g.chance(0.07) {
		switch g.r.IntN(10) {
		case 0:
			spec["capacity"] = map[string]any{}
		case 1:
			spec["capacity"] = map[string]any{"storage": g.pick("0", "-1Gi", "-0.5", "0.0001")}
		case 2:
			spec["capacity"] = map[string]any{"storage": "1Gi", "cpu": "1"}
		case 3:
			spec["capacity"] = map[string]any{"memory": "1Gi"}
		default:
			spec["capacity"] = map[string]any{"storage": g.pick("10Gi", "500Mi", "1.5Gi", "1e3")}
		}
	}
	if g.chance(0.3) {
		spec["persistentVolumeReclaimPolicy"] = g.pick("Retain", "Delete", "Recycle", "recycle", "Keep")
	}
	if g.chance(0.25) {
		spec["storageClassName"] = g.pick("manual", "standard", "Bad_Class", "local-storage")
	}
	if g.chance(0.15) {
		spec["volumeMode"] = g.pick("Filesystem", "Block", "block")
	}
	if g.chance(0.08) {
		spec["volumeAttributesClassName"] = g.pick("", "gold", "Bad_VAC")
	}
	if g.chance(0.25) {
		spec["nodeAffinity"] = g.nodeAffinity()
	}
	if g.chance(0.05) {
		spec["mountOptions"] = []any{"hard"}
	}
	// Sources: usually one, sometimes none or two.
	n := 1
	switch {
	case g.chance(0.06):
		n = 0
	case g.chance(0.1):
		n = 2
	}
	for range n {
		s := pvSources[g.r.IntN(len(pvSources))]
		if g.chance(0.4) {
			s = g.pick("hostPath", "nfs", "local", "csi").(string)
		}
		spec[s] = g.source(s)
		if s == "hostPath" && g.chance(0.15) {
			spec[s] = map[string]any{"path": g.pick("/", "//", "/mnt/..")}
			spec["persistentVolumeReclaimPolicy"] = "Recycle"
		}
	}
	return map[string]any{"apiVersion": "v1", "kind": "PersistentVolume", "metadata": meta, "spec": spec}
}

// pvRules are messages of rules the generator must reach.
var pvRules = []string{
	"spec.accessModes: Required value",
	`spec.accessModes: Unsupported value: "RWO"`,
	"may not use ReadWriteOncePod with other access modes",
	"spec.capacity: Required value",
	`spec.capacity: Unsupported value: {"cpu":"1","storage":"1Gi"}: supported values: "storage"`,
	`spec.capacity[storage]: Invalid value: -1073741824: must be a valid resource quantity`,
	`spec.capacity[storage]: Invalid value: "0": must be greater than zero`,
	`spec.persistentVolumeReclaimPolicy: Unsupported value: "recycle"`,
	"spec.nodeAffinity.required: Required value: must specify required node constraints",
	"spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term",
	"spec.nodeAffinity: Required value: Local volume requires node affinity",
	"may not specify more than 1 volume type",
	"spec: Required value: must specify a volume type",
	"spec.hostPath.path: Required value",
	`spec.hostPath.path: Invalid value: "/mnt/../etc": must not contain '..'`,
	`spec.hostPath.type: Unsupported value: "directory"`,
	"may not be 'recycle' for a hostPath mount of '/'",
	"spec.nfs.server: Required value",
	`spec.nfs.path: Invalid value: "exports": must be an absolute path`,
	"spec.local.path: Required value",
	`spec.local.path: Invalid value: "/mnt/../x": must not contain '..'`,
	"spec.csi.driver: Required value",
	"spec.csi.driver: Too long: may not be more than 63 bytes",
	`spec.csi.driver: Invalid value: "bad_driver"`,
	"spec.csi.volumeHandle: Required value",
	"SecretRef.namespace: Required value",
	"SecretRef.name: Required value",
	`SecretRef.name: Invalid value: "Bad_Name"`,
	`SecretRef.namespace: Invalid value: "a.b"`,
	`spec.storageClassName: Invalid value: "Bad_Class"`,
	`spec.volumeMode: Unsupported value: "block"`,
	"spec.volumeAttributesClassName: Required value: an empty string is disallowed",
	"spec.csi: Required value: has to be specified when using volumeAttributesClassName",
	"metadata.annotations.volume.beta.kubernetes.io/mount-options: Forbidden: may not specify mount options for this volume type",
	// The in-tree sources (intree_gen.go).
	"spec.persistentDisk.pdName: Required value",
	"spec.persistentDisk.partition: Invalid value: 256: must be between 1 and 255, inclusive",
	"spec.awsElasticBlockStore.volumeID: Required value",
	"spec.iscsi.targetPortal: Required value",
	`spec.iscsi.iqn: Invalid value: "foo.bar": must be valid format`,
	`spec.iscsi.iqn: Invalid value: "iqn.2001-04.com.example": must be valid format`,
	"spec.iscsi.lun: Invalid value: 256: must be between 0 and 255, inclusive",
	"spec.iscsi.secretRef: Required value",
	"spec.iscsi.secretRef.name: Required value",
	`spec.iscsi.initiatorname: Invalid value: "client1": must be valid format`,
	"must be under 64 characters if iscsi.initiatorName is specified",
	"spec.glusterfs.endpoints: Required value",
	`spec.glusterfs.endpointsNamespace: Invalid value: "": if the endpointnamespace is set`,
	`spec.glusterfs.endpointsNamespace: Invalid value: "Bad_NS"`,
	"spec.flocker: Required value: one of datasetName and datasetUUID is required",
	`spec.flocker: Invalid value: "resource": datasetName and datasetUUID can not be specified simultaneously`,
	`spec.flocker.datasetName: Invalid value: "team/dataset": must not contain '/'`,
	"spec.rbd.monitors: Required value",
	"spec.rbd.image: Required value",
	"spec.quobyte.registry: Required value: must be a host:port pair",
	`spec.quobyte.registry: Invalid value: "a:1,b": must be a host:port pair`,
	"spec.quobyte.tenant: Required value: must be a UUID",
	"spec.quobyte.volume: Required value",
	"spec.cephfs.monitors: Required value",
	"spec.cinder.volumeID: Required value",
	"spec.cinder.secretRef.namespace: Required value",
	"spec.fc.targetWWNs: Required value: must specify either targetWWNs or wwids, but not both",
	"targetWWNs and wwids can not be specified simultaneously",
	"spec.fc.lun: Required value: lun is required if targetWWNs is specified",
	"spec.fc.lun: Invalid value: 256: must be between 0 and 255, inclusive",
	"spec.flexVolume.driver: Required value",
	"kubernetes.io and k8s.io namespaces are reserved",
	"spec.azureFile.shareName: Required value",
	"spec.azureFile.secretNamespace: Required value",
	"spec.vsphereVolume.volumePath: Required value",
	"spec.photonPersistentDisk.pdID: Required value",
	"spec.portworxVolume.volumeID: Required value",
	"spec.azureDisk.diskName: Required value",
	`spec.azureDisk.kind: Unsupported value: "Bogus": supported values: "Dedicated", "Managed", "Shared"`,
	`spec.azureDisk.cachingMode: Unsupported value: "Write": supported values: "None", "ReadOnly", "ReadWrite"`,
	`spec.azureDisk.diskURI: Unsupported value: "http://x": supported values: "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"`,
	`spec.azureDisk.diskURI: Unsupported value: "https://someaccount.blob.core.windows.net/vhds/test.vhd": supported values: "/subscriptions/`,
	"spec.scaleIO.gateway: Required value",
	"spec.scaleIO.volumeName: Required value",
	"spec.storageos.volumeName: Required value",
	`spec.storageos.volumeName: Invalid value: "Redis_Vol"`,
	`spec.storageos.volumeNamespace: Invalid value: "Team A"`,
	"spec.storageos.secretRef.namespace: Required value",
	`metadata.name: Invalid value: "PV_1"`,
	`metadata.generateName: Invalid value: "PV-"`,
	"metadata.name: Required value: name or generateName is required",
	`metadata.labels: Invalid value: "bad key!"`,
}

// TestPersistentVolumeValidationParity compares limitcheck's create path for
// PersistentVolumes (VAL-91) with kube-apiserver's on random documents:
// verdict, HTTP status and the whole message.
func TestPersistentVolumeValidationParity(t *testing.T) {
	g := &pvGen{r: rand.New(rand.NewPCG(*flagPVSeed, *flagPVSeed^0x510e527fade682d1))}
	p := newParity(t, *flagPVSeed)
	for i := 0; i < *flagPVCases; i++ {
		doc, err := json.Marshal(g.pv(i))
		if err != nil {
			t.Fatal(err)
		}
		want, err := upstreamClusterCreate(doc, "PersistentVolume")
		if err != nil {
			t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
		}
		got, _, err := mineClusterCreate(doc, "PersistentVolume")
		if err != nil {
			t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
		}
		p.compare(i, "PersistentVolume", doc, want, got, "", pvRules, nil)
	}
	p.finish("PersistentVolumes", *flagPVCases, []string{""}, map[string][]string{"": pvRules})
}
