package readmetest

import "testing"

// fakeT records failures instead of stopping the test.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Fatalf(string, ...any) { f.failed = true; panic(f) }

func run(f func(t testing.TB)) (failed bool) {
	ft := &fakeT{}
	defer func() {
		if r := recover(); r != nil && r != ft {
			panic(r)
		}
		failed = ft.failed
	}()
	f(ft)
	return ft.failed
}

func TestCheck(t *testing.T) {
	// The README's own words about this package's figures would do, but
	// any stable passage serves: its title line.
	if q := Quote(t, `(?m)^# (airq)$`); len(q) != 1 || q[0] != "airq" {
		t.Fatalf("title: %q", q)
	}
	for _, c := range []struct {
		name   string
		f      func(testing.TB)
		failed bool
	}{
		{"same", func(t testing.TB) { Check(t, `(?m)^# (airq)$`, "airq") }, false},
		{"drifted", func(t testing.TB) { Check(t, `(?m)^# (airq)$`, "airq2") }, true},
		{"no passage", func(t testing.TB) { Check(t, `no such passage (\d+)`, "1") }, true},
		{"two passages", func(t testing.TB) { Quote(t, `(airq)`) }, true},
		{"not a RESULT line", func(t testing.TB) { CheckResult(t, "join_during_flood_s=0.098") }, true},
		{"a figure missing", func(t testing.TB) { CheckResult(t, "RESULT join_during_flood_s=0.098") }, true},
	} {
		if got := run(c.f); got != c.failed {
			t.Errorf("%s: failed %v, want %v", c.name, got, c.failed)
		}
	}
}
