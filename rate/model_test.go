package rate_test

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rate"
)

// The model channel: each rate has an SNR at which half its attempts
// succeed, and the success probability is a logistic curve around it,
// about 3 dB from 10% to 90%. Thresholds are typical receiver minimums:
// one stream, 20 MHz, long GI; +3 dB per bandwidth doubling (the noise
// doubles), +3 dB per extra stream, +0.5 dB for the short GI.
var (
	mcsSNR  = [10]float64{2, 5, 9, 11, 15, 18, 20, 25, 29, 31}
	ofdmSNR = map[uint8]float64{12: 2, 18: 3.5, 24: 5, 36: 8, 48: 11, 72: 15, 96: 18.5, 108: 20.5}
	cckSNR  = map[uint8]float64{2: -1, 4: 1.5, 11: 4, 22: 6.5}
)

func threshold(r radio.Rate) float64 {
	var t float64
	nss := 1
	switch r.Mode {
	case radio.ModeLegacy:
		if v, ok := cckSNR[r.Legacy]; ok {
			return v
		}
		return ofdmSNR[r.Legacy]
	case radio.ModeHT:
		t, nss = mcsSNR[r.MCS%8], int(r.MCS/8)+1
	case radio.ModeVHT:
		t, nss = mcsSNR[r.MCS], int(r.NSS)
	}
	t += 3 * math.Log2(float64(r.Bandwidth)/20)
	t += 3 * float64(nss-1)
	if r.ShortGI {
		t += 0.5
	}
	return t
}

func successProb(r radio.Rate, snr float64) float64 {
	return 1 / (1 + math.Exp(-(snr-threshold(r))/0.7))
}

// link is one station's setup: capabilities, channel and an SNR over time.
type link struct {
	name     string
	band2GHz bool
	width    radio.Bandwidth
	sta      rate.Caps
	snr      func(t time.Duration) float64
	steps    []time.Duration // instants where snr jumps, for settle measurements
	duration time.Duration
	warmup   time.Duration // excluded from the oracle ratio
}

var (
	capsLegacyG = rate.Caps{Legacy: 0x0fff}
	capsHT1     = rate.Caps{Legacy: 0x0fff, HT: true, HTMCS: 0xff, SGI20: true}
	capsHT2x40  = rate.Caps{Legacy: 0x0fff, HT: true, HTMCS: 0xffff, HT40: true, SGI20: true, SGI40: true}
	capsVHT2    = rate.Caps{Legacy: 0x0ff0, HT: true, HTMCS: 0xffff, HT40: true, SGI20: true, SGI40: true,
		VHT: true, VHTMap: ieee80211.VHTMap(2), SGI80: true}
	// the AP announces everything the radio can inject: 2 streams, VHT80
	capsAP = rate.Caps{HT: true, HTMCS: 0xffff, HT40: true, SGI20: true, SGI40: true,
		VHT: true, VHTMap: ieee80211.VHTMap(2), SGI80: true}
)

func airtimeFunc(band2GHz bool) rate.AirtimeFunc {
	ch := aql.DefaultChannel()
	ch.Band2GHz = band2GHz
	e := aql.NewEstimator(ch)
	return func(r radio.Rate, n int) uint32 { return e.Airtime(r, ieee80211.ACBE, n) }
}

func (l link) config(seed uint64) rate.Config {
	return rate.Config{Airtime: airtimeFunc(l.band2GHz), Width: l.width, Band2GHz: l.band2GHz,
		AP: capsAP, Station: l.sta, Seed: seed}
}

// result is what one simulated run measured.
type result struct {
	ratio       float64 // delivered bits / oracle bits after the warm-up
	settle      []int   // frames to settle after each step
	frames      int
	samples     int
	maxShare    float64 // highest samples/frames seen after 100 frames
	violations  []string
	delivered   float64 // Mbit/s
	oracleMbits float64
}

// inFlight models the echo delay: the core learns a frame's fate only
// after the next few frames have been handed to the radio.
const inFlight = 4

type sent struct {
	r        radio.Rate
	attempts int
	acked    bool
	sample   bool
	tpRatio  float64 // true throughput of the frame's rate / oracle's
}

// run drives one station over a fully backlogged downlink: frames of the
// reference length back to back, each at the rate Pick returns, its
// attempts drawn from the model, its echo reported inFlight frames later.
func run(l link, seed uint64) result {
	cfg := l.config(seed)
	st, err := rate.New(cfg)
	if err != nil {
		panic(err)
	}
	table := st.Stats()
	air := cfg.Airtime
	bits := float64(8 * rate.DefaultFrameLen)
	rng := rand.New(rand.NewPCG(seed, 7))
	trueTP := func(r radio.Rate, snr float64) float64 {
		return successProb(r, snr) * bits / float64(air(r, rate.DefaultFrameLen))
	}
	oracle := func(snr float64) float64 {
		best := 0.0
		for _, row := range table {
			best = max(best, trueTP(row.Rate, snr))
		}
		return best
	}
	var (
		res      result
		now      time.Duration
		queue    []sent
		perFrame []float64 // data frames' tp ratio, by frame index
		stepAt   []int
		bitsOK   float64
		bitsOrc  float64
		airUsed  time.Duration
	)
	nextStep := 0
	for now < l.duration {
		if nextStep < len(l.steps) && now >= l.steps[nextStep] {
			stepAt = append(stepAt, len(perFrame))
			nextStep++
		}
		r, retries, sample := st.Pick(now)
		res.frames++
		if sample {
			res.samples++
		}
		if res.frames >= 100 {
			res.maxShare = max(res.maxShare, float64(res.samples)/float64(res.frames))
		}
		res.violations = append(res.violations, check(l, r)...)
		snr := l.snr(now)
		p := successProb(r, snr)
		f := sent{r: r, sample: sample, tpRatio: trueTP(r, snr) / oracle(snr)}
		for a := 0; a <= int(retries); a++ {
			f.attempts++
			if rng.Float64() < p {
				f.acked = true
				break
			}
		}
		d := time.Duration(f.attempts) * time.Duration(air(r, rate.DefaultFrameLen)) * time.Microsecond
		if now >= l.warmup {
			if f.acked {
				bitsOK += bits
			}
			bitsOrc += oracle(snr) * float64(d/time.Microsecond)
			airUsed += d
		}
		now += d
		if !sample {
			perFrame = append(perFrame, f.tpRatio)
		}
		queue = append(queue, f)
		if len(queue) > inFlight {
			e := queue[0]
			queue = queue[1:]
			st.Report(e.r, e.attempts, e.acked, now)
		}
	}
	res.ratio = bitsOK / bitsOrc
	res.delivered = bitsOK / float64(airUsed/time.Microsecond)
	res.oracleMbits = bitsOrc / float64(airUsed/time.Microsecond)
	for i, at := range stepAt {
		end := len(perFrame)
		if i+1 < len(stepAt) {
			end = stepAt[i+1]
		}
		res.settle = append(res.settle, settleFrames(perFrame[at:end]))
	}
	return res
}

const (
	settleBlock = 100 // data frames per block of the settle measure
	settleRatio = 0.9 // a block is settled when its mean rate reaches this share of the oracle
	settleHold  = 5   // consecutive settled blocks
)

// settleFrames returns how many data frames after a step it took until
// settleHold consecutive blocks of settleBlock frames each ran, on average,
// at rates giving at least settleRatio of the oracle's throughput. A run
// that never gets there counts as all of its frames.
func settleFrames(ratios []float64) int {
	good := 0
	for b := 0; b+settleBlock <= len(ratios); b += settleBlock {
		sum := 0.0
		for _, v := range ratios[b : b+settleBlock] {
			sum += v
		}
		if sum/settleBlock < settleRatio {
			good = 0
			continue
		}
		if good++; good == settleHold {
			return b + settleBlock - settleHold*settleBlock
		}
	}
	return len(ratios)
}

// check returns what a picked rate must never be on this link.
func check(l link, r radio.Rate) []string {
	var v []string
	if !l.sta.HT && r.Mode != radio.ModeLegacy {
		v = append(v, "HT/VHT rate for a legacy station: "+rate.Name(r))
	}
	if r.Bandwidth > l.width || r.Mode == radio.ModeHT && r.Bandwidth > radio.BW40 {
		v = append(v, "rate wider than the channel: "+rate.Mode(r)+" "+rate.Name(r))
	}
	if r.Mode == radio.ModeLegacy && r.Legacy < 12 && !l.band2GHz {
		v = append(v, "CCK rate on 5 GHz")
	}
	return v
}

func constSNR(db float64) func(time.Duration) float64 {
	return func(time.Duration) float64 { return db }
}

// stepSNR holds levels[i] from steps[i-1] on.
func stepSNR(levels []float64, steps []time.Duration) func(time.Duration) float64 {
	return func(t time.Duration) float64 {
		i := 0
		for i < len(steps) && t >= steps[i] {
			i++
		}
		return levels[i]
	}
}

// driftSNR moves slowly between lo and hi with the given period.
func driftSNR(lo, hi float64, period time.Duration) func(time.Duration) float64 {
	return func(t time.Duration) float64 {
		x := 0.5 - 0.5*math.Cos(2*math.Pi*float64(t)/float64(period))
		return lo + (hi-lo)*x
	}
}
