package validation

import (
	"math"
	"strconv"
	"strings"

	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Create validation of the API Priority and Fairness objects: FlowSchema
// (VAL-101) and PriorityLevelConfiguration (VAL-102), both cluster-scoped,
// named as DNS subdomains through core's ValidateObjectMeta, their
// generation set by PrepareForCreate and their status cleared (so never
// checked). The mandatory objects kube-apiserver keeps ("exempt" and
// "catch-all" of each kind) may only be created with their fixed spec
// (VAL-103).

var flowcontrolMeta = MetaRules{Name: NameDNSSubdomain, KubeFinalizers: true, ClusterScoped: true, SetsGeneration: true}

// maxMatchingPrecedence is the highest matchingPrecedence.
const maxMatchingPrecedence = 10000

// The values flowcontrol fields accept, sorted as NotSupported lists them.
var (
	flowDistinguisherMethods = []string{string(flowcontrolv1.FlowDistinguisherMethodByNamespaceType), string(flowcontrolv1.FlowDistinguisherMethodByUserType)}
	flowSubjectKinds         = []string{string(flowcontrolv1.SubjectKindGroup), string(flowcontrolv1.SubjectKindServiceAccount), string(flowcontrolv1.SubjectKindUser)}
	flowVerbs                = []string{"create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"}
	priorityLevelTypes       = []string{string(flowcontrolv1.PriorityLevelEnablementExempt), string(flowcontrolv1.PriorityLevelEnablementLimited)}
	limitResponseTypes       = []string{string(flowcontrolv1.LimitResponseTypeQueue), string(flowcontrolv1.LimitResponseTypeReject)}
)

// PrepareFlowSchemaForCreate is the strategy's PrepareForCreate: status
// cleared, generation 1.
func PrepareFlowSchemaForCreate(fs *flowcontrolv1.FlowSchema) {
	fs.Status = flowcontrolv1.FlowSchemaStatus{}
	fs.Generation = 1
}

// FlowSchema is ValidateFlowSchema on a defaulted, prepared FlowSchema: the
// metadata, the spec, then a mandatory schema's fixed spec.
func FlowSchema(fs *flowcontrolv1.FlowSchema) field.ErrorList {
	errs := ObjectMeta(&fs.ObjectMeta, flowcontrolMeta, field.NewPath("metadata"))
	sp := field.NewPath("spec")
	errs = append(errs, flowSchemaSpec(fs.Name, &fs.Spec, sp)...)
	if want, ok := mandatoryFlowSchemas[fs.Name]; ok && !equality.Semantic.DeepEqual(fs.Spec, want) {
		errs = append(errs, field.Invalid(sp, internalValue{fs.Spec}, "spec of '"+fs.Name+"' must equal the fixed value"))
	}
	return errs
}

// flowSchemaSpec: the matching precedence (1..10000, 1 only for "exempt"),
// the distinguisher method, the priority level's name, then each rule.
func flowSchemaSpec(name string, s *flowcontrolv1.FlowSchemaSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	mp := p.Child("matchingPrecedence")
	if s.MatchingPrecedence <= 0 {
		errs = append(errs, field.Invalid(mp, s.MatchingPrecedence, "must be a positive value"))
	}
	if s.MatchingPrecedence > maxMatchingPrecedence {
		errs = append(errs, field.Invalid(mp, s.MatchingPrecedence, "must not be greater than "+strconv.Itoa(maxMatchingPrecedence)))
	}
	if s.MatchingPrecedence == 1 && name != "exempt" {
		errs = append(errs, field.Invalid(mp, s.MatchingPrecedence, "only the schema named 'exempt' may have matchingPrecedence 1"))
	}
	if dm := s.DistinguisherMethod; dm != nil && !contains(flowDistinguisherMethods, string(dm.Type)) {
		// The whole method is the value shown, as the internal type.
		errs = append(errs, field.NotSupported(p.Child("distinguisherMethod", "type"), internalValue{*dm}, flowDistinguisherMethods))
	}
	np := p.Child("priorityLevelConfiguration", "name")
	if pl := s.PriorityLevelConfiguration.Name; pl == "" {
		errs = append(errs, field.Required(np, "must reference a priority level"))
	} else {
		for _, msg := range namecheck.NameIsDNSSubdomain(pl, false) {
			errs = append(errs, field.Invalid(np, pl, msg))
		}
	}
	for i := range s.Rules {
		errs = append(errs, flowSchemaRule(&s.Rules[i], p.Child("rules").Index(i))...)
	}
	return errs
}

// flowSchemaRule: subjects required and each valid; at least one resource
// or non-resource rule; then each of those.
func flowSchemaRule(r *flowcontrolv1.PolicyRulesWithSubjects, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(r.Subjects) == 0 {
		errs = append(errs, field.Required(p.Child("subjects"), "subjects must contain at least one value"))
	}
	for i := range r.Subjects {
		errs = append(errs, flowSubject(&r.Subjects[i], p.Child("subjects").Index(i))...)
	}
	if len(r.ResourceRules) == 0 && len(r.NonResourceRules) == 0 {
		errs = append(errs, field.Required(p, "at least one of resourceRules and nonResourceRules has to be non-empty"))
	}
	for i := range r.ResourceRules {
		errs = append(errs, resourcePolicyRule(&r.ResourceRules[i], p.Child("resourceRules").Index(i))...)
	}
	for i := range r.NonResourceRules {
		errs = append(errs, nonResourcePolicyRule(&r.NonResourceRules[i], p.Child("nonResourceRules").Index(i))...)
	}
	return errs
}

// flowSubject: the member its kind names is required and valid; the other
// two are forbidden.
func flowSubject(s *flowcontrolv1.Subject, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	notUser := func() {
		if s.User != nil {
			errs = append(errs, field.Forbidden(p.Child("user"), "user is forbidden when subject kind is not 'User'"))
		}
	}
	notGroup := func() {
		if s.Group != nil {
			errs = append(errs, field.Forbidden(p.Child("group"), "group is forbidden when subject kind is not 'Group'"))
		}
	}
	notSA := func() {
		if s.ServiceAccount != nil {
			errs = append(errs, field.Forbidden(p.Child("serviceAccount"), "serviceAccount is forbidden when subject kind is not 'ServiceAccount'"))
		}
	}
	switch s.Kind {
	case flowcontrolv1.SubjectKindServiceAccount:
		errs = append(errs, serviceAccountSubject(s.ServiceAccount, p.Child("serviceAccount"))...)
		notUser()
		notGroup()
	case flowcontrolv1.SubjectKindUser:
		if s.User == nil {
			errs = append(errs, field.Required(p.Child("user"), "user is required when subject kind is 'User'"))
		} else if s.User.Name == "" {
			errs = append(errs, field.Required(p.Child("user", "name"), ""))
		}
		notSA()
		notGroup()
	case flowcontrolv1.SubjectKindGroup:
		if s.Group == nil {
			errs = append(errs, field.Required(p.Child("group"), "group is required when subject kind is 'Group'"))
		} else if s.Group.Name == "" {
			errs = append(errs, field.Required(p.Child("group", "name"), ""))
		}
		notSA()
		notUser()
	default:
		errs = append(errs, field.NotSupported(p.Child("kind"), s.Kind, flowSubjectKinds))
	}
	return errs
}

// serviceAccountSubject: a name ("*" or a DNS subdomain) and a namespace
// (a DNS label), both required.
func serviceAccountSubject(sa *flowcontrolv1.ServiceAccountSubject, p *field.Path) field.ErrorList {
	if sa == nil {
		return field.ErrorList{field.Required(p, "serviceAccount is required when subject kind is 'ServiceAccount'")}
	}
	var errs field.ErrorList
	switch sa.Name {
	case "":
		errs = append(errs, field.Required(p.Child("name"), ""))
	case "*":
	default:
		for _, msg := range namecheck.NameIsDNSSubdomain(sa.Name, false) {
			errs = append(errs, field.Invalid(p.Child("name"), sa.Name, msg))
		}
	}
	if sa.Namespace == "" {
		errs = append(errs, field.Required(p.Child("namespace"), "must specify namespace for service account"))
	} else {
		for _, msg := range namecheck.NameIsDNSLabel(sa.Namespace, false) {
			errs = append(errs, field.Invalid(p.Child("namespace"), sa.Namespace, msg))
		}
	}
	return errs
}

// flowVerbsErrs: verbs required; "*" alone, or only the supported verbs.
func flowVerbsErrs(verbs []string, p *field.Path) field.ErrorList {
	switch {
	case len(verbs) == 0:
		return field.ErrorList{field.Required(p, "verbs must contain at least one value")}
	case containsWildcard(verbs):
		if len(verbs) > 1 {
			return field.ErrorList{field.Invalid(p, verbs, "if '*' is present, must not specify other verbs")}
		}
	default:
		for _, v := range verbs {
			if !contains(flowVerbs, v) {
				return field.ErrorList{field.NotSupported(p, verbs, flowVerbs)}
			}
		}
	}
	return nil
}

// msgNamespaceMember introduces the DNS-label message of a resource rule's
// namespace.
const msgNamespaceMember = "each member of this list must be '*' or a DNS-1123 label; "

// resourcePolicyRule: verbs, API groups and resources required ("*" alone
// when present), namespaces required unless clusterScope ("*" alone, or
// DNS labels).
func resourcePolicyRule(r *flowcontrolv1.ResourcePolicyRule, p *field.Path) field.ErrorList {
	errs := flowVerbsErrs(r.Verbs, p.Child("verbs"))
	if len(r.APIGroups) == 0 {
		errs = append(errs, field.Required(p.Child("apiGroups"), "resource rules must supply at least one api group"))
	} else if len(r.APIGroups) > 1 && containsWildcard(r.APIGroups) {
		errs = append(errs, field.Invalid(p.Child("apiGroups"), r.APIGroups, "if '*' is present, must not specify other api groups"))
	}
	if len(r.Resources) == 0 {
		errs = append(errs, field.Required(p.Child("resources"), "resource rules must supply at least one resource"))
	} else if len(r.Resources) > 1 && containsWildcard(r.Resources) {
		errs = append(errs, field.Invalid(p.Child("resources"), r.Resources, "if '*' is present, must not specify other resources"))
	}
	nsp := p.Child("namespaces")
	switch {
	case len(r.Namespaces) == 0 && !r.ClusterScope:
		errs = append(errs, field.Required(nsp, "resource rules that are not cluster scoped must supply at least one namespace"))
	case containsWildcard(r.Namespaces):
		if len(r.Namespaces) > 1 {
			errs = append(errs, field.Invalid(nsp, r.Namespaces, "if '*' is present, must not specify other namespaces"))
		}
	default:
		for i, ns := range r.Namespaces {
			for _, msg := range namecheck.NameIsDNSLabel(ns, false) {
				errs = append(errs, field.Invalid(nsp.Index(i), ns, msgNamespaceMember+msg))
			}
		}
	}
	return errs
}

// nonResourcePolicyRule: verbs as a resource rule's; URLs required, "*"
// alone or each a valid path.
func nonResourcePolicyRule(r *flowcontrolv1.NonResourcePolicyRule, p *field.Path) field.ErrorList {
	errs := flowVerbsErrs(r.Verbs, p.Child("verbs"))
	up := p.Child("nonResourceURLs")
	switch {
	case len(r.NonResourceURLs) == 0:
		errs = append(errs, field.Required(up, "nonResourceURLs must contain at least one value"))
	case containsWildcard(r.NonResourceURLs):
		if len(r.NonResourceURLs) > 1 {
			errs = append(errs, field.Invalid(up, r.NonResourceURLs, "if '*' is present, must not specify other non-resource URLs"))
		}
	default:
		for i, u := range r.NonResourceURLs {
			if why := nonResourceURLProblem(u); why != "" {
				errs = append(errs, field.Invalid(up.Index(i), u, why))
			}
		}
	}
	return errs
}

// nonResourceURLProblem is ValidateNonResourceURLPath's first complaint
// about u, "" for a valid path: not empty, "/" or starting with a slash,
// no space, no double slash, at most one "*" and only as a final "/*".
func nonResourceURLProblem(u string) string {
	switch {
	case u == "":
		return "must not be empty"
	case u == "/":
		return ""
	case !strings.HasPrefix(u, "/"):
		return "must start with slash"
	case strings.Contains(u, " "):
		return "must not contain white-space"
	case strings.Contains(u, "//"):
		return "must not contain double slash"
	}
	if n := strings.Count(u, "*"); n > 1 || n == 1 && !strings.HasSuffix(u, "/*") {
		return "wildcard can only do suffix matching"
	}
	return ""
}

// preserveZeroSharesAnnotation is v1beta3's round-trip annotation, which no
// stored PriorityLevelConfiguration may carry.
const preserveZeroSharesAnnotation = "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares"

// PreparePriorityLevelConfigurationForCreate is the strategy's
// PrepareForCreate: status cleared, generation 1.
func PreparePriorityLevelConfigurationForCreate(pl *flowcontrolv1.PriorityLevelConfiguration) {
	pl.Status = flowcontrolv1.PriorityLevelConfigurationStatus{}
	pl.Generation = 1
}

// PriorityLevelConfiguration is ValidatePriorityLevelConfiguration for a v1
// request on a defaulted, prepared object: the metadata, the round-trip
// annotation, the spec, then a mandatory level's fixed spec (for "exempt",
// all but spec.exempt).
func PriorityLevelConfiguration(pl *flowcontrolv1.PriorityLevelConfiguration) field.ErrorList {
	mp := field.NewPath("metadata")
	errs := ObjectMeta(&pl.ObjectMeta, flowcontrolMeta, mp)
	if _, ok := pl.Annotations[preserveZeroSharesAnnotation]; ok {
		errs = append(errs, field.Forbidden(mp.Child("annotations"), "annotation '"+preserveZeroSharesAnnotation+"' is forbidden"))
	}
	sp := field.NewPath("spec")
	errs = append(errs, priorityLevelSpec(pl.Name, &pl.Spec, sp)...)
	if want, ok := mandatoryPriorityLevels[pl.Name]; ok {
		have := pl.Spec
		detail := "spec of '" + pl.Name + "' must equal the fixed value"
		if pl.Name == "exempt" {
			have.Exempt = want.Exempt
			detail = "spec of '" + pl.Name + "' except the 'spec.exempt' field must equal the fixed value"
		}
		if !equality.Semantic.DeepEqual(have, want) {
			errs = append(errs, field.Invalid(sp, internalValue{pl.Spec}, detail))
		}
	}
	return errs
}

// priorityLevelSpec: type Exempt exactly for the level named "exempt"; an
// exempt level without limited, a limited one without exempt and with a
// valid limited part.
func priorityLevelSpec(name string, s *flowcontrolv1.PriorityLevelConfigurationSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	tp := p.Child("type")
	if (name == "exempt") != (s.Type == flowcontrolv1.PriorityLevelEnablementExempt) {
		errs = append(errs, field.Invalid(tp, s.Type, "must be 'Exempt' if and only if `name` is 'exempt'"))
	}
	switch s.Type {
	case flowcontrolv1.PriorityLevelEnablementExempt:
		if s.Limited != nil {
			errs = append(errs, field.Forbidden(p.Child("limited"), "must be nil if the type is not Limited"))
		}
		if e := s.Exempt; e != nil {
			ep := p.Child("exempt")
			if e.NominalConcurrencyShares != nil && *e.NominalConcurrencyShares < 0 {
				errs = append(errs, field.Invalid(ep.Child("nominalConcurrencyShares"), *e.NominalConcurrencyShares, "must be a non-negative integer"))
			}
			errs = append(errs, lendablePercent(e.LendablePercent, ep.Child("lendablePercent"))...)
		}
	case flowcontrolv1.PriorityLevelEnablementLimited:
		if s.Exempt != nil {
			errs = append(errs, field.Forbidden(p.Child("exempt"), "must be nil if the type is Limited"))
		}
		if s.Limited == nil {
			errs = append(errs, field.Required(p.Child("limited"), "must not be empty when type is Limited"))
		} else {
			errs = append(errs, limitedPriorityLevel(s.Limited, p.Child("limited"))...)
		}
	case "":
		errs = append(errs, field.Required(tp, ""))
	default:
		errs = append(errs, field.NotSupported(tp, s.Type, priorityLevelTypes))
	}
	return errs
}

// limitedPriorityLevel: shares not negative, the limit response, a
// lendable percentage from 0 to 100, a borrowing limit not negative.
func limitedPriorityLevel(l *flowcontrolv1.LimitedPriorityLevelConfiguration, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	// The internal type's shares are an int32: an absent value (never
	// after defaulting) converts to 0.
	if shares := ptr.Deref(l.NominalConcurrencyShares, 0); shares < 0 {
		errs = append(errs, field.Invalid(p.Child("nominalConcurrencyShares"), shares, "must be a non-negative integer"))
	}
	errs = append(errs, limitResponse(&l.LimitResponse, p.Child("limitResponse"))...)
	errs = append(errs, lendablePercent(l.LendablePercent, p.Child("lendablePercent"))...)
	if b := l.BorrowingLimitPercent; b != nil && *b < 0 {
		errs = append(errs, field.Invalid(p.Child("borrowingLimitPercent"), *b, "if specified, must be a non-negative integer"))
	}
	return errs
}

func lendablePercent(v *int32, p *field.Path) field.ErrorList {
	if v != nil && (*v < 0 || *v > 100) {
		return field.ErrorList{field.Invalid(p, *v, "must be between 0 and 100, inclusive")}
	}
	return nil
}

// limitResponse: Reject without queuing, Queue with valid queuing.
func limitResponse(r *flowcontrolv1.LimitResponse, p *field.Path) field.ErrorList {
	switch r.Type {
	case flowcontrolv1.LimitResponseTypeReject:
		if r.Queuing != nil {
			return field.ErrorList{field.Forbidden(p.Child("queuing"), "must be nil if limited.limitResponse.type is not Limited")}
		}
	case flowcontrolv1.LimitResponseTypeQueue:
		if r.Queuing == nil {
			return field.ErrorList{field.Required(p.Child("queuing"), "must not be empty if limited.limitResponse.type is Limited")}
		}
		return queuing(r.Queuing, p.Child("queuing"))
	case "":
		return field.ErrorList{field.Required(p.Child("type"), "")}
	default:
		return field.ErrorList{field.NotSupported(p.Child("type"), r.Type, limitResponseTypes)}
	}
	return nil
}

// Queuing limits: at most 10^7 queues, and a hand whose shuffle sharding
// needs at most 60 bits of hash.
const (
	maxQueues   = 10 * 1000 * 1000
	maxHashBits = 60
)

// queuing: a positive queue length limit; positive queues up to 10^7; a
// positive hand size no larger than the queues, whose entropy
// (ceil(log2(queues) * handSize) bits) fits the hash.
func queuing(q *flowcontrolv1.QueuingConfiguration, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if q.QueueLengthLimit <= 0 {
		errs = append(errs, field.Invalid(p.Child("queueLengthLimit"), q.QueueLengthLimit, "must be positive"))
	}
	if q.Queues <= 0 {
		errs = append(errs, field.Invalid(p.Child("queues"), q.Queues, "must be positive"))
	} else if q.Queues > maxQueues {
		errs = append(errs, field.Invalid(p.Child("queues"), q.Queues, "must not be greater than "+strconv.Itoa(maxQueues)))
	}
	hp := p.Child("handSize")
	switch {
	case q.HandSize <= 0:
		errs = append(errs, field.Invalid(hp, q.HandSize, "must be positive"))
	case q.HandSize > q.Queues:
		errs = append(errs, field.Invalid(hp, q.HandSize, "should not be greater than queues ("+strconv.Itoa(int(q.Queues))+")"))
	case int(math.Ceil(math.Log2(float64(q.Queues))*float64(q.HandSize))) > maxHashBits:
		errs = append(errs, field.Invalid(hp, q.HandSize, "required entropy bits of deckSize "+strconv.Itoa(int(q.Queues))+
			" and handSize "+strconv.Itoa(int(q.HandSize))+" should not be greater than "+strconv.Itoa(maxHashBits)))
	}
	return errs
}

// The mandatory objects' fixed specs, as kube-apiserver's bootstrap
// configuration defines them (not defaulted).
var (
	allResourcesAndURLs = []flowcontrolv1.PolicyRulesWithSubjects{{
		ResourceRules: []flowcontrolv1.ResourcePolicyRule{{
			Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}, Namespaces: []string{"*"}, ClusterScope: true,
		}},
		NonResourceRules: []flowcontrolv1.NonResourcePolicyRule{{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}},
	}}
	mandatoryFlowSchemas = map[string]flowcontrolv1.FlowSchemaSpec{
		"exempt": {
			PriorityLevelConfiguration: flowcontrolv1.PriorityLevelConfigurationReference{Name: "exempt"},
			MatchingPrecedence:         1,
			Rules:                      withGroups(allResourcesAndURLs, "system:masters"),
		},
		"catch-all": {
			PriorityLevelConfiguration: flowcontrolv1.PriorityLevelConfigurationReference{Name: "catch-all"},
			MatchingPrecedence:         10000,
			DistinguisherMethod:        &flowcontrolv1.FlowDistinguisherMethod{Type: flowcontrolv1.FlowDistinguisherMethodByUserType},
			Rules:                      withGroups(allResourcesAndURLs, "system:unauthenticated", "system:authenticated"),
		},
	}
	mandatoryPriorityLevels = map[string]flowcontrolv1.PriorityLevelConfigurationSpec{
		"exempt": {
			Type:   flowcontrolv1.PriorityLevelEnablementExempt,
			Exempt: &flowcontrolv1.ExemptPriorityLevelConfiguration{NominalConcurrencyShares: ptr.To[int32](0), LendablePercent: ptr.To[int32](0)},
		},
		"catch-all": {
			Type: flowcontrolv1.PriorityLevelEnablementLimited,
			Limited: &flowcontrolv1.LimitedPriorityLevelConfiguration{
				NominalConcurrencyShares: ptr.To[int32](5),
				LendablePercent:          ptr.To[int32](0),
				LimitResponse:            flowcontrolv1.LimitResponse{Type: flowcontrolv1.LimitResponseTypeReject},
			},
		},
	}
)

// withGroups is rules with the named groups as the subjects of each.
func withGroups(rules []flowcontrolv1.PolicyRulesWithSubjects, groups ...string) []flowcontrolv1.PolicyRulesWithSubjects {
	out := make([]flowcontrolv1.PolicyRulesWithSubjects, len(rules))
	for i, r := range rules {
		r.Subjects = nil
		for _, g := range groups {
			r.Subjects = append(r.Subjects, flowcontrolv1.Subject{Kind: flowcontrolv1.SubjectKindGroup, Group: &flowcontrolv1.GroupSubject{Name: g}})
		}
		out[i] = r
	}
	return out
}
