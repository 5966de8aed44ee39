package validation

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/limitcheck/limitcheck/internal/eval/features"
)

func TestWindowsOptions(t *testing.T) {
	yes, no := true, false
	str := func(s string) *string { return &s }
	podWin := func(p *corev1.Pod, w *corev1.WindowsSecurityContextOptions) {
		p.Spec.SecurityContext.WindowsOptions = w
	}
	ctrWin := func(c *corev1.Container, w *corev1.WindowsSecurityContextOptions) {
		c.SecurityContext = &corev1.SecurityContext{WindowsOptions: w}
	}
	tests := []struct {
		name     string
		disallow bool
		mutate   func(p *corev1.Pod)
		want     []string
	}{
		{"hostProcess pod without host network", false, func(p *corev1.Pod) {
			podWin(p, &corev1.WindowsSecurityContextOptions{HostProcess: &yes})
		}, []string{`spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers`}},
		{"hostProcess pod with host network", false, func(p *corev1.Pod) {
			podWin(p, &corev1.WindowsSecurityContextOptions{HostProcess: &yes})
			p.Spec.HostNetwork = true
		}, nil},
		{"hostProcess where privileged containers are disallowed", true, func(p *corev1.Pod) {
			podWin(p, &corev1.WindowsSecurityContextOptions{HostProcess: &yes})
			p.Spec.HostNetwork = true
		}, []string{`spec: Forbidden: hostProcess containers are disallowed by cluster policy`}},
		{"one hostProcess container of two, pod says false", false, func(p *corev1.Pod) {
			podWin(p, &corev1.WindowsSecurityContextOptions{HostProcess: &no})
			side := p.Spec.Containers[0]
			side.Name = "side"
			p.Spec.InitContainers = []corev1.Container{side}
			ctrWin(&p.Spec.Containers[0], &corev1.WindowsSecurityContextOptions{HostProcess: &yes})
		}, []string{`spec.containers[0].securityContext.windowsOptions.hostProcess: Invalid value: true: pod hostProcess value must be identical if both are specified, was false`,
			`spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers`,
			`spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers`}},
		{"container hostProcess false alone", false, func(p *corev1.Pod) {
			ctrWin(&p.Spec.Containers[0], &corev1.WindowsSecurityContextOptions{HostProcess: &no})
		}, nil},
		{"runAsUserName forms", false, func(p *corev1.Pod) {
			podWin(p, &corev1.WindowsSecurityContextOptions{RunAsUserName: str(`a\b\c`)})
			ctrWin(&p.Spec.Containers[0], &corev1.WindowsSecurityContextOptions{RunAsUserName: str(`.corp\ad:min`)})
		}, []string{`spec.containers[0].securityContext.windowsOptions.runAsUserName: Invalid value: ".corp\\ad:min": runAsUserName's Domain doesn't match the NetBios nor the DNS format`,
			`spec.containers[0].securityContext.windowsOptions.runAsUserName: Invalid value: ".corp\\ad:min": runAsUserName's User cannot contain the following characters: "/\:;|=,+*?<>@[]`,
			`spec.securityContext.windowsOptions.runAsUserName: Invalid value: "a\\b\\c": runAsUserName cannot contain more than one backslash`}},
		{"runAsUserName empty, dots, long", false, func(p *corev1.Pod) {
			podWin(p, &corev1.WindowsSecurityContextOptions{RunAsUserName: str("")})
			ctrWin(&p.Spec.Containers[0], &corev1.WindowsSecurityContextOptions{RunAsUserName: str(`CORP\` + strings.Repeat("u", 105))})
			side := p.Spec.Containers[0]
			side.Name = "side"
			ctrWin(&side, &corev1.WindowsSecurityContextOptions{RunAsUserName: str(`corp.example.com\. .`)})
			p.Spec.Containers = append(p.Spec.Containers, side)
		}, []string{`spec.containers[0].securityContext.windowsOptions.runAsUserName: Invalid value: "CORP\\` + strings.Repeat("u", 105) + `": runAsUserName's User length must not be longer than 104 characters`,
			`spec.containers[1].securityContext.windowsOptions.runAsUserName: Invalid value: "corp.example.com\\. .": runAsUserName's User cannot contain only periods or spaces`,
			`spec.securityContext.windowsOptions.runAsUserName: Invalid value: "": runAsUserName cannot be an empty string`}},
		{"runAsUserName control character and empty user", false, func(p *corev1.Pod) {
			podWin(p, &corev1.WindowsSecurityContextOptions{RunAsUserName: str("adm\tin")})
			ctrWin(&p.Spec.Containers[0], &corev1.WindowsSecurityContextOptions{RunAsUserName: str(`CORP\`)})
		}, []string{`spec.containers[0].securityContext.windowsOptions.runAsUserName: Invalid value: "CORP\\": runAsUserName's User cannot be empty`,
			`spec.securityContext.windowsOptions.runAsUserName: Invalid value: "adm\tin": runAsUserName cannot contain control characters`}},
		{"gmsa", false, func(p *corev1.Pod) {
			podWin(p, &corev1.WindowsSecurityContextOptions{GMSACredentialSpecName: str("WebApp_Spec"), GMSACredentialSpec: str("")})
			ctrWin(&p.Spec.Containers[0], &corev1.WindowsSecurityContextOptions{GMSACredentialSpec: str(strings.Repeat("x", 64*1024+1))})
		}, []string{`spec.containers[0].securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: "` + strings.Repeat("x", 64*1024+1) + `": gmsaCredentialSpec size must be under 64 KiB`,
			`spec.securityContext.windowsOptions.gmsaCredentialSpecName: Invalid value: "WebApp_Spec": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
			`spec.securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := basePod()
			tt.mutate(p)
			var got []string
			for _, e := range Pod(p, PodOptions{Gates: features.Default(), DisallowPrivileged: tt.disallow}) {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}
