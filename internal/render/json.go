package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
)

// jsonFormat writes the whole report as one indented JSON document. The field
// order of jsonReport and jsonResult is the documented schema
// (testdata/report.schema.json); do not reorder.
type jsonFormat struct{}

func (jsonFormat) Description() string { return "one JSON document with every object, for CI" }

// JSONSchemaVersion is the document's schemaVersion. It changes only when a
// field is removed, renamed or changes meaning or type; new fields do not
// change it.
const JSONSchemaVersion = 1

type jsonReport struct {
	SchemaVersion int          `json:"schemaVersion"`
	Version       string       `json:"version"`
	Summary       jsonSummary  `json:"summary"`
	Results       []jsonResult `json:"results"`
	Notes         []jsonNote   `json:"notes"`
	Quotas        []jsonQuota  `json:"quotas"`
}

// jsonSummary is check.Summary: the counts the text report's summary prints.
type jsonSummary struct {
	Objects   int `json:"objects"`
	Admitted  int `json:"admitted"`
	Denied    int `json:"denied"`
	Skipped   int `json:"skipped"`
	Errors    int `json:"errors"`
	Internal  int `json:"internal"`
	Workloads int `json:"workloads"`
	Replicas  int `json:"replicas"`
	Unfit     int `json:"unfit"`
}

// jsonNote is a note about the run (a path skipped or read once, a hint);
// file is "" and line 0 when it concerns no file.
type jsonNote struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// jsonQuota is an admitted quota's final state.
type jsonQuota struct {
	Namespace string            `json:"namespace"`
	Name      string            `json:"name"`
	Hard      map[string]string `json:"hard"`
	Used      map[string]string `json:"used"`
}

type jsonResult struct {
	File       string `json:"file"`
	Line       int    `json:"line"`
	Index      int    `json:"index"`
	Source     string `json:"source"`
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
	// GenerateName is set only for an object refused before its name was
	// generated, whose name is "" (eval.Result.UnnamedPrefix).
	GenerateName string `json:"generateName,omitempty"`
	// Allowed is null for a skipped object: kube-apiserver never saw it.
	Allowed    *bool  `json:"allowed"`
	Skipped    bool   `json:"skipped"`
	SkipReason string `json:"skipReason"`
	Error      string `json:"error"`
	// Live marks a policy read from a live cluster (--from-cluster, CL-01);
	// left out for the input's documents.
	Live bool `json:"live,omitempty"`
	jsonStatus
	// *jsonPod is nil for every kind but Pod, which leaves its keys out.
	*jsonPod
	// *jsonWorkload is nil unless controllers were simulated for the object.
	*jsonWorkload
}

// jsonWorkload is what the controllers created for a workload.
type jsonWorkload struct {
	Replicas   int           `json:"replicas"`
	Admitted   int           `json:"admitted"`
	Adopted    int           `json:"adopted"`
	NotCreated int           `json:"notCreated"`
	Created    []jsonCreated `json:"created"`
}

// jsonCreated is one object a controller created, in creation order; pod is
// the Pod it was created for (its own name for a Pod, the Pod of a StatefulSet
// claim, "" for a ReplicaSet or Job).
type jsonCreated struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
	// GenerateName: as jsonResult's.
	GenerateName string `json:"generateName,omitempty"`
	Pod          string `json:"pod"`
	Allowed      bool   `json:"allowed"`
	// Count, when set, says this entry stands for Count objects: its own and
	// those of the Count-1 replicas after it, created exactly like it but for
	// their names (WL-03; the list folds runs after eval.CreatedListLimit entries).
	Count int `json:"count,omitempty"`
	jsonStatus
	*jsonPod
}

// jsonStatus is how an object was refused (all empty when admitted) and the
// warnings about it.
type jsonStatus struct {
	Code         int32    `json:"code"`
	Reason       string   `json:"reason"`
	Stage        string   `json:"stage"`
	Message      string   `json:"message"`
	MessageParts []string `json:"messageParts"`
	Warnings     []string `json:"warnings"`
}

// newJSONStatus flattens a result's denial and warnings; lists are never nil.
func newJSONStatus(res *eval.Result) jsonStatus {
	st := jsonStatus{MessageParts: []string{}, Warnings: append([]string{}, res.Warnings...)}
	if d := res.Denial; d != nil {
		st.Code, st.Reason, st.Stage, st.Message = d.Code, string(d.Reason), string(d.Stage), d.Message
		if d.Parts != nil {
			st.MessageParts = d.Parts
		}
	}
	return st
}

type jsonPod struct {
	Containers   []jsonContainer   `json:"containers"`
	PodResources *jsonResources    `json:"podResources"`
	Annotations  map[string]string `json:"annotations"`
}

type jsonContainer struct {
	Name    string `json:"name"`
	Init    bool   `json:"init"`
	Sidecar bool   `json:"sidecar"`
	jsonResources
}

type jsonResources struct {
	Requests jsonQuantities `json:"requests"`
	Limits   jsonQuantities `json:"limits"`
}

// jsonQuantities is a ResourceList as the report gives it: an object of
// canonical quantity strings, names sorted; nil is null. A slice, not a
// map: one allocation for a container's list.
type jsonQuantities []jsonQuantity

type jsonQuantity struct{ name, value string }

// MarshalJSON writes the object encoding/json would write for the map.
func (l jsonQuantities) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("null"), nil
	}
	m := make(map[string]string, len(l))
	for _, q := range l {
		m[q.name] = q.value
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as the report's encoder
	err := enc.Encode(m)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

// Status of a document the loader could not read: what kube-apiserver answers to
// a body it cannot decode.
const (
	loadErrorCode   = 400
	loadErrorReason = "BadRequest"
	// internalErrorCode marks an object limitcheck failed on (Result.Internal).
	internalErrorCode = 500
)

func (f jsonFormat) Render(w io.Writer, r *check.Report, o Options) error {
	return f.Stream(w, o).Finish(r)
}

// newJSONReport is the JSON document of a report; its Results only with
// results (Render streams them).
func newJSONReport(r *check.Report, o Options, results bool) jsonReport {
	sum := r.Summary()
	doc := jsonReport{
		SchemaVersion: JSONSchemaVersion,
		Version:       o.Version,
		Summary: jsonSummary{Objects: sum.Objects, Admitted: sum.Admitted, Denied: sum.Denied, Skipped: sum.Skipped, Errors: sum.Errors,
			Internal: sum.Internal, Workloads: sum.Workloads, Replicas: sum.Replicas, Unfit: sum.Unfit},
		Results: []jsonResult{}, Notes: make([]jsonNote, 0, len(r.Notes)), Quotas: make([]jsonQuota, 0, len(r.Quotas))}
	for _, n := range r.Notes {
		doc.Notes = append(doc.Notes, jsonNote{File: n.File, Line: n.Line, Message: n.Msg})
	}
	for _, qs := range r.Quotas {
		q := qs.Quota
		doc.Quotas = append(doc.Quotas, jsonQuota{Namespace: q.Namespace, Name: q.Name, Hard: quantities(q.Status.Hard), Used: quantities(q.Status.Used)})
	}
	for i := range r.Entries {
		if results {
			doc.Results = append(doc.Results, newJSONResult(&r.Entries[i]))
		}
	}
	return doc
}

// indenter writes JSON as json.Encoder with SetIndent("", "  ") and without
// HTML escaping writes it, one piece at a time.
type indenter struct {
	w   *bufio.Writer
	buf bytes.Buffer
	err error
}

func newIndenter(w io.Writer) *indenter { return &indenter{w: bufio.NewWriterSize(w, 64<<10)} }

func (e *indenter) raw(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

// rawBytes writes b as it is.
func (e *indenter) rawBytes(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

// copy writes what sp holds from off to end.
func (e *indenter) copy(sp *spool, off, end int64) {
	if e.err == nil && off < end {
		e.err = sp.writeRange(e.w, off, end)
	}
}

// value writes v, its lines after the first starting with prefix.
func (e *indenter) value(v any, prefix string) {
	if e.err != nil {
		return
	}
	var b []byte
	if b, e.err = e.encode(v, prefix); e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

// encode returns v encoded as value writes it; the bytes are valid until
// the next call.
func (e *indenter) encode(v any, prefix string) ([]byte, error) {
	e.buf.Reset()
	enc := json.NewEncoder(&e.buf)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false) // keep "<stdin>" and "->" readable
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")), nil
}

// field writes one top-level member followed by a comma.
func (e *indenter) field(name string, v any) {
	e.raw(`  "` + name + `": `)
	e.value(v, "  ")
	e.raw(",\n")
}

func (e *indenter) flush() error {
	if e.err != nil {
		return e.err
	}
	return e.w.Flush()
}

func newJSONResult(e *check.Entry) jsonResult {
	res := &e.Result
	j := jsonResult{
		File:         e.Pos.File,
		Line:         e.Pos.Line,
		Index:        e.Pos.Index,
		Source:       e.Pos.Source,
		APIVersion:   res.APIVersion,
		Kind:         res.Kind,
		Namespace:    res.Namespace,
		Name:         res.Name,
		GenerateName: res.UnnamedPrefix(),
		Skipped:      res.Skipped,
		SkipReason:   res.SkipReason,
		Live:         e.Live,
		jsonStatus:   newJSONStatus(res),
	}
	if !res.Skipped || e.Err != nil {
		j.Allowed = boolPtr(res.Allowed && e.Err == nil)
	}
	if e.Err != nil {
		j.Error = e.Err.Error()
		j.jsonStatus = jsonStatus{Code: loadErrorCode, Reason: loadErrorReason, MessageParts: []string{}, Warnings: j.jsonStatus.Warnings}
		return j
	}
	if res.Internal != "" {
		j.Error = "internal error: " + res.Internal
		j.Code = internalErrorCode
		return j
	}
	if pod, ok := res.Object.(*corev1.Pod); ok {
		j.jsonPod = newJSONPod(pod)
	}
	if wl := res.Workload; wl != nil {
		j.jsonWorkload = &jsonWorkload{Replicas: wl.Replicas, Admitted: wl.Admitted, Adopted: wl.Adopted, NotCreated: wl.NotCreated, Created: make([]jsonCreated, 0, len(wl.Created))}
		for i := range wl.Created {
			j.Created = append(j.Created, newJSONCreated(&wl.Created[i]))
		}
		if res.Denial == nil {
			j.denyAsCreated(wl)
		}
	}
	return j
}

// denyAsCreated gives a workload that was admitted itself but whose created
// objects were refused the code, reason, stage, message and messageParts of the
// first refused created object, so the top level says why it was denied. Its
// warnings stay its own; created[] is unchanged.
func (j *jsonResult) denyAsCreated(wl *eval.Workload) {
	for i := range wl.Created {
		if d := wl.Created[i].Denial; d != nil && !wl.Created[i].Allowed {
			st := newJSONStatus(&eval.Result{Denial: d})
			st.Warnings = j.Warnings
			j.jsonStatus = st
			return
		}
	}
}

func newJSONCreated(res *eval.Result) jsonCreated {
	c := jsonCreated{
		APIVersion:   res.APIVersion,
		Kind:         res.Kind,
		Namespace:    res.Namespace,
		Name:         res.Name,
		GenerateName: res.UnnamedPrefix(),
		Pod:          res.Pod,
		Allowed:      res.Allowed,
		jsonStatus:   newJSONStatus(res),
	}
	if res.Repeat > 0 {
		c.Count = 1 + res.Repeat
	}
	if pod, ok := res.Object.(*corev1.Pod); ok {
		c.jsonPod = newJSONPod(pod)
	}
	return c
}

// boolPtr points at a shared true or false: results only read them.
func boolPtr(v bool) *bool {
	if v {
		return &trueValue
	}
	return &falseValue
}

var trueValue, falseValue = true, false

// newJSONPod is the pod's containers, resources and annotations; the
// annotations are the pod's own map, which the encoders only read ({} when
// the pod has none).
func newJSONPod(pod *corev1.Pod) *jsonPod {
	p := &jsonPod{
		Containers:  make([]jsonContainer, 0, len(pod.Spec.InitContainers)+len(pod.Spec.Containers)),
		Annotations: pod.Annotations,
	}
	if p.Annotations == nil {
		p.Annotations = map[string]string{}
	}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		sidecar := c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
		p.Containers = append(p.Containers, jsonContainer{Name: c.Name, Init: true, Sidecar: sidecar, jsonResources: newJSONResources(c.Resources.Requests, c.Resources.Limits)})
	}
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		p.Containers = append(p.Containers, jsonContainer{Name: c.Name, jsonResources: newJSONResources(c.Resources.Requests, c.Resources.Limits)})
	}
	if rr := pod.Spec.Resources; rr != nil {
		r := newJSONResources(rr.Requests, rr.Limits)
		p.PodResources = &r
	}
	return p
}

func newJSONResources(requests, limits corev1.ResourceList) jsonResources {
	return jsonResources{Requests: quantityList(requests), Limits: quantityList(limits)}
}

// quantities renders a ResourceList with canonical quantity strings; never nil, so
// an empty list is {} rather than null.
func quantities(l corev1.ResourceList) map[string]string {
	m := make(map[string]string, len(l))
	for k, q := range l {
		m[string(k)] = q.String()
	}
	return m
}

// quantityList is quantities as a jsonQuantities, for the lists of every Pod.
func quantityList(l corev1.ResourceList) jsonQuantities {
	out := make(jsonQuantities, 0, len(l))
	for k, q := range l {
		out = append(out, jsonQuantity{string(k), q.String()})
	}
	slices.SortFunc(out, func(a, b jsonQuantity) int { return strings.Compare(a.name, b.name) })
	return out
}
