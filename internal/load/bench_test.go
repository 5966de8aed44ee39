package load

import (
	"bytes"
	"fmt"
	"testing"

	"sigs.k8s.io/yaml"
)

// benchStream returns n Deployments as one multi-document YAML stream.
func benchStream(n int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `---
# Source: chart/templates/deploy.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-%d
  namespace: team-%d
  labels: {app: web, tier: frontend}
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: registry.example.com/web:1.2.3
        ports:
        - containerPort: 8080
        resources:
          requests: {cpu: 100m, memory: 128Mi}
          limits: {cpu: "1", memory: 256Mi}
      - name: sidecar
        image: registry.example.com/proxy:0.9
        resources:
          limits: {cpu: 200m, memory: 64Mi}
`, i, i%10)
	}
	return b.Bytes()
}

func BenchmarkReadStreamTyped(b *testing.B) {
	data := benchStream(1000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		readBytes("bench.yaml", data, typedOpts, func(d Document) bool {
			if d.Err != nil {
				b.Fatal(d.Err)
			}
			n++
			return true
		})
		if n != 1000 {
			b.Fatalf("got %d documents", n)
		}
	}
}

func BenchmarkReadStreamPartial(b *testing.B) {
	data := benchStream(1000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		readBytes("bench.yaml", data, Options{}, func(d Document) bool { return true })
	}
}

// BenchmarkYAMLToJSONOnly is the floor: the conversion kubectl does anyway.
func BenchmarkYAMLToJSONOnly(b *testing.B) {
	data := benchStream(1000)
	docs := bytes.Split(data, []byte("---\n"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			if _, err := yaml.YAMLToJSON(d); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkReadStreamReader reads the stream through ReadStream: in chunks,
// as stdin and files are read.
func BenchmarkReadStreamReader(b *testing.B) {
	data := benchStream(1000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		err := ReadStream("bench.yaml", bytes.NewReader(data), typedOpts, func(d Document) bool {
			if d.Err != nil {
				b.Fatal(d.Err)
			}
			n++
			return true
		})
		if err != nil || n != 1000 {
			b.Fatalf("got %d documents, error %v", n, err)
		}
	}
}

// BenchmarkReadStreamDuplicateKeys is the worst case for duplicate keys:
// every document has one, so every document is converted twice and parsed
// with yaml v3 as well.
func BenchmarkReadStreamDuplicateKeys(b *testing.B) {
	data := bytes.ReplaceAll(benchStream(1000), []byte("  replicas: 3\n"), []byte("  replicas: 3\n  replicas: 4\n"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		readBytes("bench.yaml", data, typedOpts, func(d Document) bool {
			if d.Err != nil || len(d.Warnings) != 1 {
				b.Fatal(d.Err, d.Warnings)
			}
			n++
			return true
		})
		if n != 1000 {
			b.Fatalf("got %d documents", n)
		}
	}
}
