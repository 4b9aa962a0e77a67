package config

import (
	"fmt"
	"strings"
)

// NotServed refuses, one problem each, what a file may configure and
// airqd does not serve yet: a BSS after the first, an airtime policy, an
// airtime cap. The file is read and checked as a whole, and then refused
// here, so that nothing is accepted silently; wiring the core to several
// BSSes and to the airtime policy removes the refusal it serves. f may be
// nil (no file).
func (f *File) NotServed(s *Settings) Problems {
	if f == nil {
		return nil
	}
	var ps Problems
	if len(s.BSSes) > 0 {
		names := []string{s.FirstBSSName()}
		for _, b := range s.BSSes {
			names = append(names, b.Name)
		}
		l := line{key: "bss", value: s.BSSes[0].Name, n: s.BSSes[0].Line}
		ps = append(ps, *f.bsses[0].problem(l, fmt.Sprintf("airqd does not serve more than one BSS on a radio yet: this file configures %d (%s); remove the bss= sections to start", len(names), strings.Join(names, ", "))))
	}
	if n := f.Line("airtime_mode"); n > 0 && s.Airtime.Mode != AirtimeOff {
		ps = append(ps, *f.problem(line{key: "airtime_mode", n: n}, fmt.Sprintf("%d: airqd does not apply airtime policies yet: want 0 (off: stations weigh airtime_weight)", s.Airtime.Mode)))
	}
	ps = append(ps, f.capNotServed(s.BSSAirtime)...)
	for i, b := range s.BSSes {
		ps = append(ps, f.bsses[i].capNotServed(b.Settings.BSSAirtime)...)
	}
	return f.label(ps)
}

// capNotServed refuses the section's airtime cap.
func (f *File) capNotServed(a BSSAirtime) Problems {
	n := f.Line("airtime_bss_cap")
	if n == 0 || !a.Capped() {
		return nil
	}
	return Problems{*f.problem(line{key: "airtime_bss_cap", n: n}, fmt.Sprintf("%d%%: airqd does not hold an airtime cap yet: remove the line (100 is no cap)", a.CapPercent))}
}
