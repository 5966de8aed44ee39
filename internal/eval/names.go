package eval

import (
	"hash/maphash"
	"maps"
	"slices"
)

// storedNames is the set of names a namespace's objects are stored under
// (resource and name), which storage's 409 reads. A repository's manifests
// put a hundred thousand names in it; it holds them without a pointer, in one
// byte slice, so that the garbage collector never scans it and the strings
// the decoder made are not kept. Membership is exact: entries of the same
// hash are chained and their names compared, so the random seed changes
// nothing but the layout.
type storedNames struct {
	seed    maphash.Seed
	first   map[uint64]int32 // hash of (resource, name) to its chain's newest entry
	entries []storedEntry
	bytes   []byte // every name, back to back
}

// storedEntry is one name: bytes[off:off+n] of resource, and the next entry
// of its hash chain (-1: none).
type storedEntry struct {
	off, n   uint32
	resource uint32
	next     int32
}

// find returns the hash of (resource, name) and whether the set holds it.
func (s *storedNames) find(resource uint32, name string) (uint64, bool) {
	if s.first == nil {
		return 0, false
	}
	h := maphash.String(s.seed, name) ^ uint64(resource)*0x9e3779b97f4a7c15
	return h, s.chained(h, resource, name)
}

// chained reports whether name of resource is in the chain of hash h.
func (s *storedNames) chained(h uint64, resource uint32, name string) bool {
	i, ok := s.first[h]
	for ok && i >= 0 {
		e := &s.entries[i]
		if e.resource == resource && string(s.bytes[e.off:e.off+e.n]) == name {
			return true
		}
		i = e.next
	}
	return false
}

// has reports whether the set holds name of resource.
func (s *storedNames) has(resource uint32, name string) bool {
	_, ok := s.find(resource, name)
	return ok
}

// add puts name of resource in the set.
func (s *storedNames) add(resource uint32, name string) {
	if s.first == nil {
		s.seed = maphash.MakeSeed()
		s.first = map[uint64]int32{}
	}
	h, ok := s.find(resource, name)
	if !ok {
		s.insert(h, resource, name)
	}
}

// insert adds name of resource under hash h, at the head of h's chain.
func (s *storedNames) insert(h uint64, resource uint32, name string) {
	next, ok := s.first[h]
	if !ok {
		next = -1
	}
	s.first[h] = int32(len(s.entries))
	s.entries = append(s.entries, storedEntry{off: uint32(len(s.bytes)), n: uint32(len(name)), resource: resource, next: next})
	s.bytes = append(s.bytes, name...)
}

// clone returns a copy that add does not share.
func (s *storedNames) clone() storedNames {
	return storedNames{seed: s.seed, first: maps.Clone(s.first), entries: slices.Clone(s.entries), bytes: slices.Clone(s.bytes)}
}
