package main

import (
	"bytes"
	"testing"

	"github.com/spf13/cobra"
)

// TestSubcommandAlone: a command line naming a subcommand gets a tree with that
// subcommand alone, whose help is byte for byte what the whole tree gives it;
// any other command line gets every subcommand.
func TestSubcommandAlone(t *testing.T) {
	help := func(root *cobra.Command, name string) string {
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetArgs([]string{name, "--help"})
		if err := root.Execute(); err != nil {
			t.Fatalf("%s --help: %v", name, err)
		}
		return out.String()
	}
	s := streams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}
	if n := len(newCmdRoot("limitcheck", s, nil).Commands()); n != len(subcommands) {
		t.Fatalf("no arguments: %d subcommands, want all %d", n, len(subcommands))
	}
	for _, c := range subcommands {
		alone := newCmdRoot("limitcheck", s, []string{c.name})
		if got := alone.Commands(); len(got) != 1 || got[0].Name() != c.name {
			t.Errorf("%s: the tree has %d subcommands (the first %q), want %s alone", c.name, len(got), got[0].Name(), c.name)
			continue
		}
		if a, w := help(alone, c.name), help(newCmdRoot("limitcheck", s, []string{"help"}), c.name); a != w {
			t.Errorf("%s --help, the subcommand alone:\n%s\nwith all of them:\n%s", c.name, a, w)
		}
	}
}
