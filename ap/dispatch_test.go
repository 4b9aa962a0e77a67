package ap

import (
	"testing"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
)

// TestMgmtRunsOnItsBSS: authentication and association run on the BSS the
// frames name: a request for a second BSS of the radio is checked against
// that BSS's SSID, answered from that BSS's BSSID, admits the station into
// that BSS's books, and leaves the first BSS's counts alone.
func TestMgmtRunsOnItsBSS(t *testing.T) {
	h := newHarness(t, Config{})
	guestID := ieee80211.MAC{0x02, 0, 0, 0, 0x02, 1}
	guest := &bss.BSS{BSSID: guestID, Profile: h.a.bss.Profile, Rates: h.a.bss.Rates,
		Senders: bss.NewSenders(guestID), Replies: bss.NewReplyBudget(h.a.cfg.ReplyAirtime), Answered: newAnswered(h.a.cfg, h.a.est)}
	guest.Profile.SSID = "guest"
	// The radio indexes its stations in one table: the guest's here.
	guest.Stations = bss.NewTable(maxAID)
	h.a.sta.ids = &guest.Stations
	h.a.bsses = append(h.a.bsses, guest)

	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	h.a.radios = append(h.a.radios, &bssRadio{a: h.a, b: guest})
	h.air(ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, guestID, sta, guestID, h.nextSeq()), 0, 1, 0))
	h.collect()
	auth := findMgmt(t, h.radio, ieee80211.SubtypeAuth, sta)
	if auth.Addr2() != guestID || auth.Addr3() != guestID {
		t.Errorf("authentication response from %s, BSSID %s; want the guest's %s", auth.Addr2(), auth.Addr3(), guestID)
	}
	for _, b := range h.radio {
		if _, fr := parsed(t, b); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeAuth) && fr.Addr1() == sta {
			h.echo(b, radioAcked)
		}
	}
	req := ieee80211.AppendAssocReq(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAssocReq, guestID, sta, guestID, h.nextSeq()), 0x0421, 10)
	req = ieee80211.AppendSSID(req, "guest")
	h.air(ieee80211.AppendRates(req, gRates))
	h.collect()
	if resp := findMgmt(t, h.radio, ieee80211.SubtypeAssocResp, sta); resp.Addr2() != guestID {
		t.Errorf("association response from %s; want the guest's %s", resp.Addr2(), guestID)
	}
	h.acceptAssoc(sta)

	_, s := h.a.sta.lookup(sta)
	if s == nil || s.bss != guest || s.State != bss.StateAssociated {
		t.Fatalf("the station is not associated with the BSS it asked: %+v", s)
	}
	if guest.Associated != 1 || h.a.bss.Associated != 0 {
		t.Errorf("associated: %d in the guest BSS, %d in the first; want 1 and 0", guest.Associated, h.a.bss.Associated)
	}
}
