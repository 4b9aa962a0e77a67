package shell

import (
	"context"
	"errors"

	"github.com/airq/airq/ctl/hostapd"
)

// HostapdGlobal carries out the global socket's commands (hostapd -g)
// that add and remove BSSes; the daemon implements it. Its methods are
// called from the global socket's goroutine, one at a time.
type HostapdGlobal interface {
	// Add is ADD in its three forms (hostapd.GlobalCommand).
	Add(ctx context.Context, c hostapd.GlobalCommand) error
	// Remove is REMOVE IFNAME.
	Remove(ctx context.Context, iface string) error
	// Interfaces lists the BSSes and their sockets' directories ("" for
	// none).
	Interfaces() (names, dirs []string)
	// Lookup is the named BSS's socket, for IFNAME= commands; nil if it
	// has none.
	Lookup(iface string) *HostapdServer
}

// globalIface answers the global socket; its hostapdIface holds the
// monitors, which get the BSSes' events with "IFNAME=NAME " before them.
type globalIface struct {
	h *hostapdIface
	g HostapdGlobal
}

func (gi *globalIface) answer(b []byte, from string) []byte {
	c, err := hostapd.ParseGlobal(b)
	if err != nil {
		return hostapd.ReplyFail
	}
	ctx, cancel := context.WithTimeout(gi.h.ctx, callTimeout)
	defer cancel()
	switch c.Kind {
	case hostapd.GlobalPing:
		return hostapd.ReplyPong
	case hostapd.GlobalRelog:
		return hostapd.ReplyOK
	case hostapd.GlobalAttach:
		return gi.h.ok(gi.h.attach(from))
	case hostapd.GlobalDetach:
		return gi.h.ok(gi.h.detach(from))
	case hostapd.GlobalInterfaces:
		names, dirs := gi.g.Interfaces()
		return hostapd.Fit(hostapd.AppendInterfaces(gi.h.buf[:0], names, dirs, c.Ctrl))
	case hostapd.GlobalIfname:
		if s := gi.g.Lookup(c.Iface); s != nil {
			return s.h.answer(c.Command, from)
		}
		return gi.fail("IFNAME="+c.Iface, errors.New("no such interface"))
	case hostapd.GlobalAdd:
		return gi.changed("ADD", gi.g.Add(ctx, c))
	case hostapd.GlobalRemove:
		return gi.changed("REMOVE "+c.Iface, gi.g.Remove(ctx, c.Iface))
	case hostapd.GlobalFlush:
		names, _ := gi.g.Interfaces()
		for _, n := range names {
			if err := gi.g.Remove(ctx, n); err != nil {
				gi.fail("FLUSH", err)
			}
		}
		return gi.changed("FLUSH", nil)
	}
	return gi.fail("global command", errors.New("unrecognized: the global socket takes PING, RELOG, FLUSH, ADD, REMOVE, ATTACH, DETACH, INTERFACES and IFNAME="))
}

// changed answers an ADD, REMOVE or FLUSH and points the monitors' event
// prefix at the BSS there is now.
func (gi *globalIface) changed(what string, err error) []byte {
	names, _ := gi.g.Interfaces()
	gi.h.mu.Lock()
	gi.h.prefix = ""
	if len(names) > 0 {
		gi.h.prefix = "IFNAME=" + names[0] + " "
	}
	gi.h.mu.Unlock()
	if err != nil {
		return gi.fail(what, err)
	}
	return hostapd.ReplyOK
}

func (gi *globalIface) fail(what string, err error) []byte {
	if gi.h.cfg.Log != nil {
		gi.h.cfg.Log.Warn("hostapd global control: refused", "command", what, "err", err)
	}
	return hostapd.ReplyFail
}
