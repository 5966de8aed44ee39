package conformance

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/features"
)

// TestServiceCIDRsParity creates Services that ask for every combination of
// IP family policy, families, cluster IPs and selector on clusters of every
// shape (kubeadm's range, kube-apiserver's default, k3s's, single-stack IPv6,
// dual-stack with either family first) on both sides, and compares the
// verdicts, the messages and the families, policy and explicit addresses the
// admitted Services get (VAL-64).
func TestServiceCIDRsParity(t *testing.T) {
	configs := append([][]netip.Prefix{nil}, serviceCIDRCases...)
	policies := []string{"", "SingleStack", "PreferDualStack", "RequireDualStack"}
	families := [][]string{nil, {"IPv4"}, {"IPv6"}, {"IPv4", "IPv6"}, {"IPv6", "IPv4"}}
	clusterIPs := [][]string{nil, {"None"}, {"10.96.0.10"}, {"10.0.0.10"}, {"10.43.0.10"}, {"fd00:10:96::10"}, {"10.96.0.11", "fd00:10:96::11"}, {"fd00:10:96::12", "10.96.0.12"}}
	stats := map[string]int{}
	mismatches := 0
	for ci, cidrs := range configs {
		if err := SetGates(map[string]bool{}); err != nil {
			t.Fatal(err)
		}
		up, err := NewUpstream(nil)
		if err != nil {
			t.Fatal(err)
		}
		if cidrs != nil {
			if err := up.SetServiceCIDRs(cidrs); err != nil {
				t.Fatal(err)
			}
		}
		engine := eval.New(eval.Options{DefaultNamespace: "ns1", Gates: features.Default(), ServiceCIDRs: cidrs})
		n := 0
		for _, pol := range policies {
			for _, fams := range families {
				for _, ips := range clusterIPs {
					for _, selector := range []bool{true, false} {
						n++
						spec := map[string]any{"ports": []any{map[string]any{"port": 80}}}
						if pol != "" {
							spec["ipFamilyPolicy"] = pol
						}
						if fams != nil {
							spec["ipFamilies"] = fams
						}
						if ips != nil {
							spec["clusterIP"] = ips[0]
							spec["clusterIPs"] = ips
						}
						if selector {
							spec["selector"] = map[string]any{"app": "web"}
						}
						doc, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "Service",
							"metadata": map[string]any{"name": fmt.Sprintf("s%d-%d", ci, n), "namespace": "ns1"}, "spec": spec})
						if err != nil {
							t.Fatal(err)
						}
						want, err := up.Create(doc, "ns1")
						if err != nil {
							t.Fatal(err)
						}
						got, err := Mine(engine, doc)
						if err != nil {
							t.Fatal(err)
						}
						stats[fmt.Sprintf("%v: %s", cidrs, verdictWord(want.Allowed))]++
						d := diffOne(want, got)
						if want.Allowed && got.Allowed {
							a, b := want.Object.(*corev1.Service), got.Object.(*corev1.Service)
							if x, y := serviceFamilies(a, ips), serviceFamilies(b, ips); x != y {
								d = append(d, fmt.Sprintf("families: upstream %s, limitcheck %s", x, y))
							}
						}
						if len(d) > 0 {
							mismatches++
							if mismatches <= *flagShow {
								t.Errorf("service CIDRs %v, %s: mismatch:\n  %s", cidrs, doc, strings.Join(d, "\n  "))
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d mismatches:%s", mismatches, statsTable(stats, 50))
	if mismatches > 0 {
		t.Fatalf("%d mismatches", mismatches)
	}
}

// serviceFamilies: a Service's policy, families and addresses, those it did
// not ask for (asked) shown as allocated.
func serviceFamilies(s *corev1.Service, asked []string) string {
	pol := "<nil>"
	if s.Spec.IPFamilyPolicy != nil {
		pol = string(*s.Spec.IPFamilyPolicy)
	}
	ips := slices.Clone(s.Spec.ClusterIPs)
	for i, ip := range ips {
		if !slices.Contains(asked, ip) {
			ips[i] = "allocated"
		}
	}
	return fmt.Sprintf("%s %v %v", pol, s.Spec.IPFamilies, ips)
}
