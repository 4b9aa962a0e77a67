package shell

import (
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
)

// twoBSSCore is a core of an HT radio whose first BSS "wlan0" has station
// sta associated and whose second, "guest", without HT and with DTIM
// period 3, has none.
func twoBSSCore(t *testing.T) *ap.AP {
	t.Helper()
	core, err := ap.New(ap.Config{Name: "wlan0", SSID: "main", BSSID: bssid, Channel: 1, ReplyAirtime: 1, PHY: bss.PHY{HT: true},
		BSSes: []ap.BSSConfig{{Name: "guest", SSID: "guest", BSSID: ieee80211.MAC{2, 0, 0, 0, 2, 1}, NoHT: true, DTIMPeriod: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	d := &echoDriver{}
	air := func(f []byte) {
		core.HandleRadio(0, f)
		core.Flush(0, d)
		for len(d.echoes) > 0 {
			e := d.echoes
			d.echoes = nil
			for _, f := range e {
				core.HandleRadio(0, f)
				core.Flush(0, d)
			}
		}
	}
	core.Start(0)
	core.Flush(0, d)
	rt := radiotap.AppendRx(nil, radio.RxInfo{Freq: 2412, Signal: -50, HasSignal: true})
	air(ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(append([]byte(nil), rt...), ieee80211.SubtypeAuth, bssid, sta, bssid, 1), 0, 1, 0))
	b := ieee80211.AppendAssocReq(ieee80211.AppendMgmtHeader(append([]byte(nil), rt...), ieee80211.SubtypeAssocReq, bssid, sta, bssid, 2), 0x0421, 10)
	air(ieee80211.AppendRates(ieee80211.AppendSSID(b, "main"), []byte{0x82, 0x84, 0x8b, 0x96, 12, 24, 48, 108}))
	if core.Associated() != 1 {
		t.Fatalf("%d associated, want 1", core.Associated())
	}
	return core
}

// twoBSSSockets serves twoBSSCore's control requests and opens a hostapd
// socket for each of its BSSes, wlan0 and guest.
func twoBSSSockets(t *testing.T) map[string]*hostapdRig {
	t.Helper()
	core := twoBSSCore(t)
	srv, err := ListenControl("")
	if err != nil {
		t.Fatal(err)
	}
	stop := serveCalls(srv, func(c *ControlCall) {
		c.Serve(core, time.Millisecond, func(req ctl.Request) ctl.Reply { return core.Control(time.Millisecond, req) })
	})
	dir := filepath.Join(t.TempDir(), "hostapd")
	rigs := map[string]*hostapdRig{}
	t.Cleanup(func() {
		for _, r := range rigs {
			r.hs.Close()
		}
		stop()
		srv.Close()
	})
	for _, name := range []string{"wlan0", "guest", "lost"} { // lost: a section the core does not know
		hs, err := ListenHostapd(srv, HostapdConfig{Dir: dir, Group: -1, Iface: name, Section: name != "wlan0", Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		rigs[name] = &hostapdRig{t: t, hs: hs}
	}
	return rigs
}

// TestHostapdSocketPerBSS: each BSS's control socket is its own, as
// hostapd's: its monitors get the events of its BSS alone (an event of no
// named socket's BSS goes to the first BSS's socket, never to a section's:
// the guest's monitors learn nothing of another network's stations), and
// STA lists its stations alone.
func TestHostapdSocketPerBSS(t *testing.T) {
	noLeaks(t)
	rigs := twoBSSSockets(t)
	srv := rigs["wlan0"].hs.srv
	main, guest := rigs["wlan0"].client("main"), rigs["guest"].client("guest")
	for _, c := range []*client{main, guest} {
		if got := c.ask("ATTACH"); got != "OK\n" {
			t.Fatalf("ATTACH: %q", got)
		}
	}
	other := ieee80211.MAC{2, 0, 0, 0, 1, 9}
	srv.Publish(ap.Event{Kind: ap.EventConnected, Addr: other, AID: 2, BSS: "guest"})
	srv.Publish(ap.Event{Kind: ap.EventDisconnected, Addr: sta, AID: 1, BSS: "wlan0"})
	srv.Publish(ap.Event{Kind: ap.EventConnected, Addr: other, AID: 2, BSS: "lan"}) // no socket of its own: the first BSS's socket
	srv.Publish(ap.Event{Kind: ap.EventDisconnected, Addr: other, AID: 2, BSS: "guest"})
	for _, c := range []struct {
		cl   *client
		want []string
	}{
		{main, []string{"<3>AP-STA-DISCONNECTED 02:00:00:00:01:00", "<3>AP-STA-CONNECTED 02:00:00:00:01:09"}},
		{guest, []string{"<3>AP-STA-CONNECTED 02:00:00:00:01:09", "<3>AP-STA-DISCONNECTED 02:00:00:00:01:09"}},
	} {
		for _, want := range c.want {
			if got := c.cl.recv(); got != want {
				t.Errorf("event %q, want %q", got, want)
			}
		}
	}
	if got := main.ask("STA-FIRST"); len(got) < 17 || got[:17] != sta.String() {
		t.Errorf("STA-FIRST on wlan0's socket: %q, want its station", got)
	}
	if got := guest.ask("STA-FIRST"); got != "" {
		t.Errorf("STA-FIRST on guest's socket: %q, want nothing: the station is wlan0's", got)
	}
	if got := guest.ask("STA " + sta.String()); got != "FAIL\n" {
		t.Errorf("STA of wlan0's station on guest's socket: %q, want FAIL", got)
	}
}

// TestHostapdStatusEveryBSS: STATUS on any BSS's socket ends with every
// BSS of the radio in its order, as hostapd's (bss[i], bssid[i], ssid[i],
// num_sta[i]), each with its own stations; its ieee80211n and
// dtim_period are the socket's BSS's (a section's socket of no BSS has
// the first BSS's), its channel the radio's.
func TestHostapdStatusEveryBSS(t *testing.T) {
	noLeaks(t)
	rigs := twoBSSSockets(t)
	const want = "bss[0]=wlan0\nbssid[0]=02:00:00:00:02:00\nssid[0]=main\nnum_sta[0]=1\n" +
		"bss[1]=guest\nbssid[1]=02:00:00:00:02:01\nssid[1]=guest\nnum_sta[1]=0\n"
	own := map[string]string{"wlan0": "\nieee80211n=1\n", "guest": "\nieee80211n=0\n", "lost": "\nieee80211n=1\n"}
	dtim := map[string]string{"wlan0": "\ndtim_period=2\n", "guest": "\ndtim_period=3\n", "lost": "\ndtim_period=2\n"}
	for _, name := range []string{"wlan0", "guest", "lost"} {
		st := rigs[name].client(name).ask("STATUS")
		if _, tail, ok := strings.Cut(st, "\nbss[0]="); !ok || "bss[0]="+tail != want {
			t.Errorf("STATUS on %s's socket:\n%s\nwant it to end with\n%s", name, st, want)
		}
		if !strings.Contains(st, own[name]) || !strings.Contains(st, dtim[name]) || !strings.Contains(st, "\nchannel=1\n") {
			t.Errorf("STATUS on %s's socket:\n%s\nwant %q, %q and channel 1", name, st, own[name], dtim[name])
		}
	}
}

// TestHostapdDisableEveryBSS: DISABLE on one BSS's socket switches the
// radio off, every BSS with it, as hostapd's disables the interface:
// STATUS on the other BSS's socket says so too, and ENABLE on it brings
// both back.
func TestHostapdDisableEveryBSS(t *testing.T) {
	noLeaks(t)
	rigs := twoBSSSockets(t)
	main, guest := rigs["wlan0"].client("main"), rigs["guest"].client("guest")
	if got := guest.ask("DISABLE"); got != "OK\n" {
		t.Fatalf("DISABLE: %q", got)
	}
	for _, c := range []*client{main, guest} {
		if st := c.ask("STATUS"); !strings.HasPrefix(st, "state=DISABLED\n") || !strings.Contains(st, "\nnum_sta[0]=0\n") {
			t.Errorf("STATUS after DISABLE on the guest's socket:\n%s", st)
		}
	}
	if got := main.ask("ENABLE"); got != "OK\n" {
		t.Fatalf("ENABLE: %q", got)
	}
	if st := guest.ask("STATUS"); !strings.HasPrefix(st, "state=ENABLED\n") {
		t.Errorf("STATUS on the guest's socket after ENABLE on wlan0's:\n%s", st)
	}
}

// TestHostapdSectionSocketOfNoBSS: a section's socket whose name the core
// does not know fails its station commands (no such BSS), rather than on every
// BSS's as the first BSS's socket would (whose name may not be its
// BSS's): a section's commands never reach another BSS's stations.
func TestHostapdSectionSocketOfNoBSS(t *testing.T) {
	noLeaks(t)
	lost := twoBSSSockets(t)["lost"].client("lost")
	for _, cmd := range []string{"STA-FIRST", "STA " + sta.String(), "DEAUTHENTICATE " + sta.String()} {
		if got := lost.ask(cmd); got != "FAIL\n" {
			t.Errorf("%s on a section's socket of no BSS: %q, want FAIL", cmd, got)
		}
	}
}
