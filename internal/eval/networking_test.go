package eval

import (
	"encoding/json"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"

	"github.com/limitcheck/limitcheck/internal/eval/features"
)

func admitNetworking(t *testing.T, e *Engine, kind, doc string) Result {
	t.Helper()
	obj := NewObject("networking.k8s.io/v1", kind)
	if obj == nil {
		t.Fatalf("networking.k8s.io/v1 %s is not decoded typed", kind)
	}
	if err := json.Unmarshal([]byte(doc), obj); err != nil {
		t.Fatal(err)
	}
	obj.GetObjectKind().SetGroupVersionKind(networkingv1.SchemeGroupVersion.WithKind(kind))
	return e.Admit(obj)
}

// TestNetworkingValidation: VAL-66 and VAL-68, whole messages as
// kube-apiserver 1.36.3 words them (taken from the real strategies; the
// conformance module compares them on random documents).
func TestNetworkingValidation(t *testing.T) {
	for _, tc := range []struct {
		name, kind, doc string
		want            string // "" admitted
	}{
		{name: "missing pathType", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"rules":[{"host":"example.com","http":{"paths":[{"path":"/","backend":{"service":{"name":"web","port":{"number":80}}}}]}}]}}`,
			want: `Ingress.networking.k8s.io "web" is invalid: spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified`},
		{name: "path not absolute", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"rules":[{"http":{"paths":[{"path":"api","pathType":"Prefix","backend":{"service":{"name":"web","port":{"number":80}}}}]}}]}}`,
			want: `Ingress.networking.k8s.io "web" is invalid: spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path`},
		{name: "Exact path with // ending in /..", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"rules":[{"http":{"paths":[{"path":"/a//b/..","pathType":"Exact","backend":{"service":{"name":"web","port":{"number":80}}}}]}}]}}`,
			want: `Ingress.networking.k8s.io "web" is invalid: [spec.rules[0].http.paths[0].path: Invalid value: "/a//b/..": must not contain '//', spec.rules[0].http.paths[0].path: Invalid value: "/a//b/..": cannot end with '/..']`},
		{name: "service backend without port", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"rules":[{"http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"web"}}}]}}]}}`,
			want: `Ingress.networking.k8s.io "web" is invalid: spec.rules[0].http.paths[0].backend: Required value: port name or number is required`},
		{name: "both service and resource backends", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"rules":[{"http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"web","port":{"number":80}},"resource":{"kind":"StorageBucket","name":"static"}}}]}}]}}`,
			want: `Ingress.networking.k8s.io "web" is invalid: spec.rules[0].http.paths[0].backend: Invalid value: "": cannot set both resource and service backends`},
		{name: "two wildcards in the host", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"rules":[{"host":"*.*.example.com","http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"web","port":{"number":80}}}}]}}]}}`,
			want: `Ingress.networking.k8s.io "web" is invalid: spec.rules[0].host: Invalid value: "*.*.example.com": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\*\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{name: "host is an IP address", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"rules":[{"host":"10.0.0.1","http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"web","port":{"number":80}}}}]}}]}}`,
			want: `Ingress.networking.k8s.io "web" is invalid: spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address`},
		{name: "ingressClassName not a DNS subdomain", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"ingressClassName":"Nginx","defaultBackend":{"service":{"name":"web","port":{"name":"http"}}}}}`,
			want: `Ingress.networking.k8s.io "web" is invalid: spec.ingressClassName: Invalid value: "Nginx": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{name: "TLS secretName not a Secret name", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"defaultBackend":{"service":{"name":"web","port":{"number":80}}},"tls":[{"hosts":["example.com"],"secretName":"Web_TLS"}]}}`,
			want: `Ingress.networking.k8s.io "web" is invalid: spec.tls[0].secretName: Invalid value: "Web_TLS": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{name: "class annotation differs from ingressClassName", kind: "Ingress", doc: `{"metadata":{"name":"web","annotations":{"kubernetes.io/ingress.class":"traefik"}},"spec":{"ingressClassName":"nginx","defaultBackend":{"service":{"name":"web","port":{"number":80}}}}}`,
			want: "Ingress.networking.k8s.io \"web\" is invalid: annotations.kubernetes.io/ingress.class: Invalid value: \"traefik\": must match `ingressClassName` when both are specified"},
		{name: "empty rules, no defaultBackend", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"rules":[]}}`,
			want: "Ingress.networking.k8s.io \"web\" is invalid: spec: Invalid value: []: either `defaultBackend` or `rules` must be specified"},
		{name: "no rules, no defaultBackend", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{}}`,
			want: "Ingress.networking.k8s.io \"web\" is invalid: spec: Invalid value: null: either `defaultBackend` or `rules` must be specified"},
		{name: "port name and number both set", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"defaultBackend":{"service":{"name":"1web","port":{"name":"http","number":80}}}}}`,
			want: `Ingress.networking.k8s.io "web" is invalid: spec.defaultBackend: Invalid value: "": cannot set both port name & port number`},
		{name: "backend names neither service nor resource", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"defaultBackend":{}}}`,
			want: `Ingress.networking.k8s.io "web" is invalid: spec.defaultBackend: Invalid value: "": resource or service backend is required`},
		{name: "resource backend: bad apiGroup, bad kind, no name", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"defaultBackend":{"resource":{"apiGroup":"Bad_Group","kind":"a/b"}}}}`,
			want: `Ingress.networking.k8s.io "web" is invalid: [spec.defaultBackend.resource.apiGroup: Invalid value: "Bad_Group": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.defaultBackend.resource.kind: Invalid value: "a/b": may not contain '/', spec.defaultBackend.resource.name: Required value]`},
		{name: "HTTP rule without paths", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"rules":[{"host":"example.com","http":{"paths":[]}}]}}`,
			want: `Ingress.networking.k8s.io "web" is invalid: spec.rules[0].http.paths: Required value`},
		{name: "unknown pathType, port out of range", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"rules":[{"http":{"paths":[{"path":"/","pathType":"Regex","backend":{"service":{"name":"web","port":{"number":70000}}}}]}}]}}`,
			want: `Ingress.networking.k8s.io "web" is invalid: [spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix", spec.rules[0].http.paths[0].backend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive]`},
		{name: "endPort below port", kind: "NetworkPolicy", doc: `{"metadata":{"name":"db"},"spec":{"podSelector":{},"ingress":[{"ports":[{"port":8080,"endPort":80}]}]}}`,
			want: "NetworkPolicy.networking.k8s.io \"db\" is invalid: spec.ingress[0].ports[0].endPort: Invalid value: 8080: must be greater than or equal to `port`"},
		{name: "endPort with a named port", kind: "NetworkPolicy", doc: `{"metadata":{"name":"db"},"spec":{"podSelector":{},"ingress":[{"ports":[{"port":"http","endPort":8080}]}]}}`,
			want: "NetworkPolicy.networking.k8s.io \"db\" is invalid: spec.ingress[0].ports[0].endPort: Invalid value: 8080: may not be specified when `port` is non-numeric"},
		{name: "endPort without port", kind: "NetworkPolicy", doc: `{"metadata":{"name":"db"},"spec":{"podSelector":{},"egress":[{"ports":[{"endPort":8080}]}]}}`,
			want: "NetworkPolicy.networking.k8s.io \"db\" is invalid: spec.egress[0].ports[0].endPort: Invalid value: 8080: may not be specified when `port` is not specified"},
		{name: "cidr prefix too long", kind: "NetworkPolicy", doc: `{"metadata":{"name":"db"},"spec":{"podSelector":{},"ingress":[{"from":[{"ipBlock":{"cidr":"10.0.0.0/33"}}]}]}}`,
			want: `NetworkPolicy.networking.k8s.io "db" is invalid: spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)`},
		{name: "except outside the cidr", kind: "NetworkPolicy", doc: `{"metadata":{"name":"db"},"spec":{"podSelector":{},"ingress":[{"from":[{"ipBlock":{"cidr":"10.0.0.0/16","except":["10.1.0.0/24"]}}]}]}}`,
			want: "NetworkPolicy.networking.k8s.io \"db\" is invalid: spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: \"10.1.0.0/24\": must be a strict subset of `cidr`"},
		{name: "policyTypes value in lower case", kind: "NetworkPolicy", doc: `{"metadata":{"name":"db"},"spec":{"podSelector":{},"policyTypes":["ingress"]}}`,
			want: `NetworkPolicy.networking.k8s.io "db" is invalid: spec.policyTypes[0]: Unsupported value: "ingress": supported values: "Ingress", "Egress"`},
		{name: "three policyTypes", kind: "NetworkPolicy", doc: `{"metadata":{"name":"db"},"spec":{"podSelector":{},"policyTypes":["Ingress","Egress","Ingress"]}}`,
			want: `NetworkPolicy.networking.k8s.io "db" is invalid: spec.policyTypes: Invalid value: ["Ingress","Egress","Ingress"]: may not specify more than two policyTypes`},
		{name: "bad selector label value and In without values", kind: "NetworkPolicy", doc: `{"metadata":{"name":"db"},"spec":{"podSelector":{"matchLabels":{"app":"-web"},"matchExpressions":[{"key":"tier","operator":"In"}]}}}`,
			want: "NetworkPolicy.networking.k8s.io \"db\" is invalid: [spec.podSelector.matchLabels: Invalid value: \"-web\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'), spec.podSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn']"},
		{name: "empty peer; ipBlock with another peer", kind: "NetworkPolicy", doc: `{"metadata":{"name":"db"},"spec":{"podSelector":{},"ingress":[{"from":[{},{"ipBlock":{"cidr":"10.0.0.0/8"},"podSelector":{}}]}]}}`,
			want: `NetworkPolicy.networking.k8s.io "db" is invalid: [spec.ingress[0].from[0]: Required value: must specify a peer, spec.ingress[0].from[1]: Forbidden: may not specify both ipBlock and another peer]`},
		{name: "unknown protocol, port 0", kind: "NetworkPolicy", doc: `{"metadata":{"name":"db"},"spec":{"podSelector":{},"egress":[{"ports":[{"protocol":"ICMP","port":0}]}]}}`,
			want: `NetworkPolicy.networking.k8s.io "db" is invalid: [spec.egress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP", spec.egress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive]`},
		{name: "cidr with host bits; except equal to the cidr", kind: "NetworkPolicy", doc: `{"metadata":{"name":"db"},"spec":{"podSelector":{},"ingress":[{"from":[{"ipBlock":{"cidr":"10.0.0.1/8","except":["10.0.0.0/8"]}}]}]}}`,
			want: "NetworkPolicy.networking.k8s.io \"db\" is invalid: [spec.ingress[0].from[0].ipBlock.cidr: Invalid value: \"10.0.0.1/8\": must not have bits set beyond the prefix length, spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: \"10.0.0.0/8\": must be a strict subset of `cidr`]"},
		{name: "valid egress policy", kind: "NetworkPolicy", doc: `{"metadata":{"name":"db"},"spec":{"podSelector":{},"egress":[{"to":[{"ipBlock":{"cidr":"10.0.0.0/8"}}],"ports":[{"protocol":"UDP","port":53}]}]}}`},
		{name: "valid Ingress", kind: "Ingress", doc: `{"metadata":{"name":"web"},"spec":{"ingressClassName":"nginx","rules":[{"host":"*.example.com","http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"web","port":{"name":"http"}}}}]}}],"tls":[{"hosts":["*.example.com"],"secretName":"web-tls"}]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := admitNetworking(t, New(Options{OmitNamespaceObjects: true}), tc.kind, tc.doc)
			got := ""
			if res.Denial != nil {
				got = res.Denial.Message
				if res.Denial.Code != 422 || res.Denial.Reason != "Invalid" {
					t.Errorf("code %d %s, want 422 Invalid", res.Denial.Code, res.Denial.Reason)
				}
			}
			if got != tc.want || res.Internal != "" {
				t.Errorf("got  %q (internal %q)\nwant %q", got, res.Internal, tc.want)
			}
		})
	}
}

// TestIngressServiceNameGate: backend Service names follow the Service name
// rule, a DNS-1035 label while RelaxedServiceNameValidation is off (VAL-66).
func TestIngressServiceNameGate(t *testing.T) {
	const doc = `{"metadata":{"name":"web"},"spec":{"defaultBackend":{"service":{"name":"1web","port":{"number":80}}}}}`
	if res := admitNetworking(t, New(Options{OmitNamespaceObjects: true}), "Ingress", doc); !res.Allowed {
		t.Errorf("relaxed names (the 1.36 default): %+v", res.Denial)
	}
	gates := features.Default()
	gates.Set(features.RelaxedServiceNameValidation, false)
	res := admitNetworking(t, New(Options{OmitNamespaceObjects: true, Gates: gates}), "Ingress", doc)
	const want = `Ingress.networking.k8s.io "web" is invalid: spec.defaultBackend.service.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`
	if res.Denial == nil || res.Denial.Message != want {
		t.Errorf("gate off: got %+v\nwant %q", res.Denial, want)
	}
}

// TestNetworkingDefaults: what the API stores (VAL-65, VAL-67): policyTypes
// from the rules, TCP ports, generation 1, an Ingress's status cleared; the
// admitted object is charged as an object count.
func TestNetworkingDefaults(t *testing.T) {
	e := New(Options{OmitNamespaceObjects: true})
	res := admitNetworking(t, e, "NetworkPolicy", `{"metadata":{"name":"db","generation":7},"spec":{"podSelector":{},"ingress":[{"ports":[{"port":5432}]}],"egress":[{"ports":[{"protocol":"UDP","port":53}]}]}}`)
	np, ok := res.Object.(*networkingv1.NetworkPolicy)
	if !res.Allowed || !ok {
		t.Fatalf("NetworkPolicy: %+v", res)
	}
	if want := []networkingv1.PolicyType{networkingv1.PolicyTypeIngress, networkingv1.PolicyTypeEgress}; !slices.Equal(np.Spec.PolicyTypes, want) {
		t.Errorf("policyTypes %v, want %v", np.Spec.PolicyTypes, want)
	}
	if p := np.Spec.Ingress[0].Ports[0].Protocol; p == nil || *p != corev1.ProtocolTCP {
		t.Errorf("ingress port protocol %v, want TCP", p)
	}
	if p := np.Spec.Egress[0].Ports[0].Protocol; p == nil || *p != corev1.ProtocolUDP {
		t.Errorf("egress port protocol %v, want UDP as given", p)
	}
	if np.Generation != 1 {
		t.Errorf("generation %d, want 1", np.Generation)
	}
	res = admitNetworking(t, e, "NetworkPolicy", `{"metadata":{"name":"deny"},"spec":{"podSelector":{}}}`)
	if np := res.Object.(*networkingv1.NetworkPolicy); !slices.Equal(np.Spec.PolicyTypes, []networkingv1.PolicyType{networkingv1.PolicyTypeIngress}) {
		t.Errorf("policyTypes without egress rules: %v, want [Ingress]", np.Spec.PolicyTypes)
	}
	res = admitNetworking(t, e, "Ingress", `{"metadata":{"name":"web"},"spec":{"defaultBackend":{"service":{"name":"web","port":{"number":80}}}},"status":{"loadBalancer":{"ingress":[{"ip":"not an ip"}]}}}`)
	ing, ok := res.Object.(*networkingv1.Ingress)
	if !res.Allowed || !ok || len(ing.Status.LoadBalancer.Ingress) != 0 || ing.Generation != 1 {
		t.Errorf("Ingress: %+v", res)
	}
}
