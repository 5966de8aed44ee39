// Package rules lets limitcheck evaluate the x-kubernetes-validations (CEL)
// rules of custom resources (VAL-78), and compile the CEL expressions that
// other objects carry (VAL-35, VAL-83), without linking CEL: a Client starts
// the limitcheck-cel helper (package celserver) the first time an object
// needs CEL and talks to it over a pipe, one JSON line per request and per
// answer. A run with no such object never starts it.
package rules

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// HelperName is the helper's executable name (without .exe).
const HelperName = "limitcheck-cel"

// Protocol is the version of the requests and answers below. The helper's
// first line says which it speaks (Hello), so that a helper from another
// install is refused with a clear error rather than misunderstood.
const Protocol = 4

// Hello is the helper's first line.
type Hello struct {
	Helper   string `json:"helper"`
	Protocol int    `json:"protocol"`
}

// Request asks for the rules of the schema Key to be evaluated on Object.
// The schema (an openAPIV3Schema, v1 JSON) is sent with the first request
// for its key only. A request with Compile set asks for that instead.
type Request struct {
	Key     string          `json:"key,omitempty"`
	Schema  json.RawMessage `json:"schema,omitempty"`
	Object  json.RawMessage `json:"object,omitempty"`
	Compile *Compile        `json:"compile,omitempty"`
	Policy  *PolicyCompile  `json:"policy,omitempty"`
	CRD     *CRDCompile     `json:"crd,omitempty"`
}

// CRDCompile asks for the x-kubernetes-validations rules of a new
// CustomResourceDefinition's openAPIV3Schema (v1 JSON), at Field, to be
// compiled as kube-apiserver compiles them when it validates the CRD
// (VAL-95). SchemaErrors are the fields of the schema's other errors: the
// rules of a node with one at or below it are not compiled.
type CRDCompile struct {
	Schema       json.RawMessage `json:"schema"`
	Field        string          `json:"field"`
	SchemaErrors []string        `json:"schemaErrors,omitempty"`
}

// An Expression is a kind of CEL expression that kube-apiserver compiles
// when it validates the object that holds it.
type Expression string

const (
	// DeviceSelector is a device selector's cel.expression in a
	// ResourceClaim, ResourceClaimTemplate or DeviceClass (VAL-35).
	DeviceSelector Expression = "device-selector"
	// MatchCondition is a matchConditions[].expression of an admission
	// webhook (VAL-83).
	MatchCondition Expression = "match-condition"

	// The expressions of a ValidatingAdmissionPolicy (VAL-106), compiled
	// together (PolicyCompile): its match conditions, its variables (which
	// the expressions after them may use), each validation's expression and
	// messageExpression, each audit annotation's valueExpression.
	PolicyMatchCondition Expression = "policy-match-condition"
	PolicyVariable       Expression = "policy-variable"
	PolicyValidation     Expression = "policy-validation"
	PolicyMessage        Expression = "policy-message-expression"
	PolicyAudit          Expression = "policy-audit-annotation"

	// The mutations of a MutatingAdmissionPolicy (VAL-108), compiled with
	// its match conditions and variables: an applyConfiguration's
	// expression, a jsonPatch's; both see the patch types (Object,
	// JSONPatch).
	PolicyApplyConfiguration Expression = "policy-apply-configuration"
	PolicyJSONPatch          Expression = "policy-json-patch"
)

// Compile asks for Expression, of kind Kind, to be compiled as
// kube-apiserver compiles it on create; the errors are reported at Field.
type Compile struct {
	Kind       Expression `json:"kind"`
	Expression string     `json:"expression"`
	Field      string     `json:"field"`
	// Name is a variable's name.
	Name string `json:"name,omitempty"`
	// Shown, when set, is the value an Invalid error shows instead of
	// Expression (an audit annotation's valueExpression is compiled trimmed
	// and shown as written).
	Shown *string `json:"shown,omitempty"`
}

// PolicyCompile asks for the expressions of one admission policy to be
// compiled in order, as kube-apiserver validates a new policy; Params says
// whether the policy has a paramKind, Variables whether its expressions are
// compiled with composition: a ValidatingAdmissionPolicy that declares
// variables (even ones whose expression is not compiled), every
// MutatingAdmissionPolicy.
type PolicyCompile struct {
	Params      bool      `json:"params,omitempty"`
	Variables   bool      `json:"variables,omitempty"`
	Expressions []Compile `json:"expressions"`
}

// Response is the field errors of the rules that failed, or why the rules
// could not be evaluated.
type Response struct {
	Errors  []Error `json:"errors,omitempty"`
	Failure string  `json:"failure,omitempty"`
}

// Error is a field error as it crosses the pipe; Text is how the helper
// renders it, which the decoded error must render the same.
type Error struct {
	Type   field.ErrorType `json:"type"`
	Field  string          `json:"field"`
	Value  json.RawMessage `json:"value,omitempty"` // absent for a nil bad value
	Omit   bool            `json:"omit,omitempty"`  // the value is left out of the text
	Detail string          `json:"detail"`
	Text   string          `json:"text"`
}

// Encode is the wire form of errs.
func Encode(errs field.ErrorList) []Error {
	out := make([]Error, 0, len(errs))
	for _, e := range errs {
		w := Error{Type: e.Type, Field: e.Field, Detail: e.Detail, Text: e.Error()}
		if _, omit := e.BadValue.(field.OmitValueType); omit {
			w.Omit = true
		} else if e.BadValue != nil {
			raw, err := json.Marshal(e.BadValue)
			if err != nil {
				raw, _ = json.Marshal(fmt.Sprint(e.BadValue))
			}
			w.Value = raw
		}
		out = append(out, w)
	}
	return out
}

// Decode turns wire errors back into field errors.
func Decode(in []Error) (field.ErrorList, error) {
	out := make(field.ErrorList, 0, len(in))
	for _, w := range in {
		e := &field.Error{Type: w.Type, Field: w.Field, Detail: w.Detail}
		if w.Omit {
			e.BadValue = field.OmitValueType{}
		} else if v := bytes.TrimSpace(w.Value); len(v) > 0 && (v[0] == '{' || v[0] == '[') {
			// an object or a list (a rule, a map key) renders as its JSON:
			// kept as sent, its keys in their order
			e.BadValue = json.RawMessage(v)
		} else if len(v) > 0 {
			if err := utiljson.Unmarshal(v, &e.BadValue); err != nil {
				return nil, fmt.Errorf("reading an error's value: %w", err)
			}
		}
		if got := e.Error(); got != w.Text {
			return nil, fmt.Errorf("an error does not survive the pipe: %q became %q", w.Text, got)
		}
		out = append(out, e)
	}
	return out, nil
}

// wireValue is x with every integral float64 written with a fraction, so
// that the other side decodes it as a float again, as kube-apiserver
// decoded the request (json 2.0 is a float, 2 an integer).
func wireValue(x any) any {
	switch x := x.(type) {
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) && math.Abs(x) < 1e21 {
			return json.Number(strconv.FormatFloat(x, 'f', -1, 64) + ".0")
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, v := range x {
			out[k] = wireValue(v)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = wireValue(v)
		}
		return out
	}
	return x
}

// Find returns the helper's path: next to the running executable, else on
// PATH.
func Find() (string, error) {
	name := HelperName
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("the %s helper was not found next to limitcheck or on PATH (go install github.com/limitcheck/limitcheck/cmd/%s@latest)", HelperName, HelperName)
}

// Client evaluates rules through the helper, started on first use. It is
// safe for concurrent use; Close stops the helper.
type Client struct {
	mu      sync.Mutex
	connect func() (io.WriteCloser, io.Reader, func() error, error)
	started bool
	stdin   io.WriteCloser
	out     *bufio.Reader
	wait    func() error    // ends the helper once its input is closed
	sent    map[string]bool // keys whose schema the helper has
	broken  error           // why the helper cannot be used, once known
	// compiled keeps the answers to compile requests: a template's claims
	// repeat its selectors once per replica.
	compiled map[Compile]field.ErrorList
	// crds keeps the answers to CRD requests: a CRD is validated when the
	// input is read and again when it is admitted.
	crds map[string]field.ErrorList
}

// NewClient returns a client of the helper at path, or of the one Find
// finds when path is "".
func NewClient(path string) *Client {
	return &Client{sent: map[string]bool{}, connect: func() (io.WriteCloser, io.Reader, func() error, error) {
		if path == "" {
			p, err := Find()
			if err != nil {
				return nil, nil, nil, err
			}
			path = p
		}
		cmd := exec.Command(path)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			return nil, nil, nil, err
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return nil, nil, nil, err
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			return nil, nil, nil, fmt.Errorf("starting %s: %w", path, err)
		}
		return stdin, stdout, cmd.Wait, nil
	}}
}

// NewClientOver returns a client that talks to a server already connected:
// requests go to in, answers come from out; Close closes in and calls wait.
// Tests run the helper's server in-process this way.
func NewClientOver(in io.WriteCloser, out io.Reader, wait func() error) *Client {
	return &Client{sent: map[string]bool{}, connect: func() (io.WriteCloser, io.Reader, func() error, error) {
		return in, out, wait, nil
	}}
}

// EvaluateRules evaluates the rules of schema, named by key (the same key
// always names the same schema), on obj.
func (c *Client) EvaluateRules(key string, schema []byte, obj map[string]any) (field.ErrorList, error) {
	object, err := json.Marshal(wireValue(obj))
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	req := Request{Key: key, Object: object}
	if !c.sent[key] {
		req.Schema = schema
	}
	errs, err := c.call(&req)
	if err == nil {
		c.sent[key] = true
	}
	return errs, err
}

// CompileExpression compiles expression, of kind kind, as kube-apiserver
// does when it validates the object that holds it at path p, and returns
// the errors it gives there: none when the expression compiles.
func (c *Client) CompileExpression(kind Expression, expression string, p *field.Path) (field.ErrorList, error) {
	req := Compile{Kind: kind, Expression: expression, Field: p.String()}
	c.mu.Lock()
	defer c.mu.Unlock()
	if errs, ok := c.compiled[req]; ok {
		return slices.Clone(errs), nil
	}
	errs, err := c.call(&Request{Compile: &req})
	if err != nil {
		return nil, err
	}
	if c.compiled == nil {
		c.compiled = map[Compile]field.ErrorList{}
	}
	c.compiled[req] = slices.Clone(errs)
	return errs, nil
}

// CompilePolicy compiles the expressions of one admission policy as
// kube-apiserver does when it validates the new policy, and returns each
// one's errors by its Field: none for an expression that compiles.
func (c *Client) CompilePolicy(policy *PolicyCompile) (map[string]field.ErrorList, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	errs, err := c.call(&Request{Policy: policy})
	if err != nil {
		return nil, err
	}
	byField := map[string]field.ErrorList{}
	for _, e := range errs {
		byField[e.Field] = append(byField[e.Field], e)
	}
	return byField, nil
}

// CompileCRD compiles the x-kubernetes-validations rules of a new CRD's
// openAPIV3Schema (v1 JSON) at p as kube-apiserver does when it validates
// the CRD, the rules of nodes with one of schemaErrs at or below them left
// out, and returns the errors it gives: compile errors, estimated costs over
// the limits, oldSelf where it cannot be used.
func (c *Client) CompileCRD(schema []byte, p *field.Path, schemaErrs []string) (field.ErrorList, error) {
	req := CRDCompile{Schema: schema, Field: p.String(), SchemaErrors: schemaErrs}
	key, err := json.Marshal(&req)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if errs, ok := c.crds[string(key)]; ok {
		return slices.Clone(errs), nil
	}
	errs, err := c.call(&Request{CRD: &req})
	if err != nil {
		return nil, err
	}
	if c.crds == nil {
		c.crds = map[string]field.ErrorList{}
	}
	c.crds[string(key)] = slices.Clone(errs)
	return errs, nil
}

// call sends one request and reads its answer, starting the helper first
// if need be; c.mu is held.
func (c *Client) call(req *Request) (field.ErrorList, error) {
	if c.broken != nil {
		return nil, c.broken
	}
	if !c.started {
		in, out, wait, err := c.connect()
		if err != nil {
			c.broken = err
			return nil, err
		}
		c.started, c.stdin, c.out, c.wait = true, in, bufio.NewReaderSize(out, 64<<10), wait
		if err := c.hello(); err != nil {
			c.broken = err
			return nil, err
		}
	}
	line, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	var resp Response
	if _, err = c.stdin.Write(append(line, '\n')); err == nil {
		var answer []byte
		if answer, err = c.out.ReadBytes('\n'); err == nil {
			err = json.Unmarshal(answer, &resp)
		}
	}
	if err != nil {
		c.broken = fmt.Errorf("the %s helper failed: %w", HelperName, err)
		return nil, c.broken
	}
	if resp.Failure != "" {
		return nil, errors.New(resp.Failure)
	}
	return Decode(resp.Errors)
}

// hello reads the helper's first line and checks its protocol.
func (c *Client) hello() error {
	line, err := c.out.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("the %s helper failed: %w", HelperName, err)
	}
	var h Hello
	if json.Unmarshal(line, &h) != nil || h.Helper != HelperName {
		return fmt.Errorf("the %s helper does not answer as one: %.80q", HelperName, line)
	}
	if h.Protocol != Protocol {
		return fmt.Errorf("the %s helper speaks protocol %d, this limitcheck needs %d: install both from the same version (go install github.com/limitcheck/limitcheck/cmd/...)", HelperName, h.Protocol, Protocol)
	}
	return nil
}

// Close stops the helper, if it was started.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.started {
		return nil
	}
	c.started = false
	c.stdin.Close()
	return c.wait()
}
