package readmetest

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Quote returns the figures of the one passage of README.md that pattern
// matches: its groups, in order. It fails t unless exactly one passage
// matches, so that a reworded README cannot leave a figure unchecked.
func Quote(t testing.TB, pattern string) []string {
	t.Helper()
	re := regexp.MustCompile(pattern)
	ms := re.FindAllStringSubmatch(text(t), -1)
	if len(ms) != 1 {
		t.Fatalf("README.md: %d passages match %q, want 1", len(ms), pattern)
	}
	return ms[0][1:]
}

// Check fails t unless the README's passage at pattern quotes got, group
// by group, as written (commas in numbers aside).
func Check(t testing.TB, pattern string, got ...string) {
	t.Helper()
	quoted := Quote(t, pattern)
	if len(quoted) != len(got) {
		t.Fatalf("README.md: %q has %d figures, the test computed %d", pattern, len(quoted), len(got))
	}
	for i := range got {
		if strings.ReplaceAll(quoted[i], ",", "") != got[i] {
			t.Errorf("README.md quotes %s at %q (figure %d); the test computes %s: update the README", quoted[i], pattern, i+1, got[i])
		}
	}
}

// CheckNear is Check for one figure that may move by slack either way
// from run to run (a live-heap or allocation measurement).
func CheckNear(t testing.TB, pattern string, got, slack float64) {
	t.Helper()
	quoted := Quote(t, pattern)
	if len(quoted) != 1 {
		t.Fatalf("README.md: %q has %d figures, want 1", pattern, len(quoted))
	}
	q, err := strconv.ParseFloat(strings.ReplaceAll(quoted[0], ",", ""), 64)
	if err != nil {
		t.Fatalf("README.md: %q: %v", pattern, err)
	}
	if got < q-slack || got > q+slack {
		t.Errorf("README.md quotes %s at %q; the test computes %g (±%g): update the README", quoted[0], pattern, got, slack)
	}
}

// text is README.md, found in the module's root above the test's
// directory.
func text(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			b, err := os.ReadFile(filepath.Join(dir, "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("README.md: no go.mod above the test's directory")
		}
		dir = up
	}
}

// CheckResult fails t unless the README quotes the RESULT line a command
// printed (got, "RESULT key=value ..."), found by its first key: every
// figure but those of loose (keys whose figures the collector moves),
// which must only be present.
func CheckResult(t testing.TB, got string, loose ...string) {
	t.Helper()
	fields := strings.Fields(strings.TrimSpace(got))
	if len(fields) < 2 || fields[0] != "RESULT" {
		t.Fatalf("not a RESULT line: %q", got)
	}
	first, _, _ := strings.Cut(fields[1], "=")
	quoted := strings.Fields(Quote(t, `(?m)^\s*(RESULT `+regexp.QuoteMeta(first)+`=.*)$`)[0])
	want := map[string]string{}
	for _, f := range quoted[1:] {
		k, v, _ := strings.Cut(f, "=")
		want[k] = v
	}
	for _, f := range fields[1:] {
		k, v, _ := strings.Cut(f, "=")
		q, ok := want[k]
		switch {
		case !ok:
			t.Errorf("README.md's RESULT %s= line has no %s (the command prints %s)", first, k, v)
		case q != v && !slices.Contains(loose, k):
			t.Errorf("README.md quotes %s=%s; the command prints %s=%s: update the README", k, q, k, v)
		}
		delete(want, k)
	}
	for k := range want {
		t.Errorf("README.md's RESULT %s= line has %s, which the command no longer prints", first, k)
	}
}
