package eval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/limitcheck/limitcheck/internal/casefiles"
	"github.com/rogpeppe/go-internal/txtar"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// jsonRoundTrip is what overTheWire must equal: obj encoded and decoded as
// JSON, as a controller's create request carries it.
func jsonRoundTrip(t testing.TB, obj runtime.Object) runtime.Object {
	t.Helper()
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	out := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(runtime.Object)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// sameOverTheWire fails unless overTheWire(obj) is the JSON round trip of obj
// and leaves obj as it was.
func sameOverTheWire(t testing.TB, what string, obj runtime.Object) {
	t.Helper()
	before := obj.DeepCopyObject()
	want := jsonRoundTrip(t, obj)
	got := overTheWire(obj)
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("%s: overTheWire differs from a JSON round trip:\n%s\n%s\ngot  %#v\nwant %#v", what, g, w, got, want)
	}
	if !reflect.DeepEqual(obj, before) {
		t.Fatalf("%s: overTheWire changed its argument", what)
	}
}

// TestWireForm: every object of the CLI's test scripts and the examples that
// the engine decodes goes over the wire exactly as a JSON round trip takes
// it, and so do objects with what a round trip changes: quantities in
// non-canonical form, empty lists and maps, times below the second.
func TestWireForm(t *testing.T) {
	var docs []string
	scripts := casefiles.Scripts(t)
	for _, s := range scripts {
		a, err := txtar.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, ".yaml") {
				docs = append(docs, strings.Split(string(f.Data), "\n---")...)
			}
		}
	}
	examples, _ := filepath.Glob("../../examples/*/*.yaml")
	for _, p := range examples {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, strings.Split(string(b), "\n---")...)
	}
	n := 0
	for i, d := range docs {
		var tm metav1.TypeMeta
		if yaml.Unmarshal([]byte(d), &tm) != nil {
			continue
		}
		obj := NewObject(tm.APIVersion, tm.Kind)
		if obj == nil || yaml.Unmarshal([]byte(d), obj) != nil {
			continue
		}
		sameOverTheWire(t, tm.Kind+" of document "+string(rune('0'+i%10)), obj)
		n++
	}
	if n < 100 {
		t.Fatalf("only %d objects compared", n)
	}
	// What a round trip changes.
	odd := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Labels: map[string]string{}, Finalizers: []string{},
			DeletionTimestamp: &metav1.Time{Time: time.Date(2026, 1, 2, 3, 4, 5, 678, time.FixedZone("x", 3600))}},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{Name: "c", Env: []corev1.EnvVar{}, Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{"cpu": mustQ("1000m"), "memory": mustQ("1.5Gi"), "huge": mustQ("10Ei")},
				Limits:   corev1.ResourceList{},
			}}},
			Overhead:     corev1.ResourceList{"cpu": mustQ("0.1")},
			NodeSelector: map[string]string{},
			Volumes:      []corev1.Volume{{Name: "v", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{SizeLimit: ptrQ("1e3")}}}},
		},
	}
	sameOverTheWire(t, "odd Pod", odd)
	sameOverTheWire(t, "Deployment", &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: odd.Spec}}})
	sameOverTheWire(t, "Job", &batchv1.Job{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: odd.Spec}}})
}

// FuzzWireForm: whatever a Pod or a Deployment holds, overTheWire is its JSON
// round trip.
func FuzzWireForm(f *testing.F) {
	f.Add([]byte("spec: {containers: [{name: c, resources: {requests: {cpu: 1000m, memory: 0.5Gi}, limits: {}}}], overhead: {cpu: '1e-3'}}"))
	f.Add([]byte("metadata: {labels: {}, annotations: {a: b}, creationTimestamp: '2026-01-01T00:00:00Z'}\nspec: {volumes: [{name: v, emptyDir: {sizeLimit: 100M}}]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, obj := range []runtime.Object{&corev1.Pod{}, &appsv1.Deployment{}, &corev1.PersistentVolumeClaim{}} {
			if yaml.Unmarshal(data, obj) != nil {
				continue
			}
			sameOverTheWire(t, reflect.TypeOf(obj).Elem().Name(), obj)
		}
	})
}

func mustQ(s string) resource.Quantity { return resource.MustParse(s) }

func ptrQ(s string) *resource.Quantity { q := resource.MustParse(s); return &q }
