package bss

import (
	"encoding/binary"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/pmf"
	"github.com/airq/airq/sae"
)

// SendAuth answers an authentication from da (algorithm alg, transaction
// seq, status) within class c of the reply budget; a success to the
// station being given aid waits for its TX status. It reports whether the
// response went out.
func (b *BSS) SendAuth(now time.Duration, r Radio, da ieee80211.MAC, alg, seq, status uint16, c ReplyClass, aid uint16) bool {
	f, ok := r.StartMgmt(ieee80211.SubtypeAuth, da, 0)
	if !ok {
		return false
	}
	f.Buf = ieee80211.AppendAuth(f.Buf, alg, seq, status)
	await := AwaitNone
	if aid != 0 {
		await = AwaitAuth
	}
	return b.counted(&b.Counts.AuthResponses, r.SendReply(now, f, c, aid, await))
}

// counted adds a frame that went out (sent) to n; it returns sent.
func (b *BSS) counted(n *uint64, sent bool) bool {
	if sent {
		*n++
	}
	return sent
}

// SendReason sends a deauthentication or a disassociation (subtype) with
// reason to da, which answers nothing: the BSS ends what da had. It
// reports whether the radio took it.
func (b *BSS) SendReason(now time.Duration, r Radio, subtype uint8, da ieee80211.MAC, reason uint16) bool {
	f, ok := r.StartMgmt(subtype, da, 0)
	if !ok {
		return false
	}
	f.Buf = ieee80211.AppendDeauth(f.Buf, reason) // a disassociation's body is the same reason code
	r.Send(now, f)
	if subtype == ieee80211.SubtypeDeauth {
		b.Counts.Deauths++
	}
	return true
}

// SendStrangerReply answers a class 2 or 3 frame from a station that is
// not authenticated or associated (subtype: a deauthentication or a
// disassociation), within the stranger class of the reply budget. Like a
// probe response it is retried little: a stranger that missed it will send
// again. It reports whether the reply went out.
func (b *BSS) SendStrangerReply(now time.Duration, r Radio, subtype uint8, da ieee80211.MAC, reason uint16) bool {
	f, ok := r.StartMgmt(subtype, da, ProbeRetries)
	if !ok {
		return false
	}
	f.Buf = ieee80211.AppendDeauth(f.Buf, reason)
	return b.counted(&b.Counts.Deauths, r.SendReply(now, f, ReplyStranger, 0, AwaitNone))
}

// AssocResp is an association response to send.
type AssocResp struct {
	Reassoc bool // a reassociation response
	To      ieee80211.MAC
	Status  uint16
	// Station is the station admitted, its AID reserved; nil when Status
	// refuses: the response then gives no AID and awaits no TX status.
	Station *Admitted
	WMM     bool // the station asked for WMM
	H2EOnly bool // the BSS's SAE requires hash-to-element
	// Comeback, when not zero, is the association comeback time in TUs
	// of a refusal with status 30 (an MFP station's SA Query runs): the
	// Timeout Interval element after the rates, as hostapd's
	// send_assoc_resp.
	Comeback uint32
	Class    ReplyClass
}

// Admitted is the station an association response admits, which what the
// response says of the BSS depends on. SeqCtl is set to the response's
// sequence control once it is built, so that the station's retries of its
// request can be told.
type Admitted struct {
	AID     uint16
	ERP     ERPClass
	HT, VHT bool    // HT (and VHT) in use with it
	HTClass HTClass // what its HT means to the radio's HT protection
	SeqCtl  uint16
}

// SendAssocResp answers a (re)association request within the reply budget:
// the capability the BSS has once the station is in, the rates, the HT
// and VHT elements the station uses, the WMM parameters it asked for. An
// admitted station's response awaits its TX status. It reports whether
// the response went out.
func (b *BSS) SendAssocResp(now time.Duration, r Radio, resp *AssocResp) bool {
	sub := uint8(ieee80211.SubtypeAssocResp)
	if resp.Reassoc {
		sub = ieee80211.SubtypeReassocResp
	}
	f, ok := r.StartMgmt(sub, resp.To, 0)
	if !ok {
		return false
	}
	freq := r.Air().Freq
	sta, aid, capab := resp.Station, uint16(0), b.Capability(freq)
	if sta != nil {
		aid, capab = sta.AID, b.CapabilityWith(freq, sta.ERP)
	}
	f.Buf = ieee80211.AppendAssocResp(f.Buf, capab, resp.Status, aid)
	f.Buf = b.AppendRates(f.Buf, resp.H2EOnly)
	if sta != nil && sta.HT {
		f.Buf = b.PHY.Append(f.Buf, sta.VHT, nil, b.htOpMode(&sta.HTClass))
	}
	if resp.WMM && b.Profile.WMM {
		f.Buf = ieee80211.AppendWMMParam(f.Buf, b.Profile.WMMParams, 0)
	}
	if resp.Comeback != 0 {
		f.Buf = pmf.AppendComeback(f.Buf, resp.Comeback)
	}
	await := AwaitNone
	if sta != nil {
		await = AwaitAssoc
		sta.SeqCtl = ieee80211.Frame(f.Buf[f.Header:]).SeqCtl()
	}
	return b.counted(&b.Counts.AssocResponses, r.SendReply(now, f, resp.Class, aid, await))
}

// SendSAQuery sends an SA Query Request or Response (action) with
// transaction id to da; the radio puts it under the station's PTK as it
// finishes every robust management frame.
func (b *BSS) SendSAQuery(now time.Duration, r Radio, da ieee80211.MAC, action uint8, id pmf.TransactionID) {
	f, ok := r.StartMgmt(ieee80211.SubtypeAction, da, 0)
	if !ok {
		return
	}
	f.Buf = pmf.AppendSAQuery(f.Buf, action, id)
	r.Send(now, f)
}

// Block Ack action frames (IEEE 802.11 9.6.4).
const (
	CategoryBlockAck = 3
	ActionADDBAReq   = 0
	ActionADDBAResp  = 1
	ActionDELBA      = 2
)

// DeclineADDBA answers an ADDBA Request (req: its body after the category
// and action, at least 5 octets) from an associated station with status 37
// (request declined), echoing its dialog token, parameters and timeout,
// within the known class of the reply budget. It reports whether the
// response went out.
func (b *BSS) DeclineADDBA(now time.Duration, r Radio, da ieee80211.MAC, req []byte) bool {
	f, ok := r.StartMgmt(ieee80211.SubtypeAction, da, 0)
	if !ok {
		return false
	}
	f.Buf = append(f.Buf, CategoryBlockAck, ActionADDBAResp, req[0])
	f.Buf = binary.LittleEndian.AppendUint16(f.Buf, ieee80211.StatusRequestDeclined)
	f.Buf = append(f.Buf, req[1:5]...) // BA parameter set and timeout
	return r.SendReply(now, f, ReplyKnown, 0, AwaitNone)
}

// SendSAEAuth sends one SAE Authentication frame (algorithm 3) within
// class c of the reply budget. It reports whether it went out.
func (b *BSS) SendSAEAuth(now time.Duration, r Radio, da ieee80211.MAC, f sae.Frame, c ReplyClass) bool {
	m, ok := r.StartMgmt(ieee80211.SubtypeAuth, da, 0)
	if !ok {
		return false
	}
	m.Buf = ieee80211.AppendAuth(m.Buf, AuthSAE, f.Transaction, f.Status)
	m.Buf = append(m.Buf, f.Body...)
	return b.counted(&b.Counts.AuthResponses, r.SendReply(now, m, c, 0, AwaitNone))
}

// AuthSAE is SAE's authentication algorithm number.
const AuthSAE = 3
