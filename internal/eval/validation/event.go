package validation

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
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
	return legacyEvent(ev, ns, "reportingComponent")
}

// legacyEvent is legacyValidateEvent; reporting names the reporting
// controller's field in the request's version.
func legacyEvent(ev *corev1.Event, ns, reporting string) field.ErrorList {
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
		rp := field.NewPath(reporting)
		if ev.ReportingController == "" {
			errs = append(errs, field.Required(rp, ""))
		}
		for _, msg := range namecheck.IsQualifiedName(ev.ReportingController) {
			errs = append(errs, field.Invalid(rp, ev.ReportingController, msg))
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

// EventsV1ToCore is the conversion of an events.k8s.io/v1 Event to the
// internal Event its validation reads (a core v1 Event here): regarding is
// involvedObject, note the message, the deprecated fields the old ones.
func EventsV1ToCore(in *eventsv1.Event) *corev1.Event {
	out := &corev1.Event{
		ObjectMeta:          in.ObjectMeta,
		InvolvedObject:      in.Regarding,
		Reason:              in.Reason,
		Message:             in.Note,
		Source:              in.DeprecatedSource,
		FirstTimestamp:      in.DeprecatedFirstTimestamp,
		LastTimestamp:       in.DeprecatedLastTimestamp,
		Count:               in.DeprecatedCount,
		Type:                in.Type,
		EventTime:           in.EventTime,
		Action:              in.Action,
		Related:             in.Related,
		ReportingController: in.ReportingController,
		ReportingInstance:   in.ReportingInstance,
	}
	if s := in.Series; s != nil {
		out.Series = &corev1.EventSeries{Count: s.Count, LastObservedTime: s.LastObservedTime}
	}
	return out
}

// EventsV1 is ValidateEventCreate for an Event created through the
// events.k8s.io/v1 API, converted (EventsV1ToCore) and in namespace ns: the
// legacy checks with the reporting controller under its own name, then the
// strict ones: core's metadata rules, a series of two at least with its
// last observed time, an eventTime, a type Normal or Warning, and none of
// the fields of the old API. The paths are those of the internal Event
// (message, involvedObject, firstTimestamp), as kube-apiserver reports them.
func EventsV1(ev *corev1.Event, ns string) field.ErrorList {
	errs := legacyEvent(ev, ns, "reportingController")
	errs = append(errs, objectMeta(&ev.ObjectMeta, core, newLazyPath("metadata"))...)
	if s := ev.Series; s != nil {
		if s.Count < 2 {
			errs = append(errs, field.Invalid(field.NewPath("series.count"), "", "should be at least 2"))
		}
		if s.LastObservedTime.Time.IsZero() {
			errs = append(errs, field.Required(field.NewPath("series.lastObservedTime"), ""))
		}
	}
	if ev.EventTime.Time.IsZero() {
		errs = append(errs, field.Required(field.NewPath("eventTime"), ""))
	}
	if ev.Type != corev1.EventTypeNormal && ev.Type != corev1.EventTypeWarning {
		errs = append(errs, field.Invalid(field.NewPath("type"), "", fmt.Sprintf("has invalid value: %v", ev.Type)))
	}
	if !ev.FirstTimestamp.Time.IsZero() {
		errs = append(errs, field.Invalid(field.NewPath("firstTimestamp"), "", "needs to be unset"))
	}
	if !ev.LastTimestamp.Time.IsZero() {
		errs = append(errs, field.Invalid(field.NewPath("lastTimestamp"), "", "needs to be unset"))
	}
	if ev.Count != 0 {
		errs = append(errs, field.Invalid(field.NewPath("count"), "", "needs to be unset"))
	}
	if ev.Source.Component != "" || ev.Source.Host != "" {
		errs = append(errs, field.Invalid(field.NewPath("source"), "", "needs to be unset"))
	}
	return errs
}
