package ap

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

var sta2 = ieee80211.MAC{0x02, 0, 0, 0, 0x01, 1}

// ask parses line like the daemon does, asks the core, collects the output
// and checks that the reply survives the wire encoding.
func (h *harness) ask(line string) ctl.Reply {
	h.t.Helper()
	req, err := ctl.ParseRequest(line)
	if err != nil {
		h.t.Fatalf("%q: %v", line, err)
	}
	r := h.a.Control(h.now, req)
	h.collect()
	b, err := r.Encode()
	if err != nil {
		h.t.Fatalf("%q: encode: %v", line, err)
	}
	if back, err := ctl.DecodeReply(b); err != nil || !reflect.DeepEqual(back, r) {
		h.t.Fatalf("%q: reply does not survive the wire: %v\n%s", line, err, b)
	}
	return r
}

func (h *harness) askOK(line string) ctl.Reply {
	h.t.Helper()
	r := h.ask(line)
	if err := r.Err(); err != nil {
		h.t.Fatalf("%q: %v", line, err)
	}
	return r
}

func TestControlStatus(t *testing.T) {
	h := newHarness(t, Config{WMM: true, Channel: 6})
	h.join(staMAC, true)
	h.auth(sta2, 0, 1)
	for range 10 {
		h.advance(102400 * time.Microsecond)
	}
	s := h.askOK("status").Status
	if s == nil || s.SSID != "airq-test" || s.BSSID != ctl.MAC(bssid) || s.Channel != 6 || s.Freq != 2437 ||
		!s.WMM || s.Stations != 1 || s.Authenticated != 1 || s.MaxStations != 2007 || s.Scheduler != "production" {
		t.Fatalf("status %+v", s)
	}
	if s.TSF != 1024000 || s.Beacons != 11 || s.InFlightCap != 64 {
		t.Errorf("tsf %d beacons %d inflight cap %d", s.TSF, s.Beacons, s.InFlightCap)
	}
}

func TestControlStations(t *testing.T) {
	h := newHarness(t, Config{})
	h.join(staMAC, false)
	h.join(sta2, false)
	h.air(h.upIPv4(staMAC, host, 0, false))
	for range 3 {
		h.wire(eth(staMAC, host, 0))
	}
	out, _ := h.take()
	h.now += 250 * time.Millisecond
	h.echo(out[len(out)-1], radio.TxStatus{Acked: true, Retries: 2})

	all := h.askOK("station dump").Stations
	if len(all) != 2 || all[0].Addr != ctl.MAC(staMAC) || all[0].AID != 1 || all[1].Addr != ctl.MAC(sta2) || all[1].AID != 2 {
		t.Fatalf("dump: %+v", all)
	}
	s := h.askOK("station get " + staMAC.String()).Stations[0]
	if !reflect.DeepEqual(s, all[0]) {
		t.Errorf("get differs from dump:\n%+v\n%+v", s, all[0])
	}
	c := h.a.sta.slots[1].StationCounters
	if !s.Associated || s.RxPackets != 1 || s.RxBytes != c.RxBytes || s.TxPackets != c.TxPackets || s.TxPackets == 0 ||
		s.TxRetries != c.TxRetries || s.TxAirtime != c.TxAirtime || s.Signal != -40 || s.TxBitrate != h.a.dataRate(&h.a.sta.slots[1]).Kbps() {
		t.Errorf("station %+v, counters %+v", s, c)
	}
	if s.InactiveMs != 250 || s.ConnectedMs != 250 || s.AirtimeWeight != 256 || s.AQLLimitHigh[ieee80211.ACBE] != 12000 {
		t.Errorf("inactive %d connected %d weight %d limits %v", s.InactiveMs, s.ConnectedMs, s.AirtimeWeight, s.AQLLimitHigh)
	}
	if s.ACAirtime[ieee80211.ACBE] == 0 || s.AirtimeDeficit[ieee80211.ACBE] != h.a.sched.Deficit(1, ieee80211.ACBE) {
		t.Errorf("no airtime charged: %v, deficit %v", s.ACAirtime, s.AirtimeDeficit)
	}
	r := h.ask("station get 02:00:00:00:09:09")
	if r.Errno != ctl.ENOENT || !strings.Contains(r.Error, "02:00:00:00:09:09") {
		t.Errorf("unknown station: %+v", r)
	}
}

func TestControlSetWeight(t *testing.T) {
	h := newHarness(t, Config{})
	h.join(staMAC, false)
	s := h.askOK("station set " + staMAC.String() + " airtime_weight 512").Stations[0]
	if s.AirtimeWeight != 512 || h.a.sched.Weight(1) != 512 {
		t.Errorf("weight %d in the reply, %d in the scheduler", s.AirtimeWeight, h.a.sched.Weight(1))
	}
	h.auth(sta2, 0, 1)
	if r := h.ask("station set " + sta2.String() + " airtime_weight 512"); r.Errno != ctl.ENOENT {
		t.Errorf("weight of an unassociated station: %+v", r)
	}
	if r := h.ask("station set 02:00:00:00:09:09 airtime_weight 512"); r.Errno != ctl.ENOENT {
		t.Errorf("weight of an unknown station: %+v", r)
	}
}

func TestControlDeleteDeauthenticates(t *testing.T) {
	h := newHarness(t, Config{})
	h.join(staMAC, false)
	for range 3 {
		h.wire(eth(staMAC, host, 0))
	}
	h.take()
	h.a.DrainEvents(func(Event) {})
	h.askOK("station del " + staMAC.String())
	out, _ := h.take()
	de := findMgmt(t, out, ieee80211.SubtypeDeauth, staMAC)
	if body := de.Body(); len(body) < 2 || uint16(body[0]) != ieee80211.ReasonDeauthLeaving {
		t.Errorf("deauthentication reason %v", body)
	}
	var ev []Event
	h.a.DrainEvents(func(e Event) { ev = append(ev, e) })
	if len(ev) != 1 || ev[0].Kind != EventDisconnected || ev[0].Why != "removed by operator" {
		t.Errorf("events %+v", ev)
	}
	if h.a.air.Total() != 0 || h.a.assoc != 0 {
		t.Errorf("pending %d µs, %d associated after removal", h.a.air.Total(), h.a.assoc)
	}
	if r := h.ask("station del " + staMAC.String()); r.Errno != ctl.ENOENT {
		t.Errorf("second removal: %+v", r)
	}
	if len(h.askOK("station dump").Stations) != 0 {
		t.Error("station still listed")
	}
}

// `aql set BE 500 1000` takes effect at once: the scheduler lets out only
// what fits under the new high limit, and raising it again releases the rest.
func TestControlAQLSetLimitsWhatIsInFlight(t *testing.T) {
	h := newHarness(t, Config{})
	h.auth(staMAC, 0, 1)
	h.assoc(staMAC, "airq-test", []byte{0x82, 0x84, 0x8b, 0x96}, false) // an 802.11b station
	h.take()
	q := h.askOK("aql set BE 500 1000").AQL
	if q.Low[ieee80211.ACBE] != 500 || q.High[ieee80211.ACBE] != 1000 || q.High[ieee80211.ACVO] != 12000 {
		t.Fatalf("limits after set: %+v", q)
	}
	if l := h.a.Config().AQL; l.Low[ieee80211.ACBE] != 500 || l.High[ieee80211.ACBE] != 1000 {
		t.Errorf("config not in step: %+v", l)
	}
	for range 6 {
		h.wire(eth(staMAC, host, 0))
	}
	out, _ := h.take()
	rx, fr := parsed(t, out[0])
	per := h.a.est.Airtime(rx.Rate, ieee80211.ACBE, len(fr))
	want := int((1000 + per - 1) / per)
	if want >= 6 || len(out) != want || h.a.Backlog() != 6-want {
		t.Fatalf("%d sent, %d queued; want %d (%d µs each) under 500/1000 µs", len(out), h.a.Backlog(), want, per)
	}
	s := h.askOK("station get " + staMAC.String()).Stations[0]
	if s.AQLPending[ieee80211.ACBE] != int64(want)*int64(per) || s.InFlight[ieee80211.ACBE] != int64(want) {
		t.Errorf("station pending %v in flight %v", s.AQLPending, s.InFlight)
	}
	h.askOK("aql set BE 5000 12000")
	more, _ := h.take()
	if len(more) != 6-want || h.a.Backlog() != 0 {
		t.Errorf("raising the limit released %d frames, want %d", len(more), 6-want)
	}
}

// The aql reply prints exactly as the aql package (and the kernel) does.
func TestControlAQLText(t *testing.T) {
	h := newHarness(t, Config{})
	h.join(staMAC, false)
	h.wire(eth(staMAC, host, 0))
	h.askOK("aql set 2 600 1200")
	q := h.askOK("aql threshold 9000").AQL
	if h.a.air.Limits().Threshold != 9000 || h.a.Config().AQL.Threshold != 9000 {
		t.Errorf("threshold %d", h.a.air.Limits().Threshold)
	}
	lim, snap := h.a.air.Limits(), h.a.air.Snapshot()
	if snap.Total == 0 {
		t.Fatal("nothing pending")
	}
	if got, want := string(q.AppendTxqLimit(nil)), lim.TxqLimitText(); got != want {
		t.Errorf("aql_txq_limit\n%s, want\n%s", got, want)
	}
	if got, want := string(q.AppendThreshold(nil)), aql.FormatThreshold(lim.Threshold); got != want {
		t.Errorf("aql_threshold %q, want %q", got, want)
	}
	if got, want := string(q.AppendPending(nil)), snap.String(); got != want {
		t.Errorf("aql_pending\n%s, want\n%s", got, want)
	}
}

func TestControlScheduler(t *testing.T) {
	h := newHarness(t, Config{})
	h.join(staMAC, false)
	for range 3 {
		h.wire(eth(staMAC, host, 0))
	}
	s := h.askOK("scheduler").Scheduler
	be := s.AC[ieee80211.ACBE]
	if s.Mode != "production" || be.AC != ctl.AC(ieee80211.ACBE) || be.Selections == 0 || be.RoundsOpened == 0 {
		t.Errorf("scheduler %+v", s)
	}
	st := h.a.sched.Stats(ieee80211.ACBE)
	if be.Selections != st.Selections || be.RoundsOpened != st.RoundsOpened || be.Airtime != st.Airtime {
		t.Errorf("BE %+v, scheduler stats %+v", be, st)
	}
}
