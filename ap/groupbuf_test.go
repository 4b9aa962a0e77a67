package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// dtimFollowBound is the latest a DTIM beacon's group frames may follow it
// with no echo: a beacon of the harness's BSS at its lowest basic rate,
// 1 Mbit/s, lasts under 3 ms, and dtimEchoMargin is under 1 ms.
const dtimFollowBound = 4 * time.Millisecond

// dtimWithHeldBroadcast has a station doze, a broadcast from the wired
// side wait for the next DTIM beacon (every beacon is one) and advances
// to that beacon, which it returns unechoed with its time.
func dtimWithHeldBroadcast(t *testing.T) (*harness, []byte, time.Duration) {
	t.Helper()
	h := newHarness(t, Config{DTIMPeriod: 1})
	h.take()
	h.join(staMAC, false)
	h.null(staMAC, true)
	h.wire(eth(ieee80211.Broadcast, host, 0))
	if out, _ := h.take(); len(dataFrames(t, out)) != 0 {
		t.Fatal("group frame sent while a station dozes, before the DTIM")
	}
	return h, nextDTIM(t, h), h.now
}

// nextDTIM advances to the next beacon, a DTIM beacon that announces
// group frames, and returns it; nothing else may go with it.
func nextDTIM(t *testing.T, h *harness) []byte {
	t.Helper()
	h.advance(h.a.nextBeacon - h.now)
	out, _ := h.take()
	if len(out) != 1 {
		t.Fatalf("%d frames at the beacon, want the beacon alone", len(out))
	}
	_, fr := parsed(t, out[0])
	if !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
		t.Fatal("no beacon")
	}
	if tim := timOf(t, fr); tim.DTIMCount() != 0 || !tim.Multicast() {
		t.Fatalf("beacon: DTIM count %d, multicast bit %v", tim.DTIMCount(), tim.Multicast())
	}
	return out[0]
}

// TestGroupFramesFollowDTIMBeaconWithoutEcho: a DTIM beacon's echo never
// comes; its group frame follows right behind it, at the core's next
// deadline, not an echo timeout later when the stations sleep again.
func TestGroupFramesFollowDTIMBeaconWithoutEcho(t *testing.T) {
	h, _, beaconAt := dtimWithHeldBroadcast(t)
	due := h.a.Deadline()
	if due <= beaconAt || due > beaconAt+dtimFollowBound {
		t.Fatalf("deadline %v after the DTIM beacon, want within (0, %v]", due-beaconAt, dtimFollowBound)
	}
	h.advance(due - time.Microsecond - h.now)
	if out, _ := h.take(); len(dataFrames(t, out)) != 0 {
		t.Fatal("group frame sent while its DTIM beacon may still be waiting for the air")
	}
	h.advance(due - h.now)
	out, _ := h.take()
	if d := dataFrames(t, out); len(d) != 1 || !d[0].Addr1().IsMulticast() || d[0].MoreData() {
		t.Fatalf("%d frames %v after the unechoed DTIM beacon, want its broadcast", len(d), h.now-beaconAt)
	}
	if d := h.a.Deadline(); d < h.a.nextBeacon {
		t.Errorf("deadline %v before the next beacon at %v with nothing left to release", d, h.a.nextBeacon)
	}
	if !h.a.Accounted() {
		t.Error("not accounted")
	}
}

// TestGroupFramesFollowEarlyDTIMEcho: a DTIM beacon's echo that comes
// before the deadline releases its group frame at once.
func TestGroupFramesFollowEarlyDTIMEcho(t *testing.T) {
	h, beacon, beaconAt := dtimWithHeldBroadcast(t)
	h.advance(100 * time.Microsecond)
	if out, _ := h.take(); len(dataFrames(t, out)) != 0 {
		t.Fatal("group frame sent before its DTIM beacon's echo")
	}
	h.echo(beacon, radio.TxStatus{Acked: true})
	out, _ := h.take()
	if d := dataFrames(t, out); len(d) != 1 || !d[0].Addr1().IsMulticast() {
		t.Fatalf("%d frames at the DTIM beacon's echo, want its broadcast", len(d))
	}
	if d := h.a.Deadline(); d <= beaconAt+dtimFollowBound {
		t.Errorf("deadline %v after the DTIM beacon: still waiting for a beacon that completed", d-beaconAt)
	}
}

// TestLateDTIMEchoKeepsNewerDTIMsHold: the echo of a DTIM beacon that
// comes after the next DTIM beacon went out releases nothing: that
// beacon's group frames still wait for its own echo.
func TestLateDTIMEchoKeepsNewerDTIMsHold(t *testing.T) {
	h, first, _ := dtimWithHeldBroadcast(t)
	h.advance(h.a.Deadline() - h.now)
	out, _ := h.take()
	if d := dataFrames(t, out); len(d) != 1 {
		t.Fatalf("%d frames after the first DTIM beacon, want 1", len(d))
	}
	h.echo(out[0], radio.TxStatus{Acked: true})
	h.wire(eth(ieee80211.Broadcast, host, 0))
	if out, _ := h.take(); len(dataFrames(t, out)) != 0 {
		t.Fatal("group frame sent after its window closed, before the next DTIM")
	}
	second := nextDTIM(t, h)
	h.echo(first, radio.TxStatus{Acked: true})
	if out, _ := h.take(); len(dataFrames(t, out)) != 0 {
		t.Fatal("the first DTIM beacon's late echo released the second's group frame")
	}
	h.echo(second, radio.TxStatus{Acked: true})
	if out, _ := h.take(); len(dataFrames(t, out)) != 1 {
		t.Fatal("the second DTIM beacon's echo released no group frame")
	}
	if !h.a.Accounted() {
		t.Error("not accounted")
	}
}

// TestOlderBeaconsLateEchoKeepsDTIMHold: the echo of a beacon that
// announced no group frames, coming after the DTIM beacon that announces
// one, releases nothing before that beacon's own echo.
func TestOlderBeaconsLateEchoKeepsDTIMHold(t *testing.T) {
	h := newHarness(t, Config{DTIMPeriod: 1})
	h.take()
	h.join(staMAC, false)
	h.null(staMAC, true)
	h.advance(h.a.nextBeacon - h.now)
	out, _ := h.take()
	if len(out) != 1 {
		t.Fatalf("%d frames at the first beacon, want the beacon alone", len(out))
	}
	h.wire(eth(ieee80211.Broadcast, host, 0))
	second := nextDTIM(t, h)
	h.echo(out[0], radio.TxStatus{Acked: true})
	if out, _ := h.take(); len(dataFrames(t, out)) != 0 {
		t.Fatal("an older beacon's late echo released the DTIM beacon's group frame")
	}
	h.echo(second, radio.TxStatus{Acked: true})
	if out, _ := h.take(); len(dataFrames(t, out)) != 1 {
		t.Fatal("the DTIM beacon's echo released no group frame")
	}
}
