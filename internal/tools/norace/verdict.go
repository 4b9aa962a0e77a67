package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	Elapsed    float64
	ImportPath string // build-output, build-fail
}

type testKey struct{ pkg, test string }

// verdict reads the events of one `go test -json` run and reports, on w,
// every wanted top-level test with its outcome. It fails (returns false) when
// a wanted test did not pass or never ran, when any test or subtest skipped
// or failed, and when a package failed without a failing test (a build
// error, a panic at init).
func verdict(r io.Reader, want map[string][]string, w io.Writer) (bool, error) {
	out := map[testKey][]string{}
	res := map[testKey]event{}
	pkgFail := map[string]bool{}
	var order []testKey
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return false, fmt.Errorf("go test -json: %v: %q", err, sc.Text())
		}
		switch e.Action {
		case "output", "build-output":
			k := testKey{e.Package + e.ImportPath, e.Test}
			out[k] = append(out[k], e.Output)
		case "pass", "fail", "skip":
			k := testKey{e.Package, e.Test}
			if e.Test == "" {
				pkgFail[e.Package] = pkgFail[e.Package] || e.Action == "fail"
				continue
			}
			if _, seen := res[k]; !seen {
				order = append(order, k)
			}
			res[k] = e
		case "build-fail":
			pkgFail[e.ImportPath] = true
		}
	}
	if err := sc.Err(); err != nil {
		return false, err
	}
	ok := true
	pkgs := make([]string, 0, len(want))
	for p := range want {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		for _, t := range want[p] {
			k := testKey{p, t}
			e, ran := res[k]
			switch {
			case !ran:
				ok = false
				fmt.Fprintf(w, "norace: MISSING %s %s: selected but reported no result\n", p, t)
			case e.Action == "pass":
				fmt.Fprintf(w, "norace: pass    %s %s (%.2fs)\n", p, t, e.Elapsed)
			}
		}
	}
	// Every skip and failure, subtests included, with what the test printed.
	testFailed := map[string]bool{}
	for _, k := range order {
		e := res[k]
		if e.Action == "pass" {
			continue
		}
		ok = false
		testFailed[k.pkg] = true
		fmt.Fprintf(w, "norace: %-7s %s %s: a test of the non-race pass must run and pass\n", strings.ToUpper(e.Action), k.pkg, k.test)
		printOutput(w, out[k])
	}
	failedPkgs := make([]string, 0, len(pkgFail))
	for p, failed := range pkgFail {
		if failed && !testFailed[p] {
			failedPkgs = append(failedPkgs, p)
		}
	}
	sort.Strings(failedPkgs)
	for _, p := range failedPkgs {
		{
			ok = false
			fmt.Fprintf(w, "norace: FAIL    %s: the package failed outside its tests\n", p)
			printOutput(w, out[testKey{p, ""}])
		}
	}
	return ok, nil
}

func printOutput(w io.Writer, lines []string) {
	for _, l := range lines {
		if strings.HasPrefix(l, "=== ") {
			continue
		}
		fmt.Fprintf(w, "norace:     %s", l)
		if !strings.HasSuffix(l, "\n") {
			fmt.Fprintln(w)
		}
	}
}
