package sim

import (
	"slices"
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
	apn := s.med.nodes[0]
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
	p.airtime = s.med.airOf(apn.freq).exchange(p.rate, len(fr)+4, p.noAck)
	switch {
	case s.radio.scan != nil:
		// A one-trip scan stopped the queues: frames wait for the return,
		// beacons are not sent at all.
		if fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
			s.stats.BeaconsStopped++
			s.freePacket(p)
			return
		}
		s.radio.held = append(s.radio.held, p)
		return
	case s.radio.waitTx || s.radio.retuning:
		s.stats.TxWhileRetuning++
		s.freePacket(p)
		return
	case apn.freq != s.med.freq && !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeProbeReq):
		s.stats.CoreOffChannel++
	}
	s.enqueue(apn, p)
}

// transmit queues a station's frame (p.b holds the 802.11 frame).
func (s *Sim) transmit(st *Station, p *packet, ac ieee80211.AC, r radio.Rate) {
	if !s.sendFrom(st.node, p, ac, r) {
		st.stats.QueueDrops++
	}
}

// sendFrom queues a frame of a station or a foreign BSS on its channel;
// false (and p freed) when the queue is full.
func (s *Sim) sendFrom(n *node, p *packet, ac ieee80211.AC, r radio.Rate) bool {
	fr := p.frame()
	p.ac, p.rate = ac, r
	p.group = fr.Addr1().IsMulticast()
	p.noAck = p.noAck || p.group
	p.limit = s.cfg.Medium.RetryLimit
	p.airtime = s.med.airOf(n.freq).exchange(r, len(fr)+4, p.noAck)
	if !s.enqueue(n, p) {
		s.freePacket(p)
		return false
	}
	return true
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

// apHears reports whether the AP's radio receives on freq: tuned there and
// not retuning.
func (s *Sim) apHears(freq uint16) bool {
	return s.med.nodes[0].freq == freq && !s.radio.retuning
}

// receiverOf returns the node a unicast frame on a is for: the AP (0) or
// an existing station on that channel; false if nobody there has that
// address.
func (s *Sim) receiverOf(a *air, p *packet) (int, bool) {
	a1 := p.frame().Addr1()
	if p.from != 0 {
		return 0, s.med.bssIndex(a1) >= 0 && s.apHears(a.freq)
	}
	st, ok := s.byMAC[a1]
	if !ok {
		st, ok = s.floodOwner[a1] // a flooder's address that acknowledges
	}
	if !ok || st.node.freq != a.freq {
		return 0, false
	}
	return st.node.id, true
}

// stationOf returns the station at one end of the link p travels; nil for
// a link between the AP and a foreign BSS.
func (s *Sim) stationOf(p *packet, rx int) *Station {
	if p.from != 0 {
		return s.med.nodes[p.from].sta
	}
	return s.med.nodes[rx].sta
}

func (s *Sim) linkLoss(p *packet, rx int) float64 {
	st := s.stationOf(p, rx)
	if st == nil {
		return 0
	}
	if p.from == 0 && !st.listening() {
		return 1
	}
	if s.cfg.Medium.SignalLoss {
		return 1 - (1-st.cfg.Loss)*(1-signalLoss(p.rate, st.cfg.Signal, len(p.frame())+4))
	}
	return st.cfg.Loss
}

func (s *Sim) ackLoss(p *packet, rx int) float64 {
	if st := s.stationOf(p, rx); st != nil {
		return st.cfg.AckLoss
	}
	return 0
}

// unacked reports whether the AP's radio receives p (rx 0) without
// acknowledging it: its BSSID is one of MediumConfig.Unacked.
func (s *Sim) unacked(p *packet, rx int) bool {
	return rx == 0 && len(s.cfg.Medium.Unacked) > 0 && slices.Contains(s.cfg.Medium.Unacked, p.frame().Addr1())
}

func (s *Sim) deliver(a *air, p *packet, rx int) {
	if rx == 0 {
		s.toCore(a, p)
		return
	}
	s.med.nodes[rx].sta.receive(p.frame())
}

// deliverGroup hands a group frame on a to every receiver there that hears
// it.
func (s *Sim) deliverGroup(a *air, p *packet) {
	fr := p.frame()
	from := s.med.nodes[p.from]
	switch {
	case from.sta != nil:
		if s.rng.Float64() >= from.sta.cfg.Loss && s.apHears(a.freq) {
			s.toCore(a, p)
		}
	case from.bss != nil:
		if s.apHears(a.freq) {
			s.toCore(a, p)
		}
	}
	if p.from == 0 || from.bss != nil {
		for _, st := range s.stations {
			if st.node.freq == a.freq && st.hears(fr) && (from.bss != nil || s.rng.Float64() >= st.cfg.Loss) {
				st.receive(fr)
			}
		}
	}
	for _, b := range s.foreign {
		if b.node.freq == a.freq && b != from.bss {
			b.hear(fr)
		}
	}
}

// toCore hands a frame heard on a to the core with the radiotap header
// mac80211 puts on received frames.
func (s *Sim) toCore(a *air, p *packet) {
	from := s.med.nodes[p.from]
	var signal int8
	switch {
	case from.sta != nil:
		signal = from.sta.cfg.Signal
	case from.bss != nil:
		signal = from.bss.cfg.Signal
		from.bss.heard = append(from.bss.heard, s.now)
		from.bss.stats.HeardByAP++
		if p.frame().Is(ieee80211.TypeMgmt, ieee80211.SubtypeProbeResp) {
			from.bss.stats.ProbeRespsOK++
		}
	}
	b := radiotap.AppendRx(s.scratch[:0], radio.RxInfo{
		TSFT: uint64(s.now / time.Microsecond), HasTSFT: true,
		Freq: a.freq, Signal: signal, HasSignal: true, Rate: p.rate,
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
