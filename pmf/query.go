package pmf

import (
	"crypto/rand"
	"io"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// TU is the 802.11 time unit, 1024 µs.
const TU = 1024 * time.Microsecond

// hostapd's defaults and its cap on the requests of one procedure.
const (
	DefaultMaxTimeout   = 1000 // assoc_sa_query_max_timeout, TUs
	DefaultRetryTimeout = 201  // assoc_sa_query_retry_timeout, TUs
	maxRequests         = 1000 // ap_sa_query_timer stops there
)

// Config is the BSS's association SA Query setting, hostapd's names
// beside.
type Config struct {
	MaxTimeout   uint32 // assoc_sa_query_max_timeout, TUs; 0 means 1000
	RetryTimeout uint32 // assoc_sa_query_retry_timeout, TUs; 0 means 201
	// Rand supplies the transaction IDs; nil is crypto/rand.Reader. If it
	// fails the ID is 0x1234, as hostapd's fallback.
	Rand io.Reader
}

func (c Config) withDefaults() Config {
	if c.MaxTimeout == 0 {
		c.MaxTimeout = DefaultMaxTimeout
	}
	if c.RetryTimeout == 0 {
		c.RetryTimeout = DefaultRetryTimeout
	}
	if c.Rand == nil {
		c.Rand = rand.Reader
	}
	return c
}

// retryInterval is the timer ap_sa_query_timer arms, computed as hostapd
// does: whole thousands of TUs become seconds at 1.024 per thousand,
// truncated ((t/1000)*1024/1000 s), the rest 1024 µs each. 201 TUs are
// 205.824 ms; 1000 TUs are 1 s, not 1.024 s.
func retryInterval(tus uint32) time.Duration {
	sec := (tus / 1000) * 1024 / 1000
	usec := (tus % 1000) * 1024
	return time.Duration(sec)*time.Second + time.Duration(usec)*time.Microsecond
}

// Query is one station's association SA Query procedure on the AP: the
// sa_query_* fields of hostapd's sta_info and ap_sta_start_sa_query,
// ap_sa_query_timer, ap_check_sa_query_timeout and the Response half of
// ieee802_11_sa_query_action. Time is an argument; nothing here sends,
// it says what to send. One per associated MFP station; not safe for
// concurrent use.
type Query struct {
	cfg      Config
	start    time.Duration   // sa_query_start
	ids      []TransactionID // the Requests of the procedure; empty when none runs
	next     time.Duration   // the retry timer, when armed
	armed    bool
	timedOut bool          // sa_query_timed_out
	idBuf    TransactionID // read into here: a local would escape through io.Reader
}

// NewQuery returns an idle procedure under cfg.
func NewQuery(cfg Config) *Query { return &Query{cfg: cfg.withDefaults()} }

// Step is what the procedure asks of the caller.
type Step struct {
	// Send: send the station an SA Query Request with ID (AppendSAQuery,
	// then ccmp.Key.SealMgmt under its PTK).
	Send bool
	ID   TransactionID
	// TimedOut: the procedure ended with no Response within MaxTimeout.
	// The station has lost its keys (a restarted supplicant); its next
	// (re)association is let through. hostapd keeps the old association
	// until then; the caller may end it now (keys removed, the station
	// back to authenticated), which comes to the same.
	TimedOut bool
}

// Assoc is hostapd's check_sa_query for a (re)association request from a
// station that is associated, authorized and uses MFP: call it before
// anything else of the request is acted on. It returns
// ieee80211.StatusAssocRejectedTemp (30) with the comeback time in TUs
// for the response's Timeout Interval element (AppendComeback), starting
// the procedure if none runs (Step.Send: the first Request), or
// StatusSuccess when a procedure timed out: the association proceeds as
// a new one, and the caller calls Reset once it completes.
func (q *Query) Assoc(now time.Duration) (status uint16, comeback uint32, s Step) {
	if !q.timedOut && len(q.ids) > 0 {
		s.TimedOut = q.checkTimeout(now)
	}
	if q.timedOut {
		return ieee80211.StatusSuccess, 0, s
	}
	if len(q.ids) == 0 {
		s = q.request(now)
	}
	return ieee80211.StatusAssocRejectedTemp, q.comeback(now), s
}

// Tick runs the retry timer if it is due (ap_sa_query_timer): the
// procedure times out, or the next Request goes out with a new ID.
func (q *Query) Tick(now time.Duration) Step {
	if !q.armed || now < q.next {
		return Step{}
	}
	q.armed = false
	if q.checkTimeout(now) {
		return Step{TimedOut: true}
	}
	if len(q.ids) >= maxRequests {
		q.armTimeout()
		return Step{}
	}
	return q.request(now)
}

// Deadline returns when Tick next has work, if it has any.
func (q *Query) Deadline() (time.Duration, bool) { return q.next, q.armed }

// Response takes the transaction ID of an SA Query Response from the
// station, one that arrived protected (Check said Open and it decrypted).
// It reports whether it answers a Request of the running procedure, which
// then stops: the station holds its keys and the association stays, the
// new association request having been refused. A Response with no match,
// or when no procedure runs, changes nothing.
func (q *Query) Response(id TransactionID) bool {
	for _, sent := range q.ids {
		if sent == id {
			q.stop()
			return true
		}
	}
	return false
}

// Reset stops any procedure and forgets a timeout, when the station
// completes a new association or leaves (hostapd clears
// sa_query_timed_out in the association's TX status handler).
func (q *Query) Reset() {
	q.stop()
	q.timedOut = false
}

// Active reports whether a procedure runs.
func (q *Query) Active() bool { return len(q.ids) > 0 }

// TimedOut reports whether the last procedure timed out (and no new
// association has completed since).
func (q *Query) TimedOut() bool { return q.timedOut }

// Requests returns how many Requests the running procedure has sent.
func (q *Query) Requests() int { return len(q.ids) }

// request sends the next Request with a fresh transaction ID and arms the
// retry timer; the first one starts the procedure's clock.
func (q *Query) request(now time.Duration) Step {
	if len(q.ids) == 0 {
		q.start = now
	}
	id := TransactionID{0x12, 0x34}
	if _, err := io.ReadFull(q.cfg.Rand, q.idBuf[:]); err == nil {
		id = q.idBuf
	}
	q.ids = append(q.ids, id)
	q.next, q.armed = now+retryInterval(q.cfg.RetryTimeout), true
	return Step{Send: true, ID: id}
}

// armTimeout arms the timer for the moment the procedure times out, once
// the Requests reach hostapd's cap. hostapd arms nothing then and notices
// the timeout only at the station's next association request; the caller
// is told here when it happens.
func (q *Query) armTimeout() {
	q.next, q.armed = q.start+time.Duration(q.cfg.MaxTimeout+1)*TU, true
}

// elapsed is the time since the procedure started in whole TUs, as
// hostapd counts it (microseconds divided by 1024).
func (q *Query) elapsed(now time.Duration) uint64 {
	return uint64((now - q.start).Microseconds()) / 1024
}

// checkTimeout is ap_check_sa_query_timeout: past MaxTimeout TUs the
// procedure ends, timed out.
func (q *Query) checkTimeout(now time.Duration) bool {
	if uint64(q.cfg.MaxTimeout) >= q.elapsed(now) {
		return false
	}
	q.stop()
	q.timedOut = true
	return true
}

// comeback is hostapd_eid_assoc_comeback_time: what is left of
// MaxTimeout, plus one TU for the timers once the procedure has run for
// a while.
func (q *Query) comeback(now time.Duration) uint32 {
	var t uint32
	if tu := q.elapsed(now); uint64(q.cfg.MaxTimeout) > tu {
		t = q.cfg.MaxTimeout - uint32(tu)
	}
	if t < q.cfg.MaxTimeout {
		t++
	}
	return t
}

func (q *Query) stop() {
	q.ids = q.ids[:0]
	q.armed = false
}
