//go:build !unix

package main

import "github.com/rogpeppe/go-internal/testscript"

// cmdMkfifo: named pipes need a Unix system; scripts using it skip elsewhere.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	ts.Skip("mkfifo: named pipes need a Unix system")
}
