package conformance

import (
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	"github.com/limitcheck/limitcheck/internal/eval"
)

// IsNamespaceDoc reports whether a document is a v1 Namespace: like the
// cluster classes it applies to the whole run (check.go admits Namespaces
// with the policies, PS-01).
func IsNamespaceDoc(doc []byte) bool {
	var tm metav1.TypeMeta
	return json.Unmarshal(doc, &tm) == nil && tm.APIVersion == "v1" && tm.Kind == "Namespace"
}

// AddNamespace creates a Namespace document on both sides before anything
// else, as check.go does: upstream's create path (defaulting, validation,
// the PodSecurity plugin) decides whether the namespace exists with its
// labels; limitcheck's engine admits the same document. It returns an
// error when the two disagree on the verdict.
func AddNamespace(u *Upstream, e *eval.Engine, doc []byte) error {
	want, err := upstreamClusterCreate(doc, "Namespace")
	if err != nil {
		return err
	}
	got, err := Mine(e, doc)
	if err != nil {
		return err
	}
	v1 := &corev1.Namespace{}
	if err := json.Unmarshal(doc, v1); err != nil {
		return err
	}
	legacyscheme.Scheme.Default(v1)
	// Storage refuses a second namespace of a name, and one every cluster
	// has, with a 409 (ST-01): it keeps the labels it has.
	_, exists := u.nsLabels[v1.Name]
	switch v1.Name {
	case "default", "kube-system", "kube-public", "kube-node-lease":
		exists = true
	}
	if want.allowed && exists {
		return checkSame(false, "already exists", got)
	}
	if err := checkSame(want.allowed, want.message, got); err != nil {
		return err
	}
	if !want.allowed {
		// Not created, unless every cluster has it (NS-03).
		switch v1.Name {
		case "default", "kube-system", "kube-public", "kube-node-lease":
		default:
			if u.refusedNamespaces == nil {
				u.refusedNamespaces = map[string]bool{}
			}
			u.refusedNamespaces[v1.Name] = true
		}
		return nil
	}
	if u.nsLabels == nil {
		u.nsLabels = map[string]map[string]string{}
	}
	u.nsLabels[v1.Name] = v1.Labels
	return nil
}

// checkSame compares the verdicts of a Namespace's create.
func checkSame(allowed bool, message string, got eval.Result) error {
	if allowed != (got.Denial == nil) {
		mine := ""
		if got.Denial != nil {
			mine = got.Denial.Message
		}
		return fmt.Errorf("Namespace: upstream allowed %v (%s), limitcheck allowed %v (%s)", allowed, message, got.Denial == nil, mine)
	}
	return nil
}
