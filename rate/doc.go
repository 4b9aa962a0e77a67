// Package rate chooses the PHY rate of each unicast data frame for one
// station, learning from TX-status echoes, in the manner of mac80211's
// minstrel_ht but for injection: a frame carries exactly one rate and a
// data retry count (radiotap RATE/MCS/VHT plus DATA_RETRIES), so there is
// no multi-rate retry chain inside a frame. Fallback therefore happens on
// the next frame: every frame that fails at the current rate moves the
// station one step down a short chain (best throughput, second best, most
// robust, lowest); a frame acknowledged down the chain sends the next one
// back to the best rate, as minstrel starts every frame there, until a few
// frames have been lost at the best rate, after which data stays down
// until the next statistics update.
//
// The rate table is built once per station from its capabilities (legacy,
// HT MCS 0-31, VHT MCS 0-9 up to four streams) intersected with the AP's and
// with the operating channel width; no rate is ever wider than the channel.
// Each rate keeps a success probability per attempt, averaged over up to
// about 64 attempts and restarted when an interval's measurement departs
// from it by more than chance explains, and an expected throughput, probability times the reference frame's bits
// over the airtime of one exchange at that rate (the caller supplies the
// airtime function, normally aql.Estimator.Airtime, so the package stays
// free of layers above it). Statistics are folded every Config.Interval of
// the caller's virtual time; there is no clock and no goroutine.
//
// A bounded share of frames samples faster rates than the current best:
// never more than Config.SampleShare of all frames picked, chosen by a
// deterministic per-station PRNG, half from the rates just above the best
// (to climb one step at a time) and half at random among all faster rates
// (to jump after a large channel change). A rate that failed its last
// samples is probed with a single attempt, and a rate whose samples would
// make it the best is sampled again before it carries data.
//
// A Station is not safe for concurrent use; the core owns it and calls Pick
// and Report from its single event loop. Pick and Report never allocate.
package rate
