package eval

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestPersistentVolumeValidation: VAL-91, whole messages. A valid
// PersistentVolume is skipped as cluster-scoped; the defaults it gets are
// checked on the object.
func TestPersistentVolumeValidation(t *testing.T) {
	const pv = "apiVersion: v1\nkind: PersistentVolume\n"
	for _, tc := range []struct {
		name, doc string
		want      string // "" valid
	}{
		{name: "the tutorial's hostPath volume", doc: pv + "metadata: {name: task-pv-volume, labels: {type: local}}\nspec:\n  storageClassName: manual\n  capacity: {storage: 10Gi}\n  accessModes: [ReadWriteOnce]\n  hostPath: {path: /mnt/data}\n"},
		{name: "a namespace is ignored", doc: pv + "metadata: {name: nfs, namespace: Not_A_Namespace}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteMany], nfs: {server: nfs.example.com, path: /exports}}\n"},
		{name: "local volume with node affinity", doc: pv + "metadata: {name: local-pv}\nspec:\n  capacity: {storage: 100Gi}\n  accessModes: [ReadWriteOnce]\n  storageClassName: local-storage\n  local: {path: /mnt/disks/ssd1}\n  nodeAffinity:\n    required:\n      nodeSelectorTerms:\n      - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-1]}]\n"},
		{name: "nothing but a name", doc: pv + "metadata: {name: empty}\n",
			want: `PersistentVolume "empty" is invalid: [spec.accessModes: Required value, spec.capacity: Required value, spec.capacity: Unsupported value: null: supported values: "storage", spec: Required value: must specify a volume type]`},
		{name: "local without node affinity, lowercase access mode", doc: pv + "metadata: {name: local-pv}\nspec: {capacity: {storage: 100Gi}, accessModes: [readwriteonce], local: {path: /mnt/disks/ssd1}}\n",
			want: `PersistentVolume "local-pv" is invalid: [spec.accessModes: Unsupported value: "readwriteonce": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod", spec.nodeAffinity: Required value: Local volume requires node affinity]`},
		{name: "capacity with cpu, negative storage", doc: pv + "metadata: {name: p}\nspec: {capacity: {storage: -1Gi, cpu: \"1\"}, accessModes: [ReadWriteOnce], hostPath: {path: /data}}\n",
			want: `PersistentVolume "p" is invalid: [spec.capacity: Unsupported value: {"cpu":"1","storage":"-1Gi"}: supported values: "storage", spec.capacity[storage]: Invalid value: -1073741824: must be a valid resource quantity, spec.capacity[storage]: Invalid value: "-1Gi": must be greater than zero]`},
		{name: "in-tree sources checked, azureDisk kind defaulted to Shared", doc: pv + "metadata: {name: p}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], azureDisk: {diskName: d, diskURI: /subscriptions/s/disks/d}, flexVolume: {driver: a/b, options: {kubernetes.io/fs: x}}, iscsi: {targetPortal: 10.0.0.1}}\n",
			want: `PersistentVolume "p" is invalid: [spec.iscsi.iqn: Required value, spec.flexVolume.options[kubernetes.io/fs]: Invalid value: "kubernetes.io/fs": kubernetes.io and k8s.io namespaces are reserved, spec.azureDisk: Forbidden: may not specify more than 1 volume type]`},
		{name: "in-tree secret references", doc: pv + "metadata: {name: p}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], cinder: {volumeID: v, secretRef: {name: s}}, glusterfs: {endpoints: e, path: p, endpointsNamespace: Team_A}}\n",
			want: `PersistentVolume "p" is invalid: [spec.glusterfs.endpointsNamespace: Invalid value: "Team_A": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), spec.cinder: Forbidden: may not specify more than 1 volume type]`},
		{name: "an azureDisk without kind is a Shared blob disk", doc: pv + "metadata: {name: p}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], azureDisk: {diskName: d, diskURI: /subscriptions/s/disks/d}}\n",
			want: `PersistentVolume "p" is invalid: spec.azureDisk.diskURI: Unsupported value: "/subscriptions/s/disks/d": supported values: "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"`},
		{name: "two sources, flexVolume counted silently", doc: pv + "metadata: {name: p}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], flexVolume: {driver: a/b}, nfs: {server: s, path: /x}, csi: {driver: d, volumeHandle: h}}\n",
			want: `PersistentVolume "p" is invalid: spec.csi: Forbidden: may not specify more than 1 volume type`},
		{name: "hostPath of / with Recycle, mount options annotation", doc: pv + "metadata: {name: root, annotations: {volume.beta.kubernetes.io/mount-options: hard}}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], persistentVolumeReclaimPolicy: Recycle, hostPath: {path: /}}\n",
			want: `PersistentVolume "root" is invalid: [spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/', metadata.annotations.volume.beta.kubernetes.io/mount-options: Forbidden: may not specify mount options for this volume type]`},
		{name: "csi: driver case, handle, secret reference", doc: pv + "metadata: {name: c}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], csi: {driver: EBS.csi.aws.com_, nodePublishSecretRef: {name: creds}}}\n",
			want: `PersistentVolume "c" is invalid: [spec.csi.driver: Invalid value: "EBS.csi.aws.com_": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.csi.volumeHandle: Required value, spec.csi.nodePublishSecretRef.namespace: Required value]`},
		{name: "policy, class, mode, empty attributes class", doc: pv + "metadata: {name: p}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], persistentVolumeReclaimPolicy: retain, storageClassName: Fast_SSD, volumeMode: block, volumeAttributesClassName: \"\", nfs: {server: s, path: exports}}\n",
			want: `PersistentVolume "p" is invalid: [spec.persistentVolumeReclaimPolicy: Unsupported value: "retain": supported values: "Delete", "Recycle", "Retain", spec.nfs.path: Invalid value: "exports": must be an absolute path, spec.storageClassName: Invalid value: "Fast_SSD": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.volumeMode: Unsupported value: "block": supported values: "Block", "Filesystem", spec.volumeAttributesClassName: Required value: an empty string is disallowed, spec.csi: Required value: has to be specified when using volumeAttributesClassName]`},
		{name: "node affinity without required", doc: pv + "metadata: {name: p}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /data, type: directory}, nodeAffinity: {}}\n",
			want: `PersistentVolume "p" is invalid: [spec.nodeAffinity.required: Required value: must specify required node constraints, spec.hostPath.type: Unsupported value: "directory": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "ns1"})
			obj := decode(t, tc.doc)
			res := e.Admit(obj)
			switch {
			case tc.want == "":
				if res.Denial != nil || !res.Skipped {
					t.Fatalf("got denial %+v skipped %v, want a valid volume", res.Denial, res.Skipped)
				}
				v := obj.(*corev1.PersistentVolume)
				if v.Spec.PersistentVolumeReclaimPolicy != corev1.PersistentVolumeReclaimRetain || v.Spec.VolumeMode == nil ||
					*v.Spec.VolumeMode != corev1.PersistentVolumeFilesystem || v.Status.Phase != corev1.VolumePending {
					t.Errorf("defaults: reclaim %q, mode %v, phase %q", v.Spec.PersistentVolumeReclaimPolicy, v.Spec.VolumeMode, v.Status.Phase)
				}
			case res.Denial == nil:
				t.Fatalf("admitted, want %s", tc.want)
			case res.Denial.Message != tc.want || res.Denial.Code != 422:
				t.Fatalf("got %d %s\nwant 422 %s", res.Denial.Code, res.Denial.Message, tc.want)
			}
		})
	}
}
