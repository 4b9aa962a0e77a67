package sim

import "github.com/airq/airq/internal/ieee80211"

// onTIM is a dozing station reading a beacon of its BSS: its AID in the TIM
// means frames wait, fetched with PS-Poll; the multicast bit of a DTIM means
// group frames follow the beacon.
func (st *Station) onTIM(fr ieee80211.Frame) {
	if st.state != staAssociated || !st.dozing || fr.Addr3() != st.bssid {
		return
	}
	b, err := ieee80211.ParseBeacon(fr.Body())
	if err != nil {
		return
	}
	body, ok := b.Elements().Find(ieee80211.ElemTIM)
	if !ok {
		return
	}
	tim, err := ieee80211.ParseTIM(body)
	if err != nil {
		return
	}
	if tim.DTIMCount() == 0 && tim.Multicast() {
		st.groupAwake = true
	}
	if tim.HasAID(st.aid) && !st.polled {
		st.PSPoll()
	}
}

// afterPSDelivery keeps a dozing station polling while the AP says More
// Data, and turns the receiver off again when the buffer is empty.
func (st *Station) afterPSDelivery(fr ieee80211.Frame) {
	if !st.dozing {
		return
	}
	if fr.Addr1().IsMulticast() {
		if !fr.MoreData() {
			st.groupAwake = false
		}
		return
	}
	st.polled = false
	if fr.MoreData() {
		st.PSPoll()
	}
}
