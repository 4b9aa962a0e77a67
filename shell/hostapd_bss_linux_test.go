package shell

import (
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
)

// twoBSSCore is a core whose first BSS "wlan0" has station sta associated
// and whose second, "guest", has none.
func twoBSSCore(t *testing.T) *ap.AP {
	t.Helper()
	core, err := ap.New(ap.Config{Name: "wlan0", SSID: "main", BSSID: bssid, Channel: 1, ReplyAirtime: 1,
		BSSes: []ap.BSSConfig{{Name: "guest", SSID: "guest", BSSID: ieee80211.MAC{2, 0, 0, 0, 2, 1}}}})
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

// TestHostapdSocketPerBSS: each BSS's control socket is its own, as
// hostapd's: its monitors get the events of its BSS alone (an event of no
// named socket's BSS goes to every socket), and STA lists its stations
// alone.
func TestHostapdSocketPerBSS(t *testing.T) {
	noLeaks(t)
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
	for _, name := range []string{"wlan0", "guest"} {
		hs, err := ListenHostapd(srv, HostapdConfig{Dir: dir, Group: -1, Iface: name, Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		rigs[name] = &hostapdRig{t: t, hs: hs}
	}
	t.Cleanup(func() {
		for _, r := range rigs {
			r.hs.Close()
		}
		stop()
		srv.Close()
	})
	main, guest := rigs["wlan0"].client("main"), rigs["guest"].client("guest")
	for _, c := range []*client{main, guest} {
		if got := c.ask("ATTACH"); got != "OK\n" {
			t.Fatalf("ATTACH: %q", got)
		}
	}
	other := ieee80211.MAC{2, 0, 0, 0, 1, 9}
	srv.Publish(ap.Event{Kind: ap.EventConnected, Addr: other, AID: 2, BSS: "guest"})
	srv.Publish(ap.Event{Kind: ap.EventDisconnected, Addr: sta, AID: 1, BSS: "wlan0"})
	srv.Publish(ap.Event{Kind: ap.EventConnected, Addr: other, AID: 2, BSS: "lan"}) // no socket of its own: every socket
	for _, c := range []struct {
		cl   *client
		want []string
	}{
		{main, []string{"<3>AP-STA-DISCONNECTED 02:00:00:00:01:00", "<3>AP-STA-CONNECTED 02:00:00:00:01:09"}},
		{guest, []string{"<3>AP-STA-CONNECTED 02:00:00:00:01:09", "<3>AP-STA-CONNECTED 02:00:00:00:01:09"}},
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
