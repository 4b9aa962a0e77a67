package ap

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
)

// EAPOL on the datapath: the authenticator's frames are MSDUs with
// EtherType 0x888e (LLC/SNAP), queued like data on the station's voice
// TID, as mac80211 sends control port frames, never aggregated, so that
// each one's TX status reaches the handshake. The station's EAPOL frames
// are the authenticator's alone: never bridged, nor relayed.

// eapolTID is the TID of EAPOL frames to a QoS station.
const eapolTID = 7

// paeGroup is the PAE group address (IEEE 802.1X), the other destination
// an EAPOL frame may name.
var paeGroup = ieee80211.MAC{0x01, 0x80, 0xc2, 0x00, 0x00, 0x03}

// sendEAPOL queues an EAPOL frame (from its 802.1X header) of the
// authenticator for an associated station.
func (a *AP) sendEAPOL(now time.Duration, slot uint16, s *station, frame []byte) {
	a.cnt[counter.DownlinkIn]++
	if s.State != bss.StateAssociated {
		a.cnt[counter.WiredDroppedNoStation]++
		return
	}
	a.cnt[counter.EAPOLTx]++
	tid := uint8(0)
	if s.QoS {
		tid = eapolTID
	}
	a.queueMSDU(now, slot, tid, s.Addr, s.bss.BSSID, etherTypeEAPOL, frame, true, 0)
}

// rxEAPOL hands a station's EAPOL frame (from its 802.1X header) to the
// authenticator, if it is addressed to the AP.
func (a *AP) rxEAPOL(now time.Duration, s *station, da ieee80211.MAC, frame []byte) {
	if (da != s.bss.BSSID && da != paeGroup) || s.RSN == nil {
		a.cnt[counter.RxNotForUs]++
		return
	}
	a.cnt[counter.EAPOLRx]++
	s.RSN.HS.Receive(now, frame)
	a.rsnRun(now, a.rsnOf(s))
}

// eapolStatus hands the TX status of an EAPOL frame to the handshake.
func (a *AP) eapolStatus(now time.Duration, slot uint16, addr ieee80211.MAC, acked bool) {
	s := &a.sta.slots[slot]
	if s.Addr != addr || s.RSN == nil {
		return
	}
	s.RSN.HS.TXStatus(now, acked)
	a.rsnRun(now, a.rsnOf(s))
}
