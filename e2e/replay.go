package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"

	lcvalidation "github.com/limitcheck/limitcheck/internal/eval/validation"
)

// Replayer creates a case's documents on the control plane, one at a time, as
// kubectl create -f would, and records what kube-apiserver and the
// controllers did with them.
type Replayer struct {
	Core   kubernetes.Interface
	Dyn    dynamic.Interface
	Mapper meta.ResettableRESTMapper
	// Settle is how long a workload's Pods, claims and events must stay
	// unchanged, once its controller has observed it, to count as settled.
	Settle time.Duration
	// Timeout bounds each wait.
	Timeout time.Duration
}

// NewReplayer makes a replayer talking to cfg.
func NewReplayer(cfg *rest.Config) (*Replayer, error) {
	core, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	disco, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disco))
	return &Replayer{Core: core, Dyn: dyn, Mapper: mapper, Settle: 700 * time.Millisecond, Timeout: 60 * time.Second}, nil
}

// Outcome is what happened to one document.
type Outcome struct {
	Index                 int
	Kind, Namespace, Name string
	// Error is a failure before any request (kubectl's "no matches for
	// kind"); Code and Message are kube-apiserver's answer otherwise.
	Error   string
	Allowed bool
	Code    int
	Message string
	// Created is what the object's controllers created (workloads only).
	Created *Created
}

// Created is what a workload's controllers did: Pods and claims that exist
// (admitted, and adopted for Pods) and the refusals their FailedCreate events
// name.
type Created struct {
	// NotCompared says why created objects are not compared ("" when they are).
	NotCompared   string
	Pods, Claims  int
	ReplicaSets   int
	Refusals      []string // distinct, names normalized (NormalizeMessage)
	SettleTimeout bool
}

// QuotaState is a quota's final status.
type QuotaState struct {
	Hard, Used map[string]string
}

// Replay is a case's outcomes, by document index, and its quotas' final
// status by namespace/name.
type Replay struct {
	Outcomes []Outcome
	Quotas   map[string]QuotaState
}

var workloadKinds = map[string]bool{"Deployment": true, "ReplicaSet": true, "ReplicationController": true,
	"DaemonSet": true, "StatefulSet": true, "Job": true, "CronJob": true}

// Run replays c: its namespaces first (waiting for their ServiceAccount
// default and ConfigMap kube-root-ca.crt), then every document in admission
// order, waiting after each quota for its first sync and after each workload
// for its controllers to settle.
func (r *Replayer) Run(ctx context.Context, c *Case) (*Replay, error) {
	nsDocs, refused := map[int]Outcome{}, map[string]bool{}
	byDoc := map[string]bool{} // namespaces a Namespace document creates, in input order
	if c.InputOrder {
		// --order=input: a Namespace document creates its namespace where
		// it is, and the objects before it meet none (NS-04).
		for _, d := range c.Docs {
			if t := metaOf(d); t.APIVersion == "v1" && t.Kind == "Namespace" {
				byDoc[t.Metadata.Name] = true
			}
		}
	} else {
		var err error
		if nsDocs, refused, err = r.createNamespaceDocs(ctx, c); err != nil {
			return nil, err
		}
	}
	for _, ns := range c.Namespaces() {
		if len(validation.IsDNS1123Label(ns)) > 0 || refused[ns] || byDoc[ns] {
			continue // no cluster has it (yet): its objects meet what kube-apiserver says
		}
		if err := r.CreateNamespace(ctx, ns); err != nil {
			return nil, err
		}
	}
	res := &Replay{Outcomes: make([]Outcome, len(c.Docs)), Quotas: map[string]QuotaState{}}
	for _, i := range c.Order() {
		if o, ok := nsDocs[i]; ok {
			res.Outcomes[i] = o
			continue
		}
		if t := metaOf(c.Docs[i]); c.InputOrder && t.APIVersion == "v1" && t.Kind == "Namespace" {
			o, refusedNS, err := r.createNamespaceDoc(ctx, c.Docs[i], i)
			if err != nil {
				return nil, err
			}
			if refusedNS {
				refused[t.Metadata.Name] = true
			}
			res.Outcomes[i] = o
			continue
		}
		o, err := r.create(ctx, c, i)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		res.Outcomes[i] = o
	}
	for _, ns := range c.Namespaces() {
		if len(validation.IsDNS1123Label(ns)) > 0 || refused[ns] {
			continue
		}
		qs, err := r.settledQuotas(ctx, ns)
		if err != nil {
			return nil, err
		}
		for name, q := range qs {
			res.Quotas[ns+"/"+name] = q
		}
	}
	return res, nil
}

// createNamespaceDocs creates the case's v1 Namespace documents before
// everything else, as written: their outcomes by document index, and the
// namespaces kube-apiserver refused (their objects then meet a namespace
// that does not exist).
func (r *Replayer) createNamespaceDocs(ctx context.Context, c *Case) (map[int]Outcome, map[string]bool, error) {
	outcomes, refused := map[int]Outcome{}, map[string]bool{}
	for i, d := range c.Docs {
		t := metaOf(d)
		if t.Kind != "Namespace" || t.APIVersion != "v1" {
			continue
		}
		o, refusedNS, err := r.createNamespaceDoc(ctx, d, i)
		if err != nil {
			return nil, nil, err
		}
		if refusedNS {
			refused[t.Metadata.Name] = true
		}
		outcomes[i] = o
	}
	return outcomes, refused, nil
}

// createNamespaceDoc creates the Namespace document d (index i) as written:
// its outcome, and whether kube-apiserver refused a namespace no cluster has
// already.
func (r *Replayer) createNamespaceDoc(ctx context.Context, d []byte, i int) (Outcome, bool, error) {
	t := metaOf(d)
	o := Outcome{Index: i, Kind: t.Kind, Name: t.Metadata.Name}
	var u unstructured.Unstructured
	if err := u.UnmarshalJSON(d); err != nil {
		o.Error = err.Error()
		return o, false, nil
	}
	u.SetResourceVersion("") // as kubectl create does (ST-03)
	_, err := r.Dyn.Resource(corev1.SchemeGroupVersion.WithResource("namespaces")).Create(ctx, &u, metav1.CreateOptions{FieldValidation: "Strict"})
	var st apierrors.APIStatus
	switch {
	case err == nil || apierrors.IsAlreadyExists(err):
		o.Allowed = true
		o.Error = "namespace created before the documents"
	case errors.As(err, &st):
		o.Code, o.Message = int(st.Status().Code), st.Status().Message
		switch t.Metadata.Name {
		case "default", "kube-system", "kube-public", "kube-node-lease":
			return o, false, nil // every cluster has it already
		}
		return o, true, nil
	default:
		return o, false, err
	}
	return o, false, nil
}

// CreateNamespace creates ns and waits for what its controllers put in it.
func (r *Replayer) CreateNamespace(ctx context.Context, ns string) error {
	_, err := r.Core.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating namespace %s: %w", ns, err)
	}
	return waitFor(ctx, r.Timeout, "ServiceAccount default and ConfigMap kube-root-ca.crt in "+ns, func() (bool, error) {
		if _, err := r.Core.CoreV1().ServiceAccounts(ns).Get(ctx, "default", metav1.GetOptions{}); err != nil {
			return false, ignoreNotFound(err)
		}
		if _, err := r.Core.CoreV1().ConfigMaps(ns).Get(ctx, "kube-root-ca.crt", metav1.GetOptions{}); err != nil {
			return false, ignoreNotFound(err)
		}
		return true, nil
	})
}

func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

func (r *Replayer) create(ctx context.Context, c *Case, i int) (Outcome, error) {
	doc := c.Docs[i]
	t := metaOf(doc)
	o := Outcome{Index: i, Kind: t.Kind, Name: t.Metadata.Name}
	if t.Kind == "Namespace" && t.APIVersion == "v1" {
		// Created with the case's other namespaces, before everything.
		o.Allowed = true
		o.Error = "namespace created before the documents"
		return o, nil
	}
	if t.APIVersion == "" {
		// kubectl cannot map a document without apiVersion to a resource
		// and sends nothing; the dynamic client would find one from the
		// kind alone and kube-apiserver would default the rest.
		o.Error = "Object 'apiVersion' is missing (kubectl refuses the document)"
		return o, nil
	}
	var u unstructured.Unstructured
	if err := u.UnmarshalJSON(doc); err != nil {
		o.Error = err.Error()
		return o, nil
	}
	gvk := u.GroupVersionKind()
	mapping, err := r.Mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		o.Error = err.Error()
		return o, nil
	}
	var ri dynamic.ResourceInterface = r.Dyn.Resource(mapping.Resource)
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		o.Namespace = u.GetNamespace()
		if o.Namespace == "" {
			o.Namespace = c.Namespace
		}
		ri = r.Dyn.Resource(mapping.Resource).Namespace(o.Namespace)
	}
	// kubectl create -f asks for strict field validation, and clears a
	// resourceVersion before it sends the object (ST-03).
	u.SetResourceVersion("")
	created, err := ri.Create(ctx, &u, metav1.CreateOptions{FieldValidation: "Strict"})
	if apierrors.IsAlreadyExists(err) && c.ReplaceLive && t.APIVersion == "v1" && (t.Kind == "LimitRange" || t.Kind == "ResourceQuota") {
		var live *unstructured.Unstructured
		if live, err = ri.Get(ctx, u.GetName(), metav1.GetOptions{}); err != nil {
			return o, err
		}
		u.SetResourceVersion(live.GetResourceVersion())
		created, err = ri.Update(ctx, &u, metav1.UpdateOptions{FieldValidation: "Strict"})
	}
	if err != nil {
		var st apierrors.APIStatus
		if !errors.As(err, &st) {
			return o, err
		}
		o.Code = int(st.Status().Code)
		o.Message = st.Status().Message
		return o, nil
	}
	o.Allowed = true
	o.Name = created.GetName()
	switch {
	case t.APIVersion == "v1" && t.Kind == "ResourceQuota":
		err = r.waitQuotaSynced(ctx, o.Namespace, o.Name)
	case t.Kind == "PriorityClass" || t.Kind == "RuntimeClass":
		err = r.waitClassSeen(ctx, t.Kind, o.Name)
	case t.APIVersion == "v1" && t.Kind == "LimitRange":
		err = r.waitLimitRangeCached(ctx, o.Namespace, o.Name)
	case workloadKinds[t.Kind]:
		o.Created, err = r.settle(ctx, created)
		if err == nil && t.Kind == "StatefulSet" && ownsInputNames(c, created) {
			o.Created.NotCompared = "a StatefulSet whose Pods or claims the input has (adopted or reused; a name another Pod has fails with no event, and the controller's retries meet quotas it charged)"
		}
	}
	return o, err
}

// ownsInputNames reports whether the case has a Pod named like one of set's
// ordinals, or a claim named like one of its templates' claims (WL-02).
func ownsInputNames(c *Case, set *unstructured.Unstructured) bool {
	templates, _, _ := unstructured.NestedSlice(set.Object, "spec", "volumeClaimTemplates")
	ordinal := func(name, prefix string) bool {
		rest, ok := strings.CutPrefix(name, prefix)
		_, err := strconv.Atoi(rest)
		return ok && err == nil
	}
	for _, d := range c.Docs {
		t := metaOf(d)
		if t.APIVersion != "v1" || t.Metadata.Namespace != "" && t.Metadata.Namespace != set.GetNamespace() {
			continue
		}
		switch t.Kind {
		case "Pod":
			if ordinal(t.Metadata.Name, set.GetName()+"-") {
				return true
			}
		case "PersistentVolumeClaim":
			for _, tm := range templates {
				name, _, _ := unstructured.NestedString(tm.(map[string]any), "metadata", "name")
				if ordinal(t.Metadata.Name, name+"-"+set.GetName()+"-") {
					return true
				}
			}
		}
	}
	return false
}

// waitClassSeen waits until the Priority or RuntimeClass plugin, which reads
// classes from an informer, knows a new class: a Pod naming it, created with
// dryRun (admission runs, nothing is stored), is no longer refused for it.
func (r *Replayer) waitClassSeen(ctx context.Context, kind, name string) error {
	probe := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "class-probe", Namespace: "default"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "probe:1"}}}}
	notFound := "no PriorityClass with name " + name + " was found"
	if kind == "PriorityClass" {
		probe.Spec.PriorityClassName = name
	} else {
		probe.Spec.RuntimeClassName = &name
		notFound = `RuntimeClass "` + name + `" not found`
	}
	return waitFor(ctx, r.Timeout, "the admission plugins to see "+kind+" "+name, func() (bool, error) {
		_, err := r.Core.CoreV1().Pods("default").Create(ctx, probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		return err == nil || !strings.Contains(err.Error(), notFound), nil
	})
}

// waitLimitRangeCached waits until kube-apiserver's watch cache, which feeds
// the LimitRanger plugin's informer, lists a new LimitRange (a list at
// resourceVersion 0 is served from that cache).
func (r *Replayer) waitLimitRangeCached(ctx context.Context, ns, name string) error {
	return waitFor(ctx, r.Timeout, "LimitRange "+ns+"/"+name+" in the watch cache", func() (bool, error) {
		l, err := r.Core.CoreV1().LimitRanges(ns).List(ctx, metav1.ListOptions{ResourceVersion: "0"})
		if err != nil {
			return false, err
		}
		for _, lr := range l.Items {
			if lr.Name == name {
				return true, nil
			}
		}
		return false, nil
	})
}

// waitQuotaSynced waits for the quota controller's first sync: status.hard
// set as spec.hard says.
func (r *Replayer) waitQuotaSynced(ctx context.Context, ns, name string) error {
	return waitFor(ctx, r.Timeout, "the first sync of quota "+ns+"/"+name, func() (bool, error) {
		q, err := r.Core.CoreV1().ResourceQuotas(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		// status.used may stay empty: a resource no evaluator knows
		// (example.com/foo) has no usage.
		if len(q.Status.Hard) != len(q.Spec.Hard) {
			return false, nil
		}
		for k, v := range q.Spec.Hard {
			if h, ok := q.Status.Hard[k]; !ok || h.Cmp(v) != 0 {
				return false, nil
			}
		}
		return true, nil
	})
}

// settledQuotas waits until the quotas of ns stop changing and returns them.
func (r *Replayer) settledQuotas(ctx context.Context, ns string) (map[string]QuotaState, error) {
	var last string
	var since time.Time
	var out map[string]QuotaState
	err := waitFor(ctx, r.Timeout, "the quotas of "+ns+" to settle", func() (bool, error) {
		l, err := r.Core.CoreV1().ResourceQuotas(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		out = map[string]QuotaState{}
		if len(l.Items) == 0 {
			return true, nil
		}
		for _, q := range l.Items {
			s := QuotaState{Hard: map[string]string{}, Used: map[string]string{}}
			for k, v := range q.Status.Hard {
				s.Hard[string(k)] = v.String()
			}
			for k, v := range q.Status.Used {
				s.Used[string(k)] = v.String()
			}
			out[q.Name] = s
		}
		b, _ := json.Marshal(out)
		if string(b) != last {
			last, since = string(b), time.Now()
			return false, nil
		}
		return time.Since(since) >= r.Settle, nil
	})
	return out, err
}

// settle waits until the controllers of workload w have done what they will:
// the controller has observed it and its Pods, claims and FailedCreate
// events have not changed for r.Settle. Pods are marked Running and Ready as
// a kubelet would (a StatefulSet waits for that, OrderedReady).
func (r *Replayer) settle(ctx context.Context, w *unstructured.Unstructured) (*Created, error) {
	c := &Created{}
	if w.GetKind() == "CronJob" {
		refused, err := r.fireCronJob(ctx, w)
		if err != nil || refused != "" {
			if refused != "" {
				c.Refusals = []string{refused}
			}
			return c, err
		}
	}
	if w.GetKind() == "DaemonSet" {
		spec, _, _ := unstructured.NestedMap(w.Object, "spec", "template", "spec")
		if spec["nodeSelector"] != nil || spec["affinity"] != nil || spec["runtimeClassName"] != nil || spec["nodeName"] != nil {
			c.NotCompared = "a DaemonSet whose Pods select nodes (limitcheck assumes every node runs one; the plane's node has no labels)"
			return c, nil
		}
	}
	if len(w.GetOwnerReferences()) > 0 {
		c.NotCompared = "a workload naming owners (the garbage collector deletes it when no owner has that uid; limitcheck cannot know)"
		return c, nil
	}
	var last string
	var since time.Time
	err := waitFor(ctx, r.Timeout, w.GetKind()+" "+w.GetNamespace()+"/"+w.GetName()+" to settle", func() (bool, error) {
		snap, observed, err := r.snapshot(ctx, w, c)
		if err != nil {
			return false, err
		}
		if !observed || snap != last {
			if os.Getenv("E2E_DEBUG") != "" {
				fmt.Fprintf(os.Stderr, "%s %s/%s observed=%v %s\n", time.Now().Format("15:04:05.000"), w.GetKind(), w.GetName(), observed, snap)
			}
			last, since = snap, time.Now()
			return false, nil
		}
		return time.Since(since) >= r.Settle, nil
	})
	if errors.Is(err, errTimeout) {
		c.SettleTimeout = true
		return c, nil
	}
	return c, err
}

// snapshot fills c from the cluster and returns a string that changes when it
// does, and whether the workload's controller has observed the workload.
func (r *Replayer) snapshot(ctx context.Context, w *unstructured.Unstructured, c *Created) (string, bool, error) {
	ns := w.GetNamespace()
	cur, err := r.Dyn.Resource(workloadResource(w)).Namespace(ns).Get(ctx, w.GetName(), metav1.GetOptions{})
	if err != nil {
		return "", false, err
	}
	observed := false
	switch w.GetKind() {
	case "CronJob":
		observed = true // its Job is created by fireCronJob
	case "Job":
		_, started, _ := unstructured.NestedString(cur.Object, "status", "startTime")
		conds, _, _ := unstructured.NestedSlice(cur.Object, "status", "conditions")
		suspended, _, _ := unstructured.NestedBool(cur.Object, "spec", "suspend")
		observed = started || len(conds) > 0 || suspended
	default:
		og, _, _ := unstructured.NestedInt64(cur.Object, "status", "observedGeneration")
		observed = og >= cur.GetGeneration()
	}
	owners := map[types.UID]bool{w.GetUID(): true}
	rsList, err := r.Core.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", false, err
	}
	c.ReplicaSets = 0
	for _, rs := range rsList.Items {
		if ref := metav1.GetControllerOf(&rs); ref != nil && ref.UID == w.GetUID() {
			owners[rs.UID] = true
			c.ReplicaSets++
		}
	}
	jobs, err := r.Core.BatchV1().Jobs(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", false, err
	}
	for _, j := range jobs.Items {
		if ref := metav1.GetControllerOf(&j); ref != nil && ref.UID == w.GetUID() {
			owners[j.UID] = true
		}
	}
	pods, err := r.Core.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", false, err
	}
	var names []string
	for i := range pods.Items {
		p := &pods.Items[i]
		ref := metav1.GetControllerOf(p)
		if ref == nil || !owners[ref.UID] {
			continue
		}
		names = append(names, p.Name)
		if err := r.markReady(ctx, p); err != nil {
			return "", false, err
		}
	}
	c.Pods = len(names)
	c.Claims = 0
	if w.GetKind() == "StatefulSet" {
		tmpls, _, _ := unstructured.NestedSlice(w.Object, "spec", "volumeClaimTemplates")
		claims, err := r.Core.CoreV1().PersistentVolumeClaims(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return "", false, err
		}
		for _, cl := range claims.Items {
			for _, t := range tmpls {
				tn, _, _ := unstructured.NestedString(t.(map[string]any), "metadata", "name")
				if strings.HasPrefix(cl.Name, tn+"-"+w.GetName()+"-") {
					// Once per claim: two templates of one name make one
					// claim (WL-14).
					c.Claims++
					names = append(names, "claim "+cl.Name)
					break
				}
			}
		}
	}
	events, err := r.Core.CoreV1().Events(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", false, err
	}
	refusals := map[string]bool{}
	var counts []string
	for _, e := range events.Items {
		if e.Type != corev1.EventTypeWarning || !owners[e.InvolvedObject.UID] {
			continue
		}
		if e.Reason != "FailedCreate" && e.Reason != "ReplicaSetCreateError" {
			continue
		}
		for _, m := range RefusalsOf(e.Message) {
			refusals[NormalizeMessage(m)] = true
		}
		counts = append(counts, fmt.Sprintf("%s=%d", e.Name, e.Count))
	}
	c.Refusals = c.Refusals[:0]
	for m := range refusals {
		c.Refusals = append(c.Refusals, m)
	}
	sort.Strings(c.Refusals)
	sort.Strings(names)
	sort.Strings(counts)
	// A Deployment whose ReplicaSet is refused never records that it
	// observed itself.
	observed = observed || len(counts) > 0
	return strings.Join(names, ",") + "|" + strings.Join(counts, ","), observed, nil
}

// fireCronJob creates the Job a CronJob's schedule would, as the cronjob
// controller does (k8s.io/kubernetes/pkg/controller/cronjob:
// getJobFromTemplate2): the template's labels, annotations and spec, the
// scheduled-timestamp annotation, the name <cronjob>-<minutes>, the CronJob as
// controller. The schedule is not waited for; a suspended CronJob creates
// nothing. It returns the refusal of the Job, normalized.
func (r *Replayer) fireCronJob(ctx context.Context, cj *unstructured.Unstructured) (string, error) {
	if s, _, _ := unstructured.NestedBool(cj.Object, "spec", "suspend"); s {
		return "", nil
	}
	// Nor does the controller fire one whose starting deadline is 0 or
	// whose schedule names no time that exists (WL-11).
	if d, ok, _ := unstructured.NestedInt64(cj.Object, "spec", "startingDeadlineSeconds"); ok && d == 0 {
		return "", nil
	}
	if sched, _, _ := unstructured.NestedString(cj.Object, "spec", "schedule"); !lcvalidation.ScheduleFires(sched) {
		return "", nil
	}
	tmpl, _, _ := unstructured.NestedMap(cj.Object, "spec", "jobTemplate")
	md, _ := tmpl["metadata"].(map[string]any)
	labels, _ := md["labels"].(map[string]any)
	annotations, _ := md["annotations"].(map[string]any)
	if annotations == nil {
		annotations = map[string]any{}
	}
	now := time.Now().UTC().Truncate(time.Minute)
	annotations["batch.kubernetes.io/cronjob-scheduled-timestamp"] = now.Format(time.RFC3339)
	meta := map[string]any{
		"name":        fmt.Sprintf("%s-%d", cj.GetName(), now.Unix()/60),
		"annotations": annotations,
		"ownerReferences": []any{map[string]any{"apiVersion": "batch/v1", "kind": "CronJob", "name": cj.GetName(),
			"uid": string(cj.GetUID()), "controller": true, "blockOwnerDeletion": true}},
	}
	if labels != nil {
		meta["labels"] = labels
	}
	job := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "batch/v1", "kind": "Job", "metadata": meta, "spec": tmpl["spec"]}}
	_, err := r.Dyn.Resource(schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "jobs"}).Namespace(cj.GetNamespace()).
		Create(ctx, job, metav1.CreateOptions{})
	var st apierrors.APIStatus
	if errors.As(err, &st) {
		return NormalizeMessage(st.Status().Message), nil
	}
	return "", err
}

func workloadResource(w *unstructured.Unstructured) schema.GroupVersionResource {
	gv := w.GroupVersionKind().GroupVersion()
	plural := map[string]string{"Deployment": "deployments", "ReplicaSet": "replicasets", "ReplicationController": "replicationcontrollers",
		"DaemonSet": "daemonsets", "StatefulSet": "statefulsets", "Job": "jobs", "CronJob": "cronjobs"}[w.GetKind()]
	return gv.WithResource(plural)
}

// markReady does a kubelet's part: a Pod runs and is ready.
func (r *Replayer) markReady(ctx context.Context, p *corev1.Pod) error {
	if p.Status.Phase == corev1.PodRunning {
		return nil
	}
	now := metav1.Now()
	p.Status.Phase = corev1.PodRunning
	p.Status.StartTime = &now
	p.Status.Conditions = append(p.Status.Conditions,
		corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: now},
		corev1.PodCondition{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: now})
	_, err := r.Core.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, p, metav1.UpdateOptions{})
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		return nil // the next poll sees it again
	}
	return err
}

// The prefixes the controllers put before kube-apiserver's message in their
// FailedCreate events (k8s.io/kubernetes/pkg/controller: RealPodControl,
// statefulset: StatefulPodControl.recordPodEvent and recordClaimEvent,
// deployment: getNewReplicaSet; the event aggregator's own prefix).
var refusalPrefixes = []*regexp.Regexp{
	regexp.MustCompile(`^\(combined from similar events\): `),
	regexp.MustCompile(`^Error creating: `),
	regexp.MustCompile(`^Error creating job: `),
	regexp.MustCompile(`^Create Pod \S+ in StatefulSet \S+ failed error: `),
	regexp.MustCompile(`^Create Claim \S+ for Pod \S+ in StatefulSet \S+ failed error: `),
	regexp.MustCompile(`^Failed to create new replica set "[^"]*": `),
	// A StatefulSet's Pod event carries its claim's error.
	claimPrefix,
}

var claimPrefix = regexp.MustCompile(`^failed to create PVC \S+: `)

// claimErrors splits the aggregate a StatefulSet's Pod event carries when
// several of its claims failed: "[failed to create PVC a: …, failed to
// create PVC b: …]", the claims in the order the controller's goroutines
// finished (utilerrors.Aggregate).
var claimErrors = regexp.MustCompile(`(?:^\[|, )failed to create PVC \S+: `)

// RefusalsOf is kube-apiserver's messages in a FailedCreate event's
// message: one, or each claim's of an aggregate.
func RefusalsOf(msg string) []string {
	for _, re := range refusalPrefixes {
		if re != claimPrefix {
			msg = re.ReplaceAllString(msg, "")
		}
	}
	if strings.HasPrefix(msg, "[failed to create PVC ") && strings.HasSuffix(msg, "]") {
		var out []string
		for _, part := range claimErrors.Split(strings.TrimSuffix(msg, "]"), -1) {
			if part != "" {
				out = append(out, part)
			}
		}
		return out
	}
	return []string{RefusalOf(msg)}
}

// RefusalOf is kube-apiserver's message in a FailedCreate event's message.
func RefusalOf(msg string) string {
	for _, re := range refusalPrefixes {
		msg = re.ReplaceAllString(msg, "")
	}
	return msg
}

var objectName = regexp.MustCompile(`^([A-Za-z.]+) "[^"]*" is `)

// NormalizeMessage replaces the name of the object a message is about (a
// controller's Pods have generated names) by "*".
func NormalizeMessage(msg string) string {
	return objectName.ReplaceAllString(msg, `$1 "*" is `)
}
