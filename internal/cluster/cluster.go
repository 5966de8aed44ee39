// Package cluster reads the state of a live cluster through the user's own
// kubectl (--from-cluster, docs/behaviour.md CL-01): the LimitRanges and
// ResourceQuotas of the namespaces an input writes to, the cluster's
// PriorityClasses, StorageClasses and RuntimeClasses, and the names of
// existing objects. Going through kubectl keeps kubeconfig contexts, exec
// credential plugins and proxies working as they do for the user, and keeps
// client-go out of limitcheck.
package cluster

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"sync"

	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/load"
)

// Options say which kubectl to run and which cluster it talks to.
type Options struct {
	// Kubectl is the kubectl binary: a path, or a name looked up on PATH
	// ("kubectl" when empty).
	Kubectl string
	// Context, Kubeconfig and RequestTimeout are passed to kubectl as
	// --context, --kubeconfig and --request-timeout when not empty.
	Context, Kubeconfig, RequestTimeout string
}

// Runner runs kubectl with args and returns its stdout and stderr; err is
// non-nil when it could not be started or exited non-zero.
type Runner func(path string, args []string) (stdout, stderr []byte, err error)

// execRunner runs the real process.
func execRunner(path string, args []string) ([]byte, []byte, error) {
	var out, errOut bytes.Buffer
	cmd := exec.Command(path, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	return out.Bytes(), errOut.Bytes(), err
}

// Cluster is one kubeconfig context read through kubectl.
type Cluster struct {
	opts Options
	path string
	run  Runner
	// context is the context's name: Options.Context, else kubeconfig's
	// current-context.
	context string
}

// Error is a failure to read the cluster, worded for the user.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// Find looks kubectl up as Options.Kubectl says and returns its path, or an
// Error saying that --from-cluster needs it.
func Find(opts Options) (string, error) {
	name := opts.Kubectl
	if name == "" {
		name = "kubectl"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", errorf("--from-cluster needs kubectl on PATH (or --kubectl): %v", err)
	}
	return path, nil
}

// New finds kubectl and the context it talks to. A nil run runs the real
// process.
func New(opts Options, run Runner) (*Cluster, error) {
	path, err := Find(opts)
	if err != nil {
		return nil, err
	}
	if run == nil {
		run = execRunner
	}
	c := &Cluster{opts: opts, path: path, run: run, context: opts.Context}
	if c.context == "" {
		name, err := c.CurrentContext()
		if err != nil {
			return nil, err
		}
		c.context = name
	}
	return c, nil
}

// Context is the name of the context the cluster is read through.
func (c *Cluster) Context() string { return c.context }

// Where names the cluster as notes and positions do: cluster:CONTEXT.
func (c *Cluster) Where() string { return "cluster:" + c.context }

// CurrentContextArgs is the argv (after the kubectl binary) that asks for the
// kubeconfig's current context.
func (c *Cluster) CurrentContextArgs() []string {
	return c.withGlobals([]string{"config", "current-context"}, false)
}

// CurrentContext returns kubeconfig's current context, or an Error when
// there is none.
func (c *Cluster) CurrentContext() (string, error) {
	out, errOut, err := c.run(c.path, c.CurrentContextArgs())
	if err != nil {
		return "", errorf("--from-cluster: no current context in the kubeconfig; give --context (kubectl: %s)", kubectlMessage(errOut, err))
	}
	return strings.TrimSpace(string(out)), nil
}

// HasContext reports whether kubectl is found and a context is known: given
// with --context or set as the kubeconfig's current context. It decides
// whether kubectl-limitcheck reads the cluster by default.
func HasContext(opts Options, run Runner) bool {
	path, err := Find(opts)
	if err != nil {
		return false
	}
	if opts.Context != "" {
		return true
	}
	if run == nil {
		run = execRunner
	}
	c := &Cluster{opts: opts, path: path, run: run}
	name, err := c.CurrentContext()
	return err == nil && name != ""
}

// withGlobals appends the connection flags to args: --context (with
// context true), --kubeconfig and --request-timeout.
func (c *Cluster) withGlobals(args []string, context bool) []string {
	if context && c.opts.Context != "" {
		args = append(args, "--context="+c.opts.Context)
	}
	if c.opts.Kubeconfig != "" {
		args = append(args, "--kubeconfig="+c.opts.Kubeconfig)
	}
	if c.opts.RequestTimeout != "" {
		args = append(args, "--request-timeout="+c.opts.RequestTimeout)
	}
	return args
}

// PolicyResources are listed per namespace; ClassResources once for the
// cluster. Fully qualified, so that a custom resource of the same plural
// cannot be listed instead.
const (
	PolicyResources = "limitranges,resourcequotas"
	ClassResources  = "priorityclasses.scheduling.k8s.io,storageclasses.storage.k8s.io,runtimeclasses.node.k8s.io"
)

// PoliciesArgs is the argv that lists a namespace's LimitRanges and quotas.
func (c *Cluster) PoliciesArgs(namespace string) []string {
	return c.withGlobals([]string{"get", PolicyResources, "-n", namespace, "-o", "json"}, true)
}

// ClassesArgs is the argv that lists the cluster classes.
func (c *Cluster) ClassesArgs() []string {
	return c.withGlobals([]string{"get", ClassResources, "-o", "json"}, true)
}

// NamesArgs is the argv that lists the names of a resource's objects.
func (c *Cluster) NamesArgs(namespace, resource string) []string {
	return c.withGlobals([]string{"get", resource, "-n", namespace, "-o", "name"}, true)
}

// Policies returns the LimitRanges and ResourceQuotas of each namespace, in
// kubectl's order, then the cluster classes, each placed at
// cluster:CONTEXT/namespaces/NS/RESOURCE/NAME (cluster:CONTEXT/RESOURCE/NAME
// for classes).
func (c *Cluster) Policies(namespaces []string) ([]load.Document, error) {
	var docs []load.Document
	for _, ns := range namespaces {
		out, err := c.get(c.PoliciesArgs(ns), PolicyResources, ns)
		if err != nil {
			return nil, err
		}
		d, err := c.decode(out)
		if err != nil {
			return nil, err
		}
		docs = append(docs, d...)
	}
	out, err := c.get(c.ClassesArgs(), ClassResources, "")
	if err != nil {
		return nil, err
	}
	d, err := c.decode(out)
	if err != nil {
		return nil, err
	}
	return append(docs, d...), nil
}

// NamespaceArgs is the argv that reads a namespace.
func (c *Cluster) NamespaceArgs(name string) []string {
	return c.withGlobals([]string{"get", "namespace", name, "-o", "json"}, true)
}

// Namespaces returns those of names that exist, each placed at
// cluster:CONTEXT/namespaces/NAME: their labels choose the Pod Security
// level of what is created in them (PS-01). Credentials that may not read a
// namespace (a tenant's: namespaces are cluster-scoped) are no error:
// forbidden lists those namespaces.
func (c *Cluster) Namespaces(names []string) (docs []load.Document, forbidden []string, err error) {
	for _, name := range names {
		args := c.NamespaceArgs(name)
		out, errOut, runErr := c.run(c.path, args)
		if runErr != nil {
			msg := kubectlMessage(errOut, runErr)
			switch {
			case strings.Contains(msg, "(NotFound)"):
				continue // the input creates it, or nothing can be created in it
			case strings.Contains(msg, "(Forbidden)") || strings.Contains(msg, " is forbidden: "):
				forbidden = append(forbidden, name)
				continue
			}
			return nil, nil, c.wordError(args, "namespaces", "", errOut, runErr)
		}
		d, err := c.decode(out)
		if err != nil {
			return nil, nil, err
		}
		docs = append(docs, d...)
	}
	return docs, forbidden, nil
}

// Names returns the names of the existing objects of resource in namespace.
// A resource the server does not serve (a custom resource whose CRD the
// input brings) has none.
func (c *Cluster) Names(namespace, resource string) ([]string, error) {
	args := c.NamesArgs(namespace, resource)
	out, errOut, err := c.run(c.path, args)
	if err != nil {
		if strings.Contains(string(errOut), "the server doesn't have a resource type") {
			return nil, nil
		}
		return nil, c.wordError(args, resource, namespace, errOut, err)
	}
	return ParseNames(out)
}

// ParseNames reads `kubectl get -o name` output: a line KIND[.GROUP]/NAME
// per object.
func ParseNames(out []byte) ([]string, error) {
	var names []string
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		_, name, ok := strings.Cut(line, "/")
		if !ok || name == "" {
			return nil, errorf("reading kubectl get -o name: %q is not KIND/NAME", line)
		}
		names = append(names, name)
	}
	return names, nil
}

// get runs kubectl and words its failure: what it lists (resources, in
// namespace, "" for cluster scope) names the list in the message.
func (c *Cluster) get(args []string, resources, namespace string) ([]byte, error) {
	out, errOut, err := c.run(c.path, args)
	if err == nil {
		return out, nil
	}
	return nil, c.wordError(args, resources, namespace, errOut, err)
}

// forbiddenRE finds the resource in kube-apiserver's Forbidden message:
// `User "jane" cannot list resource "resourcequotas" in API group "" in the namespace "shop"`.
// (Compiled on first use: a run that asks no cluster need not.)
var forbiddenRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`cannot (\w+) resource "([^"]+)" in API group "([^"]*)"`)
})

// unreachable are the phrases of kubectl's messages when it cannot talk to
// the server at all.
var unreachable = []string{
	"Unable to connect to the server",
	"The connection to the server",
	"dial tcp",
	"no such host",
	"i/o timeout",
	"connection refused",
	"context deadline exceeded",
	"Client.Timeout exceeded",
}

func (c *Cluster) wordError(args []string, resources, namespace string, errOut []byte, err error) error {
	msg := kubectlMessage(errOut, err)
	where := "in namespace " + namespace
	if namespace == "" {
		where = "at the cluster scope"
	}
	if strings.Contains(msg, "(Forbidden)") || strings.Contains(msg, " is forbidden: ") {
		verb, what := "list", resources
		if m := forbiddenRE().FindStringSubmatch(msg); m != nil {
			verb, what = m[1], m[2]
			if m[3] != "" {
				what += "." + m[3]
			}
		}
		return errorf("cannot %s %s %s: forbidden (kubectl: %s)", verb, what, where, msg)
	}
	if strings.Contains(msg, "context \""+c.context+"\" does not exist") || strings.Contains(msg, "context was not found for specified context") {
		return errorf("no context %q in the kubeconfig (kubectl: %s)", c.context, msg)
	}
	for _, p := range unreachable {
		if strings.Contains(msg, p) {
			return errorf("cannot reach the cluster of context %q (kubectl: %s)", c.context, msg)
		}
	}
	return errorf("kubectl %s (context %q): %s", strings.Join(args, " "), c.context, msg)
}

// klogRE matches the lines klog writes before kubectl's own message
// (E1122 10:00:00.000000   123 memcache.go:265] couldn't get ...).
var klogRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[EWIF]\d{4} \d`) })

// kubectlMessage is kubectl's message: its stderr without klog's lines, on
// one line; if it wrote nothing, the exec error.
func kubectlMessage(errOut []byte, err error) string {
	var lines, logged []string
	for _, line := range strings.Split(string(errOut), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case klogRE().MatchString(line):
			logged = append(logged, line)
		default:
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 && len(logged) > 0 {
		lines = logged[len(logged)-1:]
	}
	if len(lines) == 0 {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.String() + " with no message"
		}
		return err.Error()
	}
	return strings.Join(lines, "; ")
}

// decode reads kubectl's JSON List into documents placed where they live.
func (c *Cluster) decode(out []byte) ([]load.Document, error) {
	var docs []load.Document
	var bad error
	name := "cluster:" + c.context
	err := load.ReadStream(name, bytes.NewReader(out), load.Options{NewObject: eval.NewObject}, func(d load.Document) bool {
		if d.Err != nil {
			bad = errorf("reading kubectl's output: %s", d.Err.Msg)
			return false
		}
		if d.Skip != "" || d.Object == nil {
			return true
		}
		d.Pos = load.Position{File: Place(c.context, d.Kind, d.Namespace, d.Name), Item: -1}
		d.JSON = nil
		docs = append(docs, d)
		return true
	})
	if err == nil {
		err = bad
	}
	if err != nil {
		return nil, err
	}
	return docs, nil
}

// resources are the plurals of the kinds Policies reads.
var resources = map[string]string{
	"LimitRange": "limitranges", "ResourceQuota": "resourcequotas",
	"PriorityClass": "priorityclasses", "StorageClass": "storageclasses", "RuntimeClass": "runtimeclasses",
	"Namespace": "namespaces",
}

// Place is where a live object is said to be: cluster:CONTEXT/namespaces/NS/RESOURCE/NAME,
// or cluster:CONTEXT/RESOURCE/NAME for a cluster-scoped one.
func Place(context, kind, namespace, name string) string {
	res := resources[kind]
	if res == "" {
		res = strings.ToLower(kind)
	}
	if namespace == "" {
		return "cluster:" + context + "/" + res + "/" + name
	}
	return "cluster:" + context + "/namespaces/" + namespace + "/" + res + "/" + name
}
