package config

import "fmt"

// A file is sections, as hostapd reads it: the lines before the first
// bss=NAME line configure the radio and its first BSS, and each bss= line
// starts the section of another BSS, NAME, which its lines configure up
// to the next bss= line. A section takes BSS keys only (IsBSSKey); its
// problems name it ("bss guest: line 23: ...").

// MaxBSSes is the most BSSes a file may configure on its radio.
const MaxBSSes = 8

// section is one section's lines: the first's (name "", at 0) or a bss=
// section's, at its bss= line.
type section struct {
	name  string
	at    int
	lines []line
}

// splitSections cuts the lines at each bss= line; the first section, maybe
// empty, is always there.
func splitSections(ls []line) []section {
	out := []section{{}}
	for _, l := range ls {
		if l.key == "bss" {
			out = append(out, section{name: l.value, at: l.n})
			continue
		}
		cur := &out[len(out)-1]
		cur.lines = append(cur.lines, l)
	}
	return out
}

// sectionKeys is bss= itself; splitSections acts on it, its setter checks
// the name.
var sectionKeys = map[string]Key{
	"bss": {Want: "an interface name of 1 to 15 characters, without blanks or '/': the lines after it configure that BSS, whose TAP and control socket take the name",
		set: func(_ *Settings, v string) error { return ifnameOK(v) }},
}

// checkHeader checks the bss= line of the nth BSS.
func (f *File) checkHeader(nth int) Problems {
	l := line{key: "bss", value: f.name, n: f.at}
	var ps Problems
	if p := f.check(&Settings{}, l); p != nil {
		ps = append(ps, *p)
	}
	if nth > MaxBSSes {
		ps = append(ps, *f.problem(l, fmt.Sprintf("BSS number %d: a radio takes at most %d BSSes (the first section and %d bss= sections)", nth, MaxBSSes, MaxBSSes-1)))
	}
	return ps
}

// radioKeyHere refuses a radio key in a bss= section.
func (f *File) radioKeyHere(l line) *Problem {
	if _, ok := keys[l.key]; !ok || f.at == 0 || IsBSSKey(l.key) || l.key == "bss" {
		return nil
	}
	return f.problem(l, fmt.Sprintf("a radio key, which a bss= section cannot set: set it before line %d, the first bss= line, where it applies to every BSS", f.firstAt))
}

// label names the section of each problem of the file's lines that does
// not name one yet: "bss NAME" for a bss= section, "interface NAME" for
// the first section of a file that has others, once Apply knows its name.
func (f *File) label(ps Problems) Problems {
	for i := range ps {
		p := &ps[i]
		if p.Section != "" || p.Path != f.path || p.Line == 0 {
			continue
		}
		p.Section = f.sectionOf(p.Line)
	}
	return ps
}

// sectionOf names the section of line n, "" for the first section while
// its name is unknown or the file has no other.
func (f *File) sectionOf(n int) string {
	for i := len(f.bsses) - 1; i >= 0; i-- {
		if b := f.bsses[i]; n >= b.at {
			return "bss " + b.name
		}
	}
	if len(f.bsses) == 0 || f.first == "" {
		return ""
	}
	return "interface " + f.first
}
