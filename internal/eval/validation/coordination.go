package validation

import (
	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Lease and ControllerRevision validation on create (VAL-111).

// PrepareLeaseForCreate is the Lease strategy's PrepareForCreate with the
// CoordinatedLeaderElection gate off, as in 1.36 by default: the strategy
// and the preferred holder are dropped.
func PrepareLeaseForCreate(l *coordinationv1.Lease) {
	l.Spec.Strategy, l.Spec.PreferredHolder = nil, nil
}

// Lease is ValidateLease on a prepared Lease: the metadata by
// apimachinery's rules (MetaRulesFor), a leaseDurationSeconds above 0 and
// leaseTransitions not negative, when given. (The strategy checks have
// nothing left to check with the gate off.)
func Lease(l *coordinationv1.Lease) field.ErrorList {
	errs := ObjectMeta(&l.ObjectMeta, MetaRulesFor(schema.GroupKind{Group: coordinationv1.GroupName, Kind: "Lease"}), field.NewPath("metadata"))
	sp := field.NewPath("spec")
	if d := l.Spec.LeaseDurationSeconds; d != nil && *d <= 0 {
		errs = append(errs, field.Invalid(sp.Child("leaseDurationSeconds"), d, "must be greater than 0"))
	}
	if t := l.Spec.LeaseTransitions; t != nil && *t < 0 {
		errs = append(errs, field.Invalid(sp.Child("leaseTransitions"), t, "must be greater than or equal to 0"))
	}
	return errs
}

// ControllerRevision is ValidateControllerRevisionCreate: core's metadata
// rules, a revision not negative, and data that is a JSON object (not
// missing, not null, not another JSON value).
func ControllerRevision(r *appsv1.ControllerRevision) field.ErrorList {
	errs := ObjectMeta(&r.ObjectMeta, core, field.NewPath("metadata"))
	errs = append(errs, apivalidation.ValidateNonnegativeField(r.Revision, field.NewPath("revision"))...)
	dp := field.NewPath("data")
	switch raw := r.Data.Raw; {
	case raw == nil:
		errs = append(errs, field.Required(dp, "data is mandatory"))
	case jsonKind(raw) == 'n':
		errs = append(errs, field.Required(dp, "data is mandatory"))
	case jsonKind(raw) != '{':
		errs = append(errs, field.Required(dp, "data must be a valid JSON object"))
	}
	return errs
}

// jsonKind is the first byte of a JSON value after white space: '{', '[',
// '"', 'n' (null), 't', 'f', or a digit or '-'.
func jsonKind(raw []byte) byte {
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c
	}
	return 0
}
