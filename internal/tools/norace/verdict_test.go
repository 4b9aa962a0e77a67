package main

import (
	"strings"
	"testing"
)

const pkg = "example.com/p"

func events(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

func TestVerdict(t *testing.T) {
	pass := `{"Action":"pass","Package":"example.com/p","Test":"TestA","Elapsed":0.1}`
	for _, c := range []struct {
		name, in string
		ok       bool
		says     string
	}{
		{"pass", events(`{"Action":"run","Package":"example.com/p","Test":"TestA"}`, pass,
			`{"Action":"pass","Package":"example.com/p"}`), true, "pass    example.com/p TestA"},
		{"skip", events(`{"Action":"output","Package":"example.com/p","Test":"TestA","Output":"    a_test.go:3: not here\n"}`,
			`{"Action":"skip","Package":"example.com/p","Test":"TestA"}`, `{"Action":"pass","Package":"example.com/p"}`),
			false, "a_test.go:3: not here"},
		{"subtest skip", events(`{"Action":"skip","Package":"example.com/p","Test":"TestA/sub"}`, pass,
			`{"Action":"pass","Package":"example.com/p"}`), false, "SKIP    example.com/p TestA/sub"},
		{"fail", events(`{"Action":"output","Package":"example.com/p","Test":"TestA","Output":"    a_test.go:9: 3 allocs\n"}`,
			`{"Action":"fail","Package":"example.com/p","Test":"TestA"}`, `{"Action":"fail","Package":"example.com/p"}`),
			false, "3 allocs"},
		{"missing", events(`{"Action":"pass","Package":"example.com/p"}`), false, "MISSING example.com/p TestA"},
		{"build failure", events(`{"Action":"build-output","ImportPath":"example.com/p [example.com/p.test]","Output":"x.go:1: undefined: y\n"}`,
			`{"Action":"build-fail","ImportPath":"example.com/p [example.com/p.test]"}`,
			`{"Action":"fail","Package":"example.com/p"}`), false, "MISSING"},
		{"package failure", events(pass, `{"Action":"output","Package":"example.com/p","Output":"panic: init\n"}`,
			`{"Action":"fail","Package":"example.com/p"}`), false, "panic: init"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			ok, err := verdict(strings.NewReader(c.in), map[string][]string{pkg: {"TestA"}}, &out)
			if err != nil {
				t.Fatal(err)
			}
			if ok != c.ok || !strings.Contains(out.String(), c.says) {
				t.Errorf("ok = %v, want %v; output:\n%s(want it to contain %q)", ok, c.ok, out.String(), c.says)
			}
		})
	}
}

func TestVerdictBadJSON(t *testing.T) {
	if _, err := verdict(strings.NewReader("not json\n"), nil, &strings.Builder{}); err == nil {
		t.Error("no error for a line that is not JSON")
	}
}
