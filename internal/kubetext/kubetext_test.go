package kubetext

import (
	"errors"
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
)

func TestMessages(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{CannotHandle("Pod", "v1", "Pod", "json: cannot unmarshal bool into Go struct field EnvVar.spec.containers.env.value of type string"),
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field EnvVar.spec.containers.env.value of type string`},
		{CannotHandle("pod", "v1", "Pod", "x"), `pod in version "v1" cannot be handled as a Pod: x`},
		{StrictDecoding([]string{`unknown field "metadata.lables"`, `unknown field "spec.replicas"`}),
			`strict decoding error: unknown field "metadata.lables", unknown field "spec.replicas"`},
		// apimachinery's own error gives the same text.
		{StrictDecoding([]string{`unknown field "a"`, `duplicate field "b"`}),
			runtime.NewStrictDecodingError([]error{errors.New(`unknown field "a"`), fmt.Errorf(`duplicate field "b"`)}).Error()},
	} {
		if tc.got != tc.want {
			t.Errorf("got  %s\nwant %s", tc.got, tc.want)
		}
	}
}
