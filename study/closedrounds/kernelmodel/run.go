package kernelmodel

import (
	"math/rand/v2"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/txq"
)

// Run simulates one configuration and returns its counters. The same Config
// always gives the same Result.
func Run(cfg Config) Result {
	m := newModel(cfg)
	for at, ok := m.ev.Next(); ok && at <= m.cfg.Duration; at, ok = m.ev.Next() {
		m.step(m.ev.Pop())
	}
	return m.result()
}

// newModel builds a run's state with the sender's first window handed down.
func newModel(cfg Config) *model {
	cfg.fill()
	m := &model{cfg: cfg, phy: newPHY(cfg.Rate)}
	m.rng = rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	m.charge = aql.KernelCharge(cfg.Rate, skbLen, true)
	m.aq = aql.New(aql.Config{})
	if err := m.aq.SetLimit(be, cfg.LimitLow, cfg.LimitHigh); err != nil {
		panic(err)
	}
	if cfg.Variant.StationLowOnly {
		m.aq.SetThreshold(0)
	}
	s, err := txq.New(txq.Config{
		Mode:             txq.Trace,
		LegacyRoundReset: cfg.Arm == Legacy,
		MaxStations:      1,
		Airtime:          m.aq,
		Owner:            m,
	})
	if err != nil {
		panic(err) // the configuration above is constant and valid
	}
	m.s = s
	if err := s.AddStation(sta); err != nil {
		panic(err)
	}
	if cfg.Traffic == TSQ {
		m.snd = newSender(wifiPacingShift, m.emitAP)
	} else {
		m.snd = newSender(nicPacingShift, m.emitHost)
	}
	m.snd.drain = cfg.Variant.TSQDrain && cfg.Traffic == TSQ
	m.snd.push(0)
	return m
}

// result closes the run at its end and collects the counters.
func (m *model) result() Result {
	cfg := m.cfg
	m.now = cfg.Duration
	if !m.busy {
		m.idle += m.now - m.idleSince
	}
	st := m.s.Stats(be)
	r := Result{
		Mbps:         float64(m.delivered) * mss * 8 / cfg.Duration.Seconds() / 1e6,
		RoundsOpened: st.RoundsOpened,
		RoundsClosed: st.RoundsClosed,
		Selections:   st.Selections,
		Skipped:      st.Skipped,
		SkippedStale: st.SkippedStale,
		Aggregates:   m.aggs,
		MediumIdle:   m.idle.Seconds() / cfg.Duration.Seconds(),
		CoDelDrops:   m.codelDrops,
		TSQThrottles: m.snd.throttles,
		Probes:       m.probes,
		RTOs:         m.rtos,
		FinalCwnd:    m.snd.cwnd,
	}
	if m.aggs > 0 {
		r.AggFrames = float64(m.aggFrames) / float64(m.aggs)
	}
	return r
}
