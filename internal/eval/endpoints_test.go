package eval

import "testing"

// TestEndpointsValidation: VAL-93, whole messages (held to kube-apiserver's
// by conformance TestEndpointsValidationParity). Endpoints for a Service
// without a selector, as written by hand.
func TestEndpointsValidation(t *testing.T) {
	const ep = "apiVersion: v1\nkind: Endpoints\n"
	for _, tc := range []struct{ name, doc, want string }{
		{"an external database", ep + "metadata: {name: external-db}\nsubsets:\n- addresses: [{ip: 10.0.0.12}]\n  ports: [{port: 5432}]\n", ""},
		{"loopback, a hostname for an IP, unnamed ports",
			ep + "metadata: {name: db}\nsubsets:\n- addresses: [{ip: 127.0.0.1}, {ip: db.example.com}]\n  ports: [{port: 5432}, {port: 5433, protocol: tcp}]\n",
			`Endpoints "db" is invalid: [subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128), subsets[0].addresses[1].ip: Invalid value: "db.example.com": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff), subsets[0].addresses[1].ip: Invalid value: "db.example.com": must be a valid IP address, subsets[0].ports[0].name: Required value, subsets[0].ports[1].name: Required value, subsets[0].ports[1].protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"]`},
		{"a subset without addresses", ep + "metadata: {name: db}\nsubsets:\n- ports: [{port: 5432}]\n",
			"Endpoints \"db\" is invalid: subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := New(Options{DefaultNamespace: "ns1"}).Admit(decode(t, tc.doc))
			got := ""
			if res.Denial != nil {
				got = res.Denial.Message
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
