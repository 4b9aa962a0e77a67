package ap

import (
	"testing"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// htStation associates an HT station that takes 7935-octet A-MSDUs.
func (h *harness) htStation(from ieee80211.MAC) {
	h.t.Helper()
	h.auth(from, 0, 1)
	b := ieee80211.AppendAssocReq(h.mgmt(ieee80211.SubtypeAssocReq, from), 0x0421, 10)
	b = ieee80211.AppendSSID(b, "airq-test")
	b = ieee80211.AppendRates(b, gRates)
	b = ieee80211.AppendHTCap(b, ieee80211.HTPHY{Streams: 1, SGI20: true, MaxAMSDU: 7935}.Cap())
	h.air(ieee80211.AppendWMMInfo(b, 0))
	h.acceptAssoc(from)
}

func bigEth(da, sa ieee80211.MAC, i int) []byte {
	b := ieee80211.AppendEtherHdr(nil, da, sa, 0x0800)
	p := make([]byte, 1400)
	p[0], p[19] = 0x45, byte(i)
	return append(b, p...)
}

func amsduConfig() Config {
	lim := aql.DefaultLimits()
	for ac := range lim.Low {
		lim.Low[ac], lim.High[ac] = 40000, 60000 // the airtime budget is not the limit here
	}
	return Config{WMM: true, PHY: bss.PHY{HT: true}, AMSDU: 7935, AQL: lim, InFlightPerAC: 1}
}

func TestAMSDUPacksQueuedFrames(t *testing.T) {
	h := newHarness(t, amsduConfig())
	h.take()
	h.htStation(staMAC)
	// With one frame in flight allowed, the first goes alone and the rest
	// wait; its completion releases them as one A-MSDU.
	for i := range 6 {
		h.wire(bigEth(staMAC, host, i))
	}
	out, _ := h.take()
	if len(out) != 1 {
		t.Fatalf("%d frames, want 1", len(out))
	}
	h.echo(out[0], radio.TxStatus{Acked: true})
	out, _ = h.take()
	if len(out) != 1 {
		t.Fatalf("%d frames after the completion, want one A-MSDU", len(out))
	}
	_, fr := parsed(t, out[0])
	if !fr.IsQoS() || !fr.AMSDUPresent() || fr.Addr1() != staMAC || fr.Addr3() != bssid {
		t.Fatalf("not an A-MSDU to the station: %x", fr[:32])
	}
	it := ieee80211.AMSDUSubframes(fr.Body())
	n := 0
	for it.Next() {
		et, payload, ok := ieee80211.Decap(it.Payload())
		if !ok || et != 0x0800 || it.DA() != staMAC || it.SA() != host || len(payload) != 1400 || payload[19] != byte(n+1) {
			t.Errorf("subframe %d: %s -> %s type %#x len %d", n, it.SA(), it.DA(), et, len(payload))
		}
		n++
	}
	// 7935 octets hold five 1400-byte MSDUs with their headers.
	if it.Err() != nil || n != 5 || len(fr.Body()) > 7935 {
		t.Fatalf("%d subframes (%v), body %d", n, it.Err(), len(fr.Body()))
	}
	h.echo(out[0], radio.TxStatus{Acked: true})
	s := &h.a.sta.slots[1]
	if c := h.a.Counters(); c[counter.WiredSent] != 6 || s.AMSDUs != 1 || s.AMSDUSubframes != 5 || !h.a.Accounted() {
		t.Errorf("sent %d, A-MSDUs %d with %d subframes", c[counter.WiredSent], s.AMSDUs, s.AMSDUSubframes)
	}
}

func TestFailedAMSDUOfDozingStationIsBufferedAgain(t *testing.T) {
	h := newHarness(t, amsduConfig())
	h.take()
	h.htStation(staMAC)
	for i := range 4 {
		h.wire(bigEth(staMAC, host, i))
	}
	out, _ := h.take()
	h.echo(out[0], radio.TxStatus{Acked: true})
	out, _ = h.take() // the A-MSDU of the other three
	h.null(staMAC, true)
	h.echo(out[0], radio.TxStatus{Acked: false})
	if c := h.a.Counters(); h.a.Backlog() != 3 || c[counter.Rebuffered] != 3 || c[counter.WiredTxFailed] != 0 || !h.a.Accounted() {
		t.Errorf("backlog %d, counters %+v", h.a.Backlog(), c)
	}
}

func TestNoAMSDUForLegacyStations(t *testing.T) {
	h := newHarness(t, amsduConfig())
	h.take()
	h.join(staMAC, true) // no HT capabilities
	for i := range 3 {
		h.wire(bigEth(staMAC, host, i))
	}
	out, _ := h.take()
	h.echo(out[0], radio.TxStatus{Acked: true})
	out, _ = h.take()
	for _, b := range out {
		if _, fr := parsed(t, b); fr.AMSDUPresent() {
			t.Fatal("an A-MSDU to a station without HT")
		}
	}
}

func TestUplinkAMSDUIsTakenApart(t *testing.T) {
	h := newHarness(t, amsduConfig())
	h.take()
	h.htStation(staMAC)
	b := ieee80211.AppendDataHeader(nil, ieee80211.DataHeader{Flags: ieee80211.FCToDS, Addr1: bssid, Addr2: staMAC, Addr3: bssid, Seq: h.nextSeq(), QoS: true, AMSDU: true})
	body := len(b)
	for i := range 3 {
		b = ieee80211.AppendAMSDUSubframe(b, body, host, staMAC, 0x0800, ipv4(byte(i)))
	}
	b = ieee80211.AppendAMSDUSubframe(b, body, host, staB, 0x0800, ipv4(9)) // spoofed source
	h.air(b)
	_, wired := h.take()
	if len(wired) != 3 || h.a.Counters()[counter.RxAMSDUSubframes] != 3 || h.a.Counters()[counter.RxMalformed] != 1 {
		t.Errorf("%d wired frames, %+v", len(wired), h.a.Counters())
	}
}

// TestMalformedAMSDUDroppedWhole: a subframe that overruns the frame drops
// the whole A-MSDU, the subframes before it included, as cfg80211 purges
// it; so does a first subframe whose DA is an RFC 1042 header (a plain
// MSDU with the A-MSDU bit flipped, the FragAttacks injection).
func TestMalformedAMSDUDroppedWhole(t *testing.T) {
	h := newHarness(t, amsduConfig())
	h.take()
	h.htStation(staMAC)
	amsdu := func(first ieee80211.MAC) []byte {
		b := ieee80211.AppendDataHeader(nil, ieee80211.DataHeader{Flags: ieee80211.FCToDS, Addr1: bssid, Addr2: staMAC, Addr3: bssid, Seq: h.nextSeq(), QoS: true, AMSDU: true})
		body := len(b)
		b = ieee80211.AppendAMSDUSubframe(b, body, first, staMAC, 0x0800, ipv4(0))
		for i := 1; i < 3; i++ {
			b = ieee80211.AppendAMSDUSubframe(b, body, host, staMAC, 0x0800, ipv4(byte(i)))
		}
		return b
	}
	// The third subframe's length runs past the end of the frame.
	b := amsdu(host)
	bad := append([]byte(nil), b[:len(b)-10]...)
	h.air(bad)
	if _, wired := h.take(); len(wired) != 0 || h.a.Counters()[counter.RxAMSDUMalformed] != 1 || h.a.Counters()[counter.RxAMSDUSubframes] != 0 {
		t.Errorf("bad third subframe: %d wired frames, %+v", len(wired), h.a.Counters())
	}
	rfc1042 := ieee80211.MAC{0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00}
	b = amsdu(rfc1042)
	h.air(b)
	if _, wired := h.take(); len(wired) != 0 || h.a.Counters()[counter.RxAMSDUInjected] != 1 {
		t.Errorf("RFC 1042 DA: %d wired frames, %+v", len(wired), h.a.Counters())
	}
	// The same A-MSDU whole and with a real DA goes through.
	b = amsdu(host)
	h.air(b)
	if _, wired := h.take(); len(wired) != 3 || h.a.Counters()[counter.RxAMSDUSubframes] != 3 {
		t.Errorf("good A-MSDU: %d wired frames", len(wired))
	}
}
