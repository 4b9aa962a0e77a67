package sim

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
)

// TestBSSesOwnWMMHTAndMulticast: one HT radio with three BSSes, an HT
// station in each and a bulk download to each: the main BSS (WMM, HT),
// a guest BSS with disable_11n and multicast_to_unicast, and an iot BSS
// with wmm_enabled=0. The main station gets QoS data at HT rates in
// A-MSDUs; the guest station QoS data at legacy rates, single MSDUs, and
// sends at legacy rates itself; the iot station non-QoS data at legacy
// rates, and sends at legacy rates. A multicast IPv4 frame from each
// BSS's wired side goes as a group frame from the main and iot BSSes and
// as a unicast copy from the guest.
func TestBSSesOwnWMMHTAndMulticast(t *testing.T) {
	ids, ssids := threeIDs, threeSSIDs
	type seen struct {
		qos, nonQoS, ht, legacy, amsdu, group, unicast int
		upHT, upLegacy                                 int
	}
	var got [3]seen
	staBSS := map[ieee80211.MAC]int{}
	bssOf := map[ieee80211.MAC]int{ids[0]: 0, ids[1]: 1, ids[2]: 2}
	capture := func(_ time.Duration, b []byte) {
		var rx radio.RxInfo
		n, txFlags, err := radiotap.Parse(b, &rx, nil)
		if err != nil || txFlags && binary.LittleEndian.Uint32(b[4:])&(1<<radiotap.Flags) == 0 {
			return // a TX-status echo
		}
		fr := ieee80211.Frame(b[n:])
		if fr.Type() != ieee80211.TypeData || fr.IsNull() {
			return
		}
		if fr.ToDS() {
			if i, ok := staBSS[fr.Addr2()]; ok {
				if rx.Rate.Mode == radio.ModeHT {
					got[i].upHT++
				} else {
					got[i].upLegacy++
				}
			}
			return
		}
		i, ok := bssOf[fr.Addr2()]
		if !ok || !fr.FromDS() {
			return
		}
		g := &got[i]
		if fr.Addr1().IsMulticast() {
			g.group++
			return
		}
		if isMulticastCopy(fr) {
			g.unicast++
		}
		if fr.IsQoS() {
			g.qos++
			if fr.AMSDUPresent() {
				g.amsdu++
			}
		} else {
			g.nonQoS++
		}
		if rx.Rate.Mode == radio.ModeHT {
			g.ht++
		} else {
			g.legacy++
		}
	}
	cfg := Config{Seed: 3, Capture: capture, AP: ap.Config{SSID: ssids[0], BSSID: ids[0], Channel: 36, WMM: true,
		PHY: bss.PHY{HT: true}, AMSDU: 7935, BSSes: []ap.BSSConfig{
			{BSSID: ids[1], SSID: ssids[1], NoHT: true, MulticastToUnicast: true},
			{BSSID: ids[2], SSID: ssids[2], NoWMM: true},
		}}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var hosts [3]*Host
	var stas [3]*Station
	for i, ssid := range ssids {
		hosts[i] = s.AddHost(HostConfig{BSS: i})
		stas[i] = s.AddStation(StationConfig{SSID: ssid, HT: true, Start: time.Duration(i) * time.Millisecond})
		staBSS[stas[i].Addr()] = i
	}
	s.Run(2 * time.Second)
	for i, st := range stas {
		if !st.Associated() || st.bssid != ids[i] {
			t.Fatalf("%s joined %s, want %q's %s", st.Addr(), st.bssid, ssids[i], ids[i])
		}
		if want := i != 2; st.QoS() != want {
			t.Errorf("%q's station: WMM %v, want %v", ssids[i], st.QoS(), want)
		}
	}
	var bulks []*Bulk
	for i := range stas {
		bulks = append(bulks, s.Bulk(hosts[i], stas[i], BulkConfig{}))
	}
	s.Run(3 * time.Second)
	for _, b := range bulks {
		b.Stop()
	}
	s.Run(time.Second)
	// A multicast IPv4 frame from each BSS's wired side.
	before := got
	for i, h := range hosts {
		m := ieee80211.AppendEtherHdr(nil, ieee80211.MAC{0x01, 0, 0x5e, 0, 0, 1}, h.Addr(), 0x0800)
		m = append(m, 0x45, 0, 0, 28, 0, 0, 0, 0, 1, 17, 0, 0, 10, 0, 0, byte(i+1), 224, 0, 0, 1)
		s.SendRawOn(i, append(m, make([]byte, 8)...))
	}
	s.Run(time.Second)

	for i, g := range before {
		name := ssids[i]
		if g.qos+g.nonQoS < 100 || g.upHT+g.upLegacy < 100 {
			t.Fatalf("%q: %d data frames to its station", name, g.qos+g.nonQoS)
		}
		switch i {
		case 0:
			if g.nonQoS != 0 || g.legacy > g.ht/10 || g.amsdu == 0 || stas[i].Stats().RxAMSDUs == 0 || g.upLegacy != 0 {
				t.Errorf("%q (WMM, HT): %+v, want QoS data at HT rates with A-MSDUs, both ways", name, g)
			}
		case 1:
			if g.nonQoS != 0 || g.ht != 0 || g.amsdu != 0 || g.upHT != 0 || g.upLegacy == 0 {
				t.Errorf("%q (disable_11n): %+v, want QoS data at legacy rates, single MSDUs, both ways", name, g)
			}
		case 2:
			if g.qos != 0 || g.ht != 0 || g.amsdu != 0 || g.upHT != 0 || g.upLegacy == 0 {
				t.Errorf("%q (wmm_enabled=0): %+v, want non-QoS data at legacy rates, both ways", name, g)
			}
		}
		if b := bulks[i].Stats(); b.Delivered == 0 {
			t.Errorf("%q: the download delivered nothing", name)
		}
	}
	for i, want := range []struct{ group, unicast int }{{1, 0}, {0, 1}, {1, 0}} {
		group, unicast := got[i].group-before[i].group, got[i].unicast-before[i].unicast
		if group != want.group || unicast != want.unicast {
			t.Errorf("%q: the multicast frame went as %d group frames and %d unicast copies, want %d and %d",
				ssids[i], group, unicast, want.group, want.unicast)
		}
	}
}

// isMulticastCopy reports whether a unicast data frame carries an IPv4
// packet to a multicast group: multicast_to_unicast's copy.
func isMulticastCopy(fr ieee80211.Frame) bool {
	body := fr.Body()
	if fr.AMSDUPresent() || len(body) < 8+20 {
		return false
	}
	ip := body[8:]
	return ip[0]>>4 == 4 && ip[16] >= 224 && ip[16] <= 239
}
