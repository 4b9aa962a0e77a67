package config

import (
	"fmt"
	"strings"
)

// Problem is one finding of a check: an error, which keeps airqd from
// starting (and a reload from applying anything), or a warning, for what
// airq accepts without acting on it.
type Problem struct {
	Path    string // the file; "" for the command line
	Line    int    // 0: the file as a whole
	Key     string // the key the problem is about; "" for a line airq could not read as a key
	Msg     string // what is wrong and what to do
	Warning bool
	// Section names the file's section of the line in a file of several
	// BSSes ("bss guest"); "" otherwise.
	Section string
}

// String is "path:line: key: msg", with "warning: " before the key for a
// warning; a problem in a section reads "path: bss NAME: line N: key: msg".
func (p Problem) String() string {
	var b strings.Builder
	switch {
	case p.Path != "" && p.Section != "" && p.Line > 0:
		fmt.Fprintf(&b, "%s: %s: line %d: ", p.Path, p.Section, p.Line)
	case p.Path != "":
		b.WriteString(p.Path)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
		}
		b.WriteString(": ")
	}
	if p.Warning {
		b.WriteString("warning: ")
	}
	if p.Key != "" {
		b.WriteString(p.Key + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Problems are a check's findings in the order of the file's lines. As an
// error it reads one problem a line.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Err returns the errors among ps, nil when there are only warnings.
func (ps Problems) Err() error {
	var errs Problems
	for _, p := range ps {
		if !p.Warning {
			errs = append(errs, p)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// Warnings returns the warnings among ps.
func (ps Problems) Warnings() Problems {
	var out Problems
	for _, p := range ps {
		if p.Warning {
			out = append(out, p)
		}
	}
	return out
}

// warning is a setter's "accepted, but say this": the value was stored.
type warning struct{ msg string }

func (w warning) Error() string { return w.msg }
