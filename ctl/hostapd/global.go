package hostapd

import (
	"strings"
)

// GlobalKind is what a command on the global socket (hostapd -g) asks.
type GlobalKind uint8

// The global commands, as hostapd_global_ctrl_iface_receive matches them.
const (
	GlobalUnknown GlobalKind = iota // answered FAIL, as hostapd's global socket does
	GlobalPing
	GlobalRelog
	GlobalFlush
	GlobalAdd
	GlobalRemove
	GlobalAttach
	GlobalDetach
	GlobalInterfaces
	// GlobalIfname is "IFNAME=NAME COMMAND": the command for that
	// interface's socket.
	GlobalIfname
)

// GlobalCommand is one parsed global command.
type GlobalCommand struct {
	Kind GlobalKind
	// ADD bss_config=PHY:FILE sets Phy and File; ADD IFNAME config=FILE
	// sets Iface and File; ADD IFNAME CTRL_DIR [DRIVER] sets Iface,
	// CtrlDir and Driver. REMOVE and IFNAME= set Iface.
	Iface, Phy, File, CtrlDir, Driver string
	Ctrl                              bool   // INTERFACES ctrl: with each socket's directory
	Command                           []byte // IFNAME='s command
}

// ParseGlobal reads one datagram of the global socket as hostapd 2.10
// does; bad arguments are ErrFail, an unknown command GlobalUnknown.
func ParseGlobal(b []byte) (GlobalCommand, error) {
	s, ok := requestText(b)
	if !ok {
		return GlobalCommand{}, ErrFail
	}
	if rest, ok := strings.CutPrefix(s, "IFNAME="); ok {
		if name, cmd, ok := strings.Cut(rest, " "); ok {
			return GlobalCommand{Kind: GlobalIfname, Iface: name, Command: []byte(cmd)}, nil
		}
	}
	switch {
	case s == "PING":
		return GlobalCommand{Kind: GlobalPing}, nil
	case strings.HasPrefix(s, "RELOG"):
		return GlobalCommand{Kind: GlobalRelog}, nil
	case s == "FLUSH":
		return GlobalCommand{Kind: GlobalFlush}, nil
	case strings.HasPrefix(s, "ADD "):
		return parseAdd(s[4:])
	case strings.HasPrefix(s, "REMOVE "):
		return GlobalCommand{Kind: GlobalRemove, Iface: s[7:]}, nil
	case s == "ATTACH" || strings.HasPrefix(s, "ATTACH "):
		return GlobalCommand{Kind: GlobalAttach}, nil
	case s == "DETACH":
		return GlobalCommand{Kind: GlobalDetach}, nil
	case strings.HasPrefix(s, "INTERFACES"):
		return GlobalCommand{Kind: GlobalInterfaces, Ctrl: strings.Contains(s[10:], "ctrl")}, nil
	}
	return GlobalCommand{}, nil
}

// parseAdd reads ADD's three forms (hostapd_add_iface).
func parseAdd(s string) (GlobalCommand, error) {
	c := GlobalCommand{Kind: GlobalAdd}
	if rest, ok := strings.CutPrefix(s, "bss_config="); ok {
		phy, file, ok := strings.Cut(rest, ":")
		if !ok || file == "" || phy == "" { // hostapd would find no radio named ""
			return GlobalCommand{}, ErrFail
		}
		c.Phy, c.File = phy, file
		return c, nil
	}
	name, rest, ok := strings.Cut(s, " ")
	if !ok || name == "" {
		return GlobalCommand{}, ErrFail
	}
	c.Iface = name
	if file, ok := strings.CutPrefix(rest, "config="); ok {
		c.File = file
		return c, nil
	}
	c.CtrlDir, c.Driver, _ = strings.Cut(rest, " ")
	return c, nil
}

// AppendInterfaces appends INTERFACES' reply: one line per BSS, with
// "ctrl_iface=DIR" (or N/A) when asked.
func AppendInterfaces(b []byte, names, dirs []string, ctrl bool) []byte {
	for i, n := range names {
		b = append(b, n...)
		if ctrl {
			d := dirs[i]
			if d == "" {
				d = "N/A"
			}
			b = append(b, " ctrl_iface="+d...)
		}
		b = append(b, '\n')
	}
	return b
}
