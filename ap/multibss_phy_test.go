package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// Each BSS of a radio has its own WMM (wmm_enabled), HT and VHT
// (disable_11n, disable_11ac) and multicast_to_unicast, as hostapd keeps
// them in each BSS's configuration: its beacons and responses carry its
// elements, its stations are admitted and served by them.

var (
	htElems  = ieee80211.AppendHTCap(nil, ieee80211.HTPHY{Streams: 1, SGI20: true, MaxAMSDU: 7935}.Cap())
	vhtElems = ieee80211.AppendVHTCap(append([]byte(nil), htElems...), ieee80211.VHTPHY{Streams: 1, Width: 80, SGI80: true}.Cap())
	wmmElem  = ieee80211.AppendWMMInfo(nil, 0)
)

// joinWith associates sta with the radio's BSS id, whose SSID is ssid,
// with extra (HT/VHT Capabilities, the WMM element) after its rates, and
// returns the association response, acknowledged.
func (h *harness) joinWith(sta, id ieee80211.MAC, ssid string, extra ...[]byte) ieee80211.AssocResp {
	h.t.Helper()
	return h.joinAs(sta, id, ssid, 0x0421, gRates, extra...) // short preamble and slot time
}

// joinAs is joinWith for a station of capability capab and rates.
func (h *harness) joinAs(sta, id ieee80211.MAC, ssid string, capab uint16, rates []byte, extra ...[]byte) ieee80211.AssocResp {
	h.t.Helper()
	h.take()
	h.authTo(id, sta, 0, 1)
	h.take()
	req := ieee80211.AppendAssocReq(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAssocReq, id, sta, id, h.nextSeq()), capab, 10)
	req = ieee80211.AppendRates(ieee80211.AppendSSID(req, ssid), rates)
	for _, e := range extra {
		req = append(req, e...)
	}
	h.air(req)
	out, _ := h.take()
	ar, raw := h.assocResp(out, sta)
	if ar.Status() != ieee80211.StatusSuccess {
		h.t.Fatalf("association of %s with %s: status %d", sta, ssid, ar.Status())
	}
	h.echo(raw, radio.TxStatus{Acked: true})
	return ar
}

// beaconElems returns the elements of the next beacon of each BSS.
func (h *harness) beaconElems() map[ieee80211.MAC]ieee80211.Elements {
	h.t.Helper()
	got := map[ieee80211.MAC]ieee80211.Elements{}
	for range 100 {
		if len(got) == len(h.a.bsses) {
			return got
		}
		h.advance(h.a.Deadline() - h.now)
		out, _ := h.take()
		for _, f := range out {
			if _, fr := parsed(h.t, f); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
				bc, err := ieee80211.ParseBeacon(fr.Body())
				if err != nil {
					h.t.Fatal(err)
				}
				got[fr.Addr2()] = bc.Elements()
			}
		}
	}
	h.t.Fatalf("beacons of %d BSSes, want %d", len(got), len(h.a.bsses))
	return nil
}

// downlink sends n frames from BSS bi's wired side to sta, each
// acknowledged at its rate, and returns those the radio sent with their
// rates.
func (h *harness) downlink(bi int, sta ieee80211.MAC, tos byte, n int) ([]ieee80211.Frame, []radio.Rate) {
	h.t.Helper()
	var sent []ieee80211.Frame
	var rates []radio.Rate
	for range n {
		h.now += time.Millisecond
		h.wireTo(bi, eth(sta, host, tos))
		out, _ := h.take()
		for _, f := range out {
			if rx, fr := parsed(h.t, f); fr.Type() == ieee80211.TypeData && fr.Addr1() == sta {
				sent, rates = append(sent, fr), append(rates, rx.Rate)
				h.echo(f, radio.TxStatus{Acked: true, Rate: rx.Rate})
			}
		}
	}
	return sent, rates
}

// TestWMMIsEachBSSs: a radio whose first BSS has WMM off carries a BSS
// with WMM on and one with it off: only the second's beacons and
// association responses carry the WMM Parameter element, and only its
// station gets QoS data, with the TID its DSCP asks for (not best effort's 0); the others' get
// non-QoS data, best effort.
func TestWMMIsEachBSSs(t *testing.T) {
	h := newHarness(t, Config{WMM: false, BSSes: []BSSConfig{
		{BSSID: guest2ID, SSID: "guest"},
		{BSSID: guest3ID, SSID: "iot", NoWMM: true},
	}})
	wmm := map[ieee80211.MAC]bool{bssid: false, guest2ID: true, guest3ID: false}
	for id, ies := range h.beaconElems() {
		if _, _, ok := ies.WMMParams(); ok != wmm[id] {
			t.Errorf("%s's beacon: WMM %v, want %v", id, ok, wmm[id])
		}
	}
	stas := map[ieee80211.MAC]ieee80211.MAC{
		bssid: {0x02, 0, 0, 0, 0x10, 1}, guest2ID: {0x02, 0, 0, 0, 0x20, 1}, guest3ID: {0x02, 0, 0, 0, 0x30, 1},
	}
	ssids := map[ieee80211.MAC]string{bssid: "airq-test", guest2ID: "guest", guest3ID: "iot"}
	for i, id := range []ieee80211.MAC{bssid, guest2ID, guest3ID} {
		sta := stas[id]
		ar := h.joinWith(sta, id, ssids[id], wmmElem)
		if _, _, ok := ar.Elements().WMMParams(); ok != wmm[id] {
			t.Errorf("%s's association response: WMM %v, want %v", id, ok, wmm[id])
		}
		d, _ := h.downlink(i, sta, 0xb8, 1) // DSCP 46, EF: voice
		if len(d) != 1 {
			t.Fatalf("%s: %d frames to its station, want 1", id, len(d))
		}
		if tid := classify(0x0800, ipv4(0xb8)); d[0].IsQoS() != wmm[id] || (wmm[id] && d[0].TID() != tid) {
			t.Errorf("%s's station: QoS %v (TID %d), want QoS %v with TID %d", id, d[0].IsQoS(), d[0].TID(), wmm[id], tid)
		}
	}
}

// TestHTIsEachBSSs: on an HT radio, a BSS with disable_11n advertises no
// HT, and its HT station gets legacy rates and no A-MSDU, while the first
// BSS's HT station gets HT rates and A-MSDUs; a WMM BSS beside it still
// runs QoS.
func TestHTIsEachBSSs(t *testing.T) {
	cfg := amsduConfig()
	cfg.BSSes = []BSSConfig{{BSSID: guest2ID, SSID: "guest", NoHT: true}}
	h := newHarness(t, cfg)
	for id, ies := range h.beaconElems() {
		_, ht := ies.HTCap()
		_, oper := ies.HTOper()
		if want := id == bssid; ht != want || oper != want {
			t.Errorf("%s's beacon: HT Capabilities %v, Operation %v, want %v", id, ht, oper, want)
		}
	}
	mainSta, guestSta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}, ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}
	if ar := h.joinWith(mainSta, bssid, "airq-test", htElems, wmmElem); !hasHT(ar) {
		t.Error("the first BSS's association response carries no HT Capabilities")
	}
	if ar := h.joinWith(guestSta, guest2ID, "guest", htElems, wmmElem); hasHT(ar) {
		t.Error("the guest BSS's association response carries HT Capabilities")
	}
	for i, sta := range []ieee80211.MAC{mainSta, guestSta} {
		wantHT := i == 0
		d, rates := h.bigDownlink(i, sta)
		if len(d) == 0 {
			t.Fatalf("no frame to %s", sta)
		}
		amsdu := false
		for j, fr := range d {
			amsdu = amsdu || fr.AMSDUPresent()
			if !fr.IsQoS() {
				t.Errorf("%s: frame %d is not QoS data", sta, j)
			}
			if got := rates[j].Mode == radio.ModeHT; got != wantHT {
				t.Errorf("%s: frame %d at %+v, want HT %v", sta, j, rates[j], wantHT)
			}
		}
		if amsdu != wantHT {
			t.Errorf("%s: A-MSDU %v, want %v", sta, amsdu, wantHT)
		}
	}
}

// bigDownlink sends 6 large frames from BSS bi's wired side to sta while
// one frame may be in flight, so that those queued behind the first may
// go as an A-MSDU, and returns the frames sent with their rates.
func (h *harness) bigDownlink(bi int, sta ieee80211.MAC) ([]ieee80211.Frame, []radio.Rate) {
	h.t.Helper()
	var sent []ieee80211.Frame
	var rates []radio.Rate
	for i := range 6 {
		h.wireTo(bi, bigEth(sta, host, i))
	}
	for range 10 {
		out, _ := h.take()
		if len(out) == 0 {
			break
		}
		for _, f := range out {
			if rx, fr := parsed(h.t, f); fr.Type() == ieee80211.TypeData && fr.Addr1() == sta {
				sent, rates = append(sent, fr), append(rates, rx.Rate)
			}
			h.echo(f, radio.TxStatus{Acked: true})
		}
	}
	return sent, rates
}

func hasHT(ar ieee80211.AssocResp) bool {
	_, ok := ar.Elements().HTCap()
	return ok
}

// TestVHTIsEachBSSs: on a VHT radio, a BSS with disable_11ac advertises HT
// without VHT and builds its VHT station's rates from HT alone; the first
// BSS's VHT station gets VHT rates.
func TestVHTIsEachBSSs(t *testing.T) {
	h := newHarness(t, Config{WMM: true, Channel: 36, PHY: bss.PHY{VHT: true, Width: 80},
		BSSes: []BSSConfig{{BSSID: guest2ID, SSID: "guest", NoVHT: true}}})
	for id, ies := range h.beaconElems() {
		_, ht := ies.HTCap()
		_, vht := ies.VHTCap()
		if want := id == bssid; !ht || vht != want {
			t.Errorf("%s's beacon: HT %v, VHT %v, want HT and VHT %v", id, ht, vht, want)
		}
	}
	mainSta, guestSta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}, ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}
	h.joinWith(mainSta, bssid, "airq-test", vhtElems, wmmElem)
	h.joinWith(guestSta, guest2ID, "guest", vhtElems, wmmElem)
	for i, c := range []struct {
		sta  ieee80211.MAC
		want radio.Mode
	}{{mainSta, radio.ModeVHT}, {guestSta, radio.ModeHT}} {
		d, rates := h.downlink(i, c.sta, 0, 50)
		if len(d) == 0 {
			t.Fatalf("no frame to %s", c.sta)
		}
		for j, r := range rates {
			if r.Mode != c.want {
				t.Errorf("%s: frame %d at %+v, want mode %d", c.sta, j, r, c.want)
				break
			}
		}
	}
}

// TestMulticastToUnicastIsEachBSSs: a group-addressed IPv4 frame from the
// wired side of the BSS with multicast_to_unicast goes as one unicast copy
// to each of its stations; the first BSS, without it, sends one group
// frame from its BSSID.
func TestMulticastToUnicastIsEachBSSs(t *testing.T) {
	h := newHarness(t, Config{BSSes: []BSSConfig{{BSSID: guest2ID, SSID: "guest", MulticastToUnicast: true}}})
	h.take()
	_, _, guest1, guest2 := h.joinTwoEach()
	group := ieee80211.MAC{0x01, 0, 0x5e, 0, 0, 1}
	for i, c := range []struct {
		id   ieee80211.MAC
		want []ieee80211.MAC
	}{{bssid, []ieee80211.MAC{group}}, {guest2ID, []ieee80211.MAC{guest1, guest2}}} {
		h.take()
		h.wireTo(i, eth(group, host, 0))
		out, _ := h.take()
		got := map[ieee80211.MAC]bool{}
		for _, fr := range dataFrames(t, out) {
			if fr.Addr2() != c.id {
				t.Errorf("%s: a frame from %s", c.id, fr.Addr2())
			}
			got[fr.Addr1()] = true
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: frames to %v, want %v", c.id, got, c.want)
		}
		for _, to := range c.want {
			if !got[to] {
				t.Errorf("%s: no frame to %s (got %v)", c.id, to, got)
			}
		}
	}
}

// TestRestartTakesTheBSSsNewWMMAndPHY: a BSS restarted with WMM and HT off
// and multicast_to_unicast on (a SIGHUP that changed its section) serves
// its new values; the first BSS keeps its own.
func TestRestartTakesTheBSSsNewWMMAndPHY(t *testing.T) {
	h := newHarness(t, Config{WMM: true, PHY: bss.PHY{HT: true}, BSSes: []BSSConfig{{BSSID: guest2ID, SSID: "guest"}}})
	for id, ies := range h.beaconElems() {
		_, _, wmm := ies.WMMParams()
		_, ht := ies.HTCap()
		if !wmm || !ht {
			t.Fatalf("%s before the restart: WMM %v, HT %v", id, wmm, ht)
		}
	}
	if err := h.a.RestartBSS(h.now, 1, BSSConfig{SSID: "guest", NoWMM: true, NoHT: true, MulticastToUnicast: true}); err != nil {
		t.Fatal(err)
	}
	for id, ies := range h.beaconElems() {
		_, _, wmm := ies.WMMParams()
		_, ht := ies.HTCap()
		if want := id == bssid; wmm != want || ht != want {
			t.Errorf("%s after the guest's restart: WMM %v, HT %v, want %v", id, wmm, ht, want)
		}
	}
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}
	if ar := h.joinWith(sta, guest2ID, "guest", htElems, wmmElem); hasHT(ar) {
		t.Error("the restarted guest's association response carries HT Capabilities")
	}
	group := ieee80211.MAC{0x01, 0, 0x5e, 0, 0, 1}
	h.take()
	h.wireTo(1, eth(group, host, 0))
	out, _ := h.take()
	if d := dataFrames(t, out); len(d) != 1 || d[0].Addr1() != sta || d[0].IsQoS() {
		t.Errorf("a group frame after the restart: %d frames, want one non-QoS unicast copy to %s", len(d), sta)
	}
}

// TestFirstBSSWithoutHTBesideAnHTBSS: the first BSS's disable_11n leaves
// the radio's HT to the BSS beside it: the first advertises none and
// reports none in its status, the other advertises HT.
func TestFirstBSSWithoutHTBesideAnHTBSS(t *testing.T) {
	h := newHarness(t, Config{WMM: true, PHY: bss.PHY{HT: true}, NoHT: true, BSSes: []BSSConfig{{BSSID: guest2ID, SSID: "guest"}}})
	for id, ies := range h.beaconElems() {
		if _, ht := ies.HTCap(); ht != (id == guest2ID) {
			t.Errorf("%s's beacon: HT %v, want %v", id, ht, id == guest2ID)
		}
	}
	if st := h.askOK("status").Status; st.HT || st.PHYMode != "802.11g" {
		t.Errorf("status: ieee80211n %v, mode %s, want no HT, 802.11g", st.HT, st.PHYMode)
	}
}

// TestStatusOfANamedBSS: status asked of a BSS by name (hostapd's STATUS
// on its socket) gives that BSS's SSID, BSSID, DTIM period, station
// limit, WMM, HT, VHT and security beside the radio's channel; unnamed,
// the first BSS's.
func TestStatusOfANamedBSS(t *testing.T) {
	h := newHarness(t, Config{Name: "wlan0", WMM: true, Channel: 36, PHY: bss.PHY{VHT: true, Width: 80}, BSSes: []BSSConfig{
		{Name: "guest", BSSID: guest2ID, SSID: "guest", DTIMPeriod: 3, MaxStations: 9, NoWMM: true, NoHT: true},
		{Name: "iot", BSSID: guest3ID, SSID: "iot", NoVHT: true},
	}})
	for _, c := range []struct {
		dev, ssid    string
		bssid        ieee80211.MAC
		dtim, max    int
		wmm, ht, vht bool
		mode         string
	}{
		{"", "airq-test", bssid, 2, 2007, true, true, true, "802.11ac"},
		{"wlan0", "airq-test", bssid, 2, 2007, true, true, true, "802.11ac"},
		{"guest", "guest", guest2ID, 3, 9, false, false, false, "802.11a"},
		{"iot", "iot", guest3ID, 2, 2007, true, true, false, "802.11n"},
	} {
		st := h.a.Control(h.now, ctl.Request{Op: ctl.OpStatus, Dev: c.dev}).Status
		if st == nil {
			t.Fatalf("%q: no status", c.dev)
		}
		if st.SSID != c.ssid || st.BSSID != ctl.MAC(c.bssid) || st.DTIMPeriod != c.dtim || st.MaxStations != c.max ||
			st.WMM != c.wmm || st.HT != c.ht || st.VHT != c.vht || st.PHYMode != c.mode || st.Channel != 36 || st.Width != "VHT80" {
			t.Errorf("%q: %s %s DTIM %d max %d WMM %v HT %v VHT %v %s channel %d %s", c.dev, st.SSID, st.BSSID, st.DTIMPeriod,
				st.MaxStations, st.WMM, st.HT, st.VHT, st.PHYMode, st.Channel, st.Width)
		}
	}
}
