package sim

import (
	"time"

	"github.com/airq/airq/ccmp"
	"github.com/airq/airq/internal/ieee80211"
)

// capability a simple client advertises: ESS, short preamble, short slot.
const staCapability = ieee80211.CapESS | ieee80211.CapShortPreamble | ieee80211.CapShortSlotTime

func (st *Station) nextMgmtSeq() uint16 {
	s := st.seqMgmt
	st.seqMgmt = (s + 1) & 0xfff
	return s
}

// rates returns every rate of the BSS (the station supports them all), in
// 500 kbit/s units.
func (st *Station) rates() []byte {
	var r [12]byte
	n := 0
	for _, k := range st.sim.core.Config().Rates {
		if n < len(r) {
			r[n] = byte(k / 500)
			n++
		}
	}
	return r[:n:n]
}

// sendMgmt sends a management frame with body to da (also the BSSID).
func (st *Station) sendMgmt(subtype uint8, da ieee80211.MAC, body []byte) {
	p := st.sim.newPacket()
	p.b = ieee80211.AppendMgmtHeader(p.b[:0], subtype, da, st.cfg.Addr, da, st.nextMgmtSeq())
	p.b = append(p.b, body...)
	st.protectMgmt(p)
	st.sim.transmit(st, p, ieee80211.ACVO, st.sim.med.lowest)
}

// mlmeTries is how often a station sends its authentication and its
// association request before it starts over, as mac80211's
// IEEE80211_AUTH_MAX_TRIES and IEEE80211_ASSOC_MAX_TRIES (200 ms apart).
const mlmeTries = 3

func (st *Station) sendAuth() {
	st.stats.Auths++
	if st.state != staAuthenticating {
		st.tries = 0
	}
	st.tries++
	st.state = staAuthenticating
	if st.sendSAECommit() {
		st.armTimer(200 * time.Millisecond)
		return
	}
	st.sendMgmt(ieee80211.SubtypeAuth, st.bssid, ieee80211.AppendAuth(st.buf[:0], ieee80211.AuthOpen, 1, 0))
	st.armTimer(200 * time.Millisecond)
}

func (st *Station) sendAssocReq() {
	st.stats.AssocReqs++
	if st.state != staAssociating {
		st.tries = 0
	}
	st.tries++
	st.state = staAssociating
	b := ieee80211.AppendAssocReq(st.buf[:0], staCapability, 10)
	b = ieee80211.AppendSSID(b, st.cfg.SSID)
	b = ieee80211.AppendRates(b, st.rates())
	b = st.appendHTVHT(b)
	if st.wpa() {
		b = append(b, st.ownRSNE()...)
	}
	if !st.cfg.NoWMM {
		b = ieee80211.AppendWMMInfo(b, 0)
	}
	st.buf = b[:0]
	st.sendMgmt(ieee80211.SubtypeAssocReq, st.bssid, b)
	st.armTimer(200 * time.Millisecond)
}

// appendHTVHT adds the station's HT and VHT capabilities.
func (st *Station) appendHTVHT(b []byte) []byte {
	width := max(st.sim.core.Config().PHY.Width, st.sim.cfg.AP.PHY.Width)
	if st.cfg.HT || st.cfg.VHT {
		b = ieee80211.AppendHTCap(b, ieee80211.HTPHY{
			Streams: 1, Width40: width >= 40, SGI20: true, SGI40: width >= 40, MaxAMSDU: 7935, Intolerant: st.cfg.Intolerant40,
		}.Cap())
	}
	if st.cfg.VHT {
		spec := ieee80211.VHTPHY{Streams: 1, Width: max(width, 80), SGI80: true}.Cap()
		spec.Info = spec.Info&^ieee80211.VHTCapMaxMPDUMask | 2 // 11454-octet MPDUs
		b = ieee80211.AppendVHTCap(b, spec)
	}
	return b
}

func (st *Station) sendNull(pm bool) {
	p := st.sim.newPacket()
	p.b = ieee80211.AppendNullData(p.b[:0], st.bssid, st.cfg.Addr, st.nextMgmtSeq(), pm)
	st.sim.transmit(st, p, ieee80211.ACBE, st.cfg.Rate)
}

// sendEth is the IP stack's transmit hook: one MSDU to da as a data frame
// to the AP, QoS data with the TID from the DSCP when WMM is on.
func (st *Station) sendEth(da ieee80211.MAC, etherType uint16, payload []byte) {
	if st.state != staAssociated || !st.portOpen() {
		st.stats.TxDropped++
		return
	}
	st.sendData(da, etherType, payload)
}

// sendData sends one MSDU as a data frame to the AP, under the PTK once
// the station has one.
func (st *Station) sendData(da ieee80211.MAC, etherType uint16, payload []byte) {
	h := ieee80211.DataHeader{Flags: ieee80211.FCToDS, Addr1: st.bssid, Addr2: st.cfg.Addr, Addr3: da}
	ac := ieee80211.ACBE
	if st.qos {
		h.QoS = true
		h.TID = tidOf(etherType, payload)
		h.Seq = st.seqTID[h.TID]
		st.seqTID[h.TID] = (h.Seq + 1) & 0xfff
		ac = ieee80211.TIDToAC(h.TID)
	} else {
		h.Seq = st.nextMgmtSeq()
	}
	if st.dozing {
		h.Flags |= ieee80211.FCPwrMgt
	}
	p := st.sim.newPacket()
	p.b = ieee80211.AppendDataHeader(p.b[:0], h)
	protect := st.crypto != nil && st.crypto.ptk != nil
	if protect {
		p.b = append(p.b, zeroCCMP[:]...)
	}
	p.b = ieee80211.AppendLLCSNAP(p.b, etherType)
	p.b = append(p.b, payload...)
	if protect {
		st.protect(p)
	}
	if etherType == etherEAPOL {
		st.stats.TxEAPOL++
	} else {
		st.stats.TxData++
	}
	st.sim.transmit(st, p, ac, st.cfg.Rate)
}

// zeroCCMP is the CCMP header's place until encryption writes it.
var zeroCCMP [ccmp.HeaderLen]byte

// tidOf maps an IPv4 packet's DSCP to a user priority, as Linux does.
func tidOf(etherType uint16, payload []byte) uint8 {
	if etherType == 0x0800 && len(payload) >= 2 {
		return ieee80211.DSCPToTID(payload[1] >> 2)
	}
	return 0
}
