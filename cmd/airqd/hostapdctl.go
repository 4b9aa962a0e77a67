package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"

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

// startHostapd opens hostapd's control socket when ctrl_interface is set;
// nil without one.
func startHostapd(o options, srv *shell.ControlServer, rl *reloader, log *slog.Logger) (*shell.HostapdServer, error) {
	if o.CtrlInterface == "" {
		return nil, nil
	}
	gid, err := config.LookupGroup(o.CtrlGroup)
	if err != nil {
		return nil, fmt.Errorf("ctrl_interface_group: %w", err)
	}
	phy := o.Phy
	if o.Radio == "sim" {
		phy = "sim"
	}
	hs, err := shell.ListenHostapd(srv, shell.HostapdConfig{Dir: o.CtrlInterface, Group: gid, Iface: o.hostapdIface(),
		Phy: phy, Backend: &hostapdBackend{rl: rl, srv: srv}, Testing: o.hostapdTesting, TestIfname: o.testIfname(), Log: log})
	if err != nil {
		return nil, err
	}
	log.Info("hostapd control interface", "socket", hs.Addr(), "group", o.CtrlGroup)
	return hs, nil
}

// hostapdBackend carries out SET, RELOAD, RELOAD_WPA_PSK and GET_CONFIG
// with the reloader: SET stages key=value lines over the file, RELOAD
// applies them as a SIGHUP applies the file.
type hostapdBackend struct {
	rl   *reloader // its mu guards its state and the staged lines
	srv  *shell.ControlServer
	slot *bssSlot // the BSS added through the global socket; nil for the file's
}

func (b *hostapdBackend) Config() hostapd.Config {
	b.rl.mu.Lock()
	cur := b.rl.cur.Core
	b.rl.mu.Unlock()
	c := hostapd.Config{SSID: cur.SSID, BSSID: ctl.MAC(cur.BSSID)}
	if r, err := b.srv.Call(context.Background(), ctl.Request{Op: ctl.OpStatus}); err == nil && r.Status != nil {
		c.BSSID, c.SSID = r.Status.BSSID, r.Status.SSID
	}
	if cur.RSN == nil {
		return c
	}
	c.WPA, c.GroupCipher = 2, "CCMP"
	for _, a := range cur.RSN.AKMs {
		c.KeyMgmt = append(c.KeyMgmt, a.String())
	}
	if len(c.KeyMgmt) == 0 {
		c.KeyMgmt = []string{"WPA-PSK"}
	}
	for _, p := range cur.RSN.Pairwise {
		c.Pairwise = append(c.Pairwise, p.String())
	}
	if len(c.Pairwise) == 0 {
		c.Pairwise = []string{"CCMP"}
	}
	return c
}

// Set accepts the keys a reload applies live (config.Reloadable); the
// others need a restart and are refused, as are unknown keys and values
// the file would refuse.
func (b *hostapdBackend) Set(key, value string) error {
	if b.slot != nil {
		if pending, err := b.slot.setPending(key, value); pending {
			return err
		}
	}
	k, ok := config.Lookup(key)
	switch {
	case !ok:
		return fmt.Errorf("SET %s: not a key airqd takes live; live keys: %s", key, strings.Join(config.Reloadable(), ", "))
	case !k.Reload:
		return fmt.Errorf("SET %s: takes effect only at start: change the file and restart airqd", key)
	case strings.ContainsAny(value, "\n"):
		return fmt.Errorf("SET %s: the value holds a newline", key)
	}
	b.rl.mu.Lock()
	defer b.rl.mu.Unlock()
	lines := append(append([]byte(nil), b.rl.staged...), key+"="+value+"\n"...)
	if _, err := parseFlagsWith(b.rl.args, lines); err != nil {
		return fmt.Errorf("SET %s: %w", key, err)
	}
	b.rl.staged = lines
	return nil
}

// Reload applies the file with SET's lines and deauthenticates every
// station with reason 2, as hostapd's RELOAD restarts the BSS.
func (b *hostapdBackend) Reload(ctx context.Context) error {
	b.rl.mu.Lock()
	err := b.rl.reloadLocked(ctx)
	b.rl.mu.Unlock()
	if err != nil {
		return err
	}
	return deauthAll(ctx, b.srv, ieee80211.ReasonPrevAuthNotValid)
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
	return b.rl.reloadPSKs(ctx, &next)
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

// startHostapdAll opens hostapd's sockets: the BSS's (ctrl_interface) and
// the global one (-g). With -g and no -config the BSS starts disabled and
// waits for ADD.
func startHostapdAll(o *options, srv *shell.ControlServer, rl *reloader, log *slog.Logger) error {
	if o.Global != "" && o.configPath == "" {
		o.Core.StartDisabled = true
	}
	var hs *shell.HostapdServer
	if o.Global == "" || o.configPath != "" {
		var err error
		if hs, err = startHostapd(*o, srv, rl, log); err != nil {
			return err
		}
	}
	gs, slot, err := startGlobal(*o, srv, rl, hs, log)
	if err != nil {
		if hs != nil {
			hs.Close()
		}
		return err
	}
	o.closeHostapd = func() {
		if gs != nil {
			gs.Close()
			slot.Close() // the BSS's socket, which slot owns (hs or one ADD opened)
		} else if hs != nil {
			hs.Close()
		}
	}
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
	if o.CtrlInterface == "" && o.Global == "" {
		return errors.New("-hostapd-testing: needs hostapd's control socket (-ctrl-interface, ctrl_interface= or -g)")
	}
	return nil
}

// testIfname is where DATA_TEST_CONFIG's socket goes without ifname=: the
// wired side, the TAP (the simulated radio has none).
func (o *options) testIfname() string {
	if o.Radio == "sim" {
		return ""
	}
	return o.Tap
}
