// Package render writes a check.Report in one of several output formats. Each
// format lives in its own file and is listed in formats; that registry feeds
// the -o flag's help text and shell completion.
package render

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/limitcheck/limitcheck/internal/check"
)

// Options adjust how a format writes; formats ignore what does not apply to them.
type Options struct {
	// Color enables ANSI colours (the caller decides: --color, NO_COLOR, TERM, tty).
	Color bool
	// Version is limitcheck's version, as `limitcheck version` prints it (-o json,
	// -o sarif report it).
	Version string
	// Quiet leaves the tables out of the text report: findings and the
	// summary line only (--quiet); the documents skipped as no object at all
	// are counted by reason rather than listed one per line.
	Quiet bool
	// Verbose lists in full what a report only counts (diff: the objects
	// denied in both).
	Verbose bool
	// StepSummary, when set, receives the Markdown summary of -o github (the
	// CLI opens $GITHUB_STEP_SUMMARY for append).
	StepSummary io.Writer
}

// Format writes a whole report to w.
type Format interface {
	// Render writes r to w; the only errors are w's.
	Render(w io.Writer, r *check.Report, o Options) error
	// Description is a one-line summary for help texts and shell completion.
	Description() string
}

// Default is the format used when none is asked for.
const Default = "text"

var formats = map[string]Format{
	"codeclimate": codeClimateFormat{},
	"text":        textFormat{},
	"github":      githubFormat{},
	"json":        jsonFormat{},
	"junit":       junitFormat{},
	"markdown":    markdownFormat{},
	"sarif":       sarifFormat{},
}

// Formats lists the format names, sorted.
func Formats() []string {
	return slices.Sorted(maps.Keys(formats))
}

// Lookup returns the named format; an unknown name is an error listing the valid ones.
func Lookup(name string) (Format, error) {
	f, ok := formats[name]
	if !ok {
		return nil, fmt.Errorf("unknown output format %q: valid formats are %s", name, strings.Join(Formats(), ", "))
	}
	return f, nil
}
