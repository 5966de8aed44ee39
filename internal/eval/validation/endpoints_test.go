package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestEndpoints(t *testing.T) {
	addr := func(ip string) corev1.EndpointAddress { return corev1.EndpointAddress{IP: ip} }
	node := "Node_1"
	tests := []struct {
		name    string
		subsets []corev1.EndpointSubset
		want    []string
	}{
		{"external database", []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{addr("10.0.0.5")}, Ports: []corev1.EndpointPort{{Port: 5432}}}}, nil},
		{"two ports, one unnamed", []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{addr("10.0.0.5")},
			Ports: []corev1.EndpointPort{{Name: "pg", Port: 5432}, {Port: 5433, Protocol: "tcp"}}}},
			[]string{`subsets[0].ports[1].name: Required value`,
				`subsets[0].ports[1].protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"`}},
		{"no addresses", []corev1.EndpointSubset{{Ports: []corev1.EndpointPort{{Name: "PG", Port: 0}}}},
			[]string{"subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`",
				`subsets[0].ports[0].name: Invalid value: "PG": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
				`subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive`}},
		{"addresses a host cannot use", []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{addr("127.0.0.1"), addr("db.example.com"), {IP: "010.0.0.5", NodeName: &node}}}},
			[]string{`subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)`,
				`subsets[0].addresses[1].ip: Invalid value: "db.example.com": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
				`subsets[0].addresses[1].ip: Invalid value: "db.example.com": must be a valid IP address`,
				`subsets[0].addresses[2].ip: Invalid value: "010.0.0.5": must not have leading 0s`,
				`subsets[0].addresses[2].nodeName: Invalid value: "Node_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`}},
		{"not-ready address link-local", []corev1.EndpointSubset{{NotReadyAddresses: []corev1.EndpointAddress{addr("169.254.169.254")}}},
			[]string{`subsets[0].notReadyAddresses[0].ip: Invalid value: "169.254.169.254": may not be in the link-local range (169.254.0.0/16, fe80::/10)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ep := &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Name: "ext-db", Namespace: "ns"}, Subsets: tt.subsets}
			DefaultEndpoints(ep)
			var got []string
			for _, e := range Endpoints(ep) {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

func TestEndpointSlice(t *testing.T) {
	str := func(s string) *string { return &s }
	tests := []struct {
		name   string
		mutate func(s *discoveryv1.EndpointSlice)
		want   []string
	}{
		{"valid", func(s *discoveryv1.EndpointSlice) {}, nil},
		{"address type lowercase", func(s *discoveryv1.EndpointSlice) { s.AddressType = "ipv4" },
			[]string{`addressType: Unsupported value: "ipv4": supported values: "FQDN", "IPv4", "IPv6"`}},
		{"address type missing", func(s *discoveryv1.EndpointSlice) { s.AddressType = "" },
			[]string{`addressType: Required value`}},
		{"IPv6 address in an IPv4 slice, CIDR", func(s *discoveryv1.EndpointSlice) {
			s.Endpoints[0].Addresses = []string{"fd00::5", "10.0.0.5/32"}
		}, []string{`endpoints[0].addresses: Invalid value: "fd00::5": must be an IPv4 address`,
			`endpoints[0].addresses[1]: Invalid value: "10.0.0.5/32": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`}},
		{"FQDN slice", func(s *discoveryv1.EndpointSlice) {
			s.AddressType = discoveryv1.AddressTypeFQDN
			s.Endpoints[0].Addresses = []string{"db.example.com", "Db_Host"}
		}, []string{`endpoints[0].addresses[1]: Invalid value: "Db_Host": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`}},
		{"no addresses, ports unnamed twice", func(s *discoveryv1.EndpointSlice) {
			s.Endpoints[0].Addresses = nil
			s.Ports = []discoveryv1.EndpointPort{{Port: new(int32)}, {Name: str("PG")}, {}}
		}, []string{`ports[1].name: Invalid value: "PG": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
			`ports[2].name: Duplicate value: ""`,
			`endpoints[0].addresses: Required value: must contain at least 1 address`}},
		{"hints and topology", func(s *discoveryv1.EndpointSlice) {
			s.Endpoints[0].DeprecatedTopology = map[string]string{"a/b/c": "-bad-"} // dropped for v1
			s.Endpoints[0].Hostname = str("DB_0")
			s.Endpoints[0].Hints = &discoveryv1.EndpointHints{ForZones: []discoveryv1.ForZone{{Name: "zone-a"}, {Name: "zone-a"}},
				ForNodes: []discoveryv1.ForNode{{Name: "Node_1"}}}
		}, []string{`endpoints[0].hostname: Invalid value: "DB_0": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
			`endpoints[0].hints.forZones[1].name: Duplicate value: "zone-a"`,
			`endpoints[0].hints.forNodes[0].name: Invalid value: "Node_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			port := int32(5432)
			s := &discoveryv1.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Name: "ext-db-1", Namespace: "ns"},
				AddressType: discoveryv1.AddressTypeIPv4,
				Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{"10.0.0.5"}}},
				Ports:       []discoveryv1.EndpointPort{{Name: str("pg"), Port: &port}}}
			tt.mutate(s)
			PrepareEndpointSlice(s)
			var got []string
			for _, e := range EndpointSlice(s) {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}
