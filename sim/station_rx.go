package sim

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// receive handles a frame the station's receiver decoded. fr is only
// valid during the call.
func (st *Station) receive(fr ieee80211.Frame) {
	if _, err := ieee80211.ParseFrame(fr); err != nil {
		return
	}
	if st.flooder() {
		st.floodReceive(fr)
		return
	}
	a1 := fr.Addr1()
	if a1 != st.cfg.Addr && !a1.IsMulticast() {
		return
	}
	switch fr.Type() {
	case ieee80211.TypeMgmt:
		st.receiveMgmt(fr)
	case ieee80211.TypeData:
		st.receiveData(fr)
	}
}

func (st *Station) receiveMgmt(fr ieee80211.Frame) {
	fr, ok := st.checkMgmt(fr)
	if !ok {
		return
	}
	switch fr.Subtype() {
	case ieee80211.SubtypeAction:
		st.onAction(fr)
	case ieee80211.SubtypeBeacon, ieee80211.SubtypeProbeResp:
		st.onBSS(fr)
	case ieee80211.SubtypeAuth:
		if st.state != staAuthenticating || fr.Addr2() != st.bssid {
			return
		}
		a, err := ieee80211.ParseAuth(fr.Body())
		if err == nil && a.Algorithm() == 3 {
			st.onSAE(a)
			return
		}
		if err != nil || a.Transaction() != 2 || a.Status() != ieee80211.StatusSuccess {
			return
		}
		st.sendAssocReq()
	case ieee80211.SubtypeAssocResp, ieee80211.SubtypeReassocResp:
		if st.state != staAssociating || fr.Addr2() != st.bssid {
			return
		}
		r, err := ieee80211.ParseAssocResp(fr.Body())
		if err != nil || r.Status() != ieee80211.StatusSuccess {
			if err == nil {
				st.saeAssocRefused(r.Status())
			}
			return
		}
		params, _, wmm := r.Elements().WMMParams()
		st.state, st.aid, st.qos = staAssociated, r.AID(), wmm && !st.cfg.NoWMM
		st.saeAssociated()
		if st.qos {
			st.node.useEDCA(params) // as mac80211 does on association (ieee80211_sta_wmm_params)
		}
		st.rxValid = [ieee80211.NumTIDs + 1]bool{}
		st.stats.Associations++
		st.stats.AssociatedAt = st.sim.now
		st.gen++ // association timer off
		st.startWPA()
		if st.cfg.PowerSave {
			st.Doze(true)
		}
	case ieee80211.SubtypeDeauth, ieee80211.SubtypeDisassoc:
		if fr.Addr2() != st.bssid || st.state == staIdle || st.state == staScanning {
			return
		}
		st.stats.DeauthsReceived++
		if d, err := ieee80211.ParseDeauth(fr.Body()); err == nil {
			st.stats.LastReason = d.Reason()
		}
		st.leave()
		st.afterLeave()
	}
}

// afterLeave starts over after a while, or stays away.
func (st *Station) afterLeave() {
	if st.cfg.Reconnect && st.wantUp {
		st.armTimer(100 * time.Millisecond)
	} else {
		st.wantUp = false
	}
}

// onBSS takes a beacon or probe response: while scanning, the first one of
// our SSID picks the BSS.
func (st *Station) onBSS(fr ieee80211.Frame) {
	if fr.Subtype() == ieee80211.SubtypeBeacon {
		st.stats.Beacons++
		st.onTIM(fr)
	}
	if st.state != staScanning {
		return
	}
	b, err := ieee80211.ParseBeacon(fr.Body())
	if err != nil {
		return
	}
	ssid, ok := b.Elements().Find(ieee80211.ElemSSID)
	if !ok || string(ssid) != st.cfg.SSID || !st.cfg.BSSID.IsZero() && fr.Addr3() != st.cfg.BSSID {
		return
	}
	st.bssid = fr.Addr3()
	st.apRSNE, st.sae.apRSNXE = nil, nil
	if e, ok := b.Elements().Find(ieee80211.ElemRSN); ok {
		st.apRSNE = append([]byte{ieee80211.ElemRSN, byte(len(e))}, e...)
	}
	if e, ok := b.Elements().Find(rsn.ElemRSNX); ok {
		st.sae.apRSNXE = append([]byte{rsn.ElemRSNX, byte(len(e))}, e...)
	}
	st.sendAuth()
}

func (st *Station) receiveData(fr ieee80211.Frame) {
	if !fr.FromDS() || fr.ToDS() || fr.Addr2() != st.bssid {
		return
	}
	if st.state != staAssociated {
		st.stats.RxUnassociated++
		return
	}
	st.afterPSDelivery(fr)
	if fr.IsNullData() {
		return
	}
	if st.crypto != nil {
		var ok bool
		if fr, ok = st.unprotect(fr); !ok {
			return
		}
	}
	da, sa := fr.Addr1(), fr.Addr3()
	if da.IsMulticast() && sa == st.cfg.Addr {
		return // our own broadcast, relayed by the AP
	}
	if !da.IsMulticast() && st.duplicate(fr) {
		st.stats.RxDuplicates++
		return
	}
	if fr.IsQoS() && fr.AMSDUPresent() {
		st.receiveAMSDU(fr)
		return
	}
	et, payload, ok := ieee80211.Decap(fr.Body())
	if !ok {
		return
	}
	if st.crypto != nil && et == etherEAPOL {
		if !da.IsMulticast() {
			st.onEAPOL(payload)
		}
		return
	}
	if !st.portOpen() {
		st.stats.RxUnprotected++ // data before the handshake: mac80211 drops it
		return
	}
	st.stats.RxData++
	if da.IsMulticast() {
		st.stats.RxGroup++
	}
	st.ip.input(da, sa, et, payload)
}

// receiveAMSDU hands each MSDU of an A-MSDU to the IP stack.
func (st *Station) receiveAMSDU(fr ieee80211.Frame) {
	st.stats.RxAMSDUs++
	it := ieee80211.AMSDUSubframes(fr.Body())
	for it.Next() {
		et, payload, ok := ieee80211.Decap(it.Payload())
		if !ok {
			st.stats.RxBadSubframes++
			continue
		}
		st.stats.RxData++
		st.ip.input(it.DA(), it.SA(), et, payload)
	}
	if it.Err() != nil {
		st.stats.RxBadSubframes++
	}
}

// duplicate drops a retransmission of the last frame received on its TID.
func (st *Station) duplicate(fr ieee80211.Frame) bool {
	i := ieee80211.NumTIDs
	if fr.IsQoS() {
		i = int(fr.TID() & 7)
	}
	sc := fr.SeqCtl()
	if fr.Retry() && st.rxValid[i] && st.rxSeq[i] == sc {
		return true
	}
	st.rxSeq[i], st.rxValid[i] = sc, true
	return false
}
