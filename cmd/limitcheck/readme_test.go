package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADME runs every command of the README's ```console blocks (a line starting
// with "$ " that invokes limitcheck) from the repository root and compares its
// stdout with the lines that follow it in the block.
func TestREADME(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	examples := consoleExamples(string(readme))
	if len(examples) == 0 {
		t.Fatal("README has no console examples")
	}
	updated := string(readme)
	for _, ex := range examples {
		t.Run(strings.Join(ex.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			run(context.Background(), ex.args, strings.NewReader(""), &stdout, &stderr)
			got := stdout.String()
			if *update {
				updated = strings.Replace(updated, ex.line+"\n"+ex.want, ex.line+"\n"+got, 1)
				return
			}
			if got != ex.want {
				t.Errorf("README shows:\n%s\nlimitcheck prints:\n%s\nstderr: %s\n(run go test ./cmd/limitcheck -run TestREADME -update to rewrite the README)", ex.want, got, stderr.String())
			}
		})
	}
	if *update && updated != string(readme) {
		if err := os.WriteFile(filepath.Join(root, "README.md"), []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type example struct {
	line string // the "$ ..." line
	args []string
	want string
}

// consoleExamples extracts commands and their expected output. The command's
// arguments are the words after the last word naming the limitcheck binary.
func consoleExamples(md string) []example {
	var out []example
	inBlock := false
	var cur *example
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "```console"):
			inBlock = true
		case strings.HasPrefix(line, "```") && inBlock:
			flush()
			inBlock = false
		case inBlock && strings.HasPrefix(line, "$ "):
			flush()
			words := strings.Fields(line[2:])
			for i := len(words) - 1; i >= 0; i-- {
				if strings.HasSuffix(strings.Trim(words[i], `"`), "limitcheck") {
					cur = &example{line: line, args: words[i+1:]}
					break
				}
			}
		case inBlock && cur != nil:
			cur.want += line + "\n"
		}
	}
	return out
}
