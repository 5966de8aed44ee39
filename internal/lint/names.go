package lint

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
	"github.com/limitcheck/limitcheck/internal/eval/quota"
	"github.com/limitcheck/limitcheck/internal/eval/resources"
)

// quotaCountsNothing finds the hard names of q that no request is ever
// charged against (LINT-12): kube-apiserver's validation takes any name with
// a slash, so count/deployments (core group), count/deployment.apps (a
// singular) or nvidia.com/gpu (an extended resource without requests.) are
// admitted and limit nothing.
func quotaCountsNothing(q *corev1.ResourceQuota, c *apis.Catalog, checker quota.Checker) []Finding {
	var out []Finding
	for _, k := range resources.SortedNames(q.Spec.Hard) {
		msg, fix := untracked(k, c, checker)
		if msg == "" {
			continue
		}
		out = append(out, Finding{Rule: RuleQuotaCountsNothing, Severity: Error, Object: quotaObject(q),
			Message: string(k) + " counts nothing: " + msg, Fix: fix})
	}
	return out
}

// untracked explains why no request is charged against name, or returns ""
// when some is (or it cannot be known: a custom resource whose CRD is not in
// the input).
func untracked(name corev1.ResourceName, c *apis.Catalog, checker quota.Checker) (msg, fix string) {
	s := string(name)
	if rest, ok := strings.CutPrefix(s, "count/"); ok {
		gr := schema.ParseGroupResource(rest)
		known, decided, meant := c.CountTarget(gr)
		if known && c.ClusterScoped(gr) {
			return fmt.Sprintf("%s is cluster-scoped, and a quota counts only the objects of its own namespace", gr.String()),
				"remove it: no quota limits cluster-scoped objects"
		}
		if known || !decided {
			return "", ""
		}
		where := "the core group"
		if gr.Group != "" {
			where = "group " + gr.Group
		}
		msg = fmt.Sprintf("no kind is served as %q in %s", gr.Resource, where)
		if !strings.Contains(gr.Group, ".") && gr.Group != "" && checker.TrackedName(corev1.ResourceName(rest)) {
			// count/services.loadbalancers: the quota name without count/.
			return msg, "write " + rest
		}
		if meant.Resource != "" && !c.ClusterScoped(meant) {
			return msg, "write count/" + meant.String()
		}
		return msg, "name a served resource, count/<plural>.<group> as kubectl api-resources lists it"
	}
	if checker.TrackedName(name) {
		return "", ""
	}
	if ext, ok := strings.CutPrefix(s, "limits."); ok && strings.Contains(ext, "/") {
		return "quota limits an extended resource only by its requests (a container's request and limit of one are equal)",
			"write requests." + ext
	}
	if strings.Contains(s, "/") && !strings.HasPrefix(s, "requests.") && !strings.Contains(s, ".storageclass.storage.k8s.io/") &&
		!strings.Contains(s, ".deviceclass.resource.k8s.io/") {
		return "quota limits an extended resource only as requests.<name>", "write requests." + s
	}
	return "no quota evaluator of kube-apiserver 1.36 tracks it", "remove it, or name a resource quota tracks"
}
