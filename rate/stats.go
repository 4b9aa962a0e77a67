package rate

import (
	"strconv"

	"github.com/airq/airq/radio"
)

// RateStats is one row of a station's rate table.
type RateStats struct {
	Rate       radio.Rate
	Best       bool    // carries data now (chain position 0)
	Second     bool    // first fallback
	Robust     bool    // most robust rate (minstrel's max_prob_rate)
	Airtime    uint32  // µs, one attempt of the reference frame
	MaxTP      float64 // Mbit/s if every attempt succeeded
	TP         float64 // expected throughput, Mbit/s
	Prob       float64 // average success probability per attempt, 0-1
	Retries    uint8   // data retries when this rate carries data
	LastSucc   uint32  // the last complete interval
	LastAtt    uint32
	Successes  uint64 // since the station was created, folded intervals
	Attempts   uint64
	Samples    uint64 // frames that sampled this rate
	Measured   bool   // Prob holds a measurement
	FrameBytes int    // the reference frame length of Airtime and TP
}

// Counters are a station's totals.
type Counters struct {
	Frames  uint64 // frames picked
	Samples uint64 // of which sampled
	Unknown uint64 // reports for a rate outside the table
}

// Counters returns the station's totals.
func (s *Station) Counters() Counters {
	return Counters{Frames: s.frames, Samples: s.samplesAll, Unknown: s.unknown}
}

// Best returns the rate data frames use when nothing has failed.
func (s *Station) Best() radio.Rate { return s.rates[s.chain[levelBest]].rate }

// ExpectedThroughput returns the best rate's expected throughput in
// Mbit/s (what minstrel_ht's get_expected_throughput gives mac80211): 0
// until a measurement gives the rate a success probability.
func (s *Station) ExpectedThroughput() float64 { return s.rates[s.chain[levelBest]].tp }

// Len returns the number of rates in the table.
func (s *Station) Len() int { return s.n }

// AppendStats appends one row per rate, fastest first, without allocating
// when dst has room for Len rows.
func (s *Station) AppendStats(dst []RateStats) []RateStats {
	bits := float64(8 * s.cfg.FrameLen)
	for i := range s.rates[:s.n] {
		e := &s.rates[i]
		dst = append(dst, RateStats{
			Rate: e.rate, Best: i == s.chain[levelBest], Second: i == s.chain[levelSecond],
			Robust: i == s.chain[levelRobust], Airtime: e.airtime, MaxTP: bits / float64(e.airtime),
			TP: e.tp, Prob: e.prob, Retries: e.retries, LastSucc: e.lastSucc, LastAtt: e.lastAtt,
			Successes: e.succSum, Attempts: e.attSum, Samples: e.samples, Measured: e.seen,
			FrameBytes: s.cfg.FrameLen,
		})
	}
	return dst
}

// Stats returns the rate table, fastest first.
func (s *Station) Stats() []RateStats { return s.AppendStats(make([]RateStats, 0, s.n)) }

// Mode names a rate's PHY and width like rc_stats: CCK, OFDM, HT20, VHT80.
func Mode(r radio.Rate) string {
	switch r.Mode {
	case radio.ModeLegacy:
		if r.Legacy == 2 || r.Legacy == 4 || r.Legacy == 11 || r.Legacy == 22 {
			return "CCK"
		}
		return "OFDM"
	case radio.ModeHT:
		return "HT" + strconv.Itoa(int(r.Bandwidth))
	case radio.ModeVHT:
		return "VHT" + strconv.Itoa(int(r.Bandwidth))
	}
	return "none"
}

// Name names a rate within its mode: "5.5M", "MCS7", "MCS9/2" (VHT MCS 9,
// two streams).
func Name(r radio.Rate) string {
	switch r.Mode {
	case radio.ModeLegacy:
		return strconv.FormatFloat(float64(r.Legacy)/2, 'f', -1, 64) + "M"
	case radio.ModeHT:
		return "MCS" + strconv.Itoa(int(r.MCS))
	case radio.ModeVHT:
		return "MCS" + strconv.Itoa(int(r.MCS)) + "/" + strconv.Itoa(int(r.NSS))
	}
	return "-"
}

// Guard names a rate's guard interval like rc_stats: SGI, LGI, or "-" for
// legacy rates.
func Guard(r radio.Rate) string {
	switch {
	case r.Mode == radio.ModeLegacy:
		return "-"
	case r.ShortGI:
		return "SGI"
	}
	return "LGI"
}

// Streams is a rate's number of spatial streams.
func Streams(r radio.Rate) int {
	switch r.Mode {
	case radio.ModeHT:
		return int(r.MCS/8) + 1
	case radio.ModeVHT:
		return int(r.NSS)
	}
	return 1
}
