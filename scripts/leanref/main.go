// Command leanref is make bench's yardstick for start-up: the lean cobra +
// k8s.io/api binary that issue 10's one-Pod target is stated against. It
// reads one manifest, decodes it into a Pod with sigs.k8s.io/yaml and prints
// its CPU request; nothing else. It is not part of limitcheck.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

func main() {
	root := &cobra.Command{
		Use:     "leanref FILE",
		Version: "dev",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := os.ReadFile(args[0])
			if err != nil {
				return err
			}
			var pod corev1.Pod
			if err := yaml.Unmarshal(data, &pod); err != nil {
				return err
			}
			cpu := "none"
			if len(pod.Spec.Containers) > 0 {
				cpu = pod.Spec.Containers[0].Resources.Requests.Cpu().String()
			}
			fmt.Fprintln(cmd.OutOrStdout(), pod.Name, cpu)
			return nil
		},
	}
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
