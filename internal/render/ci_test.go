package render

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/load"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func renderString(t *testing.T, name string, r *check.Report, o Options) string {
	t.Helper()
	f, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Render(&buf, r, o); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestRuleID(t *testing.T) {
	for _, f := range collectFindings(sampleReport()) {
		if strings.ContainsAny(f.Rule, " ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			t.Errorf("rule %q is not kebab case", f.Rule)
		}
	}
	for in, want := range map[string]string{"AlreadyExists": "already-exists", "Forbidden": "forbidden", "Bad Request": "bad-request", "Invalid": "invalid"} {
		if got := kebab(in); got != want {
			t.Errorf("kebab(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSARIFValid: the log is JSON with the SARIF 2.1.0 shape, deterministic,
// and every result's rule is declared at its index.
func TestSARIFValid(t *testing.T) {
	out := renderString(t, "sarif", sampleReport(), Options{Version: "v1.2.3"})
	if again := renderString(t, "sarif", sampleReport(), Options{Version: "v1.2.3"}); again != out {
		t.Error("two renderings differ")
	}
	if !json.Valid([]byte(out)) {
		t.Fatalf("not JSON:\n%s", out)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "limitcheck" || log.Runs[0].Tool.Driver.Version != "v1.2.3" {
		t.Fatalf("bad header: %+v", log)
	}
	run := log.Runs[0]
	if len(run.Results) == 0 {
		t.Fatal("no results")
	}
	for _, res := range run.Results {
		if res.RuleIndex < 0 || res.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %q: rule index %d does not match", res.RuleID, res.RuleIndex)
		}
		if len(res.PartialFingerprints[sarifFingerprintKey]) != 64 {
			t.Errorf("result %q: fingerprint %v", res.RuleID, res.PartialFingerprints)
		}
	}
	empty := renderString(t, "sarif", &check.Report{}, Options{})
	if !json.Valid([]byte(empty)) || !strings.Contains(empty, `"results": []`) {
		t.Errorf("empty report:\n%s", empty)
	}
}

// TestJUnitValid: the report parses back as XML with consistent counts.
func TestJUnitValid(t *testing.T) {
	out := renderString(t, "junit", sampleReport(), Options{})
	var doc junitSuites
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if doc.Tests != len(sampleReport().Entries) {
		t.Errorf("tests = %d, want %d", doc.Tests, len(sampleReport().Entries))
	}
	var failures, errors, skipped int
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil {
				failures++
			}
			if c.Error != nil {
				errors++
			}
			if c.Skipped != nil {
				skipped++
			}
		}
	}
	if failures != doc.Failures || errors != doc.Errors || skipped != doc.Skipped || failures == 0 || errors == 0 || skipped == 0 {
		t.Errorf("counts %d/%d/%d, cases %d/%d/%d", doc.Failures, doc.Errors, doc.Skipped, failures, errors, skipped)
	}
	// Text from the input that XML must escape survives the round trip.
	r := sampleReport()
	r.Entries[0].Result.Denial.Message = `pods "a<b>&c" is forbidden: ]]> ` + "\n'x'"
	out = renderString(t, "junit", r, Options{})
	doc = junitSuites{}
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if got := doc.Suites[0].Cases[0].Failure.Message; got != r.Entries[0].Result.Denial.Message {
		t.Errorf("message = %q", got)
	}
}

// TestJUnitUnnamed: an object refused before its name was generated is the
// test case of the name it would have had, as the text report shows it
// (PL-04), not of an empty name.
func TestJUnitUnnamed(t *testing.T) {
	r := sampleReport()
	res := &r.Entries[0].Result
	res.Name = ""
	res.Object = &corev1.Pod{ObjectMeta: metav1.ObjectMeta{GenerateName: "web-", Namespace: res.Namespace}}
	var doc junitSuites
	if err := xml.Unmarshal([]byte(renderString(t, "junit", r, Options{})), &doc); err != nil {
		t.Fatal(err)
	}
	if got, want := doc.Suites[0].Cases[0].Name, res.Kind+" web-xxxxx"; got != want {
		t.Errorf("name = %q, want %q", got, want)
	}
}

// TestGitHubEscaping: %, CR and LF are escaped in the message; : and , also in
// properties (file, title), so that input text cannot end a value or forge a command.
func TestGitHubEscaping(t *testing.T) {
	if got, want := githubMessage("50%: a, b\r\nc"), "50%25: a, b%0D%0Ac"; got != want {
		t.Errorf("githubMessage = %q, want %q", got, want)
	}
	if got, want := githubProperty("50%: a, b\r\nc"), "50%25%3A a%2C b%0D%0Ac"; got != want {
		t.Errorf("githubProperty = %q, want %q", got, want)
	}
	r := sampleReport()
	r.Entries = r.Entries[:1]
	r.Entries[0].Pos.File = "a,b:c.yaml"
	r.Entries[0].Result.Name = "w%b"
	r.Entries[0].Result.Denial.Message = "100% used: cpu, memory\n::error::forged"
	r.Entries[0].Result.Denial.Parts = nil
	out := renderString(t, "github", r, Options{})
	want := "::error file=a%2Cb%3Ac.yaml,line=1,title=Pod team-a/w%25b denied (limitranger)::100%25 used: cpu, memory%0A::error::forged\n" +
		"1 object: 0 admitted, 1 denied, 0 skipped\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestGitHubStepSummary: the step summary is the markdown format's output.
func TestGitHubStepSummary(t *testing.T) {
	var summary bytes.Buffer
	renderString(t, "github", sampleReport(), Options{StepSummary: &summary})
	if md := renderString(t, "markdown", sampleReport(), Options{}); summary.String() != md {
		t.Errorf("step summary differs from -o markdown:\n%s\nvs\n%s", summary.String(), md)
	}
	if !strings.Contains(summary.String(), "| compute | requests.cpu | 750m | 2 | 1250m |") {
		t.Errorf("no quota row:\n%s", summary.String())
	}
}

// TestCodeClimate: a JSON array whose fingerprints are SARIF's.
func TestCodeClimate(t *testing.T) {
	var issues []codeClimateIssue
	if err := json.Unmarshal([]byte(renderString(t, "codeclimate", sampleReport(), Options{})), &issues); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(renderString(t, "sarif", sampleReport(), Options{})), &log); err != nil {
		t.Fatal(err)
	}
	if len(issues) != len(log.Runs[0].Results) {
		t.Fatalf("%d issues, %d SARIF results", len(issues), len(log.Runs[0].Results))
	}
	for i, is := range issues {
		res := log.Runs[0].Results[i]
		if is.Fingerprint != res.PartialFingerprints[sarifFingerprintKey] || is.CheckName != res.RuleID {
			t.Errorf("issue %d: %s %s, SARIF %s %v", i, is.CheckName, is.Fingerprint, res.RuleID, res.PartialFingerprints)
		}
	}
	if got := renderString(t, "codeclimate", &check.Report{}, Options{}); got != "[]\n" {
		t.Errorf("empty report: %q", got)
	}
}

// TestLintWarningRule: a lint finding check reports as a warning keeps its
// rule ID in the CI formats, as a warning.
func TestLintWarningRule(t *testing.T) {
	r := &check.Report{Entries: []check.Entry{{
		Pos: load.Position{File: "policy.yaml", Line: 3},
		Result: eval.Result{APIVersion: "v1", Kind: "ResourceQuota", Namespace: "shop", Name: "compute", Allowed: true,
			Warnings: []string{"lint/quota-order: limits pods as ResourceQuota shop/objects does (fix: limit each resource in one quota)"}},
	}}}
	fs := collectFindings(r)
	if len(fs) != 1 || fs[0].Rule != "lint/quota-order" || fs[0].Level != levelWarning || fs[0].Message != "limits pods as ResourceQuota shop/objects does (fix: limit each resource in one quota)" {
		t.Fatalf("findings = %+v", fs)
	}
	if got, want := renderString(t, "github", r, Options{}), "::warning file=policy.yaml,line=3,title=ResourceQuota shop/compute%3A lint/quota-order::limits pods as ResourceQuota shop/objects does (fix: limit each resource in one quota)\n"; !strings.HasPrefix(got, want) {
		t.Errorf("github:\n%s\nwant prefix:\n%s", got, want)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(renderString(t, "sarif", r, Options{})), &log); err != nil {
		t.Fatal(err)
	}
	rules := log.Runs[0].Tool.Driver.Rules
	if len(rules) != 1 || rules[0].ID != "lint/quota-order" || rules[0].DefaultConfiguration.Level != levelWarning {
		t.Errorf("sarif rules = %+v", rules)
	}
	if md := renderString(t, "markdown", r, Options{}); !strings.Contains(md, "### Warnings\n\n- `policy.yaml:3` ResourceQuota shop/compute: lint/quota-order: limits pods") {
		t.Errorf("markdown:\n%s", md)
	}
}

// refJUnit is junitSuites under its root element's name, for encoding/xml.
type refJUnit struct {
	XMLName xml.Name `xml:"testsuites"`
	junitSuites
}

// refJUnitBytes is what encoding/xml's Encoder writes for doc, the reference
// writeJUnit matches.
func refJUnitBytes(t testing.TB, doc junitSuites) string {
	var b strings.Builder
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(refJUnit{junitSuites: doc}); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\n")
	return b.String()
}

func junitBytes(t testing.TB, doc junitSuites) string {
	var b strings.Builder
	if err := writeJUnit(&b, &doc); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestJUnitWriterMatchesEncodingXML: the hand-written writer gives
// encoding/xml's bytes for every shape a report takes (no suites, a suite,
// cases with and without each child) and for text XML must escape.
func TestJUnitWriterMatchesEncodingXML(t *testing.T) {
	tricky := "a<b>&c \"q\" 'a'\t\r\n\x00\x1f\xff \uFFFD ]]> é 😀"
	docs := map[string]junitSuites{
		"none":  {Name: "limitcheck", Suites: []junitSuite{}},
		"nil":   {Name: "limitcheck"},
		"empty": {Name: "", Suites: []junitSuite{{Name: "f.yaml"}}},
		"every child": {Name: "limitcheck", Tests: 4, Failures: 1, Errors: 1, Skipped: 1, Suites: []junitSuite{{
			Name: "a.yaml", Tests: 4, Failures: 1, Errors: 1, Skipped: 1,
			Cases: []junitCase{
				{Classname: "ns", Name: "Pod p"},
				{Classname: "ns", Name: "Pod q", Failure: &junitProblem{Message: "m", Type: "LimitRanger", Text: "m\nn"}, SystemOut: "warning: w"},
				{Name: "document at line 3", Error: &junitProblem{Message: tricky, Type: tricky, Text: tricky}},
				{Classname: tricky, Name: tricky, Skipped: &junitSkipped{Message: tricky}, SystemOut: tricky},
				{Failure: &junitProblem{}, Error: &junitProblem{}, Skipped: &junitSkipped{}},
			},
		}, {Name: tricky, Cases: []junitCase{{}}}}},
	}
	for name, doc := range docs {
		if got, want := junitBytes(t, doc), refJUnitBytes(t, doc); got != want {
			t.Errorf("%s: writeJUnit wrote\n%s\nencoding/xml writes\n%s", name, got, want)
		}
	}
	// And on a whole report.
	var doc junitSuites
	out := renderString(t, "junit", sampleReport(), Options{})
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if want := refJUnitBytes(t, doc); out != want {
		t.Errorf("report: writeJUnit wrote\n%s\nencoding/xml writes\n%s", out, want)
	}
}

// FuzzJUnitText: any text in any place is written as encoding/xml writes it.
func FuzzJUnitText(f *testing.F) {
	for _, s := range []string{"", "a<b>&c", "\"'\t\r\n", "\x00\xff\xfe", "\uFFFD", "é😀", "]]>"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		doc := junitSuites{Name: a, Suites: []junitSuite{{Name: b, Cases: []junitCase{
			{Classname: a, Name: b, Failure: &junitProblem{Message: a, Type: b, Text: a + b}, SystemOut: b},
			{Classname: b, Skipped: &junitSkipped{Message: a}},
		}}}}
		if got, want := junitBytes(t, doc), refJUnitBytes(t, doc); got != want {
			t.Errorf("writeJUnit wrote\n%q\nencoding/xml writes\n%q", got, want)
		}
	})
}
