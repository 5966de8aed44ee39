// Package resources classifies resource names as kube-apiserver does
// (native, extended, hugepages, standard sets) and adds, masks and re-reads
// ResourceLists: the helpers every admission stage shares.
package resources
