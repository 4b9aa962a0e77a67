// Command norace is the gate's non-race pass. `make race` runs every test
// under the race detector, which perturbs allocation counts and slows
// single-goroutine arithmetic, so the allocation tests skip there and the
// long property tests shrink (raceEnabled, in each package's race_on_test.go
// and race_off_test.go). norace finds those tests in the source (every test
// that reaches testing.AllocsPerRun or raceEnabled through the helpers of its
// test files), runs them with `go test -json` without -race or -short, and
// fails unless each one ran and passed with no skip anywhere.
//
//	go run ./internal/tools/norace [-go go] [packages]   (default ./...)
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	goCmd := flag.String("go", "go", "the go command")
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	if err := run(*goCmd, patterns, os.Stdout); err != nil {
		fmt.Fprintf(os.Stdout, "norace: FAIL: %v\n", err)
		os.Exit(1)
	}
}

func run(goCmd string, patterns []string, w io.Writer) error {
	want, err := discover(goCmd, patterns)
	if err != nil {
		return err
	}
	var pkgs []string
	names := map[string]bool{}
	n := 0
	for p, ts := range want {
		pkgs = append(pkgs, p)
		for _, t := range ts {
			names[t] = true
			n++
		}
	}
	if n == 0 {
		return errors.New("no allocation or race-dependent test found: the selection is broken")
	}
	sort.Strings(pkgs)
	fmt.Fprintf(w, "norace: the non-race pass: %d tests in %d packages (every test reaching testing.AllocsPerRun or %s), go test -json without -race; any skip fails it\n", n, len(pkgs), raceIdent)
	var list []string
	for t := range names {
		list = append(list, t)
	}
	sort.Strings(list)
	args := append([]string{"test", "-count=1", "-json", "-run", "^(" + strings.Join(list, "|") + ")$"}, pkgs...)
	cmd := exec.Command(goCmd, args...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	ok, verr := verdict(stdout, want, w)
	werr := cmd.Wait()
	switch {
	case verr != nil:
		return verr
	case !ok:
		return fmt.Errorf("the non-race pass found skipped, failed or missing tests (above)")
	case werr != nil:
		return fmt.Errorf("go test: %v", werr)
	}
	fmt.Fprintf(w, "norace: ok: %d tests passed without -race, none skipped\n", n)
	return nil
}

// discover lists the packages and selects, in each, the tests of its
// internal and of its external test package.
func discover(goCmd string, patterns []string) (map[string][]string, error) {
	out, err := exec.Command(goCmd, append([]string{"list", "-json=ImportPath,Dir,TestGoFiles,XTestGoFiles"}, patterns...)...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("go list: %v: %s", err, ee.Stderr)
		}
		return nil, err
	}
	want := map[string][]string{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath, Dir           string
			TestGoFiles, XTestGoFiles []string
		}
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		for _, set := range [][]string{p.TestGoFiles, p.XTestGoFiles} {
			files := map[string][]byte{}
			for _, f := range set {
				b, err := os.ReadFile(filepath.Join(p.Dir, f))
				if err != nil {
					return nil, err
				}
				files[f] = b
			}
			ts, err := selectTests(files)
			if err != nil {
				return nil, err
			}
			want[p.ImportPath] = append(want[p.ImportPath], ts...)
		}
		if len(want[p.ImportPath]) == 0 {
			delete(want, p.ImportPath)
		}
	}
	return want, nil
}
