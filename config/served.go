package config

import (
	"fmt"
	"strings"
)

// NotServed refuses what a file may configure and airqd does not serve
// yet: a BSS after the first. The file is read and checked as a whole,
// and then refused here, so that nothing is accepted silently; wiring
// the core to several BSSes removes the refusal. f may be nil (no file).
func (f *File) NotServed(s *Settings) Problems {
	if f == nil || len(s.BSSes) == 0 {
		return nil
	}
	names := []string{s.FirstBSSName()}
	for _, b := range s.BSSes {
		names = append(names, b.Name)
	}
	l := line{key: "bss", value: s.BSSes[0].Name, n: s.BSSes[0].Line}
	return f.label(Problems{*f.bsses[0].problem(l, fmt.Sprintf("airqd does not serve more than one BSS on a radio yet: this file configures %d (%s); remove the bss= sections to start", len(names), strings.Join(names, ", ")))})
}
