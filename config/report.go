package config

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"strings"
)

// The daemon's own checks, of what only the settings together show, come
// back as errors "key: what" or "-flag: what"; Explain turns them into
// problems at the file's lines, so that every problem of a start, a reload
// or -check-config reads the same.

// Explain turns a check's error (one, errors.Join of several, or Problems)
// into problems, each placed by Locate. f may be nil (no file).
func (f *File) Explain(err error, flagSet map[string]bool) Problems {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	var ps Problems
	for _, e := range errs {
		var cp Problems
		if errors.As(e, &cp) {
			ps = append(ps, cp...)
			continue
		}
		ps = append(ps, f.Locate(e.Error(), flagSet))
	}
	return ps
}

// Locate places msg, "key: what", at the line of the key when the file
// sets it and no flag of flagSet overrides it, "bss NAME: what" at the
// bss= line of that section; otherwise msg stands alone.
func (f *File) Locate(msg string, flagSet map[string]bool) Problem {
	key, rest, ok := strings.Cut(msg, ": ")
	if name, isBSS := strings.CutPrefix(key, "bss "); ok && isBSS && f != nil {
		if sec, found := f.Section(name); found { // the core's "bss NAME: what"
			return Problem{Path: f.path, Line: sec.at, Key: "bss", Msg: rest, Section: key}
		}
	}
	if !ok || f == nil || f.Line(key) == 0 || keys[key].OverriddenBy(flagSet) != "" {
		return Problem{Msg: msg}
	}
	return Problem{Path: f.path, Line: f.Line(key), Key: key, Msg: rest, Section: f.sectionOf(f.Line(key))}
}

// Source names where a setting comes from in a message: the file's key
// when the file sets it and the flag was not given, else the flag. f may
// be nil.
func (f *File) Source(flagSet map[string]bool, flag, key string) string {
	if !flagSet[flag] && f != nil && f.Line(key) > 0 {
		return key
	}
	return "-" + flag
}

// AsProblems is err as problems: its own if it is Problems, else one.
func AsProblems(err error) Problems {
	var ps Problems
	if err != nil && !errors.As(err, &ps) {
		ps = Problems{{Msg: err.Error()}}
	}
	return ps
}

// Log logs each problem after prefix: errors at the error level, warnings
// at the warning level.
func (ps Problems) Log(log *slog.Logger, prefix string) {
	for _, p := range ps {
		level := slog.LevelError
		if p.Warning {
			level, p.Warning = slog.LevelWarn, false // the level says it
		}
		log.Log(context.Background(), level, prefix+p.String())
	}
}

// Report writes every problem, the file's in line order and then the
// command line's, and a summary line for path; it reports whether there
// were only warnings (airqd would start).
func Report(w io.Writer, path string, ps Problems) bool {
	ps = slices.Clone(ps)
	slices.SortStableFunc(ps, func(a, b Problem) int { return cmp.Compare(lineOrLast(a), lineOrLast(b)) })
	for _, p := range ps {
		fmt.Fprintln(w, p)
	}
	nw := len(ps.Warnings())
	if ne := len(ps) - nw; ne > 0 {
		fmt.Fprintf(w, "%s: %s, %s: airqd would not start\n", path, count(ne, "error"), count(nw, "warning"))
		return false
	}
	fmt.Fprintf(w, "%s: %s: airqd would start\n", path, count(nw, "warning"))
	return true
}

func lineOrLast(p Problem) int {
	if p.Path == "" {
		return math.MaxInt
	}
	return p.Line
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
