package bss

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
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
	return r.SendReply(now, f, c, aid, await)
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
	return r.SendReply(now, f, ReplyStranger, 0, AwaitNone)
}
