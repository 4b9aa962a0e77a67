package scan

import (
	"errors"
	"math"
	"slices"

	"github.com/airq/airq/internal/ieee80211"
)

// Bias scales one channel's score, as hostapd's acs_chan_bias does: below
// 1 prefers the channel, above 1 avoids it.
type Bias struct {
	Channel int
	Factor  float64
}

// ACSConfig tunes start-up channel selection.
type ACSConfig struct {
	// Width is the operating width in MHz: 20 (default), 40 or 80. Wider
	// channels are scored over their whole span with the primary lowest,
	// on the primaries IEEE 802.11 Annex E allows on 5 GHz, as hostapd does.
	Width int
	// Bias replaces the default bias, hostapd's 0.8 on 2.4 GHz channels 1,
	// 6 and 11 (ACS_24GHZ_PREFER_1_6_11).
	Bias   []Bias
	NoBias bool // no bias at all
	// NeighbourWeight is the penalty a strong (≥ −60 dBm) neighbour BSS adds
	// to each 20 MHz channel it occupies, in units of busy fraction: 0.1
	// (default) counts it as 10% busy. Weaker BSSs count linearly less down
	// to a quarter at −90 dBm, and never less than a tenth. Negative: none.
	NeighbourWeight float64
	// ExcludePassive leaves out no-IR and radar channels (acs_exclude_dfs).
	ExcludePassive bool
}

// DefaultNeighbourWeight is ACSConfig.NeighbourWeight's default.
const DefaultNeighbourWeight = 0.1

// hostapd's weights of the 2.4 GHz channels 5 and 10 MHz away, whose
// 20 MHz spectrum overlaps ours (ACS_ADJ_WEIGHT, ACS_NEXT_ADJ_WEIGHT).
const (
	adjWeight     = 0.85
	nextAdjWeight = 0.55
	commonBias    = 0.8
)

// ChannelScore is one channel's figures, for the log and airqctl.
type ChannelScore struct {
	Freq, Channel int
	Candidate     bool    // may be the primary channel
	HasSurvey     bool    // survey data usable
	Busy          float64 // (busy − tx) / (active − tx)
	Noise         int8
	// Interference is hostapd's factor, 10^(nf/5) + Busy × 2^(10^(nf/10) −
	// 10^(min_nf/10)); without a noise figure nf is taken as min_nf.
	Interference     float64
	Neighbours       int // BSSs occupying the channel
	NeighbourPenalty float64
	Factor           float64 // Interference + NeighbourPenalty
	Total            float64 // over the span and, on 2.4 GHz, the overlapping channels
	Bias             float64
	Score            float64 // Total × Bias; the lowest candidate wins
}

// Decision is the outcome of Select.
type Decision struct {
	Freq, Channel int
	Score         float64
	Width         int
	Method        string // "survey", or "bss" when no channel had survey data
	Channels      []ChannelScore
}

// ErrNoChannel is returned when no channel can be chosen.
var ErrNoChannel = errors.New("scan: acs: no usable channel")

// Select scores chans from the survey and the neighbour BSSs and picks the
// channel with the lowest score, like hostapd's survey-based ACS
// (src/ap/acs.c). Two differences: channel figures are time-weighted over
// every run rather than averaged per scan, and when no channel has survey
// data the neighbour BSSs alone decide (Method "bss") instead of failing.
func Select(chans []Channel, surveys []Survey, bsses []BSS, cfg ACSConfig) (Decision, error) {
	if cfg.Width == 0 {
		cfg.Width = 20
	}
	if cfg.NeighbourWeight == 0 {
		cfg.NeighbourWeight = DefaultNeighbourWeight
	}
	d := Decision{Width: cfg.Width, Method: "bss", Channels: make([]ChannelScore, len(chans))}
	minNF, hasNF := minNoise(chans, surveys)
	for i, c := range chans {
		s := &d.Channels[i]
		s.Freq, s.Channel = c.Freq, ieee80211.FreqToChannel(c.Freq)
		s.Candidate = !c.Disabled && !(cfg.ExcludePassive && c.Passive)
		if sv := findSurvey(surveys, c.Freq); sv != nil && sv.Active > 0 {
			s.HasSurvey = true
			s.interference(sv, minNF, hasNF)
			d.Method = "survey"
		}
	}
	for i := range d.Channels {
		s := &d.Channels[i]
		s.neighbours(bsses, max(cfg.NeighbourWeight, 0))
		s.Factor = s.Interference + s.NeighbourPenalty
	}
	best := -1
	for i := range d.Channels {
		s := &d.Channels[i]
		if !d.total(s, chans, cfg.Width) {
			s.Candidate = false
			continue
		}
		s.Bias = bias(s, cfg)
		s.Score = s.Total * s.Bias
		if best < 0 || s.Score < d.Channels[best].Score {
			best = i
		}
	}
	if best < 0 {
		return d, ErrNoChannel
	}
	d.Freq, d.Channel, d.Score = d.Channels[best].Freq, d.Channels[best].Channel, d.Channels[best].Score
	return d, nil
}

func findSurvey(ss []Survey, freq int) *Survey {
	for i := range ss {
		if ss[i].Freq == freq {
			return &ss[i]
		}
	}
	return nil
}

// minNoise returns the lowest noise floor reported on any of chans.
func minNoise(chans []Channel, surveys []Survey) (int8, bool) {
	nf, ok := int8(0), false
	for _, c := range chans {
		if s := findSurvey(surveys, c.Freq); s != nil && s.HasNoise && (!ok || s.Noise < nf) {
			nf, ok = s.Noise, true
		}
	}
	return nf, ok
}

// interference computes hostapd's factor. With no noise figure on any
// channel the noise terms are left out: the factor is the busy fraction.
func (s *ChannelScore) interference(sv *Survey, minNF int8, hasNF bool) {
	busy, total := sv.Busy, sv.Active
	if busy == 0 {
		busy = sv.Rx // hostapd falls back to the receive time
	}
	busy, total = max(busy-sv.Tx, 0), total-sv.Tx
	if total > 0 {
		s.Busy = float64(busy) / float64(total)
	}
	if !hasNF {
		s.Interference = s.Busy
		return
	}
	nf := minNF
	if sv.HasNoise {
		nf = sv.Noise
	}
	s.Noise = nf
	mw := func(dbm int8) float64 { return math.Pow(10, float64(dbm)/10) }
	s.Interference = math.Pow(10, float64(nf)/5) + s.Busy*math.Pow(2, mw(nf)-mw(minNF))
}

// neighbours counts the BSSs occupying the channel and their penalty.
func (s *ChannelScore) neighbours(bsses []BSS, weight float64) {
	for i := range bsses {
		if !occupies(&bsses[i], s.Freq) {
			continue
		}
		s.Neighbours++
		s.NeighbourPenalty += weight * strength(&bsses[i])
	}
}

// strength maps a BSS's signal to [0.1, 1]: 1 at −60 dBm and above,
// falling linearly to 0.25 at −90 dBm; 0.5 when the signal is unknown.
func strength(b *BSS) float64 {
	if !b.HasSignal {
		return 0.5
	}
	return min(max((float64(b.Signal)+100)/40, 0.1), 1)
}

// occupies reports whether b's channel covers the 20 MHz channel at freq:
// its primary, its HT secondary, or the span of its VHT 80 MHz channel.
func occupies(b *BSS, freq int) bool {
	if b.Freq == freq {
		return true
	}
	if b.HTOper {
		switch b.HTSecondary {
		case ieee80211.HTOperSecondaryAbove:
			if freq == b.Freq+20 {
				return true
			}
		case ieee80211.HTOperSecondaryBelow:
			if freq == b.Freq-20 {
				return true
			}
		}
	}
	if b.VHTOper && b.VHTWidth >= ieee80211.VHTOperWidth80 && b.Freq > 5000 {
		c := ieee80211.ChannelToFreq(int(b.VHTSeg0), ieee80211.Band5GHz)
		return c != 0 && freq >= c-30 && freq <= c+30
	}
	return false
}

// total weighs the span of a candidate primary (and, on 2.4 GHz, the
// channels overlapping it) as hostapd's acs_find_ideal_chan does. It
// returns false if s cannot be a primary of that width.
func (d *Decision) total(s *ChannelScore, chans []Channel, width int) bool {
	if !s.Candidate || (d.Method == "survey" && !s.HasSurvey) || !primaryAllowed(s, width) {
		return false
	}
	two := s.Freq < 3000
	var sum, weight float64
	for j := range width / 20 {
		f := s.Freq + 20*j
		span := d.find(f, chans)
		if span == nil || (j > 0 && !span.usable(d.Method)) {
			return false
		}
		sum, weight = sum+span.Factor, weight+1
		if !two {
			continue
		}
		for _, a := range [4]struct {
			off int
			w   float64
		}{{-5, adjWeight}, {-10, nextAdjWeight}, {5, adjWeight}, {10, nextAdjWeight}} {
			if adj := d.find(f+a.off, chans); adj != nil && adj.usable(d.Method) {
				sum, weight = sum+a.w*adj.Factor, weight+a.w
			}
		}
	}
	s.Total = sum / weight
	return true
}

func (d *Decision) find(freq int, chans []Channel) *ChannelScore {
	for i := range d.Channels {
		if d.Channels[i].Freq == freq && !chans[i].Disabled {
			return &d.Channels[i]
		}
	}
	return nil
}

func (s *ChannelScore) usable(method string) bool {
	return method != "survey" || s.HasSurvey
}

// primaryAllowed restricts 40 and 80 MHz primaries on 5 GHz to the lowest
// channel of each block, as hostapd's acs_usable_ht40/vht80_chan do.
func primaryAllowed(s *ChannelScore, width int) bool {
	if s.Freq < 5000 || width == 20 {
		return true
	}
	ht40 := []int{36, 44, 52, 60, 100, 108, 116, 124, 132, 140, 149, 157, 165, 173, 184, 192}
	vht80 := []int{36, 52, 100, 116, 132, 149, 165}
	if width == 40 {
		return slices.Contains(ht40, s.Channel)
	}
	return slices.Contains(vht80, s.Channel)
}

func bias(s *ChannelScore, cfg ACSConfig) float64 {
	if cfg.NoBias {
		return 1
	}
	if cfg.Bias != nil {
		for _, b := range cfg.Bias {
			if b.Channel == s.Channel {
				return b.Factor
			}
		}
		return 1
	}
	if s.Freq < 3000 && (s.Channel == 1 || s.Channel == 6 || s.Channel == 11) {
		return commonBias
	}
	return 1
}
