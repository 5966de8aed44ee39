package validation

import "k8s.io/apimachinery/pkg/util/validation/field"

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
// its elements into the root (allocating, as upstream does). Copying its 256
// bytes costs less than an allocation. (Nodes linked by pointers, each in
// its builder's frame, do not work: escape analysis is not field-sensitive,
// and Path's passing the names on to the heap made every parent escape.)
type lazyPath struct {
	root *field.Path // nil: the path starts at e[0]
	n    int
	e    [maxLazyElems]pathElem
}

// maxLazyElems covers the paths Pod validation builds below spec, such as
// spec.volumes[i].projected.sources[j].configMap.items[k].path.
const maxLazyElems = 10

// pathElem is a field name, a map key or a list index, in 24 bytes.
type pathElem struct {
	name  string
	index int32
	kind  elemKind
}

type elemKind uint8

const (
	childElem elemKind = iota
	indexElem
	keyElem
)

// newLazyPath is field.NewPath(name).
func newLazyPath(name string) lazyPath {
	return lazyPath{}.Child(name)
}

// lazy is p, for a function taking a lazyPath.
func lazy(p *field.Path) lazyPath {
	return lazyPath{root: p}
}

func (p lazyPath) with(e pathElem) lazyPath {
	if p.n == maxLazyElems {
		p = lazyPath{root: p.Path()}
	}
	p.e[p.n] = e
	p.n++
	return p
}

// Child is (*field.Path).Child with one name.
func (p lazyPath) Child(name string) lazyPath { return p.with(pathElem{name: name, kind: childElem}) }

// Index is (*field.Path).Index.
func (p lazyPath) Index(i int) lazyPath {
	if int(int32(i)) != i { // beyond any list an object can hold, but exact
		return lazyPath{root: p.Path().Index(i)}
	}
	return p.with(pathElem{index: int32(i), kind: indexElem})
}

// Key is (*field.Path).Key.
func (p lazyPath) Key(key string) lazyPath { return p.with(pathElem{name: key, kind: keyElem}) }

// Path builds the *field.Path, for an error.
func (p lazyPath) Path() *field.Path {
	fp := p.root
	for _, e := range p.e[:p.n] {
		switch e.kind {
		case childElem:
			fp = fp.Child(e.name)
		case indexElem:
			fp = fp.Index(int(e.index))
		default:
			fp = fp.Key(e.name)
		}
	}
	return fp
}
