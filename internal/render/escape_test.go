package render

import (
	"bytes"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/quota"
	"github.com/limitcheck/limitcheck/internal/eval/status"
	"github.com/limitcheck/limitcheck/internal/load"
)

func TestEscape(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"web-0", "web-0"},
		{"", ""},
		{"ünïcödé ✓ 日本", "ünïcödé ✓ 日本"},
		// kubectl's printers.WriteEscaped.
		{"evil\x1b[31m", "evil^[[31m"},
		{"a\rb", `a\rb`},
		// The rest of C0, DEL, C1 and bytes that are not UTF-8.
		{"web\x1b[31m\nfake.yaml:1: ok", `web^[[31m\nfake.yaml:1: ok`},
		{"a\tb\x00c\x07\x08\x0c\x0b\x7f", `a\tb\x00c\a\b\f\v\x7f`},
		{"csi\u009b31m", `csi\u009b31m`},
		{"nel\u0085", `nel\u0085`},
		{"raw\x9b31m", `raw\x9b31m`},
		{"cut\xe6\x97", `cut\xe6\x97`},
	} {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTextEscapesInput: everything the text report takes from the input is
// escaped: file names, Helm Source paths, kinds, namespaces, names, messages,
// message parts, warnings, read errors, skipped kinds and the quota table.
func TestTextEscapesInput(t *testing.T) {
	const evil = "x\x1b[31m\nforged"
	rq := &corev1.ResourceQuota{
		ObjectMeta: metav1.ObjectMeta{Name: "q" + evil, Namespace: "ns" + evil},
		Status: corev1.ResourceQuotaStatus{
			Hard: corev1.ResourceList{corev1.ResourceName("pods" + evil): q("2")},
			Used: corev1.ResourceList{corev1.ResourceName("pods" + evil): q("1")},
		},
	}
	rep := &check.Report{Quotas: []quota.State{{Quota: rq}}, Entries: []check.Entry{
		{
			Pos: load.Position{File: "f" + evil + ".yaml", Line: 3, Source: "chart/" + evil + ".yaml"},
			Result: eval.Result{
				APIVersion: "v1", Kind: "Pod", Namespace: "ns" + evil, Name: "web" + evil,
				Denial: &status.Denial{
					Code: 403, Stage: status.StageLimitRanger,
					Message: "pods \"web\" is forbidden: [a" + evil + ", b]",
					Parts:   []string{"a" + evil, "b"},
				},
				Warnings: []string{"w" + evil},
			},
		},
		{Pos: load.Position{File: "g.yaml", Line: 1}, Result: eval.Result{APIVersion: "x/v1", Kind: "K" + evil, Skipped: true, SkipReason: "r" + evil}},
		{Err: &load.Error{File: "bad" + evil + ".yaml", Line: 2, Msg: "m" + evil}},
	}}
	var buf bytes.Buffer
	if err := (textFormat{}).Render(&buf, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	const want = `badx^[[31m\nforged.yaml:2: error: mx^[[31m\nforged` + "\n" +
		`namespace nsx^[[31m\nforged:` + "\n" +
		`fx^[[31m\nforged.yaml:3: Pod nsx^[[31m\nforged/webx^[[31m\nforged (chart/x^[[31m\nforged.yaml): pods "web" is forbidden: [ax^[[31m\nforged, b]` + "\n" +
		`    - ax^[[31m\nforged` + "\n" +
		`    - b` + "\n" +
		`fx^[[31m\nforged.yaml:3: warning: Pod nsx^[[31m\nforged/webx^[[31m\nforged (chart/x^[[31m\nforged.yaml): wx^[[31m\nforged` + "\n" +
		`skipped: 1 Kx^[[31m\nforged: rx^[[31m\nforged` + "\n" +
		`quota usage in namespace nsx^[[31m\nforged:` + "\n" +
		`  QUOTA             RESOURCE             USED  HARD  FREE` + "\n" +
		`  qx^[[31m\nforged  podsx^[[31m\nforged  1     2     1` + "\n" +
		`3 objects: 0 admitted, 1 denied, 1 skipped, 1 error` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if strings.ContainsAny(buf.String(), "\x1b\r") {
		t.Error("a control character reached the report")
	}
}

// An error of a path that has no line (a broken symbolic link met in a
// directory walk, IN-02) is printed at FILE alone, never FILE:0.
func TestTextErrorWithoutLine(t *testing.T) {
	rep := &check.Report{Entries: []check.Entry{
		{Pos: load.Position{File: "dir/b.yaml"}, Err: &load.Error{File: "dir/b.yaml", Msg: "open dir/b.yaml: no such file or directory"}},
	}}
	var buf bytes.Buffer
	if err := (textFormat{}).Render(&buf, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	const want = "dir/b.yaml: error: open dir/b.yaml: no such file or directory\n"
	if got, _, _ := strings.Cut(buf.String(), "\n"); got+"\n" != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}
