package kernelmodel

// txDone is the BlockAck: the station has the aggregate and answers with a
// TCP ACK after its own channel access. The driver learns of the
// completion CompletionDelay later (at once in the pre-registered model).
func (m *model) txDone() {
	n := m.hwAir
	first := (m.hwHead + m.hwDone) % hwRing
	fresh := 0
	for i := range n {
		if !m.dup[m.hw[(first+i)%hwRing].h] {
			fresh++
		}
	}
	since := m.sent[m.hw[first].h]
	m.delivered += uint64(fresh)
	m.hwAir = 0
	m.hwDone += n
	if d := m.cfg.Variant.CompletionDelay; d > 0 {
		m.at(d, evComplete, int32(n), 0)
	} else {
		m.complete(n)
	}
	acc := m.phy.aifs + slot*uint32(m.rng.IntN(int(m.phy.cwMin)+1))
	m.at(us(acc+m.phy.uplinkAck), evUplinkDone, int32(fresh), since)
}

// complete is the driver's TX completion of the oldest reported aggregate
// of n frames: per frame the AQL estimate is subtracted and the airtime
// charged (register_airtime), the skb freed (tcp_wfree); then the driver's
// completion round runs.
func (m *model) complete(n int) {
	total := m.phy.exchange(n)
	share := total / uint32(n)
	wake := false
	for i := range n {
		e := &m.hw[m.hwHead]
		m.aq.Complete(&e.tok)
		c := share
		if i == n-1 {
			c = total - share*uint32(n-1)
		}
		m.s.Charge(sta, be, c, m.now)
		m.release(e.h)
		if m.cfg.Traffic == TSQ && m.snd.freed() {
			wake = true
		}
		m.hwHead = (m.hwHead + 1) % hwRing
	}
	m.hwLen -= n
	m.hwDone -= n
	switch {
	case wake && m.cfg.Variant.TSQFirst:
		// Variant: the sender's new frames reach mac80211 first.
		m.tsqWake()
	case wake:
		// The TSQ tasklet runs after the driver's completion handler.
		m.at(m.cfg.Variant.TSQDelay, evTSQWake, 0, 0)
	}
	m.completed()
}
