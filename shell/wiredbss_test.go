package shell

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/radio/radiotest"
)

var guestBSSID = ieee80211.MAC{2, 0, 0, 0, 2, 1}

// written waits for a frame written to dev that match accepts, keeping
// what it read before in *seen, and returns it.
func written(t *testing.T, what string, dev *radiotest.Device, seen *[][]byte, match func([]byte) bool) []byte {
	t.Helper()
	var got []byte
	waitFor(t, what, func() bool {
		*seen = append(*seen, dev.Written()...)
		for _, b := range *seen {
			if match(b) {
				got = b
				return true
			}
		}
		return false
	})
	return got
}

// air80211 returns the 802.11 frame of a frame written to the radio.
func air80211(t *testing.T, b []byte) ieee80211.Frame {
	n, _, err := radiotap.Parse(b, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ieee80211.Frame(b[n:])
}

// joinOverRadio authenticates and associates sta with BSS id of the core
// behind dev, acknowledging the core's replies as the radio's echoes do,
// and returns once the core has taken the association's echo.
func joinOverRadio(t *testing.T, dev *radiotest.Device, id, sta ieee80211.MAC, ssid string) {
	t.Helper()
	rt := radiotap.AppendRx(nil, radio.RxInfo{Freq: 2437, Signal: -50, HasSignal: true})
	ack := func(subtype uint8) {
		var seen [][]byte
		b := written(t, "the reply to the station", dev, &seen, func(b []byte) bool {
			fr := air80211(t, b)
			return fr.Is(ieee80211.TypeMgmt, subtype) && fr.Addr1() == sta && fr.Addr2() == id
		})
		n, _, _ := radiotap.Parse(b, nil, nil)
		dev.Inject(append(radiotap.AppendEcho(nil, radio.TxStatus{Acked: true}), b[n:]...))
	}
	dev.Inject(append(rt, ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, id, sta, id, 1), 0, 1, 0)...))
	ack(ieee80211.SubtypeAuth)
	req := ieee80211.AppendAssocReq(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAssocReq, id, sta, id, 2), 0x0421, 10)
	req = ieee80211.AppendRates(ieee80211.AppendSSID(req, ssid), []byte{0x82, 0x84, 0x8b, 0x96})
	dev.Inject(append(rt, req...))
	ack(ieee80211.SubtypeAssocResp)
	// The loop takes the radio's frames in order: once a probe after the
	// echo is answered, the station is associated.
	dev.Inject(append(rt, ieee80211.AppendProbeReq(nil, sta, ssid, []byte{0x82, 0x84, 0x8b, 0x96}, 3)...))
	var seen [][]byte
	written(t, "the probe response", dev, &seen, func(b []byte) bool {
		fr := air80211(t, b)
		return fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeProbeResp) && fr.Addr1() == sta && fr.Addr2() == id
	})
}

// TestRunBSSesCarriesEachBSSsSide: with two BSSes, a frame read from a
// BSS's TAP reaches that BSS's station from its BSSID and none of the
// other's, and a station's frame goes to its own BSS's TAP alone.
func TestRunBSSesCarriesEachBSSsSide(t *testing.T) {
	noLeaks(t)
	core, err := ap.New(ap.Config{SSID: "rt", BSSID: bssid, Channel: 6, BSSes: []ap.BSSConfig{{SSID: "guest", BSSID: guestBSSID}}})
	if err != nil {
		t.Fatal(err)
	}
	dev, mainTAP, guestTAP := radiotest.New(), radiotest.New(), radiotest.New()
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan struct{}), make(chan error, 1)
	go func() {
		done <- RunBSSes(ctx, core, dev, []Wired{mainTAP, guestTAP}, slog.New(slog.NewTextHandler(io.Discard, nil)), func() { close(ready) })
	}()
	<-ready
	mainSta, guestSta := sta, ieee80211.MAC{2, 0, 0, 0, 1, 1}
	joinOverRadio(t, dev, bssid, mainSta, "rt")
	joinOverRadio(t, dev, guestBSSID, guestSta, "guest")
	host := ieee80211.MAC{2, 9, 9, 9, 9, 9}
	frame := func(da, sa ieee80211.MAC) []byte {
		return append(ieee80211.AppendEtherHdr(nil, da, sa, 0x0800), make([]byte, 64)...)
	}

	// Each TAP's frame to the other BSS's station is dropped, then its
	// frame to its own BSS's station goes out from that BSS.
	mainTAP.Inject(frame(guestSta, host))
	guestTAP.Inject(frame(mainSta, host))
	mainTAP.Inject(frame(mainSta, host))
	guestTAP.Inject(frame(guestSta, host))
	var seen [][]byte
	data := func(b []byte) bool { return air80211(t, b).Type() == ieee80211.TypeData }
	for _, want := range [][2]ieee80211.MAC{{mainSta, bssid}, {guestSta, guestBSSID}} {
		written(t, "a data frame to "+want[0].String(), dev, &seen, func(b []byte) bool {
			fr := air80211(t, b)
			return data(b) && fr.Addr1() == want[0] && fr.Addr2() == want[1]
		})
	}

	// Each station's frame to the host goes to its BSS's TAP.
	rt := radiotap.AppendRx(nil, radio.RxInfo{Freq: 2437, Signal: -50, HasSignal: true, Rate: radio.LegacyRate(54000)})
	up := func(id, from ieee80211.MAC, seq uint16) []byte {
		b := ieee80211.AppendDataHeader(append([]byte(nil), rt...), ieee80211.DataHeader{Flags: ieee80211.FCToDS, Addr1: id, Addr2: from, Addr3: host, Seq: seq})
		return append(ieee80211.AppendLLCSNAP(b, 0x0800), make([]byte, 64)...)
	}
	dev.Inject(up(bssid, mainSta, 10))
	dev.Inject(up(guestBSSID, guestSta, 20))
	for _, tc := range []struct {
		tap  *radiotest.Device
		from ieee80211.MAC
	}{{mainTAP, mainSta}, {guestTAP, guestSta}} {
		var got [][]byte
		b := written(t, "a frame on "+tc.from.String()+"'s TAP", tc.tap, &got, func([]byte) bool { return true })
		if eh, err := ieee80211.ParseEtherHdr(b); err != nil || eh.Src() != tc.from || len(got) != 1 {
			t.Errorf("on %s's TAP: %d frames, the first from %v (%v)", tc.from, len(got), eh.Src(), err)
		}
	}

	cancel()
	if err := <-done; err != nil {
		t.Fatalf("RunBSSes: %v", err)
	}
	for _, tap := range []*radiotest.Device{mainTAP, guestTAP} {
		for _, b := range tap.Written() {
			if eh, _ := ieee80211.ParseEtherHdr(b); eh.Dst() == host {
				t.Errorf("a station's frame on the wrong TAP: from %v", eh.Src())
			}
		}
	}
	if c := core.Counters(); c[counter.WiredIn] != 4 || c[counter.WiredDroppedNoStation] != 2 || !core.Accounted() {
		t.Errorf("wired in %d, dropped for no station %d, accounted %v", c[counter.WiredIn], c[counter.WiredDroppedNoStation], core.Accounted())
	}
}

// TestRunBSSesWantsASideEachBSS: a wired side too few or too many is
// refused before the core starts.
func TestRunBSSesWantsASideEachBSS(t *testing.T) {
	core, err := ap.New(ap.Config{SSID: "rt", BSSID: bssid, Channel: 6, BSSes: []ap.BSSConfig{{SSID: "guest", BSSID: guestBSSID}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 3} {
		wired := make([]Wired, n)
		for i := range wired {
			wired[i] = radiotest.New()
		}
		err := RunBSSes(context.Background(), core, radiotest.New(), wired, slog.New(slog.DiscardHandler), nil)
		if err == nil || !strings.Contains(err.Error(), "2 BSSes") {
			t.Errorf("%d sides: %v, want a refusal", n, err)
		}
	}
}
