package render

import (
	"io"
	"strconv"
	"strings"

	"github.com/limitcheck/limitcheck/internal/check"
)

// githubFormat writes GitHub Actions workflow commands, one ::error or
// ::warning per finding (annotations on the file and line), then the summary
// line; with Options.StepSummary set it also appends the Markdown summary
// there (the CLI opens $GITHUB_STEP_SUMMARY).
type githubFormat struct{}

func (githubFormat) Description() string {
	return "GitHub Actions annotations (::error/::warning) and a step summary"
}

func (githubFormat) Render(w io.Writer, r *check.Report, o Options) error {
	var b strings.Builder
	for _, f := range collectFindings(r) {
		b.WriteString("::" + f.Level + " file=" + githubProperty(f.File))
		if f.Line > 0 {
			b.WriteString(",line=" + strconv.Itoa(f.Line))
		}
		b.WriteString(",title=" + githubProperty(f.Title()) + "::" + githubMessage(f.fullMessage()) + "\n")
	}
	writeSummary(&b, newPalette(false), r.Summary())
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if o.StepSummary != nil {
		return writeMarkdown(o.StepSummary, r)
	}
	return nil
}

// githubMessage escapes a workflow command's message as the runner unescapes
// it: % first, then CR and LF.
func githubMessage(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// githubProperty escapes a workflow command's property value: as a message,
// and also : and , which would end the value.
func githubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
