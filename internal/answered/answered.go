package answered

import (
	"math"
	"time"
)

// Record is a bounded memory of recently answered addresses.
type Record struct {
	window time.Duration
	seed   uint32
	ring   []entry // answers in the order made; n%len(ring) is the next to overwrite
	n      uint64  // answers made
	heads  []link  // per hash bucket, the newest answer in it
	mask   uint32
}

// link names a ring entry by its answer number: a link whose entry has
// since been overwritten no longer matches the entry's number.
type link struct {
	seq uint64 // answer number + 1; 0: none
}

type entry struct {
	addr [6]byte
	at   time.Duration
	seq  uint64 // answer number + 1
	prev link   // the previous answer in the same bucket
	gone bool   // forgotten
}

// Size is the number of entries a record needs so that rate answers a
// second, after a burst of burst answers, never overwrite one younger
// than window.
func Size(rate, burst float64, window time.Duration) int {
	return int(math.Ceil(burst + rate*window.Seconds()))
}

// New returns a record of size entries remembering answers for window.
// seed (for example from the BSSID) varies which addresses share a hash
// bucket from one record to the next.
func New(size int, window time.Duration, seed uint32) *Record {
	size = max(size, 1)
	buckets := 1
	for buckets < size {
		buckets <<= 1
	}
	return &Record{window: window, seed: seed, ring: make([]entry, size),
		heads: make([]link, buckets), mask: uint32(buckets - 1)}
}

// Window is how long an answer is remembered.
func (r *Record) Window() time.Duration { return r.window }

// Len is the number of entries the record holds.
func (r *Record) Len() int { return len(r.ring) }

func (r *Record) bucket(addr [6]byte) *link {
	h := 2166136261 ^ r.seed
	for _, b := range addr {
		h = (h ^ uint32(b)) * 16777619
	}
	return &r.heads[h&r.mask]
}

// at returns the entry l names, or nil once it has been overwritten.
func (r *Record) at(l link) *entry {
	if l.seq == 0 {
		return nil
	}
	e := &r.ring[(l.seq-1)%uint64(len(r.ring))]
	if e.seq != l.seq {
		return nil
	}
	return e
}

// Add records an answer to addr at now. Times must not go backwards.
func (r *Record) Add(now time.Duration, addr [6]byte) {
	h := r.bucket(addr)
	r.n++
	e := &r.ring[(r.n-1)%uint64(len(r.ring))]
	*e = entry{addr: addr, at: now, seq: r.n, prev: *h}
	*h = link{seq: r.n}
}

// Has reports whether addr was answered within the window before now and
// not forgotten since.
func (r *Record) Has(now time.Duration, addr [6]byte) bool {
	return r.find(now, addr) != nil
}

// Forget drops the answers to addr still in the window: what they
// allowed no longer holds (the station left, or was refused). One walk of
// the bucket marks them all.
func (r *Record) Forget(now time.Duration, addr [6]byte) {
	for e := r.at(*r.bucket(addr)); e != nil && now-e.at <= r.window; e = r.at(e.prev) {
		if e.addr == addr {
			e.gone = true
		}
	}
}

// find returns the newest live answer to addr within the window.
func (r *Record) find(now time.Duration, addr [6]byte) *entry {
	for e := r.at(*r.bucket(addr)); e != nil && now-e.at <= r.window; e = r.at(e.prev) {
		if e.addr == addr && !e.gone {
			return e
		}
	}
	return nil
}
