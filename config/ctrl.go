package config

import (
	"fmt"
	"os/user"
	"strconv"
	"strings"
)

// ctrlKeys are hostapd's control interface: the directory of its sockets,
// one per BSS named after the interface, and the group that may use them.
var ctrlKeys = map[string]Key{
	"ctrl_interface": {Flags: flag("ctrl-interface"), Want: "a directory for hostapd's control sockets (hostapd_cli -p DIR), or DIR=path GROUP=group",
		set: setCtrlInterface},
	"ctrl_interface_group": {Flags: flag("ctrl-interface-group"), Want: "a group name or number (the group that may use the sockets)",
		set: func(s *Settings, v string) error {
			s.CtrlGroup = v
			_, err := LookupGroup(v)
			return err
		}},
}

// setCtrlInterface takes a directory or hostapd's "DIR=path GROUP=group"
// form, whose group is ctrl_interface_group's.
func setCtrlInterface(s *Settings, v string) error {
	dir, ok := strings.CutPrefix(v, "DIR=")
	if !ok {
		s.CtrlInterface = v
		return nil
	}
	dir, group, hasGroup := strings.Cut(dir, " GROUP=")
	if dir == "" {
		return saysWhy{fmt.Errorf("%q: DIR= names no directory", v)}
	}
	s.CtrlInterface = dir
	if hasGroup {
		s.CtrlGroup = group
		if _, err := LookupGroup(group); err != nil {
			return err
		}
	}
	return nil
}

// LookupGroup resolves a group as hostapd does: a name, else a number.
// "" is no group (-1): the directory and sockets keep the daemon's.
func LookupGroup(v string) (int, error) {
	if v == "" {
		return -1, nil
	}
	if g, err := user.LookupGroup(v); err == nil {
		return strconv.Atoi(g.Gid)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return -1, saysWhy{fmt.Errorf("group %q: no such group name, and not a group number", v)}
	}
	return n, nil
}
