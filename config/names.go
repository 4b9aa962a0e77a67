package config

import (
	"fmt"
	"path/filepath"
)

// A bss= section's name becomes a network interface (its TAP) and, with
// ctrl_interface, a control socket: CheckNames refuses a name that the
// system or another socket already has.

// Netdevs tells which network interfaces exist: the system's in airqd,
// a fake in tests.
type Netdevs interface {
	// Exists reports whether a network interface of that name exists.
	Exists(name string) (bool, error)
}

// CheckNames refuses a bss= section whose TAP would take the name of a
// network interface that exists, or whose hostapd control socket
// (ctrl_interface's directory and the BSS's name) is the path of another
// BSS's, or one of sockets (airqd's control socket, hostapd's global
// one). The first BSS's interface exists by design, and is not checked.
func (f *File) CheckNames(s *Settings, nd Netdevs, sockets ...string) Problems {
	if f == nil {
		return nil
	}
	var ps Problems
	owner := map[string]string{}
	for _, p := range sockets {
		if p != "" {
			owner[filepath.Clean(p)] = "another control socket of airqd's"
		}
	}
	if s.CtrlInterface != "" {
		owner[filepath.Join(s.CtrlInterface, s.FirstBSSName())] = "the first BSS's control socket"
	}
	for i, b := range s.BSSes {
		sec := f.bsses[i]
		at := line{key: "bss", value: b.Name, n: b.Line}
		for _, name := range uniq(b.Name, b.Settings.Tap) {
			exists, err := nd.Exists(name)
			switch {
			case err != nil:
				ps = append(ps, *sec.problem(at, fmt.Sprintf("cannot tell whether a network interface %q exists: %v", name, err)))
			case exists:
				ps = append(ps, *sec.problem(at, fmt.Sprintf("a network interface named %q exists (ip link show %s): the BSS's TAP takes that name; choose another", name, name)))
			}
		}
		dir := b.Settings.CtrlInterface
		if dir == "" {
			dir = s.CtrlInterface // the radio's: airqd opens the section's socket there
		}
		if dir == "" {
			continue
		}
		path := filepath.Join(dir, b.Name)
		if o, taken := owner[path]; taken {
			ps = append(ps, *sec.problem(at, fmt.Sprintf("its control socket %s is already %s", path, o)))
			continue
		}
		owner[path] = fmt.Sprintf("the control socket of bss %s (line %d)", b.Name, b.Line)
	}
	return f.label(ps)
}

// uniq is the names once each, in order.
func uniq(a, b string) []string {
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}
