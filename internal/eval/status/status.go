// Package status is how kube-apiserver refuses a request: the Denial (the
// metav1.Status it would return, the stage that refused it, its distinct reasons)
// and the constructors of the statuses the admission stages return.
package status

import (
	"errors"
	"slices"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Denial is how kube-apiserver would refuse a request: the metav1.Status it would
// return, the stage that refused it, and its distinct reasons, in the order the
// message lists them.
type Denial struct {
	Code    int32
	Reason  metav1.StatusReason
	Stage   Stage
	Message string
	Parts   []string

	// Quota and Resources name, for a ResourceQuota denial, the quota that
	// refused and its resources the object exceeds or fails to specify
	// (Resources alone for resources no quota covers); LimitRange names the
	// LimitRange of a LimitRanger denial. Empty for every other stage.
	Quota      string
	Resources  []string
	LimitRange string
}

// PartsInOrder reports whether the parts appear in the message in their
// order, as every denial's must (renderers list the parts after the message).
func (d *Denial) PartsInOrder() bool {
	rest := d.Message
	for _, p := range d.Parts {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return true
}

// Stage names the step of the pipeline that refused an object.
type Stage string

const (
	StageValidation  Stage = "validation"
	StageLimitRanger Stage = "limitranger"
	StageQuota       Stage = "quota"
	// StageStorage is the create in storage, after admission: a name taken,
	// a resourceVersion in the body.
	StageStorage Stage = "storage"
	// StagePriority and StageRuntimeClass are the Priority and RuntimeClass
	// admission plugins.
	StagePriority     Stage = "priority"
	StageRuntimeClass Stage = "runtimeclass"
	// StagePodSecurity is the PodSecurity admission plugin (PS-02).
	StagePodSecurity Stage = "podsecurity"
	// StageCertificateSubjectRestriction is the CertificateSubjectRestriction
	// admission plugin (VAL-110).
	StageCertificateSubjectRestriction Stage = "certificatesubjectrestriction"
	// StageServiceAccount is the ServiceAccount admission plugin (PL-11).
	StageServiceAccount Stage = "serviceaccount"
	// StageNamespaceLifecycle is the NamespaceLifecycle admission plugin,
	// the first to run (NS-02).
	StageNamespaceLifecycle Stage = "namespacelifecycle"
	// StageDecoding is the decoding of the request's body, before
	// admission: a custom resource's fields its schema does not know, under
	// strict field validation (VAL-76).
	StageDecoding Stage = "decoding"
)

// NamespaceNotFound is the 404 of a create into a namespace that does not
// exist: `namespaces "<name>" not found` (NS-02).
func NamespaceNotFound(namespace string) *Denial {
	st := apierrors.NewNotFound(schema.GroupResource{Resource: "namespaces"}, namespace).Status()
	return &Denial{Code: st.Code, Reason: st.Reason, Stage: StageNamespaceLifecycle, Message: st.Message, Parts: []string{st.Message}}
}

// AlreadyExists is storage's 409 for a name taken: `<resource> "<name>" already
// exists` (ST-01).
func AlreadyExists(gr schema.GroupResource, name string) *Denial {
	st := apierrors.NewAlreadyExists(gr, name).Status()
	return &Denial{Code: st.Code, Reason: st.Reason, Stage: StageStorage, Message: st.Message, Parts: []string{st.Message}}
}

// BadRequest is the 400 of a body kube-apiserver cannot decode: the message
// unchanged.
func BadRequest(stage Stage, msg string) *Denial {
	st := apierrors.NewBadRequest(msg).Status()
	return &Denial{Code: st.Code, Reason: st.Reason, Stage: stage, Message: st.Message, Parts: []string{st.Message}}
}

// Invalid builds the 422 of a failed object validation:
// `<Kind>[.<group>] "<name>" is invalid: <aggregate>` (PL-08).
func Invalid(gk schema.GroupKind, name string, errs field.ErrorList) *Denial {
	st := apierrors.NewInvalid(gk, name, errs).Status()
	parts := make([]string, 0, len(errs))
	for _, e := range errs {
		parts = append(parts, e.Error())
	}
	return &Denial{Code: st.Code, Reason: st.Reason, Stage: StageValidation, Message: st.Message, Parts: Distinct(parts)}
}

// Forbidden builds the 403 of an admission plugin, wrapping its errors as
// admission.NewForbidden does: `<resource> "<name>" is forbidden: <aggregate>`
// (PL-06, PL-07). An inner Forbidden status is not wrapped again.
func Forbidden(stage Stage, gr schema.GroupResource, name string, errs []error) *Denial {
	agg := utilerrors.NewAggregate(errs)
	var st metav1.Status
	var inner apierrors.APIStatus
	if len(errs) == 1 && errors.As(errs[0], &inner) && apierrors.IsForbidden(errs[0]) {
		st = inner.Status()
	} else {
		st = apierrors.NewForbidden(gr, name, agg).Status()
	}
	parts := make([]string, 0, len(errs))
	for _, e := range errs {
		parts = append(parts, e.Error())
	}
	return &Denial{Code: st.Code, Reason: st.Reason, Stage: stage, Message: st.Message, Parts: Distinct(parts)}
}

// InternalError is a plain error returned by an admission plugin: HTTP 500, no
// reason, the message unchanged (PL-09).
func InternalError(stage Stage, err error) *Denial {
	return &Denial{Code: 500, Stage: stage, Message: err.Error(), Parts: []string{err.Error()}}
}

// Distinct keeps the first of equal parts, in order, as the aggregated message
// does (utilerrors.Aggregate and field.ErrorList.ToAggregate drop repeats).
func Distinct(in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// DistinctSorted sorts in and drops repeats (in place).
func DistinctSorted(in []string) []string {
	sort.Strings(in)
	out := in[:0]
	for i, s := range in {
		if i == 0 || s != in[i-1] {
			out = append(out, s)
		}
	}
	return out
}
