package ap

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
)

var (
	guest2ID = ieee80211.MAC{0x02, 0, 0, 0, 0x02, 2}
	guest3ID = ieee80211.MAC{0x02, 0, 0, 0, 0x02, 3}
)

// threeBSSes is a radio carrying its own BSS and two open ones beside it,
// with DTIM periods 2, 1 and 3.
func threeBSSes() Config {
	return Config{BSSes: []BSSConfig{
		{BSSID: guest2ID, SSID: "guest", DTIMPeriod: 1},
		{BSSID: guest3ID, SSID: "iot", DTIMPeriod: 3},
	}}
}

// TestBSSesBeaconAtTheirOwnTBTTs: each of three BSSes beacons once an
// interval at its own TBTT, a third of an interval after the one before,
// with a Timestamp that is a multiple of the interval at its TBTT (where
// its stations compute it), its own DTIM count, and no TBTT missed.
func TestBSSesBeaconAtTheirOwnTBTTs(t *testing.T) {
	h := newHarness(t, threeBSSes())
	period := h.a.beaconPeriod()
	ids := []ieee80211.MAC{bssid, guest2ID, guest3ID}
	dtim := []uint8{2, 1, 3}
	first := map[ieee80211.MAC]time.Duration{}
	last := map[ieee80211.MAC]time.Duration{}
	count := map[ieee80211.MAC]int{}
	check := func(out [][]byte) {
		for _, b := range out {
			_, fr := parsed(t, b)
			if !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
				continue
			}
			from := fr.Addr2()
			bc, err := ieee80211.ParseBeacon(fr.Body())
			if err != nil {
				t.Fatal(err)
			}
			if ts := bc.Timestamp(); ts%uint64(period/time.Microsecond) != 0 {
				t.Errorf("%s's beacon at %v: Timestamp %d µs, not a multiple of the interval", from, h.now, ts)
			}
			tim := timOf(t, fr)
			i := 0
			for ids[i] != from {
				i++
			}
			if want := uint8((dtim[i] - uint8(count[from]%int(dtim[i]))) % dtim[i]); tim.DTIMPeriod() != dtim[i] || tim.DTIMCount() != want {
				t.Errorf("%s's beacon %d: DTIM %d/%d, want %d/%d", from, count[from], tim.DTIMCount(), tim.DTIMPeriod(), want, dtim[i])
			}
			if _, ok := first[from]; !ok {
				first[from] = h.now
			} else if d := h.now - last[from]; d != period {
				t.Errorf("%s beaconed %v after its last beacon, want %v", from, d, period)
			}
			last[from] = h.now
			count[from]++
		}
	}
	check(h.radio)
	h.take()
	end := 60 * time.Second
	for h.now < end {
		h.advance(h.a.Deadline() - h.now)
		out, _ := h.take()
		check(out)
	}
	want := int(end/period) + 1
	for i, id := range ids {
		if count[id] < want-1 {
			t.Errorf("%s: %d beacons in %v, want %d", id, count[id], end, want)
		}
		if off := first[id] - first[bssid]; off != (period * time.Duration(i) / 3).Truncate(time.Microsecond) {
			t.Errorf("%s's TBTT %v after the first BSS's, want a third of an interval times %d", id, off, i)
		}
	}
	if m := h.a.beacons.MissedIntervals; m != 0 {
		t.Errorf("%d TBTTs missed", m)
	}
}

// timOf returns the TIM of beacon fr.
func timOf(t *testing.T, fr ieee80211.Frame) ieee80211.TIM {
	t.Helper()
	bc, err := ieee80211.ParseBeacon(fr.Body())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := bc.Elements().Find(ieee80211.ElemTIM)
	tim, err := ieee80211.ParseTIM(body)
	if err != nil {
		t.Fatal(err)
	}
	return tim
}

// TestProbeResponseTSFIsItsBSSs: a BSS's probe response carries its own
// TSF, the one its beacons carry, not the first BSS's.
func TestProbeResponseTSFIsItsBSSs(t *testing.T) {
	h := newHarness(t, threeBSSes())
	h.advance(5 * time.Millisecond)
	h.take()
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	h.air(ieee80211.AppendSSID(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeProbeReq, ieee80211.Broadcast, sta, ieee80211.Broadcast, h.nextSeq()), ""))
	out, _ := h.take()
	got := map[ieee80211.MAC]uint64{}
	for _, b := range out {
		if _, fr := parsed(t, b); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeProbeResp) {
			pr, _ := ieee80211.ParseBeacon(fr.Body())
			got[fr.Addr2()] = pr.Timestamp()
		}
	}
	if len(got) != 3 {
		t.Fatalf("probe responses from %v, want each of the three BSSes", got)
	}
	for i, r := range h.a.radios {
		if want := r.TSF(h.now); got[r.b.BSSID] != want {
			t.Errorf("BSS %d's probe response: TSF %d, want its own %d", i, got[r.b.BSSID], want)
		}
	}
	if got[guest2ID] == got[bssid] {
		t.Error("the second BSS's TSF is the first's: its TBTTs are not where its stations compute them")
	}
}

// TestBSSesStationsApart: a station joins the BSS it asks for, gets an AID
// no other station of the radio holds, and appears in that BSS's TIM
// alone while it dozes with frames waiting.
func TestBSSesStationsApart(t *testing.T) {
	h := newHarness(t, threeBSSes())
	a, b := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}, ieee80211.MAC{0x02, 0, 0, 0, 0x10, 2}
	aid := h.join(a, false)
	id := guest2ID
	aidB := h.joinGuest(b)
	if aidB == 0 || aidB == aid {
		t.Fatalf("AIDs %d and %d", aid, aidB)
	}
	if h.a.bsses[1].Associated != 1 || h.a.bss.Associated != 1 || h.a.bsses[1].Stations.Len() != 1 {
		t.Errorf("associated: %d and %d; want one in each", h.a.bss.Associated, h.a.bsses[1].Associated)
	}
	h.air(ieee80211.AppendNullData(nil, id, b, h.nextSeq(), true))
	h.wireTo(1, eth(b, ieee80211.MAC{0x02, 0, 0, 0, 0x30, 1}, 0))
	h.take()
	tims := map[ieee80211.MAC]ieee80211.TIM{}
	for len(tims) < 3 {
		h.advance(h.a.Deadline() - h.now)
		out, _ := h.take()
		for _, f := range out {
			if _, fr := parsed(t, f); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
				tims[fr.Addr2()] = timOf(t, fr)
			}
		}
	}
	if !tims[guest2ID].HasAID(aidB) {
		t.Error("the dozing station's BSS does not announce its frames")
	}
	if tims[bssid].HasAID(aidB) || tims[guest3ID].HasAID(aidB) {
		t.Error("another BSS announces the dozing station's frames")
	}
}

// joinTwoEach associates two stations with the first BSS and two with the
// second, "guest", and returns their addresses.
func (h *harness) joinTwoEach() (main1, main2, guest1, guest2 ieee80211.MAC) {
	main1, main2 = ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}, ieee80211.MAC{0x02, 0, 0, 0, 0x10, 2}
	guest1, guest2 = ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}, ieee80211.MAC{0x02, 0, 0, 0, 0x20, 2}
	h.join(main1, false)
	h.join(main2, false)
	h.joinGuest(guest1)
	h.joinGuest(guest2)
	return main1, main2, guest1, guest2
}

// joinGuest associates sta with the radio's second BSS, "guest".
func (h *harness) joinGuest(sta ieee80211.MAC) uint16 {
	h.t.Helper()
	return h.joinBSS(sta, guest2ID, "guest")
}

// joinBSS associates sta with the radio's BSS id, whose SSID is ssid.
func (h *harness) joinBSS(sta, id ieee80211.MAC, ssid string) uint16 {
	h.t.Helper()
	h.take()
	h.air(ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, id, sta, id, h.nextSeq()), 0, 1, 0))
	out, _ := h.take()
	for _, f := range out {
		if _, fr := parsed(h.t, f); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeAuth) && fr.Addr1() == sta {
			h.echo(f, radio.TxStatus{Acked: true})
		}
	}
	h.take()
	req := ieee80211.AppendAssocReq(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAssocReq, id, sta, id, h.nextSeq()), 0x0421, 10)
	h.air(ieee80211.AppendRates(ieee80211.AppendSSID(req, ssid), gRates))
	return h.acceptAssoc(sta)
}

// TestNothingCrossesBSSesInTheAir: a station's frame to a station of
// another BSS of the radio, unicast or group-addressed, goes to the wired
// side of the sender's BSS only, never over the air; within one BSS the
// radio still relays; a wired side's frames reach its own BSS alone.
func TestNothingCrossesBSSesInTheAir(t *testing.T) {
	h := newHarness(t, threeBSSes())
	main1, main2, guest1, _ := h.joinTwoEach()
	// send returns the BSSIDs the data frames in the air came from, and
	// how many frames went to the wired side of BSS side (the one a
	// wired frame comes from).
	side := 1
	send := func(frame []byte) (air []ieee80211.MAC, wired int) {
		h.take()
		if frame[0]&0x0c == 0x08 && frame[1]&0x01 != 0 { // to DS: from a station
			h.air(frame)
		} else {
			h.wireTo(side, frame)
		}
		h.advance(0)
		sides := h.wiredBSS
		out, w := h.take()
		for _, f := range out {
			if _, fr := parsed(t, f); fr.Type() == ieee80211.TypeData && !fr.IsNull() {
				air = append(air, fr.Addr2())
			}
		}
		for i := range w {
			if sides[i] == side {
				wired++
			}
		}
		return air, wired
	}
	fromGuest := func(dst ieee80211.MAC) []byte {
		f := h.upIPv4(guest1, dst, 0, false)
		copy(f[4:10], guest2ID[:])
		return f
	}
	if air, wired := send(fromGuest(main1)); len(air) != 0 || wired != 1 {
		t.Errorf("guest to main: in the air from %v, %d to the wired side; want nothing and 1", air, wired)
	}
	if air, wired := send(fromGuest(ieee80211.Broadcast)); len(air) != 1 || air[0] != guest2ID || wired != 1 {
		t.Errorf("a guest's broadcast: in the air from %v, %d to the wired side; want the guest BSS alone and 1", air, wired)
	}
	side = 0
	if air, wired := send(h.upIPv4(main1, guest1, 0, false)); len(air) != 0 || wired != 1 {
		t.Errorf("main to guest: in the air from %v, %d to the wired side; want nothing and 1", air, wired)
	}
	if air, _ := send(h.upIPv4(main1, ieee80211.Broadcast, 0, false)); len(air) != 1 || air[0] != bssid {
		t.Errorf("a main station's broadcast: in the air from %v, want the main BSS alone", air)
	}
	if air, _ := send(h.upIPv4(main1, main2, 0, false)); len(air) != 1 || air[0] != bssid {
		t.Errorf("main to main: in the air from %v, want the radio's relay", air)
	}
	// A station's frame to itself is not reflected back to it, as in
	// mac80211 (ieee80211_deliver_skb): it goes to the wired side.
	if air, wired := send(h.upIPv4(main1, main1, 0, false)); len(air) != 0 || wired != 1 {
		t.Errorf("main to itself: in the air from %v, %d to the wired side; want nothing and 1", air, wired)
	}
	// A wired side's broadcast reaches its own BSS's stations alone, from
	// its BSSID; the third BSS has none to reach.
	host := ieee80211.MAC{0x02, 0, 0, 0, 0x30, 1}
	for i, want := range []ieee80211.MAC{bssid, guest2ID} {
		side = i
		if air, _ := send(eth(ieee80211.Broadcast, host, 0)); len(air) != 1 || air[0] != want {
			t.Errorf("BSS %d's wired broadcast: in the air from %v, want %v alone", i, air, want)
		}
	}
	side = 2
	if air, _ := send(eth(ieee80211.Broadcast, host, 0)); len(air) != 0 || h.a.cnt[counter.WiredDroppedNoStation] != 1 {
		t.Errorf("a broadcast to a BSS without stations: in the air from %v; %v", air, h.a.cnt.String())
	}
	if !h.a.Accounted() {
		t.Errorf("the downlink's books do not balance: %v", h.a.cnt.String())
	}
}

// TestNewChecksEachBSSsSecurity: a secured BSS beside the first has its
// section checked as the first's is, the error naming the BSS.
func TestNewChecksEachBSSsSecurity(t *testing.T) {
	cfg := threeBSSes()
	cfg.SSID, cfg.BSSID, cfg.Channel = "main", bssid, 1
	cfg.BSSes[1].RSN = &RSNConfig{}
	_, err := New(cfg)
	if err == nil || !strings.Contains(err.Error(), "bss 3 (iot)") || !strings.Contains(err.Error(), "wpa_passphrase") {
		t.Errorf("New: %v; want the third BSS refused without a passphrase", err)
	}
	cfg = threeBSSes()
	cfg.SSID, cfg.BSSID, cfg.Channel = "main", bssid, 1
	cfg.BSSes[1].BSSID = guest2ID
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "another BSS's") {
		t.Errorf("New with a BSSID twice: %v", err)
	}
	cfg = Config{SSID: "main", BSSID: bssid, Channel: 1, BSSes: make([]BSSConfig, MaxBSSes)}
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "at most 8") {
		t.Errorf("New with 9 BSSes: %v", err)
	}
}

// idleBSSBudget bounds what an idle BSS beside the first costs: its
// station table's index (addresses, free AIDs, eviction links and records
// for 2007 AIDs: about 65 KiB), its known senders and answered record
// (most of the rest), its reply budget; about 157 KiB in all.
const idleBSSBudget = 176 << 10

// TestIdleBSSMemory: what each BSS beside the first holds on the live
// heap once the radio has started, with no station: the core with eight
// BSSes against the core with one, per BSS.
func TestIdleBSSMemory(t *testing.T) {
	per, one := idleBSSCost(t, func() *RSNConfig { return nil })
	t.Logf("an idle BSS beside the first: %.1f KiB of live heap (the radio with one: %d KiB)", per/1024, one>>10)
	if per > idleBSSBudget {
		t.Errorf("an idle BSS holds %.0f bytes, want at most %d", per, idleBSSBudget)
	}
}

// idleSecuredBSSBudget bounds what an idle secured BSS beside the first
// costs: an open one's and its RSN (authenticator, GTK and IGTK with
// their AES schedules, the PSK set, the SAE PTs and PMKSA cache), a few
// KiB more.
const idleSecuredBSSBudget = 184 << 10

// TestIdleSecuredBSSMemory: TestIdleBSSMemory for secured BSSes, WPA2
// with a passphrase and WPA2/WPA3 transition with PMF, each with its
// first GTK (and IGTK) once the radio has started, the first BSS secured
// alike in both radios.
func TestIdleSecuredBSSMemory(t *testing.T) {
	for _, c := range []struct {
		name string
		rsn  func() *RSNConfig
	}{
		{"WPA2-Personal", func() *RSNConfig { return &RSNConfig{Passphrase: bss.NewPassphrase(guestPassphrase)} }},
		{"WPA2/WPA3-Personal transition, PMF optional", func() *RSNConfig {
			return &RSNConfig{AKMs: []rsn.AKM{rsn.AKMPSK, rsn.AKMSAE}, MFP: rsn.MFPOptional, Passphrase: bss.NewPassphrase(guestPassphrase)}
		}},
	} {
		per, _ := idleBSSCost(t, c.rsn)
		t.Logf("an idle %s BSS beside the first: %.1f KiB of live heap", c.name, per/1024)
		if per > idleSecuredBSSBudget {
			t.Errorf("an idle %s BSS holds %.0f bytes, want at most %d", c.name, per, idleSecuredBSSBudget)
		}
	}
}

// idleBSSCost is what each BSS beside the first holds on the live heap
// once the radio has started, with no station: the core with eight BSSes
// against the core with one, per BSS, each BSS secured with secure's
// section (nil: open); one is the radio with one BSS.
func idleBSSCost(t *testing.T, secure func() *RSNConfig) (per float64, one uint64) {
	heldBy := func(cfg Config) uint64 {
		cfg.SSID, cfg.BSSID, cfg.Channel, cfg.RSN = "main", bssid, 1, secure()
		before := liveHeap()
		a, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		a.Start(0)
		a.Flush(0, discard{})
		held := liveHeap() - before
		runtime.KeepAlive(a)
		return held
	}
	var cfg Config
	for i := range MaxBSSes - 1 {
		cfg.BSSes = append(cfg.BSSes, BSSConfig{BSSID: ieee80211.MAC{0x02, 0, 0, 0, 0x03, byte(i)}, SSID: fmt.Sprint("guest", i), RSN: secure()})
	}
	one = heldBy(Config{})
	return (float64(heldBy(cfg)) - float64(one)) / float64(MaxBSSes-1), one
}

// dozingGuest associates sta with the guest BSS and puts it in power save.
func (h *harness) dozingGuest(sta ieee80211.MAC) {
	h.t.Helper()
	h.joinGuest(sta)
	h.air(ieee80211.AppendNullData(nil, guest2ID, sta, h.nextSeq(), true))
	h.take()
}

// TestGroupFramesWaitForTheirOwnBSSsDTIM: with a station of the guest BSS
// dozing, the main BSS's broadcast goes out at once; the guest's waits
// for the guest's DTIM beacon, and only the guest's beacons announce it,
// even with a station of the main BSS dozing too.
func TestGroupFramesWaitForTheirOwnBSSsDTIM(t *testing.T) {
	cfg := threeBSSes()
	cfg.BSSes[0].DTIMPeriod = 3
	h := newHarness(t, cfg)
	main1, guest1 := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}, ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}
	h.join(main1, false)
	h.dozingGuest(guest1)
	h.wire(eth(ieee80211.Broadcast, ieee80211.MAC{0x02, 0, 0, 0, 0x30, 1}, 0))
	out, _ := h.take()
	if d := dataFrames(t, out); len(d) != 1 || d[0].Addr2() != bssid || !d[0].Addr1().IsMulticast() {
		t.Fatalf("main BSS's broadcast with a guest station dozing: %d frames at once, want 1 from %s", len(d), bssid)
	}
	h.null(main1, true)
	h.wireTo(1, eth(ieee80211.Broadcast, ieee80211.MAC{0x02, 0, 0, 0, 0x30, 2}, 0))
	if out, _ := h.take(); len(dataFrames(t, out)) != 0 {
		t.Fatal("guest broadcast sent while a guest station dozes, before the guest's DTIM")
	}
	var guestDTIM, mainDTIM, sent bool
	for i := 0; i < 30 && !(sent && mainDTIM); i++ {
		h.advance(h.a.Deadline() - h.now)
		out, _ := h.take()
		out = append(out, h.afterBeacons(out)...)
		for _, f := range out {
			_, fr := parsed(t, f)
			switch {
			case fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon):
				tim := timOf(t, fr)
				switch fr.Addr2() {
				case guest2ID:
					guestDTIM = tim.DTIMCount() == 0 && tim.Multicast()
					if tim.Multicast() && (tim.DTIMCount() != 0 || sent) {
						t.Errorf("guest beacon at %v: DTIM count %d, group bit set with its frame sent %v", h.now, tim.DTIMCount(), sent)
					}
				case bssid:
					mainDTIM = mainDTIM || tim.DTIMCount() == 0
					if tim.Multicast() {
						t.Errorf("main beacon at %v (DTIM count %d) announces the guest's group frame", h.now, tim.DTIMCount())
					}
				}
			case fr.Type() == ieee80211.TypeData && fr.Addr1().IsMulticast():
				if fr.Addr2() != guest2ID || !guestDTIM || sent {
					t.Fatalf("group frame from %s at %v: want one, from %s after its DTIM beacon", fr.Addr2(), h.now, guest2ID)
				}
				sent = true
			}
		}
	}
	if !sent || !mainDTIM {
		t.Fatalf("guest's group frame sent %v, main DTIM beacon seen %v", sent, mainDTIM)
	}
	if !h.a.Accounted() {
		t.Error("not accounted")
	}
}

// TestGuestBroadcastFloodDoesNotDelayMain: while a flood of the guest
// BSS's broadcasts keeps the radio busy, a broadcast of the main BSS, of
// the same addresses, goes out after at most one more guest frame.
func TestGuestBroadcastFloodDoesNotDelayMain(t *testing.T) {
	h := newHarness(t, threeBSSes())
	h.join(ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}, false)
	h.joinGuest(ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1})
	h.take()
	host := ieee80211.MAC{0x02, 0, 0, 0, 0x30, 1}
	for range 200 {
		h.wireTo(1, eth(ieee80211.Broadcast, host, 0))
	}
	inFlight, _ := h.take()
	// The flood is under way: its flow has had its first quantum.
	for sent := len(inFlight); sent < 40 && len(inFlight) > 0; {
		h.echo(inFlight[0], radio.TxStatus{})
		out, _ := h.take()
		inFlight = append(inFlight[1:], out...)
		sent += len(out)
	}
	if h.a.Backlog() == 0 {
		t.Fatal("the flood fits in flight: nothing left queued")
	}
	h.wire(eth(ieee80211.Broadcast, host, 0))
	ahead := 0
	for len(inFlight) > 0 {
		h.echo(inFlight[0], radio.TxStatus{})
		out, _ := h.take()
		inFlight = append(inFlight[1:], out...)
		for _, d := range dataFrames(t, out) {
			if d.Addr2() == bssid {
				if ahead > 1 {
					t.Errorf("main broadcast after %d guest frames, want at most 1", ahead)
				}
				if !h.a.Accounted() {
					t.Error("not accounted")
				}
				return
			}
			ahead++
		}
	}
	t.Fatal("the main broadcast never went out")
}

// TestGroupBufferDropsItsOldest: a dozing station's BSS buffers at most
// groupBufferLen group frames, as mac80211 does, dropping the oldest,
// and the DTIM beacon releases the rest; every frame is accounted for.
func TestGroupBufferDropsItsOldest(t *testing.T) {
	h := newHarness(t, threeBSSes())
	h.dozingGuest(ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1})
	for i := range groupBufferLen + 10 {
		h.wireTo(1, eth(ieee80211.Broadcast, ieee80211.MAC{0x02, 0, 0, 0, 0x30, byte(i)}, 0))
	}
	if c := h.a.Counters(); c[counter.WiredDroppedQueueFull] != 10 || h.a.Backlog() != groupBufferLen || !h.a.Accounted() {
		t.Fatalf("dropped %d, backlog %d, want 10 and %d", c[counter.WiredDroppedQueueFull], h.a.Backlog(), groupBufferLen)
	}
	var d []ieee80211.Frame
	for i := 0; i < 10 && len(d) == 0; i++ {
		h.advance(h.a.Deadline() - h.now)
		out, _ := h.take()
		d = dataFrames(t, h.afterBeacons(out))
	}
	if len(d) == 0 || d[0].Addr3() != (ieee80211.MAC{0x02, 0, 0, 0, 0x30, 10}) || !d[0].MoreData() {
		t.Fatalf("after the DTIM: %d frames, the first not the oldest kept", len(d))
	}
	if !h.a.Accounted() {
		t.Error("not accounted")
	}
}

// TestBSSLoadCountsItsOwnStations: each BSS's BSS Load element counts its
// own stations, not the radio's.
func TestBSSLoadCountsItsOwnStations(t *testing.T) {
	cfg := threeBSSes()
	cfg.Advert = bss.Advert{BSSLoadPeriod: 1}
	cfg.BSSes[0].BSSLoadPeriod, cfg.BSSes[1].BSSLoadPeriod = 1, 1
	h := newHarness(t, cfg)
	h.join(ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}, false)
	h.joinGuest(ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1})
	h.joinGuest(ieee80211.MAC{0x02, 0, 0, 0, 0x20, 2})
	h.take()
	got := map[ieee80211.MAC]uint16{}
	for i := 0; i < 10 && len(got) < 3; i++ {
		h.advance(h.a.Deadline() - h.now)
		out, _ := h.take()
		for _, f := range out {
			if _, fr := parsed(t, f); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
				bc, _ := ieee80211.ParseBeacon(fr.Body())
				if body, ok := bc.Elements().Find(ieee80211.ElemBSSLoad); ok && len(body) == 5 {
					got[fr.Addr2()] = binary.LittleEndian.Uint16(body)
				}
			}
		}
	}
	if got[bssid] != 1 || got[guest2ID] != 2 || got[guest3ID] != 0 {
		t.Errorf("BSS Load station counts %v, want 1, 2 and 0", got)
	}
}

// TestGroupFramesTakenBackWhenTheirBSSDozes: guest broadcasts queued
// while no guest station dozed, and still queued when one dozes, are
// taken back into the guest's buffer as the queue hands them out, in
// their order, and follow the guest's next DTIM beacon.
func TestGroupFramesTakenBackWhenTheirBSSDozes(t *testing.T) {
	h := newHarness(t, threeBSSes())
	guest1 := ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}
	h.joinGuest(guest1)
	h.take()
	for i := range 100 {
		h.wireTo(1, eth(ieee80211.Broadcast, ieee80211.MAC{0x02, 0, 0, 0, 0x30, byte(i)}, 0))
	}
	inFlight, _ := h.take()
	if h.a.Backlog() == 0 {
		t.Fatal("nothing left queued")
	}
	h.air(ieee80211.AppendNullData(nil, guest2ID, guest1, h.nextSeq(), true))
	for _, f := range inFlight {
		h.echo(f, radio.TxStatus{})
	}
	if out, _ := h.take(); len(dataFrames(t, out)) != 0 {
		t.Fatal("queued guest broadcasts sent after a guest station dozed, before the guest's DTIM")
	}
	if r := h.a.radios[1]; r.group.n == 0 || !h.a.Accounted() {
		t.Fatalf("%d frames taken back into the guest's buffer", r.group.n)
	}
	next := byte(len(dataFrames(t, inFlight)))
	for i := 0; i < 10 && h.a.Backlog() > 0; i++ {
		h.advance(h.a.Deadline() - h.now)
		out, _ := h.take()
		out = h.afterBeacons(out)
		for len(out) > 0 {
			for _, d := range dataFrames(t, out) {
				if d.Addr3()[5] != next {
					t.Fatalf("after the DTIM: broadcast %d, want %d", d.Addr3()[5], next)
				}
				next++
			}
			for _, f := range out {
				h.echo(f, radio.TxStatus{})
			}
			out, _ = h.take()
		}
	}
	if next != 100 || !h.a.Accounted() {
		t.Errorf("%d broadcasts in order, want 100", next)
	}
}

// TestRestartDropsBSSsBufferedGroupFrames: a restarted BSS's buffered
// group frames go with its stations, counted as flushed.
func TestRestartDropsBSSsBufferedGroupFrames(t *testing.T) {
	h := newHarness(t, threeBSSes())
	h.dozingGuest(ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1})
	for range 3 {
		h.wireTo(1, eth(ieee80211.Broadcast, host, 0))
	}
	if err := h.a.RestartBSS(h.now, 1, BSSConfig{Name: "guest", SSID: "guest"}); err != nil {
		t.Fatal(err)
	}
	if c := h.a.Counters(); c[counter.WiredDroppedFlushed] != 3 || h.a.Backlog() != 0 || h.a.parked != 0 || !h.a.Accounted() {
		t.Errorf("flushed %d, backlog %d, parked %d; want 3, 0, 0", c[counter.WiredDroppedFlushed], h.a.Backlog(), h.a.parked)
	}
}
