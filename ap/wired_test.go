package ap

import (
	"slices"
	"testing"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
)

// fromBSS turns a station's uplink frame (upIPv4's, addressed to the first
// BSS) into one addressed to BSS id.
func fromBSS(f []byte, id ieee80211.MAC) []byte {
	copy(f[4:10], id[:])
	return f
}

// dataFrom returns the BSSIDs the data frames in out came from, with
// their receivers.
func dataFrom(t *testing.T, out [][]byte) (from, to []ieee80211.MAC) {
	t.Helper()
	for _, f := range out {
		if _, fr := parsed(t, f); fr.Type() == ieee80211.TypeData && !fr.IsNull() {
			from, to = append(from, fr.Addr2()), append(to, fr.Addr1())
		}
	}
	return from, to
}

// TestWiredSideOfEachBSS: a frame from a BSS's wired side reaches that
// BSS's stations alone, and a station's frame to the wired side goes to
// its own BSS's side, in the order the stations sent them.
func TestWiredSideOfEachBSS(t *testing.T) {
	h := newHarness(t, threeBSSes())
	main, guest, iot := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}, ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}, ieee80211.MAC{0x02, 0, 0, 0, 0x30, 1}
	h.join(main, false)
	h.joinGuest(guest)
	h.joinBSS(iot, guest3ID, "iot")
	h.take()

	// The guest's station is not on the first BSS's wired side, nor the
	// main station on the guest's.
	h.wireTo(0, eth(guest, host, 0))
	h.wireTo(1, eth(main, host, 0))
	h.advance(0)
	if out, _ := h.take(); len(out) != 0 || h.a.cnt[counter.WiredDroppedNoStation] != 2 {
		t.Errorf("wired frames to another BSS's stations: %d frames out; %v", len(out), h.a.cnt.String())
	}
	h.wireTo(1, eth(guest, host, 0))
	h.wireTo(0, eth(main, host, 0))
	h.advance(0)
	out, _ := h.take()
	if from, to := dataFrom(t, out); !slices.Equal(from, []ieee80211.MAC{guest2ID, bssid}) || !slices.Equal(to, []ieee80211.MAC{guest, main}) {
		t.Errorf("wired frames to each BSS's station: from %v to %v", from, to)
	}

	// One batch of uplink frames from the three BSSes, interleaved: each
	// goes to its sender's side, in the order sent.
	up := func(sta, id ieee80211.MAC) []byte { return fromBSS(h.upIPv4(sta, host, 0, false), id) }
	for _, f := range [][]byte{up(main, bssid), up(guest, guest2ID), up(iot, guest3ID), up(main, bssid), up(iot, guest3ID), up(guest, guest2ID)} {
		h.a.HandleRadio(h.now, append(radiotapRx(), f...))
	}
	h.collect()
	var sides [3][]ieee80211.MAC
	for i, f := range h.wired {
		sides[h.wiredBSS[i]] = append(sides[h.wiredBSS[i]], ieee80211.MAC(f[6:12]))
	}
	if want := [3][]ieee80211.MAC{{main, main}, {guest, guest}, {iot, iot}}; !slices.Equal(sides[0], want[0]) || !slices.Equal(sides[1], want[1]) || !slices.Equal(sides[2], want[2]) {
		t.Errorf("uplink frames on the wired sides from %v, want %v", sides, want)
	}
	if seqs := h.wiredBSS; len(seqs) != 6 {
		t.Errorf("%d uplink frames to the wired sides, want 6", len(seqs))
	}

	// A side the radio does not have is refused, counted.
	h.wireTo(3, eth(main, host, 0))
	h.wireTo(-1, eth(main, host, 0))
	if h.a.cnt[counter.WiredDroppedMalformed] != 2 {
		t.Errorf("frames from unknown wired sides: %v", h.a.cnt.String())
	}
	if !h.a.Accounted() {
		t.Errorf("the downlink's books do not balance: %v", h.a.cnt.String())
	}
}

// TestAPIsolateEachBSS: ap_isolate is each BSS's own: the BSS that sets
// it sends its stations' frames to each other to its wired side, while
// the other BSS relays its stations' frames over the air.
func TestAPIsolateEachBSS(t *testing.T) {
	for _, isolated := range []int{0, 1} {
		cfg := threeBSSes()
		if isolated == 0 {
			cfg.APIsolate = true
		} else {
			cfg.BSSes[0].APIsolate = true
		}
		h := newHarness(t, cfg)
		m1, m2, g1, g2 := h.joinTwoEach()
		ids := []ieee80211.MAC{bssid, guest2ID}
		for side, pair := range [][2]ieee80211.MAC{{m1, m2}, {g1, g2}} {
			h.take()
			h.air(fromBSS(h.upIPv4(pair[0], pair[1], 0, false), ids[side]))
			h.advance(0)
			sides := h.wiredBSS
			out, wired := h.take()
			air, _ := dataFrom(t, out)
			if side == isolated {
				if len(air) != 0 || len(wired) != 1 || sides[0] != side {
					t.Errorf("isolated BSS %d: in the air from %v, %d to the wired side; want nothing and 1", side, air, len(wired))
				}
			} else if len(air) != 1 || air[0] != ids[side] || len(wired) != 0 {
				t.Errorf("BSS %d beside an isolated one: in the air from %v, %d to the wired side; want its relay alone", side, air, len(wired))
			}
		}
	}
}

// TestGuestDownlinkAllocs: a frame from a second BSS's wired side to its
// station, Flush and the echo included, allocates nothing.
func TestGuestDownlinkAllocs(t *testing.T) {
	h := newHarness(t, threeBSSes())
	guest := ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}
	h.joinGuest(guest)
	h.take()
	step := downlinkStepTo(h, 1, guest)
	for range 100 {
		step()
	}
	if n := testing.AllocsPerRun(1000, step); n != 0 {
		t.Errorf("%.1f allocations per guest downlink frame, want 0", n)
	}
	if h.a.cnt[counter.WiredSent] < 1000 {
		t.Errorf("%d frames sent, want every one", h.a.cnt[counter.WiredSent])
	}
}

// TestGuestGroupBufferAllocs: a guest broadcast while a guest station
// dozes, buffered, announced by the guest's DTIM beacon and sent after
// that beacon's echo, allocates nothing.
func TestGuestGroupBufferAllocs(t *testing.T) {
	h := newHarness(t, threeBSSes())
	h.dozingGuest(ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1})
	frame := eth(ieee80211.Broadcast, host, 0)
	d := newEchoDriver(64)
	held := true
	step := func() {
		sent := h.a.cnt[counter.WiredSent]
		h.a.HandleWired(h.now, 1, frame)
		h.a.Flush(h.now, d)
		held = held && h.a.parked == 1
		for i := 0; i < 8 && h.a.cnt[counter.WiredSent] == sent; i++ {
			h.now = h.a.Deadline()
			h.a.Tick(h.now)
			h.a.Flush(h.now, d)
			for e := d.take(); e != nil; e = d.take() {
				h.a.HandleRadio(h.now, e)
				h.a.Flush(h.now, d)
			}
		}
	}
	for range 10 {
		step()
	}
	if n := testing.AllocsPerRun(200, step); n != 0 {
		t.Errorf("%.1f allocations per buffered guest broadcast, want 0", n)
	}
	if c := h.a.cnt; !held || c[counter.WiredSent] < 200 || !h.a.Accounted() {
		t.Errorf("buffered each time %v, %d broadcasts sent; want every one", held, c[counter.WiredSent])
	}
}
