package ap

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
)

// HandleRadio consumes one radiotap+802.11 frame from the monitor interface:
// a TX-status echo of a frame we sent, or a frame from the air. The core
// does not retain frame. Malformed input is counted and dropped.
func (a *AP) HandleRadio(now time.Duration, frame []byte) {
	a.cnt[counter.RxFrames]++
	n, echo, err := radiotap.Parse(frame, &a.rx, &a.txs)
	if err != nil {
		a.cnt[counter.RxMalformed]++
		return
	}
	body := frame[n:]
	if a.rx.FCSIncl {
		if len(body) < 4 {
			a.cnt[counter.RxMalformed]++
			return
		}
		body = body[:len(body)-4]
	}
	fr, err := ieee80211.ParseFrame(body)
	if err != nil {
		a.cnt[counter.RxMalformed]++
		return
	}
	if echo {
		if a.bssOf(fr.Addr2()) != nil { // sent from one of the radio's BSSIDs
			a.handleEcho(now, fr, &a.txs)
			a.txLoop(now) // a completion frees airtime: run a round, as drivers do
		}
		return
	}
	if a.rx.BadFCS {
		a.cnt[counter.RxBadFCS]++
		return
	}
	a.countRxBusy(fr)
	if a.disabled {
		a.cnt[counter.RxNotForUs]++ // there is no BSS to be for
		return
	}
	if fr.Type() == ieee80211.TypeMgmt && (fr.Subtype() == ieee80211.SubtypeBeacon || fr.Subtype() == ieee80211.SubtypeProbeResp) {
		a.cnt[counter.RxMgmt]++
		a.heardOverlap(now, fr)
		a.heardBSS(now, fr)
		return
	}
	if !a.atHome() {
		// Off channel, or listening before the start nothing is answered: these stations are not ours.
		a.scanStats.RxWhileAway++
		return
	}
	switch fr.Type() {
	case ieee80211.TypeMgmt:
		a.cnt[counter.RxMgmt]++
		a.watchAck(now, fr)
		a.handleMgmt(now, fr)
	case ieee80211.TypeData:
		a.cnt[counter.RxData]++
		a.watchAck(now, fr)
		a.handleData(now, fr)
	default:
		a.cnt[counter.RxCtrl]++
		if fr.Subtype() == ieee80211.SubtypePSPoll {
			a.handlePSPoll(now, fr)
		}
	}
	a.txLoop(now)
}

func (a *AP) handleMgmt(now time.Duration, fr ieee80211.Frame) {
	if sa := fr.Addr2(); sa.IsMulticast() || sa.IsZero() || a.bssOf(sa) != nil {
		// As hostapd's ieee802_11_mgmt: no state for an address no
		// station has, and no reply to a group address or to ourselves.
		a.cnt[counter.RxMalformed]++
		return
	}
	addr1 := fr.Addr1()
	if fr.Subtype() == ieee80211.SubtypeProbeReq {
		a.handleProbe(now, fr)
		return
	}
	b := a.bssOf(addr1)
	if b == nil || fr.Addr3() != b.BSSID {
		// A group-addressed robust frame from one of ours is 802.11w's
		// to count; the AP acts on no group-addressed frame but probes.
		if _, s := a.sta.lookup(fr.Addr2()); s != nil && addr1.IsMulticast() && a.bssOf(fr.Addr3()) != nil {
			if _, ok := a.checkMgmt(fr, s); !ok {
				return
			}
		}
		a.cnt[counter.RxNotForUs]++
		return
	}
	slot, s := a.lookupIn(b, fr.Addr2())
	own := s.ownsMgmt(fr)
	fr, ok := a.checkMgmt(fr, s)
	if !ok {
		return // 802.11w's rules dropped it: nothing of the station changes
	}
	if own {
		s.lastRx = now
		if a.rx.HasSignal {
			s.signal = a.rx.Signal
			s.signalAvg.add(a.rx.Signal)
		}
		a.setPM(now, slot, s, fr.PwrMgt())
	}
	switch fr.Subtype() {
	case ieee80211.SubtypeAuth:
		a.handleAuth(now, b, fr)
	case ieee80211.SubtypeAssocReq, ieee80211.SubtypeReassocReq:
		a.handleAssoc(now, b, fr)
	case ieee80211.SubtypeDeauth, ieee80211.SubtypeDisassoc:
		a.handleLeave(now, slot, s, fr)
	case ieee80211.SubtypeAction:
		a.handleAction(now, s, fr)
	}
}

// handleProbe hands a probe request to each BSS it is for: directed to
// the BSS or broadcast, naming its BSSID or the wildcard one, as hostapd's
// handle_probe_req answers (which SSIDs it asks for, each BSS decides).
func (a *AP) handleProbe(now time.Duration, fr ieee80211.Frame) {
	addr1, addr3 := fr.Addr1(), fr.Addr3()
	forUs := false
	for _, b := range a.bsses {
		forUs = forUs || probeFor(b, addr1, addr3)
	}
	if !forUs {
		a.cnt[counter.RxNotForUs]++
		return
	}
	req, err := ieee80211.ParseProbeReq(fr.Body())
	if err != nil {
		a.cnt[counter.RxMalformed]++
		return
	}
	ies := req.Elements()
	if ies.Validate() != nil {
		a.cnt[counter.RxMalformed]++
		return
	}
	for i, b := range a.bsses {
		if r := a.radios[i]; probeFor(b, addr1, addr3) && b.AnswerProbe(now, r, fr.Addr2(), ies, r.saeH2ERequired()) {
			a.cnt[counter.ProbeResponses]++
		}
	}
}

// probeFor reports whether a probe request to addr1 naming BSSID addr3 is
// for BSS b.
func probeFor(b *bss.BSS, addr1, addr3 ieee80211.MAC) bool {
	return (addr1 == b.BSSID || addr1.IsBroadcast()) && (addr3 == b.BSSID || addr3.IsBroadcast())
}

// lookupIn returns the entry of sa if it is a station of BSS b. The radio
// finds every station by its address, but to the radio's other BSSes a
// station is a stranger, as to hostapd, whose station tables are per BSS:
// its frames to them change nothing of it.
func (a *AP) lookupIn(b *bss.BSS, sa ieee80211.MAC) (uint16, *station) {
	slot, s := a.sta.lookup(sa)
	if s == nil || s.bss != b {
		return 0, nil
	}
	return slot, s
}

// bssOf finds the radio's BSS whose BSSID is addr: received frames go to
// the BSS they name, echoes come back from the BSS that sent them.
func (a *AP) bssOf(addr ieee80211.MAC) *bss.BSS {
	for _, b := range a.bsses {
		if b.BSSID == addr {
			return b
		}
	}
	return nil
}
