package handshake

import (
	"fmt"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// forgedMsg2N is forgedMsg2 with an SNonce and MIC of its own for each n.
func forgedMsg2N(replay uint64, n int) []byte {
	f := rsn.KeyFrame(forgedMsg2(replay, msg2Info, setup{}.stationRSNE()))
	f[offNonceForTest+0], f[offNonceForTest+1] = byte(n), byte(n>>8)
	f.MIC()[0], f.MIC()[1] = byte(n), byte(n>>8)
	return f
}

// offNonceForTest is the Key Nonce's offset in an EAPOL-Key frame: after
// the 802.1X header (4), descriptor type (1), Key Information (2), Key
// Length (2) and Replay Counter (8).
const offNonceForTest = 17

// heldMessage1 connects a station whose first message 1 is held back and
// returned: what comes before its answer is up to the test.
func heldMessage1(t testing.TB, su setup) (*link, []byte) {
	var m1 []byte
	l := connect(t, su, &link{t: t, pmk: pmkOf(t, "correct horse battery"), now: time.Second, ack: true,
		drop: func(_ ieee80211.MAC, toSTA bool, f []byte) bool {
			if toSTA && m1 == nil {
				m1 = f
				return true
			}
			return false
		}})
	return l, m1
}

// TestForgedMessage2Repeats: an exact repeat of a forged message 2 is
// counted and never checked again, and the station's own answer, still
// within its checks, completes the handshake.
func TestForgedMessage2Repeats(t *testing.T) {
	l, m1 := heldMessage1(t, setup{})
	for range 100 {
		l.s.Receive(l.now, forgedMsg2(1, msg2Info, setup{}.stationRSNE()))
	}
	l.flush()
	if c := l.a.Counters(); c.MIC != 1 || c.Message2Repeated != 99 || count(l.ap, ActPSKMismatch) != 1 {
		t.Fatalf("%+v, %d reports", c, count(l.ap, ActPSKMismatch))
	}
	l.deliver(staMAC, false, m1)
	if !l.s.Authorized() {
		t.Fatalf("the station's own message 2 did not complete the handshake: %s", l.s.State())
	}
}

// TestForgedMessage2StationBudget: distinct forged messages 2 get two
// checks per message 1; a racing attacker so spoils that round, and the
// station completes on the retransmission of message 1.
func TestForgedMessage2StationBudget(t *testing.T) {
	l, m1 := heldMessage1(t, setup{})
	for n := range 50 {
		l.s.Receive(l.now, forgedMsg2N(1, n))
	}
	l.flush()
	if c := l.a.Counters(); c.MIC != checksPerMessage1 || c.Message2StationBudget != 50-checksPerMessage1 {
		t.Fatalf("%+v", c)
	}
	l.deliver(staMAC, false, m1) // its answer finds the round's checks used
	if c := l.a.Counters(); l.s.Authorized() || c.Message2StationBudget != 50-checksPerMessage1+1 {
		t.Fatalf("the station's answer was checked beyond the budget: %s, %+v", l.s.State(), c)
	}
	l.runUntil(l.now + 2*time.Second)
	if !l.s.Authorized() {
		t.Fatalf("the retransmission of message 1 did not complete the handshake: %s, %s", l.s.State(), kinds(l.ap))
	}
}

// TestMessage2WorkBudget: the BSS's PMK tries run out under one forged
// message 2, the station's answer right behind it is counted and dropped,
// and once the budget has refilled its answer to the next message 1
// completes.
func TestMessage2WorkBudget(t *testing.T) {
	right := pmkOf(t, "correct horse battery")
	pmks := []rsn.PMK{{1}, {2}, {3}, {4}, {5}, {6}, {7}, right}
	su := setup{cfg: func(c *Config) {
		c.Message2Work = 40 // 4 tries saved up at most
		c.PMKs = func(dst []rsn.PMK, _ ieee80211.MAC) []rsn.PMK { return append(dst, pmks...) }
	}}
	l, m1 := heldMessage1(t, su)
	l.s.Receive(l.now, forgedMsg2N(1, 1)) // 8 tries: 4 in debt
	l.deliver(staMAC, false, m1)
	if c := l.a.Counters(); l.s.Authorized() || c.MIC != 1 || c.Message2WorkBudget != 1 {
		t.Fatalf("%s, %+v", l.s.State(), c)
	}
	l.runUntil(l.now + 2*time.Second)
	if c, ok := last(l.ap, ActCompleted); !ok || c.PMK != 7 {
		t.Fatalf("not completed after the budget refilled: %s, %s", l.s.State(), kinds(l.ap))
	}
}

// TestMessage2NoAllocs: a forged message 2 checked under every candidate
// allocates nothing.
func TestMessage2NoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocations are counted without -race")
	}
	l := forgedTarget(t, 16)
	f := rsn.KeyFrame(forgedMsg2N(1, 0))
	n := testing.AllocsPerRun(50, func() { l.forge(f) })
	if n != 0 || l.a.Counters().MIC < 50 {
		t.Fatalf("%v allocations per message 2; %+v", n, l.a.Counters())
	}
}

// forgedTarget is a station in PTKSTART under n candidate PMKs, none of
// which a forged message 2 matches.
func forgedTarget(t testing.TB, n int) *link {
	pmks := make([]rsn.PMK, n)
	for i := range pmks {
		pmks[i] = rsn.PMK{byte(i + 1), byte(i >> 8)}
	}
	return connect(t, setup{cfg: func(c *Config) {
		c.PMKs = func(dst []rsn.PMK, _ ieee80211.MAC) []rsn.PMK { return append(dst, pmks...) }
		c.Message2Work = 1 << 40
	}}, &link{t: t, now: time.Second, drop: func(ieee80211.MAC, bool, []byte) bool { return true }})
}

// forge delivers a fresh variant of forged message 2 f, with the
// station's checks for the message 1 restored: one full check.
func (l *link) forge(f rsn.KeyFrame) {
	f.MIC()[2]++
	if f.MIC()[2] == 0 {
		f.MIC()[3]++
	}
	l.s.checksLeft = checksPerMessage1
	l.s.Receive(l.now, f)
	l.a.Drain(func(Action) {})
}

// BenchmarkForgedMsg2 is the cost of a message 2 that verifies under no
// PMK, checked under each of 1, 16 and 256 candidates.
func BenchmarkForgedMsg2(b *testing.B) {
	for _, n := range []int{1, 16, 256} {
		b.Run(fmt.Sprintf("pmks=%d", n), func(b *testing.B) {
			l := forgedTarget(b, n)
			f := rsn.KeyFrame(forgedMsg2N(1, 0))
			b.ReportAllocs()
			for b.Loop() {
				l.forge(f)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/PMK")
		})
	}
}

// TestMessage2OwedStation: a station whose answer found the BSS's work
// spent is owed a check. New associations forging a message 2 each every
// millisecond then leave it the lower half of the budget, and its answer
// to the retransmitted message 1, right behind one of theirs, is checked
// and completes the handshake.
func TestMessage2OwedStation(t *testing.T) {
	right := pmkOf(t, "correct horse battery")
	pmks := []rsn.PMK{{1}, {2}, {3}, {4}, {5}, {6}, {7}, right}
	su := setup{cfg: func(c *Config) {
		c.Message2Work = 400 // 40 tries saved up at most: five checks
		c.PMKs = func(dst []rsn.PMK, _ ieee80211.MAC) []rsn.PMK { return append(dst, pmks...) }
	}}
	// The attackers' messages 1 are heard, not answered; the station's are
	// held and delivered when the test says.
	var held [][]byte
	l := connect(t, su, &link{t: t, pmk: right, now: time.Second, drop: func(spa ieee80211.MAC, toSTA bool, f []byte) bool {
		if toSTA && spa == staMAC {
			held = append(held, f)
		}
		return toSTA
	}})
	attackers := 0
	attack := func() {
		attackers++
		p := l.join(su, ieee80211.MAC{0x02, 0xee, 0, byte(attackers >> 8), byte(attackers), 0})
		p.s.Receive(l.now, forgedMsg2N(1, attackers))
		l.flush()
	}
	for range 5 {
		attack()
	}
	l.deliver(staMAC, false, held[0]) // its answer finds nothing left
	if c := l.a.Counters(); c.Message2WorkBudget != 1 || !l.s.owed {
		t.Fatalf("the station's answer: %+v, owed %v", c, l.s.owed)
	}
	for len(held) < 2 && l.now < 3*time.Second {
		l.runUntil(l.now + time.Millisecond)
		for range 3 {
			attack()
		}
	}
	if len(held) < 2 {
		t.Fatal("no retransmission of message 1")
	}
	l.drop = func(spa ieee80211.MAC, toSTA bool, _ []byte) bool { return toSTA && spa != staMAC }
	l.deliver(staMAC, false, held[1])
	if !l.s.Authorized() {
		t.Fatalf("the owed station did not complete: %s, %+v", l.s.State(), l.a.Counters())
	}
}
