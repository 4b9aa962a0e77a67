package ap

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// A BSS without HT beaconing on the radio's channel makes its HT BSSes
// announce non-member protection, as hostapd's ap_list sets olbc_ht;
// the radio forgets it once no such beacon was heard for
// nonHTBSSExpiry (hostapd's ap_table_expiration_time default).
const nonHTBSSExpiry = 60 * time.Second

// heardNonHT takes a beacon of another BSS heard on the operating
// channel: one without HT Capabilities whose channel (its DS Parameter
// Set, else its HT Operation's primary, else where it was heard) is the
// primary or the secondary 20 MHz channel of an HT radio.
func (a *AP) heardNonHT(now time.Duration, fr ieee80211.Frame) {
	if !a.cfg.PHY.HT || !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) ||
		a.onFreq != a.cfg.Freq || a.retuneTo != 0 || a.bssOf(fr.Addr3()) != nil {
		return
	}
	bc, err := ieee80211.ParseBeacon(fr.Body())
	if err != nil {
		return
	}
	ies := bc.Elements()
	if _, ht := ies.Find(ieee80211.ElemHTCap); ht {
		return
	}
	ch := a.cfg.Channel
	if ds, ok := ies.Find(ieee80211.ElemDSParams); ok && len(ds) == 1 {
		ch = int(ds[0])
	} else if o, ok := ies.HTOper(); ok {
		ch = int(o.PrimaryChannel())
	}
	if sec := a.cfg.PHY.SecondaryAt(a.cfg.Channel); ch != a.cfg.Channel && (sec == 0 || ch != a.cfg.Channel+4*sec) {
		return
	}
	a.shared.HT.NonHTBSS, a.nonHTHeard = true, now
}

// forgetNonHT ends non-member protection nonHTBSSExpiry after the last
// non-HT beacon.
func (a *AP) forgetNonHT(now time.Duration) {
	if a.shared.HT.NonHTBSS && now-a.nonHTHeard >= nonHTBSSExpiry {
		a.shared.HT.NonHTBSS = false
	}
}
