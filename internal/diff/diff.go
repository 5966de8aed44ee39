// Package diff compares the reports of two input sets, BASE and HEAD (a pull
// request's target and its change): which objects HEAD newly gets refused,
// which it fixes, which are refused in both and whether for another reason,
// and how quota usage and the replicas that fit move. Objects are matched by
// kind, namespace and name, so a moved file is not a change. It knows nothing
// of files or flags: it takes two check.Reports.
package diff

import (
	"maps"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/limitcheck/limitcheck/internal/check"
)

// Side is one object as one input set has it.
type Side struct {
	File   string
	Line   int
	Source string // Helm's # Source: template
	// Allowed is the verdict; Message is the refusal ("" when admitted), for
	// a workload `N of M replicas admitted; KIND NAME: MESSAGE` as check
	// prints it.
	Allowed bool
	Message string
	// Workload says whether the object is a workload whose controllers
	// were simulated; Admitted is then the replicas admitted.
	Workload bool
	Admitted int
}

// Change is one object in BASE and HEAD; Base is nil for an object HEAD
// adds, Head nil for one it removes.
type Change struct {
	Kind, Namespace, Name string
	Base, Head            *Side
}

// QuotaRow is one resource of one quota: usage after BASE and after HEAD
// ("" when the quota or resource is absent on that side), HEAD's hard.
type QuotaRow struct {
	Quota, Resource      string
	Before, After, Delta string
	Hard                 string
}

// Namespace groups the changes of one namespace.
type Namespace struct {
	Name string
	// NewlyDenied: refused in HEAD, admitted or absent in BASE.
	NewlyDenied []Change
	// NewlyAdmitted: refused in BASE, admitted in HEAD; Removed: refused in
	// BASE, absent from HEAD.
	NewlyAdmitted, Removed []Change
	// FewerAdmitted: a workload refused in both whose HEAD admits fewer of
	// its replicas than BASE (a regression as much as a new denial).
	FewerAdmitted []Change
	// ReasonChanged: refused in both, with another message; DeniedInBoth:
	// refused in both for the same reason.
	ReasonChanged, DeniedInBoth []Change
	Quotas                      []QuotaRow
	// Base and Head count the namespace's workload replicas.
	Base, Head Fit
}

// Fit is how many replicas the workloads want and how many are admitted.
type Fit struct{ Replicas, Admitted int }

// Diff is the comparison.
type Diff struct {
	Namespaces []Namespace
	Base, Head Fit
	// Counts over all namespaces.
	NewlyDenied, NewlyAdmitted, Removed, FewerAdmitted, ReasonChanged, DeniedInBoth int
	// HeadDenied counts every object refused in HEAD.
	HeadDenied int
}

type key struct{ kind, namespace, name string }

// denied: evaluated and refused (not skipped, not unreadable).
func denied(e *check.Entry) bool {
	return e.Err == nil && !e.Result.Skipped && e.Result.Internal == "" && !e.Result.Allowed && e.Result.Kind != ""
}

// message is the refusal as check prints it: the object's own denial, or
// for a workload the replicas admitted and the first created object refused.
func message(e *check.Entry) string {
	res := &e.Result
	if res.Allowed {
		return ""
	}
	if res.Denial != nil {
		return res.Denial.Message
	}
	if w := res.Workload; w != nil {
		msg := strconv.Itoa(w.Admitted) + " of " + strconv.Itoa(w.Replicas) + " replicas admitted"
		if w.Replicas == 1 {
			msg = strconv.Itoa(w.Admitted) + " of 1 replica admitted"
		}
		for i := range w.Created {
			if c := &w.Created[i]; !c.Allowed && c.Denial != nil {
				return msg + "; " + c.Kind + " " + c.Name + ": " + c.Denial.Message
			}
		}
		return msg
	}
	return "denied"
}

func side(e *check.Entry) *Side {
	s := &Side{File: e.Pos.File, Line: e.Pos.Line, Source: e.Pos.Source, Allowed: e.Result.Allowed, Message: message(e)}
	if w := e.Result.Workload; w != nil {
		s.Workload, s.Admitted = true, w.Admitted
	}
	return s
}

// index: the evaluated objects of a report by key, in input order; a second
// object with the same key (refused by storage's 409) keeps the first.
func index(r *check.Report) (map[key]*check.Entry, []key) {
	m := map[key]*check.Entry{}
	var order []key
	for i := range r.Entries {
		e := &r.Entries[i]
		if e.Err != nil || e.Result.Skipped || e.Result.Kind == "" {
			continue
		}
		k := key{e.Result.Kind, e.Result.Namespace, e.Result.Name}
		if _, ok := m[k]; !ok {
			m[k] = e
			order = append(order, k)
		}
	}
	return m, order
}

// Compare compares the reports of BASE and HEAD.
func Compare(base, head *check.Report) *Diff {
	d := &Diff{}
	bm, border := index(base)
	hm, horder := index(head)
	nsIndex := map[string]int{}
	ns := func(name string) *Namespace {
		i, ok := nsIndex[name]
		if !ok {
			i = len(d.Namespaces)
			nsIndex[name] = i
			d.Namespaces = append(d.Namespaces, Namespace{Name: name})
		}
		return &d.Namespaces[i]
	}
	for _, k := range horder {
		h := hm[k]
		b := bm[k]
		c := Change{Kind: k.kind, Namespace: k.namespace, Name: k.name, Head: side(h)}
		if b != nil {
			c.Base = side(b)
		}
		n := ns(k.namespace)
		switch {
		case denied(h) && (b == nil || !denied(b)):
			n.NewlyDenied = append(n.NewlyDenied, c)
			d.NewlyDenied++
		case denied(h) && c.Base.Workload && c.Head.Workload && c.Head.Admitted < c.Base.Admitted:
			n.FewerAdmitted = append(n.FewerAdmitted, c)
			d.FewerAdmitted++
		case denied(h) && c.Base.Message != c.Head.Message:
			n.ReasonChanged = append(n.ReasonChanged, c)
			d.ReasonChanged++
		case denied(h):
			n.DeniedInBoth = append(n.DeniedInBoth, c)
			d.DeniedInBoth++
		case h.Result.Allowed && b != nil && denied(b):
			n.NewlyAdmitted = append(n.NewlyAdmitted, c)
			d.NewlyAdmitted++
		}
		if denied(h) {
			d.HeadDenied++
		}
	}
	for _, k := range border {
		if b := bm[k]; hm[k] == nil && denied(b) {
			n := ns(k.namespace)
			n.Removed = append(n.Removed, Change{Kind: k.kind, Namespace: k.namespace, Name: k.name, Base: side(b)})
			d.Removed++
		}
	}
	quotaRows(d, base, head, ns)
	for _, r := range []struct {
		rep *check.Report
		fit func(*Namespace) *Fit
	}{{base, func(n *Namespace) *Fit { return &n.Base }}, {head, func(n *Namespace) *Fit { return &n.Head }}} {
		for i := range r.rep.Entries {
			e := &r.rep.Entries[i]
			if w := e.Result.Workload; w != nil && e.Err == nil {
				f := r.fit(ns(e.Result.Namespace))
				f.Replicas += w.Replicas
				f.Admitted += w.Admitted
			}
		}
	}
	// Namespaces with nothing to say are left out.
	d.Namespaces = slices.DeleteFunc(d.Namespaces, func(n Namespace) bool {
		return len(n.NewlyDenied)+len(n.NewlyAdmitted)+len(n.Removed)+len(n.FewerAdmitted)+len(n.ReasonChanged)+len(n.DeniedInBoth)+len(n.Quotas)+n.Base.Replicas+n.Head.Replicas == 0
	})
	bs, hs := base.Summary(), head.Summary()
	d.Base = Fit{Replicas: bs.Replicas, Admitted: bs.Replicas - bs.Unfit}
	d.Head = Fit{Replicas: hs.Replicas, Admitted: hs.Replicas - hs.Unfit}
	return d
}

// quotaRows: every resource of every quota of either side, HEAD's quotas
// first (in their order), then those only BASE has.
func quotaRows(d *Diff, base, head *check.Report, ns func(string) *Namespace) {
	type qkey struct{ namespace, name string }
	find := func(r *check.Report, k qkey) *corev1.ResourceQuota {
		for _, s := range r.Quotas {
			if s.Quota.Namespace == k.namespace && s.Quota.Name == k.name {
				return s.Quota
			}
		}
		return nil
	}
	var keys []qkey
	for _, r := range []*check.Report{head, base} {
		for _, s := range r.Quotas {
			if k := (qkey{s.Quota.Namespace, s.Quota.Name}); !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	for _, k := range keys {
		b, h := find(base, k), find(head, k)
		names := map[corev1.ResourceName]bool{}
		for _, q := range []*corev1.ResourceQuota{b, h} {
			if q != nil {
				for n := range q.Status.Hard {
					names[n] = true
				}
			}
		}
		n := ns(k.namespace)
		for _, name := range slices.Sorted(maps.Keys(names)) {
			row := QuotaRow{Quota: k.name, Resource: string(name)}
			var before, after *resource.Quantity
			if b != nil {
				if u, ok := b.Status.Used[name]; ok {
					before = &u
					row.Before = u.String()
				}
			}
			if h != nil {
				if u, ok := h.Status.Used[name]; ok {
					after = &u
					row.After = u.String()
				}
				if hard, ok := h.Status.Hard[name]; ok {
					row.Hard = hard.String()
				}
			}
			row.Delta = delta(before, after)
			n.Quotas = append(n.Quotas, row)
		}
	}
}

// delta is after - before, signed ("+500m", "-1", "0"); "" when either is unknown.
func delta(before, after *resource.Quantity) string {
	if before == nil || after == nil {
		return ""
	}
	d := after.DeepCopy()
	d.Sub(*before)
	switch d.Sign() {
	case 0:
		return "0"
	case 1:
		return "+" + d.String()
	}
	return d.String()
}
