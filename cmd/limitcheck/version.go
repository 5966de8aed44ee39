package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at release time: go build -ldflags "-X main.version=v1.2.3".
var version string

// versionString is the release version, else the module version `go install`
// recorded, else "dev".
func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func newCmdVersion(s streams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of limitcheck",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := fmt.Fprintf(s.Out, "%s version %s\n", cmd.Root().DisplayName(), versionString()); err != nil {
				return &internalError{err: fmt.Errorf("writing output: %w", err)}
			}
			return nil
		},
	}
}

// noArgs is cobra.NoArgs as a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return inputErrorf("unknown command %q for %q", args[0], cmd.CommandPath())
	}
	return nil
}
