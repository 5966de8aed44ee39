package validation

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"sort"
	"strings"

	certificatesv1 "k8s.io/api/certificates/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// CertificateSigningRequest validation on create (VAL-110).

// csrMeta: core's ValidateObjectMeta with a name rule that accepts any name
// (ValidateCertificateRequestName), no namespace.
var csrMeta = MetaRules{Name: func(string, bool) []string { return nil }, KubeFinalizers: true, ClusterScoped: true}

// csrUsages are the key usages a request may ask for, sorted as the
// NotSupported message lists them.
var csrUsages = func() []string {
	u := []certificatesv1.KeyUsage{
		certificatesv1.UsageSigning, certificatesv1.UsageDigitalSignature, certificatesv1.UsageContentCommitment,
		certificatesv1.UsageKeyEncipherment, certificatesv1.UsageKeyAgreement, certificatesv1.UsageDataEncipherment,
		certificatesv1.UsageCertSign, certificatesv1.UsageCRLSign, certificatesv1.UsageEncipherOnly,
		certificatesv1.UsageDecipherOnly, certificatesv1.UsageAny, certificatesv1.UsageServerAuth,
		certificatesv1.UsageClientAuth, certificatesv1.UsageCodeSigning, certificatesv1.UsageEmailProtection,
		certificatesv1.UsageSMIME, certificatesv1.UsageIPsecEndSystem, certificatesv1.UsageIPsecTunnel,
		certificatesv1.UsageIPsecUser, certificatesv1.UsageTimestamping, certificatesv1.UsageOCSPSigning,
		certificatesv1.UsageMicrosoftSGC, certificatesv1.UsageNetscapeSGC,
	}
	out := make([]string, len(u))
	for i, k := range u {
		out[i] = string(k)
	}
	sort.Strings(out)
	return out
}()

// legacyUnknownSigner is the signer v1beta1 defaulted to; v1 refuses it.
const legacyUnknownSigner = "kubernetes.io/legacy-unknown"

// minCSRExpiration is the shortest expirationSeconds a request may ask for.
const minCSRExpiration = 600

// PrepareCSRForCreate is the strategy's PrepareForCreate: what the request
// says of its requester is replaced by the requester's own identity (which
// limitcheck does not know: left empty), and the status is cleared: a
// request cannot be created approved.
func PrepareCSRForCreate(csr *certificatesv1.CertificateSigningRequest) {
	csr.Spec.Username, csr.Spec.UID, csr.Spec.Groups, csr.Spec.Extra = "", "", nil, nil
	csr.Status = certificatesv1.CertificateSigningRequestStatus{Conditions: []certificatesv1.CertificateSigningRequestCondition{}}
}

// ParseCSR reads the PKCS#10 request of a CertificateSigningRequest's
// spec.request: its first PEM block, which must be a CERTIFICATE REQUEST.
func ParseCSR(request []byte) (*x509.CertificateRequest, error) {
	block, _ := pem.Decode(request)
	if block == nil || block.Type != "CERTIFICATE REQUEST" {
		return nil, errors.New("PEM block type must be CERTIFICATE REQUEST")
	}
	return x509.ParseCertificateRequest(block.Bytes)
}

// CertificateSigningRequest is ValidateCertificateSigningRequestCreate on a
// prepared request (PrepareCSRForCreate), then, when that finds nothing,
// rest.BeforeCreate's generic check of the metadata: the metadata, the request (a PEM
// PKCS#10 request whose signature checks), usages (required, known, no
// repeats), the signer name and the expiration (at least ten minutes). The
// status checks find nothing on a cleared status.
func CertificateSigningRequest(csr *certificatesv1.CertificateSigningRequest) field.ErrorList {
	mp := newLazyPath("metadata")
	errs := objectMeta(&csr.ObjectMeta, csrMeta, mp)
	sp := field.NewPath("spec")
	if req, err := ParseCSR(csr.Spec.Request); err != nil {
		errs = append(errs, field.Invalid(sp.Child("request"), csr.Spec.Request, err.Error()))
	} else if err := req.CheckSignature(); err != nil {
		errs = append(errs, field.Invalid(sp.Child("request"), csr.Spec.Request, err.Error()))
	}
	up := sp.Child("usages")
	if len(csr.Spec.Usages) == 0 {
		errs = append(errs, field.Required(up, ""))
	}
	for i, u := range csr.Spec.Usages {
		if !contains(csrUsages, string(u)) {
			errs = append(errs, field.NotSupported(up.Index(i), u, csrUsages))
		}
	}
	seen := make(map[certificatesv1.KeyUsage]bool, len(csr.Spec.Usages))
	for i, u := range csr.Spec.Usages {
		if seen[u] {
			errs = append(errs, field.Duplicate(up.Index(i), u))
		}
		seen[u] = true
	}
	snp := sp.Child("signerName")
	if csr.Spec.SignerName == legacyUnknownSigner {
		errs = append(errs, field.Invalid(snp, csr.Spec.SignerName, "the legacy signerName is not allowed via this API version"))
	} else {
		errs = append(errs, SignerName(snp, csr.Spec.SignerName)...)
	}
	if e := csr.Spec.ExpirationSeconds; e != nil && *e < minCSRExpiration {
		errs = append(errs, field.Invalid(sp.Child("expirationSeconds"), *e, "may not specify a duration less than 600 seconds (10 minutes)"))
	}
	if len(errs) == 0 {
		// Any name passes the kind's rule: the generic check, on a request
		// otherwise valid, refuses one that is not a path segment.
		errs = genericObjectMeta(&csr.ObjectMeta, csrMeta, mp)
	}
	return errs
}

// maxSignerDomain and maxSignerPath bound a signer name's two segments: a
// DNS subdomain, and what holds a DNS label, a dot and a DNS subdomain.
const (
	maxSignerDomain = 253
	maxSignerPath   = 253 + 63 + 1
)

// SignerName is ValidateSignerName: a fully qualified domain of two labels
// at least, a slash, and a path of dot-separated DNS subdomains
// ("example.com/signer-name"). Of the domain's labels and of the path's
// parts, only the first bad one is reported.
func SignerName(p *field.Path, name string) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	segments := strings.Split(name, "/")
	if len(segments) != 2 {
		return field.ErrorList{field.Invalid(p, name, "must be a fully qualified domain and path of the form 'example.com/signer-name'")}
	}
	domain, path := segments[0], segments[1]
	var errs field.ErrorList
	if len(domain) > maxSignerDomain {
		errs = append(errs, field.TooLong(p, "", maxSignerDomain))
	}
	labels := strings.Split(domain, ".")
	for _, l := range labels {
		if msgs := namecheck.IsDNS1123Label(l); len(msgs) > 0 {
			for _, m := range msgs {
				errs = append(errs, field.Invalid(p, domain, fmt.Sprintf("validating label %q: %s", l, m)))
			}
			break
		}
	}
	if len(labels) < 2 {
		errs = append(errs, field.Invalid(p, domain, "should be a domain with at least two segments separated by dots"))
	}
	for _, l := range strings.Split(path, ".") {
		if msgs := namecheck.IsDNS1123Subdomain(l); len(msgs) > 0 {
			for _, m := range msgs {
				errs = append(errs, field.Invalid(p, path, fmt.Sprintf("validating label %q: %s", l, m)))
			}
			break
		}
	}
	if len(name) > maxSignerDomain+maxSignerPath+1 {
		errs = append(errs, field.TooLong(p, "", maxSignerDomain+maxSignerPath+1))
	}
	return errs
}

// kubeAPIServerClientSigner is the signer of client certificates that
// kube-apiserver trusts.
const kubeAPIServerClientSigner = "kubernetes.io/kube-apiserver-client"

// CertificateSubjectRestriction is the validating admission plugin of that
// name, on a valid request: a request to the kube-apiserver-client signer
// may not ask for the system:masters group (an organization of its
// subject), which would make its holder a cluster administrator.
func CertificateSubjectRestriction(csr *certificatesv1.CertificateSigningRequest) error {
	if csr.Spec.SignerName != kubeAPIServerClientSigner {
		return nil
	}
	req, err := ParseCSR(csr.Spec.Request)
	if err != nil {
		return fmt.Errorf("failed to parse CSR: %v", err)
	}
	for _, o := range req.Subject.Organization {
		if o == "system:masters" {
			return fmt.Errorf("use of %s signer with system:masters group is not allowed", kubeAPIServerClientSigner)
		}
	}
	return nil
}
