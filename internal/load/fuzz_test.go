package load

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"
)

func FuzzReadStream(f *testing.F) {
	for _, tc := range streamCases {
		f.Add([]byte(tc.in))
	}
	f.Add([]byte("apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: c\n    resources:\n      limits: {cpu: 1e3, memory: \"1e3\"}\n"))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems:\n- &x {apiVersion: v1, kind: Pod, metadata: {name: a}}\n- *x\n- <<: *x\n  spec: {nodeName: n}\n"))
	f.Add([]byte("\xef\xbb\xbf{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"spec\":{\"containers\":[{\"ports\":[{\"containerPort\":\"x\"}]}]}}"))
	f.Add([]byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","labels":{"a":"b"}},"spec":{"replicas":"3","template":{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1.5.Gi"}},"ports":[{"containerPort":1.5}]}]}}}}`))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, data: {a: 1, a: 2}}\nitems: []\n"))
	f.Add([]byte("apiVersion: v1\nkind: ConfigMap\napiVersion: v1\nkind: Secret\n---\nreplicas: 3\n"))
	f.Add([]byte("\xff\xfea\x00:\x00 \x00b\x00\n\x00"))
	f.Add([]byte("apiVersion: v1\r\nkind: ConfigMap\r\n\x00"))
	f.Add([]byte("{\"kind\": }\n{\"apiVersion\": \"v1\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Reading a byte at a time must give what reading it whole gives,
		// with the limits and options that change the code paths taken.
		compareReads(t, data, typedOpts)
		compareReads(t, data, Options{MaxDocumentBytes: 64, Strict: true})
		var walked []Document
		if err := readReader("fuzz.yaml", iotest.HalfReader(bytes.NewReader(data)), -1, newBudget(int64(len(data)/2+1)), Options{MaxDocumentBytes: 100}, true, func(d Document) bool {
			walked = append(walked, d)
			return true
		}); err != nil && !strings.Contains(err.Msg, "the limit for one run") {
			t.Errorf("readReader: %v", err)
		}
		for _, d := range walked {
			n := 0
			// A document kubectl never reads (Halted) keeps its object
			// beside the reason.
			for _, set := range []bool{d.Object != nil && !d.Halted, d.Err != nil, d.Skip != ""} {
				if set {
					n++
				}
			}
			if n != 1 || (d.Halted && d.Skip == "") {
				t.Errorf("want exactly one of Object, Err and Skip: %+v object=%v err=%v skip=%q", d.Pos, d.Object, d.Err, d.Skip)
			}
		}

		// Lines can never be past the end of the input.
		maxLine := 1 + strings.Count(string(data), "\n") + strings.Count(string(data), "\r")
		lastIndex := -1
		lastItem := -1
		err := ReadStream("fuzz.yaml", strings.NewReader(string(data)), typedOpts, func(d Document) bool {
			if d.Pos.File != "fuzz.yaml" {
				t.Errorf("File = %q", d.Pos.File)
			}
			if d.Pos.Line < 1 || d.Pos.Line > maxLine {
				t.Errorf("Line = %d out of [1, %d]: %+v", d.Pos.Line, maxLine, d.Pos)
			}
			n := 0
			for _, set := range []bool{d.Object != nil && !d.Halted, d.Err != nil, d.Skip != ""} {
				if set {
					n++
				}
			}
			if n != 1 || (d.Halted && d.Skip == "") {
				t.Errorf("want exactly one of Object, Err and Skip: %+v object=%v err=%v skip=%q", d.Pos, d.Object, d.Err, d.Skip)
			}
			if d.Err != nil {
				if d.Err.Line < 1 || d.Err.Line > maxLine || d.Err.File != "fuzz.yaml" {
					t.Errorf("bad error location: %#v", d.Err)
				}
				if strings.Contains(d.Err.Msg, "internal error") {
					t.Errorf("recovered panic: %v", d.Err)
				}
			}
			for _, w := range d.Warnings {
				if w.Line < 1 || w.Line > maxLine {
					t.Errorf("warning line %d out of [1, %d]: %s", w.Line, maxLine, w.Msg)
				}
			}
			if d.Pos.Index < lastIndex {
				t.Errorf("Index went from %d to %d", lastIndex, d.Pos.Index)
			}
			if d.Pos.Index != lastIndex {
				lastItem = -1
			}
			if d.Pos.Item < -1 || (d.Pos.Item >= 0 && d.Pos.Item != lastItem+1) {
				t.Errorf("Item %d after %d", d.Pos.Item, lastItem)
			}
			lastIndex, lastItem = d.Pos.Index, d.Pos.Item
			return true
		})
		if err != nil {
			t.Errorf("ReadStream: %v", err)
		}
	})
}
