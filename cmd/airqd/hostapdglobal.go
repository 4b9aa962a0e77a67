package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"github.com/airq/airq/config"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/ctl/hostapd"
	"github.com/airq/airq/shell"
)

// bssSlot is the radio's first BSS as hostapd's global socket sees it:
// added (with its own socket when it has a ctrl_interface) or removed
// (the core disabled), beside the file's bss= sections, which the global
// socket lists and reaches (IFNAME=) but neither adds nor removes. An ADD
// while the first BSS is there is refused, and so is one that would take
// a section's name.
type bssSlot struct {
	rl  *reloader
	srv *shell.ControlServer
	phy string // the radio bss_config= must name
	log *slog.Logger
	// testing and testIfname are -hostapd-testing's, for an added BSS's
	// socket.
	testing    bool
	testIfname string

	mu    sync.Mutex
	added bool
	name  string // the interface name: the socket's
	dir   string // its ctrl_interface; "" for no socket
	hs    *shell.HostapdServer
	// sections are the file's bss= sections with their sockets, from the
	// start. REMOVE of the first BSS switches the radio off, and every
	// BSS with it, as hostapd's removes the interface; their sockets stay
	// for the radio's next ADD.
	sections []bssSocket
	// pending: added with config= or CTRL_DIR, not yet enabled; its
	// configuration is file's, with staged's SET lines over it, applied
	// by ENABLE.
	pending bool
	file    string
	staged  []byte
}

// startGlobal opens hostapd's global socket (-g); socks are the BSSes'
// sockets opened at start (startHostapd), if any.
//
// The sections are listed (INTERFACES) and reached (IFNAME=) while the
// first BSS is there; REMOVE of the first switches the radio off, as
// hostapd's removes the interface with its BSSes, and a section's REMOVE
// is refused while the radio runs (airqd cannot take one BSS down).
func startGlobal(o options, srv *shell.ControlServer, rl *reloader, socks []bssSocket, log *slog.Logger) (*shell.HostapdServer, *bssSlot, error) {
	if o.Global == "" {
		return nil, nil, nil
	}
	var hs *shell.HostapdServer
	if len(socks) > 0 {
		hs = socks[0].hs
	}
	gid, err := config.LookupGroup(o.GlobalGroup)
	if err != nil {
		return nil, nil, fmt.Errorf("-G: %w", err)
	}
	slot := &bssSlot{rl: rl, srv: srv, phy: o.Phy, log: log, hs: hs, testing: o.hostapdTesting, testIfname: o.testIfname()}
	if len(socks) > 1 {
		slot.sections = socks[1:]
	}
	if o.Radio == "sim" {
		slot.phy = "sim"
	}
	if o.configPath != "" { // the BSS the file configures is there from the start
		slot.added, slot.name, slot.dir = true, o.hostapdIface(), o.CtrlInterface
	}
	gs, err := shell.ListenHostapdGlobal(srv, o.Global, gid, slot, log)
	if err != nil {
		return nil, nil, fmt.Errorf("-g: %w", err)
	}
	log.Info("hostapd global control interface", "socket", o.Global, "bss", slot.name)
	return gs, slot, nil
}

// Close closes the BSSes' sockets.
func (b *bssSlot) Close() {
	b.mu.Lock()
	hs, sections := b.hs, b.sections
	b.hs, b.sections = nil, nil
	b.mu.Unlock()
	if hs != nil {
		hs.Close()
	}
	closeSockets(sections)
}

var errOneBSS = errors.New("the radio's first BSS is there: REMOVE it first; airqd adds no BSS beside it " +
	"while running (a network beside the first is a bss= section of the file, started with airqd)")

func (b *bssSlot) Add(ctx context.Context, c hostapd.GlobalCommand) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.nameFree(c.Iface); err != nil {
		return err
	}
	if b.added {
		return errOneBSS
	}
	var (
		next options
		err  error
	)
	switch {
	case c.Phy != "": // bss_config=PHY:FILE: added and enabled at once
		if c.Phy != b.phy {
			return fmt.Errorf("bss_config=%s: airqd drives radio %s", c.Phy, b.phy)
		}
		if next, err = parseFlagsWith(withConfig(b.rl.args, c.File), nil); err != nil {
			return fmt.Errorf("bss_config: %w", err)
		}
		if err := b.addable(next); err != nil {
			return fmt.Errorf("bss_config=%s:%s: %w", c.Phy, c.File, err)
		}
		if err := b.take(ctx, next); err != nil {
			return err
		}
		if _, err := b.srv.Call(ctx, ctl.Request{Op: ctl.OpEnable}); err != nil {
			return err
		}
		b.name, b.dir, b.pending = next.hostapdIface(), next.CtrlInterface, false
	case c.File != "": // IFNAME config=FILE: enabled by ENABLE
		if next, err = parseFlagsWith(withConfig(b.rl.args, c.File), nil); err != nil {
			return fmt.Errorf("config=%s: %w", c.File, err)
		}
		if err := b.addable(next); err != nil {
			return fmt.Errorf("config=%s: %w", c.File, err)
		}
		b.name, b.dir, b.pending, b.file, b.staged = c.Iface, next.CtrlInterface, true, c.File, nil
	default: // IFNAME CTRL_DIR [DRIVER]: SET, then ENABLE
		if c.Driver != "" && c.Driver != "nl80211" {
			return fmt.Errorf("driver %s: airq drives mac80211 radios through nl80211 only", c.Driver)
		}
		b.rl.mu.Lock()
		next = b.rl.cur
		b.rl.mu.Unlock()
		b.name, b.dir, b.pending, b.file, b.staged = c.Iface, c.CtrlDir, true, "", nil
	}
	if b.dir != "" {
		gid, err := config.LookupGroup(next.CtrlGroup)
		if err != nil {
			return err
		}
		state := ""
		if b.pending {
			state = "UNINITIALIZED"
		}
		hs, err := shell.ListenHostapd(b.srv, shell.HostapdConfig{Dir: b.dir, Group: gid, Iface: b.name, Phy: b.phy, State: state,
			Backend: &hostapdBackend{rl: b.rl, srv: b.srv, slot: b}, BeforeEnable: b.enable, Testing: b.testing,
			TestIfname: b.testIfname, Log: b.log})
		if err != nil {
			return err
		}
		b.hs = hs
	}
	b.added = true
	b.log.Info("hostapd global control: BSS added", "interface", b.name, "ctrl_interface", b.dir, "enabled", !b.pending)
	return nil
}

// nameFree refuses an added BSS the name of a running bss= section,
// naming both: their sockets and events would be one. Call it with b.mu
// held.
func (b *bssSlot) nameFree(name string) error {
	for _, s := range b.sections {
		if s.name == name {
			return fmt.Errorf("interface %s: the name of bss %s (line %d) of the file airqd runs: an added BSS takes a name of its own", name, s.name, s.line)
		}
	}
	return nil
}

// addable refuses a configuration an ADD cannot serve: one whose first
// BSS takes a running section's name, or one with bss= sections, which
// airqd opens only at start. Call it with b.mu held.
func (b *bssSlot) addable(next options) error {
	if err := b.nameFree(next.hostapdIface()); err != nil {
		return err
	}
	if len(next.BSSes) > 0 {
		return fmt.Errorf("bss %s (line %d): an added BSS's file has no bss= sections: airqd opens sections only from -config at start", next.BSSes[0].Name, next.BSSes[0].Line)
	}
	return nil
}

// apply takes next as the running configuration: its reloadable keys
// applied, any other key that differs refused. Call it with b.mu held.
func (b *bssSlot) apply(ctx context.Context, next options) error {
	b.rl.mu.Lock()
	defer b.rl.mu.Unlock()
	return b.rl.applyLocked(ctx, next, true)
}

// enable is ENABLE's first step for a pending BSS: its configuration.
func (b *bssSlot) enable(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.pending {
		return nil
	}
	next, err := b.parse(nil)
	if err != nil {
		return err
	}
	if err := b.take(ctx, next); err != nil {
		return err
	}
	b.pending = false
	return nil
}

// take makes next the BSS's configuration: applied to the running radio,
// or, where it changes what only a start applies, by a new start of the
// radio with the BSS off (as hostapd builds each added interface afresh);
// without restarts such a change is refused. Call it with b.mu held.
func (b *bssSlot) take(ctx context.Context, next options) error {
	b.rl.mu.Lock()
	keys := b.rl.needsRestart(&next)
	cur := b.rl.cur
	b.rl.mu.Unlock()
	if len(keys) == 0 || b.rl.radio == nil {
		return b.apply(ctx, next)
	}
	next.Core.StartDisabled = true
	next.keepOpened(&cur)
	if err := b.rl.radio.restart(context.WithoutCancel(ctx), next); err != nil {
		return fmt.Errorf("restarting the radio for %s: %w", strings.Join(keys, ", "), err)
	}
	b.rl.mu.Lock()
	b.rl.cur, b.rl.staged = next, nil
	b.rl.mu.Unlock()
	b.log.Info("hostapd global control: the radio restarted with the added BSS's settings", "keys", strings.Join(keys, ", "))
	return nil
}

// parse is the pending BSS's configuration with extra lines. Call it with
// b.mu held.
func (b *bssSlot) parse(extra []byte) (options, error) {
	args := b.rl.args
	if b.file != "" {
		args = withConfig(args, b.file)
	}
	lines := append(append([]byte(nil), b.staged...), extra...)
	return parseFlagsWith(args, lines)
}

// setPending stages key=value for a BSS not yet enabled: any key the file
// takes, with a value the file would take. As hostapd's SET, it checks the
// line alone: what holds only with other keys (wpa_passphrase with wpa=2,
// set in either order) is ENABLE's to check, with everything else it
// refuses.
func (b *bssSlot) setPending(key, value string) (bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.pending {
		return false, nil
	}
	line := []byte(key + "=" + value + "\n")
	if strings.ContainsAny(value, "\n") {
		return true, fmt.Errorf("SET %s: the value holds a newline", key)
	}
	if _, ps := config.Parse("SET", line); ps.Err() != nil {
		return true, fmt.Errorf("SET %s: %w", key, ps.Err())
	}
	b.staged = append(b.staged, line...)
	return true, nil
}

func (b *bssSlot) Remove(ctx context.Context, iface string) error {
	b.mu.Lock()
	if b.nameFree(iface) != nil {
		b.mu.Unlock()
		if !b.added {
			return nil // down with the radio's first BSS (FLUSH)
		}
		return fmt.Errorf("interface %s is a bss= section of the file airqd runs: airqd takes a section's BSS down only with the radio's first BSS (REMOVE %s: every BSS), or by a restart without the section", iface, b.name)
	}
	if !b.added || iface != b.name {
		b.mu.Unlock()
		return fmt.Errorf("no interface %q", iface)
	}
	r, err := b.srv.Call(ctx, ctl.Request{Op: ctl.OpDisable})
	if err != nil && r.Errno != ctl.EBUSY { // EBUSY: never enabled
		b.mu.Unlock()
		return err
	}
	hs := b.hs
	b.hs, b.added, b.pending = nil, false, false
	b.mu.Unlock()
	// Closed outside mu: the socket's goroutine may be waiting for mu
	// (an ENABLE's configuration) and Close waits for it.
	if hs != nil {
		hs.Close()
	}
	b.log.Info("hostapd global control: BSS removed", "interface", iface)
	return nil
}

func (b *bssSlot) Interfaces() (names, dirs []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.added {
		return nil, nil // the sections are down with the first BSS
	}
	names, dirs = []string{b.name}, []string{b.dir}
	for _, s := range b.sections {
		names, dirs = append(names, s.name), append(dirs, s.dir)
	}
	return names, dirs
}

func (b *bssSlot) Lookup(iface string) *shell.HostapdServer {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.added {
		return nil
	}
	if iface == b.name {
		return b.hs
	}
	for _, s := range b.sections {
		if s.name == iface {
			return s.hs
		}
	}
	return nil
}

// follow is sectionSockets' over the sections' sockets the slot holds;
// a section may not take the name of a first BSS added under another
// name. Call it with b.mu held (reloader.lock).
func (b *bssSlot) follow(next options, r *reloader) (socks, opened []bssSocket, err error) {
	if i := slices.IndexFunc(next.BSSes, func(s config.BSS) bool { return s.Name == b.name }); b.added && i >= 0 {
		s := next.BSSes[i]
		return nil, nil, fmt.Errorf("bss %s (line %d): the name of the BSS added through the global socket: a section takes a name of its own", s.Name, s.Line)
	}
	return followSockets(append([]bssSocket{{name: b.name, dir: b.dir, hs: b.hs}}, b.sections...), next, r)
}

// replace makes socks[1:] the sections' sockets the global socket lists
// and reaches. Call it with b.mu held.
func (b *bssSlot) replace(socks []bssSocket) []*shell.HostapdServer {
	gone := goneSockets(b.sections, socks[1:])
	b.sections = socks[1:]
	return gone
}

// off reports whether the radio's first BSS is off: removed through the
// global socket, or added but not enabled. Call it with b.mu held.
func (b *bssSlot) off() bool { return !b.added || b.pending }

// withConfig is the command line with -config FILE in place of its own.
func withConfig(args []string, file string) []string {
	out := make([]string, 0, len(args)+2)
	for i := 0; i < len(args); i++ {
		a := strings.TrimPrefix(args[i], "-")
		switch {
		case a == "config" || a == "-config":
			i++
			continue
		case strings.HasPrefix(a, "config=") || strings.HasPrefix(a, "-config="):
			continue
		}
		out = append(out, args[i])
	}
	return append(out, "-config", file)
}
