package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
)

func strangerN(i int) ieee80211.MAC { return ieee80211.MAC{0x02, 0xd0, 0, 0, byte(i >> 8), byte(i)} }

// fourAddr is a 4-address (WDS) data frame from `from`.
func (h *harness) fourAddr(from ieee80211.MAC) []byte {
	b := ieee80211.AppendDataHeader(nil, ieee80211.DataHeader{Flags: ieee80211.FCToDS | ieee80211.FCFromDS, Addr1: bssid, Addr2: from, Addr3: host, Seq: h.nextSeq()})
	b = append(b, host[:]...) // addr4
	b = ieee80211.AppendLLCSNAP(b, 0x0800)
	return append(b, ipv4(0)...)
}

// TestStrangersAnswered: class 3 frames from stations that are not
// associated are answered with reason 7 as hostapd does: PS-Poll and
// 4-address frames too, a disassociation to an authenticated station, a
// deauthentication to a stranger. A 4-address frame from an associated
// station is only dropped (no WDS); Action frames from strangers stay
// unanswered, since answering them would amplify.
func TestStrangersAnswered(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	h.join(staB, false)
	h.auth(staMAC, 0, 1)
	h.take()
	stranger := strangerN(1)
	for _, c := range []struct {
		name   string
		frame  []byte
		to     ieee80211.MAC
		sub    uint8
		reason uint16
	}{
		{"PS-Poll from a stranger", ieee80211.AppendPSPoll(nil, 1, bssid, stranger), stranger, ieee80211.SubtypeDeauth, 7},
		{"PS-Poll from an authenticated station", ieee80211.AppendPSPoll(nil, 1, bssid, staMAC), staMAC, ieee80211.SubtypeDisassoc, 7},
		{"4-address data from a stranger", h.fourAddr(stranger), stranger, ieee80211.SubtypeDeauth, 7},
		{"4-address data from an authenticated station", h.fourAddr(staMAC), staMAC, ieee80211.SubtypeDisassoc, 7},
		{"4-address data from an associated station", h.fourAddr(staB), staB, 0, 0},
		{"Null data from a stranger", ieee80211.AppendNullData(nil, bssid, stranger, h.nextSeq(), false), stranger, ieee80211.SubtypeDeauth, 7},
		{"Action from a stranger", append(h.mgmt(ieee80211.SubtypeAction, stranger), 7, 1, 0), stranger, 0, 0},
	} {
		h.now += 100 * time.Millisecond // within the budget
		h.air(c.frame)
		out, wired := h.take()
		if sub, reason := reasonTo(t, out, c.to); sub != c.sub || reason != c.reason || len(wired) != 0 {
			t.Errorf("%s: subtype %d reason %d, %d wired; want subtype %d reason %d", c.name, sub, reason, len(wired), c.sub, c.reason)
		}
	}
	// Every 4-address frame is dropped with a reason: the associated
	// station's as four_address, the others' as from no station.
	if c := h.a.Counters(); c[counter.Rx4Addr] != 3 || c[counter.Rx4AddrDropped] != 1 || c[counter.RxFromUnknown] != 5 ||
		h.state(staB) != bss.StateAssociated || h.state(staMAC) != bss.StateAuthenticated {
		t.Errorf("4-address frames %d (%d dropped as such), %d from unknown; states %v %v", c[counter.Rx4Addr],
			c[counter.Rx4AddrDropped], c[counter.RxFromUnknown], h.state(staB), h.state(staMAC))
	}
}

// TestStrangerRepliesWithinBudget: every stranger is answered while the
// stranger class of the reply budget allows; a burst beyond it is cut to
// the burst the budget holds, and each answer is retried little.
func TestStrangerRepliesWithinBudget(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	for i := range 50 {
		h.now += 20 * time.Millisecond
		if i%2 == 0 {
			h.air(ieee80211.AppendPSPoll(nil, 1, bssid, strangerN(i)))
		} else {
			h.air(h.fourAddr(strangerN(i)))
		}
	}
	out, _ := h.take()
	deauths := 0
	for _, b := range out {
		rx, fr := parsed(t, b)
		if fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeDeauth) {
			deauths++
			var tx radio.TxStatus
			radiotap.Parse(b, nil, &tx)
			if tx.Retries != bss.ProbeRetries || rx.Rate != h.a.bss.Rates.LowestBasic() {
				t.Fatalf("deauthentication to a stranger: %d retries at %+v", tx.Retries, rx.Rate)
			}
		}
	}
	if deauths != 50 || h.a.Counters()[counter.RepliesThrottled] != 0 {
		t.Errorf("%d of 50 strangers answered over a second", deauths)
	}
	// 200 at once: the stranger class and the shared pool hold what they
	// saved, the rest is throttled.
	h.now += time.Second
	for i := range 200 {
		h.air(ieee80211.AppendPSPoll(nil, 1, bssid, strangerN(100+i)))
	}
	out, _ = h.take()
	cost := float64(h.a.est.Airtime(h.a.bss.Rates.LowestBasic(), ieee80211.ACVO, 26))
	most := int(bss.ClassBurst(bss.ReplyStranger) / cost)
	if len(out) == 0 || len(out) > most || h.a.Counters()[counter.ThrottledStranger] != uint64(200-len(out)) {
		t.Errorf("%d answers to 200 strangers at once (budget for %d), %+v", len(out), most, h.a.Counters())
	}
}

// TestAdmissionNotStarvedByStrangers: a flood of class 3 frames from
// strangers spends the stranger class and the pool; a station arriving at
// that moment still gets its authentication and association responses.
func TestAdmissionNotStarvedByStrangers(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	for i := range 1000 {
		h.air(h.upIPv4(strangerN(i), host, 0, false))
	}
	h.take()
	if h.a.Counters()[counter.ThrottledStranger] < 900 {
		t.Fatalf("the flood was not throttled: %+v", h.a.Counters())
	}
	if aid := h.join(staMAC, false); aid == 0 {
		t.Fatal("no association during the flood")
	}
}

// TestKnownSenderNotStarvedByNewMACs: a flood of authentications from new
// MACs spends the new class and the pool. A station that probed before
// (a valid frame from the same MAC) is answered from the known class; one
// never heard from waits with the flood.
func TestKnownSenderNotStarvedByNewMACs(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	h.air(ieee80211.AppendProbeReq(nil, staMAC, "airq-test", gRates, h.nextSeq()))
	h.take()
	for i := range 1000 {
		h.auth(strangerN(i), 0, 1)
	}
	h.take()
	if h.a.Counters()[counter.ThrottledNew] < 900 {
		t.Fatalf("the flood was not throttled: %+v", h.a.Counters())
	}
	if aid := h.join(staMAC, false); aid == 0 {
		t.Fatal("a station that probed could not associate during the flood")
	}
	h.auth(staB, 0, 1)
	if out, _ := h.take(); len(out) != 0 || h.state(staB) != bss.StateNone {
		t.Errorf("a station never heard from was answered from an exhausted class: %d frames", len(out))
	}
}

// TestFilterShedCounted: the frames the kernel's receive filter shed are
// what the interface received less what the filter passed that was not an
// echo (mac80211 does not count its echoes as received); the figure never
// goes back when a later reading is skewed.
func TestFilterShedCounted(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	h.join(staMAC, false) // the responses' echoes are read
	echoes := h.a.Counters()[counter.Echoes]
	if echoes == 0 {
		t.Fatal("no echoes read")
	}
	h.a.DeviceDrops(KernelCounts{WiredLost: 2, RadioLost: 1, RadioReceived: 100, RadioPassed: 30 + echoes})
	if c := h.a.Counters(); c[counter.RadioFiltered] != 70 || c[counter.WiredLostInKernel] != 2 || c[counter.RadioLostInKernel] != 1 {
		t.Errorf("shed %d, kernel drops %d %d; want 70, 2, 1", c[counter.RadioFiltered], c[counter.WiredLostInKernel], c[counter.RadioLostInKernel])
	}
	h.a.DeviceDrops(KernelCounts{RadioReceived: 101, RadioPassed: 40 + echoes})
	if c := h.a.Counters(); c[counter.RadioFiltered] != 70 {
		t.Errorf("shed %d after a skewed reading, want 70 kept", c[counter.RadioFiltered])
	}
	h.a.DeviceDrops(KernelCounts{}) // a device that cannot tell
	if c := h.a.Counters(); c[counter.RadioFiltered] != 70 {
		t.Errorf("shed %d without figures, want 70 kept", c[counter.RadioFiltered])
	}
}

// TestProbeResponseAllocatesNothing: answering a flood of wildcard probes
// from new MACs, through the BSS's view of the radio, costs no allocation.
func TestProbeResponseAllocatesNothing(t *testing.T) {
	h := newHarness(t, Config{ReplyAirtime: 1})
	h.take()
	frames := make([][]byte, 64)
	for i := range frames {
		frames[i] = append(radiotapRx(), ieee80211.AppendProbeReq(nil, strangerN(i), "", gRates, uint16(i))...)
	}
	i, sent := 0, h.a.Counters()[counter.ProbeResponses]
	step := func() {
		h.now += time.Millisecond
		h.a.HandleRadio(h.now, frames[i%len(frames)])
		h.a.Flush(h.now, discard{})
		i++
	}
	if n := testing.AllocsPerRun(1000, step); n != 0 {
		t.Errorf("%.2f allocations per probe response", n)
	}
	if h.a.Counters()[counter.ProbeResponses] == sent {
		t.Error("no probe was answered")
	}
}
