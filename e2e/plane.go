package e2e

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"k8s.io/client-go/rest"
)

// Users of the control plane's static token file.
const (
	// AdminUser is in group system:masters: everything is allowed.
	AdminUser = "e2e-admin"
	// RestrictedUser has no role binding but those a test gives it.
	RestrictedUser = "e2e-restricted"
)

// Plane is a local control plane: etcd, kube-apiserver and
// kube-controller-manager, on loopback ports, in a temporary directory.
type Plane struct {
	Dir    string
	URL    string // kube-apiserver's https URL
	CAFile string
	// Tokens of AdminUser and RestrictedUser.
	AdminToken, RestrictedToken string
	// Kubeconfig is a kubeconfig file for AdminUser (context e2e);
	// RestrictedKubeconfig one for RestrictedUser (context e2e-restricted).
	Kubeconfig, RestrictedKubeconfig string
	// Started is how long the plane took to answer and run its controllers.
	Started time.Duration

	bin   string
	procs []*exec.Cmd
	logs  []*os.File
}

// Options of the control plane.
type PlaneOptions struct {
	BinDir string
	Dir    string // a temporary directory the plane owns
	// ExtraAPIServerFlags are added to kube-apiserver's (feature gates, an
	// admission configuration file).
	ExtraAPIServerFlags []string
	Logf                func(string, ...any)
}

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func writePEM(path, typ string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600)
}

// writeCerts makes a CA, a serving certificate for 127.0.0.1 signed by it, and
// the service-account signing key.
func writeCerts(dir string) error {
	caKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "limitcheck-e2e-ca"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return err
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "kube-apiserver"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.96.0.1")},
		DNSNames:    []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return err
	}
	saKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	saPub, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name, typ string
		der       []byte
	}{
		{"ca.crt", "CERTIFICATE", caDER},
		{"apiserver.crt", "CERTIFICATE", der},
		{"apiserver.key", "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(key)},
		{"sa.key", "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(saKey)},
		{"sa.pub", "PUBLIC KEY", saPub},
	} {
		if err := writePEM(filepath.Join(dir, f.name), f.typ, f.der); err != nil {
			return err
		}
	}
	return nil
}

// WriteKubeconfig writes a kubeconfig for url, its CA and a bearer token,
// whose single context (and current-context) is named context.
func WriteKubeconfig(path, url, caFile, token, context string) error {
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster:
    server: %s
    certificate-authority: %s
users:
- name: %s
  user:
    token: %s
contexts:
- name: %s
  context: {cluster: e2e, user: %s}
current-context: %s
`, url, caFile, context, token, context, context, context)
	return os.WriteFile(path, []byte(cfg), 0o600)
}

// StartPlane starts etcd, kube-apiserver and kube-controller-manager and
// returns when the API answers, the controllers run and namespace default has
// its ServiceAccount.
func StartPlane(ctx context.Context, o PlaneOptions) (_ *Plane, err error) {
	start := time.Now()
	p := &Plane{Dir: o.Dir, bin: o.BinDir}
	defer func() {
		if err != nil {
			p.Stop()
		}
	}()
	if err := writeCerts(o.Dir); err != nil {
		return nil, err
	}
	p.CAFile = filepath.Join(o.Dir, "ca.crt")
	p.AdminToken, p.RestrictedToken = randomToken(), randomToken()
	tokens := fmt.Sprintf("%s,%s,1,\"system:masters\"\n%s,%s,2\n", p.AdminToken, AdminUser, p.RestrictedToken, RestrictedUser)
	if err := os.WriteFile(filepath.Join(o.Dir, "tokens.csv"), []byte(tokens), 0o600); err != nil {
		return nil, err
	}
	var ports [4]int
	for i := range ports {
		if ports[i], err = freePort(); err != nil {
			return nil, err
		}
	}
	etcdClient := fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	etcdPeer := fmt.Sprintf("http://127.0.0.1:%d", ports[1])
	if err := p.spawn("etcd", "--name=e2e", "--data-dir="+filepath.Join(o.Dir, "etcd"),
		"--listen-client-urls="+etcdClient, "--advertise-client-urls="+etcdClient,
		"--listen-peer-urls="+etcdPeer, "--initial-advertise-peer-urls="+etcdPeer,
		"--initial-cluster=e2e="+etcdPeer, "--unsafe-no-fsync", "--log-level=warn",
		"--listen-metrics-urls=", "--quota-backend-bytes=4294967296"); err != nil {
		return nil, err
	}
	if err := waitFor(ctx, 60*time.Second, "etcd to answer", func() (bool, error) {
		resp, err := http.Get(etcdClient + "/health")
		if err != nil {
			return false, nil
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, nil
	}); err != nil {
		return nil, err
	}
	p.URL = fmt.Sprintf("https://127.0.0.1:%d", ports[2])
	args := []string{
		"--etcd-servers=" + etcdClient,
		"--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(ports[2]),
		"--cert-dir=" + filepath.Join(o.Dir, "apiserver-certs"),
		"--tls-cert-file=" + filepath.Join(o.Dir, "apiserver.crt"),
		"--tls-private-key-file=" + filepath.Join(o.Dir, "apiserver.key"),
		"--client-ca-file=" + p.CAFile,
		"--token-auth-file=" + filepath.Join(o.Dir, "tokens.csv"),
		// RBAC: AdminUser (system:masters) may do everything, as
		// AlwaysAllow would; RestrictedUser only what a test binds.
		"--authorization-mode=RBAC",
		"--allow-privileged=true",
		"--service-cluster-ip-range=10.96.0.0/12",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + filepath.Join(o.Dir, "sa.pub"),
		"--service-account-signing-key-file=" + filepath.Join(o.Dir, "sa.key"),
		"--api-audiences=https://kubernetes.default.svc",
		"--enable-priority-and-fairness=false",
		"--endpoint-reconciler-type=none",
		"--profiling=false",
		"--v=1",
	}
	args = append(args, o.ExtraAPIServerFlags...)
	if err := p.spawn("kube-apiserver", args...); err != nil {
		return nil, err
	}
	p.Kubeconfig = filepath.Join(o.Dir, "admin.kubeconfig")
	p.RestrictedKubeconfig = filepath.Join(o.Dir, "restricted.kubeconfig")
	if err := WriteKubeconfig(p.Kubeconfig, p.URL, p.CAFile, p.AdminToken, "e2e"); err != nil {
		return nil, err
	}
	if err := WriteKubeconfig(p.RestrictedKubeconfig, p.URL, p.CAFile, p.RestrictedToken, "e2e-restricted"); err != nil {
		return nil, err
	}
	hc, err := p.httpClient()
	if err != nil {
		return nil, err
	}
	if err := waitFor(ctx, 120*time.Second, "kube-apiserver to be ready", func() (bool, error) {
		if err := p.exited(); err != nil {
			return false, err
		}
		req, _ := http.NewRequestWithContext(ctx, "GET", p.URL+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+p.AdminToken)
		resp, err := hc.Do(req)
		if err != nil {
			return false, nil
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, nil
	}); err != nil {
		return nil, err
	}
	controllers := []string{
		"serviceaccount-controller", "root-ca-certificate-publisher-controller", "namespace-controller",
		"resourcequota-controller", "replicaset-controller", "deployment-controller", "statefulset-controller",
		"daemonset-controller", "job-controller", "cronjob-controller", "replicationcontroller-controller",
		"garbage-collector-controller",
	}
	if err := p.spawn("kube-controller-manager",
		"--kubeconfig="+p.Kubeconfig,
		"--authentication-kubeconfig="+p.Kubeconfig, "--authorization-kubeconfig="+p.Kubeconfig,
		"--bind-address=127.0.0.1", "--secure-port="+strconv.Itoa(ports[3]),
		"--cert-dir="+filepath.Join(o.Dir, "kcm-certs"),
		"--service-account-private-key-file="+filepath.Join(o.Dir, "sa.key"),
		"--root-ca-file="+p.CAFile,
		"--use-service-account-credentials=false",
		"--leader-elect=false",
		"--controllers="+strings.Join(controllers, ","),
		"--concurrent-replicaset-syncs=2",
		"--v=1",
	); err != nil {
		return nil, err
	}
	p.Started = time.Since(start)
	return p, nil
}

// httpClient trusts the plane's CA.
func (p *Plane) httpClient() (*http.Client, error) {
	pemCA, err := os.ReadFile(p.CAFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pemCA)
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}, nil
}

// RESTConfig is a client config for AdminUser.
func (p *Plane) RESTConfig() *rest.Config {
	return &rest.Config{Host: p.URL, BearerToken: p.AdminToken, TLSClientConfig: rest.TLSClientConfig{CAFile: p.CAFile},
		QPS: 200, Burst: 400, WarningHandler: rest.NoWarnings{}}
}

// spawn starts a binary in its own process group, its output in Dir/NAME.log.
func (p *Plane) spawn(name string, args ...string) error {
	logf, err := os.Create(filepath.Join(p.Dir, name+".log"))
	if err != nil {
		return err
	}
	cmd := exec.Command(Bin(p.bin, name), args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("starting %s: %w", name, err)
	}
	p.procs = append(p.procs, cmd)
	p.logs = append(p.logs, logf)
	return nil
}

// exited reports a process of the plane that has stopped.
func (p *Plane) exited() error {
	for _, c := range p.procs {
		if c.ProcessState != nil || (c.Process != nil && c.Process.Signal(syscall.Signal(0)) != nil) {
			return fmt.Errorf("%s exited; see %s", filepath.Base(c.Path), filepath.Join(p.Dir, filepath.Base(c.Path)+".log"))
		}
	}
	return nil
}

// Stop ends the processes, the last started first, and waits for them.
func (p *Plane) Stop() {
	for i := len(p.procs) - 1; i >= 0; i-- {
		c := p.procs[i]
		_ = c.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = c.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
			<-done
		}
		p.logs[i].Close()
	}
	p.procs, p.logs = nil, nil
}

// Log returns the end of a process's log, for failure messages.
func (p *Plane) Log(name string) string {
	b, _ := os.ReadFile(filepath.Join(p.Dir, name+".log"))
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// errTimeout is returned by waitFor when the condition did not hold in time.
var errTimeout = errors.New("timed out")

// waitFor polls cond until it holds, fails or timeout passes.
func waitFor(ctx context.Context, timeout time.Duration, what string, cond func() (bool, error)) error {
	deadline := time.Now().Add(timeout)
	delay := 20 * time.Millisecond
	for {
		ok, err := cond()
		if err != nil {
			return fmt.Errorf("waiting for %s: %w", what, err)
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("waiting %s for %s: %w", timeout, what, errTimeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
		if delay < 200*time.Millisecond {
			delay += 20 * time.Millisecond
		}
	}
}
