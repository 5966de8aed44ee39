package render

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/limitcheck/limitcheck/internal/check"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/eval/status"
)

// Rule IDs of the findings that are not denials; a denial's rule is
// STAGE/REASON (ruleID).
const (
	ruleInputError    = "input/error"
	ruleInternalError = "internal/error"
	ruleWarning       = "warning"
)

// Levels of a finding.
const (
	levelError   = "error"
	levelWarning = "warning"
)

// finding is one line of a CI report: a denial (one per distinct refusal
// reason of a workload's created objects), an unreadable document, an
// internal error or a warning. The CI formats (sarif, github, codeclimate,
// markdown) all list the same findings, in input order.
type finding struct {
	Rule  string // ruleID
	Level string // levelError or levelWarning
	Stage string // the denial's stage, "" for the others
	// File and Line locate the document (the error's own line for an
	// unreadable one); Source is its Helm `# Source:` template, if any.
	File   string
	Line   int
	Source string
	// Kind, Namespace and Name are the object's ("" for an unreadable document).
	Kind, Namespace, Name string
	// Message is the exact message: kube-apiserver's for a denial (prefixed
	// with `N of M replicas admitted; KIND NAME: ` for a workload's created
	// object), the loader's for an unreadable document.
	Message string
	// Parts are the denial's distinct reasons when there are several.
	Parts []string
}

// Object is `KIND NAMESPACE/NAME`, or "document" for an unreadable one.
func (f *finding) Object() string {
	if f.Kind == "" {
		return "document"
	}
	if f.Namespace == "" {
		return f.Kind + " " + f.Name
	}
	return f.Kind + " " + f.Namespace + "/" + f.Name
}

// Fingerprint is a stable hash of what the finding is about, without its line
// (which moves when the file is edited), so that code scanning and code
// quality reports recognise it across runs.
func (f *finding) Fingerprint() string {
	h := sha256.New()
	for _, s := range []string{f.Rule, filepath.ToSlash(f.File), f.Kind + "/" + f.Namespace + "/" + f.Name, f.Message} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Title is a short heading: `KIND NAMESPACE/NAME denied (STAGE)`, `KIND
// NAMESPACE/NAME warning`, `unreadable document`, `internal error`.
func (f *finding) Title() string {
	switch f.Rule {
	case ruleInputError:
		return "unreadable document"
	case ruleInternalError:
		return f.Object() + ": internal error"
	case ruleWarning:
		return f.Object() + ": warning"
	}
	if isLintRule(f.Rule) {
		return f.Object() + ": " + f.Rule
	}
	return f.Object() + " denied (" + f.Stage + ")"
}

// ruleID is STAGE/REASON of a denial in kebab case: validation/invalid,
// limitranger/forbidden, storage/already-exists; a 500 is STAGE/internal.
func ruleID(d *status.Denial) string {
	stage := string(d.Stage)
	if stage == "" {
		stage = "admission"
	}
	reason := string(d.Reason)
	switch {
	case d.Code == http.StatusInternalServerError:
		reason = "internal"
	case reason == "" && d.Code != 0:
		reason = http.StatusText(int(d.Code))
	case reason == "":
		reason = "denied"
	}
	return stage + "/" + kebab(reason)
}

// kebab turns AlreadyExists or "Already Exists" into already-exists.
func kebab(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case unicode.IsUpper(r):
			if i > 0 && !strings.HasSuffix(b.String(), "-") {
				b.WriteByte('-')
			}
			b.WriteRune(unicode.ToLower(r))
		case r == ' ' || r == '_':
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
				b.WriteByte('-')
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ruleHelp is the short help text of a rule.
func ruleHelp(id string) string {
	switch id {
	case ruleInputError:
		return "The document could not be read as a Kubernetes object; kube-apiserver would answer 400 Bad Request."
	case ruleInternalError:
		return "limitcheck failed on this object; this is a bug in limitcheck, please report it."
	case ruleWarning:
		return "kube-apiserver would admit the object with a warning."
	}
	if isLintRule(id) {
		return "A lint finding: the policy is admitted but refuses what it is meant to admit, limits nothing, or depends on kube-apiserver's listing order (" + id + ", LINT in docs/behaviour.md)."
	}
	stage, reason, _ := strings.Cut(id, "/")
	var what string
	switch stage {
	case string(status.StageValidation):
		what = "The object fails kube-apiserver's validation"
	case string(status.StageLimitRanger):
		what = "The LimitRanger admission plugin refuses the object: it is outside a LimitRange's bounds"
	case string(status.StageQuota):
		what = "The ResourceQuota admission plugin refuses the object: it exceeds a quota of its namespace"
	case string(status.StagePriority):
		what = "The Priority admission plugin refuses the object's priority class"
	case string(status.StageRuntimeClass):
		what = "The RuntimeClass admission plugin refuses the object's runtime class"
	case string(status.StageServiceAccount):
		what = "The ServiceAccount admission plugin refuses the object: its service account cannot exist"
	case string(status.StageNamespaceLifecycle):
		what = "The NamespaceLifecycle admission plugin refuses the object: its namespace does not exist"
	case string(status.StageStorage):
		what = "Storage refuses the object"
	case string(status.StageDecoding):
		what = "kube-apiserver cannot decode the object: under kubectl's strict field validation, a field its schema does not know is an error"
	default:
		what = "kube-apiserver refuses the object at the " + stage + " stage"
	}
	return what + " (" + reason + ")."
}

// collectFindings lists the report's findings in input order. Skipped
// documents are not findings.
func collectFindings(r *check.Report) []finding {
	var out []finding
	for i := range r.Entries {
		out = append(out, entryFindings(&r.Entries[i])...)
	}
	return out
}

func entryFindings(e *check.Entry) []finding {
	if e.Err != nil {
		f := finding{Rule: ruleInputError, Level: levelError, File: e.Err.File, Line: e.Err.Line, Message: e.Err.Error()}
		if f.File == "" {
			f.File = e.Pos.File
		}
		if f.Line == 0 {
			f.Line = e.Pos.Line
		}
		// The message without its FILE[:LINE]: location, as the text report prints it.
		if e.Err.File != "" {
			loc := e.Err.File
			if e.Err.Line > 0 {
				loc += ":" + strconv.Itoa(e.Err.Line)
			}
			f.Message = strings.TrimPrefix(f.Message, loc+": ")
		}
		// And what the reading noticed (a "---" left out, say).
		return append([]finding{f}, warningFindings(entryBase(e), e.Result.Warnings)...)
	}
	res := &e.Result
	base := entryBase(e)
	var out []finding
	switch {
	case res.Internal != "":
		f := base
		f.Rule, f.Level, f.Message = ruleInternalError, levelError, res.Internal
		out = append(out, f)
	case !res.Skipped && !res.Allowed:
		out = append(out, denialFindings(base, res)...)
	}
	return append(out, warningFindings(base, res.Warnings)...)
}

// entryBase is the finding of an entry's document, without rule or message.
func entryBase(e *check.Entry) finding {
	res := &e.Result
	return finding{File: e.Pos.File, Line: e.Pos.Line, Source: e.Pos.Source, Kind: res.Kind, Namespace: res.Namespace, Name: shownName(res)}
}

// warningFindings: one finding per warning, at base.
func warningFindings(base finding, warnings []string) []finding {
	var out []finding
	for _, w := range warnings {
		f := base
		f.Rule, f.Level, f.Message = ruleWarning, levelWarning, w
		// A lint finding (`lint/RULE: MESSAGE (fix: FIX)`) keeps its rule.
		if rule, msg, ok := strings.Cut(w, ": "); ok && strings.HasPrefix(rule, "lint/") && !strings.Contains(rule, " ") {
			f.Rule, f.Message = rule, msg
		}
		out = append(out, f)
	}
	return out
}

// denialFindings: the object's own denial, or for a workload one finding per
// distinct refusal reason of its created objects (the first message of each;
// messages that differ only in the object's name are the same reason).
func denialFindings(base finding, res *eval.Result) []finding {
	if d := res.Denial; d != nil {
		f := base
		f.Rule, f.Level, f.Stage, f.Message = ruleID(d), levelError, string(d.Stage), d.Message
		if len(d.Parts) > 1 {
			f.Parts = d.Parts
		}
		return []finding{f}
	}
	w := res.Workload
	if w == nil {
		f := base
		f.Rule, f.Level, f.Message = "admission/denied", levelError, "denied"
		return []finding{f}
	}
	admitted := strconv.Itoa(w.Admitted) + " of " + Count(w.Replicas, "replica", "replicas") + " admitted"
	var out []finding
	seen := map[string]bool{}
	for i := range w.Created {
		c := &w.Created[i]
		if c.Allowed || c.Denial == nil {
			continue
		}
		rule := ruleID(c.Denial)
		key := rule + "\x00" + strings.ReplaceAll(c.Denial.Message, `"`+c.Name+`"`, `""`)
		if seen[key] {
			continue
		}
		seen[key] = true
		f := base
		f.Rule, f.Level, f.Stage = rule, levelError, string(c.Denial.Stage)
		f.Message = admitted + "; " + c.Kind + " " + c.Name + ": " + c.Denial.Message
		if len(c.Denial.Parts) > 1 {
			f.Parts = c.Denial.Parts
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		f := base
		f.Rule, f.Level, f.Message = "admission/denied", levelError, admitted
		out = append(out, f)
	}
	return out
}

// fullMessage is the message followed by its parts, one per line.
func (f *finding) fullMessage() string {
	if len(f.Parts) == 0 {
		return f.Message
	}
	var b strings.Builder
	b.WriteString(f.Message)
	for _, p := range f.Parts {
		b.WriteString("\n- " + p)
	}
	return b.String()
}

// isLintRule: a lint finding's rule (lint/default-refused, ...), reported by
// check as a warning.
func isLintRule(id string) bool { return strings.HasPrefix(id, "lint/") }
