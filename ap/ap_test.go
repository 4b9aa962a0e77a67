package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
)

func TestBeaconAdvertisesTheBSS(t *testing.T) {
	h := newHarness(t, Config{WMM: true})
	out, _ := h.take()
	if len(out) != 1 {
		t.Fatalf("start emitted %d frames, want one beacon", len(out))
	}
	rx, fr := parsed(t, out[0])
	if !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) || fr.Addr1() != ieee80211.Broadcast || fr.Addr2() != bssid || fr.Addr3() != bssid {
		t.Fatalf("not our beacon: %x", []byte(fr))
	}
	if rx.Rate.Kbps() != 1000 {
		t.Errorf("beacon rate %d kbit/s, want the lowest basic rate 1000", rx.Rate.Kbps())
	}
	bc, err := ieee80211.ParseBeacon(fr.Body())
	if err != nil {
		t.Fatal(err)
	}
	ies := bc.Elements()
	if ssid, _ := ies.Find(ieee80211.ElemSSID); string(ssid) != "airq-test" {
		t.Errorf("SSID %q", ssid)
	}
	if ds, _ := ies.Find(ieee80211.ElemDSParams); len(ds) != 1 || ds[0] != 1 {
		t.Errorf("DS parameter set %v, want channel 1", ds)
	}
	if _, ok := ies.Find(ieee80211.ElemTIM); !ok {
		t.Error("no TIM")
	}
	if _, _, ok := ies.WMMParams(); !ok {
		t.Error("no WMM parameter element")
	}
	if bc.Interval() != 100 || bc.Capability()&bss.CapESS == 0 {
		t.Errorf("interval %d capability %#x", bc.Interval(), bc.Capability())
	}
	// The next beacon follows one beacon interval later, with a later TSF.
	h.advance(102400 * time.Microsecond)
	out, _ = h.take()
	if len(out) != 1 {
		t.Fatalf("%d frames after one interval, want one beacon", len(out))
	}
	_, fr2 := parsed(t, out[0])
	bc2, _ := ieee80211.ParseBeacon(fr2.Body())
	if bc2.Timestamp() != 102400 || bc.Timestamp() != 0 {
		t.Errorf("TSF %d then %d, want 0 then 102400", bc.Timestamp(), bc2.Timestamp())
	}
	if fr2.Seq() == fr.Seq() {
		t.Error("beacons share a sequence number")
	}
}

func TestCountryElement(t *testing.T) {
	h := newHarness(t, Config{Country: &Country{Alpha2: "US", Subbands: []ieee80211.CountryTriplet{{FirstChannel: 1, NumChannels: 11, MaxPowerDBm: 30}}}})
	out, _ := h.take()
	_, fr := parsed(t, out[0])
	bc, _ := ieee80211.ParseBeacon(fr.Body())
	body, ok := bc.Elements().Find(ieee80211.ElemCountry)
	if !ok || string(body[:2]) != "US" || body[2] != ' ' || body[3] != 1 || body[4] != 11 || body[5] != 30 {
		t.Errorf("country element %q", body)
	}
}

func TestProbeResponses(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	for _, c := range []struct {
		name   string
		ssid   string
		answer bool
	}{{"wildcard", "", true}, {"directed", "airq-test", true}, {"other SSID", "other", false}} {
		h.air(ieee80211.AppendProbeReq(nil, staMAC, c.ssid, gRates, h.nextSeq()))
		out, _ := h.take()
		if got := len(out) == 1; got != c.answer {
			t.Errorf("%s probe: %d responses", c.name, len(out))
			continue
		}
		if c.answer {
			findMgmt(t, out, ieee80211.SubtypeProbeResp, staMAC)
		}
	}
}

func TestHiddenSSID(t *testing.T) {
	h := newHarness(t, Config{HideSSID: true})
	out, _ := h.take()
	_, fr := parsed(t, out[0])
	bc, _ := ieee80211.ParseBeacon(fr.Body())
	if ssid, ok := bc.Elements().Find(ieee80211.ElemSSID); !ok || len(ssid) != 0 {
		t.Errorf("hidden beacon SSID %q", ssid)
	}
	h.air(ieee80211.AppendProbeReq(nil, staMAC, "", gRates, h.nextSeq()))
	if out, _ := h.take(); len(out) != 0 {
		t.Error("a hidden BSS answered a wildcard probe")
	}
	h.air(ieee80211.AppendProbeReq(nil, staMAC, "airq-test", gRates, h.nextSeq()))
	out, _ = h.take()
	pr := findMgmt(t, out, ieee80211.SubtypeProbeResp, staMAC)
	bc, _ = ieee80211.ParseBeacon(pr.Body())
	if ssid, _ := bc.Elements().Find(ieee80211.ElemSSID); string(ssid) != "airq-test" {
		t.Errorf("directed probe response SSID %q", ssid)
	}
}

func TestAssociateAndBridge(t *testing.T) {
	h := newHarness(t, Config{WMM: true})
	h.take()
	if aid := h.join(staMAC, true); aid != 1 {
		t.Fatalf("AID %d, want 1", aid)
	}
	var connected bool
	for _, e := range h.takeEvents() {
		connected = e.Kind == EventConnected && e.Addr == staMAC && e.AID == 1
	}
	if !connected {
		t.Error("no connected event")
	}

	// Uplink: the station's QoS data reaches the wired side as 802.3.
	h.air(h.upIPv4(staMAC, host, 0, true))
	_, wired := h.take()
	if len(wired) != 1 {
		t.Fatalf("%d wired frames, want 1", len(wired))
	}
	e, _ := ieee80211.ParseEtherHdr(wired[0])
	if e.Dst() != host || e.Src() != staMAC || e.EtherType() != 0x0800 || len(e.Payload()) != 84 {
		t.Errorf("wired frame %x", wired[0])
	}

	// Downlink: DSCP EF (46) goes out as QoS data on TID 5 at the station's
	// best rate, FromDS, with the payload intact.
	h.wire(eth(staMAC, host, 46<<2))
	out, _ := h.take()
	if len(out) != 1 {
		t.Fatalf("%d radio frames, want 1", len(out))
	}
	rx, fr := parsed(t, out[0])
	if !fr.FromDS() || fr.ToDS() || fr.Addr1() != staMAC || fr.Addr2() != bssid || fr.Addr3() != host {
		t.Errorf("addresses %s %s %s", fr.Addr1(), fr.Addr2(), fr.Addr3())
	}
	if !fr.IsQoS() || fr.TID() != 5 || fr.Seq() != 0 {
		t.Errorf("QoS %v TID %d seq %d, want QoS TID 5 seq 0", fr.IsQoS(), fr.TID(), fr.Seq())
	}
	// Rate control picks among the rates the station advertised, never the
	// 1 Mbit/s a driver would use without a radiotap rate.
	if k := rx.Rate.Kbps(); k < 6000 || rx.Rate.Mode != radio.ModeLegacy {
		t.Errorf("rate %+v", rx.Rate)
	}
	if et, payload, ok := ieee80211.Decap(fr.Body()); !ok || et != 0x0800 || len(payload) != 84 || payload[1] != 46<<2 {
		t.Errorf("payload: type %#x len %d", et, len(payload))
	}
	s := &h.a.sta.slots[1]
	if n := h.a.air.StationInFlight(1, ieee80211.ACVI); n != 1 || h.a.air.Pending(1, ieee80211.ACVI) == 0 {
		t.Errorf("in flight %d, pending %d µs; want 1 and some", n, h.a.air.Pending(1, ieee80211.ACVI))
	}
	h.echo(out[0], radio.TxStatus{Acked: true, Retries: 2})
	if h.a.air.StationInFlight(1, ieee80211.ACVI) != 0 || h.a.air.Total() != 0 || s.TxPackets != 1 || s.TxRetries != 2 {
		t.Errorf("after echo: in flight %d, pending %d, tx %d, retries %d", h.a.air.StationInFlight(1, ieee80211.ACVI), h.a.air.Total(), s.TxPackets, s.TxRetries)
	}
	// The station is charged the airtime of three attempts at that rate.
	if want := 3 * h.a.est.Airtime(rx.Rate, ieee80211.ACVI, len(fr)); s.TxAirtime != uint64(want) {
		t.Errorf("charged %d µs, want %d", s.TxAirtime, want)
	}
	if !h.a.Accounted() {
		t.Errorf("downlink not accounted: %+v backlog %d", h.a.Counters(), h.a.Backlog())
	}

	// The station leaves: its frames are no longer accepted.
	h.air(ieee80211.AppendDeauth(h.mgmt(ieee80211.SubtypeDeauth, staMAC), ieee80211.ReasonDeauthLeaving))
	h.wire(eth(staMAC, host, 0))
	if c := h.a.Counters(); c[counter.WiredDroppedNoStation] != 1 || !h.a.Accounted() {
		t.Errorf("after deauth: no-station drops %d", c[counter.WiredDroppedNoStation])
	}
}

func TestNonQoSStationGetsPlainData(t *testing.T) {
	h := newHarness(t, Config{WMM: true})
	h.take()
	h.join(staMAC, false)
	h.wire(eth(staMAC, host, 46<<2))
	out, _ := h.take()
	if len(out) != 1 {
		t.Fatalf("%d frames", len(out))
	}
	_, fr := parsed(t, out[0])
	if fr.IsQoS() {
		t.Error("QoS data to a station without WMM")
	}
}

func TestAssociationRefusals(t *testing.T) {
	other := ieee80211.MAC{0x02, 0, 0, 0, 0x03, 0}
	for _, c := range []struct {
		name   string
		cfg    Config
		do     func(h *harness)
		status uint16
	}{
		{"wrong SSID", Config{}, func(h *harness) { h.auth(staMAC, 0, 1); h.assoc(staMAC, "nope", gRates, false) }, ieee80211.StatusUnspecified},
		{"no basic rates", Config{}, func(h *harness) { h.auth(staMAC, 0, 1); h.assoc(staMAC, "airq-test", []byte{12, 24, 48}, false) }, ieee80211.StatusAssocDeniedRates},
		{"BSS full", Config{MaxStations: 1}, func(h *harness) {
			h.join(other, false)
			h.air(h.upIPv4(other, host, 0, false)) // it carries traffic: not evicted
			h.auth(staMAC, 0, 1)
			h.assoc(staMAC, "airq-test", gRates, false)
		}, ieee80211.StatusAPUnableToHandleNewSta},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, c.cfg)
			h.take()
			c.do(h)
			out, _ := h.take()
			ar, _ := ieee80211.ParseAssocResp(findMgmt(t, out, ieee80211.SubtypeAssocResp, staMAC).Body())
			if ar.Status() != c.status {
				t.Errorf("status %d, want %d", ar.Status(), c.status)
			}
		})
	}
}

func TestAuthRefusalsAndStrangers(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	h.auth(staMAC, 1, 1) // shared key
	out, _ := h.take()
	au, _ := ieee80211.ParseAuth(findMgmt(t, out, ieee80211.SubtypeAuth, staMAC).Body())
	if au.Status() != ieee80211.StatusNotSupportedAuthAlg {
		t.Errorf("shared key: status %d", au.Status())
	}
	// Association without authentication, and data from a stranger, are
	// answered with a deauthentication.
	h.assoc(staMAC, "airq-test", gRates, false)
	out, _ = h.take()
	d, _ := ieee80211.ParseDeauth(findMgmt(t, out, ieee80211.SubtypeDeauth, staMAC).Body())
	if d.Reason() != ieee80211.ReasonClass2FromNonAuth {
		t.Errorf("reason %d", d.Reason())
	}
	h.air(h.upIPv4(staMAC, host, 0, false))
	out, wired := h.take()
	if len(wired) != 0 {
		t.Error("a stranger's data reached the wired side")
	}
	d, _ = ieee80211.ParseDeauth(findMgmt(t, out, ieee80211.SubtypeDeauth, staMAC).Body())
	if d.Reason() != ieee80211.ReasonClass3FromNonAssoc {
		t.Errorf("reason %d", d.Reason())
	}
}

func TestDuplicateUplinkDropped(t *testing.T) {
	h := newHarness(t, Config{WMM: true})
	h.take()
	h.join(staMAC, true)
	f := h.upIPv4(staMAC, host, 0, true)
	h.air(f)
	retry := append([]byte(nil), f...)
	retry[1] |= 0x08 // Retry bit
	h.air(retry)
	_, wired := h.take()
	if len(wired) != 1 || h.a.Counters()[counter.RxDuplicates] != 1 {
		t.Errorf("%d wired frames, %d duplicates", len(wired), h.a.Counters()[counter.RxDuplicates])
	}
}

func TestEchoMatching(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	h.join(staMAC, false)
	h.take()
	for range 3 {
		h.wire(eth(staMAC, host, 0))
	}
	out, _ := h.take()
	if len(out) != 3 {
		t.Fatalf("%d frames", len(out))
	}
	// Only the third echo arrives: the first two complete as "no status".
	h.echo(out[2], radio.TxStatus{Acked: false})
	s := &h.a.sta.slots[1]
	if s.TxNoStatus != 2 || s.TxFailed != 1 || h.a.air.StationInFlight(1, ieee80211.ACBE) != 0 || h.a.air.Total() != 0 {
		t.Errorf("no status %d failed %d in flight %d", s.TxNoStatus, s.TxFailed, h.a.air.StationInFlight(1, ieee80211.ACBE))
	}
	// A late duplicate echo completes nothing.
	h.echo(out[0], radio.TxStatus{Acked: true})
	if s.TxPackets != 0 || h.a.Counters()[counter.EchoUnmatched] == 0 {
		t.Errorf("late echo completed a record")
	}
}

func TestInFlightCapAndTimeout(t *testing.T) {
	h := newHarness(t, Config{InFlightPerAC: 4, EchoTimeout: 500 * time.Millisecond})
	h.take()
	h.join(staMAC, false)
	h.take()
	for range 10 {
		h.wire(eth(staMAC, host, 0))
	}
	out, _ := h.take()
	if len(out) != 4 || h.a.Backlog() != 6 {
		t.Fatalf("%d sent, %d queued; want 4 and 6", len(out), h.a.Backlog())
	}
	// No echo ever comes: the backstop completes them and the rest flows.
	h.advance(600 * time.Millisecond)
	out, _ = h.take()
	data := 0
	for _, b := range out {
		if _, fr := parsed(t, b); fr.Type() == ieee80211.TypeData {
			data++
		}
	}
	if data != 4 || h.a.Counters()[counter.TimedOut] < 4 || !h.a.Accounted() {
		t.Errorf("%d data frames after the timeout, %d timed out", data, h.a.Counters()[counter.TimedOut])
	}
}

func TestBadConfig(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{SSID: "", BSSID: bssid, Channel: 1}, "ssid"},
		{Config{SSID: "x", Channel: 1}, "bssid"},
		{Config{SSID: "x", BSSID: bssid, Channel: 99}, "channel"},
		{Config{SSID: "x", BSSID: bssid, Channel: 1, DTIMPeriod: 300}, "dtim_period"},
		{Config{SSID: "x", BSSID: bssid, Channel: 1, Rates: []int{1000, 7000}, BasicRates: []int{1000}}, "supported_rates"},
		{Config{SSID: "x", BSSID: bssid, Channel: 1, Rates: []int{1000}, BasicRates: []int{2000}}, "basic_rates"},
	} {
		_, err := New(c.cfg)
		if err == nil || len(err.Error()) < len(c.want) || err.Error()[:len(c.want)] != c.want {
			t.Errorf("%+v: error %v, want one naming %s", c.cfg, err, c.want)
		}
	}
}

// FuzzHandleRadio feeds arbitrary bytes to the core's receive path: it must
// never panic, and the downlink accounting must hold afterwards.
func FuzzHandleRadio(f *testing.F) {
	rt := radiotap.AppendRx(nil, radio.RxInfo{Freq: 2412, Signal: -40, HasSignal: true})
	f.Add(append(append([]byte(nil), rt...), ieee80211.AppendProbeReq(nil, staMAC, "", gRates, 1)...))
	f.Add(append(append([]byte(nil), rt...), ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, bssid, staMAC, bssid, 2), 0, 1, 0)...))
	f.Add(append(append([]byte(nil), rt...), 0x08, 0x01, 0, 0))
	f.Add([]byte{0, 0, 8, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		h := newHarness(t, Config{WMM: true})
		h.join(staMAC, true)
		h.a.HandleRadio(h.now, b)
		h.collect()
		h.wire(eth(staMAC, host, 0))
		if !h.a.Accounted() {
			t.Fatal("accounting broken")
		}
	})
}

func TestAQLLimitsWhatIsInFlight(t *testing.T) {
	lim := aql.DefaultLimits()
	lim.Low[ieee80211.ACBE], lim.High[ieee80211.ACBE] = 500, 1000
	h := newHarness(t, Config{AQL: lim})
	h.take()
	h.auth(staMAC, 0, 1)
	h.assoc(staMAC, "airq-test", []byte{0x82, 0x84, 0x8b, 0x96}, false) // an 802.11b station
	h.acceptAssoc(staMAC)
	for range 6 {
		h.wire(eth(staMAC, host, 0))
	}
	out, _ := h.take()
	if len(out) == 0 {
		t.Fatal("nothing sent")
	}
	// Frames go out while the station's pending airtime is under the high
	// limit (the threshold is far away).
	rx, fr := parsed(t, out[0])
	per := h.a.est.Airtime(rx.Rate, ieee80211.ACBE, len(fr))
	want := int((1000 + per - 1) / per)
	if len(out) != want || h.a.Backlog() != 6-want {
		t.Fatalf("%d sent, %d queued; want %d sent (%d µs each) under a 500/1000 µs BE limit", len(out), h.a.Backlog(), want, per)
	}
	h.echo(out[0], radio.TxStatus{Acked: true})
	more, _ := h.take()
	if len(more) != 1 {
		t.Errorf("a completion released %d frames, want 1", len(more))
	}
	if !h.a.Accounted() {
		t.Error("not accounted")
	}
}

func TestReassociationReclaimsAirtime(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	h.join(staMAC, false)
	for range 3 {
		h.wire(eth(staMAC, host, 0))
	}
	h.take()
	if h.a.air.Total() == 0 {
		t.Fatal("nothing pending")
	}
	h.join(staMAC, false) // associates again: a new session
	if h.a.air.Total() != 0 || h.a.air.Pending(1, ieee80211.ACBE) != 0 {
		t.Errorf("pending %d µs after reassociation, want 0", h.a.air.Total())
	}
	if c := h.a.air.Counters(); c.Underflows != 0 {
		t.Errorf("%d underflows", c.Underflows)
	}
}

// TestControlledPort: before a station is authorized only EAPOL crosses
// the AP, both ways; open networks authorize at association.
func TestControlledPort(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	h.join(staMAC, false)
	s := &h.a.sta.slots[1]
	if !s.Authorized {
		t.Fatal("an open-system station is not authorized at association")
	}
	s.Authorized = false // as an RSN authenticator would keep it until its handshake
	h.air(h.upIPv4(staMAC, host, 0, false))
	eapol := ieee80211.AppendDataHeader(nil, ieee80211.DataHeader{Flags: ieee80211.FCToDS, Addr1: bssid, Addr2: staMAC, Addr3: host, Seq: h.nextSeq()})
	eapol = ieee80211.AppendLLCSNAP(eapol, etherTypeEAPOL)
	h.air(append(eapol, 1, 3, 0, 0))
	_, wired := h.take()
	if len(wired) != 1 || h.a.Counters()[counter.RxUnauthorized] != 1 {
		t.Errorf("%d wired frames (want the EAPOL one), %d unauthorized", len(wired), h.a.Counters()[counter.RxUnauthorized])
	}
	h.wire(eth(staMAC, host, 0))
	h.wire(append(ieee80211.AppendEtherHdr(nil, staMAC, host, etherTypeEAPOL), 1, 3, 0, 0))
	out, _ := h.take()
	if d := dataFrames(t, out); len(d) != 1 || h.a.Counters()[counter.WiredDroppedUnauthorized] != 1 || !h.a.Accounted() {
		t.Errorf("%d frames to an unauthorized station (want the EAPOL one)", len(d))
	}
}

// TestNotSentCompletesAtOnce: a frame the radio refused releases its
// airtime and buffer at once, and the records after it keep their order.
func TestNotSentCompletesAtOnce(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	h.join(staMAC, false)
	h.take()
	noStatus := h.a.Counters()[counter.NoStatus] // the authentication response's echo, never sent
	for i := range 3 {
		h.refuseNext = i == 1 // the radio refuses the second frame
		h.wire(eth(staMAC, host, 0))
	}
	out, _ := h.take()
	if c := h.a.Counters(); c[counter.NotSent] != 1 || h.a.InFlight() != 2 || !h.a.Accounted() || len(out) != 2 {
		t.Fatalf("not sent %d, in flight %d, written %d", c[counter.NotSent], h.a.InFlight(), len(out))
	}
	h.echo(out[1], radio.TxStatus{Acked: true})
	c := h.a.Counters()
	if c[counter.NoStatus] != noStatus+1 || c[counter.WiredSent] != 3 || h.a.InFlight() != 0 || h.a.air.Total() != 0 || !h.a.Accounted() {
		t.Errorf("no status %d (want only the first), sent %d, in flight %d", c[counter.NoStatus], c[counter.WiredSent], h.a.InFlight())
	}
}

// TestDirectedProbeAnswered: a probe request addressed to the BSSID (a
// roaming or keep-alive client, or one looking for a hidden SSID) is
// answered like a broadcast one; one naming another BSSID is not.
func TestDirectedProbeAnswered(t *testing.T) {
	for _, hidden := range []bool{false, true} {
		h := newHarness(t, Config{HideSSID: hidden})
		h.take()
		b := ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeProbeReq, bssid, staMAC, bssid, h.nextSeq())
		b = ieee80211.AppendSSID(b, "airq-test")
		h.air(ieee80211.AppendRates(b, gRates))
		out, _ := h.take()
		pr := findMgmt(t, out, ieee80211.SubtypeProbeResp, staMAC)
		if bc, _ := ieee80211.ParseBeacon(pr.Body()); bc == nil {
			t.Fatalf("hidden=%v: probe response without a body", hidden)
		}
		other := ieee80211.MAC{0x02, 0, 0, 0, 0x09, 0}
		b = ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeProbeReq, ieee80211.Broadcast, staMAC, other, h.nextSeq())
		b = ieee80211.AppendSSID(b, "airq-test")
		h.air(ieee80211.AppendRates(b, gRates))
		if out, _ := h.take(); len(out) != 0 {
			t.Errorf("hidden=%v: answered a probe for BSSID %s", hidden, other)
		}
	}
}
