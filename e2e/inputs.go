package e2e

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
)

// notAStream is CommandCase's reason for an input that does not split into
// objects, which TestInputs gives to kubectl create -f as it is.
const notAStream = "is not a stream of objects a cluster takes"

// kubectlMaps is CommandCase's reason for an input whose kinds only kubectl
// create -f maps as a cluster does (a custom resource, a
// CustomResourceDefinition), which TestInputs gives to it as it is.
const kubectlMaps = "kubectl create -f maps its kinds"

// CommandCase turns the arguments of a `limitcheck check` command reading
// files of fsys into a case, or says why a real cluster cannot replay it.
// Only flags whose meaning a cluster reproduces are taken: -f/--filename,
// paths, -R, -n/--namespace, --nodes 1 (the plane's one node), --order,
// and output flags, which do not change the verdicts.
func CommandCase(name string, fsys fs.FS, args []string) (*Case, string) {
	if len(args) == 0 || args[0] != "check" {
		return nil, "not limitcheck check"
	}
	c := &Case{Name: name, Namespace: "default"}
	var paths []string
	recursive := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		flagName, value, hasValue := strings.Cut(a, "=")
		next := func() (string, bool) {
			if hasValue {
				return value, true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return "", false
		}
		switch {
		case !strings.HasPrefix(a, "-") || a == "-":
			if a == "-" || strings.Contains(a, "$") {
				return nil, "reads stdin or an environment variable"
			}
			paths = append(paths, a)
		case flagName == "-f" || flagName == "--filename":
			p, ok := next()
			if !ok || p == "-" || strings.Contains(p, "$") {
				return nil, "reads stdin or an environment variable"
			}
			paths = append(paths, p)
		case a == "-R" || a == "--recursive":
			recursive = true
		case flagName == "-n" || flagName == "--namespace":
			ns, ok := next()
			if !ok || ns == "" {
				return nil, "flag " + flagName + " without a value"
			}
			c.Namespace = ns
			c.namespaceFlag = true
		case flagName == "--nodes":
			v, _ := next()
			if v != "1" {
				return nil, "--nodes " + v + " (the control plane has one node)"
			}
		case flagName == "--order":
			v, _ := next()
			if v == "input" {
				c.InputOrder = true
			} else if v != "policies-first" {
				return nil, "--order " + v
			}
		case flagName == "-o" || flagName == "--output" || flagName == "--color" || flagName == "--fail-on":
			next()
		case a == "--lint=false" || a == "--quiet" || a == "-q":
		default:
			return nil, "flag " + flagName + " (not reproduced on a cluster)"
		}
	}
	if len(paths) == 0 {
		return nil, "no file"
	}
	for _, p := range paths {
		files, err := expand(fsys, path.Clean(p), recursive)
		if err != nil {
			return nil, err.Error()
		}
		for _, f := range files {
			b, err := fs.ReadFile(fsys, f)
			if err != nil {
				return nil, err.Error()
			}
			if bytes.IndexByte(b, '\r') >= 0 {
				c.AsIs = true
			}
			docs, err := SplitYAMLItems(b)
			if err != nil {
				return nil, fmt.Sprintf("%s %s (%v)", f, notAStream, err)
			}
			c.Docs = append(c.Docs, docs...)
		}
	}
	if len(c.Docs) == 0 {
		return nil, "no document"
	}
	for _, d := range c.Docs {
		t := metaOf(d)
		_, st := apis.New().Lookup(t.APIVersion, t.Kind)
		switch {
		case t.APIVersion != "" && t.Kind != "" && st == apis.NotServed:
			c.AsIs = true
			continue
		case t.APIVersion == "" || t.Kind == "":
			return nil, "a document without apiVersion or kind"
		case strings.Contains(t.Kind, "Configuration") && strings.Contains(t.APIVersion, "apiserver"):
			return nil, "an admission configuration document (needs another kube-apiserver)"
		case t.Kind == "Kustomization" || strings.HasSuffix(t.APIVersion, "config.kubernetes.io/v1"):
			return nil, "a tool configuration file"
		case t.Kind == "HorizontalPodAutoscaler":
			return nil, "a HorizontalPodAutoscaler (the plane runs no HPA controller)"
		case t.Kind == "CustomResourceDefinition":
			return nil, "a CustomResourceDefinition: " + kubectlMaps
		case st == apis.Custom:
			// limitcheck takes its CRD as installed (API-01); the plane has none.
			return nil, "a custom resource whose CRD the plane does not have: " + kubectlMaps
		}
	}
	if c.namespaceFlag {
		for _, d := range c.Docs {
			if ns := metaOf(d).Metadata.Namespace; ns != "" && ns != c.Namespace {
				return nil, "a document of another namespace than -n (kubectl's client-side error)"
			}
		}
	}
	return c, ""
}

// expand lists the files p names: itself, or the .yaml, .yml and .json files
// of a directory in lexical order (its subdirectories' too with -R).
func expand(fsys fs.FS, p string, recursive bool) ([]string, error) {
	st, err := fs.Stat(fsys, p)
	if err != nil {
		return nil, fmt.Errorf("path %s: %v", p, err)
	}
	if !st.IsDir() {
		return []string{p}, nil
	}
	var out []string
	err = fs.WalkDir(fsys, p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if q != p && !recursive {
				return fs.SkipDir
			}
			return nil
		}
		switch path.Ext(q) {
		case ".yaml", ".yml", ".json":
			out = append(out, q)
		}
		return nil
	})
	return out, err // WalkDir's lexical order
}

// DescribeCase turns the arguments of a `limitcheck describe TYPE ...`
// command into the case its input makes and the TYPE argument, or says why
// a real cluster cannot replay it. TYPE is one or more of kubectl's names for
// LimitRanges and ResourceQuotas; names (NAME, TYPE/NAME) are not taken: the
// comparison is of every object of each namespace. The other arguments are
// taken as CommandCase takes check's.
func DescribeCase(name string, fsys fs.FS, args []string) (*Case, string, string) {
	if len(args) == 0 || args[0] != "describe" {
		return nil, "", "not limitcheck describe"
	}
	var types string
	rest := []string{"check"}
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "-"):
			rest = append(rest, a)
			flagName, _, hasValue := strings.Cut(a, "=")
			if !hasValue && i+1 < len(args) && !describeBoolFlags[flagName] {
				i++
				rest = append(rest, args[i])
			}
		case types == "":
			for _, t := range strings.Split(a, ",") {
				if !describeTypes[t] {
					return nil, "", "describe " + a + " (not only LimitRanges and ResourceQuotas, or a TYPE/NAME)"
				}
			}
			types = a
		default:
			return nil, "", "describe by name"
		}
	}
	if types == "" {
		return nil, "", "describe without a type"
	}
	c, why := CommandCase(name, fsys, rest)
	return c, types, why
}

// describeTypes are the TYPE words of kubectl describe that limitcheck
// describe takes.
var describeTypes = map[string]bool{"limits": true, "limitrange": true, "limitranges": true,
	"quota": true, "resourcequota": true, "resourcequotas": true}

// describeBoolFlags take no value; every other flag takes the next argument
// unless written flag=value.
var describeBoolFlags = map[string]bool{"-R": true, "--recursive": true, "-q": true, "--quiet": true}
