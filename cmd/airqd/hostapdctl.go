package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/config"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/ctl/hostapd"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/shell"
)

// registerHostapd adds the flags of hostapd's control interface.
func (o *options) registerHostapd(fs *flag.FlagSet) {
	fs.StringVar(&o.CtrlInterface, "ctrl-interface", "", "directory of hostapd's control socket (ctrl_interface): hostapd_cli -p DIR talks to airqd there; empty: none")
	fs.StringVar(&o.CtrlGroup, "ctrl-interface-group", "", "group given the -ctrl-interface directory and socket (ctrl_interface_group): a name or number")
	fs.BoolVar(&o.hostapdTesting, "hostapd-testing", false, "serve hostapd's testing commands (DATA_TEST_CONFIG, DATA_TEST_TX, GET_PMK, which reveals PMKs) for hostap's test suite; refused under systemd")
	fs.StringVar(&o.Global, "g", "", "hostapd's global control socket (as hostapd -g PATH): ADD, REMOVE, FLUSH, INTERFACES; without -config the BSS waits for ADD")
	fs.StringVar(&o.GlobalGroup, "G", "", "group given the -g socket and its directory (as hostapd -G): a name or number")
}

// hostapdIface is the socket's name: hostapd's interface= when the file
// names one, else the monitor interface airqd creates.
func (o *options) hostapdIface() string {
	if o.conf != nil {
		if v := o.conf.Values()["interface"]; v != "" {
			return v
		}
	}
	return o.Ifname
}

// bssSocket is a BSS's hostapd control socket as the file configures it.
type bssSocket struct {
	name string // the BSS's: the socket's file name
	line int    // its bss= line; 0 for the first BSS
	dir  string // its ctrl_interface; "" for none
	hs   *shell.HostapdServer
}

// bssSockets lists the radio's BSSes with the socket each gets: the
// first BSS's in the radio's ctrl_interface, a section's in its own
// ctrl_interface, else in the radio's (hostapd_cli -i NAME finds each
// BSS beside the first).
func (o *options) bssSockets() []bssSocket {
	out := []bssSocket{{name: o.hostapdIface(), dir: o.CtrlInterface}}
	for _, b := range o.BSSes {
		dir := b.Settings.CtrlInterface
		if dir == "" {
			dir = o.CtrlInterface
		}
		out = append(out, bssSocket{name: b.Name, line: b.Line, dir: dir})
	}
	return out
}

// bssGroup is the group given BSS i's socket: its section's
// ctrl_interface_group with its own ctrl_interface, else the radio's.
func (o *options) bssGroup(i int) string {
	if i > 0 && o.BSSes[i-1].Settings.CtrlInterface != "" {
		return o.BSSes[i-1].Settings.CtrlGroup
	}
	return o.CtrlGroup
}

// startHostapd opens hostapd's control socket of each BSS that has a
// ctrl_interface (bssSockets); each socket answers for its own BSS. On
// an error the sockets opened are closed.
func startHostapd(o options, srv *shell.ControlServer, rl *reloader, log *slog.Logger) ([]bssSocket, error) {
	phy := socketPhy(o)
	socks := o.bssSockets()
	for i := range socks {
		bs := &socks[i]
		if bs.dir == "" {
			continue
		}
		hs, err := openBSSSocket(o, i, *bs, phy, srv, rl, log)
		if err != nil {
			closeSockets(socks)
			return nil, err
		}
		bs.hs = hs
	}
	return socks, nil
}

// openBSSSocket opens BSS i's socket.
func openBSSSocket(o options, i int, bs bssSocket, phy string, srv *shell.ControlServer, rl *reloader, log *slog.Logger) (*shell.HostapdServer, error) {
	what := "ctrl_interface_group"
	if i > 0 {
		what = fmt.Sprintf("bss %s: ctrl_interface_group", bs.name)
	}
	gid, err := config.LookupGroup(o.bssGroup(i))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	be := &hostapdBackend{rl: rl, srv: srv}
	if i > 0 {
		be.bss = bs.name
	}
	hs, err := shell.ListenHostapd(srv, shell.HostapdConfig{Dir: bs.dir, Group: gid, Iface: bs.name, Section: i > 0,
		Phy: phy, Backend: be, Testing: o.hostapdTesting, TestIfname: o.bssTestIfname(i), Log: log})
	if err != nil {
		if i > 0 {
			err = fmt.Errorf("bss %s: %w", bs.name, err)
		}
		return nil, err
	}
	log.Info("hostapd control interface", "socket", hs.Addr(), "bss", bs.name, "group", o.bssGroup(i))
	return hs, nil
}

// closeSockets closes the sockets opened, removing their files.
func closeSockets(socks []bssSocket) {
	for i := range socks {
		if socks[i].hs != nil {
			socks[i].hs.Close()
			socks[i].hs = nil
		}
	}
}

// hostapdBackend carries out SET, RELOAD, RELOAD_WPA_PSK and GET_CONFIG
// with the reloader: SET stages key=value lines over the file, RELOAD
// applies them as a SIGHUP applies the file.
type hostapdBackend struct {
	rl   *reloader // its mu guards its state and the staged lines
	srv  *shell.ControlServer
	slot *bssSlot // the BSS added through the global socket; nil for the file's
	// bss is the bss= section whose socket this is; "" for the first BSS.
	bss string
}

func (b *hostapdBackend) Config() hostapd.Config {
	b.rl.mu.Lock()
	cur := b.rl.cur.Core
	b.rl.mu.Unlock()
	index, ssid, bssid, rsnc := 0, cur.SSID, cur.BSSID, cur.RSN
	for i, x := range cur.BSSes {
		if b.bss != "" && x.Name == b.bss {
			index, ssid, bssid, rsnc = i+1, x.SSID, x.BSSID, x.RSN
		}
	}
	c := hostapd.Config{SSID: ssid, BSSID: ctl.MAC(bssid)}
	if r, err := b.srv.Call(context.Background(), ctl.Request{Op: ctl.OpDev}); err == nil && index < len(r.Devs) {
		c.BSSID, c.SSID = r.Devs[index].BSSID, r.Devs[index].SSID // the running BSSID, derived or not
	}
	if rsnc == nil {
		return c
	}
	c.WPA, c.GroupCipher = 2, "CCMP"
	for _, a := range rsnc.AKMs {
		c.KeyMgmt = append(c.KeyMgmt, a.String())
	}
	if len(c.KeyMgmt) == 0 {
		c.KeyMgmt = []string{"WPA-PSK"}
	}
	for _, p := range rsnc.Pairwise {
		c.Pairwise = append(c.Pairwise, p.String())
	}
	if len(c.Pairwise) == 0 {
		c.Pairwise = []string{"CCMP"}
	}
	return c
}

// Set accepts the keys a reload applies live (config.Reloadable); the
// others need a restart and are refused, as are unknown keys and values
// the file would refuse. As hostapd's SET, a BSS key set on a bss=
// section's socket is that section's, and there a key is also accepted
// when the reload applies it by restarting that BSS alone; any other key
// is the radio's, set in the first section.
func (b *hostapdBackend) Set(key, value string) error {
	if b.slot != nil {
		if pending, err := b.slot.setPending(key, value); pending {
			return err
		}
	}
	section := ""
	if b.bss != "" && config.IsBSSKey(key) {
		section = b.bss
	}
	k, ok := config.Lookup(key)
	switch {
	case !ok:
		return fmt.Errorf("SET %s: not a key airqd takes live; live keys: %s", key, strings.Join(config.Reloadable(), ", "))
	case !k.Reload && section == "":
		return fmt.Errorf("SET %s: takes effect only at start: change the file and restart airqd", key)
	case strings.ContainsAny(value, "\n"):
		return fmt.Errorf("SET %s: the value holds a newline", key)
	}
	b.rl.mu.Lock()
	defer b.rl.mu.Unlock()
	lines := config.AddToSection(append([]byte(nil), b.rl.staged...), section, []byte(key+"="+value+"\n"))
	next, err := parseFlagsWith(b.rl.args, lines)
	if err != nil {
		return fmt.Errorf("SET %s: %w", key, err)
	}
	if section != "" && !k.Reload {
		br, err := b.rl.bssReloadOf(&next)
		if err != nil {
			return fmt.Errorf("SET %s: %w", key, err)
		}
		if slices.Contains(br.startOnly[section], key) {
			return fmt.Errorf("SET %s: bss %s takes it only at start (bssid, tap, bridge): change the file and restart airqd", key, section)
		}
	}
	b.rl.staged = lines
	return nil
}

// Reload applies the file with SET's lines and deauthenticates every
// station with reason 2, as hostapd's RELOAD restarts the BSS.
func (b *hostapdBackend) Reload(ctx context.Context) error {
	b.rl.lock()
	err := b.rl.reloadLocked(ctx)
	gone := b.rl.unlock()
	if err == nil {
		err = deauthAll(ctx, b.srv, ieee80211.ReasonPrevAuthNotValid)
	}
	// After the deauthentications, which the socket's context bounds:
	// this socket may be one the new file's sections no longer have, and
	// closes once this command is answered.
	closeGone(gone)
	return err
}

// ReloadPSK re-reads the PSKs (wpa_psk_file, and SET's wpa_psk and
// wpa_passphrase) and applies them alone; stations whose key is gone are
// deauthenticated with reason 2.
func (b *hostapdBackend) ReloadPSK(ctx context.Context) error {
	b.rl.mu.Lock()
	defer b.rl.mu.Unlock()
	next, err := parseFlagsWith(b.rl.args, b.rl.staged)
	if err != nil {
		return err
	}
	// A section's socket reloads its BSS's secrets alone, as hostapd's
	// RELOAD_WPA_PSK on that BSS's interface.
	i := 0
	if b.bss != "" {
		i = slices.IndexFunc(b.rl.cur.Core.BSSes, func(c ap.BSSConfig) bool { return c.Name == b.bss }) + 1
		if i == 0 {
			return fmt.Errorf("bss %s: not a running section", b.bss)
		}
	}
	return b.rl.reloadPSKsFor(ctx, &next, i)
}

// deauthAll deauthenticates every station through the loop.
func deauthAll(ctx context.Context, srv *shell.ControlServer, reason uint16) error {
	page := &ctl.StationPage{Into: make([]ctl.Station, 1)}
	for {
		page.From = 1
		if _, err := srv.Call(ctx, ctl.Request{Op: ctl.OpStationDump, Page: page}); err != nil {
			return err
		}
		if page.N == 0 {
			return nil
		}
		req := ctl.Request{Op: ctl.OpStationDel, Addr: ieee80211.MAC(page.Into[0].Addr), Reason: reason}
		if r, err := srv.Call(ctx, req); err != nil && r.Errno != ctl.ENOENT {
			return errors.Join(fmt.Errorf("deauthenticating %s", req.Addr), err)
		}
	}
}

// startHostapdAll opens hostapd's sockets: each BSS's (ctrl_interface)
// and the global one (-g). With -g and no -config the BSS starts disabled
// and waits for ADD.
func startHostapdAll(o *options, srv *shell.ControlServer, rl *reloader, log *slog.Logger) error {
	if o.Global != "" && o.configPath == "" {
		o.Core.StartDisabled = true
	}
	var socks []bssSocket
	if o.Global == "" || o.configPath != "" {
		var err error
		if socks, err = startHostapd(*o, srv, rl, log); err != nil {
			return err
		}
	}
	gs, slot, err := startGlobal(*o, srv, rl, socks, log)
	if err != nil {
		closeSockets(socks)
		return err
	}
	rl.mu.Lock()
	defer rl.mu.Unlock()
	if gs != nil {
		o.closeHostapd = func() {
			gs.Close()
			slot.Close() // the BSSes' sockets, which slot owns (the first's may be one ADD opened)
		}
		rl.sockets = slot
		rl.slot.Store(slot)
		return nil
	}
	hs := &hostapdSockets{socks: socks}
	rl.sockets = hs
	o.closeHostapd = hs.close
	return nil
}

// checkHostapd refuses the testing commands where they do not belong: in
// a systemd service (a production daemon: GET_PMK reveals keys), and
// without a hostapd socket to serve them on. A file cannot turn them on.
func (o *options) checkHostapd() error {
	if !o.hostapdTesting {
		return nil
	}
	if os.Getenv("INVOCATION_ID") != "" {
		return errors.New("-hostapd-testing: refused in a systemd service: the testing commands reveal PMKs; " +
			"run airqd by hand for hostap's tests")
	}
	if !slices.ContainsFunc(o.bssSockets(), func(s bssSocket) bool { return s.dir != "" }) && o.Global == "" {
		return errors.New("-hostapd-testing: needs hostapd's control socket (-ctrl-interface, ctrl_interface= or -g)")
	}
	return nil
}

// testIfname is where DATA_TEST_CONFIG's socket goes without ifname=: the
// wired side, the TAP (the simulated radio has none).
func (o *options) testIfname() string { return o.bssTestIfname(0) }

// bssTestIfname is testIfname for BSS i: its own TAP.
func (o *options) bssTestIfname(i int) string {
	switch {
	case o.Radio == "sim":
		return ""
	case i > 0:
		return o.BSSes[i-1].Settings.Tap
	}
	return o.Tap
}
