package eval

import "testing"

// TestServiceAllocationWithoutName: the IP allocator records a Service's
// cluster IP as an IPAddress object whose parentRef names the Service, so a
// Service with neither name nor generateName is refused for its address
// before its metadata is validated (VAL-64); headless and ExternalName
// Services get no address and meet metadata.name's own error.
func TestServiceAllocationWithoutName(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"picked address", "spec: {selector: {app: web}, ports: [{port: 80}]}",
			`Service "" is invalid: spec.clusterIPs: Invalid value: [""]: failed to allocate IP: IPAddress.networking.k8s.io "10.96.128.4" is invalid: spec.parentRef.name: Required value`},
		{"requested address", "spec: {clusterIP: 10.96.7.7, ports: [{port: 80}]}",
			`Service "" is invalid: spec.clusterIPs: Invalid value: ["10.96.7.7"]: failed to allocate IP 10.96.7.7: IPAddress.networking.k8s.io "10.96.7.7" is invalid: spec.parentRef.name: Required value`},
		{"requested address taken: invalid before taken", "spec: {clusterIP: 10.96.0.1, ports: [{port: 80}]}",
			`Service "" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.1"]: failed to allocate IP 10.96.0.1: IPAddress.networking.k8s.io "10.96.0.1" is invalid: spec.parentRef.name: Required value`},
		{"requested address out of range", "spec: {clusterIP: 192.168.0.1, ports: [{port: 80}]}",
			`Service "" is invalid: spec.clusterIPs: Invalid value: ["192.168.0.1"]: failed to allocate IP 192.168.0.1: the provided network does not match the current range`},
		{"headless", "spec: {clusterIP: None, ports: [{port: 80}]}",
			`Service "" is invalid: metadata.name: Required value: name or generateName is required`},
		{"ExternalName", "spec: {type: ExternalName, externalName: db.example.com}",
			`Service "" is invalid: metadata.name: Required value: name or generateName is required`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{DefaultNamespace: "ns1"})
			// an admitted Service first: placeholders go on counting
			if r := e.Admit(decode(t, "apiVersion: v1\nkind: Service\nmetadata: {name: first}\nspec: {ports: [{port: 80}]}")); !r.Allowed {
				t.Fatalf("first Service: %+v", r.Denial)
			}
			r := e.Admit(decode(t, "apiVersion: v1\nkind: Service\nmetadata: {}\n"+tc.doc))
			if r.Allowed || r.Denial == nil || r.Denial.Code != 422 || r.Denial.Message != tc.want {
				t.Fatalf("got %+v\nwant 422 %s", r.Denial, tc.want)
			}
		})
	}
	// A generated name is set before the address is allocated.
	e := New(Options{DefaultNamespace: "ns1"})
	if r := e.Admit(decode(t, "apiVersion: v1\nkind: Service\nmetadata: {generateName: web-}\nspec: {ports: [{port: 80}]}")); !r.Allowed {
		t.Fatalf("generateName: %+v", r.Denial)
	}
}
