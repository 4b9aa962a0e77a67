package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/scan"
	"github.com/airq/airq/txq/policy"
)

var otherSta = ieee80211.MAC{0x02, 0, 0, 0, 0x03, 0}

// TestAirtimeStaticWeights: airtime_mode=1 gives a station its
// airtime_sta_weight, else its BSS's airtime_bss_weight; a live change of
// the station's weight applies at once, and mode 0 gives every station
// the default weight back.
func TestAirtimeStaticWeights(t *testing.T) {
	h := newHarness(t, Config{AirtimeWeight: 100, Airtime: Airtime{Mode: policy.Static, BSS: []BSSAirtime{
		{Weight: 300, StaWeights: map[ieee80211.MAC]uint16{staMAC: 768}},
	}}})
	h.take()
	own, bssw := h.join(staMAC, false), h.join(otherSta, false)
	if w := h.a.sched.Weight(own); w != 768 {
		t.Errorf("listed station's weight %d, want its airtime_sta_weight 768", w)
	}
	if w := h.a.sched.Weight(bssw); w != 300 {
		t.Errorf("other station's weight %d, want airtime_bss_weight 300", w)
	}
	c := h.a.AirtimeConfig()
	c.BSS = []BSSAirtime{{Weight: 300, StaWeights: map[ieee80211.MAC]uint16{staMAC: 1000, otherSta: 50}}}
	if err := h.a.SetAirtime(h.now, c); err != nil {
		t.Fatal(err)
	}
	if w1, w2 := h.a.sched.Weight(own), h.a.sched.Weight(bssw); w1 != 1000 || w2 != 50 {
		t.Errorf("weights %d and %d after the change, want 1000 and 50", w1, w2)
	}
	if err := h.a.SetAirtime(h.now, Airtime{}); err != nil {
		t.Fatal(err)
	}
	if w1, w2 := h.a.sched.Weight(own), h.a.sched.Weight(bssw); w1 != 100 || w2 != 100 {
		t.Errorf("weights %d and %d with the policy off, want airtime_weight 100", w1, w2)
	}
	if err := h.a.SetAirtime(h.now, Airtime{Mode: 9}); err == nil {
		t.Error("airtime_mode 9 accepted")
	}
}

// TestAirtimeLeaveForgets: a station that leaves is out of the policy.
func TestAirtimeLeaveForgets(t *testing.T) {
	h := newHarness(t, Config{Airtime: Airtime{Mode: policy.Static, BSS: []BSSAirtime{{Weight: 300}}}})
	h.take()
	slot := h.join(staMAC, false)
	if h.a.airtime.pol.Weight(slot) != 300 {
		t.Fatalf("weight %d", h.a.airtime.pol.Weight(slot))
	}
	h.a.Control(h.now, ctl.Request{Op: ctl.OpStationDel, Addr: staMAC})
	if w := h.a.airtime.pol.Weight(slot); w != 0 {
		t.Errorf("the policy still weighs a removed station: %d", w)
	}
}

// TestAirtimeDynamicTimer: modes 2 and 3 update the weights every
// airtime_update_interval, from Start, through Deadline.
func TestAirtimeDynamicTimer(t *testing.T) {
	h := newHarness(t, Config{Airtime: Airtime{Mode: policy.Dynamic, Interval: 30 * time.Millisecond, BSS: []BSSAirtime{{Weight: 1}}}})
	h.take()
	h.join(staMAC, false)
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationSet, Addr: staMAC, Weight: 500}); r.Errno != ctl.EBUSY {
		t.Errorf("a station weight set by hand in mode 2, which the next update overwrites: %+v", r)
	}
	if d := h.a.Deadline(); d != 30*time.Millisecond {
		t.Errorf("deadline %v, want the first update at 30ms", d)
	}
	h.advance(30 * time.Millisecond)
	if d := h.a.Deadline(); d != 60*time.Millisecond {
		t.Errorf("deadline %v after the first update, want 60ms", d)
	}
}

// TestAirtimeCapWakesTheLoop: a capped BSS whose frames stay queued with
// nothing in flight is sent again when its budget is back: the core's
// deadline is then, since no completion will come to run the TX loop.
func TestAirtimeCapWakesTheLoop(t *testing.T) {
	h := newHarness(t, Config{InFlightPerAC: 4, Airtime: Airtime{BSS: []BSSAirtime{{CapPercent: 10}}}})
	h.take()
	h.join(staMAC, false)
	h.take()
	for range 300 {
		h.wire(eth(staMAC, host, 0))
	}
	sent := 0
	for range 300 {
		out, _ := h.take()
		if len(out) == 0 {
			break
		}
		for _, b := range out {
			h.now += 100 * time.Microsecond
			h.echo(b, radio.TxStatus{Acked: true})
		}
		sent += len(out)
	}
	if h.a.Backlog() == 0 || h.a.InFlight() != 0 {
		t.Fatalf("%d sent, %d queued, %d in flight: the cap never held", sent, h.a.Backlog(), h.a.InFlight())
	}
	at, ok := h.a.sched.CapDeadline(h.now)
	if !ok {
		t.Fatal("no group over budget")
	}
	if d := h.a.Deadline(); d != at {
		t.Fatalf("deadline %v, want the cap's return within budget at %v", d, at)
	}
	h.advance(at - h.now)
	if out, _ := h.take(); len(out) == 0 {
		t.Error("nothing sent once the budget was back")
	}
	// The cap lifted live: everything queued goes at once.
	if err := h.a.SetAirtime(h.now, Airtime{}); err != nil {
		t.Fatal(err)
	}
	if p, _ := h.a.sched.Cap(0, h.now); p != 0 {
		t.Errorf("cap %d‰ after it was lifted", p)
	}
}

// TestAirtimeSetDuringACSHolds: the default airtime weight and the
// airtime policy set while the start-up channel scan runs are the ones in
// force once the channel is chosen.
func TestAirtimeSetDuringACSHolds(t *testing.T) {
	h := startACS(t)
	a := h.a
	a.SetDefaultAirtimeWeight(500)
	if err := a.SetAirtime(h.now, Airtime{Mode: policy.Static, BSS: []BSSAirtime{{StaWeights: map[ieee80211.MAC]uint16{staMAC: 700}}}}); err != nil {
		t.Fatal(err)
	}
	h.untilChannelChosen()
	if w := a.Config().AirtimeWeight; w != 500 {
		t.Errorf("default airtime weight %d once the channel was chosen, want the 500 set during the scan", w)
	}
	h.take()
	if w := a.sched.Weight(h.join(staMAC, true)); w != 700 {
		t.Errorf("station's weight %d, want the airtime_sta_weight 700 set during the scan", w)
	}
	if w := a.sched.Weight(h.join(otherSta, true)); w != 500 {
		t.Errorf("station's weight %d, want the default 500 set during the scan", w)
	}
}

// airqctl airtime shows the policy, its BSS and its stations; airtime set
// changes a key live and the reply shows it taken.
func TestControlAirtime(t *testing.T) {
	h := newHarness(t, Config{Airtime: Airtime{Mode: policy.Static, BSS: []BSSAirtime{{Weight: 300}}}})
	h.take()
	h.join(staMAC, false)
	r := h.a.Control(h.now, ctl.Request{Op: ctl.OpAirtime})
	at := r.Airtime
	if at == nil || at.Mode != 1 || at.ModeName != "static" || len(at.BSSes) != 1 || len(at.Stations) != 1 {
		t.Fatalf("%+v", r)
	}
	if b := at.BSSes[0]; b.Weight != 300 || b.CapPercent != 100 || b.BSSID != ctl.MAC(bssid) {
		t.Errorf("BSS %+v", b)
	}
	if s := at.Stations[0]; s.Addr != ctl.MAC(staMAC) || s.Weight != 300 || s.StaWeight != 0 {
		t.Errorf("station %+v", s)
	}
	for _, c := range []struct {
		req   ctl.Request
		check func(*ctl.Airtime) bool
	}{
		{ctl.Request{Op: ctl.OpAirtimeSet, Key: "airtime_sta_weight", Addr: staMAC, Value: 900},
			func(a *ctl.Airtime) bool { return a.Stations[0].Weight == 900 && a.Stations[0].StaWeight == 900 }},
		{ctl.Request{Op: ctl.OpAirtimeSet, Key: "airtime_bss_cap", Value: 30},
			func(a *ctl.Airtime) bool { return a.BSSes[0].CapPercent == 30 && a.BSSes[0].CapCreditUs > 0 }},
		{ctl.Request{Op: ctl.OpAirtimeSet, Key: "airtime_sta_weight", Addr: staMAC, Value: 0},
			func(a *ctl.Airtime) bool { return a.Stations[0].Weight == 300 && a.Stations[0].StaWeight == 0 }},
		{ctl.Request{Op: ctl.OpAirtimeSet, Key: "airtime_mode", Value: 2},
			func(a *ctl.Airtime) bool { return a.Mode == 2 && a.UpdateIntervalMs == 200 }},
		{ctl.Request{Op: ctl.OpAirtimeSet, Key: "airtime_bss_cap", Value: 100},
			func(a *ctl.Airtime) bool { return a.BSSes[0].CapPercent == 100 }},
	} {
		r := h.a.Control(h.now, c.req)
		if r.Err() != nil || r.Airtime == nil || !c.check(r.Airtime) {
			t.Errorf("%v: %+v %v", c.req, r.Airtime, r.Err())
		}
	}
	if p, _ := h.a.sched.Cap(0, h.now); p != 0 {
		t.Errorf("cap %d‰ after airtime_bss_cap 100", p)
	}
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpAirtimeSet, Key: "airtime_mode", Value: 7}); r.Errno != ctl.EINVAL {
		t.Errorf("airtime_mode 7: %+v", r)
	}
}

// startACS starts a core that scans for its channel first.
func startACS(t *testing.T) *harness {
	t.Helper()
	a, err := New(acsConfig(scan.ACSConfig{}))
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, a: a}
	a.Start(0)
	h.collect()
	if !a.ACSScanning() {
		t.Fatal("no start-up scan")
	}
	return h
}

// untilChannelChosen runs the start-up scan to its choice.
func (h *harness) untilChannelChosen() {
	h.t.Helper()
	for h.now < 20*time.Second && h.a.ACSScanning() {
		if _, ok := h.takeRetune(); ok {
			h.now += time.Millisecond
			h.a.Retuned(h.now)
			h.collect()
			continue
		}
		h.advance(max(h.a.Deadline(), h.now) - h.now)
	}
	if _, decided := h.a.ACSDecision(); !decided {
		h.t.Fatal("no channel chosen")
	}
}
