package defaults

import (
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
)

// flowcontrol.apiserver.k8s.io/v1 defaulting (VAL-101, VAL-102;
// SetObjectDefaults_* in kubernetes/pkg/apis/flowcontrol/v1).

// The v1 defaults of a FlowSchema and a PriorityLevelConfiguration.
const (
	defaultMatchingPrecedence       int32 = 1000
	defaultNominalConcurrencyShares int32 = 30
	defaultHandSize                 int32 = 8
	defaultQueues                   int32 = 64
	defaultQueueLengthLimit         int32 = 50
)

// FlowSchema is SetObjectDefaults_FlowSchema: a matchingPrecedence of 0
// becomes 1000.
func FlowSchema(fs *flowcontrolv1.FlowSchema) {
	if fs.Spec.MatchingPrecedence == 0 {
		fs.Spec.MatchingPrecedence = defaultMatchingPrecedence
	}
}

// PriorityLevelConfiguration is SetObjectDefaults_PriorityLevelConfiguration:
// a limited level's nominalConcurrencyShares 30 and lendablePercent 0 when
// absent, its queuing's zero queues, handSize and queueLengthLimit 64, 8
// and 50; an exempt level's nominalConcurrencyShares and lendablePercent 0
// when absent.
func PriorityLevelConfiguration(pl *flowcontrolv1.PriorityLevelConfiguration) {
	if l := pl.Spec.Limited; l != nil {
		defaultPtr(&l.NominalConcurrencyShares, defaultNominalConcurrencyShares)
		defaultPtr(&l.LendablePercent, 0)
		if q := l.LimitResponse.Queuing; q != nil {
			if q.HandSize == 0 {
				q.HandSize = defaultHandSize
			}
			if q.Queues == 0 {
				q.Queues = defaultQueues
			}
			if q.QueueLengthLimit == 0 {
				q.QueueLengthLimit = defaultQueueLengthLimit
			}
		}
	}
	if e := pl.Spec.Exempt; e != nil {
		defaultPtr(&e.NominalConcurrencyShares, 0)
		defaultPtr(&e.LendablePercent, 0)
	}
}
