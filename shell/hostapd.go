package shell

import (
	"context"
	"encoding/hex"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/ctl/hostapd"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/sae"
)

// HostapdBackend carries out the hostapd commands that go beyond the
// core's state: the configuration file's keys (the daemon parses and
// applies them) and the BSS's switching on and off. Its methods are
// called from the server's goroutine, one at a time.
type HostapdBackend interface {
	// Config is GET_CONFIG's view of the BSS.
	Config() hostapd.Config
	// Set stages key=value for the next Reload (SET); an error (an
	// unknown key, one that needs a restart, a bad value) answers FAIL.
	Set(key, value string) error
	// Reload applies the staged keys and deauthenticates every station
	// with reason 2 (RELOAD).
	Reload(ctx context.Context) error
	// ReloadPSK re-reads the PSKs (RELOAD_WPA_PSK).
	ReloadPSK(ctx context.Context) error
}

// HostapdConfig configures a BSS's hostapd control socket.
type HostapdConfig struct {
	Dir   string // ctrl_interface: the directory of the sockets
	Group int    // ctrl_interface_group's gid; -1 leaves the group alone
	Iface string // the socket's name in Dir (interface=)
	// Section marks a bss= section's socket, named after its BSS: it
	// takes that BSS's events alone, never those of a BSS without a
	// socket of its own (another network's stations), as hostapd's
	// sends a BSS's events to that BSS's monitors alone.
	Section bool
	Phy     string // STATUS's phy=
	// State is STATUS's state= at the start: "" is ENABLED; a BSS added
	// through the global socket and not yet enabled is UNINITIALIZED.
	State string
	// Backend answers SET, RELOAD, RELOAD_WPA_PSK and GET_CONFIG; nil
	// answers them FAIL.
	Backend HostapdBackend
	// Testing serves hostapd's testing commands (DATA_TEST_CONFIG,
	// DATA_TEST_TX, GET_PMK); without it they are UNKNOWN COMMAND, as in
	// Debian's hostapd. TestIfname is the wired side's interface, where
	// the test socket goes without ifname=.
	Testing    bool
	TestIfname string
	// BeforeEnable, when set, runs before ENABLE switches the BSS on; an
	// error answers FAIL (a BSS added through the global socket applies
	// its configuration there).
	BeforeEnable func(ctx context.Context) error
	Log          *slog.Logger // refusals and dropped monitors; nil: not logged
}

// MaxHostapdMonitors bounds the monitors (ATTACHed clients) of one socket;
// an ATTACH beyond it answers FAIL.
const MaxHostapdMonitors = 32

// monitorErrors is how many sends in a row may fail before a monitor is
// dropped (hostapd's: more than 10, or at once when its socket is gone).
const monitorErrors = 10

// hostapdQueue bounds the events waiting for the monitors; the loop never
// waits for them, and what does not fit is lost (and counted).
const hostapdQueue = 256

// monitor is an ATTACHed client.
type monitor struct {
	level  int
	errors int
}

// hostapdIface answers one BSS's commands: its own socket's, and the
// global socket's IFNAME= ones, one at a time (answerMu). Publish reaches
// the monitors under mu.
//
// Lock order: answerMu, then the ControlServer's mu, then mu.
type hostapdIface struct {
	ctx context.Context // ends with the socket
	srv *ControlServer
	cfg HostapdConfig

	answerMu sync.Mutex
	buf      []byte          // the reply; guarded by answerMu
	page     ctl.StationPage // guarded by answerMu

	events chan queuedEvent // to the monitors; filled by Publish, never blocking

	mu       sync.Mutex
	bss      hostapd.BSS         // guarded by mu: ENABLE and DISABLE change its State
	monitors map[string]*monitor // by client address; guarded by mu
	prefix   string              // before each event ("IFNAME=wlan0 " on the global socket); guarded by mu
	test     *dataTest           // DATA_TEST_CONFIG's socket; guarded by mu
	lost     uint64              // events that did not fit in events; guarded by mu
}

func newHostapdIface(srv *ControlServer, cfg HostapdConfig) *hostapdIface {
	state := cfg.State
	if state == "" {
		state = "ENABLED"
	}
	return &hostapdIface{ctx: context.Background(), srv: srv, cfg: cfg, bss: hostapd.BSS{Iface: cfg.Iface, Phy: cfg.Phy, State: state},
		page: ctl.StationPage{Into: make([]ctl.Station, 1)}, events: make(chan queuedEvent, hostapdQueue),
		monitors: map[string]*monitor{}}
}

// callTimeout bounds how long a command waits for the core's loop.
const callTimeout = 5 * time.Second

// call asks the loop; a transport error (shutting down) is a reply too.
func (h *hostapdIface) call(req ctl.Request) ctl.Reply {
	ctx, cancel := context.WithTimeout(h.ctx, callTimeout)
	defer cancel()
	r, _ := h.srv.Call(ctx, req)
	return r
}

// callBSS asks the loop a station request of the socket's own BSS, as
// hostapd's commands act on the socket's BSS alone; a core that names no
// BSS so (ENODEV) is asked for every station, as with one BSS, unless
// the socket is a section's: that never reaches another BSS's stations.
func (h *hostapdIface) callBSS(req ctl.Request) ctl.Reply {
	req.Dev = h.cfg.Iface
	if r := h.call(req); r.Errno != ctl.ENODEV || h.cfg.Section {
		return r
	}
	req.Dev = ""
	return h.call(req)
}

// answer returns the reply to one datagram from client from (its
// address, for ATTACH and the like). The reply is valid until the next
// call.
func (h *hostapdIface) answer(b []byte, from string) []byte {
	h.answerMu.Lock()
	defer h.answerMu.Unlock()
	c, err := hostapd.Parse(b)
	if err != nil {
		return hostapd.ReplyFail
	}
	h.buf = h.buf[:0]
	switch c.Kind {
	case hostapd.Unknown:
		return hostapd.ReplyUnknown
	case hostapd.Ping:
		return hostapd.ReplyPong
	case hostapd.Relog:
		return hostapd.ReplyOK // airqd logs to stderr: there is no file to reopen
	case hostapd.Attach:
		return h.ok(h.attach(from))
	case hostapd.Detach:
		return h.ok(h.detach(from))
	case hostapd.Level:
		return h.ok(h.setLevel(from, c.Level))
	case hostapd.Status:
		return h.status()
	case hostapd.STA, hostapd.STAFirst, hostapd.STANext:
		return h.sta(c)
	case hostapd.Deauthenticate, hostapd.Disassociate:
		return h.ok(h.leave(c))
	case hostapd.SAQuery:
		r := h.callBSS(ctl.Request{Op: ctl.OpSAQuery, Addr: c.Addr})
		return h.ok(r.Err())
	case hostapd.ChanSwitch:
		return h.refuse(c, errors.New("airq does not switch channels while running"))
	case hostapd.Enable, hostapd.Disable:
		return h.switchBSS(c)
	case hostapd.DataTestConfig, hostapd.DataTestTx, hostapd.GetPMK:
		if !h.cfg.Testing {
			return hostapd.ReplyUnknown
		}
		return h.testing(c)
	}
	return h.backend(c)
}

// backend answers the commands the daemon carries out.
func (h *hostapdIface) backend(c hostapd.Command) []byte {
	be := h.cfg.Backend
	if be == nil {
		return h.refuse(c, errors.New("no configuration to change: airqd runs without a configuration backend"))
	}
	ctx, cancel := context.WithTimeout(h.ctx, callTimeout)
	defer cancel()
	var err error
	switch c.Kind {
	case hostapd.GetConfig:
		cfg := be.Config()
		return hostapd.Fit(hostapd.AppendConfig(h.buf, &cfg))
	case hostapd.Set:
		err = be.Set(c.Key, c.Value)
	case hostapd.Reload:
		err = be.Reload(ctx)
	case hostapd.ReloadWPAPSK:
		err = be.ReloadPSK(ctx)
	}
	if err != nil {
		return h.refuse(c, err)
	}
	return hostapd.ReplyOK
}

// switchBSS is ENABLE and DISABLE: the core switches the radio with
// every BSS (hostapd's switch the interface, whichever BSS's socket asks),
// the monitors hear AP-ENABLED or AP-DISABLED, and STATUS on every socket
// says the state.
func (h *hostapdIface) switchBSS(c hostapd.Command) []byte {
	op, state, event := ctl.OpEnable, "ENABLED", hostapd.EventEnabled
	if c.Kind == hostapd.Disable {
		op, state, event = ctl.OpDisable, "DISABLED", hostapd.EventDisabled
	} else if h.cfg.BeforeEnable != nil {
		ctx, cancel := context.WithTimeout(h.ctx, callTimeout)
		defer cancel()
		if err := h.cfg.BeforeEnable(ctx); err != nil {
			return h.refuse(c, err)
		}
	}
	r := h.call(ctl.Request{Op: op})
	if err := r.Err(); err != nil {
		return h.refuse(c, err)
	}
	h.srv.setHostapdState(state)
	h.srv.publishHostapd(hostapd.AppendEvent(nil, event, nil))
	return hostapd.ReplyOK
}

// testing answers the testing commands.
func (h *hostapdIface) testing(c hostapd.Command) []byte {
	var err error
	switch c.Kind {
	case hostapd.GetPMK:
		r := h.callBSS(ctl.Request{Op: ctl.OpStationPMK, Addr: c.Addr})
		if err := r.Err(); err != nil {
			return h.refuse(c, err)
		}
		return hex.AppendEncode(h.buf[:0], r.PMK)
	case hostapd.DataTestConfig:
		err = h.dataTestConfig(c)
	case hostapd.DataTestTx:
		err = h.dataTestTx(c)
	}
	if err != nil {
		return h.refuse(c, err)
	}
	return hostapd.ReplyOK
}

// refuse answers FAIL and logs why, as hostapd logs its refusals.
func (h *hostapdIface) refuse(c hostapd.Command, err error) []byte {
	if h.cfg.Log != nil {
		h.cfg.Log.Warn("hostapd control: refused", "socket", h.cfg.Iface, "command", c.Kind.String(), "key", c.Key, "err", err)
	}
	return hostapd.ReplyFail
}

func (h *hostapdIface) ok(err error) []byte {
	if err != nil {
		return hostapd.ReplyFail
	}
	return hostapd.ReplyOK
}

// status answers STATUS with the socket's BSS's DTIM period and its
// ieee80211n and ieee80211ac (disable_11n, disable_11ac) beside the
// radio's fields, as hostapd's on a BSS's socket; a section's socket of
// no BSS the core knows has the first BSS's.
func (h *hostapdIface) status() []byte {
	r := h.callBSS(ctl.Request{Op: ctl.OpStatus})
	if r.Errno == ctl.ENODEV {
		r = h.call(ctl.Request{Op: ctl.OpStatus})
	}
	if r.Status == nil {
		return hostapd.ReplyFail
	}
	h.mu.Lock()
	bss := h.bss
	h.mu.Unlock()
	if a := h.call(ctl.Request{Op: ctl.OpACS}); a.ACS != nil && a.ACS.Scanning {
		bss.State = "ACS"
	}
	devs := h.call(ctl.Request{Op: ctl.OpDev}).Devs // every BSS of the radio, as hostapd lists them
	return hostapd.Fit(hostapd.AppendStatus(h.buf, r.Status, bss, devs...))
}

// sta answers STA, STA-FIRST and STA-NEXT: stations in AID order, the
// slot each has in the core's table, one page of one station at a time.
func (h *hostapdIface) sta(c hostapd.Command) []byte {
	from := uint16(1)
	if c.Kind != hostapd.STAFirst {
		r := h.callBSS(ctl.Request{Op: ctl.OpStationGet, Addr: c.Addr})
		if len(r.Stations) != 1 {
			return hostapd.ReplyFail // unknown: FAIL, as hostapd
		}
		if c.Kind == hostapd.STA {
			return h.appendSTA(&r.Stations[0])
		}
		from = r.Stations[0].AID + 1
	}
	h.page.From = from
	if r := h.callBSS(ctl.Request{Op: ctl.OpStationDump, Page: &h.page}); r.Err() != nil {
		return hostapd.ReplyFail
	}
	if h.page.N == 0 {
		return h.buf[:0] // no station (after that one): an empty datagram
	}
	return h.appendSTA(&h.page.Into[0])
}

func (h *hostapdIface) appendSTA(s *ctl.Station) []byte {
	freq := 0
	if r := h.call(ctl.Request{Op: ctl.OpStatus}); r.Status != nil {
		freq = r.Status.Freq
	}
	return hostapd.Fit(hostapd.AppendSTA(h.buf, s, freq))
}

// leave deauthenticates or disassociates. As hostapd, an address with no
// station is not an error, and ff:ff:ff:ff:ff:ff without one means every
// station.
func (h *hostapdIface) leave(c hostapd.Command) error {
	req := ctl.Request{Op: ctl.OpStationDel, Addr: c.Addr, Reason: c.Reason, Disassoc: c.Kind == hostapd.Disassociate}
	r := h.callBSS(req)
	switch {
	case r.Errno == ctl.OK:
		return nil
	case r.Errno != ctl.ENOENT:
		return r.Err()
	case c.Addr != ieee80211.Broadcast:
		return nil
	}
	for {
		h.page.From = 1
		if r := h.callBSS(ctl.Request{Op: ctl.OpStationDump, Page: &h.page}); r.Err() != nil || h.page.N == 0 {
			return r.Err()
		}
		req.Addr = ieee80211.MAC(h.page.Into[0].Addr)
		if r := h.callBSS(req); r.Err() != nil && r.Errno != ctl.ENOENT {
			return r.Err()
		}
	}
}

var errMonitors = errors.New("too many monitors")

func (h *hostapdIface) attach(from string) error {
	if from == "" {
		return errors.New("an unbound client cannot receive events")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.monitors[from]; ok {
		return nil // already attached: hostapd only updates its options
	}
	if len(h.monitors) == MaxHostapdMonitors {
		if h.cfg.Log != nil {
			h.cfg.Log.Warn("hostapd control: ATTACH refused", "socket", h.cfg.Iface, "monitors", MaxHostapdMonitors)
		}
		return errMonitors
	}
	h.monitors[from] = &monitor{level: hostapd.LevelDefault}
	return nil
}

func (h *hostapdIface) detach(from string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.monitors[from]; !ok {
		return errors.New("not attached")
	}
	delete(h.monitors, from)
	return nil
}

func (h *hostapdIface) setLevel(from string, level int) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	m, ok := h.monitors[from]
	if !ok {
		return errors.New("not attached")
	}
	m.level = level
	return nil
}

// queuedEvent is an event and the monitors it goes to, chosen when it was
// published: a LEVEL or DETACH that comes after an event does not change
// who gets it, as in hostapd, which sends at once.
type queuedEvent struct {
	ev []byte
	to []string
}

// publish queues an event of the BSS named bss ("": unnamed) for the
// monitors without blocking: called on the core's loop. As hostapd's
// hostapd_ctrl_iface_send, a BSS's socket takes the events of its own BSS
// (the first BSS's socket, whose name may not be its BSS's, also those
// unclaimed: no socket is named after the event's BSS; a section's never),
// and the global socket every BSS's, with IFNAME=bss before each.
func (h *hostapdIface) publish(ev []byte, bss string, unclaimed bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.prefix == "" && h.cfg.Iface != bss && (!unclaimed || h.cfg.Section) {
		return
	}
	to := h.targetsLocked()
	if len(to) == 0 {
		return
	}
	switch {
	case h.prefix != "" && bss != "":
		ev = append([]byte("IFNAME="+bss+" "), ev...)
	case h.prefix != "":
		ev = append([]byte(h.prefix), ev...)
	}
	select {
	case h.events <- queuedEvent{ev: ev, to: to}:
	default:
		h.lost++
	}
}

// targetsLocked lists the monitors whose level takes an event.
func (h *hostapdIface) targetsLocked() []string {
	var to []string
	for addr, m := range h.monitors {
		if hostapd.LevelInfo >= m.level {
			to = append(to, addr)
		}
	}
	return to
}

// eventOf is a core event's datagram, or nil for the events hostapd only
// logs.
func eventOf(e ap.Event) []byte {
	addr := ctl.MAC(e.Addr)
	switch e.Kind {
	case ap.EventConnected:
		b := hostapd.AppendEvent(nil, hostapd.EventConnected, &addr)
		if e.KeyID != "" {
			b = append(b, " keyid="+e.KeyID...)
		}
		return b
	case ap.EventDisconnected:
		return hostapd.AppendEvent(nil, hostapd.EventDisconnected, &addr)
	case ap.EventHandshakeCompleted:
		return hostapd.AppendEvent(nil, hostapd.EventHandshake, &addr)
	case ap.EventSAEFailed:
		if e.Reason == sae.StatusUnknownPasswordID {
			return hostapd.AppendEvent(nil, hostapd.EventSAEUnknownPasswordID, &addr)
		}
	}
	return nil
}

// sendEvent sends ev to every monitor at its level now; see sendEventTo.
func (h *hostapdIface) sendEvent(ev []byte, send func(to string, b []byte) (gone bool, err error)) {
	h.mu.Lock()
	targets := h.targetsLocked()
	h.mu.Unlock()
	h.sendEventTo(ev, targets, send)
}

// sendEventTo sends ev to the monitors listed, dropping those whose sends
// keep failing or whose socket is gone (gone reports that); a monitor
// that detached meanwhile is skipped.
func (h *hostapdIface) sendEventTo(ev []byte, targets []string, send func(to string, b []byte) (gone bool, err error)) {
	for _, to := range targets {
		h.mu.Lock()
		_, attached := h.monitors[to]
		h.mu.Unlock()
		if !attached {
			continue
		}
		gone, err := send(to, ev)
		h.mu.Lock()
		if m, ok := h.monitors[to]; ok {
			switch {
			case err == nil:
				m.errors = 0
			case gone || m.errors+1 > monitorErrors:
				delete(h.monitors, to)
				if h.cfg.Log != nil {
					h.cfg.Log.Info("hostapd control: monitor dropped", "socket", h.cfg.Iface, "monitor", to, "err", err)
				}
			default:
				m.errors++
			}
		}
		h.mu.Unlock()
	}
}

// publishHostapdLocked hands a core event to the hostapd sockets; it runs on the
// loop under s.mu and never blocks.
func (s *ControlServer) publishHostapdLocked(e ap.Event) {
	if len(s.hostapd) == 0 {
		return
	}
	ev := eventOf(e)
	if ev == nil {
		return
	}
	unclaimed := !slices.ContainsFunc(s.hostapd, func(h *hostapdIface) bool { return e.BSS != "" && h.cfg.Iface == e.BSS })
	for _, h := range s.hostapd {
		h.publish(ev, e.BSS, unclaimed)
	}
}

// publishHostapd hands an event of the BSS's own to every hostapd socket.
func (s *ControlServer) publishHostapd(ev []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.hostapd {
		h.publish(ev, "", true)
	}
}

// setHostapdState is STATUS's state= on every socket from now on.
func (s *ControlServer) setHostapdState(state string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.hostapd {
		h.mu.Lock()
		h.bss.State = state
		h.mu.Unlock()
	}
}

func (s *ControlServer) addHostapd(h *hostapdIface) {
	s.mu.Lock()
	s.hostapd = append(s.hostapd, h)
	s.mu.Unlock()
}

func (s *ControlServer) removeHostapd(h *hostapdIface) {
	s.mu.Lock()
	s.hostapd = slices.DeleteFunc(s.hostapd, func(x *hostapdIface) bool { return x == h })
	s.mu.Unlock()
}
