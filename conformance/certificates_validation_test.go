package conformance

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	cryptorand "crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	certificatesv1 "k8s.io/api/certificates/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/certificates"
	_ "k8s.io/kubernetes/pkg/apis/certificates/install"
	"k8s.io/kubernetes/plugin/pkg/admission/certificates/subjectrestriction"
)

var (
	flagCertificatesCases = flag.Int("certificates-cases", 3000, "number of random CertificateSigningRequests")
	flagCertificatesSeed  = flag.Uint64("certificates-seed", 1, "CertificateSigningRequest generator seed")
)

// upstreamCSRCreate is upstreamClusterCreate for a CertificateSigningRequest,
// then, on a request the strategy admits, the CertificateSubjectRestriction
// plugin (validating admission, default on).
func upstreamCSRCreate(doc []byte) (rqOutcome, error) {
	out, err := upstreamClusterCreate(doc, "CertificateSigningRequest")
	if err != nil || !out.allowed {
		return out, err
	}
	ext := &certificatesv1.CertificateSigningRequest{}
	if err := json.Unmarshal(doc, ext); err != nil {
		return rqOutcome{}, err
	}
	legacyscheme.Scheme.Default(ext)
	internal := &certificates.CertificateSigningRequest{}
	if err := legacyscheme.Scheme.Convert(ext, internal, nil); err != nil {
		return rqOutcome{}, err
	}
	if internal.Name == "" && internal.GenerateName != "" {
		internal.Name = upstreamGeneratedName(internal.GenerateName)
	}
	attrs := admission.NewAttributesRecord(internal, nil, certificates.Kind("CertificateSigningRequest").WithVersion("v1"), "", internal.Name,
		certificates.Resource("certificatesigningrequests").WithVersion("v1"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
	if err := subjectrestriction.NewPlugin().Validate(context.Background(), attrs, nil); err != nil {
		o := statusOutcome(err)
		o.warnings = out.warnings
		return o, nil
	}
	return out, nil
}

type csrGen struct {
	r    *rand.Rand
	keys []*ecdsa.PrivateKey
}

func (g *csrGen) chance(p float64) bool { return g.r.Float64() < p }
func (g *csrGen) pick(xs ...any) any    { return xs[g.r.IntN(len(xs))] }

// request is a PEM PKCS#10 request for a subject with organizations orgs,
// sometimes broken: not PEM, another block type, a signature that does not
// check, truncated DER, or nothing.
func (g *csrGen) request(orgs []string) ([]byte, error) {
	key := g.keys[g.r.IntN(len(g.keys))]
	tmpl := &x509.CertificateRequest{Subject: pkix.Name{CommonName: g.pick("jane", "system:node:worker-1", "svc.ns.svc").(string), Organization: orgs}}
	if g.chance(0.2) {
		tmpl.DNSNames = []string{"svc.ns.svc", "svc.ns.svc.cluster.local"}
	}
	der, err := x509.CreateCertificateRequest(cryptorand.Reader, tmpl, key)
	if err != nil {
		return nil, err
	}
	blockType := "CERTIFICATE REQUEST"
	switch {
	case g.chance(0.85):
	case g.chance(0.2):
		return nil, nil
	case g.chance(0.2):
		return []byte("not a PEM block"), nil
	case g.chance(0.25):
		blockType = g.pick("CERTIFICATE", "NEW CERTIFICATE REQUEST", "PRIVATE KEY").(string)
	case g.chance(0.4):
		der[len(der)-3] ^= 0x5a // the signature no longer checks (or no longer parses)
	default:
		der = der[:len(der)/2]
	}
	out := pem.EncodeToMemory(&pem.Block{Type: blockType, Bytes: der})
	if g.chance(0.05) {
		out = append([]byte("garbage before\n"), out...)
	}
	return out, nil
}

func (g *csrGen) csr(i int) (map[string]any, error) {
	meta := map[string]any{"name": g.pick(fmt.Sprintf("csr-%d", i), fmt.Sprintf("system:node:worker-%d", i), "Jane_Doe")}
	if g.chance(0.15) {
		meta["name"] = g.pick("a/b", "..", "%2F", strings.Repeat("n", 300))
	}
	if g.chance(0.1) {
		delete(meta, "name")
		if g.chance(0.7) {
			meta["generateName"] = g.pick("csr-", "Csr_")
		}
	}
	if g.chance(0.05) {
		meta["labels"] = map[string]any{"bad key!": "x"}
	}
	if g.chance(0.05) {
		meta["finalizers"] = []any{g.pick("custom", "example.com/keep")}
	}
	if g.chance(0.05) {
		meta["namespace"] = "ns1" // cleared: cluster-scoped
	}
	var orgs []string
	switch {
	case g.chance(0.5):
	case g.chance(0.5):
		orgs = []string{"system:masters"}
	default:
		orgs = []string{g.pick("dev", "system:nodes", "ops").(string), g.pick("system:masters", "qa", "system:authenticated").(string)}
	}
	req, err := g.request(orgs)
	if err != nil {
		return nil, err
	}
	spec := map[string]any{}
	if req != nil || g.chance(0.5) {
		spec["request"] = req // []byte: base64 in JSON
	}
	switch {
	case g.chance(0.05):
	case g.chance(0.75):
		spec["signerName"] = g.pick("kubernetes.io/kube-apiserver-client", "kubernetes.io/kube-apiserver-client-kubelet",
			"kubernetes.io/kubelet-serving", "example.com/my-signer", "example.com/a.b.c")
	default:
		spec["signerName"] = g.pick("kubernetes.io/legacy-unknown", "", "kubernetes.io", "a/b/c", "example/signer",
			"Example.com/signer", "example.com/Bad_Path", "-a.com/x",
			strings.Repeat("d", 254)+".com/x", "example.com/"+strings.Repeat("p.", 160)+"x", "example.com/"+strings.Repeat("q", 254))
	}
	known := []any{"client auth", "server auth", "digital signature", "key encipherment", "signing", "any", "s/mime", "ocsp signing"}
	switch {
	case g.chance(0.05):
	case g.chance(0.05):
		spec["usages"] = []any{}
	default:
		var us []any
		for n := 1 + g.r.IntN(2); n > 0; n-- {
			if g.chance(0.93) {
				us = append(us, g.pick(known...))
			} else {
				us = append(us, g.pick("Client Auth", "magic", "", "clientAuth"))
			}
		}
		spec["usages"] = us
	}
	if g.chance(0.3) {
		spec["expirationSeconds"] = g.pick(0, 599, 600, 3600, -5, 86400, 604800)
	}
	if g.chance(0.1) {
		spec["username"] = "someone-else"
		spec["groups"] = []any{"system:masters"}
	}
	m := map[string]any{"apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest", "metadata": meta, "spec": spec}
	if g.chance(0.1) {
		m["status"] = map[string]any{"conditions": []any{map[string]any{"type": "Approved", "status": "True"}, map[string]any{"type": "Denied", "status": "True"}}}
	}
	return m, nil
}

// certificatesRules are messages the generated cases must produce.
var certificatesRules = []string{
	"PEM block type must be CERTIFICATE REQUEST",
	"x509: ",
	"spec.usages: Required value",
	"spec.usages[0]: Unsupported value",
	"Duplicate value",
	"the legacy signerName is not allowed via this API version",
	"spec.signerName: Required value",
	"must be a fully qualified domain and path",
	"validating label",
	"should be a domain with at least two segments separated by dots",
	"Too long",
	"may not specify a duration less than 600 seconds",
	"with system:masters group is not allowed",
	"metadata.finalizers",
	"may not contain '/'",
}

// TestCertificatesValidationParity compares limitcheck's create of random
// CertificateSigningRequests with kube-apiserver's (VAL-110): the strategy
// and the CertificateSubjectRestriction plugin.
func TestCertificatesValidationParity(t *testing.T) {
	g := &csrGen{r: rand.New(rand.NewPCG(*flagCertificatesSeed, *flagCertificatesSeed^0x61c88647))}
	for range 4 {
		k, err := ecdsa.GenerateKey(elliptic.P256(), cryptorand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		g.keys = append(g.keys, k)
	}
	p := newParity(t, *flagCertificatesSeed)
	for i := 0; i < *flagCertificatesCases; i++ {
		m, err := g.csr(i)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		want, err := upstreamCSRCreate(doc)
		if err != nil {
			t.Fatalf("case %d: upstream: %v\n%s", i, err, doc)
		}
		got, _, err := mineClusterCreate(doc, "CertificateSigningRequest")
		if err != nil {
			t.Fatalf("case %d: limitcheck: %v\n%s", i, err, doc)
		}
		p.compare(i, "CertificateSigningRequest", doc, want, got, "", certificatesRules, nil)
	}
	p.finish("CertificateSigningRequests", *flagCertificatesCases, []string{""}, map[string][]string{"": certificatesRules})
}
