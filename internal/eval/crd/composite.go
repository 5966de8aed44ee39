package crd

import "fmt"

// The junctors of a schema node: allOf, anyOf, oneOf and not. The value is
// validated against each of their schemas apart, at the same path, and what
// is reported follows kube-openapi's schemaPropsValidator:
//
//   - anyOf: once a schema passes, nothing. When none does,
//     `"<path>" must validate at least one schema (anyOf)`, then the errors
//     of the failing schema with the highest match count (the first of equals);
//   - oneOf: when exactly one schema passes, nothing. Otherwise
//     `"<path>" must validate one and only one schema (oneOf). Found none valid`
//     with the errors of the best failing schema as for anyOf, or
//     `… Found <n> valid alternatives` alone;
//   - allOf: the errors of every schema, in order, then
//     `"<path>" must validate all the schemas (allOf)` when one failed
//     (`… (allOf). None validated` when all did);
//   - not: `"<path>" must not validate the schema (not)` when its schema
//     passes.
//
// The messages of the junctors themselves have no field path (they are no
// field errors upstream): `<nil>: Invalid value: "": "spec" must validate …`.

// branch is the outcome of one junctor schema: its errors, not yet
// reported, and its match count.
type branch struct {
	errs    []reported
	matches int
}

func (b *branch) valid() bool { return len(b.errs) == 0 }

// against validates x at path against one junctor schema, apart.
func against(path string, s *Schema, x any) *branch {
	sub := &validator{seen: map[string]bool{}}
	m := sub.node(path, s, x)
	return &branch{errs: sub.errs, matches: m}
}

// merge reports a branch's errors and returns its match count.
func (v *validator) merge(b *branch) int {
	for _, r := range b.errs {
		v.add(r.msg, r.err)
	}
	return b.matches
}

// composites checks x against the node's junctors and returns the match
// count of the branches it merged, plus one.
func (v *validator) composites(path string, s *Schema, x any) int {
	matches := 1
	if len(s.AnyOf) > 0 {
		var best *branch
		passed := false
		for _, c := range s.AnyOf {
			b := against(path, c, x)
			if b.valid() {
				passed, best = true, b
				break
			}
			if best == nil || b.matches > best.matches {
				best = b
			}
		}
		if !passed {
			v.plain(fmt.Sprintf("%q must validate at least one schema (anyOf)", path))
		}
		matches += v.merge(best)
	}
	if len(s.OneOf) > 0 {
		var best, first *branch
		passed := 0
		for _, c := range s.OneOf {
			b := against(path, c, x)
			if b.valid() {
				passed++
				best = nil
				if first == nil {
					first = b
				}
				continue
			}
			if passed == 0 && (best == nil || b.matches > best.matches) {
				best = b
			}
		}
		switch {
		case passed == 1:
			matches += v.merge(first)
		case passed == 0:
			v.plain(fmt.Sprintf("%q must validate one and only one schema (oneOf). Found none valid", path))
			matches += v.merge(best)
		default:
			v.plain(fmt.Sprintf("%q must validate one and only one schema (oneOf). Found %d valid alternatives", path, passed))
		}
	}
	if len(s.AllOf) > 0 {
		passed := 0
		for _, c := range s.AllOf {
			b := against(path, c, x)
			if b.valid() {
				passed++
			}
			matches += v.merge(b)
		}
		switch passed {
		case len(s.AllOf):
		case 0:
			v.plain(fmt.Sprintf("%q must validate all the schemas (allOf). None validated", path))
		default:
			v.plain(fmt.Sprintf("%q must validate all the schemas (allOf)", path))
		}
	}
	if s.Not != nil && against(path, s.Not, x).valid() {
		v.plain(fmt.Sprintf("%q must not validate the schema (not)", path))
	}
	return matches
}
