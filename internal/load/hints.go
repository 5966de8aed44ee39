package load

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/limitcheck/limitcheck/internal/spell"
)

// The hints here follow a decode error the user must fix by hand: they name
// the spelling the API wanted when the one written is a near miss. They add
// to kube-apiserver's text, which stays as it is, and say nothing when no
// fix is clear.

// renamedKeyWarnings: the plain block mapping keys of a YAML document (text,
// its first line at base) that YAML 1.1 reads as a boolean or a number, so
// that kubectl sends another name (n: is "false", 0755: is "493"); lines
// of block scalars are not keys.
func renamedKeyWarnings(text []byte, base int) []Warning {
	var out []Warning
	block := -1 // within a block scalar: lines indented more than this are its content
	for i, raw := range bytes.Split(text, []byte{'\n'}) {
		line := strings.TrimRight(string(raw), "\r")
		rest := strings.TrimLeft(line, " ")
		col := len(line) - len(rest)
		if block >= 0 {
			if rest == "" || col > block {
				continue
			}
			block = -1
		}
		for strings.HasPrefix(rest, "- ") {
			trimmed := strings.TrimLeft(rest[2:], " ")
			col += len(rest) - len(trimmed)
			rest = trimmed
		}
		if rest == "" || rest[0] == '#' || rest[0] == '"' || rest[0] == '\'' || rest[0] == '{' || rest[0] == '[' {
			continue
		}
		key, value, ok := strings.Cut(rest, ": ")
		if !ok {
			if key, ok = strings.CutSuffix(rest, ":"); !ok {
				continue
			}
		}
		if v := strings.TrimSpace(value); v != "" && (v[0] == '|' || v[0] == '>') {
			block = col
		}
		for _, key := range append([]string{key}, flowKeys(rest)...) {
			if k, str, ok := plainKeyString(key); ok && !str && k != key {
				what := "the number " + k
				if k == "true" || k == "false" {
					what = "the boolean " + k
				}
				out = append(out, Warning{Line: base + i, Msg: fmt.Sprintf("key %s (line %d): YAML reads the unquoted key as %s, which kubectl sends as %q: write %q to keep the key", key, base+i, what, k, key)})
			}
		}
	}
	return out
}

// flowKeys are the plain keys of the flow mappings on a line ({n: 1, on: 2}),
// quoted scalars skipped.
func flowKeys(line string) []string {
	var keys []string
	var stack []byte
	start := -1 // where a key may start: after { or , in a mapping
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '"' || c == '\'':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				return keys
			}
			i += j + 1
			start = -1
		case c == '{' || c == '[':
			stack = append(stack, c)
			start = -1
			if c == '{' {
				start = i + 1
			}
		case c == '}' || c == ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			start = -1
		case c == ',':
			start = -1
			if len(stack) > 0 && stack[len(stack)-1] == '{' {
				start = i + 1
			}
		case c == ':' && start >= 0:
			if i+1 == len(line) || line[i+1] == ' ' || line[i+1] == ',' || line[i+1] == '}' {
				if k := strings.TrimSpace(line[start:i]); k != "" {
					keys = append(keys, k)
				}
			}
			start = -1
		case c == '#' && (i == 0 || line[i-1] == ' '):
			return keys
		}
	}
	return keys
}

// aliasHint explains a YAML error at line (1-based in text) whose value
// starts with an unquoted *: YAML reads it as an alias (a cron schedule
// such as */5 * * * *, a glob).
func aliasHint(text []byte, line int) string {
	if line < 1 {
		return ""
	}
	lines := bytes.Split(text, []byte{'\n'})
	if line > len(lines) {
		return ""
	}
	l := strings.TrimSpace(string(lines[line-1]))
	l = strings.TrimSpace(strings.TrimPrefix(l, "- "))
	key, value, ok := strings.Cut(l, ": ")
	if !ok {
		key, value = "", l
	}
	value = strings.TrimSpace(value)
	if strings.HasPrefix(value, "[") || strings.HasPrefix(value, "{") {
		// In a flow collection: an item or value that starts with *.
		for _, sep := range []string{"[", ",", ": "} {
			for _, part := range strings.Split(value, sep)[1:] {
				if item := strings.TrimSpace(part); strings.HasPrefix(item, "*") {
					item = strings.TrimRight(item, "]}, ")
					return fmt.Sprintf(" (YAML reads a value starting with * as an alias: quote it, %q)", item)
				}
			}
		}
		return ""
	}
	if !strings.HasPrefix(value, "*") {
		return ""
	}
	if key == "" || strings.ContainsAny(key, `"'{[`) {
		return fmt.Sprintf(" (YAML reads a value starting with * as an alias: quote it, %q)", value)
	}
	return fmt.Sprintf(" (YAML reads a value starting with * as an alias: quote it, %s: %q)", key, value)
}

// templateHint explains a document that does not parse because it holds
// template actions ({{ .Values.replicas }}): a Helm chart's templates or
// another Go template given before they were rendered; or Jinja tags
// ({% raw %}, {% if … %}), as in documentation snippets and Ansible roles.
func templateHint(text []byte) string {
	switch {
	case bytes.Contains(text, []byte("{%")):
		return " (an unrendered template: {% … %} is a Jinja tag; check what it renders to)"
	case bytes.Contains(text, []byte("{{")):
		return " (" + unrendered("CHART") + ")"
	}
	return ""
}

// unrendered says what to do with a template of chart (a path, or CHART).
func unrendered(chart string) string {
	return "an unrendered template: check what it renders to, e.g. helm template " + chart + " | limitcheck check -"
}

// quantityHint suggests the quantity s was probably meant to be when it
// does not parse: a byte unit (512MB, 2GiB, 1gb), a unit in the wrong case
// (512mi, 1g, 1K), a space before the unit, or a trailing B on a byte count.
// It returns "" when there is nothing to suggest.
func quantityHint(s string) string {
	var valid []string
	for _, c := range quantityCandidates(s) {
		if _, err := resource.ParseQuantity(c); err == nil && c != s {
			valid = append(valid, c)
		}
	}
	return strings.Join(valid, " or ")
}

// quantityCandidates are the spellings s may have been meant as.
func quantityCandidates(s string) []string {
	num, unit := splitQuantity(s)
	if num == "" || unit == "" {
		return nil
	}
	if u := strings.TrimLeft(unit, " "); u != unit {
		if _, err := resource.ParseQuantity(num + u); err == nil || u == "" {
			return []string{num + u} // only a space before the unit
		}
		unit = u
	}
	lower := strings.ToLower(unit)
	switch lower {
	case "b", "byte", "bytes":
		return []string{num}
	}
	if !strings.ContainsRune("kmgtpe", rune(lower[0])) {
		return nil
	}
	binary := strings.ToUpper(lower[:1]) + "i"
	decimal := strings.ToUpper(lower[:1])
	if decimal == "K" {
		decimal = "k"
	}
	switch lower[1:] {
	case "i", "ib": // 512mi, 2GiB: binary was meant
		return []string{num + binary}
	case "", "b": // 1g, 1K, 512MB: either could be meant
		return []string{num + binary, num + decimal}
	}
	return nil
}

// splitQuantity splits s into its leading number and what follows.
func splitQuantity(s string) (num, unit string) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	start := i
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	if i == start {
		return "", ""
	}
	return s[:i], s[i:]
}

// fieldHint explains an unknown field at path (a.b[0].c) of an object of
// type root: a near spelling of a field the object has there (resource for
// resources), or, for a key written at the wrong depth, where it belongs (a
// container's limits one level above its resources; a container's
// resources under one of its ports). It returns "" when nothing is close.
func fieldHint(root reflect.Type, path string) string {
	segs := pathKeys(path)
	if len(segs) == 0 {
		return ""
	}
	key := segs[len(segs)-1]
	types := make([]reflect.Type, 0, len(segs))
	t := root
	for _, s := range segs[:len(segs)-1] {
		types = append(types, t)
		t = fieldType(t, s)
		if t == nil {
			return ""
		}
	}
	parent := structOf(t)
	if parent == nil {
		return ""
	}
	if r, ok := renamed[parent.PkgPath()+"."+parent.Name()+"."+key]; ok {
		return r
	}
	if h := securityContextHint(parent, key, path); h != "" {
		return h
	}
	fields := structFields(parent)
	if near := spell.Nearest(key, sortedKeys(fields)); near != "" {
		return fmt.Sprintf("did you mean %q?", near)
	}
	// One level too high: the key is a field of exactly one of the
	// parent's object-valued fields (containers wins over the other
	// container lists).
	var under []string
	for name, ft := range fields {
		if s := structOf(ft); s != nil {
			if _, ok := structFields(s)[key]; ok {
				under = append(under, name)
			}
		}
	}
	if len(under) > 1 && slices.Contains(under, "containers") {
		under = []string{"containers"}
	}
	if len(under) == 1 {
		return fmt.Sprintf("%s belongs under %s: check the indentation", key, under[0])
	}
	// One level too low: the key is a field of the object that holds this
	// one.
	if len(types) > 0 {
		if gp := structOf(types[len(types)-1]); gp != nil && gp != parent {
			if _, ok := structFields(gp)[key]; ok {
				return fmt.Sprintf("%s belongs to %s, not to %s: check the indentation",
					key, parentPath(path, 2), lastSegment(parentPath(path, 1)))
			}
		}
	}
	return ""
}

// securityContextHint: a field of a container's securityContext given in the
// Pod's, or the reverse (allowPrivilegeEscalation, capabilities, privileged
// are per container; fsGroup, sysctls, supplementalGroups per Pod).
func securityContextHint(parent reflect.Type, key, path string) string {
	pod, container := reflect.TypeFor[corev1.PodSecurityContext](), reflect.TypeFor[corev1.SecurityContext]()
	switch parent {
	case pod:
		if _, ok := structFields(container)[key]; ok {
			return fmt.Sprintf("%s is set per container, in %s.containers[*].securityContext, not in the Pod's securityContext", key, joinPath(parentPath(path, 2)))
		}
	case container:
		if _, ok := structFields(pod)[key]; ok {
			return fmt.Sprintf("%s is set for the whole Pod, in %s.securityContext, not in a container's", key, joinPath(parentPath(path, 3)))
		}
	}
	return ""
}

// joinPath is path as the start of another, "spec" when empty.
func joinPath(path string) string {
	if path == "" {
		return "spec"
	}
	return path
}

// renamed explains fields that an older version of a kind had and the
// served one names otherwise, by struct type and field name: manifests
// written for the beta APIs often move to the GA apiVersion without them.
var renamed = map[string]string{
	"k8s.io/api/networking/v1.IngressBackend.serviceName":                                  "networking.k8s.io/v1 names the Service in service.name",
	"k8s.io/api/networking/v1.IngressBackend.servicePort":                                  "networking.k8s.io/v1 gives the port as service.port.number or service.port.name",
	"k8s.io/api/networking/v1.IngressSpec.backend":                                         `did you mean "defaultBackend"? networking.k8s.io/v1 renamed it`,
	"k8s.io/api/autoscaling/v2.HorizontalPodAutoscalerSpec.targetCPUUtilizationPercentage": "autoscaling/v2 sets the CPU target in metrics; the field is autoscaling/v1's",
}

// pathKeys splits a.b[0].c into its keys, dropping list indexes.
func pathKeys(path string) []string {
	var keys []string
	for _, s := range strings.Split(path, ".") {
		if i := strings.IndexByte(s, '['); i >= 0 {
			s = s[:i]
		}
		if s != "" {
			keys = append(keys, s)
		}
	}
	return keys
}

// parentPath drops the last n keys (with their indexes) of path.
func parentPath(path string, n int) string {
	for ; n > 0; n-- {
		i := strings.LastIndexByte(path, '.')
		if i < 0 {
			return ""
		}
		path = path[:i]
	}
	return path
}

// lastSegment is the last key of path with its index: ports[0].
func lastSegment(path string) string {
	return path[strings.LastIndexByte(path, '.')+1:]
}

// fieldType is the type of the value under key in a value of type t: a
// struct's field, a map's element, through pointers and lists.
func fieldType(t reflect.Type, key string) reflect.Type {
	t = deref(t)
	switch t.Kind() {
	case reflect.Struct:
		ft, ok := structFields(t)[key]
		if !ok {
			return nil
		}
		return ft
	case reflect.Map:
		return t.Elem()
	}
	return nil
}

// structOf is the struct type a value of type t decodes its object into
// (through pointers and lists), or nil.
func structOf(t reflect.Type) reflect.Type {
	t = deref(t)
	if t.Kind() == reflect.Struct && !reflect.PointerTo(t).Implements(jsonUnmarshalerType) {
		return t
	}
	return nil
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	return t
}

func sortedKeys(m map[string]reflect.Type) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
