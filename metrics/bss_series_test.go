package metrics

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/sim"
)

// TestMetricsPerBSS: a radio with a guest network beside its first BSS,
// a busy station in each: each BSS's series carry its name in the bss
// label with the core's figures of it (airqctl dev's), while the radio's
// families keep no such label and count both.
func TestMetricsPerBSS(t *testing.T) {
	guestID := ieee80211.MAC{0x02, 0, 0, 0, 0x02, 1}
	s, err := sim.New(sim.Config{Seed: 7, AP: ap.Config{Name: "wlan0", Holder: "airq0", TAP: "airq-tap0",
		BSSes: []ap.BSSConfig{{Name: "guest", BSSID: guestID, SSID: "guest", Holder: "guest-ack", TAP: "guest"}}}})
	if err != nil {
		t.Fatal(err)
	}
	// Each BSS has its own wired side: a host on each.
	hosts := []*sim.Host{s.AddHost(sim.HostConfig{}), s.AddHost(sim.HostConfig{BSS: 1})}
	stas := []*sim.Station{s.AddStation(sim.StationConfig{}), s.AddStation(sim.StationConfig{SSID: "guest"})}
	started := [2]bool{}
	for end := s.Now() + 2*time.Second; s.Now() < end; {
		s.Run(100 * time.Millisecond)
		for i, st := range stas {
			if !started[i] && st.Associated() {
				started[i] = true
				s.Bulk(hosts[i], st, sim.BulkConfig{})
				s.Ping(st, hosts[i], time.Second, 56)
			}
		}
	}
	c := NewCollector(serveSim(t, s), Options{})
	code, body := scrape(t, Handler(c))
	if code != http.StatusOK {
		t.Fatalf("status %d\n%s", code, body)
	}
	devs := s.Control(ctl.Request{Op: ctl.OpDev}).Devs
	if len(devs) != 2 || devs[0].Stations != 1 || devs[1].Stations != 1 || devs[1].RxPackets == 0 || devs[1].TxPackets == 0 ||
		devs[1].WiredIn == 0 || devs[1].WiredOut == 0 || devs[0].WiredIn == 0 {
		t.Fatalf("devs %+v: want a busy station in each BSS", devs)
	}
	g := devs[1]
	for _, want := range []string{
		`airq_bss_info{bss="guest",bssid="02:00:00:00:02:01",holder="guest-ack",pmf="off",security="open",ssid="guest",tap="guest"} 1`,
		`airq_bss_info{bss="wlan0",bssid="` + devs[0].BSSID.String() + `",holder="airq0",pmf="off",security="open",ssid="` + devs[0].SSID + `",tap="airq-tap0"} 1`,
		`airq_bss_wired_frames_total{bss="guest",dir="in"} ` + u(g.WiredIn),
		`airq_bss_wired_frames_total{bss="guest",dir="out"} ` + u(g.WiredOut),
		`airq_bss_stations{bss="guest",state="associated"} 1`,
		`airq_bss_packets_total{bss="guest",dir="rx"} ` + u(g.RxPackets),
		`airq_bss_bytes_total{bss="guest",dir="tx"} ` + u(g.TxBytes),
		`airq_bss_tx_management_frames_total{bss="guest",type="assoc_response"} ` + u(g.AssocResponses),
		`airq_bss_associations_total{bss="guest"} 1`,
		`airq_bss_ack_watch_frames_total{bss="guest"} ` + u(g.AckFrames),
		`airq_bss_ack_missing_total{bss="guest"} 0`,
		`airq_stations{state="associated"} 2`,
	} {
		if !strings.Contains(body, "\n"+want+"\n") {
			t.Errorf("no %q in the scrape", want)
		}
	}
	if strings.Contains(body, `airq_rx_frames_total{bss=`) {
		t.Error("a radio-wide counter carries a bss label")
	}
	problems, err := testutil.CollectAndLint(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
}
