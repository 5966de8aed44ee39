package validation

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// The length limits of an Event's fields (core validation's
// ReportingInstanceLengthLimit, ActionLengthLimit, ReasonLengthLimit and
// NoteLengthLimit).
const (
	eventFieldLimit   = 128
	eventMessageLimit = 1024
)

// LegacyEvent is the validation of a core v1 Event created through the v1
// API (VAL-06): its namespace against involvedObject.namespace, and for an
// Event with eventTime the fields a reporting controller fills. ns is the
// namespace the Event is created in.
func LegacyEvent(ev *corev1.Event, ns string) field.ErrorList {
	var errs field.ErrorList
	mismatch := func() {
		errs = append(errs, field.Invalid(field.NewPath("involvedObject", "namespace"), ev.InvolvedObject.Namespace, "does not match event.namespace"))
	}
	if ev.EventTime.Time.IsZero() {
		// The old form: an Event without namespace of its object lives in
		// namespace default (or none); otherwise the two agree.
		if ev.InvolvedObject.Namespace == "" {
			if ns != "" && ns != "default" {
				mismatch()
			}
		} else if ns != ev.InvolvedObject.Namespace {
			mismatch()
		}
	} else {
		if ev.InvolvedObject.Namespace == "" && ns != "default" && ns != "kube-system" {
			mismatch()
		}
		// Through the v1 API the reporting controller is reportingComponent.
		reporting := field.NewPath("reportingComponent")
		if ev.ReportingController == "" {
			errs = append(errs, field.Required(reporting, ""))
		}
		for _, msg := range namecheck.IsQualifiedName(ev.ReportingController) {
			errs = append(errs, field.Invalid(reporting, ev.ReportingController, msg))
		}
		for _, f := range []struct {
			name, value string
		}{{"reportingInstance", ev.ReportingInstance}, {"action", ev.Action}, {"reason", ev.Reason}} {
			if f.value == "" {
				errs = append(errs, field.Required(field.NewPath(f.name), ""))
			}
			if len(f.value) > eventFieldLimit {
				errs = append(errs, field.Invalid(field.NewPath(f.name), "", fmt.Sprintf("can have at most %v characters", eventFieldLimit)))
			}
		}
		if len(ev.Message) > eventMessageLimit {
			errs = append(errs, field.Invalid(field.NewPath("message"), "", fmt.Sprintf("can have at most %v characters", eventMessageLimit)))
		}
	}
	for _, msg := range namecheck.IsDNS1123Subdomain(ns) {
		errs = append(errs, field.Invalid(field.NewPath("namespace"), ns, msg))
	}
	return errs
}
