package ap

import (
	"testing"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// TestMgmtRunsOnItsBSS: authentication and association run on the BSS the
// frames name: a request for a second BSS of the radio is checked against
// that BSS's SSID, answered from that BSS's BSSID, admits the station into
// that BSS's books, charges the retries of its replies to that BSS's
// budget, leaves the first BSS's counts and budget alone, and its data
// frames to the station go out from that BSS's BSSID.
func TestMgmtRunsOnItsBSS(t *testing.T) {
	h := newHarness(t, Config{})
	guest := addGuest(h)
	guestID := guest.BSSID
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	h.air(ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, guestID, sta, guestID, h.nextSeq()), 0, 1, 0))
	h.collect()
	auth := findMgmt(t, h.radio, ieee80211.SubtypeAuth, sta)
	if auth.Addr2() != guestID || auth.Addr3() != guestID {
		t.Errorf("authentication response from %s, BSSID %s; want the guest's %s", auth.Addr2(), auth.Addr3(), guestID)
	}
	firstBudget, guestBudget := h.a.bss.Replies, guest.Replies
	for _, b := range h.radio {
		if _, fr := parsed(t, b); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeAuth) && fr.Addr1() == sta {
			h.echo(b, radio.TxStatus{Acked: true, Retries: 2})
		}
	}
	if h.a.bss.Replies != firstBudget || guest.Replies == guestBudget {
		t.Error("the retries of the guest's reply were not charged to the guest's budget alone")
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

	h.take()
	h.wireTo(1, eth(sta, ieee80211.MAC{0x02, 0, 0, 0, 0x30, 1}, 0))
	h.collect()
	data := 0
	for _, b := range h.radio {
		if _, fr := parsed(t, b); fr.Type() == ieee80211.TypeData && fr.Addr1() == sta {
			data++
			if fr.Addr2() != guestID {
				t.Errorf("a data frame to the guest's station from %s; want the guest's %s", fr.Addr2(), guestID)
			}
		}
	}
	if data == 0 {
		t.Error("no data frame to the guest's station")
	}
}

var guestID = ieee80211.MAC{0x02, 0, 0, 0, 0x02, 1}

// addGuest gives the harness's running radio a second BSS, "guest", as
// Config.BSSes would have, its beacons staggered from now.
func addGuest(h *harness) *bss.BSS {
	h.a.addBSS(BSSConfig{BSSID: guestID, SSID: "guest", DTIMPeriod: 2, MaxStations: maxAID}, h.a.bss)
	h.a.staggerBeacons(h.now)
	return h.a.bsses[len(h.a.bsses)-1]
}

// TestProbeEachBSS: a wildcard probe request is answered by each BSS of
// the radio, from its own BSSID with its own SSID; one directed to a BSS
// only by that BSS.
func TestProbeEachBSS(t *testing.T) {
	h := newHarness(t, Config{})
	addGuest(h)
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	probe := func(to ieee80211.MAC) map[ieee80211.MAC]string {
		h.take()
		h.air(ieee80211.AppendSSID(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeProbeReq, to, sta, to, h.nextSeq()), ""))
		h.collect()
		out, _ := h.take()
		from := map[ieee80211.MAC]string{}
		for _, b := range out {
			if _, fr := parsed(t, b); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeProbeResp) && fr.Addr1() == sta {
				pr, err := ieee80211.ParseBeacon(fr.Body())
				if err != nil {
					t.Fatal(err)
				}
				ssid, _ := pr.Elements().Find(ieee80211.ElemSSID)
				from[fr.Addr2()] = string(ssid)
			}
		}
		return from
	}
	if got := probe(ieee80211.Broadcast); len(got) != 2 || got[bssid] != h.a.cfg.SSID || got[guestID] != "guest" {
		t.Errorf("wildcard probe answered by %v; want both BSSes with their SSIDs", got)
	}
	if got := probe(guestID); len(got) != 1 || got[guestID] != "guest" {
		t.Errorf("probe to the guest answered by %v; want the guest alone", got)
	}
}

// TestStrangerAnsweredByItsBSS: a data frame from a stranger to the second
// BSS is answered with a deauthentication from that BSS's BSSID.
func TestStrangerAnsweredByItsBSS(t *testing.T) {
	h := newHarness(t, Config{})
	addGuest(h)
	stranger := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 9}
	h.take()
	hdr := ieee80211.DataHeader{Flags: ieee80211.FCToDS, Addr1: guestID, Addr2: stranger, Addr3: bssid, Seq: h.nextSeq()}
	h.air(ieee80211.AppendLLCSNAP(ieee80211.AppendDataHeader(nil, hdr), 0x0800))
	h.collect()
	if d := findMgmt(t, h.radio, ieee80211.SubtypeDeauth, stranger); d.Addr2() != guestID {
		t.Errorf("deauthentication from %s; want the guest's %s", d.Addr2(), guestID)
	}
}
