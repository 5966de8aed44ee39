package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// Case is one input replayed on the control plane and checked by limitcheck:
// documents in the order kubectl would read them, the namespace of those that
// set none, and limitcheck flags a real cluster reproduces.
type Case struct {
	Name string // where it comes from: README, a testscript, seed and number
	// Docs are JSON objects. Namespaces are already renamed to the case's own
	// (Rename).
	Docs [][]byte
	// Namespace is the namespace of documents that set none.
	Namespace string
	// Flags are extra limitcheck flags (the same meaning on the cluster).
	Flags []string
	// InputOrder: --order=input, every document in input order.
	InputOrder bool
	// Sources say where limitcheck read each document, when the case is
	// several files (else document i is index i of one stream).
	Sources []Source
	// ReplaceLive: a LimitRange or ResourceQuota whose name exists replaces
	// the live one (limitcheck --from-cluster), instead of a 409.
	ReplaceLive bool
	// AsIs: the input is also given to kubectl create -f as it is, for what
	// the documents replayed one by one cannot show: a kind kube-apiserver
	// does not serve, whose error kubectl words itself (API-01), or line
	// breaks kubectl's reader and YAML see otherwise (IN-16).
	AsIs bool

	namespaceFlag bool
}

// policyKinds are admitted before everything else (docs/behaviour.md ORD-01,
// --order=policies-first).
func isPolicy(apiVersion, kind string) bool {
	switch {
	case apiVersion == "v1" && (kind == "LimitRange" || kind == "ResourceQuota"):
		return true
	case apiVersion == "scheduling.k8s.io/v1" && kind == "PriorityClass",
		apiVersion == "storage.k8s.io/v1" && kind == "StorageClass",
		apiVersion == "node.k8s.io/v1" && kind == "RuntimeClass":
		return true
	}
	return false
}

// isClass: a cluster-scoped class a case brings; such cases run alone.
func isClass(kind string) bool {
	return kind == "PriorityClass" || kind == "StorageClass" || kind == "RuntimeClass"
}

// Source is a document's place in limitcheck's report: file and index in it.
type Source struct {
	File  string
	Index int
}

// clusterScoped are the cluster-scoped kinds inputs have.
var clusterScoped = map[string]bool{"Namespace": true, "PriorityClass": true, "StorageClass": true, "RuntimeClass": true,
	"Node": true, "PersistentVolume": true, "ClusterRole": true, "ClusterRoleBinding": true, "CustomResourceDefinition": true,
	"DeviceClass": true, "VolumeAttributesClass": true, "IngressClass": true, "ValidatingAdmissionPolicy": true,
	"ValidatingAdmissionPolicyBinding": true, "MutatingWebhookConfiguration": true, "ValidatingWebhookConfiguration": true,
	"APIService": true, "CSIDriver": true, "CSINode": true, "StorageVersion": true}

// typeMeta is what a document says it is.
type typeMeta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name         string `json:"name"`
		GenerateName string `json:"generateName"`
		Namespace    string `json:"namespace"`
	} `json:"metadata"`
}

func metaOf(doc []byte) typeMeta {
	var t typeMeta
	_ = json.Unmarshal(doc, &t)
	return t
}

// Order returns the indices of docs in the order limitcheck admits them by
// default: policies first, then the rest, each in input order. The
// ServiceAccounts come right after the policies: limitcheck's default order
// takes them to exist for the Pods, as Helm and Argo CD create them before
// any Pod (PL-11), while it admits them at their place in the input.
func (c *Case) Order() []int {
	var first, accounts, rest []int
	if c.InputOrder {
		for i := range c.Docs {
			rest = append(rest, i)
		}
		return rest
	}
	for i, d := range c.Docs {
		t := metaOf(d)
		switch {
		case isPolicy(t.APIVersion, t.Kind):
			first = append(first, i)
		case t.APIVersion == "v1" && t.Kind == "ServiceAccount":
			accounts = append(accounts, i)
		default:
			rest = append(rest, i)
		}
	}
	return append(append(first, accounts...), rest...)
}

// HasClasses reports whether the case creates cluster-scoped classes.
func (c *Case) HasClasses() bool {
	for _, d := range c.Docs {
		if isClass(metaOf(d).Kind) {
			return true
		}
	}
	return false
}

// clusterWide are the cluster-scoped kinds, other than the classes, whose
// objects reach past a case: a webhook configuration intercepts every
// later request, an APIService whose Service is missing breaks discovery,
// and the names of the others are the cluster's. Such cases run alone and
// their objects are deleted after them (cleanClusterObjects).
var clusterWide = map[string]bool{"ValidatingWebhookConfiguration": true, "MutatingWebhookConfiguration": true,
	"IngressClass": true, "APIService": true, "ClusterRole": true, "ClusterRoleBinding": true, "PersistentVolume": true}

// HasClusterObjects reports whether the case creates objects of a
// clusterWide kind.
func (c *Case) HasClusterObjects() bool {
	for _, d := range c.Docs {
		if clusterWide[metaOf(d).Kind] {
			return true
		}
	}
	return false
}

// HasNodePorts reports whether the case creates a Service with node ports,
// which the whole cluster shares.
func (c *Case) HasNodePorts() bool {
	for _, d := range c.Docs {
		if metaOf(d).Kind == "Service" && (bytes.Contains(d, []byte(`"NodePort"`)) || bytes.Contains(d, []byte(`"LoadBalancer"`))) {
			return true
		}
	}
	return false
}

// Namespaces are the namespaces the case writes to, sorted.
func (c *Case) Namespaces() []string {
	set := map[string]bool{c.Namespace: true}
	for _, d := range c.Docs {
		t := metaOf(d)
		if t.Kind == "Namespace" || isClass(t.Kind) {
			continue
		}
		if t.Metadata.Namespace != "" {
			set[t.Metadata.Namespace] = true
		}
	}
	var out []string
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Rename gives the case's namespaces a prefix, so that cases do not share
// one: the namespace of documents that set none, and those documents set.
func (c *Case) Rename(prefix string) {
	c.Namespace = prefix + c.Namespace
	for i, d := range c.Docs {
		var u map[string]any
		if err := json.Unmarshal(d, &u); err != nil {
			continue
		}
		md, _ := u["metadata"].(map[string]any)
		if md == nil {
			continue
		}
		if ns, ok := md["namespace"].(string); ok && ns != "" {
			md["namespace"] = prefix + ns
		} else if !clusterScoped[metaOf(d).Kind] {
			// Named explicitly: limitcheck -n, like kubectl create -n,
			// refuses documents of other namespaces.
			md["namespace"] = c.Namespace
		}
		if metaOf(d).Kind == "Namespace" {
			if n, ok := md["name"].(string); ok {
				md["name"] = prefix + n
			}
		}
		b, err := json.Marshal(u)
		if err == nil {
			c.Docs[i] = b
		}
	}
}

// Stream is the case's input for limitcheck: one YAML stream.
func (c *Case) Stream() []byte {
	var b bytes.Buffer
	for i, d := range c.Docs {
		if i > 0 {
			b.WriteString("---\n")
		}
		y, err := yaml.JSONToYAML(d)
		if err != nil {
			y = append(d, '\n')
		}
		b.Write(y)
	}
	return b.Bytes()
}

// Save writes the case to dir (case.yaml, namespace, flags) for -replay.
func (c *Case) Save(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	meta, _ := json.MarshalIndent(map[string]any{"name": c.Name, "namespace": c.Namespace, "flags": c.Flags, "inputOrder": c.InputOrder}, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "case.json"), meta, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "input.yaml"), c.Stream(), 0o644)
}

// LoadCase reads a case Save wrote.
func LoadCase(dir string) (*Case, error) {
	var c Case
	b, err := os.ReadFile(filepath.Join(dir, "case.json"))
	if err != nil {
		return nil, err
	}
	var meta struct {
		Name, Namespace string
		Flags           []string
		InputOrder      bool
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		return nil, err
	}
	c.Name, c.Namespace, c.Flags, c.InputOrder = meta.Name, meta.Namespace, meta.Flags, meta.InputOrder
	in, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
	if err != nil {
		return nil, err
	}
	c.Docs, err = SplitYAML(in)
	return &c, err
}

// SplitYAML splits a YAML stream into JSON documents, leaving out empty ones.
// A document that is not an object is an error, and so is a List.
func SplitYAML(in []byte) ([][]byte, error) {
	return splitYAML(in, false)
}

// SplitYAMLItems is SplitYAML with each List replaced by its items, as
// kubectl create -f creates them one by one.
func SplitYAMLItems(in []byte) ([][]byte, error) {
	return splitYAML(in, true)
}

func splitYAML(in []byte, items bool) ([][]byte, error) {
	var docs [][]byte
	for _, part := range splitDocs(string(in)) {
		if strings.TrimSpace(stripComments(part)) == "" {
			continue
		}
		j, err := yaml.YAMLToJSONStrict([]byte(part))
		if err != nil {
			return nil, err
		}
		var u unstructured.Unstructured
		if err := u.UnmarshalJSON(j); err != nil {
			return nil, fmt.Errorf("not an object: %w", err)
		}
		if u.IsList() {
			if !items {
				return nil, fmt.Errorf("a List: not replayed")
			}
			l, err := u.ToList()
			if err != nil {
				return nil, fmt.Errorf("a List: %w", err)
			}
			for _, it := range l.Items {
				b, err := it.MarshalJSON()
				if err != nil {
					return nil, err
				}
				docs = append(docs, b)
			}
			continue
		}
		docs = append(docs, j)
	}
	return docs, nil
}

func splitDocs(s string) []string {
	var docs []string
	var cur strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if strings.TrimRight(line, " \t\r\n") == "---" {
			docs = append(docs, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteString(line)
	}
	return append(docs, cur.String())
}

func stripComments(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}
