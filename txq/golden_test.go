package txq

import (
	"hash/fnv"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// goldenDigest drives a scheduler with a fixed random load (frames on three
// TIDs and the non-station queue, rounds on BE and VO, completions in and
// out of order and without status, idle time, weight changes, power save,
// removal) and hashes every decision and every deficit. spread puts the
// stations in that many groups, none capped.
func goldenDigest(t *testing.T, mode Mode, spread int) uint64 {
	const stations = 12
	f := newAQLFake(2000, 4000)
	f.threshold = 6000
	s := mustNew(t, Config{Mode: mode, Airtime: f, Owner: &owner{}, MaxStations: stations})
	for sta := uint16(1); sta <= stations; sta++ {
		s.AddStation(sta)
		groupStation(t, s, sta, spread)
	}
	r := rand.New(rand.NewPCG(0x6169727469, 32))
	dg := fnv.New64a()
	put := func(vs ...int64) {
		var b [8]byte
		for _, v := range vs {
			for i := range b {
				b[i] = byte(v >> (8 * i))
			}
			dg.Write(b[:])
		}
	}
	var flight []inflight
	var now time.Duration
	var h Handle
	for range 20000 {
		switch p := r.IntN(100); {
		case p < 30:
			sta := uint16(r.IntN(stations + 1))
			tid := twinTIDs[r.IntN(len(twinTIDs))]
			for range 1 + r.IntN(3) {
				h++
				s.Enqueue(sta, tid, Item{Handle: h, Len: 1000, Hash: uint32(sta)<<8 | uint32(tid)}, now)
			}
		case p < 66:
			ac := be
			if p >= 62 {
				ac = ieee80211.TIDToAC(6)
			}
			s.StartRound(ac, now)
			for q, ok := s.Next(ac, now); ok; q, ok = s.Next(ac, now) {
				put(int64(q.Station()), int64(q.tid))
				sta := q.Station()
				for range 1 + r.IntN(3) {
					if !f.StationAllows(sta, ac) {
						break
					}
					if _, ok := s.Dequeue(q, now); !ok {
						break
					}
					us := int32(100 + r.IntN(4000))
					flight = append(flight, inflight{sta, ac, us})
					if sta == 0 {
						f.external[ac] += us
					} else {
						f.add(sta, ac, us)
					}
				}
				s.Return(q, r.IntN(8) == 0, now)
			}
			s.EndRound(ac)
			put(-1)
		case p < 86:
			for n := 1 + r.IntN(3); n > 0 && len(flight) > 0; n-- {
				i := 0
				if r.IntN(4) == 0 {
					i = r.IntN(len(flight))
				}
				c := flight[i]
				flight = append(flight[:i], flight[i+1:]...)
				if c.sta == 0 {
					f.external[c.ac] -= c.us
					continue
				}
				f.sub(c.sta, c.ac, c.us)
				charge := uint32(c.us)
				if r.IntN(10) == 0 {
					charge = 0
				}
				s.Charge(c.sta, c.ac, charge, now)
			}
		case p < 90:
			now += time.Duration(r.IntN(150)) * time.Millisecond
		case p < 93:
			s.SetWeight(uint16(1+r.IntN(stations)), uint16(32+r.IntN(481)))
		case p < 97:
			s.SetPaused(uint16(1+r.IntN(stations)), r.IntN(2) == 0, now)
		default:
			sta := uint16(1 + r.IntN(stations))
			kept := flight[:0]
			for _, c := range flight {
				if c.sta == sta {
					f.sub(c.sta, c.ac, c.us)
					continue
				}
				kept = append(kept, c)
			}
			flight = kept
			s.RemoveStation(sta)
			s.AddStation(sta)
			groupStation(t, s, sta, spread)
		}
		now += 100 * time.Microsecond
		for ac := range ieee80211.NumACs {
			put(int64(s.Listed(ieee80211.AC(ac))))
			for sta := uint16(1); sta <= stations; sta++ {
				put(s.Deficit(sta, ieee80211.AC(ac)))
			}
		}
	}
	return dg.Sum64()
}

// Digests of goldenDigest recorded before stations had groups: with every
// station in the default group, or spread over uncapped groups, both modes
// make today's decisions and keep today's deficits.
var goldenDigests = map[Mode]uint64{Trace: 0xbefc4b54ad28ffc7, Production: 0x115e85a4dab4df5c}

// TestDefaultScheduleUnchanged holds the scheduler's decisions, with default
// and changed weights and no cap, to the digests recorded before groups
// existed, whether the stations share one group or are spread over eight.
func TestDefaultScheduleUnchanged(t *testing.T) {
	for _, mode := range []Mode{Trace, Production} {
		for _, spread := range []int{1, 8} {
			if d := goldenDigest(t, mode, spread); d != goldenDigests[mode] {
				t.Errorf("%v, stations over %d groups: digest %#x, recorded %#x", mode, spread, d, goldenDigests[mode])
			}
		}
	}
}
