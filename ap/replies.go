package ap

import (
	"github.com/airq/airq/counter"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// Replies to others' frames are what a flood makes an AP send: probe,
// authentication and association responses, deauthentications to
// strangers. Together they may use Config.ReplyAirtime of the air, split
// into classes so that a flood landing in one cannot silence the others:
//
//   - known: authentication and association responses to a MAC heard from
//     before it authenticated (it sent a probe request, or was associated
//     and sent data), and ADDBA declines to associated stations;
//   - new: authentication and association responses to a MAC first heard
//     in that exchange; a flood of random MACs lands here;
//   - stranger: probe responses, the deauthentications and
//     disassociations that answer class 2 and 3 frames, returned Action
//     frames.
//
// Each class has its own token bucket refilled at its share of the rate;
// what a full bucket cannot hold spills into a shared pool that any class
// draws on once its own bucket is empty. A busy class so uses what idle
// ones leave, and never what another class is guaranteed: the
// responses a real station needs to get in never starve behind
// deauthentications to strangers, nor a station that probed first behind
// authentications from new MACs.
type replyClass uint8

const (
	replyKnown replyClass = iota
	replyNew
	replyStranger
	numReplyClasses
)

// replyShare is each class's guaranteed part of the reply airtime, and
// replyBurst how much of it a class may save up, in µs.
var (
	replyShare = [numReplyClasses]float64{0.5, 0.25, 0.25}
	replyBurst = [numReplyClasses]float64{15000, 7500, 7500}
)

// replyPoolBurst bounds the shared pool, µs: the reply airtime idle
// classes saved for busy ones.
const replyPoolBurst = 15000

// newAuthReserve is what authentication responses of the new class leave
// to its association responses, µs (about three): under a flood of new
// MACs, a station already authenticated finishes before more start.
const newAuthReserve = 3000

// replyBudget is the classes' token buckets and the shared pool, in µs of
// airtime. A class's tokens go negative when the retries of its replies
// are charged (the echo tells how many there were).
type replyBudget struct {
	rate   [numReplyClasses]float64 // µs per second
	tokens [numReplyClasses]float64
	pool   float64
	last   time.Duration
}

func newReplyBudget(share float64) replyBudget {
	b := replyBudget{pool: replyPoolBurst}
	for c := range b.rate {
		b.rate[c] = share * 1e6 * replyShare[c]
		b.tokens[c] = replyBurst[c]
	}
	return b
}

func (b *replyBudget) refill(now time.Duration) {
	dt := (now - b.last).Seconds()
	if dt <= 0 {
		return
	}
	b.last = now
	for c := range b.tokens {
		b.tokens[c] += dt * b.rate[c]
		if over := b.tokens[c] - replyBurst[c]; over > 0 {
			b.tokens[c] -= over
			b.pool += over
		}
	}
	b.pool = min(b.pool, replyPoolBurst) // a debt of the pool is paid from the overflow
}

// take spends cost µs of class c's budget, drawing on the pool for what
// its own bucket lacks; false, spending nothing, when both together lack
// it plus reserve. pooled says whether the pool paid part: the reply's retries are then
// charged to the pool, so that borrowing never lets the classes together
// spend more than the rate.
func (b *replyBudget) take(now time.Duration, c replyClass, cost, reserve float64) (ok, pooled bool) {
	b.refill(now)
	own := max(b.tokens[c], 0)
	if own+max(b.pool, 0) < cost+reserve {
		return false, false
	}
	if own >= cost {
		b.tokens[c] -= cost
		return true, false
	}
	b.tokens[c] -= own
	b.pool -= cost - own
	return true, true
}

// charge bills airtime a reply used beyond what take spent (its retries)
// to class c, or to the pool when the pool paid for the reply.
func (b *replyBudget) charge(c replyClass, pooled bool, cost float64) {
	if pooled {
		b.pool -= cost
		return
	}
	b.tokens[c] -= cost
}

// senderSlots is the size of the table of known senders: a power of two.
const senderSlots = 1024

// senderTable remembers, for Config.SenderMemory, MACs that sent a valid
// frame before asking for anything: a probe request, or data while
// associated. It is direct-mapped and fixed in size, so a flood of new MACs
// can only push entries out, never grow it; a real station probes
// milliseconds before it authenticates, so a flood rarely pushes it out in
// between.
type senderTable struct {
	e    [senderSlots]senderEntry
	seed uint32
}

type senderEntry struct {
	addr ieee80211.MAC
	used bool
	at   time.Duration
}

func newSenderTable(bssid ieee80211.MAC) senderTable {
	// Seeded from the BSSID, so that which MACs share a slot differs from
	// one AP to the next.
	return senderTable{seed: bssidSeed(bssid)}
}

func (t *senderTable) slot(addr ieee80211.MAC) *senderEntry {
	h := 2166136261 ^ t.seed
	for _, b := range addr {
		h = (h ^ uint32(b)) * 16777619
	}
	return &t.e[h&(senderSlots-1)]
}

// heard records a valid frame from addr at now.
func (t *senderTable) heard(now time.Duration, addr ieee80211.MAC) {
	*t.slot(addr) = senderEntry{addr: addr, used: true, at: now}
}

// known reports whether addr sent a valid frame within ttl of now.
func (t *senderTable) known(now, ttl time.Duration, addr ieee80211.MAC) bool {
	e := t.slot(addr)
	return e.used && e.addr == addr && now-e.at <= ttl
}

// replyClassOf is the class of an authentication or association response
// to addr; s is its station entry, if any.
func (a *AP) replyClassOf(now time.Duration, addr ieee80211.MAC, s *station) replyClass {
	if (s != nil && (s.known || s.hadData)) || a.senders.known(now, a.cfg.SenderMemory, addr) {
		return replyKnown
	}
	return replyNew
}

func (a *AP) countThrottled(c replyClass) {
	a.cnt[counter.RepliesThrottled]++
	switch c {
	case replyKnown:
		a.cnt[counter.ThrottledKnown]++
	case replyNew:
		a.cnt[counter.ThrottledNew]++
	default:
		a.cnt[counter.ThrottledStranger]++
	}
}
