// Package celserver evaluates the x-kubernetes-validations (CEL) rules of a
// CustomResourceDefinition's schema against a custom resource, with
// kube-apiserver's own validator (VAL-78), and compiles the CEL expressions
// of device selectors and webhook match conditions with kube-apiserver's own
// compilers (VAL-35, VAL-83). It links CEL, whose start-up
// (about 20 ms and 13 MiB here) every limitcheck run would otherwise pay:
// only the limitcheck-cel helper and tests import it, and limitcheck talks to
// the helper through package rules when an input needs it.
package celserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"

	"github.com/limitcheck/limitcheck/internal/rules"
)

// Evaluator compiles each schema's rules once and evaluates them. It is
// safe for concurrent use.
type Evaluator struct {
	mu      sync.Mutex
	schemas map[string]*compiled
}

type compiled struct {
	validator *cel.Validator // nil when the schema has no rules
	err       error
}

// New returns an Evaluator with no schema compiled yet.
func New() *Evaluator {
	return &Evaluator{schemas: map[string]*compiled{}}
}

// compile builds the validator of an openAPIV3Schema (v1 JSON) as
// kube-apiserver builds it to serve a version: the structural schema, then
// its rules compiled with the per-call cost limit.
func compile(schema []byte) *compiled {
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(schema, &v1); err != nil {
		return &compiled{err: fmt.Errorf("reading openAPIV3Schema: %w", err)}
	}
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &internal, nil); err != nil {
		return &compiled{err: fmt.Errorf("converting openAPIV3Schema: %w", err)}
	}
	s, err := structuralschema.NewStructural(&internal)
	if err != nil {
		return &compiled{err: fmt.Errorf("openAPIV3Schema is not structural: %w", err)}
	}
	return &compiled{validator: cel.NewValidator(s, true, celconfig.PerCallLimit)}
}

// EvaluateRules evaluates the rules of schema (identified by key: the same
// key must always name the same schema) against obj, a custom resource's
// whole content after defaulting, as the custom resource strategy does on
// create, with the runtime cost budget of one object.
func (e *Evaluator) EvaluateRules(key string, schema []byte, obj map[string]any) (field.ErrorList, error) {
	e.mu.Lock()
	c, ok := e.schemas[key]
	if !ok {
		c = compile(schema)
		e.schemas[key] = c
	}
	e.mu.Unlock()
	if c.err != nil {
		return nil, c.err
	}
	if c.validator == nil {
		return nil, nil
	}
	errs, _ := inOrder(context.Background(), c.validator, nil, obj, celconfig.RuntimeCELCostBudget)
	return errs, nil
}

// inOrder is kube-apiserver's CEL validation of obj at path, node by node as
// it goes (a node's own rules, its allOf's, then the values below it), but
// with a map's keys in sorted order: kube-apiserver visits them in Go map
// order, so that its errors of two keys come in either order from one request
// to the next; limitcheck gives one of those orders, always the same. The
// cost budget is spent in the same sequence.
func inOrder(ctx context.Context, v *cel.Validator, path *field.Path, obj any, budget int64) (field.ErrorList, int64) {
	if v == nil || obj == nil {
		return nil, budget
	}
	own := *v // the node's rules alone
	own.Items, own.Properties, own.AdditionalProperties, own.AllOfValidators = nil, nil, nil, nil
	errs, budget := own.Validate(ctx, path, nil, obj, nil, budget)
	more := func(v *cel.Validator, path *field.Path, obj any) bool {
		var e field.ErrorList
		e, budget = inOrder(ctx, v, path, obj, budget)
		errs = append(errs, e...)
		return budget >= 0
	}
	if budget < 0 {
		return errs, budget
	}
	for _, a := range v.AllOfValidators {
		if !more(a, path, obj) {
			return errs, budget
		}
	}
	switch x := obj.(type) {
	case []any:
		if v.Items != nil {
			for i := range x {
				if !more(v.Items, path.Index(i), x[i]) {
					return errs, budget
				}
			}
		}
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		if v.AdditionalProperties != nil {
			for _, k := range keys {
				if !more(v.AdditionalProperties, path.Key(k), x[k]) {
					return errs, budget
				}
			}
		}
		for _, k := range keys {
			if sub, ok := v.Properties[k]; ok && !more(&sub, path.Child(k), x[k]) {
				return errs, budget
			}
		}
	}
	return errs, budget
}

// Serve answers the requests of package rules' client read from r, one JSON
// document per line, with one JSON line each on w, until r ends.
func Serve(r io.Reader, w io.Writer) error {
	e := New()
	in := bufio.NewReader(r)
	out := bufio.NewWriter(w)
	dec := json.NewDecoder(in)
	enc := json.NewEncoder(out)
	if err := enc.Encode(rules.Hello{Helper: rules.HelperName, Protocol: rules.Protocol}); err != nil {
		return err
	}
	if err := out.Flush(); err != nil {
		return err
	}
	schemas := map[string][]byte{}
	for {
		var req rules.Request
		if err := dec.Decode(&req); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("reading a request: %w", err)
		}
		if len(req.Schema) > 0 {
			schemas[req.Key] = req.Schema
		}
		var resp rules.Response
		var obj map[string]any
		if req.CRD != nil {
			if errs, err := compileCRD(req.CRD); err != nil {
				resp.Failure = err.Error()
			} else {
				resp.Errors = rules.Encode(errs)
			}
		} else if req.Policy != nil {
			if errs, err := compilePolicy(req.Policy); err != nil {
				resp.Failure = err.Error()
			} else {
				resp.Errors = rules.Encode(errs)
			}
		} else if req.Compile != nil {
			if errs, err := compileExpression(req.Compile); err != nil {
				resp.Failure = err.Error()
			} else {
				resp.Errors = rules.Encode(errs)
			}
		} else if err := utiljson.Unmarshal(req.Object, &obj); err != nil {
			resp.Failure = fmt.Sprintf("reading the object: %v", err)
		} else if schema, ok := schemas[req.Key]; !ok {
			resp.Failure = fmt.Sprintf("no schema sent for %q", req.Key)
		} else if errs, err := e.EvaluateRules(req.Key, schema, obj); err != nil {
			resp.Failure = err.Error()
		} else {
			resp.Errors = rules.Encode(errs)
		}
		if err := enc.Encode(&resp); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
}

// Main is the limitcheck-cel helper: it serves in on out until in ends and
// returns the exit code.
func Main(args []string, in io.Reader, out, errOut io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(errOut, "%s takes no arguments: limitcheck starts it and talks to it on standard input and output\n", rules.HelperName)
		return 2
	}
	if err := Serve(in, out); err != nil {
		fmt.Fprintf(errOut, "%s: %v\n", rules.HelperName, err)
		return 3
	}
	return 0
}

// Pipe starts a server in a goroutine and returns a client of it, as the
// helper would be reached but in-process: for tests.
func Pipe() *rules.Client {
	reqR, reqW := io.Pipe()
	respR, respW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := Serve(reqR, respW)
		respW.CloseWithError(err)
		done <- err
	}()
	return rules.NewClientOver(reqW, respR, func() error { return <-done })
}
