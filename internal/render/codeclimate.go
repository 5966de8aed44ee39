package render

import (
	"encoding/json"
	"io"
	"path/filepath"

	"github.com/limitcheck/limitcheck/internal/check"
)

// codeClimateFormat writes GitLab's code quality report: a JSON array of
// Code Climate issues, one per finding, with the same rule IDs and
// fingerprints as -o sarif.
type codeClimateFormat struct{}

func (codeClimateFormat) Description() string {
	return "GitLab code quality report (Code Climate JSON)"
}

type codeClimateIssue struct {
	Description string              `json:"description"`
	CheckName   string              `json:"check_name"`
	Fingerprint string              `json:"fingerprint"`
	Severity    string              `json:"severity"`
	Location    codeClimateLocation `json:"location"`
}

type codeClimateLocation struct {
	Path  string           `json:"path"`
	Lines codeClimateLines `json:"lines"`
}

type codeClimateLines struct {
	Begin int `json:"begin"`
}

func (codeClimateFormat) Render(w io.Writer, r *check.Report, _ Options) error {
	issues := []codeClimateIssue{}
	for _, f := range collectFindings(r) {
		severity := "major"
		if f.Level == levelWarning {
			severity = "minor"
		}
		issues = append(issues, codeClimateIssue{
			Description: f.Object() + ": " + f.Message,
			CheckName:   f.Rule,
			Fingerprint: f.Fingerprint(),
			Severity:    severity,
			Location:    codeClimateLocation{Path: filepath.ToSlash(f.File), Lines: codeClimateLines{Begin: max(f.Line, 1)}},
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(issues)
}
