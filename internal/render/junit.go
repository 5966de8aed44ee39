package render

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

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

// The report's shape; the tags name its XML elements and attributes (the
// tests read reports back with encoding/xml; writeXML writes them).
type junitSuites struct {
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
	return writeJUnit(w, &doc)
}

// writeJUnit writes doc as encoding/xml's Encoder with a two-space indent
// would (the test checks they agree), without linking encoding/xml: its
// package initialization costs every run of limitcheck start-up time.
func writeJUnit(w io.Writer, doc *junitSuites) error {
	b := bufio.NewWriter(w)
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	b.WriteString("<testsuites")
	xmlAttr(b, "name", doc.Name)
	xmlCounts(b, doc.Tests, doc.Failures, doc.Errors, doc.Skipped)
	b.WriteString(">")
	for i := range doc.Suites {
		s := &doc.Suites[i]
		b.WriteString("\n  <testsuite")
		xmlAttr(b, "name", s.Name)
		xmlCounts(b, s.Tests, s.Failures, s.Errors, s.Skipped)
		b.WriteString(">")
		for j := range s.Cases {
			c := &s.Cases[j]
			b.WriteString("\n    <testcase")
			xmlAttr(b, "classname", c.Classname)
			xmlAttr(b, "name", c.Name)
			b.WriteString(">")
			children := false
			for _, p := range []struct {
				tag string
				p   *junitProblem
			}{{"failure", c.Failure}, {"error", c.Error}} {
				if p.p == nil {
					continue
				}
				b.WriteString("\n      <" + p.tag)
				xmlAttr(b, "message", p.p.Message)
				xmlAttr(b, "type", p.p.Type)
				b.WriteString(">")
				xmlText(b, p.p.Text)
				b.WriteString("</" + p.tag + ">")
				children = true
			}
			if c.Skipped != nil {
				b.WriteString("\n      <skipped")
				xmlAttr(b, "message", c.Skipped.Message)
				b.WriteString("></skipped>")
				children = true
			}
			if c.SystemOut != "" {
				b.WriteString("\n      <system-out>")
				xmlText(b, c.SystemOut)
				b.WriteString("</system-out>")
				children = true
			}
			if children {
				b.WriteString("\n    ")
			}
			b.WriteString("</testcase>")
		}
		if len(s.Cases) > 0 {
			b.WriteString("\n  ")
		}
		b.WriteString("</testsuite>")
	}
	if len(doc.Suites) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("</testsuites>\n")
	return b.Flush()
}

func xmlCounts(b *bufio.Writer, tests, failures, errors, skipped int) {
	xmlAttr(b, "tests", strconv.Itoa(tests))
	xmlAttr(b, "failures", strconv.Itoa(failures))
	xmlAttr(b, "errors", strconv.Itoa(errors))
	xmlAttr(b, "skipped", strconv.Itoa(skipped))
}

func xmlAttr(b *bufio.Writer, name, value string) {
	b.WriteString(" " + name + "=\"")
	xmlText(b, value)
	b.WriteString("\"")
}

// xmlText writes s escaped as encoding/xml escapes text and attribute
// values: the five markup characters and tab, newline and carriage return as
// references, and what XML cannot hold (control characters, invalid UTF-8)
// as U+FFFD.
func xmlText(b *bufio.Writer, s string) {
	last := 0
	for i := 0; i < len(s); {
		r, width := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			if !xmlChar(r) || (r == utf8.RuneError && width == 1) {
				esc = "\uFFFD"
			}
		}
		i += width
		if esc == "" {
			continue
		}
		b.WriteString(s[last : i-width])
		b.WriteString(esc)
		last = i
	}
	b.WriteString(s[last:])
}

// xmlChar reports whether XML 1.0 allows r in a document (its Char production).
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// newJUnitCase: classname is the namespace, name `KIND NAME` (`document at
// line L` for what is no object); a denial's failure has kube-apiserver's
// message as its message and, as its text, every distinct reason's full message
// with its parts.
func newJUnitCase(e *check.Entry) junitCase {
	res := &e.Result
	c := junitCase{Classname: res.Namespace, Name: res.Kind + " " + shownName(res)}
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
