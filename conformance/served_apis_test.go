package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	apiextensionsserver "k8s.io/apiextensions-apiserver/pkg/apiserver"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/restmapper"
	aggregatorscheme "k8s.io/kube-aggregator/pkg/apiserver/scheme"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	"github.com/limitcheck/limitcheck/conformance/internal/servedapis"
	"github.com/limitcheck/limitcheck/internal/eval/apis"
)

// servedTable is the committed table, relative to this module.
var servedTable = filepath.Join("..", "internal", "eval", "apis", "zz_served.go")

// TestServedAPIs recomputes the built-in table from k8s.io/kubernetes (its
// api/discovery documents and the default API resource configurations of
// kube-apiserver, apiextensions-apiserver and kube-aggregator; see package
// servedapis) and fails on any difference with the committed zz_served.go:
// first row by row, then byte for byte with what genapis would write.
func TestServedAPIs(t *testing.T) {
	u, err := servedapis.Derive()
	if err != nil {
		t.Fatal(err)
	}
	if apis.KubernetesVersion != u.Version {
		t.Errorf("apis.KubernetesVersion = %s, the table must be regenerated for k8s.io/kubernetes %s", apis.KubernetesVersion, u.Version)
	}

	key := func(k apis.Kind) string { return k.APIVersion() + " " + k.Kind }
	committed := map[string]apis.Kind{}
	for _, k := range apis.BuiltIns() {
		k.BuiltIn = false // set by BuiltIns, not part of the generated rows
		committed[key(k)] = k
	}
	upstream := map[string]bool{}
	for _, want := range u.Kinds {
		upstream[key(want)] = true
		got, ok := committed[key(want)]
		switch {
		case !ok:
			t.Errorf("missing from the table: %+v", want)
		case got != want:
			t.Errorf("%s:\n table    %+v\n upstream %+v", key(want), got, want)
		}
	}
	for id, k := range committed {
		if !upstream[id] {
			t.Errorf("in the table, not upstream: %+v", k)
		}
	}

	src, err := servedapis.Render(u)
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(servedTable)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, file) {
		line := 1
		for i := 0; i < len(src) && i < len(file) && src[i] == file[i]; i++ {
			if src[i] == '\n' {
				line++
			}
		}
		t.Errorf("%s differs from what genapis writes from k8s.io/kubernetes %s from line %d on; run go generate ./internal/eval/apis", servedTable, u.Version, line)
	}
}

// TestServedAPIsKubectlMapping checks Lookup's verdicts and messages against
// kubectl's own REST mapper (client-go's restmapper) built from the discovery
// kube-apiserver serves by default: every kind of the table and some kinds
// that are not served at all map exactly when Lookup says Served, to the
// same resource and scope, and fail with NoMatchMessage's text otherwise.
func TestServedAPIsKubectlMapping(t *testing.T) {
	u, err := servedapis.Derive()
	if err != nil {
		t.Fatal(err)
	}
	mapper := restmapper.NewDiscoveryRESTMapper(u.Served)
	cat := apis.New()
	cases := []schema.GroupVersionKind{
		{Group: "apps", Version: "v1beta1", Kind: "Deployment"},
		{Group: "apps", Version: "v1", Kind: "deployment"},
		{Group: "extensions", Version: "v1beta1", Kind: "Ingress"},
		{Group: "batch", Version: "v1beta1", Kind: "CronJob"},
		{Group: "policy", Version: "v1beta1", Kind: "PodSecurityPolicy"},
		{Group: "autoscaling", Version: "v2beta2", Kind: "HorizontalPodAutoscaler"},
		{Version: "v2", Kind: "Pod"},
		{Version: "v1", Kind: "pod"},
		{Version: "v1", Kind: "POD"},
		{Group: "app", Version: "v1", Kind: "Deployment"},
	}
	for _, k := range apis.BuiltIns() {
		cases = append(cases, schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind})
	}
	served, lowerCase := 0, 0
	for _, gvk := range cases {
		apiVersion := gvk.GroupVersion().String()
		k, st := cat.Lookup(apiVersion, gvk.Kind)
		m, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		switch {
		case err == nil && st == apis.Served:
			served++
			if got := (schema.GroupResource{Group: k.Group, Resource: k.Resource}); got != m.Resource.GroupResource() {
				t.Errorf("%s: Lookup resource %s, kubectl maps to %s", gvk, got, m.Resource.GroupResource())
			}
			if namespaced := m.Scope.Name() == meta.RESTScopeNameNamespace; namespaced != k.Namespaced {
				t.Errorf("%s: Lookup Namespaced %v, kubectl %v", gvk, k.Namespaced, namespaced)
			}
		case err == nil && st == apis.NotServed && cat.NotServedMessage(apiVersion, gvk.Kind) != apis.NoMatchMessage(apiVersion, gvk.Kind):
			// The lower-case spelling of a served kind: kubectl maps it and the
			// apiserver refuses it (TestServedAPIsLowerCaseKinds).
			lowerCase++
		case err == nil:
			t.Errorf("%s: Lookup says %v, kubectl maps it to %s", gvk, st, m.Resource)
		case st == apis.Served:
			t.Errorf("%s: Lookup says Served, kubectl: %v", gvk, err)
		case !errors.Is(err, &meta.NoKindMatchError{}):
			t.Errorf("%s: kubectl: %v", gvk, err)
		case st != apis.NotServed:
			t.Errorf("%s: Lookup says %v, kubectl: %v", gvk, st, err)
		case err.Error() != apis.NoMatchMessage(apiVersion, gvk.Kind) || err.Error() != cat.NotServedMessage(apiVersion, gvk.Kind):
			t.Errorf("%s: NoMatchMessage %q, NotServedMessage %q, kubectl %q", gvk, apis.NoMatchMessage(apiVersion, gvk.Kind), cat.NotServedMessage(apiVersion, gvk.Kind), err)
		}
	}
	if served == 0 || lowerCase != 2 {
		t.Errorf("%d kinds mapped, %d lower-case kinds (want apps/v1 deployment, v1 pod)", served, lowerCase)
	}
	t.Log(summary(apis.BuiltIns()))
}

// TestServedAPIsLowerCaseKinds checks NotServedMessage for the all-lower-case
// spelling of every kind served by default, which kubectl's REST mapper accepts
// (TestServedAPIsKubectlMapping): the request body is decoded as kube-apiserver's
// create handler decodes it, with the server's own codecs, and the error must be
// NotServedMessage's text, as the handler words it (transformDecodeError in
// k8s.io/apiserver's handlers/rest.go). The scheme is named as in release
// builds (-trimpath: file:line of its runtime.NewScheme call); a test binary
// names it after its module-cache path, so the name NotServedMessage gives is
// checked against the source instead.
func TestServedAPIsLowerCaseKinds(t *testing.T) {
	type server struct {
		codecs serializer.CodecFactory
		scheme *runtime.Scheme
		module string
	}
	servers := map[string]server{
		"":                       {legacyscheme.Codecs, legacyscheme.Scheme, "k8s.io/kubernetes"},
		"apiextensions.k8s.io":   {apiextensionsserver.Codecs, apiextensionsserver.Scheme, "k8s.io/apiextensions-apiserver"},
		"apiregistration.k8s.io": {aggregatorscheme.Codecs, aggregatorscheme.Scheme, "k8s.io/kube-aggregator"},
	}
	schemeInMessage := regexp.MustCompile(` in scheme "([^"]+)"$`)
	checked := map[string]bool{}
	cat := apis.New()
	n := 0
	for _, k := range apis.BuiltIns() {
		if k.Disabled || k.Subresource {
			continue
		}
		n++
		lower := strings.ToLower(k.Kind)
		got := cat.NotServedMessage(k.APIVersion(), lower)
		srv, ok := servers[k.Group]
		if !ok {
			srv = servers[""]
		}
		m := schemeInMessage.FindStringSubmatch(got)
		if m == nil {
			t.Errorf("%s %s: %s", k.APIVersion(), lower, got)
			continue
		}
		if !checked[m[1]] {
			checked[m[1]] = true
			if err := checkSchemeName(srv.module, m[1]); err != nil {
				t.Error(err)
			}
		}

		info, ok := runtime.SerializerInfoForMediaType(srv.codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
		if !ok {
			t.Fatal("no JSON serializer")
		}
		internal := schema.GroupVersionKind{Group: k.Group, Version: runtime.APIVersionInternal, Kind: k.Kind}
		into, err := srv.scheme.New(internal)
		if err != nil {
			t.Errorf("%s: %v", internal, err)
			continue
		}
		defaultGVK := schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}
		body := fmt.Sprintf(`{"apiVersion":%q,"kind":%q,"metadata":{"name":"x"}}`, k.APIVersion(), lower)
		decoder := srv.codecs.DecoderToVersion(info.StrictSerializer, schema.GroupVersion{Group: k.Group, Version: runtime.APIVersionInternal})
		_, gvk, err := decoder.Decode([]byte(body), &defaultGVK, into)
		if err == nil || gvk == nil {
			t.Errorf("%s %s: decoded (%v)", k.APIVersion(), lower, gvk)
			continue
		}
		kinds, _, kerr := srv.scheme.ObjectKinds(into)
		if kerr != nil {
			t.Fatal(kerr)
		}
		base := strings.Replace(err.Error(), fmt.Sprintf(" in scheme %q", srv.scheme.Name()), fmt.Sprintf(" in scheme %q", m[1]), 1)
		if want := fmt.Sprintf("%s in version %q cannot be handled as a %s: %s", gvk.Kind, gvk.Version, kinds[0].Kind, base); got != want {
			t.Errorf("%s %s:\n got %s\nwant %s", k.APIVersion(), lower, got, want)
		}
	}
	if n < 60 || len(checked) != 3 {
		t.Errorf("%d kinds, schemes %v", n, checked)
	}
}

// checkSchemeName checks that name ("pkg/api/legacyscheme/scheme.go:30") is the
// file:line of a runtime.NewScheme call in module, as a -trimpath build of
// kube-apiserver names that scheme.
func checkSchemeName(module, name string) error {
	path, lineText, ok := strings.Cut(name, ":")
	line, err := strconv.Atoi(lineText)
	if !ok || err != nil {
		return fmt.Errorf("scheme name %q is not file:line", name)
	}
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil {
		return fmt.Errorf("go list -m %s: %v", module, err)
	}
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(dir)), path))
	if err != nil {
		return fmt.Errorf("scheme %q: %v", name, err)
	}
	lines := strings.Split(string(src), "\n")
	if line < 1 || line > len(lines) || !strings.Contains(lines[line-1], "runtime.NewScheme()") {
		return fmt.Errorf("scheme %q: line %d of %s in %s is not a runtime.NewScheme call", name, line, path, module)
	}
	return nil
}

// summary counts the kinds served by default per apiVersion.
func summary(kinds []apis.Kind) string {
	var b bytes.Buffer
	total, last, n := 0, "", 0
	flush := func() {
		if n > 0 {
			fmt.Fprintf(&b, " %s=%d", last, n)
		}
	}
	for _, k := range kinds {
		if k.Disabled || k.Subresource {
			continue
		}
		if k.APIVersion() != last {
			flush()
			last, n = k.APIVersion(), 0
		}
		n++
		total++
	}
	flush()
	return fmt.Sprintf("%d kinds served by default:%s", total, b.String())
}

// TestServedAPIsGroupKindMapping checks MapGroupKind, what an HPA's
// scaleTargetRef resolves to (FIT-04), against the REST mapper the
// HorizontalPodAutoscaler controller builds from the same discovery (no
// version given): every kind of the table in its own spelling, all in lower
// case and all in upper case, and groups that serve nothing, map exactly when
// MapGroupKind says Served, to the same group and kind, and the kind has the
// scale subresource exactly when discovery lists "<resource>/scale".
func TestServedAPIsGroupKindMapping(t *testing.T) {
	u, err := servedapis.Derive()
	if err != nil {
		t.Fatal(err)
	}
	mapper := restmapper.NewDiscoveryRESTMapper(u.Served)
	withScale := map[schema.GroupResource]bool{}
	for _, g := range u.Served {
		for _, rs := range g.VersionedResources {
			for _, r := range rs {
				if parent, ok := strings.CutSuffix(r.Name, "/scale"); ok {
					withScale[schema.GroupResource{Group: g.Group.Name, Resource: parent}] = true
				}
			}
		}
	}
	cases := []schema.GroupKind{{Group: "extensions", Kind: "Deployment"}, {Group: "app", Kind: "Deployment"}, {Group: "apps", Kind: "Deploymnet"}}
	for _, k := range apis.BuiltIns() {
		for _, kind := range []string{k.Kind, strings.ToLower(k.Kind), strings.ToUpper(k.Kind)} {
			cases = append(cases, schema.GroupKind{Group: k.Group, Kind: kind})
		}
	}
	cat := apis.New()
	served, scalable := 0, 0
	for _, gk := range cases {
		k, st, scale := cat.MapGroupKind(gk.Group, gk.Kind)
		ms, err := mapper.RESTMappings(gk)
		if err == nil && len(ms) == 0 {
			err = fmt.Errorf("no mappings")
		}
		switch {
		case err == nil && st == apis.Served:
			served++
			m := ms[0]
			// The mapper keeps the spelling it was asked for.
			if got := m.GroupVersionKind; k.Group != got.Group || !strings.EqualFold(k.Kind, got.Kind) {
				t.Errorf("%s: MapGroupKind %s, the mapper %s", gk, got, m.GroupVersionKind.GroupKind())
			}
			if want := withScale[m.Resource.GroupResource()]; scale != want {
				t.Errorf("%s: MapGroupKind scalable %v, discovery %v", gk, scale, want)
			}
			if scale {
				scalable++
			}
		case err == nil:
			t.Errorf("%s: MapGroupKind says %v, the mapper maps it to %s", gk, st, ms[0].Resource)
		case st != apis.NotServed:
			t.Errorf("%s: MapGroupKind says %v, the mapper: %v", gk, st, err)
		}
	}
	if served < 120 || scalable < 8 {
		t.Errorf("%d spellings mapped, %d of them scalable", served, scalable)
	}
	t.Logf("%d group/kind spellings, %d mapped, %d of them with the scale subresource", len(cases), served, scalable)
}

// TestServedAPIsListMapping checks ListNotMapped against kubectl's REST
// mapper: the kind of a document with items (List, <Kind>List) in every
// group/version of the table, and some served nowhere, maps exactly when
// ListNotMapped says it does, and fails with its text otherwise.
func TestServedAPIsListMapping(t *testing.T) {
	u, err := servedapis.Derive()
	if err != nil {
		t.Fatal(err)
	}
	mapper := restmapper.NewDiscoveryRESTMapper(u.Served)
	cat := apis.New()
	cases := []schema.GroupVersionKind{{Version: "v2", Kind: "List"}, {Version: "v1", Kind: "NotAList"},
		{Group: "extensions", Version: "v1beta1", Kind: "List"}, {Group: "apps", Version: "v1", Kind: "ServiceList"}}
	for _, k := range apis.BuiltIns() {
		cases = append(cases, schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: "List"},
			schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind + "List"})
	}
	mapped := 0
	for _, gvk := range cases {
		msg := cat.ListNotMapped(gvk.GroupVersion().String(), gvk.Kind)
		_, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		switch {
		case err == nil && msg == "":
			mapped++
		case err == nil:
			t.Errorf("%s: ListNotMapped %q, the mapper maps it", gvk, msg)
		case msg != err.Error():
			t.Errorf("%s: ListNotMapped %q, the mapper: %v", gvk, msg, err)
		}
	}
	if mapped < 80 {
		t.Errorf("only %d list kinds mapped", mapped)
	}
	t.Logf("%d list kinds, %d mapped", len(cases), mapped)
}
