package defaults

import (
	rbacv1 "k8s.io/api/rbac/v1"
)

// RBAC Roles and RoleBindings (VAL-70, VAL-71): a Role has no defaults and
// both strategies' PrepareForCreate change nothing.

// DefaultRoleBinding is rbac.authorization.k8s.io/v1's
// SetObjectDefaults_RoleBinding (VAL-71): an empty roleRef.apiGroup becomes
// rbac.authorization.k8s.io, and so does an empty apiGroup of a User or
// Group subject (a ServiceAccount subject's stays empty; a subject of any
// other kind is left alone).
func DefaultRoleBinding(rb *rbacv1.RoleBinding) {
	if rb.RoleRef.APIGroup == "" {
		rb.RoleRef.APIGroup = rbacv1.GroupName
	}
	for i := range rb.Subjects {
		s := &rb.Subjects[i]
		if s.APIGroup == "" && (s.Kind == rbacv1.UserKind || s.Kind == rbacv1.GroupKind) {
			s.APIGroup = rbacv1.GroupName
		}
	}
}

// DefaultClusterRoleBinding is SetObjectDefaults_ClusterRoleBinding: the same
// defaults as DefaultRoleBinding's.
func DefaultClusterRoleBinding(crb *rbacv1.ClusterRoleBinding) {
	rb := rbacv1.RoleBinding{RoleRef: crb.RoleRef, Subjects: crb.Subjects}
	DefaultRoleBinding(&rb)
	crb.RoleRef = rb.RoleRef
}
