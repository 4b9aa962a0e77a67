package ap

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
)

// A flood of forged messages 2: an attacker keeps several associations
// under addresses of its own, re-made as fast as the AP admits them,
// hears each message 1 and sends 1,000 messages 2 a second in their
// names, each with a random SNonce and MIC, against a BSS of 256 wildcard
// PSKs. What it costs the core is bounded (rsn/handshake's budget.go),
// and a station joining meanwhile completes its handshake.

const (
	floodPSKs      = 256
	floodAttackers = 8
	floodRate      = 1000                 // forged messages 2 a second
	floodRemake    = 5 * time.Millisecond // an attacker's association is re-made this often, if admitted
)

// msg2Flood is the attacker and the harness it floods.
type msg2Flood struct {
	h         *harness
	attackers []*wpaSTA
	replay    map[ieee80211.MAC]uint64 // the last message 1's replay counter, per attacker address
	rng       *rand.ChaCha8
	legit     *wpaSTA       // a station joining during the flood, or nil
	doneAt    time.Duration // when its handshake completed
	next      int           // the attacker whose name the next forged frame takes
	remake    int           // the attacker whose association is re-made next
	sent      int           // forged messages 2 sent
	core      time.Duration // wall-clock time spent in the core's calls
	msg1      int           // messages 1 the attackers heard
}

func floodConfig(t testing.TB, replyAirtime float64) Config {
	cfg := wpaConfig(t, rsn.AKMPSK)
	cfg.ReplyAirtime = replyAirtime
	r := rand.NewChaCha8([32]byte{3})
	psks := make([]bss.PSK, floodPSKs)
	for i := range psks[:floodPSKs-1] {
		var pmk rsn.PMK
		r.Read(pmk[:])
		psks[i] = bss.PSK{PMK: &pmk}
	}
	psks[floodPSKs-1] = cfg.RSN.PSKs[0] // the right one, tried last
	cfg.RSN.PSKs = psks
	return cfg
}

func newMsg2Flood(t testing.TB, replyAirtime float64) *msg2Flood {
	h := newHarness(t, floodConfig(t, replyAirtime))
	f := &msg2Flood{h: h, replay: map[ieee80211.MAC]uint64{}, rng: rand.NewChaCha8([32]byte{4})}
	for i := range floodAttackers {
		f.attackers = append(f.attackers, newWPASTA(h, ieee80211.MAC{0x02, 0xee, 0, 0, 0, byte(i)}, rsn.AKMPSK))
	}
	for range floodAttackers {
		f.remakeNext()
	}
	f.route()
	return f
}

// remakeNext authenticates and associates the next attacker address anew:
// the AP starts a handshake with a fresh message 1, if it answers.
func (f *msg2Flood) remakeNext() {
	w := f.attackers[f.remake]
	f.remake = (f.remake + 1) % len(f.attackers)
	h := f.h
	f.timed(func() { h.auth(w.addr, 0, 1) })
	b := ieee80211.AppendAssocReq(h.mgmt(ieee80211.SubtypeAssocReq, w.addr), 0x0431, 10)
	b = ieee80211.AppendSSID(b, h.a.cfg.SSID)
	b = ieee80211.AppendRates(b, gRates)
	b = append(b, w.rsne()...)
	b = ieee80211.AppendWMMInfo(b, 0)
	f.timed(func() { h.air(b) })
}

// forge sends a message 2 in the next attacker's name that has heard a
// message 1: its replay counter, a random SNonce and MIC.
func (f *msg2Flood) forge() {
	for range f.attackers {
		w := f.attackers[f.next]
		f.next = (f.next + 1) % len(f.attackers)
		replay, ok := f.replay[w.addr]
		if !ok {
			continue
		}
		var snonce rsn.Nonce
		f.rng.Read(snonce[:])
		m := rsn.KeyFrame(rsn.AppendKeyFrame(nil, &rsn.KeyFields{ProtocolVersion: 1, Replay: replay, Nonce: snonce,
			Info: rsn.VersionHMACSHA1 | rsn.InfoPairwise | rsn.InfoMIC, Data: w.rsne()}))
		f.rng.Read(m.MIC())
		fr := w.frame(etherTypeEAPOL, m, false, false)
		f.timed(func() { f.h.air(fr) })
		f.sent++
		return
	}
}

// timed runs fn, a call into the core, adding its wall-clock time to
// f.core.
func (f *msg2Flood) timed(fn func()) {
	start := time.Now()
	fn()
	f.core += time.Since(start)
}

// route hands what the AP sent to the joining station, notes the
// attackers' messages 1, and acknowledges the rest, as radios that hear
// it do, until the AP sends nothing more.
func (f *msg2Flood) route() {
	for range 50 {
		out, _ := f.h.take()
		if len(out) == 0 {
			return
		}
		for _, b := range out {
			_, fr := parsed(f.h.t, b)
			if f.legit != nil && fr.Addr1() == f.legit.addr {
				f.legit.deliver(b)
				if f.legit.done && f.doneAt == 0 {
					f.doneAt = f.h.now
				}
				continue
			}
			if et, payload, ok := ieee80211.Decap(fr.Body()); fr.Type() == ieee80211.TypeData && ok && et == etherTypeEAPOL {
				if k, err := rsn.ParseKeyFrame(payload); err == nil {
					f.replay[fr.Addr1()] = k.Replay()
					f.msg1++
				}
			}
			f.timed(func() { f.h.echo(b, radio.TxStatus{Acked: true}) })
		}
	}
	f.h.t.Fatal("the exchange does not settle")
}

// run floods for d, a millisecond at a time.
func (f *msg2Flood) run(d time.Duration) {
	per := time.Second / floodRate
	remakeEvery := int(floodRemake / per)
	for i, steps := 0, int(d/per); i < steps; i++ {
		f.timed(func() { f.h.advance(per) })
		if i%remakeEvery == 0 {
			f.remakeNext()
		}
		f.forge()
		f.route()
	}
}

// TestForgedMessage2FloodLegitimateStation: during the flood the core
// checks no more PMKs than its budget allows, and a station that joins
// completes its 4-way handshake under the last of the 256 PSKs.
func TestForgedMessage2FloodLegitimateStation(t *testing.T) {
	for _, airtime := range []float64{0, 1} {
		t.Run(fmt.Sprintf("reply_airtime=%g", airtime), func(t *testing.T) { testMsg2Flood(t, airtime) })
	}
}

func testMsg2Flood(t *testing.T, replyAirtime float64) {
	f := newMsg2Flood(t, replyAirtime)
	f.run(time.Second)
	f.legit = newWPASTA(f.h, staMAC, rsn.AKMPSK)
	f.route()
	f.legit.associate(testPassphrase)
	start := f.h.now
	f.run(5 * time.Second)
	c := f.h.a.Counters()
	t.Logf("%d forged messages 2, %d messages 1 to the attackers; %d checked, %d repeats, %d over a station's budget, %d over the BSS's; the station done in %v",
		f.sent, f.msg1, c[counter.EAPOLMIC], c[counter.EAPOLRepeated], c[counter.EAPOLStationBudget], c[counter.EAPOLWorkBudget], f.doneAt-start)
	if !f.legit.done {
		t.Fatalf("the joining station did not complete its handshake during the flood")
	}
	// Each check costs at most 256 PMK tries; the budget's second allows
	// 8,192 of them, with a tenth of that saved up and one message of debt.
	secs := 6
	if limit := (8192*secs + 819 + floodPSKs) / floodPSKs; int(c[counter.EAPOLMIC]) > limit {
		t.Errorf("%d messages 2 checked in %d s: the budget allows %d", c[counter.EAPOLMIC], secs, limit)
	}
	if f.sent < floodRate*secs*9/10 {
		t.Errorf("only %d forged messages 2 sent", f.sent)
	}
}

// BenchmarkForgedMsg2Flood is the core's time per second of the flood:
// ns/op is the time to run one second of it, the attacker's frames and
// the harness included; core-% is the time spent in the core's calls
// alone (with the radiotap headers around them) against a second of a
// core.
func BenchmarkForgedMsg2Flood(b *testing.B) {
	for _, airtime := range []float64{0, 1} {
		b.Run(fmt.Sprintf("reply_airtime=%g", airtime), func(b *testing.B) {
			f := newMsg2Flood(b, airtime)
			f.run(time.Second) // the associations made, the budget in use
			f.core = 0
			b.ReportAllocs()
			for b.Loop() {
				f.run(time.Second)
			}
			b.ReportMetric(float64(f.core.Nanoseconds())/float64(b.N)/1e7, "core-%")
		})
	}
}
