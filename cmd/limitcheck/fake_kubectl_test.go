package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// fakeKubectl stands in for kubectl in the tests (TestMain puts it on PATH
// as "kubectl"; TestREADME uses it in-process the same way). It accepts only
// the command lines limitcheck's --from-cluster runs, with the flags a real
// kubectl accepts in the forms it accepts them, and refuses anything else as
// kubectl does. The cluster it serves is the directory $FAKE_KUBECTL:
//
//   - current-context: the kubeconfig's current context (absent: none is set);
//   - unreachable: when present, every get fails with its content, as kubectl
//     does when it cannot reach the server;
//   - KEY: the stdout of the command whose arguments, connection flags left
//     out, joined with "_", are KEY (get_pods_-n_shop_-o_name); KEY.err: its
//     stderr, and the command fails. With neither, a get answers as kubectl
//     does when nothing is found (a get of one object by name: NotFound);
//
// Every command line is appended to the file $FAKE_KUBECTL_LOG, when set.
// With $FAKE_KUBECTL unset there is no kubeconfig: no current context, and
// gets fail as kubectl does without one.
func fakeKubectl() {
	os.Exit(fakeKubectlMain(os.Args[1:]))
}

var (
	fakeResourceRE  = regexp.MustCompile(`^[a-z][a-z0-9]*(\.[a-z0-9]([a-z0-9.-]*[a-z0-9])?)?$`)
	fakeNamespaceRE = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	fakeTimeoutRE   = regexp.MustCompile(`^[0-9]+(ns|us|µs|ms|s|m|h)?$`)
)

func fakeKubectlMain(args []string) int {
	dir := os.Getenv("FAKE_KUBECTL")
	if log := os.Getenv("FAKE_KUBECTL_LOG"); log != "" {
		f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, "kubectl "+strings.Join(args, " "))
			f.Close()
		}
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, format+"\n", a...)
		return 1
	}
	// The connection flags, in the --flag=value form.
	var words []string
	for _, a := range args {
		name, value, ok := strings.Cut(a, "=")
		switch {
		case !strings.HasPrefix(a, "--"):
			words = append(words, a)
		case !ok || value == "":
			if name == "--context" || name == "--kubeconfig" || name == "--request-timeout" {
				return fail("error: flag needs an argument: %s", name)
			}
			return fail("error: unknown flag: %s\nSee 'kubectl --help' for usage.", name)
		case name == "--context" || name == "--kubeconfig":
		case name == "--request-timeout":
			if !fakeTimeoutRE.MatchString(value) {
				return fail("error: invalid argument %q for \"--request-timeout\" flag: must be a single integer followed by a unit (e.g. 1s, 2m, 3h)", value)
			}
			if _, err := time.ParseDuration(value); err != nil && strings.ContainsAny(value, "nsumh") {
				return fail("error: invalid argument %q for \"--request-timeout\" flag: %v", value, err)
			}
		default:
			return fail("error: unknown flag: %s\nSee 'kubectl --help' for usage.", name)
		}
	}
	if dir == "" {
		if len(words) == 2 && words[0] == "config" && words[1] == "current-context" {
			return fail("error: current-context is not set")
		}
		return fail("The connection to the server localhost:8080 was refused - did you specify the right host or port?")
	}
	switch {
	case len(words) == 2 && words[0] == "config" && words[1] == "current-context":
		b, err := os.ReadFile(filepath.Join(dir, "current-context"))
		if err != nil {
			return fail("error: current-context is not set")
		}
		fmt.Print(string(b))
		return 0
	case len(words) >= 1 && words[0] == "get":
	default:
		return fail("error: unknown command %q for \"kubectl\"", strings.Join(words, " "))
	}
	// get RESOURCE[,RESOURCE...] [-n NS] -o json|name
	if len(words) < 2 {
		return fail("You must specify the type of resource to get.")
	}
	for _, r := range strings.Split(words[1], ",") {
		if !fakeResourceRE.MatchString(r) {
			return fail("error: the server doesn't have a resource type %q", r)
		}
	}
	ns, output, name := "", "", ""
	first := 2
	if len(words) > 2 && !strings.HasPrefix(words[2], "-") {
		// get RESOURCE NAME: one object, or kubectl's NotFound.
		name, first = words[2], 3
	}
	for i := first; i < len(words); i += 2 {
		if i+1 >= len(words) {
			return fail("error: flag needs an argument: %s", words[i])
		}
		switch words[i] {
		case "-n":
			ns = words[i+1]
			if !fakeNamespaceRE.MatchString(ns) {
				return fail("error: invalid namespace %q", ns)
			}
		case "-o":
			output = words[i+1]
			if output != "json" && output != "name" {
				return fail("error: unable to match a printer suitable for the output format %q", output)
			}
		default:
			return fail("error: arguments in resource/name form must have a single resource and name")
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "unreachable")); err == nil {
		fmt.Fprint(os.Stderr, string(b))
		return 1
	}
	key := strings.Join(words, "_")
	if b, err := os.ReadFile(filepath.Join(dir, key+".err")); err == nil {
		fmt.Fprint(os.Stderr, string(b))
		return 1
	}
	if b, err := os.ReadFile(filepath.Join(dir, key)); err == nil {
		fmt.Print(string(b))
		return 0
	}
	if name != "" {
		plural := words[1]
		if !strings.HasSuffix(plural, "s") {
			plural += "s"
		}
		return fail("Error from server (NotFound): %s %q not found", plural, name)
	}
	if output == "json" {
		fmt.Println(`{"apiVersion":"v1","items":[],"kind":"List","metadata":{"resourceVersion":""}}`)
		return 0
	}
	if ns == "" {
		fmt.Fprintln(os.Stderr, "No resources found")
	} else {
		fmt.Fprintf(os.Stderr, "No resources found in %s namespace.\n", ns)
	}
	return 0
}
