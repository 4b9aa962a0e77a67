package ap

import (
	"time"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/answered"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// A station whose authentication response was not acknowledged loses its
// entry (a forged address holds nothing), but on a real channel an ACK is
// lost now and then while the station has the response. Its association
// request within lostAckWindow of the response is therefore taken as
// proof, as a lost echo's is: the AP remembers whom it answered in a
// fixed record (package answered) that the reply budget cannot overrun.

// lostAckWindow is how long after an authentication response an
// association request from a station that never acknowledged it is
// taken: a station that has the response asks at once; one that lost it
// authenticates again (mac80211 after 200 ms).
const lostAckWindow = time.Second

// authRespLen is an Open System authentication response's length: the
// header and its three fields.
const authRespLen = 24 + 6

// newAnswered sizes the record of answered MACs so that the whole reply
// budget, spent on authentication responses at the fastest legacy rate
// (the cheapest a basic rate can make them), cannot overwrite an entry
// younger than lostAckWindow.
func newAnswered(cfg Config, est *aql.Estimator) *answered.Record {
	cost := float64(est.Airtime(radio.LegacyRate(54000), ieee80211.ACVO, authRespLen))
	burst := bss.ReplyBurstTotal()
	size := answered.Size(cfg.ReplyAirtime*1e6/cost, burst/cost, lostAckWindow)
	return answered.New(size, lostAckWindow, bss.BSSIDSeed(cfg.BSSID))
}

// readmitAnswered gives sa, which has no entry, an authenticated one when
// its authentication response from BSS b went out within lostAckWindow: its
// association request shows it has the response whose ACK was lost.
func (a *AP) readmitAnswered(now time.Duration, b *bss.BSS, sa ieee80211.MAC) (uint16, *station, bool) {
	if !b.Answered.Has(now, sa) {
		return 0, nil, false
	}
	slot, s, ok := a.freshEntry(now, b, sa, 0, nil)
	if !ok {
		return 0, nil, false
	}
	a.cnt[counter.AssocAfterLostAck]++
	b.Authenticate(now, slot, &s.Station, a.replyClassOf(now, b, sa, nil) == bss.ReplyKnown)
	s.AuthOK, s.lastRx = true, now
	return slot, s, true
}
