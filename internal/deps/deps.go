// Package deps pins modules the packages under construction need until they import them.
package deps

import (
	_ "github.com/fatih/color"
	_ "github.com/olekukonko/tablewriter"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/spf13/cobra"
	_ "go.yaml.in/yaml/v3"
	_ "sigs.k8s.io/json"
	_ "sigs.k8s.io/yaml"
)
