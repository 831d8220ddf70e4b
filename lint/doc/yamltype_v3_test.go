//go:build !trainlint_lite

package doc

import (
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestPlainTypeLikeYAMLv3: the direct reader types plain scalars without yaml.v3 (the WebAssembly
// module has no yaml.v3), and must type every one as yaml.v3 does.
func TestPlainTypeLikeYAMLv3(t *testing.T) {
	for _, v := range plainTypeSamples {
		if got, want := plainType(v), yamlType(&yaml.Node{Kind: yaml.ScalarNode, Value: v}); got != want {
			t.Errorf("plainType(%q) = %v, yaml.v3 says %v", v, got, want)
		}
	}
}

func FuzzPlainType(f *testing.F) {
	for _, v := range plainTypeSamples {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if got, want := plainType(v), yamlType(&yaml.Node{Kind: yaml.ScalarNode, Value: v}); got != want {
			t.Errorf("plainType(%q) = %v, yaml.v3 says %v", v, got, want)
		}
	})
}
