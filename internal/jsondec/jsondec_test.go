package jsondec_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/limitcheck/limitcheck/internal/casefiles"
	"github.com/limitcheck/limitcheck/internal/eval"
	"github.com/limitcheck/limitcheck/internal/jsondec"
)

// kinds are the types the loader decodes into: every kind eval.NewObject
// knows, and the PartialObjectMetadata of every other kind.
var kinds = []struct{ apiVersion, kind string }{
	{"v1", "Pod"}, {"v1", "Service"}, {"v1", "ConfigMap"}, {"v1", "Secret"},
	{"v1", "PersistentVolumeClaim"}, {"v1", "LimitRange"}, {"v1", "ResourceQuota"},
	{"v1", "ServiceAccount"}, {"v1", "Event"}, {"v1", "ReplicationController"},
	{"apps/v1", "Deployment"}, {"apps/v1", "ReplicaSet"}, {"apps/v1", "StatefulSet"},
	{"apps/v1", "DaemonSet"}, {"batch/v1", "Job"}, {"batch/v1", "CronJob"},
	{"autoscaling/v2", "HorizontalPodAutoscaler"}, {"autoscaling/v1", "HorizontalPodAutoscaler"},
	{"scheduling.k8s.io/v1", "PriorityClass"}, {"storage.k8s.io/v1", "StorageClass"},
	{"node.k8s.io/v1", "RuntimeClass"}, {"resource.k8s.io/v1", "ResourceClaim"},
	{"policy/v1", "PodDisruptionBudget"}, {"rbac.authorization.k8s.io/v1", "Role"},
	{"rbac.authorization.k8s.io/v1", "RoleBinding"},
	{"example.com/v1", "Widget"},
}

func newObject(i int) runtime.Object {
	k := kinds[i%len(kinds)]
	if o := eval.NewObject(k.apiVersion, k.kind); o != nil {
		return o
	}
	return &metav1.PartialObjectMetadata{}
}

// kindIndex is the entry of kinds for a document's apiVersion and kind; the
// last (PartialObjectMetadata) for any other.
func kindIndex(apiVersion, kind string) int {
	for i, k := range kinds {
		if k.apiVersion == apiVersion && k.kind == kind {
			return i
		}
	}
	return len(kinds) - 1
}

// compare decodes data both ways into kinds[i]'s type and fails when
// Decode kept a document the reference refuses, or decoded it otherwise.
func compare(t *testing.T, data []byte, i int) (decoded bool) {
	t.Helper()
	ref := newObject(i)
	var strictErrs []error
	var err error
	if _, partial := ref.(*metav1.PartialObjectMetadata); partial {
		// The loader decodes other kinds leniently.
		err = kjson.UnmarshalCaseSensitivePreserveInts(data, ref)
	} else {
		strictErrs, err = kjson.UnmarshalStrict(data, ref)
	}
	got := newObject(i)
	if _, partial := got.(*metav1.PartialObjectMetadata); partial {
		return false // Decode is strict: the loader never asks it for these
	}
	if !jsondec.Decode(data, got) {
		return false
	}
	if err != nil || len(strictErrs) > 0 {
		t.Fatalf("%T: decoded a document the reference refuses (%v %v):\n%s", got, err, strictErrs, data)
	}
	if !reflect.DeepEqual(ref, got) {
		t.Fatalf("%T: decoded otherwise than the reference:\n%s\nreference: %#v\ngot:       %#v", got, data, ref, got)
	}
	return true
}

func TestDecodeCases(t *testing.T) {
	for _, tc := range []struct {
		name string
		kind string // apiVersion/kind
		json string
		ok   bool
	}{
		{"pod", "v1/Pod", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i","resources":{"limits":{"cpu":"1","memory":512}},"ports":[{"containerPort":80}]}]}}`, true},
		{"white space everywhere", "v1/Pod", " \n{ \"metadata\" :\t{ \"name\" : \"p\" } ,\r\n\"spec\":{ \"containers\" : [ ] } }\n", true},
		{"null leaves zero values", "v1/Pod", `{"metadata":null,"spec":{"containers":null,"nodeSelector":null,"priority":null,"hostNetwork":null}}`, true},
		{"empty list and map are kept, not nil", "v1/Pod", `{"spec":{"containers":[],"nodeSelector":{}}}`, true},
		{"escapes", "v1/ConfigMap", `{"data":{"a\tb":"line\n\"quoted\" \\ \/ \u00e9 \ud83d\ude00 \b\f\r"}}`, true},
		{"non-ASCII", "v1/ConfigMap", `{"data":{"clé":"välue ✓"}}`, true},
		{"base64", "v1/Secret", `{"data":{"k":"aGVsbG8=","e":""}}`, true},
		{"int32 bounds", "apps/v1/Deployment", `{"spec":{"replicas":2147483647}}`, true},
		{"quantity as a number", "v1/ResourceQuota", `{"spec":{"hard":{"pods":10,"cpu":"1.5","memory":1e3}}}`, true},
		{"int or string", "v1/Service", `{"spec":{"ports":[{"port":80,"targetPort":"http"},{"port":81,"targetPort":8081}]}}`, true},
		{"time", "v1/Event", `{"firstTimestamp":"2024-01-02T03:04:05Z","eventTime":"2024-01-02T03:04:05.123456Z"}`, true},
		{"top-level null", "v1/Pod", `null`, true},

		{"unknown field", "v1/Pod", `{"spec":{"containers":[{"name":"c","imag":"i"}]}}`, false},
		{"field in another case", "v1/Pod", `{"Spec":{}}`, false},
		{"duplicate field", "v1/Pod", `{"metadata":{"name":"a","name":"b"}}`, false},
		{"duplicate map key", "v1/ConfigMap", `{"data":{"a":"1","a":"2"}}`, false},
		{"duplicate key in a map of another type", "v1/ResourceQuota", `{"spec":{"hard":{"cpu":"1","cpu":"2"}}}`, false},
		{"null after a value in a map", "v1/Secret", `{"data":{"a":"aGVsbG8=","b":null}}`, true},
		{"int32 overflow", "apps/v1/Deployment", `{"spec":{"replicas":2147483648}}`, false},
		{"float into an int", "apps/v1/Deployment", `{"spec":{"replicas":1.0}}`, false},
		{"exponent into an int", "apps/v1/Deployment", `{"spec":{"replicas":1e3}}`, false},
		{"string into an int", "apps/v1/Deployment", `{"spec":{"replicas":"3"}}`, false},
		{"number into a string", "v1/Pod", `{"metadata":{"name":3}}`, false},
		{"bad base64", "v1/Secret", `{"data":{"k":"not base64!"}}`, false},
		{"bad quantity", "v1/ResourceQuota", `{"spec":{"hard":{"cpu":"lots"}}}`, false},
		{"lone surrogate", "v1/ConfigMap", `{"data":{"a":"\ud800"}}`, false},
		{"invalid UTF-8", "v1/ConfigMap", "{\"data\":{\"a\":\"\xff\"}}", false},
		{"control character", "v1/ConfigMap", "{\"data\":{\"a\":\"\x01\"}}", false},
		{"trailing comma", "v1/ConfigMap", `{"data":{"a":"1",}}`, false},
		{"trailing data", "v1/ConfigMap", `{"data":{}} {}`, false},
		{"truncated", "v1/ConfigMap", `{"data":{"a":"1"}`, false},
		{"leading zero", "apps/v1/Deployment", `{"spec":{"replicas":01}}`, false},
		{"null quantity value in a map", "v1/ResourceQuota", `{"spec":{"hard":{"cpu":null}}}`, false},
		{"escaped resource name", "v1/ResourceQuota", `{"spec":{"hard":{"c\u0070u":"1","requests.\u006demory":"1Gi"}}}`, true},
		{"escaped quantity", "v1/ResourceQuota", `{"spec":{"hard":{"cpu":"\u0031"}}}`, false},
		{"resource list of a container", "v1/Pod", `{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":0.5,"memory":"1Gi","nvidia.com/gpu":1},"limits":{}}}]}}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			slash := strings.LastIndexByte(tc.kind, '/')
			i := kindIndex(tc.kind[:slash], tc.kind[slash+1:])
			if got := compare(t, []byte(tc.json), i); got != tc.ok {
				t.Fatalf("decoded: %v, want %v", got, tc.ok)
			}
		})
	}
}

// seeds are the documents of the examples and testscripts, as JSON, with
// their kinds' indexes.
func seeds(t testing.TB) (docs [][]byte, idx []int) {
	files := casefiles.Scripts(t)
	for _, pattern := range []string{"../../examples/*/*.yaml", "../../examples/*/*/*.yaml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range strings.Split(string(b), "\n---") {
			if strings.HasSuffix(f, ".txtar") {
				doc = stripTxtarHeaders(doc)
			}
			js, err := yaml.YAMLToJSON([]byte(doc))
			if err != nil || len(js) == 0 || js[0] != '{' {
				continue
			}
			var h metav1.TypeMeta
			if kjson.UnmarshalCaseSensitivePreserveInts(js, &h) != nil {
				continue
			}
			docs = append(docs, js)
			idx = append(idx, kindIndex(h.APIVersion, h.Kind))
		}
	}
	if len(docs) < 100 {
		t.Fatalf("only %d seed documents", len(docs))
	}
	return docs, idx
}

// stripTxtarHeaders drops the lines of a txtar section that are not YAML.
func stripTxtarHeaders(s string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(line, " --") {
			out = out[:0]
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// TestDecodeSeeds: every example document decodes as the reference
// decodes it, and the documents the reference takes are nearly all decoded
// here (a decline costs a second decode).
func TestDecodeSeeds(t *testing.T) {
	docs, idx := seeds(t)
	decoded, typed, refused := 0, 0, 0
	for n, js := range docs {
		if _, partial := newObject(idx[n]).(*metav1.PartialObjectMetadata); partial {
			continue
		}
		typed++
		if compare(t, js, idx[n]) {
			decoded++
			continue
		}
		if _, err := kjson.UnmarshalStrict(js, newObject(idx[n])); err != nil {
			refused++
		} else if errs, _ := kjson.UnmarshalStrict(js, newObject(idx[n])); len(errs) > 0 {
			refused++
		} else {
			t.Errorf("declined a document the reference decodes:\n%s", js)
		}
	}
	t.Logf("%d documents of known kinds: %d decoded, %d refused by the reference", typed, decoded, refused)
}

func FuzzDecode(f *testing.F) {
	docs, idx := seeds(f)
	for n, js := range docs {
		f.Add(js, uint8(idx[n]))
	}
	f.Fuzz(func(t *testing.T, data []byte, k uint8) {
		compare(t, data, int(k))
	})
}

func BenchmarkDecode(b *testing.B) {
	js := []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"app-00001","namespace":"team-0000","labels":{"app":"app-1","tier":"backend"}},"spec":{"containers":[{"name":"c0","image":"registry.example/app:1","resources":{"requests":{"cpu":"100m","memory":"64Mi"},"limits":{"cpu":"100m","memory":"300M"}}}]}}`)
	pod := kindIndex("v1", "Pod")
	for _, impl := range []string{"jsondec", "reference"} {
		b.Run(impl, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				o := newObject(pod)
				if impl == "jsondec" {
					if !jsondec.Decode(js, o) {
						b.Fatal("declined")
					}
				} else if _, err := kjson.UnmarshalStrict(js, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
