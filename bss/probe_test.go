package bss_test

import (
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/bss/bsstest"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/pmf"
)

// TestAnswerProbe: a wildcard probe is answered within the stranger class,
// retried little, with the TSF, interval, SSID and tail; the prober is
// known from then on; a probe for another SSID gets nothing, and a reply
// the radio holds back is not reported as sent.
func TestAnswerProbe(t *testing.T) {
	bssid, sta := ieee80211.MAC{2, 0, 0, 0, 0, 1}, ieee80211.MAC{2, 0, 0, 0, 0, 2}
	b := &bss.BSS{BSSID: bssid, Profile: bss.Profile{SSID: "net", BeaconInterval: 100, DTIMPeriod: 2},
		Rates: bss.NewRateSet([]int{1000, 6000}, []int{1000}), Stations: bss.NewTable(4), Senders: bss.NewSenders(bssid)}
	r := &bsstest.Radio{BSSID: bssid, AirInfo: bss.Air{Channel: 6, Freq: 2437}}
	now := 3 * time.Second
	if !b.AnswerProbe(now, r, sta, ieee80211.AppendSSID(nil, ""), false) || len(r.Sent) != 1 {
		t.Fatalf("wildcard probe: %d frames", len(r.Sent))
	}
	f := r.Sent[0]
	if f.Subtype() != ieee80211.SubtypeProbeResp || f.Addr1() != sta || f.Class != bss.ReplyStranger || f.Retries != bss.ProbeRetries {
		t.Errorf("response: subtype %d to %v, class %d, retries %d", f.Subtype(), f.Addr1(), f.Class, f.Retries)
	}
	pr, err := ieee80211.ParseBeacon(f.Body())
	if err != nil {
		t.Fatal(err)
	}
	if pr.Timestamp() != 3e6 || pr.Interval() != 100 || pr.Capability()&bss.CapESS == 0 {
		t.Errorf("fixed fields: TSF %d, interval %d, capability %#x", pr.Timestamp(), pr.Interval(), pr.Capability())
	}
	if ssid, _ := pr.Elements().Find(ieee80211.ElemSSID); string(ssid) != "net" {
		t.Errorf("SSID %q", ssid)
	}
	if !b.Senders.Known(now, time.Second, sta) {
		t.Error("the prober is not known")
	}
	if b.AnswerProbe(now, r, sta, ieee80211.AppendSSID(nil, "other"), false) || len(r.Sent) != 1 {
		t.Error("answered a probe for another SSID")
	}
	r.Throttle = true
	if b.AnswerProbe(now, r, sta, ieee80211.AppendSSID(nil, "net"), false) {
		t.Error("a reply the budget held back reported as sent")
	}
}

// TestSendAuthAndReasons: a successful authentication response waits for
// its TX status with the AID it gives, a refusal does not; a
// deauthentication answers nothing and is outside the budget; a stranger's
// reply is in the stranger class, retried little; a full radio sends
// nothing.
func TestSendAuthAndReasons(t *testing.T) {
	bssid, sta := ieee80211.MAC{2, 0, 0, 0, 0, 1}, ieee80211.MAC{2, 0, 0, 0, 0, 2}
	b := &bss.BSS{BSSID: bssid}
	r := &bsstest.Radio{BSSID: bssid}
	if !b.SendAuth(0, r, sta, 0, 2, ieee80211.StatusSuccess, bss.ReplyNew, 5) ||
		!b.SendAuth(0, r, sta, 0, 2, ieee80211.StatusUnspecified, bss.ReplyKnown, 0) {
		t.Fatal("an authentication response did not go")
	}
	ok, refused := r.Sent[0], r.Sent[1]
	if !ok.Reply || ok.Class != bss.ReplyNew || ok.AID != 5 || ok.Await != bss.AwaitAuth || ok.Subtype() != ieee80211.SubtypeAuth {
		t.Errorf("success: %+v", ok)
	}
	if au, err := ieee80211.ParseAuth(ok.Body()); err != nil || au.Transaction() != 2 || au.Status() != ieee80211.StatusSuccess {
		t.Errorf("success body: %v %v", au, err)
	}
	if refused.Await != bss.AwaitNone || refused.AID != 0 || refused.Class != bss.ReplyKnown {
		t.Errorf("refusal: %+v", refused)
	}
	if !b.SendReason(0, r, ieee80211.SubtypeDeauth, sta, ieee80211.ReasonPrevAuthNotValid) || r.Sent[2].Reply || r.Sent[2].Subtype() != ieee80211.SubtypeDeauth {
		t.Errorf("deauthentication: %+v", r.Sent[2])
	}
	if !b.SendStrangerReply(0, r, ieee80211.SubtypeDisassoc, sta, ieee80211.ReasonClass3FromNonAssoc) ||
		r.Sent[3].Class != bss.ReplyStranger || r.Sent[3].Retries != bss.ProbeRetries || r.Sent[3].Subtype() != ieee80211.SubtypeDisassoc {
		t.Errorf("stranger reply: %+v", r.Sent[3])
	}
	r.NoBuffer = true
	if b.SendReason(0, r, ieee80211.SubtypeDeauth, sta, 1) || b.SendAuth(0, r, sta, 0, 2, 0, bss.ReplyNew, 1) || len(r.Sent) != 4 {
		t.Error("sent without a buffer")
	}
}

// TestSendAssocResp: an admitted station's response gives its AID, the
// capability with the station counted, the HT elements it uses, the WMM
// parameters it asked for, awaits its TX status and records its sequence
// control; a refusal gives no AID and awaits nothing.
func TestSendAssocResp(t *testing.T) {
	bssid, sta := ieee80211.MAC{2, 0, 0, 0, 0, 1}, ieee80211.MAC{2, 0, 0, 0, 0, 2}
	b := &bss.BSS{BSSID: bssid, Profile: bss.Profile{WMM: true, WMMParams: ieee80211.DefaultEDCA()},
		Rates: bss.NewRateSet([]int{1000, 6000}, []int{1000})}
	b.PHY = bss.NewPHYElems(bss.PHY{HT: true, Width: 20, Streams: 1}, 6, 2437, b.Rates.IE)
	r := &bsstest.Radio{BSSID: bssid, AirInfo: bss.Air{Channel: 6, Freq: 2437}}
	in := bss.Admitted{AID: 3, ERP: bss.ERPClass{NonERP: true, LongPreamble: true, NoShortSlot: true}, HT: true}
	if !b.SendAssocResp(0, r, &bss.AssocResp{To: sta, Status: ieee80211.StatusSuccess, Station: &in, WMM: true, Class: bss.ReplyKnown}) {
		t.Fatal("not sent")
	}
	f := r.Sent[0]
	resp, err := ieee80211.ParseAssocResp(f.Body())
	if err != nil {
		t.Fatal(err)
	}
	if resp.AID() != 3 || resp.Capability()&bss.CapShortSlot != 0 || f.AID != 3 || f.Await != bss.AwaitAssoc || in.SeqCtl != f.SeqCtl() {
		t.Errorf("admitted: AID %d, capability %#x, await %d for %d, seq %#x of %#x", resp.AID(), resp.Capability(), f.Await, f.AID, in.SeqCtl, f.SeqCtl())
	}
	ies := resp.Elements()
	if _, ok := ies.Find(ieee80211.ElemHTCap); !ok {
		t.Error("no HT Capabilities for an HT station")
	}
	if _, ok := ies.Find(ieee80211.ElemVendor); !ok {
		t.Error("no WMM Parameter element")
	}
	if !b.SendAssocResp(0, r, &bss.AssocResp{Reassoc: true, To: sta, Status: ieee80211.StatusUnspecified, Class: bss.ReplyNew}) {
		t.Fatal("refusal not sent")
	}
	f = r.Sent[1]
	if resp, _ := ieee80211.ParseAssocResp(f.Body()); f.Subtype() != ieee80211.SubtypeReassocResp || resp.AID() != 0 || f.Await != bss.AwaitNone {
		t.Errorf("refusal: subtype %d, AID %d, await %d", f.Subtype(), resp.AID(), f.Await)
	}
	if !b.SendAssocResp(0, r, &bss.AssocResp{To: sta, Status: ieee80211.StatusAssocRejectedTemp, Comeback: 1000, Class: bss.ReplyKnown}) {
		t.Fatal("comeback not sent")
	}
	resp, _ = ieee80211.ParseAssocResp(r.Sent[2].Body())
	if tie, ok := resp.Elements().Find(pmf.ElemTimeoutInterval); !ok || len(tie) != 5 || resp.Status() != ieee80211.StatusAssocRejectedTemp {
		t.Errorf("comeback: status %d, Timeout Interval %x", resp.Status(), tie)
	}
}
