package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// null is a station's Null frame carrying its Power Management bit.
func (h *harness) null(from ieee80211.MAC, pm bool) {
	h.air(ieee80211.AppendNullData(nil, bssid, from, h.nextSeq(), pm))
}

func (h *harness) psPoll(from ieee80211.MAC, aid uint16) {
	h.air(ieee80211.AppendPSPoll(nil, aid, bssid, from))
}

// beaconTIM advances to the next beacon and returns its TIM.
func (h *harness) beaconTIM() ieee80211.TIM {
	h.t.Helper()
	h.advance(h.a.nextBeacon - h.now)
	out, _ := h.take()
	for _, b := range out {
		_, fr := parsed(h.t, b)
		if fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
			bc, _ := ieee80211.ParseBeacon(fr.Body())
			body, _ := bc.Elements().Find(ieee80211.ElemTIM)
			tim, err := ieee80211.ParseTIM(body)
			if err != nil {
				h.t.Fatal(err)
			}
			h.radio = append(h.radio, out...) // keep what followed the beacon
			return tim
		}
	}
	h.t.Fatal("no beacon")
	return nil
}

// afterBeacons echoes the beacons among out, as the radio reports them
// sent, and returns what the core sent next: group frames follow a DTIM
// beacon on the air.
func (h *harness) afterBeacons(out [][]byte) [][]byte {
	h.t.Helper()
	for _, f := range out {
		if _, fr := parsed(h.t, f); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
			h.echo(f, radio.TxStatus{Acked: true})
		}
	}
	next, _ := h.take()
	return next
}

func dataFrames(t *testing.T, out [][]byte) []ieee80211.Frame {
	var d []ieee80211.Frame
	for _, b := range out {
		if _, fr := parsed(t, b); fr.Type() == ieee80211.TypeData {
			d = append(d, fr)
		}
	}
	return d
}

func TestDozingStationGetsFramesByPSPoll(t *testing.T) {
	h := newHarness(t, Config{WMM: true})
	h.take()
	aid := h.join(staMAC, true)
	h.null(staMAC, true)
	for range 3 {
		h.wire(eth(staMAC, host, 0))
	}
	if out, _ := h.take(); len(dataFrames(t, out)) != 0 || h.a.Backlog() != 3 {
		t.Fatalf("frames went to a dozing station; backlog %d", h.a.Backlog())
	}
	if tim := h.beaconTIM(); !tim.HasAID(aid) {
		t.Error("TIM does not announce the buffered frames")
	}
	h.take()
	for i := range 3 {
		h.psPoll(staMAC, aid)
		out, _ := h.take()
		d := dataFrames(t, out)
		if len(d) != 1 || d[0].IsNullData() {
			t.Fatalf("PS-Poll %d answered with %d data frames", i, len(d))
		}
		if want := i < 2; d[0].MoreData() != want {
			t.Errorf("PS-Poll %d: More Data %v, want %v", i, d[0].MoreData(), want)
		}
	}
	h.psPoll(staMAC, aid)
	out, _ := h.take()
	if d := dataFrames(t, out); len(d) != 1 || !d[0].IsNullData() {
		t.Errorf("PS-Poll with nothing buffered: %d frames, want one Null", len(d))
	}
	if tim := h.beaconTIM(); tim.HasAID(aid) {
		t.Error("TIM still announces an empty buffer")
	}
	if !h.a.Accounted() {
		t.Error("not accounted")
	}
}

func TestWakingStationGetsItsBuffer(t *testing.T) {
	h := newHarness(t, Config{WMM: true})
	h.take()
	h.join(staMAC, true)
	h.null(staMAC, true)
	for range 4 {
		h.wire(eth(staMAC, host, 0))
	}
	h.take()
	h.null(staMAC, false)
	out, _ := h.take()
	if d := dataFrames(t, out); len(d) != 4 {
		t.Errorf("%d frames after waking, want 4", len(d))
	}
}

func TestGroupFramesWaitForDTIM(t *testing.T) {
	h := newHarness(t, Config{DTIMPeriod: 2})
	h.take()
	h.join(staMAC, false)
	h.null(staMAC, true)
	h.wire(eth(ieee80211.Broadcast, host, 0))
	h.wire(eth(ieee80211.Broadcast, host, 0))
	if out, _ := h.take(); len(dataFrames(t, out)) != 0 {
		t.Fatal("group frame sent while a station dozes, before the DTIM")
	}
	for range 3 {
		tim := h.beaconTIM()
		out, _ := h.take()
		d := dataFrames(t, out)
		if tim.DTIMCount() != 0 {
			if len(d) != 0 || tim.Multicast() {
				t.Errorf("TIM count %d: %d group frames, multicast bit %v", tim.DTIMCount(), len(d), tim.Multicast())
			}
			continue
		}
		if len(d) != 0 {
			t.Fatal("group frames sent with the DTIM beacon, not after it")
		}
		d = dataFrames(t, h.afterBeacons(out))
		if !tim.Multicast() || len(d) != 2 || !d[0].MoreData() || d[1].MoreData() {
			t.Fatalf("DTIM: multicast bit %v, %d frames", tim.Multicast(), len(d))
		}
		return
	}
	t.Fatal("no DTIM beacon in three intervals")
}

func TestFailedFrameOfDozingStationIsBufferedAgain(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	aid := h.join(staMAC, false)
	h.wire(eth(staMAC, host, 0))
	out, _ := h.take()
	h.null(staMAC, true) // the station dozed before the frame reached it
	h.echo(out[0], radio.TxStatus{Acked: false})
	if h.a.Backlog() != 1 || h.a.Counters()[counter.Rebuffered] != 1 || h.a.Counters()[counter.WiredTxFailed] != 0 || !h.a.Accounted() {
		t.Fatalf("backlog %d, counters %+v", h.a.Backlog(), h.a.Counters())
	}
	h.take()
	h.psPoll(staMAC, aid)
	out, _ = h.take()
	d := dataFrames(t, out)
	if len(d) != 1 || d[0].IsNullData() {
		t.Fatalf("%d frames after PS-Poll", len(d))
	}
	if et, payload, ok := ieee80211.Decap(d[0].Body()); !ok || et != 0x0800 || len(payload) != 84 || d[0].Addr3() != host {
		t.Errorf("rebuffered frame mangled: %#x %d from %s", et, len(payload), d[0].Addr3())
	}
	h.echo(out[len(out)-1], radio.TxStatus{Acked: true})
	if c := h.a.Counters(); c[counter.WiredSent] != 1 || !h.a.Accounted() {
		t.Errorf("sent %d", c[counter.WiredSent])
	}
}

func TestInactiveStationIsPolledThenRemoved(t *testing.T) {
	h := newHarness(t, Config{InactivityTimeout: 2 * time.Second})
	h.take()
	h.join(staMAC, false)
	h.takeEvents()
	var poll []byte
	for h.now < 3*time.Second && poll == nil {
		h.advance(100 * time.Millisecond)
		out, _ := h.take()
		for _, b := range out {
			if _, fr := parsed(t, b); fr.IsNullData() && fr.Addr1() == staMAC {
				poll = b
			}
		}
	}
	if poll == nil {
		t.Fatal("no inactivity poll")
	}
	h.echo(poll, radio.TxStatus{Acked: true}) // still there
	if _, s := h.a.sta.lookup(staMAC); s == nil || s.State != bss.StateAssociated {
		t.Fatal("an ACKed poll removed the station")
	}
	poll = nil
	for h.now < 6*time.Second && poll == nil {
		h.advance(100 * time.Millisecond)
		out, _ := h.take()
		for _, b := range out {
			if _, fr := parsed(t, b); fr.IsNullData() && fr.Addr1() == staMAC {
				poll = b
			}
		}
	}
	h.echo(poll, radio.TxStatus{Acked: false})
	var gone bool
	for _, e := range h.takeEvents() {
		gone = e.Kind == EventDisconnected && e.Reason == ieee80211.ReasonInactivity
	}
	if !gone {
		t.Error("no disconnection after an unanswered poll")
	}
	out, _ := h.take()
	findMgmt(t, out, ieee80211.SubtypeDeauth, staMAC)
}
