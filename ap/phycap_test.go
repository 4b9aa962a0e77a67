package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// TestShortGIPerWidth: on an HT40+ channel, each width's short guard
// interval is advertised and used only when configured, as hostapd's
// [SHORT-GI-20] and [SHORT-GI-40] decide; the station announces both. The
// rate table shows the guard per width, and the frames sent at 40 MHz
// carry it in their radiotap MCS flags.
func TestShortGIPerWidth(t *testing.T) {
	for _, c := range []struct {
		name         string
		sgi20, sgi40 bool
	}{
		{"[HT40+]", false, false},
		{"[HT40+][SHORT-GI-20]", true, false},
		{"[HT40+][SHORT-GI-40]", false, true},
		{"[HT40+][SHORT-GI-20][SHORT-GI-40]", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, Config{WMM: true, Channel: 6,
				PHY: bss.PHY{HT: true, Width: 40, Secondary: 1, SGI20: c.sgi20, SGI40: c.sgi40}})
			h.take()
			h.auth(staMAC, 0, 1)
			b := ieee80211.AppendAssocReq(h.mgmt(ieee80211.SubtypeAssocReq, staMAC), 0x0421, 10)
			b = ieee80211.AppendSSID(b, "airq-test")
			b = ieee80211.AppendRates(b, gRates)
			b = ieee80211.AppendHTCap(b, ieee80211.HTPHY{Streams: 1, Width40: true, SGI20: true, SGI40: true}.Cap())
			h.air(ieee80211.AppendWMMInfo(b, 0))
			out, _ := h.take()
			ar, raw := h.assocResp(out, staMAC)
			h.echo(raw, radio.TxStatus{Acked: true}) // associated once the response is acknowledged
			ht, ok := ar.Elements().HTCap()
			if !ok || ht.SGI20() != c.sgi20 || ht.SGI40() != c.sgi40 || !ht.Width40() {
				t.Fatalf("advertised HT capabilities %+v", ht.Spec())
			}
			last := settle(t, h) // the first frame to the station builds its rate table
			checkGuards(t, h, map[string]bool{"HT20": c.sgi20, "HT40": c.sgi40})
			if last.Mode != radio.ModeHT || last.Bandwidth != radio.BW40 || last.ShortGI != c.sgi40 {
				t.Errorf("settled on %+v, want HT40 with short GI %v", last, c.sgi40)
			}
		})
	}
}

// checkGuards checks the guard interval of every rate row of each mode.
func checkGuards(t *testing.T, h *harness, short map[string]bool) {
	t.Helper()
	rep := h.askOK("station get " + staMAC.String() + " rates")
	seen := map[string]int{}
	for _, r := range rep.Rates.Rows {
		want, ok := short[r.Mode]
		if !ok {
			continue
		}
		seen[r.Mode]++
		if (r.Guard == "SGI") != want {
			t.Errorf("%s %s: guard %s, want short %v", r.Mode, r.Name, r.Guard, want)
		}
	}
	for mode := range short {
		if seen[mode] == 0 {
			t.Errorf("no %s rates in the table", mode)
		}
	}
}

// settle sends downlink frames, each acknowledged at its rate, until rate
// selection settles, and returns the rate of the last data frame as its
// radiotap header gave it.
func settle(t *testing.T, h *harness) radio.Rate {
	t.Helper()
	var last radio.Rate
	for range 2000 {
		h.now += time.Millisecond
		h.wire(eth(staMAC, host, 0))
		out, _ := h.take()
		for _, f := range out {
			rx, fr := parsed(t, f)
			if fr.Type() == ieee80211.TypeData {
				last = rx.Rate
				h.echo(f, radio.TxStatus{Acked: true, Rate: rx.Rate})
			}
		}
	}
	return last
}

// TestVHTMaxMPDU: vht_capab's [MAX-MPDU-7991] and [MAX-MPDU-11454] set the
// maximum MPDU length the beacon announces; 3895 is the default; no other
// value is taken.
func TestVHTMaxMPDU(t *testing.T) {
	for _, n := range []int{0, 7991, 11454} {
		h := newHarness(t, Config{Channel: 36, PHY: bss.PHY{VHT: true, Width: 80, MaxMPDU: n}})
		out, _ := h.take()
		_, fr := parsed(t, out[0])
		bc, err := ieee80211.ParseBeacon(fr.Body())
		if err != nil {
			t.Fatal(err)
		}
		vht, ok := bc.Elements().VHTCap()
		if want := max(n, 3895); !ok || vht.MaxMPDU() != want {
			t.Errorf("MaxMPDU %d: beacon announces %d (VHT %v), want %d", n, vht.MaxMPDU(), ok, want)
		}
	}
	if _, err := New(Config{SSID: "x", BSSID: bssid, Channel: 36, PHY: bss.PHY{VHT: true, Width: 80, MaxMPDU: 5000}}); err == nil {
		t.Error("a maximum MPDU length of 5000 accepted")
	}
}
