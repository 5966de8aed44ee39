package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/limitcheck/limitcheck/internal/eval/apis"
)

// version and commit are set at release time:
// go build -ldflags "-X main.version=v1.2.3 -X main.commit=$(git rev-parse HEAD)".
var version, commit string

// readBuildInfo is debug.ReadBuildInfo; tests replace it.
var readBuildInfo = debug.ReadBuildInfo

// versionInfo is what `limitcheck version` prints. The JSON field order is
// documented; do not reorder.
type versionInfo struct {
	// Version is the release version, else the module version `go install`
	// recorded (or the pseudo-version `go build` derives from the checkout),
	// else "dev".
	Version string `json:"version"`
	// Commit is the release commit, else the vcs.revision `go build` records in
	// a git checkout; "" when unknown (`go install module@version` records none).
	Commit string `json:"commit"`
	// Modified is vcs.modified: the work tree had uncommitted changes.
	Modified bool `json:"modified"`
	// KubernetesVersion is the kube-apiserver release whose semantics limitcheck implements.
	KubernetesVersion string `json:"kubernetesVersion"`
	// GoVersion is the Go toolchain the binary was built with.
	GoVersion string `json:"goVersion"`
}

func currentVersion() versionInfo {
	v := versionInfo{Version: version, Commit: commit, KubernetesVersion: apis.KubernetesVersion, GoVersion: runtime.Version()}
	if bi, ok := readBuildInfo(); ok {
		if v.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			v.Version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			v.GoVersion = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if v.Commit == "" {
					v.Commit = s.Value
				}
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if v.Version == "" {
		v.Version = "dev"
	}
	return v
}

// versionString is the version alone, as --version and -o json print it.
func versionString() string { return currentVersion().Version }

// writeText writes the version as `limitcheck version` prints it; the first line
// is what --version prints.
func (v versionInfo) writeText(w io.Writer, name string) error {
	c := v.Commit
	switch {
	case c == "":
		c = "unknown"
	case v.Modified:
		c += " (modified)"
	}
	_, err := fmt.Fprintf(w, "%s version %s\ncommit: %s\nkubernetes: %s\ngo: %s\n", name, v.Version, c, v.KubernetesVersion, v.GoVersion)
	return err
}

func (v versionInfo) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func newCmdVersion(s streams) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "version [-o text|json]",
		Short: "Print the version of limitcheck",
		Long: `Print limitcheck's version, the commit it was built from ("unknown" when the build recorded none; "(modified)" when the work tree had changes), the Kubernetes release whose kube-apiserver semantics it implements and the Go version it was built with.

-o json prints one JSON object: version, commit ("" when unknown), modified, kubernetesVersion and goVersion.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := currentVersion()
			var err error
			switch output {
			case "text":
				err = v.writeText(s.Out, cmd.Root().DisplayName())
			case "json":
				err = v.writeJSON(s.Out)
			default:
				return invalidFlagValue(cmd.Flags().Lookup("output"), output, "must be one of json, text")
			}
			if err != nil {
				return &internalError{err: fmt.Errorf("writing output: %w", err)}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: one of json, text")
	_ = cmd.RegisterFlagCompletionFunc("output", cobra.FixedCompletions([]cobra.Completion{"json", "text"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// noArgs is cobra.NoArgs as a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return inputErrorf("unknown command %q for %q", args[0], cmd.CommandPath())
	}
	return nil
}
