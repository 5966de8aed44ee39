// Package validation is kube-apiserver's object validation on create, in its
// own words and order: each function returns the field errors the REST
// strategy's Validate would, for the engine to wrap in the 422.
package validation
