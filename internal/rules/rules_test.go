package rules

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestWireKeepsErrors: every kind of error a rule gives renders the same
// after the pipe, the value left out included.
func TestWireKeepsErrors(t *testing.T) {
	p := field.NewPath("spec", "schedule")
	for _, e := range []*field.Error{
		field.Invalid(field.NewPath("spec"), field.OmitValueType{}, "minReplicas must not exceed maxReplicas"),
		field.Invalid(p, "string", "failed rule: self.size() > 0"),
		field.Forbidden(p, "a ref needs a git repository"),
		field.Required(p, "set it"),
		field.Duplicate(p, map[string]any{"name": "http", "port": int64(80)}),
		// a struct renders as its JSON, fields in their order, not sorted
		field.Invalid(p, struct{ Rule, Message string }{"self.a <= self.b", "a too big"}, "compilation failed"),
		field.Invalid(p, []any{"a", int64(1)}, "a list"),
		field.Invalid(p, 2.0, "a float stays a float"),
		field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"),
		field.Invalid(p, "", "validation failed due to running out of cost budget, no further validation rules will be run"),
	} {
		raw, err := json.Marshal(Encode(field.ErrorList{e}))
		if err != nil {
			t.Fatal(err)
		}
		var wire []Error
		if err := json.Unmarshal(raw, &wire); err != nil {
			t.Fatal(err)
		}
		got, err := Decode(wire)
		if err != nil {
			t.Fatalf("%s: %v", e.Error(), err)
		}
		if len(got) != 1 || got[0].Error() != e.Error() || got[0].Type != e.Type {
			t.Errorf("sent %q, got %v", e.Error(), got)
		}
	}
}

// TestWireValueKeepsFloats: an integral float is sent with a fraction, so
// that the helper decodes it as the float kube-apiserver decoded.
func TestWireValueKeepsFloats(t *testing.T) {
	raw, err := json.Marshal(wireValue(map[string]any{"a": 2.0, "b": int64(2), "c": []any{0.5, -3.0}, "d": 1e21}))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":2.0,"b":2,"c":[0.5,-3.0],"d":1e+21}`; string(raw) != want {
		t.Errorf("got %s, want %s", raw, want)
	}
}

// TestClientProtocol: the schema goes with the first request of its key
// only, answers become field errors, a failure an error, and a helper that
// stops answering makes every later call fail with the same error.
func TestClientProtocol(t *testing.T) {
	reqR, reqW := io.Pipe()
	respR, respW := io.Pipe()
	var requests []Request
	done := make(chan error, 1)
	go func() {
		hello, _ := json.Marshal(Hello{Helper: HelperName, Protocol: Protocol})
		respW.Write(append(hello, '\n'))
		in := bufio.NewScanner(reqR)
		n := 0
		for in.Scan() {
			var req Request
			if err := json.Unmarshal(in.Bytes(), &req); err != nil {
				done <- err
				return
			}
			requests = append(requests, req)
			n++
			var resp Response
			switch n {
			case 1:
				resp.Errors = Encode(field.ErrorList{field.Invalid(field.NewPath("spec"), field.OmitValueType{}, "too big")})
			case 2:
				resp.Failure = "compiling the rules: boom"
			default:
				respW.Close()
				done <- nil
				return
			}
			line, _ := json.Marshal(resp)
			respW.Write(append(line, '\n'))
		}
		done <- nil
	}()
	c := NewClientOver(reqW, respR, func() error { return <-done })
	obj := map[string]any{"spec": map[string]any{"size": int64(3)}}
	errs, err := c.EvaluateRules("k1", []byte(`{"type":"object"}`), obj)
	if err != nil || len(errs) != 1 || errs[0].Error() != "spec: Invalid value: too big" {
		t.Fatalf("first call: %v %v", errs, err)
	}
	if _, err := c.EvaluateRules("k1", []byte(`{"type":"object"}`), obj); err == nil || err.Error() != "compiling the rules: boom" {
		t.Fatalf("second call: %v", err)
	}
	_, err = c.EvaluateRules("k2", []byte(`{}`), obj)
	if err == nil || !strings.HasPrefix(err.Error(), "the limitcheck-cel helper failed: ") {
		t.Fatalf("third call: %v", err)
	}
	if _, again := c.EvaluateRules("k2", nil, obj); again != err {
		t.Errorf("after a failure: %v, want the same %v", again, err)
	}
	c.Close()
	if len(requests) != 3 || len(requests[0].Schema) == 0 || len(requests[1].Schema) != 0 || len(requests[2].Schema) == 0 {
		t.Errorf("schemas sent: %d requests, %v", len(requests), requests)
	}
}

// TestHelperNotFound: without the helper next to limitcheck or on PATH, the
// error says how to install it.
func TestHelperNotFound(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	c := NewClient("")
	_, err := c.EvaluateRules("k", []byte(`{}`), map[string]any{})
	want := "the limitcheck-cel helper was not found next to limitcheck or on PATH (go install github.com/limitcheck/limitcheck/cmd/limitcheck-cel@latest)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close of a client that never started: %v", err)
	}
}

// TestHelperProtocol: a helper of another protocol, or a program that is no
// helper, is refused with a clear error before any request.
func TestHelperProtocol(t *testing.T) {
	for _, tc := range []struct{ first, want string }{
		{`{"helper":"limitcheck-cel","protocol":1}`, "the limitcheck-cel helper speaks protocol 1, this limitcheck needs 4: install both from the same version (go install github.com/limitcheck/limitcheck/cmd/...)"},
		{`usage: something else`, `the limitcheck-cel helper does not answer as one: "usage: something else\n"`},
	} {
		reqR, reqW := io.Pipe()
		go io.Copy(io.Discard, reqR)
		c := NewClientOver(reqW, strings.NewReader(tc.first+"\n"), func() error { return nil })
		_, err := c.EvaluateRules("k", []byte(`{}`), map[string]any{})
		if err == nil || err.Error() != tc.want {
			t.Errorf("got %v\nwant %s", err, tc.want)
		}
		c.Close()
	}
}
