package conformance

import (
	"math/rand/v2"
	"strings"
)

// intreeSources are the in-tree cloud and network volume sources, by their
// JSON names, that a Pod's volume and a PersistentVolume share.
var intreeSources = []string{"gcePersistentDisk", "awsElasticBlockStore", "iscsi", "glusterfs", "flocker", "rbd", "quobyte",
	"cephfs", "cinder", "fc", "flexVolume", "azureFile", "vsphereVolume", "photonPersistentDisk", "portworxVolume",
	"azureDisk", "scaleIO", "storageos"}

// intreeSource is one in-tree source named name: as a real manifest writes
// it, or (with probability bad) with the fields people leave out or get
// wrong. pv selects a PersistentVolume's variant of the source (secret
// references with a namespace, endpointsNamespace, secretNamespace).
func intreeSource(r *rand.Rand, name string, pv bool, bad float64) map[string]any {
	pick := func(xs ...any) any { return xs[r.IntN(len(xs))] }
	chance := func(p float64) bool { return r.Float64() < p }
	s := map[string]any{}
	// drop removes one of the fields a valid source sets, now and then.
	drop := func(keys ...string) {
		if chance(bad) {
			delete(s, keys[r.IntN(len(keys))])
		}
	}
	secretRef := func() map[string]any {
		ref := map[string]any{"name": pick("creds", "").(string)}
		if pv {
			ref["namespace"] = pick("ns1", "").(string)
		}
		return ref
	}
	switch name {
	case "gcePersistentDisk":
		s["pdName"], s["fsType"] = "data-disk", "ext4"
		drop("pdName")
		if chance(bad) {
			s["partition"] = pick(0, 1, 255, -1, 256)
		}
	case "awsElasticBlockStore":
		s["volumeID"], s["fsType"] = "vol-0abc", "ext4"
		drop("volumeID")
		if chance(bad) {
			s["partition"] = pick(1, -2, 300)
		}
	case "iscsi":
		s["targetPortal"], s["iqn"], s["lun"] = "10.0.2.15:3260", "iqn.2001-04.com.example:storage.kube.sys1.xyz", 0
		drop("targetPortal", "iqn")
		if chance(bad) {
			s["iqn"] = pick("iqn.2001-04.com.example", "eui.02004567A425678D", "eui.0200", "naa.60014055f3c1f0e9b3a4b5c6d7e8f9a1",
				"naa.123", "foo.bar", "IQN.2001-04.com.example:x")
		}
		if chance(bad) {
			s["lun"] = pick(-1, 255, 256)
		}
		if chance(bad) {
			s[pick("chapAuthDiscovery", "chapAuthSession").(string)] = true
			if chance(0.5) {
				s["secretRef"] = secretRef()
			}
		}
		if chance(bad) {
			s["initiatorName"] = pick("iqn.1994-05.com.redhat:client", "iqn.bad", "eui.0123456789ABCDEF", "naa.1", "client1")
			if chance(0.5) {
				s["targetPortal"] = strings.Repeat("10.0.2.15", 6) + ":3260"
			}
		}
	case "glusterfs":
		s["endpoints"], s["path"] = "glusterfs-cluster", "kube_vol"
		drop("endpoints", "path")
		if pv && chance(bad) {
			s["endpointsNamespace"] = pick("", "storage", "Bad_NS").(string)
		}
	case "flocker":
		switch {
		case !chance(bad):
			s["datasetName"] = "my-dataset"
		case chance(0.3):
		case chance(0.5):
			s["datasetName"], s["datasetUUID"] = pick("ds", "a/b").(string), "1f2e3d"
		default:
			s["datasetName"] = "team/dataset"
		}
	case "rbd":
		s["monitors"], s["image"], s["pool"] = []any{"10.16.154.78:6789"}, "foo", "kube"
		drop("monitors", "image")
		if chance(bad) {
			s["monitors"] = []any{}
		}
	case "quobyte":
		s["registry"], s["volume"] = "registry:7861", "testVolume"
		drop("registry", "volume")
		if chance(bad) {
			s["registry"] = pick("registry", "a:1,b", "a:1,b:2", "[::1]:7861", "a,b").(string)
		}
		if chance(bad) {
			s["tenant"] = pick(strings.Repeat("t", 65), "tenant-1").(string)
		}
	case "cephfs":
		s["monitors"], s["path"] = []any{"10.16.154.78:6789"}, "/"
		drop("monitors")
	case "cinder":
		s["volumeID"], s["fsType"] = "bd82f7e2-wece-4c01-a505-4acf60b07f4a", "ext4"
		drop("volumeID")
		if chance(bad) {
			s["secretRef"] = secretRef()
		}
	case "fc":
		switch {
		case !chance(bad):
			s["targetWWNs"], s["lun"] = []any{"500a0982991b8dc5"}, 2
		case chance(0.25):
		case chance(0.33):
			s["targetWWNs"], s["wwids"] = []any{"500a0982991b8dc5", "500a0982891b8dc5"}, []any{"3600508b400105e210000900000490000"}
		case chance(0.5):
			s["targetWWNs"], s["lun"] = []any{"500a0982991b8dc5"}, pick(-1, 256, 255)
		default:
			s["targetWWNs"] = []any{"500a0982991b8dc5"}
		}
	case "flexVolume":
		s["driver"] = "example.com/lvm"
		drop("driver")
		if chance(bad) {
			// At most one reserved key: upstream reports two in map order.
			s["options"] = map[string]any{
				pick("kubernetes.io/secret", "foo.k8s.io/x", "Example.K8S.IO", "volumeID").(string): "a",
				pick("example.com/size", "size").(string):                                           "b",
			}
		}
	case "azureFile":
		s["secretName"], s["shareName"] = "azure-secret", "k8stest"
		drop("secretName", "shareName")
		if pv && chance(bad) {
			s["secretNamespace"] = pick("", "default").(string)
		}
	case "vsphereVolume":
		s["volumePath"] = "[datastore1] volumes/myDisk"
		drop("volumePath")
	case "photonPersistentDisk":
		s["pdID"] = "disk-1"
		drop("pdID")
	case "portworxVolume":
		s["volumeID"] = "pxvol"
		drop("volumeID")
	case "azureDisk":
		s["diskName"], s["diskURI"] = "test.vhd", "https://someaccount.blob.core.windows.net/vhds/test.vhd"
		drop("diskName", "diskURI")
		if chance(bad) {
			s["kind"] = pick("Managed", "Shared", "Dedicated", "Bogus", "managed")
		}
		if chance(bad) {
			s["diskURI"] = pick("/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Compute/disks/d", "http://x", "").(string)
		}
		if chance(bad) {
			s["cachingMode"] = pick("None", "ReadOnly", "readwrite", "Write")
		}
	case "scaleIO":
		s["gateway"], s["system"], s["volumeName"], s["secretRef"] = "https://localhost:443/api", "scaleio", "vol-0", map[string]any{"name": "sio-secret"}
		drop("gateway", "system", "volumeName")
	case "storageos":
		s["volumeName"] = "redis-vol01"
		drop("volumeName")
		if chance(bad) {
			s["volumeName"] = pick("Redis_Vol", "redis-vol01").(string)
		}
		if chance(bad) {
			s["volumeNamespace"] = pick("", "default", "Team A").(string)
		}
		if chance(bad) {
			if pv {
				s["secretRef"] = map[string]any{"name": pick("", "s").(string), "namespace": pick("", "ns1").(string)}
			} else {
				s["secretRef"] = map[string]any{"name": pick("", "s").(string)}
			}
		}
	}
	return s
}
