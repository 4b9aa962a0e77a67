package ap

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// Legacy BSSes beaconing on the radio's channel make its BSSes protect,
// as hostapd's ap_list sets olbc and olbc_ht: one without HT on the
// primary or secondary channel of an HT radio makes every HT BSS
// announce non-member protection; one of 802.11b (DSSS/CCK rates only,
// or an ERP element saying non-ERP stations are present) on the primary
// channel at 2.4 GHz makes every BSS ask for ERP protection. The radio
// forgets each once no such beacon was heard for overlapExpiry (hostapd's
// ap_table_expiration_time default).
const overlapExpiry = 60 * time.Second

// overlap is when the last beacons of legacy BSSes were heard.
type overlap struct {
	nonHT, nonERP time.Duration
}

// heardOverlap takes a beacon of another BSS heard on the operating
// channel. A BSS's channel is its DS Parameter Set's, else its HT
// Operation's primary, else where it was heard.
func (a *AP) heardOverlap(now time.Duration, fr ieee80211.Frame) {
	if !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) ||
		!a.atHome() || a.bssOf(fr.Addr3()) != nil {
		return
	}
	bc, err := ieee80211.ParseBeacon(fr.Body())
	if err != nil {
		return
	}
	ies := bc.Elements()
	ch := a.cfg.Channel
	if ds, ok := ies.Find(ieee80211.ElemDSParams); ok && len(ds) == 1 {
		ch = int(ds[0])
	} else if o, ok := ies.HTOper(); ok {
		ch = int(o.PrimaryChannel())
	}
	if a.cfg.PHY.HT && a.coversNonHT(ch, ies) {
		a.shared.HT.NonHTBSS, a.overlap.nonHT = true, now
	}
	if a.cfg.Freq < 3000 && ch == a.cfg.Channel && nonERP(ies) {
		a.shared.ERP.Overlap, a.overlap.nonERP = true, now
	}
}

// coversNonHT reports whether a beacon with elements ies, of a BSS on
// channel ch, is of a BSS without HT on the radio's primary or secondary
// channel.
func (a *AP) coversNonHT(ch int, ies ieee80211.Elements) bool {
	if _, ht := ies.Find(ieee80211.ElemHTCap); ht {
		return false
	}
	sec := a.cfg.PHY.SecondaryAt(a.cfg.Channel)
	return ch == a.cfg.Channel || sec != 0 && ch == a.cfg.Channel+4*sec
}

// nonERP reports whether a beacon with elements ies is of an 802.11b
// BSS: its ERP element says non-ERP stations are present, or it has no
// rate but DSSS/CCK ones.
func nonERP(ies ieee80211.Elements) bool {
	if erp, ok := ies.Find(ieee80211.ElemERP); ok && len(erp) >= 1 && erp[0]&ieee80211.ERPNonERPPresent != 0 {
		return true
	}
	for _, id := range [...]uint8{ieee80211.ElemSupportedRates, ieee80211.ElemExtSupportedRates} {
		rates, _ := ies.Find(id)
		for _, r := range rates {
			if !ieee80211.IsDSSS(r) {
				return false
			}
		}
	}
	return true
}

// forgetOverlap ends each protection overlapExpiry after the last beacon
// that asked for it.
func (a *AP) forgetOverlap(now time.Duration) {
	if a.shared.HT.NonHTBSS && now-a.overlap.nonHT >= overlapExpiry {
		a.shared.HT.NonHTBSS = false
	}
	if a.shared.ERP.Overlap && now-a.overlap.nonERP >= overlapExpiry {
		a.shared.ERP.Overlap = false
	}
}
