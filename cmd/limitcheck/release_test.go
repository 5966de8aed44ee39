package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/limitcheck/limitcheck/internal/rules"
)

// TestReleaseConfig keeps .goreleaser.yaml, the krew manifest it writes and
// the Dockerfile in step (goreleaser itself runs only in `make
// release-check`): krew gets the kubectl-limitcheck archives, with LICENSE;
// the image copies the binary its build produces, runs it as its entrypoint
// and as a non-root user, from scratch. The limitcheck archives and the image
// hold the limitcheck-cel helper beside the binary (package rules finds it
// there); krew takes one binary per archive, so its plugin finds the helper
// on PATH.
func TestReleaseConfig(t *testing.T) {
	data, err := os.ReadFile("../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Builds []struct {
			ID     string   `json:"id"`
			Binary string   `json:"binary"`
			Env    []string `json:"env"`
		} `json:"builds"`
		Archives []struct {
			ID    string   `json:"id"`
			IDs   []string `json:"ids"`
			Files []string `json:"files"`
		} `json:"archives"`
		Krews []struct {
			Name string   `json:"name"`
			IDs  []string `json:"ids"`
		} `json:"krews"`
		Dockers []struct {
			IDs        []string `json:"ids"`
			Dockerfile string   `json:"dockerfile"`
			ExtraFiles []string `json:"extra_files"`
		} `json:"dockers_v2"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	binary := map[string]string{} // build ID → binary
	for _, b := range cfg.Builds {
		binary[b.ID] = b.Binary
		if !slices.Contains(b.Env, "CGO_ENABLED=0") {
			t.Errorf("build %s is not static (CGO_ENABLED=0)", b.ID)
		}
	}

	if len(cfg.Krews) != 1 || cfg.Krews[0].Name != "limitcheck" {
		t.Fatalf("want one krew manifest named limitcheck, got %+v", cfg.Krews)
	}
	krewArchives := 0
	for _, a := range cfg.Archives {
		if !slices.Contains(cfg.Krews[0].IDs, a.ID) {
			continue
		}
		krewArchives++
		if len(a.IDs) != 1 || binary[a.IDs[0]] != "kubectl-limitcheck" {
			t.Errorf("krew archive %s holds builds %v, want the kubectl-limitcheck binary alone (goreleaser's krew takes one binary per archive)", a.ID, a.IDs)
		}
		if !slices.Contains(a.Files, "LICENSE") {
			t.Errorf("krew archive %s has no LICENSE", a.ID)
		}
	}
	if krewArchives != 1 {
		t.Errorf("krew ids %v match %d archives, want 1", cfg.Krews[0].IDs, krewArchives)
	}

	for _, a := range cfg.Archives {
		if !slices.Contains(cfg.Krews[0].IDs, a.ID) && !slices.ContainsFunc(a.IDs, func(id string) bool { return binary[id] == rules.HelperName }) {
			t.Errorf("archive %s does not hold the %s helper", a.ID, rules.HelperName)
		}
	}
	if len(cfg.Dockers) != 1 || len(cfg.Dockers[0].IDs) != 2 || binary[cfg.Dockers[0].IDs[1]] != rules.HelperName {
		t.Fatalf("want one image of the limitcheck build and its helper's, got %+v", cfg.Dockers)
	}
	d := cfg.Dockers[0]
	bin := binary[d.IDs[0]]
	if bin != "limitcheck" {
		t.Fatalf("the image is of build %q (binary %q), want limitcheck", d.IDs[0], bin)
	}
	df, err := os.ReadFile("../../" + d.Dockerfile)
	if err != nil {
		t.Fatal(err)
	}
	instr := map[string][]string{}
	for _, line := range strings.Split(string(df), "\n") {
		if f := strings.Fields(line); len(f) > 1 && !strings.HasPrefix(f[0], "#") {
			instr[f[0]] = append(instr[f[0]], strings.Join(f[1:], " "))
		}
	}
	want := map[string][]string{
		"FROM":       {"scratch"},
		"ENTRYPOINT": {`["/` + bin + `"]`},
	}
	for k, v := range want {
		if !slices.Equal(instr[k], v) {
			t.Errorf("Dockerfile %s: got %q, want %q", k, instr[k], v)
		}
	}
	for _, b := range []string{bin, rules.HelperName} {
		if !slices.Contains(instr["COPY"], "$TARGETPLATFORM/"+b+" /"+b) {
			t.Errorf("Dockerfile does not COPY $TARGETPLATFORM/%s /%s: %q", b, b, instr["COPY"])
		}
	}
	for _, f := range d.ExtraFiles {
		if !slices.Contains(instr["COPY"], f+" /"+f) {
			t.Errorf("extra file %s is not copied into the image: %q", f, instr["COPY"])
		}
	}
	if u := instr["USER"]; len(u) != 1 || !regexp.MustCompile(`^[1-9][0-9]*(:[1-9][0-9]*)?$`).MatchString(u[0]) {
		t.Errorf("Dockerfile USER %q: want one numeric non-root user (a scratch image has no /etc/passwd)", u)
	}
}
