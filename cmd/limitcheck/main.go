// Command limitcheck simulates kube-apiserver admission (API defaulting, Pod
// validation, the LimitRanger plugin) over Kubernetes manifests, offline, and
// prints each denial as kube-apiserver words it.
package main

import (
	"context"
	"os"

	"github.com/limitcheck/limitcheck/internal/heapbudget"
)

func main() {
	heapbudget.Start(heapbudget.Default)
	os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
