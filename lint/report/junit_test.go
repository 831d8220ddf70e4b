package report_test

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/report"
)

// TestJUnitFailsLikeTheRun: a finding below --fail-on (info, by default) is a passing testcase
// that keeps the finding in <system-out>; --fail-on info makes it a failure; --fail-on error
// leaves only errors failing; --fail-on never (above error) keeps warning's threshold, so the
// report still shows what needs attention when the exit code does not.
func TestJUnitFailsLikeTheRun(t *testing.T) {
	res := fixtureResult()
	count := map[lint.Severity]int{}
	for _, d := range res.Diagnostics {
		count[d.Severity]++
	}
	if count[lint.Info] == 0 || count[lint.Warning] == 0 || count[lint.Error] == 0 {
		t.Fatalf("the fixture needs a finding of each severity: %v", count)
	}
	for _, c := range []struct {
		failOn lint.Severity
		want   int
	}{
		{0, count[lint.Warning] + count[lint.Error]},
		{lint.Info, len(res.Diagnostics)},
		{lint.Warning, count[lint.Warning] + count[lint.Error]},
		{lint.Error, count[lint.Error]},
		{lint.Error + 1, count[lint.Warning] + count[lint.Error]},
	} {
		out := render(t, "junit", res, report.Options{FailOn: c.failOn})
		if d := decodeJUnit(t, out); d.Failures != c.want {
			t.Errorf("fail-on %v: %d failures, want %d", c.failOn, d.Failures, c.want)
		}
	}
	out := string(render(t, "junit", res, report.Options{}))
	if strings.Count(out, "<system-out>") != count[lint.Info] || strings.Contains(out, `type="info"`) {
		t.Errorf("the info finding is not a passing testcase with system-out:\n%s", out)
	}
}
