package render

import (
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/limitcheck/limitcheck/internal/check"
)

// markdownFormat writes the Markdown summary also appended to GitHub's step
// summary by -o github: the counts, the denials, errors and warnings as lists
// and each namespace's quota Used/Hard/Free table; for a pull-request comment.
type markdownFormat struct{}

func (markdownFormat) Description() string {
	return "Markdown summary: counts, denials and quota tables, for a pull-request comment"
}

func (markdownFormat) Render(w io.Writer, r *check.Report, _ Options) error {
	return writeMarkdown(w, r)
}

// writeMarkdown writes the Markdown summary of r. Everything from the input is
// escaped: control characters as in the text report, then Markdown's and
// HTML's special characters with a backslash.
func writeMarkdown(w io.Writer, r *check.Report) error {
	var b strings.Builder
	b.WriteString("## limitcheck\n\n")
	var summary strings.Builder
	writeSummary(&summary, newPalette(false), r.Summary())
	b.WriteString("**" + mdText(strings.TrimSuffix(summary.String(), "\n")) + "**\n")

	var denied, errs, warnings []finding
	for _, f := range collectFindings(r) {
		switch {
		case f.Rule == ruleInputError, f.Rule == ruleInternalError:
			errs = append(errs, f)
		case f.Rule == ruleWarning, isLintRule(f.Rule):
			warnings = append(warnings, f)
		default:
			denied = append(denied, f)
		}
	}
	writeMarkdownList(&b, "Denied", denied)
	writeMarkdownList(&b, "Errors", errs)
	writeMarkdownList(&b, "Warnings", warnings)

	for i, qs := range r.Quotas {
		q := qs.Quota
		if i == 0 || r.Quotas[i-1].Quota.Namespace != q.Namespace {
			b.WriteString("\n### Quota usage in namespace " + mdText(q.Namespace) + "\n\n")
			b.WriteString("| Quota | Resource | Used | Hard | Free |\n| --- | --- | --- | --- | --- |\n")
		}
		for _, k := range slices.Sorted(maps.Keys(q.Status.Hard)) {
			hard := q.Status.Hard[k]
			used, free := "-", "-"
			if u, ok := q.Status.Used[k]; ok {
				used = u.String()
				f := freeOf(hard, u)
				free = f.String()
				if f.Sign() <= 0 {
					free = "**" + free + "**"
				}
			}
			b.WriteString("| " + mdText(q.Name) + " | " + mdText(string(k)) + " | " + used + " | " + hard.String() + " | " + free + " |\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeMarkdownList: `- FILE:LINE KIND NAMESPACE/NAME (SOURCE): MESSAGE`, the
// parts of a multi-part message nested under it.
func writeMarkdownList(b *strings.Builder, title string, fs []finding) {
	if len(fs) == 0 {
		return
	}
	b.WriteString("\n### " + title + "\n\n")
	for i := range fs {
		f := &fs[i]
		loc := f.File
		if f.Line > 0 {
			loc += ":" + strconv.Itoa(f.Line)
		}
		object := f.Object()
		if f.Source != "" {
			object += " (" + f.Source + ")"
		}
		msg := f.Message
		if isLintRule(f.Rule) {
			msg = f.Rule + ": " + msg
		}
		b.WriteString("- " + mdCode(loc) + " " + mdText(object) + ": " + mdText(msg) + "\n")
		for _, p := range f.Parts {
			b.WriteString("  - " + mdText(p) + "\n")
		}
	}
}

// mdText escapes text for Markdown: control characters as Escape does (so a
// newline cannot end a list item or a table row), then every character that
// Markdown or inline HTML could read as syntax with a backslash.
func mdText(s string) string {
	s = Escape(s)
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>|~&#!", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdCode is s as a code span, its fence longer than any run of backticks in it.
func mdCode(s string) string {
	s = Escape(s)
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
