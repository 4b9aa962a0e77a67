package ap

import (
	"strings"
	"testing"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/txq/policy"
)

// TestAirtimeSetPerBSS: airtime set changes one BSS's keys, named by its
// name or its index, and the scheduler has them at once: the guest's cap,
// its weight (its station's, in static mode), a station weight of the
// guest's; the first BSS's keys are untouched; an unknown BSS is refused,
// naming the radio's.
func TestAirtimeSetPerBSS(t *testing.T) {
	c := threeBSSes()
	c.Name, c.BSSes[0].Name, c.BSSes[1].Name = "airq0", "guest", "iot"
	c.Airtime = Airtime{Mode: policy.Static, BSS: []BSSAirtime{{Weight: 300}}}
	h := newHarness(t, c)
	h.take()
	main, guest := h.join(staMAC, false), h.joinGuest(otherSta)
	set := func(bss, key string, v uint32) ctl.Reply {
		t.Helper()
		r := h.a.Control(h.now, ctl.Request{Op: ctl.OpAirtimeSet, BSS: bss, Key: key, Value: v})
		if r.Err() != nil {
			t.Fatalf("airtime set bss %s %s %d: %v", bss, key, v, r.Err())
		}
		return r
	}
	set("guest", "airtime_bss_cap", 30)
	if pm, _ := h.a.sched.Cap(1, h.now); pm != 300 {
		t.Errorf("guest's cap %d‰ after airtime set bss guest airtime_bss_cap 30, want 300", pm)
	}
	if pm, _ := h.a.sched.Cap(0, h.now); pm != 0 {
		t.Errorf("the first BSS capped at %d‰", pm)
	}
	r := set("1", "airtime_bss_weight", 600)
	if w := h.a.sched.Weight(guest); w != 600 {
		t.Errorf("guest station's weight %d after airtime set bss 1 airtime_bss_weight 600, want 600", w)
	}
	if w := h.a.sched.Weight(main); w != 300 {
		t.Errorf("main station's weight %d, want its BSS's 300", w)
	}
	if b := r.Airtime.BSSes[1]; b.Name != "guest" || b.Weight != 600 || b.CapPercent != 30 {
		t.Errorf("reply's guest: %+v", b)
	}
	h.a.Control(h.now, ctl.Request{Op: ctl.OpAirtimeSet, BSS: "guest", Key: "airtime_sta_weight", Addr: otherSta, Value: 900})
	if w := h.a.sched.Weight(guest); w != 900 {
		t.Errorf("guest station's weight %d after its airtime_sta_weight 900, want 900", w)
	}
	set("guest", "airtime_bss_cap", 100)
	if pm, _ := h.a.sched.Cap(1, h.now); pm != 0 {
		t.Errorf("guest still capped at %d‰ after airtime_bss_cap 100", pm)
	}
	set("", "airtime_bss_weight", 200) // the first BSS's
	if w1, w2 := h.a.sched.Weight(main), h.a.sched.Weight(guest); w1 != 200 || w2 != 900 {
		t.Errorf("weights %d and %d after the first BSS's weight 200, want 200 and 900", w1, w2)
	}
	for _, sel := range []string{"lab", "3"} {
		r := h.a.Control(h.now, ctl.Request{Op: ctl.OpAirtimeSet, BSS: sel, Key: "airtime_bss_cap", Value: 30})
		if r.Errno != ctl.ENOENT || !strings.Contains(r.Error, `the radio's are 0 (airq0), 1 (guest), 2 (iot)`) {
			t.Errorf("airtime set bss %s: %+v", sel, r)
		}
	}
}
