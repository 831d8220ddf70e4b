package doc

import "testing"

// TestPythonWorkIsBounded: an operation that copies or scans a large value inside a long loop
// used to run for minutes and take gigabytes (`b = a[:]` over a list of 100,000 items, a
// million times), the step budget counting it as one step. Every such operation now counts
// its size against the budget, so the file ends quickly with input-limit-exceeded. Each case
// below, unbounded, copies or scans about 10^8 items or bytes and passes no limit.
func TestPythonWorkIsBounded(t *testing.T) {
	// Inside a function, so that the large values are its locals, not the config's: only the
	// evaluation's limits can stop the file.
	head := "import copy\ndef f():\n  a = [0] * 100000\n  s = 'x' * 1000000\n  d = {i: i for i in range(100000)}\n  w = ['ab'] * 100000\n  for i in range(2000):\n    "
	const tail = "\n  return 1\nx = f()\n"
	d := ParseWith("h.py", []byte(head+"b = 1"+tail), Python, Options{})
	if len(d.Problems) != 0 || d.Root == nil {
		t.Fatalf("the loop alone: %+v", d.Problems)
	}
	for _, op := range []string{
		"b = a[:]", "b = a[::-1]", "b = list(a)", "b = sorted(a)", "b = tuple(a)", "b = copy.copy(a)",
		"b = max(a)", "b = sum(a)", "b = any(a)", "b = 1 in a", "b = a.count(1)", "b = a.index(0, 1)",
		"b = a == a", "b = s[:]", "b = s[::-1]", "b = s.upper()", "b = s.replace('x', 'y')", "b = s.find('y')",
		"b = 'y' in s", "b = s + ''", "b = f'{s}'", "b = '%s' % s", "b = '{}'.format(s)", "b = ''.join(w)",
		"b = d.keys()", "b = list(d.values())", "b = d.copy()", "b = copy.copy(d)", "b = 1 in d.values()",
		"b = s == s", "b = str(a)", "b = len(str(d))", "b = s.split('x')", "b = s.strip()", "b = s.startswith(s)",
		"g(a)", "g(d)", "g(a, d=d)", "if q: g(d)",
	} {
		d := ParseWith("h.py", []byte(head+op+tail), Python, Options{})
		limited := false
		for _, p := range d.Problems {
			limited = limited || p.Kind == LimitExceeded
		}
		if !limited {
			t.Errorf("%q: no limit stopped it (problems %+v)", op, d.Problems)
		}
	}
}
