package shell

import (
	"bytes"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/ctl/hostapd"
	"github.com/airq/airq/internal/ieee80211"
)

// hostapdRig serves a core with n associated stations on a hostapd
// control socket, its loop answering calls as Run's does.
type hostapdRig struct {
	t    *testing.T
	dir  string
	srv  *ControlServer
	hs   *HostapdServer
	core *ap.AP
	mu   sync.Mutex // the core, between the loop and the test
	now  time.Duration
	log  lockedBuffer
}

func newHostapdRig(t *testing.T, n int, be HostapdBackend, opts ...func(*HostapdConfig)) *hostapdRig {
	t.Helper()
	noLeaks(t)
	r := &hostapdRig{t: t, dir: filepath.Join(t.TempDir(), "hostapd")}
	r.core, r.now = fullCore(t, n)
	srv, err := ListenControl("")
	if err != nil {
		t.Fatal(err)
	}
	r.srv = srv
	stop := serveCalls(srv, func(c *ControlCall) {
		r.mu.Lock()
		defer r.mu.Unlock()
		c.Serve(r.core, r.now, func(req ctl.Request) ctl.Reply {
			rep := r.core.Control(r.now, req)
			r.core.Flush(r.now, &echoDriver{})
			return rep
		})
	})
	cfg := HostapdConfig{Dir: r.dir, Group: -1, Iface: "wlan0", Phy: "phy0", Backend: be,
		Log: slog.New(slog.NewTextHandler(&r.log, nil))}
	for _, o := range opts {
		o(&cfg)
	}
	r.hs, err = ListenHostapd(srv, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.hs.Close()
		stop()
		srv.Close()
	})
	return r
}

// client is a hostapd_cli-like client: its own bound datagram socket.
type client struct {
	t    *testing.T
	conn *net.UnixConn
}

func (r *hostapdRig) client(name string) *client {
	r.t.Helper()
	local := filepath.Join(r.t.TempDir(), name)
	c, err := net.DialUnix("unixgram", &net.UnixAddr{Name: local, Net: "unixgram"},
		&net.UnixAddr{Name: r.hs.Addr(), Net: "unixgram"})
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { c.Close() })
	return &client{t: r.t, conn: c}
}

func (c *client) send(cmd string) {
	c.t.Helper()
	if _, err := c.conn.Write([]byte(cmd)); err != nil {
		c.t.Fatal(err)
	}
}

// recv reads one datagram, as wpa_ctrl_request does, within 4,095 bytes.
func (c *client) recv() string {
	c.t.Helper()
	buf := make([]byte, 4096)
	c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, err := c.conn.Read(buf)
	if err != nil {
		c.t.Fatal(err)
	}
	if n > hostapd.MaxReply {
		c.t.Fatalf("reply of %d bytes", n)
	}
	return string(buf[:n])
}

func (c *client) ask(cmd string) string {
	c.t.Helper()
	c.send(cmd)
	return c.recv()
}

func TestHostapdSocketCommands(t *testing.T) {
	r := newHostapdRig(t, 3, nil)
	fi, err := os.Stat(r.hs.Addr())
	if err != nil || fi.Mode().Type() != fs.ModeSocket || fi.Mode().Perm()&^0o770 != 0 || fi.Mode().Perm()&0o070 != 0o070 {
		t.Fatalf("socket %v, %v: want a socket with mode 0770", fi.Mode(), err)
	}
	c := r.client("cli")
	if got := c.ask("PING"); got != "PONG\n" {
		t.Errorf("PING: %q", got)
	}
	if got := c.ask("FOO"); got != "UNKNOWN COMMAND\n" {
		t.Errorf("FOO: %q", got)
	}
	st := c.ask("STATUS")
	for _, line := range []string{"state=ENABLED\n", "phy=phy0\n", "freq=2412\n", "channel=1\n", "bss[0]=wlan0\n",
		"bssid[0]=02:00:00:00:02:00\n", "ssid[0]=full\n", "num_sta[0]=3\n"} {
		if !strings.Contains(st, line) {
			t.Errorf("STATUS lacks %q:\n%s", line, st)
		}
	}
	// all_sta's walk: STA-FIRST, then STA-NEXT with each reply's first line.
	var walked []string
	for reply := c.ask("STA-FIRST"); reply != ""; {
		addr, _, _ := strings.Cut(reply, "\n")
		walked = append(walked, addr)
		if !strings.Contains(reply, "\nflags=[AUTH][ASSOC][AUTHORIZED]") || !strings.Contains(reply, "\naid=") {
			t.Errorf("STA reply:\n%s", reply)
		}
		reply = c.ask("STA-NEXT " + addr)
	}
	if len(walked) != 3 || walked[0] != "02:d0:00:00:00:00" || walked[2] != "02:d0:00:00:00:02" {
		t.Errorf("walked %v", walked)
	}
	if got := c.ask("STA 02:d0:00:00:00:01"); !strings.HasPrefix(got, "02:d0:00:00:00:01\nflags=") {
		t.Errorf("STA: %q", got)
	}
	for _, cmd := range []string{"STA 02:00:00:00:09:09", "STA-NEXT 02:00:00:00:09:09", "STA nonsense", "CHAN_SWITCH 5 2437",
		"DEAUTHENTICATE 02:d0:00:00:00:01 reason=0", "GET_CONFIG", "SA_QUERY 02:d0:00:00:00:01"} {
		if got := c.ask(cmd); got != "FAIL\n" {
			t.Errorf("%s: %q, want FAIL", cmd, got)
		}
	}
	if got := c.ask("DEAUTHENTICATE 02:d0:00:00:00:01 reason=4"); got != "OK\n" {
		t.Errorf("DEAUTHENTICATE: %q", got)
	}
	if got := c.ask("DISASSOCIATE 02:d0:00:00:00:02"); got != "OK\n" {
		t.Errorf("DISASSOCIATE: %q", got)
	}
	if got := c.ask("DEAUTHENTICATE 02:00:00:00:09:09"); got != "OK\n" { // as hostapd: no station is no error
		t.Errorf("DEAUTHENTICATE of nobody: %q", got)
	}
	r.mu.Lock()
	assoc := r.core.Associated()
	r.mu.Unlock()
	if assoc != 1 {
		t.Errorf("%d associated after a deauthentication and a disassociation, want 1", assoc)
	}
	if got := c.ask("STA 02:d0:00:00:00:02"); strings.Contains(got, "[ASSOC]") || !strings.Contains(got, "aid=0\n") {
		t.Errorf("disassociated station:\n%s", got)
	}
	if got := c.ask("DEAUTHENTICATE ff:ff:ff:ff:ff:ff"); got != "OK\n" || c.ask("STA-FIRST") != "" {
		t.Errorf("DEAUTHENTICATE ff:ff:ff:ff:ff:ff: %q, stations left", got)
	}
	m := r.client("mon")
	m.ask("ATTACH")
	if got := c.ask("DISABLE"); got != "OK\n" || m.recv() != "<3>AP-DISABLED" {
		t.Errorf("DISABLE: %q", got)
	}
	if st := c.ask("STATUS"); !strings.HasPrefix(st, "state=DISABLED\n") || c.ask("DISABLE") != "FAIL\n" {
		t.Errorf("disabled: %q", st)
	}
	if got := c.ask("ENABLE"); got != "OK\n" || m.recv() != "<3>AP-ENABLED" || !strings.HasPrefix(c.ask("STATUS"), "state=ENABLED\n") {
		t.Errorf("ENABLE: %q", got)
	}
	if !strings.Contains(r.log.String(), "airq does not switch channels") {
		t.Errorf("CHAN_SWITCH's refusal not logged: %s", r.log.String())
	}
}

// STATUS prints the radio's protection counts in hostapd's first lines:
// an 802.11b station with long preamble and slot time joining three ERP
// stations without HT changes num_sta_non_erp,
// num_sta_no_short_slot_time, num_sta_no_short_preamble and
// num_sta_no_ht; the radio without HT keeps ht_op_mode 0.
func TestHostapdStatusProtectionCounts(t *testing.T) {
	r := newHostapdRig(t, 3, nil)
	c := r.client("cli")
	counts := func() string {
		st := c.ask("STATUS")
		_, after, _ := strings.Cut(st, "freq=2412\n")
		head, _, ok := strings.Cut(after, "cac_time_seconds=")
		if !ok {
			t.Fatalf("STATUS:\n%s", st)
		}
		return head
	}
	const before = "num_sta_non_erp=0\nnum_sta_no_short_slot_time=0\nnum_sta_no_short_preamble=0\nolbc=0\n" +
		"num_sta_ht_no_gf=0\nnum_sta_no_ht=3\nnum_sta_ht_20_mhz=0\nnum_sta_ht40_intolerant=0\nolbc_ht=0\nht_op_mode=0x0\n"
	if got := counts(); got != before {
		t.Errorf("STATUS's counts with three ERP stations:\n%s\nwant\n%s", got, before)
	}
	r.mu.Lock()
	associate(r.core, r.now, ieee80211.MAC{2, 0xb0, 0, 0, 0, 1}, 0x0001, []byte{0x82, 0x84, 0x8b, 0x96}) // 802.11b, long preamble
	r.mu.Unlock()
	const after = "num_sta_non_erp=1\nnum_sta_no_short_slot_time=1\nnum_sta_no_short_preamble=1\nolbc=0\n" +
		"num_sta_ht_no_gf=0\nnum_sta_no_ht=4\nnum_sta_ht_20_mhz=0\nnum_sta_ht40_intolerant=0\nolbc_ht=0\nht_op_mode=0x0\n"
	if got := counts(); got != after {
		t.Errorf("STATUS's counts with an 802.11b station too:\n%s\nwant\n%s", got, after)
	}
}

// Monitors get events at their level; a monitor that vanishes or stops
// reading is dropped, and their number is bounded.
func TestHostapdMonitors(t *testing.T) {
	r := newHostapdRig(t, 0, nil)
	m := r.client("mon")
	if got := m.ask("ATTACH"); got != "OK\n" {
		t.Fatalf("ATTACH: %q", got)
	}
	r.srv.Publish(ap.Event{Kind: ap.EventConnected, Addr: sta, AID: 1})
	if got := m.recv(); got != "<3>AP-STA-CONNECTED 02:00:00:00:01:00" {
		t.Errorf("event %q", got)
	}
	r.srv.Publish(ap.Event{Kind: ap.EventConnected, Addr: sta, AID: 1, KeyID: "guests"})
	if got := m.recv(); got != "<3>AP-STA-CONNECTED 02:00:00:00:01:00 keyid=guests" {
		t.Errorf("event %q", got)
	}
	r.srv.Publish(ap.Event{Kind: ap.EventRefused, Addr: sta}) // hostapd only logs these
	r.srv.Publish(ap.Event{Kind: ap.EventHandshakeCompleted, Addr: sta})
	if got := m.recv(); got != "<3>EAPOL-4WAY-HS-COMPLETED 02:00:00:00:01:00" {
		t.Errorf("event %q", got)
	}
	if got := m.ask("LEVEL 4"); got != "OK\n" {
		t.Fatalf("LEVEL: %q", got)
	}
	r.srv.Publish(ap.Event{Kind: ap.EventDisconnected, Addr: sta})
	if got := m.ask("PING"); got != "PONG\n" { // the event above was not sent
		t.Errorf("after LEVEL 4: %q", got)
	}
	m.ask("LEVEL 1")
	// One that leaves without DETACH is dropped at the first send.
	gone := r.client("gone")
	gone.ask("ATTACH")
	gone.conn.Close()
	os.Remove(gone.conn.LocalAddr().String())
	r.srv.Publish(ap.Event{Kind: ap.EventConnected, Addr: sta})
	m.recv()
	waitFor(t, "the vanished monitor to be dropped", func() bool { return r.monitors() == 1 })
	if got := m.ask("DETACH"); got != "OK\n" || m.ask("DETACH") != "FAIL\n" {
		t.Errorf("DETACH: %q", got)
	}
	for i := range MaxHostapdMonitors {
		if got := r.client(fmt.Sprint("m", i)).ask("ATTACH"); got != "OK\n" {
			t.Fatalf("ATTACH %d: %q", i, got)
		}
	}
	if got := m.ask("ATTACH"); got != "FAIL\n" || !strings.Contains(r.log.String(), "ATTACH refused") {
		t.Errorf("ATTACH beyond %d: %q", MaxHostapdMonitors, got)
	}
	r.hs.Close()
	if _, err := os.Stat(r.hs.Addr()); !os.IsNotExist(err) {
		t.Errorf("socket left after Close: %v", err)
	}
	if _, err := os.Stat(r.dir); !os.IsNotExist(err) {
		t.Errorf("directory left after Close: %v", err)
	}
}

// The SAE events hostapd 2.11 sends: an unknown password identifier
// (status 123) is CTRL-EVENT-SAE-UNKNOWN-PASSWORD-IDENTIFIER; a wrong
// password (status 15 at the Confirm) hostapd only logs.
func TestHostapdSAEEvents(t *testing.T) {
	r := newHostapdRig(t, 0, nil)
	m := r.client("mon")
	if got := m.ask("ATTACH"); got != "OK\n" {
		t.Fatalf("ATTACH: %q", got)
	}
	r.srv.Publish(ap.Event{Kind: ap.EventSAEFailed, Addr: sta, Reason: 15, Why: "SAE confirm mismatch: wrong password likely"})
	r.srv.Publish(ap.Event{Kind: ap.EventSAEFailed, Addr: sta, Reason: 123, Why: "unknown SAE password identifier"})
	if got := m.recv(); got != "<3>CTRL-EVENT-SAE-UNKNOWN-PASSWORD-IDENTIFIER 02:00:00:00:01:00" {
		t.Errorf("event %q", got)
	}
}

// hostapd's rule: a monitor is dropped after more than ten failed sends
// in a row, at once when its socket is gone; a send that goes through
// clears its count.
func TestHostapdMonitorFailedSends(t *testing.T) {
	h := newHostapdIface(nil, HostapdConfig{Iface: "wlan0"})
	for _, m := range []string{"quiet", "flaky", "gone"} {
		if err := h.attach(m); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	send := func(to string, _ []byte) (bool, error) {
		switch {
		case to == "gone":
			return true, syscall.ECONNREFUSED
		case to == "quiet", to == "flaky" && n%5 != 0:
			return false, syscall.EAGAIN
		}
		return false, nil
	}
	for n = 1; n <= monitorErrors; n++ {
		h.sendEvent([]byte("<3>AP-STA-CONNECTED 02:00:00:00:01:00"), send)
	}
	if _, ok := h.monitors["gone"]; ok || len(h.monitors) != 2 {
		t.Fatalf("after %d sends: %v", monitorErrors, h.monitors)
	}
	h.sendEvent([]byte("<3>AP-STA-CONNECTED 02:00:00:00:01:00"), send)
	if _, ok := h.monitors["flaky"]; !ok || len(h.monitors) != 1 {
		t.Errorf("after %d failed sends: %v, want flaky only", monitorErrors+1, h.monitors)
	}
}

// A monitor's level and attachment when an event is published decide
// whether it gets it, as in hostapd, which sends at once: a LEVEL or a
// DETACH that comes while the event waits for the sender changes nothing.
func TestHostapdEventTargetsAtPublish(t *testing.T) {
	h := newHostapdIface(nil, HostapdConfig{Iface: "wlan0"})
	for _, m := range []string{"low", "high"} {
		if err := h.attach(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.setLevel("high", 4); err != nil {
		t.Fatal(err)
	}
	h.publish([]byte("<3>AP-STA-DISCONNECTED 02:00:00:00:01:00"), "wlan0", false)
	if err := h.setLevel("high", 1); err != nil {
		t.Fatal(err)
	}
	if err := h.detach("low"); err != nil {
		t.Fatal(err)
	}
	var got []string
	send := func(to string, _ []byte) (bool, error) { got = append(got, to); return false, nil }
	q := <-h.events
	h.sendEventTo(q.ev, q.to, send)
	if len(got) != 0 {
		t.Errorf("sent to %v: high was at level 4 when it was published, low detached since", got)
	}
}

func (r *hostapdRig) monitors() int {
	h := r.hs.h
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.monitors)
}

// Hostile input: an oversized datagram, a flood from a client that does
// not read its replies, a client without an address; each costs its
// sender only, and the socket keeps answering.
func TestHostapdHostileInput(t *testing.T) {
	r := newHostapdRig(t, 1, nil)
	c := r.client("big")
	if got := c.ask(strings.Repeat("A", 8000)); got != "FAIL\n" {
		t.Errorf("oversized: %q", got)
	}
	if got := c.ask("STA\x00 02:d0:00:00:00:00"); got != "UNKNOWN COMMAND\n" {
		t.Errorf("NUL inside: %q", got)
	}
	flood := r.client("flood")
	for range 500 {
		flood.conn.SetWriteDeadline(time.Now().Add(time.Second))
		if _, err := flood.conn.Write([]byte("STATUS")); err != nil {
			break // the socket's queue is full: the kernel bounds the flood
		}
	}
	anon, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: r.hs.Addr(), Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	anon.Write([]byte("PING")) // no address to answer to: dropped
	anon.Close()
	flood.conn.Close() // vanishes with the replies it never read
	if got := c.ask("PING"); got != "PONG\n" {
		t.Errorf("after the flood: %q", got)
	}
	if got := c.ask("STA-FIRST"); !strings.HasPrefix(got, "02:d0:00:00:00:00\n") {
		t.Errorf("STA-FIRST: %q", got)
	}
}

// A leftover socket is replaced; a live one is refused; the group and
// mode are set.
func TestHostapdSocketFile(t *testing.T) {
	r := newHostapdRig(t, 0, nil)
	srv2, _ := ListenControl("")
	defer srv2.Close()
	if _, err := ListenHostapd(srv2, HostapdConfig{Dir: r.dir, Group: -1, Iface: "wlan0"}); err == nil ||
		!strings.Contains(err.Error(), "in use") {
		t.Errorf("second server on a live socket: %v", err)
	}
	dir := t.TempDir()
	left, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: filepath.Join(dir, "wlan1"), Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	left.Close() // the file stays: a crash's leftover
	hs, err := ListenHostapd(srv2, HostapdConfig{Dir: dir, Group: os.Getgid(), Iface: "wlan1"})
	if err != nil {
		t.Fatalf("over a leftover: %v", err)
	}
	defer hs.Close()
	if _, err := ListenHostapd(srv2, HostapdConfig{Dir: dir, Group: -1, Iface: "../x"}); err == nil {
		t.Error("a path as interface name accepted")
	}
	if !bytes.Contains([]byte(r.hs.Addr()), []byte("wlan0")) {
		t.Errorf("address %s", r.hs.Addr())
	}
	_ = ieee80211.Broadcast
}
