package bss

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// Replies to others' frames are what a flood makes an AP send: probe,
// authentication and association responses, deauthentications to
// strangers. Together they may use a share of the air (the core's
// Config.ReplyAirtime), split into classes so that a flood landing in one
// cannot silence the others:
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
type ReplyClass uint8

const (
	ReplyKnown ReplyClass = iota
	ReplyNew
	ReplyStranger
	NumReplyClasses
)

// replyShare is each class's guaranteed part of the reply airtime, and
// replyBurst how much of it a class may save up, in µs.
var (
	replyShare = [NumReplyClasses]float64{0.5, 0.25, 0.25}
	replyBurst = [NumReplyClasses]float64{15000, 7500, 7500}
)

// replyPoolBurst bounds the shared pool, µs: the reply airtime idle
// classes saved for busy ones.
const replyPoolBurst = 15000

// NewAuthReserve is what authentication responses of the new class leave
// to its association responses, µs (about three): under a flood of new
// MACs, a station already authenticated finishes before more start.
const NewAuthReserve = 3000

// ReplyBudget is the classes' token buckets and the shared pool, in µs of
// airtime. A class's tokens go negative when the retries of its replies
// are charged (the echo tells how many there were).
type ReplyBudget struct {
	rate   [NumReplyClasses]float64 // µs per second
	tokens [NumReplyClasses]float64
	pool   float64
	last   time.Duration
}

// NewReplyBudget is a budget of share of the air, every bucket full.
func NewReplyBudget(share float64) ReplyBudget {
	b := ReplyBudget{pool: replyPoolBurst}
	for c := range b.rate {
		b.rate[c] = share * 1e6 * replyShare[c]
		b.tokens[c] = replyBurst[c]
	}
	return b
}

func (b *ReplyBudget) refill(now time.Duration) {
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

// Take spends cost µs of class c's budget, drawing on the pool for what
// its own bucket lacks; false, spending nothing, when both together lack
// it plus reserve. pooled says whether the pool paid part: the reply's retries are then
// charged to the pool, so that borrowing never lets the classes together
// spend more than the rate.
func (b *ReplyBudget) Take(now time.Duration, c ReplyClass, cost, reserve float64) (ok, pooled bool) {
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

// Charge bills airtime a reply used beyond what take spent (its retries)
// to class c, or to the pool when the pool paid for the reply.
func (b *ReplyBudget) Charge(c ReplyClass, pooled bool, cost float64) {
	if pooled {
		b.pool -= cost
		return
	}
	b.tokens[c] -= cost
}

// senderSlots is the size of the table of known senders: a power of two.
const senderSlots = 1024

// Senders remembers, for a while (the core's Config.SenderMemory), MACs that sent a valid
// frame before asking for anything: a probe request, or data while
// associated. It is direct-mapped and fixed in size, so a flood of new MACs
// can only push entries out, never grow it; a real station probes
// milliseconds before it authenticates, so a flood rarely pushes it out in
// between.
type Senders struct {
	e    [senderSlots]senderEntry
	seed uint32
}

type senderEntry struct {
	addr ieee80211.MAC
	used bool
	at   time.Duration
}

// NewSenders is an empty table for the BSS of bssid.
func NewSenders(bssid ieee80211.MAC) Senders {
	// Seeded from the BSSID, so that which MACs share a slot differs from
	// one AP to the next.
	return Senders{seed: BSSIDSeed(bssid)}
}

func (t *Senders) slot(addr ieee80211.MAC) *senderEntry {
	h := 2166136261 ^ t.seed
	for _, b := range addr {
		h = (h ^ uint32(b)) * 16777619
	}
	return &t.e[h&(senderSlots-1)]
}

// Heard records a valid frame from addr at now.
func (t *Senders) Heard(now time.Duration, addr ieee80211.MAC) {
	*t.slot(addr) = senderEntry{addr: addr, used: true, at: now}
}

// Known reports whether addr sent a valid frame within ttl of now.
func (t *Senders) Known(now, ttl time.Duration, addr ieee80211.MAC) bool {
	e := t.slot(addr)
	return e.used && e.addr == addr && now-e.at <= ttl
}

// ReplyBurstTotal is the most reply airtime the buckets and the pool hold
// together, µs: what a flood can spend at once after a quiet spell.
func ReplyBurstTotal() float64 {
	burst := float64(replyPoolBurst)
	for _, b := range replyBurst {
		burst += b
	}
	return burst
}

// BSSIDSeed varies hash buckets from one AP to the next.
func BSSIDSeed(bssid ieee80211.MAC) uint32 {
	return uint32(bssid[2])<<24 | uint32(bssid[3])<<16 | uint32(bssid[4])<<8 | uint32(bssid[5])
}

// ClassBurst is the most reply airtime class c can spend at once, µs: its
// full bucket and the full pool.
func ClassBurst(c ReplyClass) float64 { return replyBurst[c] + replyPoolBurst }
