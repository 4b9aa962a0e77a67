package sim

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
)

// fromCore puts one frame of the core's radio output on the AP's queue for
// the AC mac80211 would choose. The radiotap TX header decides the rate,
// NOACK and the retry count, as it does for a real injection.
func (s *Sim) fromCore(f []byte) {
	var txs radio.TxStatus
	n, _, err := radiotap.Parse(f, nil, &txs)
	if err != nil {
		s.stats.CoreBadFrames++
		return
	}
	fr, err := ieee80211.ParseFrame(f[n:])
	if err != nil {
		s.stats.CoreBadFrames++
		return
	}
	p := s.copyPacket(f)
	p.rtLen = n
	p.rate = txs.Rate
	if p.rate.Mode == radio.ModeNone {
		p.rate = s.med.lowest
	}
	p.group = fr.Addr1().IsMulticast()
	p.noAck = txs.Flags&radio.TxNoAck != 0 || p.group
	p.limit = s.cfg.Medium.RetryLimit
	if txs.Retries > 0 {
		p.limit = int(txs.Retries) + 1
	}
	p.ac = acOf(fr)
	p.airtime = s.med.exchange(p.rate, len(fr)+4, p.noAck)
	s.enqueue(s.med.nodes[0], p)
}

// transmit queues a station's frame (p.b holds the 802.11 frame).
func (s *Sim) transmit(st *Station, p *packet, ac ieee80211.AC, r radio.Rate) {
	fr := p.frame()
	p.ac, p.rate = ac, r
	p.group = fr.Addr1().IsMulticast()
	p.noAck = p.group
	p.limit = s.cfg.Medium.RetryLimit
	p.airtime = s.med.exchange(r, len(fr)+4, p.noAck)
	if !s.enqueue(st.node, p) {
		st.stats.QueueDrops++
		s.freePacket(p)
	}
}

// acOf is the hardware queue mac80211 uses for a frame (wme.c): management
// and control on VO, QoS data by TID, other data on BE.
func acOf(fr ieee80211.Frame) ieee80211.AC {
	switch {
	case fr.Type() != ieee80211.TypeData:
		return ieee80211.ACVO
	case fr.IsQoS():
		return ieee80211.TIDToAC(fr.TID())
	}
	return ieee80211.ACBE
}

// receiverOf returns the node a unicast frame is for: the AP (0) or an
// existing station; false if nobody on the channel has that address.
func (s *Sim) receiverOf(p *packet) (int, bool) {
	a1 := p.frame().Addr1()
	if p.from != 0 {
		return 0, a1 == s.med.bssid
	}
	st, ok := s.byMAC[a1]
	if !ok {
		return 0, false
	}
	return st.node.id, true
}

// stationOf returns the station at one end of the link p travels.
func (s *Sim) stationOf(p *packet, rx int) *Station {
	if p.from != 0 {
		return s.med.nodes[p.from].sta
	}
	return s.med.nodes[rx].sta
}

func (s *Sim) linkLoss(p *packet, rx int) float64 {
	st := s.stationOf(p, rx)
	if p.from == 0 && !st.listening() {
		return 1
	}
	return st.cfg.Loss
}

func (s *Sim) ackLoss(p *packet, rx int) float64 { return s.stationOf(p, rx).cfg.AckLoss }

func (s *Sim) deliver(p *packet, rx int) {
	if rx == 0 {
		s.toCore(p)
		return
	}
	s.med.nodes[rx].sta.receive(p.frame())
}

// deliverGroup hands a group frame to every receiver that hears it.
func (s *Sim) deliverGroup(p *packet) {
	if p.from != 0 {
		if s.rng.Float64() >= s.med.nodes[p.from].sta.cfg.Loss {
			s.toCore(p)
		}
		return
	}
	fr := p.frame()
	for _, st := range s.stations {
		if st.hears(fr) && s.rng.Float64() >= st.cfg.Loss {
			st.receive(fr)
		}
	}
}

// toCore hands a station's frame to the core with the radiotap header
// mac80211 puts on received frames.
func (s *Sim) toCore(p *packet) {
	st := s.med.nodes[p.from].sta
	b := radiotap.AppendRx(s.scratch[:0], radio.RxInfo{
		TSFT: uint64(s.now / time.Microsecond), HasTSFT: true,
		Freq: s.med.freq, Signal: st.cfg.Signal, HasSignal: true, Rate: p.rate,
	})
	b = append(b, p.frame()...)
	s.scratch = b[:0]
	s.toCoreRaw(b)
}

// echo returns the TX status of a frame the AP sent, in the layout mac80211
// uses, after the echo delay; or loses it.
func (s *Sim) echo(p *packet) {
	defer s.freePacket(p)
	if s.cfg.Medium.NoEchoes || (s.cfg.Medium.EchoLoss > 0 && s.rng.Float64() < s.cfg.Medium.EchoLoss) {
		s.stats.EchoesLost++
		return
	}
	e := s.newPacket()
	// The kernel marks failure only for unicast frames nobody ACKed; a NOACK
	// unicast frame therefore reads "failed".
	acked := p.group || (p.acked && !p.noAck)
	e.b = radiotap.AppendEcho(e.b[:0], radio.TxStatus{Acked: acked, Retries: uint8(p.attempts - 1), Rate: p.rate})
	e.b = append(e.b, p.frame()...)
	s.stats.Echoes++
	s.schedule(s.now+s.cfg.Medium.EchoDelay, evEcho, 0, e, nil)
}
