package render

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"

	"github.com/limitcheck/limitcheck/internal/check"
)

// junitFormat writes a JUnit XML report (CI test report viewers): one
// testsuite per input file in input order, one testcase per document; a denial
// is a failure, an unreadable document or an internal error an error, a skipped
// kind a skipped test.
type junitFormat struct{}

func (junitFormat) Description() string {
	return "JUnit XML: a test suite per file, a test case per object"
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
	Skipped   *junitSkipped `xml:"skipped"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

func (junitFormat) Render(w io.Writer, r *check.Report, _ Options) error {
	doc := junitSuites{Name: "limitcheck", Suites: []junitSuite{}}
	index := map[string]int{} // file → suite
	for i := range r.Entries {
		e := &r.Entries[i]
		file := e.Pos.File
		if e.Err != nil && e.Err.File != "" {
			file = e.Err.File
		}
		si, ok := index[file]
		if !ok {
			si = len(doc.Suites)
			index[file] = si
			doc.Suites = append(doc.Suites, junitSuite{Name: file})
		}
		s := &doc.Suites[si]
		c := newJUnitCase(e)
		s.Tests++
		switch {
		case c.Failure != nil:
			s.Failures++
		case c.Error != nil:
			s.Errors++
		case c.Skipped != nil:
			s.Skipped++
		}
		s.Cases = append(s.Cases, c)
	}
	for _, s := range doc.Suites {
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Skipped += s.Skipped
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// newJUnitCase: classname is the namespace, name `KIND NAME` (`document at
// line L` for what is no object); a denial's failure has kube-apiserver's
// message as its message and, as its text, every distinct reason's full message
// with its parts.
func newJUnitCase(e *check.Entry) junitCase {
	res := &e.Result
	c := junitCase{Classname: res.Namespace, Name: res.Kind + " " + res.Name}
	if e.Err != nil || res.Kind == "" {
		c.Name = "document at line " + strconv.Itoa(e.Pos.Line)
	}
	var denials, warnings []string
	for _, f := range entryFindings(e) {
		switch {
		case f.Rule == ruleInputError, f.Rule == ruleInternalError:
			c.Error = &junitProblem{Message: f.Message, Type: f.Rule, Text: f.Message}
		case f.Rule == ruleWarning:
			warnings = append(warnings, "warning: "+f.Message)
		case isLintRule(f.Rule):
			warnings = append(warnings, "warning: "+f.Rule+": "+f.Message)
		default:
			if c.Failure == nil {
				c.Failure = &junitProblem{Message: f.Message, Type: f.Stage}
			}
			denials = append(denials, f.fullMessage())
		}
	}
	if c.Failure != nil {
		c.Failure.Text = strings.Join(denials, "\n")
	}
	if c.Error == nil && c.Failure == nil && res.Skipped {
		c.Skipped = &junitSkipped{Message: res.SkipReason}
	}
	if len(warnings) > 0 {
		c.SystemOut = strings.Join(warnings, "\n")
	}
	return c
}
