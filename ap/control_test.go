package ap

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/scan"
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
		!s.WMM || s.Counters[counter.Associated] != 1 || s.Counters[counter.Authenticated] != 1 || s.MaxStations != 2007 || s.Scheduler != "production" {
		t.Fatalf("status %+v", s)
	}
	if s.TSF != 1024000 || s.Counters[counter.Beacons] != 11 || s.InFlightCap != 64 {
		t.Errorf("tsf %d beacons %d inflight cap %d", s.TSF, s.Counters[counter.Beacons], s.InFlightCap)
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
	h.takeEvents()
	h.askOK("station del " + staMAC.String())
	out, _ := h.take()
	de := findMgmt(t, out, ieee80211.SubtypeDeauth, staMAC)
	if body := de.Body(); len(body) < 2 || uint16(body[0]) != ieee80211.ReasonDeauthLeaving {
		t.Errorf("deauthentication reason %v", body)
	}
	ev := h.takeEvents()
	if len(ev) != 1 || ev[0].Kind != EventDisconnected || ev[0].Why != "removed by operator" {
		t.Errorf("events %+v", ev)
	}
	if h.a.air.Total() != 0 || h.a.bss.Associated != 0 {
		t.Errorf("pending %d µs, %d associated after removal", h.a.air.Total(), h.a.bss.Associated)
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
	h.acceptAssoc(staMAC)
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

// richBeacon is a neighbour's beacon with rates, HT and VHT elements, so
// the scan dump has every line to print.
func richBeacon(freq int, bss ieee80211.MAC, ssid string) []byte {
	ch := uint8(ieee80211.FreqToChannel(freq))
	b := radiotap.AppendRx(nil, radio.RxInfo{Freq: uint16(freq), Signal: -63, HasSignal: true})
	b = ieee80211.AppendMgmtHeader(b, ieee80211.SubtypeBeacon, ieee80211.Broadcast, bss, bss, 1)
	b = ieee80211.AppendBeaconFixed(b, 90061000001, 100, 0x0411)
	b = ieee80211.AppendSSID(b, ssid)
	b = ieee80211.AppendRates(b, append(slices.Clone(gRates), 0x80|ieee80211.SelectorHTPhy))
	b = ieee80211.AppendDSParams(b, ch)
	b = ieee80211.AppendHTCap(b, ieee80211.HTPHY{Streams: 2, SGI20: true}.Cap())
	b = ieee80211.AppendHTOper(b, ieee80211.NewHTOper(ch, ieee80211.HTOperSecondaryNone))
	b = ieee80211.AppendVHTCap(b, ieee80211.VHTPHY{Streams: 2, Width: 20}.Cap())
	return ieee80211.AppendVHTOper(b, ieee80211.NewVHTOper(20, ch, ch))
}

// scanFor drives the core through background scanning for d, the radio
// retuning in a millisecond and a neighbour beaconing on 2462 MHz.
func (h *harness) scanFor(d time.Duration, other ieee80211.MAC) {
	h.t.Helper()
	end := h.now + d
	for h.now < end {
		if f, ok := h.takeRetune(); ok {
			h.now += time.Millisecond
			h.a.Retuned(h.now)
			h.collect()
			if f == 2462 {
				h.a.HandleRadio(h.now, richBeacon(2462, other, "neigh bour"))
			}
			continue
		}
		h.advance(h.a.Deadline() - h.now)
		h.take()
	}
}

// The scan requests answer from the planner, the trips and the BSS table,
// and print exactly as package scan prints its own records.
func TestControlScan(t *testing.T) {
	h := newHarness(t, scanConfig())
	h.join(staMAC, false)
	h.take()
	other := ieee80211.MAC{0x02, 0xbb, 0, 0, 0, 1}
	h.scanFor(2*time.Second, other)
	h.now += 250 * time.Millisecond // the neighbour was last heard a while ago

	if !h.askOK("status").Status.Scanning {
		t.Error("status: scanning off")
	}
	sc := h.askOK("scan").Scan
	st := h.a.ScanStats()
	if sc.Mode != "continuous" || sc.Channels != 3 || sc.Trips == 0 || sc.Trips != st.Planner.Trips ||
		sc.Retunes != st.Retunes || sc.Away != uint64(st.Away.Microseconds()) || sc.ProbesSent != st.ProbesSent ||
		sc.LongestTrip != uint64(st.Planner.LongestTrip.Microseconds()) || sc.Sweeps != st.Planner.Sweeps {
		t.Errorf("scan %+v, core %+v", sc, st)
	}
	if sc.BSSes != 1 || sc.TableAdded != 1 || sc.TripLimit == 0 || sc.Sweeps == 0 || sc.SweepAge < 0 || sc.LastSweep == 0 {
		t.Errorf("scan %+v", sc)
	}

	bsses := h.askOK("scan dump").BSSes
	if len(bsses) != 1 {
		t.Fatalf("scan dump: %+v", bsses)
	}
	e := bsses[0]
	if e.BSSID != ctl.MAC(other) || e.SSID != "neigh bour" || e.Freq != 2462 || e.Signal != -63 || !e.HasSignal ||
		e.LastSeen < 250 || e.Capability != 0x0411 || e.BeaconInterval != 100 || !e.HT || !e.HTOper || !e.VHT ||
		!e.VHTOper || len(e.Rates) != 13 || e.DSChannel != 11 {
		t.Errorf("bss %+v", e)
	}
	if text := string(ctl.AppendScanDump(nil, "airq0", bsses)); !strings.HasPrefix(text, "BSS "+other.String()+"(on airq0)") ||
		!strings.Contains(text, "SSID: neigh bour") || !strings.Contains(text, "freq: 2462") {
		t.Errorf("scan dump text\n%s", text)
	}

	surveys := h.askOK("survey dump").Surveys
	ss := h.a.Surveys(nil, h.now)
	if len(surveys) != len(ss) || len(ss) != 4 {
		t.Fatalf("survey dump %+v, core %+v", surveys, ss)
	}
	var dwelt bool
	for i, s := range surveys {
		if s.Freq != ss[i].Freq || s.InUse != ss[i].InUse || s.Visits != ss[i].Visits || s.BSSes != ss[i].BSSes {
			t.Errorf("survey %d: %+v, core %+v", i, s, ss[i])
		}
		dwelt = dwelt || s.Dwell > 0
	}
	if !dwelt || surveys[3].Freq != 2412 || surveys[1].Freq != 2462 || surveys[1].BSSes != 1 || surveys[1].Beacons == 0 {
		t.Errorf("surveys %+v", surveys)
	}
	if text := string(ctl.AppendSurveyDump(nil, "airq0", surveys)); strings.Count(text, "Survey data from airq0") != 4 || !strings.Contains(text, "2462 MHz") {
		t.Errorf("survey dump text\n%s", text)
	}
}

// Without background scanning the scan requests say how to turn it on;
// the survey holds the operating channel, with what the driver reports.
func TestControlScanOff(t *testing.T) {
	h := newHarness(t, Config{})
	for _, line := range []string{"scan", "scan dump"} {
		r := h.ask(line)
		if r.Errno != ctl.EOPNOTSUPP || !strings.Contains(r.Error, "scanning is off: start airqd with -scan") ||
			!strings.HasPrefix(r.Error, line+":") {
			t.Errorf("%s: %+v", line, r)
		}
	}
	if h.askOK("status").Status.Scanning {
		t.Error("status: scanning on")
	}
	if !h.a.ReportSurvey(2412, scan.SurveyReport{Active: time.Second, Busy: 300 * time.Millisecond, Rx: 100 * time.Millisecond,
		Tx: 150 * time.Millisecond, Noise: -91, HasNoise: true}) || h.a.ReportSurvey(2437, scan.SurveyReport{Active: time.Second}) {
		t.Error("the operating channel's survey is not the one kept")
	}
	h.a.ReportSurvey(2412, scan.SurveyReport{Active: time.Second, Busy: 100 * time.Millisecond})
	got := h.askOK("survey dump").Surveys
	want := []ctl.Survey{{Freq: 2412, InUse: true, Noise: -91, HasNoise: true, Active: 2e6, Busy: 4e5, Rx: 1e5, Tx: 15e4}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("survey dump %+v, want %+v", got, want)
	}
}

// station get MAC rates is the station's rate selector, row for row, and
// prints as package rate prints rc_stats.
func TestControlStationRates(t *testing.T) {
	h := newHarness(t, Config{WMM: true, PHY: bss.PHY{HT: true, SGI20: true}})
	h.take()
	h.htStation(staMAC)
	for range 1000 {
		h.now += time.Millisecond
		h.wire(eth(staMAC, host, 0))
		out, _ := h.take()
		for _, f := range out {
			if rx, fr := parsed(t, f); fr.Type() == ieee80211.TypeData {
				h.echo(f, radio.TxStatus{Acked: true, Rate: rx.Rate})
			}
		}
	}
	rt := h.askOK("station get " + staMAC.String() + " rates").Rates
	rc := h.a.sta.slots[1].rc
	if rt == nil || rc == nil {
		t.Fatalf("rates %+v, selector %v", rt, rc)
	}
	stats, c := rc.Stats(), rc.Counters()
	if rt.Addr != ctl.MAC(staMAC) || !rt.Selector || rt.Best != "HT20 MCS7" || rt.BestKbps != rc.Best().Kbps() ||
		rt.Frames != c.Frames || rt.Frames == 0 || rt.Samples != c.Samples || len(rt.Rows) != len(stats) {
		t.Fatalf("rates %+v, counters %+v, %d rows", rt, c, len(stats))
	}
	var best int
	for i, r := range rt.Rows {
		s := stats[i]
		if r.Kbps != s.Rate.Kbps() || r.Attempts != s.Attempts || r.Successes != s.Successes || r.Prob != s.Prob ||
			r.TP != s.TP || r.Best != s.Best {
			t.Errorf("row %d: %+v, selector %+v", i, r, s)
		}
		if r.Best {
			best++
			if r.Name != "MCS7" || r.Mode != "HT20" || r.Guard != "SGI" || r.Streams != 1 || r.Attempts == 0 {
				t.Errorf("best row %+v", r)
			}
		}
	}
	if best != 1 {
		t.Errorf("%d best rows", best)
	}
	if text := string(ctl.AppendRateStats(nil, rt.Rows)); strings.Count(text, "\n") != len(stats)+1 || !strings.Contains(text, "HT20") || !strings.Contains(text, "MCS7") {
		t.Errorf("rc_stats text\n%s", text)
	}

	// Authenticated only: no selector yet.
	h.auth(sta2, 0, 1)
	if rt := h.askOK("station get " + sta2.String() + " rates").Rates; rt.Selector || rt.Rows != nil || rt.Addr != ctl.MAC(sta2) {
		t.Errorf("unassociated station: %+v", rt)
	}
	if r := h.ask("station get 02:00:00:00:09:09 rates"); r.Errno != ctl.ENOENT {
		t.Errorf("unknown station: %+v", r)
	}
}

// The station record carries the A-MSDU counters, the status the A-MSDUs
// received and the beacon timing.
func TestControlAMSDUAndBeacons(t *testing.T) {
	h := newHarness(t, amsduConfig())
	h.take()
	h.htStation(staMAC)
	for i := range 6 {
		h.wire(bigEth(staMAC, host, i))
	}
	for range 3 {
		out, _ := h.take()
		for _, f := range out {
			h.echo(f, radio.TxStatus{Acked: true})
		}
	}
	for range 5 {
		h.advance(102400 * time.Microsecond)
		out, _ := h.take()
		for _, f := range out {
			if _, fr := parsed(t, f); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
				h.now += 300 * time.Microsecond
				h.echo(f, radio.TxStatus{Acked: true})
			}
		}
	}
	s := h.askOK("station get " + staMAC.String()).Stations[0]
	c := h.a.sta.slots[1].StationCounters
	if s.AMSDUs != 1 || s.AMSDUSubframes != 5 || s.AMSDUMean != 5 || s.AMSDUBytes != c.AMSDUBytes || s.AMSDUBytes == 0 {
		t.Errorf("station A-MSDUs %d subframes %d mean %v bytes %d; counters %+v", s.AMSDUs, s.AMSDUSubframes,
			s.AMSDUMean, s.AMSDUBytes, c)
	}
	st := h.askOK("status").Status
	b := h.a.Beacons()
	if st.BeaconsEmitted != b.Emitted || st.BeaconsEchoed != b.Echoed || st.BeaconsEchoed < 5 ||
		st.BeaconEchoMax != b.EchoLateMax.Microseconds() || st.BeaconEchoMax < 300 ||
		st.BeaconEchoMean != (b.EchoLateSum/time.Duration(b.Echoed)).Microseconds() ||
		st.BeaconEmitMax != b.EmitLateMax.Microseconds() || st.BeaconsMissed != b.MissedIntervals {
		t.Errorf("status beacons emitted %d mean %d max %d, echoed %d mean %d max %d, missed %d; core %+v",
			st.BeaconsEmitted, st.BeaconEmitMean, st.BeaconEmitMax, st.BeaconsEchoed, st.BeaconEchoMean,
			st.BeaconEchoMax, st.BeaconsMissed, b)
	}
}

// TestControlACS: the start-up channel selection as airqctl asks for it:
// not used with a configured channel; once decided, the choice and the
// figures behind it.
func TestControlACS(t *testing.T) {
	h := newHarness(t, Config{})
	if a := h.askOK("acs").ACS; a == nil || a.Decided || a.Scanning {
		t.Errorf("fixed channel: %+v", a)
	}
	neighbours := map[int][]int8{2412: {-45, -50}, 2437: {-50}, 2462: nil, 5180: {-40}, 5200: {-50}}
	h, _ = driveACS(t, acsConfig(scan.ACSConfig{NoBias: true}), neighbours, nil)
	a := h.askOK("acs").ACS
	d, ok := h.a.ACSDecision()
	if !ok || a == nil || !a.Decided || a.Scanning || a.Channel != d.Channel || a.Freq != d.Freq || a.TookMs <= 0 ||
		!strings.Contains(a.Text, "Ideal channel is") || strings.Count(a.Text, "\n") != len(d.Channels)+2 {
		t.Errorf("acs %+v, decision %+v", a, d)
	}
}

// TestRxAirtime: "rx duration" grows by each received frame's airtime at
// the rate radiotap reported, duplicates included, and "rx bitrate" shows
// that rate.
func TestRxAirtime(t *testing.T) {
	h := newHarness(t, Config{WMM: true})
	h.join(staMAC, true)
	before := h.askOK("station get " + staMAC.String()).Stations[0].RxAirtime
	f := h.upIPv4(staMAC, host, 0, true)
	h.air(f)
	f[1] |= ieee80211.FCRetry >> 8
	for range 9 {
		h.air(f) // retransmissions of it: duplicates
	}
	s := h.askOK("station get " + staMAC.String()).Stations[0]
	per := uint64(h.a.est.Airtime(radio.LegacyRate(54000), ieee80211.ACBE, len(f)+4))
	if per < 20 || per > 300 {
		t.Fatalf("one %d-byte frame at 54 Mbit/s estimated at %d µs", len(f), per)
	}
	if got := s.RxAirtime - before; got != 10*per {
		t.Fatalf("rx airtime grew by %d µs, want 10 × %d", got, per)
	}
	if s.RxBitrate != 54000 || s.RxDuplicates != 9 {
		t.Fatalf("rx bitrate %d kbit/s, duplicates %d", s.RxBitrate, s.RxDuplicates)
	}
}

// TestPHYModeShown: station get says what airq sends each station, and
// notes HE a station offers but airq does not use.
func TestPHYModeShown(t *testing.T) {
	h := newHarness(t, Config{WMM: true, PHY: bss.PHY{HT: true}})
	h.join(staMAC, true) // legacy rates only
	h.auth(sta2, 0, 1)
	b := ieee80211.AppendAssocReq(h.mgmt(ieee80211.SubtypeAssocReq, sta2), 0x0421, 10)
	b = ieee80211.AppendSSID(b, "airq-test")
	b = ieee80211.AppendRates(b, gRates)
	b = ieee80211.AppendHTCap(b, ieee80211.HTPHY{Streams: 1, SGI20: true}.Cap())
	b = append(b, ieee80211.ElemExtension, 1+ieee80211.ElemExtHECapMinLen, ieee80211.ElemExtHECap)
	b = append(b, make([]byte, ieee80211.ElemExtHECapMinLen)...)
	h.air(ieee80211.AppendWMMInfo(b, 0))
	for _, tt := range []struct {
		addr ieee80211.MAC
		mode string
		he   bool
	}{{staMAC, "legacy", false}, {sta2, "HT", true}} {
		s := h.askOK("station get " + tt.addr.String()).Stations[0]
		if s.PHYMode != tt.mode || s.HEAnnounced != tt.he {
			t.Errorf("%s: phy mode %q, HE announced %v; want %q, %v", tt.addr, s.PHYMode, s.HEAnnounced, tt.mode, tt.he)
		}
	}
}

// A disassociation asked through the control path sends a disassociation
// with the reason asked and leaves the station authenticated, announced
// as gone.
func TestControlDisassociateKeepsAuthentication(t *testing.T) {
	h := newHarness(t, Config{})
	h.join(staMAC, false)
	h.take()
	h.takeEvents()
	r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationDel, Addr: staMAC, Reason: 8, Disassoc: true})
	h.collect()
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	out, _ := h.take()
	da := findMgmt(t, out, ieee80211.SubtypeDisassoc, staMAC)
	if body := da.Body(); len(body) < 2 || body[0] != 8 {
		t.Errorf("disassociation reason %v", body)
	}
	ev := h.takeEvents()
	if len(ev) != 1 || ev[0].Kind != EventDisconnected || ev[0].Reason != 8 {
		t.Errorf("events %+v", ev)
	}
	st := h.askOK("station get " + staMAC.String()).Stations[0]
	if st.Associated || st.Authorized || st.State != ctl.StateAuthenticated || h.a.bss.Associated != 0 {
		t.Errorf("after disassociation: %+v, %d associated", st, h.a.bss.Associated)
	}
}

// hostapd's DISABLE and ENABLE: off, every station is deauthenticated, no
// beacon goes out and nothing is answered or sent; on, beacons resume and
// stations join again.
func TestControlDisableEnable(t *testing.T) {
	h := newHarness(t, Config{})
	h.join(staMAC, false)
	h.take()
	h.takeEvents()
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpDisable}); r.Err() != nil {
		t.Fatal(r.Err())
	}
	h.collect()
	out, _ := h.take()
	findMgmt(t, out, ieee80211.SubtypeDeauth, staMAC)
	findMgmt(t, out, ieee80211.SubtypeDeauth, ieee80211.Broadcast)
	if ev := h.takeEvents(); len(ev) != 1 || ev[0].Kind != EventDisconnected {
		t.Errorf("events %+v", ev)
	}
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpDisable}); r.Errno != ctl.EBUSY {
		t.Errorf("second disable: %+v", r)
	}
	h.advance(time.Second)
	h.auth(sta2, 0, 1)
	h.wire(eth(ieee80211.Broadcast, host, 0))
	if out, _ := h.take(); len(out) != 0 {
		t.Errorf("%d frames sent while disabled", len(out))
	}
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpEnable}); r.Err() != nil {
		t.Fatal(r.Err())
	}
	h.collect()
	out, _ = h.take()
	findMgmt(t, out, ieee80211.SubtypeBeacon, ieee80211.Broadcast)
	h.join(sta2, false)
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpEnable}); r.Errno != ctl.EBUSY {
		t.Errorf("enable while enabled: %+v", r)
	}
}

// A radio switched off has nothing due: Tick does nothing until Enable,
// so a deadline that has passed would have the shell's loop wake at once,
// again and again, on a CPU the datapath of other radios shares.
func TestControlDisabledHasNoDeadline(t *testing.T) {
	h := newHarness(t, Config{})
	h.join(staMAC, false)
	h.a.Control(h.now, ctl.Request{Op: ctl.OpDisable})
	h.collect()
	h.advance(5 * time.Second)
	if d := h.a.Deadline(); d <= h.now {
		t.Fatalf("switched off, due at %v, at or before now (%v)", d, h.now)
	}
	h.a.Control(h.now, ctl.Request{Op: ctl.OpEnable})
	if d := h.a.Deadline(); d > h.now+time.Second {
		t.Fatalf("enabled again, next due in %v: beacons wait", d-h.now)
	}
}

// A WPA2 network disabled and enabled again takes new stations through
// the 4-way handshake under a new GTK.
func TestControlEnableWPA2(t *testing.T) {
	h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
	h.advance(0)
	gtk := h.a.radios[0].rsn.auth.GroupKeyID()
	installed := h.a.cnt[counter.GTKInstalled]
	h.a.Control(h.now, ctl.Request{Op: ctl.OpDisable})
	h.a.Control(h.now, ctl.Request{Op: ctl.OpEnable})
	h.collect()
	h.advance(time.Millisecond)
	h.take()
	w := newWPASTA(h, staMAC, rsn.AKMPSK)
	w.connect()
	if _, s := h.a.sta.lookup(staMAC); s == nil || !s.Authorized {
		t.Fatal("no station authorized after Enable")
	}
	if h.a.cnt[counter.GTKInstalled] == installed && h.a.radios[0].rsn.auth.GroupKeyID() == gtk {
		t.Errorf("the GTK was not replaced: key ID %d, %d installed", gtk, h.a.cnt[counter.GTKInstalled])
	}
}

// A BSS held at start (Config.StartDisabled) sends nothing and takes
// nothing until Enable starts it.
func TestStartDisabled(t *testing.T) {
	h := newHarness(t, Config{StartDisabled: true})
	h.advance(time.Second)
	h.auth(staMAC, 0, 1)
	if out, _ := h.take(); len(out) != 0 {
		t.Fatalf("%d frames sent before Enable", len(out))
	}
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpDisable}); r.Errno != ctl.EBUSY {
		t.Errorf("disable before the start: %+v", r)
	}
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpEnable}); r.Err() != nil {
		t.Fatal(r.Err())
	}
	h.collect()
	out, _ := h.take()
	findMgmt(t, out, ieee80211.SubtypeBeacon, ieee80211.Broadcast)
	h.join(staMAC, false)
}

// A WPA2 station's PMK for hostapd's GET_PMK (a testing command): the one
// its handshake used; none for an unknown or open station.
func TestControlStationPMK(t *testing.T) {
	h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
	h.advance(0)
	h.take()
	newWPASTA(h, staMAC, rsn.AKMPSK).connect()
	r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationPMK, Addr: staMAC})
	if want := testPMK(t, testPassphrase); r.Err() != nil || !bytes.Equal(r.PMK, want[:]) {
		t.Errorf("PMK %x, %v", r.PMK, r.Err())
	}
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationPMK, Addr: sta2}); r.Errno != ctl.ENOENT || r.PMK != nil {
		t.Errorf("unknown station: %+v", r)
	}
}
