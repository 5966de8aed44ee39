package load

import (
	"bytes"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// kubectl's words for a stream it cannot read (IN-14). kubectl reads each
// file as a stream: it splits YAML at "---" lines into documents, each
// converted on its own, so that a syntax error's line is counted from the
// first line of its document; a stream whose first non-space byte is '{' is
// read as JSON first. Either error ends the reading of that file.

// kubectlParseError frames msg, the words of kubectl's stream decoder, as
// kubectl prints them: "error parsing NAME: msg" (stdin is STDIN).
func kubectlParseError(name, msg string) string {
	return "error parsing " + KubectlSource(name) + ": " + msg
}

// kubectlDoc is a YAML document as kubectl's reader hands it to the
// converter: text, the document from its first content line on, after
// lines lines that kubectl reads as part of it (blank lines and comments,
// the first of them a "---" line when dash is set). Carriage returns before
// a line feed are dropped, as kubectl's line reader drops them.
func kubectlDoc(text []byte, lines int, dash bool) []byte {
	var b bytes.Buffer
	if dash && lines > 0 {
		b.WriteString("---\n")
		lines--
	}
	for ; lines > 0; lines-- {
		b.WriteByte('\n')
	}
	b.Write(bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n")))
	if b.Len() > 0 && b.Bytes()[b.Len()-1] != '\n' {
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// kubectlYAMLError returns the words of kubectl's converter for the
// document doc (as kubectlDoc forms it), "" if it converts: "error
// converting YAML to JSON: yaml: line 3: …", the line counted in doc.
func kubectlYAMLError(doc []byte) string {
	var raw runtime.RawExtension
	if err := yaml.Unmarshal(doc, &raw); err != nil {
		return err.Error()
	}
	return ""
}

// kubectlSeparatorError is kubectl's error for a "---" line followed by
// something other than a comment; rest is what follows the dashes.
func kubectlSeparatorError(rest string) string {
	return "invalid Yaml document separator: " + strings.TrimSpace(rest)
}

// pendingJSON is a JSON syntax error on which kubectl's decoder, having
// decoded at most one JSON value, tries the rest of the stream as YAML: if
// the first YAML document converts, it is read and so is the rest, as
// YAML; if not, the JSON error is kubectl's.
type pendingJSON struct {
	msg       string // "json: offset N: …" or "unexpected EOF"
	line      int    // the line of the error
	startLine int    // the line of the JSON value it is in
	hint      string // a template's hint
}
