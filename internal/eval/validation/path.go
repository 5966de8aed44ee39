package validation

import (
	"strconv"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// lazyPath is a field path that becomes a *field.Path only when an error is
// reported. Upstream builds every *field.Path eagerly, one allocation per
// Child, Index and Key, though nearly all of them are dropped unused; the
// functions on the hot path of every Pod (ObjectMeta, the pod spec,
// containers, resources) take a lazyPath instead and call Path where they
// create an error, so they read as upstream's do.
//
// It is a value: a materialised root plus up to maxLazyElems elements held
// inline, copied on each Child, Index and Key. Nothing in it points to the
// stack, so escape analysis cannot move it to the heap; a deeper path folds
// its elements into the root (allocating, as upstream does). Copying its 144
// bytes costs less than an allocation; it was a third of Pod validation at
// 256. (Nodes linked by pointers, each in
// its builder's frame, do not work: escape analysis is not field-sensitive,
// and Path's passing the names on to the heap made every parent escape.)
type lazyPath struct {
	root *field.Path // nil: the path starts at e[0]
	n    uint8
	subs uint8 // bit i set: e[i] is a subscript (Index, Key), else a field name (Child)
	e    [maxLazyElems]string
}

// maxLazyElems covers the paths Pod validation builds for every container,
// such as spec.initContainers[i].resources.limits[name].
const maxLazyElems = 8

// newLazyPath is field.NewPath(name).
func newLazyPath(name string) lazyPath {
	return lazyPath{}.Child(name)
}

// lazy is p, for a function taking a lazyPath.
func lazy(p *field.Path) lazyPath {
	return lazyPath{root: p}
}

func (p lazyPath) with(e string, sub bool) lazyPath {
	if p.n == maxLazyElems {
		p = lazyPath{root: p.Path()}
	}
	p.e[p.n] = e
	if sub {
		p.subs |= 1 << p.n
	}
	p.n++
	return p
}

// Child is (*field.Path).Child with one name.
func (p lazyPath) Child(name string) lazyPath { return p.with(name, false) }

// Index is (*field.Path).Index, which is Key of the index in decimal (no
// allocation below 100).
func (p lazyPath) Index(i int) lazyPath { return p.with(strconv.Itoa(i), true) }

// Key is (*field.Path).Key.
func (p lazyPath) Key(key string) lazyPath { return p.with(key, true) }

// Path builds the *field.Path, for an error.
func (p lazyPath) Path() *field.Path {
	fp := p.root
	for i, e := range p.e[:p.n] {
		if p.subs&(1<<i) != 0 {
			fp = fp.Key(e)
		} else {
			fp = fp.Child(e)
		}
	}
	return fp
}
