// Command limitcheck-cel is limitcheck's helper for custom resources whose
// CRD has x-kubernetes-validations (CEL) rules: limitcheck starts it when an
// input needs the rules evaluated and sends it one request per object on
// standard input (package rules). It is a program of its own so that
// limitcheck does not pay CEL's start-up on every run.
package main

import (
	"os"

	"github.com/limitcheck/limitcheck/internal/rules/celserver"
)

func main() {
	os.Exit(celserver.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
