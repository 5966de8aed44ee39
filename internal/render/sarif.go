package render

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"slices"

	"github.com/limitcheck/limitcheck/internal/check"
)

// sarifFormat writes a SARIF 2.1.0 log (GitHub code scanning and other static
// analysis viewers): one run, one rule per kind of finding (STAGE/REASON,
// input/error, internal/error, warning) and one result per finding, with a
// line-independent fingerprint so that runs deduplicate.
type sarifFormat struct{}

func (sarifFormat) Description() string {
	return "SARIF 2.1.0 log for code scanning (GitHub, GitLab, IDEs)"
}

const (
	sarifSchema         = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion        = "2.1.0"
	sarifInformationURI = "https://github.com/limitcheck/limitcheck"
	// sarifFingerprintKey names the partialFingerprints entry; bump its
	// version if Fingerprint ever changes.
	sarifFingerprintKey = "limitcheck/v1"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Version        string      `json:"version,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	Help                 sarifMessage `json:"help"`
	DefaultConfiguration sarifConfig  `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifMessage         `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

// sarifURI is a file name as a relative URI reference with forward slashes
// (spaces and <stdin>'s brackets percent-encoded).
func sarifURI(file string) string {
	return (&url.URL{Path: filepath.ToSlash(file)}).String()
}

func (sarifFormat) Render(w io.Writer, r *check.Report, o Options) error {
	fs := collectFindings(r)
	var ids []string
	for _, f := range fs {
		if !slices.Contains(ids, f.Rule) {
			ids = append(ids, f.Rule)
		}
	}
	slices.Sort(ids)
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: "limitcheck", InformationURI: sarifInformationURI, Version: o.Version,
			Rules: make([]sarifRule, 0, len(ids)),
		}},
		Results: make([]sarifResult, 0, len(fs)),
	}
	for _, id := range ids {
		level := levelError
		if id == ruleWarning || isLintRule(id) {
			level = levelWarning
		}
		help := ruleHelp(id)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: id, ShortDescription: sarifMessage{Text: help}, Help: sarifMessage{Text: help}, DefaultConfiguration: sarifConfig{Level: level}})
	}
	for i := range fs {
		f := &fs[i]
		loc := sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: sarifURI(f.File)}}
		if f.Line > 0 {
			loc.Region = &sarifRegion{StartLine: f.Line}
		}
		res := sarifResult{
			RuleID:              f.Rule,
			RuleIndex:           slices.Index(ids, f.Rule),
			Level:               f.Level,
			Message:             sarifMessage{Text: f.Message},
			Locations:           []sarifLocation{{PhysicalLocation: loc}},
			PartialFingerprints: map[string]string{sarifFingerprintKey: f.Fingerprint()},
		}
		if f.Source != "" {
			id := 1
			res.RelatedLocations = []sarifLocation{{
				ID:               &id,
				PhysicalLocation: sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: sarifURI(f.Source)}},
				Message:          &sarifMessage{Text: "Helm template"},
			}}
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}
