//go:build !trainlint_lite

package rules

import (
	"reflect"
	"testing"

	"github.com/trainlint/trainlint/lint"
)

// TestParseArgs: the launch-context flags of .args sections, in the spellings package flag
// accepted (one or two dashes, a value after a space or an `=`), and the mistakes it refused.
func TestParseArgs(t *testing.T) {
	for _, c := range []struct {
		args []string
		want lint.Options
	}{
		{nil, lint.Options{}},
		{[]string{"--hosts", "4", "--devices-per-host", "8"}, lint.Options{Hosts: 4, DevicesPerHost: 8}},
		{[]string{"-hosts=2", "--framework=nemo", "--select", "TL2, TL3", "--ignore=TL101"}, lint.Options{Hosts: 2, Framework: "nemo", Select: []string{"TL2", "TL3"}, Ignore: []string{"TL101"}}},
		{[]string{"--require-suppression-reason"}, lint.Options{RequireReason: true}},
		{[]string{"--require-suppression-reason=false"}, lint.Options{}},
	} {
		got, err := ParseArgs(c.args)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %+v, %v; want %+v", c.args, got, err, c.want)
		}
	}
	for _, bad := range [][]string{{"--hosts"}, {"--hosts", "x"}, {"--hosts", "-1"}, {"--nope"}, {"extra"}, {"--require-suppression-reason=maybe"}, {"--"}} {
		if _, err := ParseArgs(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}
