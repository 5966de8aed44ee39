// Command genapis writes internal/eval/apis/zz_served.go, the table of kinds
// kube-apiserver serves, from the k8s.io/kubernetes module this module requires
// (see package servedapis). Run it through go generate in internal/eval/apis, or
// from the conformance directory:
//
//	go run ./cmd/genapis -o ../internal/eval/apis/zz_served.go
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/limitcheck/limitcheck/conformance/internal/servedapis"
)

func main() {
	out := flag.String("o", "", "file to write (default: standard output)")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "genapis:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	u, err := servedapis.Derive()
	if err != nil {
		return err
	}
	src, err := servedapis.Render(u)
	if err != nil {
		return err
	}
	if out == "" {
		_, err = os.Stdout.Write(src)
		return err
	}
	return os.WriteFile(out, src, 0o644)
}
