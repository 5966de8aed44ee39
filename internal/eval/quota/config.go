package quota

import corev1 "k8s.io/api/core/v1"

// Configuration is the ResourceQuota admission plugin's configuration
// (ResourceQuotaConfiguration; docs/behaviour.md CFG-01).
type Configuration struct {
	LimitedResources []LimitedResource
}

// LimitedResource is one limitedResources entry: objects of this group/resource
// whose usage names contain one of MatchContains, or that match one of
// MatchScopes, may only be created when a quota covers them (RQ-20, RQ-21).
type LimitedResource struct {
	APIGroup      string
	Resource      string
	MatchContains []string
	MatchScopes   []corev1.ScopedResourceSelectorRequirement
}
