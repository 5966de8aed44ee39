package validation

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/limitcheck/limitcheck/internal/namecheck"
)

// Windows options (VAL-30): the GMSA and user-name fields of a pod's or a
// container's windowsOptions, and HostProcess pods.

// Limits of windowsOptions, as upstream sets them: a credential spec under
// 64 KiB, a user name's domain under 256 and its user at most 104 characters.
const (
	gmsaSpecKiB         = 64
	runAsDomainMaxLen   = 256
	runAsUserNameMaxLen = 104
)

// winPatterns are compiled on first use: few manifests set windowsOptions,
// and start-up should not pay for them.
var winPatterns = sync.OnceValue(func() *winRegexps {
	return &winRegexps{
		ctrlChars: regexp.MustCompile(`[[:cntrl:]]+`),
		// A NetBIOS domain: 1 to 15 characters, none of \ / : * ? " < > |,
		// not starting with a dot.
		netBIOSDomain: regexp.MustCompile(`^[^\\/:\*\?"<>|\.][^\\/:\*\?"<>|]{0,14}$`),
		// A DNS domain: dot-separated labels of letters (either case),
		// digits and inner dashes, each at most 63 characters.
		dnsDomain:        regexp.MustCompile(`^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$`),
		userBadChars:     regexp.MustCompile(`["/\\:;|=,\+\*\?<>@\[\]]`),
		userOnlyDotSpace: regexp.MustCompile(`^[\. ]+$`),
	}
})

type winRegexps struct {
	ctrlChars, netBIOSDomain, dnsDomain, userBadChars, userOnlyDotSpace *regexp.Regexp
}

// validateWindowsOptions checks a pod's or a container's windowsOptions.
// The bad value of each error is the field's pointer, as upstream passes it
// (the message shows what it points to).
func validateWindowsOptions(w *corev1.WindowsSecurityContextOptions, lp lazyPath) field.ErrorList {
	if w == nil {
		return nil
	}
	var errs field.ErrorList
	if w.GMSACredentialSpecName != nil {
		for _, msg := range namecheck.IsDNS1123Subdomain(*w.GMSACredentialSpecName) {
			errs = append(errs, field.Invalid(lp.Child("gmsaCredentialSpecName").Path(), w.GMSACredentialSpecName, msg))
		}
	}
	if s := w.GMSACredentialSpec; s != nil {
		switch n := len(*s); {
		case n == 0:
			errs = append(errs, field.Invalid(lp.Child("gmsaCredentialSpec").Path(), s, "gmsaCredentialSpec cannot be an empty string"))
		case n > gmsaSpecKiB*1024:
			errs = append(errs, field.Invalid(lp.Child("gmsaCredentialSpec").Path(), s, fmt.Sprintf("gmsaCredentialSpec size must be under %d KiB", gmsaSpecKiB)))
		}
	}
	if w.RunAsUserName != nil {
		errs = append(errs, validateRunAsUserName(w.RunAsUserName, lp.Child("runAsUserName").Path())...)
	}
	return errs
}

// validateRunAsUserName: [DOMAIN\]USER, the domain NetBIOS or DNS, the user
// short and without the characters Windows refuses.
func validateRunAsUserName(name *string, fp *field.Path) field.ErrorList {
	bad := func(msg string) *field.Error { return field.Invalid(fp, name, msg) }
	v := *name
	switch {
	case v == "":
		return field.ErrorList{bad("runAsUserName cannot be an empty string")}
	case winPatterns().ctrlChars.MatchString(v):
		return field.ErrorList{bad("runAsUserName cannot contain control characters")}
	}
	parts := strings.Split(v, `\`)
	if len(parts) > 2 {
		return field.ErrorList{bad("runAsUserName cannot contain more than one backslash")}
	}
	var errs field.ErrorList
	domain, user := "", parts[0]
	if len(parts) == 2 {
		domain, user = parts[0], parts[1]
	}
	if len(domain) >= runAsDomainMaxLen {
		errs = append(errs, bad(fmt.Sprintf("runAsUserName's Domain length must be under %d characters", runAsDomainMaxLen)))
	}
	if len(parts) == 2 && !winPatterns().netBIOSDomain.MatchString(domain) && !winPatterns().dnsDomain.MatchString(domain) {
		errs = append(errs, bad("runAsUserName's Domain doesn't match the NetBios nor the DNS format"))
	}
	switch {
	case user == "":
		errs = append(errs, bad("runAsUserName's User cannot be empty"))
	case len(user) > runAsUserNameMaxLen:
		errs = append(errs, bad(fmt.Sprintf("runAsUserName's User length must not be longer than %d characters", runAsUserNameMaxLen)))
	}
	if winPatterns().userOnlyDotSpace.MatchString(user) {
		errs = append(errs, bad(`runAsUserName's User cannot contain only periods or spaces`))
	}
	if winPatterns().userBadChars.MatchString(user) {
		errs = append(errs, bad(`runAsUserName's User cannot contain the following characters: "/\:;|=,+*?<>@[]`))
	}
	return errs
}

// validateHostProcessPod: a container's hostProcess must agree with the
// pod's where both set it; a pod with any HostProcess container (its own
// setting or the pod's) must have only such containers, the host network,
// and a cluster that allows privileged containers.
func validateHostProcessPod(spec *corev1.PodSpec, lp lazyPath, allowPrivileged bool) field.ErrorList {
	var podHP *bool
	if sc := spec.SecurityContext; sc != nil && sc.WindowsOptions != nil {
		podHP = sc.WindowsOptions.HostProcess
	}
	var errs field.ErrorList
	containers, hostProcess := 0, 0
	visitContainers(spec, func(c *corev1.Container, list string, i int) {
		containers++
		var hp *bool
		if c.SecurityContext != nil && c.SecurityContext.WindowsOptions != nil {
			hp = c.SecurityContext.WindowsOptions.HostProcess
		}
		if podHP != nil && hp != nil && *podHP != *hp {
			fp := lp.Child(list).Index(i).Child("securityContext").Child("windowsOptions").Child("hostProcess").Path()
			errs = append(errs, field.Invalid(fp, *hp, fmt.Sprintf("pod hostProcess value must be identical if both are specified, was %v", *podHP)))
		}
		if (hp != nil && *hp) || (hp == nil && podHP != nil && *podHP) {
			hostProcess++
		}
	})
	if hostProcess == 0 {
		return errs
	}
	if hostProcess != containers {
		errs = append(errs, field.Invalid(lp.Path(), "", "If pod contains any hostProcess containers then all containers must be HostProcess containers"))
	}
	if !spec.HostNetwork {
		errs = append(errs, field.Invalid(lp.Child("hostNetwork").Path(), false, "hostNetwork must be true if pod contains any hostProcess containers"))
	}
	if !allowPrivileged {
		errs = append(errs, field.Forbidden(lp.Path(), "hostProcess containers are disallowed by cluster policy"))
	}
	return errs
}
