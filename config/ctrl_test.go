package config

import (
	"os"
	"strconv"
	"testing"
)

// ctrl_interface and ctrl_interface_group as hostapd reads them: a
// directory, or DIR=... GROUP=...; a group by name or number.
func TestCtrlInterface(t *testing.T) {
	for _, c := range []struct{ file, dir, group string }{
		{"ctrl_interface=/var/run/hostapd\nctrl_interface_group=0\n", "/var/run/hostapd", "0"},
		{"ctrl_interface=DIR=/run/hostapd GROUP=root\n", "/run/hostapd", "root"},
		{"ctrl_interface=DIR=/run/hostapd\n", "/run/hostapd", ""},
	} {
		s, ps := parse(t, c.file)
		if len(ps) != 0 || s.CtrlInterface != c.dir || s.CtrlGroup != c.group {
			t.Errorf("%q: %q %q, %v", c.file, s.CtrlInterface, s.CtrlGroup, ps)
		}
	}
	for _, bad := range []string{"ctrl_interface_group=no-such-group-here\n", "ctrl_interface=DIR= GROUP=0\n",
		"ctrl_interface=DIR=/run/x GROUP=no-such-group-here\n", "ctrl_interface_group=-4\n"} {
		if _, ps := parse(t, bad); ps.Err() == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if g, err := LookupGroup("root"); err != nil || g != 0 {
		t.Errorf("root: %d, %v", g, err)
	}
	own := strconv.Itoa(os.Getgid())
	if g, err := LookupGroup(own); err != nil || strconv.Itoa(g) != own {
		t.Errorf("%s: %d, %v", own, g, err)
	}
}
