package sim

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// Flooders. A flooder (StationConfig.Flood) never associates itself; it
// sends frames from addresses it makes up. By default each frame is a
// wildcard probe request or an open authentication from a fresh address,
// so the AP's answers go to nobody and are never ACKed. With FloodAssoc it
// is an admission flood from a fixed set of addresses, taken in turn: each
// authenticates and then asks to associate. The share FloodAcks of them
// behave like real radios: they acknowledge what the AP sends them and
// send their association request when the authentication response
// arrives. The others send theirs blindly, a flood interval after their
// authentication, and acknowledge nothing. FloodAtMedium sends as fast as
// the medium allows instead of at a rate; FloodDecoy replaces each frame
// with an Action frame of its length that the AP ignores, the control arm
// of a flood's airtime; StopFlood and StartFlood (from new addresses) make
// cycles.

// flooder reports whether the station floods rather than associates.
func (st *Station) flooder() bool { return st.cfg.Flood > 0 || st.floodSt != nil }

// floodDefaultAddrs is FloodAddrs when zero.
const floodDefaultAddrs = 3000

// floodBacklog is how many frames a flooder at the medium's rate keeps
// queued: enough that the medium never waits for it.
const floodBacklog = 2

// floodState is a flooder's admission flood.
type floodState struct {
	addrs    []ieee80211.MAC
	acks     []bool
	next     int
	blind    int  // an address whose association request goes next
	hasBlind bool // blind holds one
	stopped  bool // StopFlood: nothing more is sent
	queued   int  // frames of the flood in the transmit queue
	// Associated counts the success responses acknowledging addresses
	// received: forged stations the AP really associated.
	associated uint64
}

// initFlood draws the flooder's addresses; those that acknowledge are
// registered with the medium, which then delivers (and ACKs) frames to
// them.
func (st *Station) initFlood() {
	if !st.cfg.FloodAssoc {
		return
	}
	n := st.cfg.FloodAddrs
	if n <= 0 {
		n = floodDefaultAddrs
	}
	st.floodSt = &floodState{addrs: make([]ieee80211.MAC, n), acks: make([]bool, n)}
	st.drawFloodAddrs()
}

// drawFloodAddrs draws new addresses in place, registering those that
// acknowledge.
func (st *Station) drawFloodAddrs() {
	f := st.floodSt
	for i := range f.addrs {
		f.addrs[i] = st.sim.randomMAC()
		f.acks[i] = st.sim.rng.Float64() < st.cfg.FloodAcks
		if f.acks[i] {
			st.sim.floodOwner[f.addrs[i]] = st
		}
	}
	f.next, f.hasBlind = 0, false
}

// StopFlood ends an admission flood: nothing more is sent, and its
// addresses no longer acknowledge (the forged radios are gone).
func (st *Station) StopFlood() {
	f := st.floodSt
	if f == nil || f.stopped {
		return
	}
	f.stopped = true
	st.gen++ // cancel the flood's timer
	for i, m := range f.addrs {
		if f.acks[i] {
			delete(st.sim.floodOwner, m)
		}
	}
}

// StartFlood starts a stopped admission flood again, from new addresses
// drawn in place of the old ones.
func (st *Station) StartFlood() {
	f := st.floodSt
	if f == nil || !f.stopped {
		return
	}
	f.stopped = false
	st.drawFloodAddrs()
	st.armTimer(0)
}

// randomMAC is a locally administered unicast address.
func (s *Sim) randomMAC() ieee80211.MAC {
	var m ieee80211.MAC
	r := s.rng.Uint64()
	for i := range m {
		m[i] = byte(r >> (8 * i))
	}
	m[0] = m[0]&^1 | 2
	return m
}

// flood sends one frame of a flooder and arms the next; a flooder at the
// medium's rate fills its backlog instead, and goes on as frames leave the
// air (floodLeft).
func (st *Station) flood() {
	if f := st.floodSt; f != nil && st.cfg.FloodAtMedium {
		for !f.stopped && f.queued < floodBacklog {
			f.queued++
			st.sim.stats.FloodFrames++
			st.floodAdmission()
		}
		return
	}
	st.sim.stats.FloodFrames++
	if st.floodSt != nil {
		st.floodAdmission()
	} else {
		st.floodFresh()
	}
	st.armTimer(time.Duration(float64(time.Second) / st.cfg.Flood))
}

// floodLeft is called when one of a flooder's frames leaves the air.
func (st *Station) floodLeft() {
	f := st.floodSt
	f.queued = max(f.queued-1, 0)
	if st.cfg.FloodAtMedium && !f.stopped {
		st.flood()
	}
}

// floodFresh sends a wildcard probe request or an open authentication
// from a fresh address.
func (st *Station) floodFresh() {
	from := st.sim.randomMAC()
	p := st.sim.newPacket()
	if st.sim.stats.FloodFrames%2 == 0 {
		p.b = ieee80211.AppendProbeReq(p.b[:0], from, "", st.rates(), st.nextMgmtSeq())
	} else {
		p.b = ieee80211.AppendMgmtHeader(p.b[:0], ieee80211.SubtypeAuth, st.floodBSSID(), from, st.floodBSSID(), st.nextMgmtSeq())
		p.b = ieee80211.AppendAuth(p.b, 0, 1, 0)
	}
	st.sim.transmit(st, p, st.cfg.FloodAC, st.sim.med.lowest)
}

// floodAdmission sends the next address's authentication, or the blind
// association request of the address before.
func (st *Station) floodAdmission() {
	f := st.floodSt
	if f.hasBlind {
		f.hasBlind = false
		st.floodAssocReq(f.addrs[f.blind])
		return
	}
	i := f.next
	f.next = (f.next + 1) % len(f.addrs)
	from := f.addrs[i]
	p := st.sim.newPacket()
	p.b = ieee80211.AppendMgmtHeader(p.b[:0], ieee80211.SubtypeAuth, st.floodBSSID(), from, st.floodBSSID(), st.nextMgmtSeq())
	p.b = ieee80211.AppendAuth(p.b, 0, 1, 0)
	st.floodSend(p)
	if !f.acks[i] {
		f.blind, f.hasBlind = i, true
	}
}

func (st *Station) floodAssocReq(from ieee80211.MAC) {
	b := ieee80211.AppendAssocReq(st.buf[:0], staCapability, 10)
	b = ieee80211.AppendSSID(b, st.floodSSID())
	b = ieee80211.AppendRates(b, st.rates())
	st.buf = b[:0]
	p := st.sim.newPacket()
	p.b = ieee80211.AppendMgmtHeader(p.b[:0], ieee80211.SubtypeAssocReq, st.floodBSSID(), from, st.floodBSSID(), st.nextMgmtSeq())
	p.b = append(p.b, b...)
	st.floodSend(p)
}

// floodSend sends an admission frame, or with FloodDecoy an Action frame
// of its length in its place: a vendor-specific category with a zero
// OUI, which the AP ignores from a station that is not associated.
func (st *Station) floodSend(p *packet) {
	if st.cfg.FloodDecoy {
		fr := p.frame()
		n := len(fr)
		p.b = ieee80211.AppendMgmtHeader(p.b[:0], ieee80211.SubtypeAction, st.floodBSSID(), fr.Addr2(), st.floodBSSID(), fr.SeqCtl()>>4)
		p.b = append(p.b, 127)
		for len(p.b) < n {
			p.b = append(p.b, 0)
		}
	}
	st.sim.transmit(st, p, st.cfg.FloodAC, st.cfg.Rate)
}

// floodReceive takes a frame the AP sent to one of the flooder's
// acknowledging addresses: an authentication response is followed by the
// association request, as a station's would be.
func (st *Station) floodReceive(fr ieee80211.Frame) {
	if st.floodSt == nil || fr.Type() != ieee80211.TypeMgmt || fr.Addr2() != st.floodBSSID() {
		return
	}
	switch fr.Subtype() {
	case ieee80211.SubtypeAuth:
		if a, err := ieee80211.ParseAuth(fr.Body()); err == nil && a.Transaction() == 2 && a.Status() == ieee80211.StatusSuccess && !st.floodSt.stopped {
			st.floodSt.queued++ // on its way like the backlog's frames
			st.sim.stats.FloodFrames++
			st.floodAssocReq(fr.Addr1())
		}
	case ieee80211.SubtypeAssocResp:
		if r, err := ieee80211.ParseAssocResp(fr.Body()); err == nil && r.Status() == ieee80211.StatusSuccess {
			st.floodSt.associated++
		}
	}
}

// FloodAddress reports whether addr is one of a flooder's admission-flood
// addresses (until StartFlood draws new ones), and whether it acknowledges
// like a real radio.
func (st *Station) FloodAddress(addr ieee80211.MAC) (flood, acks bool) {
	if st.floodSt == nil {
		return false, false
	}
	for i, m := range st.floodSt.addrs {
		if m == addr {
			return true, st.floodSt.acks[i]
		}
	}
	return false, false
}

// FloodAddrs returns the admission flood's addresses and which of them
// acknowledge, until StartFlood draws new ones; the caller must not
// modify them.
func (st *Station) FloodAddrs() (addrs []ieee80211.MAC, acks []bool) {
	if st.floodSt == nil {
		return nil, nil
	}
	return st.floodSt.addrs, st.floodSt.acks
}

// FloodAssociated is how many successful association responses the
// flooder's acknowledging addresses received.
func (st *Station) FloodAssociated() uint64 {
	if st.floodSt == nil {
		return 0
	}
	return st.floodSt.associated
}

// floodBSSID is the BSS an admission flood is aimed at: the station's
// BSSID, else the radio's first.
func (st *Station) floodBSSID() ieee80211.MAC {
	if !st.cfg.BSSID.IsZero() {
		return st.cfg.BSSID
	}
	return st.sim.med.bssid
}

// floodSSID is the SSID the flood's association requests ask for: the
// station's, else the first BSS's.
func (st *Station) floodSSID() string {
	if st.cfg.SSID != "" {
		return st.cfg.SSID
	}
	return st.sim.cfg.AP.SSID
}
