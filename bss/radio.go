package bss

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// Radio is what a BSS needs of the radio that carries it, as a mac80211
// interface reaches its ieee80211_local: a management frame to build and
// send, the TSF, the radio's part of what the BSS announces, and whether
// frames wait in its queues for the BSS's stations. Each BSS
// is given its own view of the radio (package ap implements it), so the
// frames it starts carry its BSSID and its sequence numbers, and its
// replies are paid from its own budget.
type Radio interface {
	// StartMgmt begins a management frame of the BSS to da at the lowest
	// basic rate, tried at most retries times more (0: the radio's
	// default): the radio's TX header and the 802.11 header are written
	// and the BSS appends the body to Buf. ok is false when the radio has
	// no buffer free (the radio counts it).
	StartMgmt(subtype uint8, da ieee80211.MAC, retries uint8) (f MgmtFrame, ok bool)
	// SendReply sends f, a reply to someone else's frame, if class c of
	// the BSS's reply budget allows; false when it held f back (f is then
	// dropped and counted). A reply that admits the station of aid waits
	// for its TX status (await): the radio hands the echo to the
	// handshake.
	SendReply(now time.Duration, f MgmtFrame, c ReplyClass, aid uint16, await Awaited) bool
	// Send sends f, a frame that answers nothing (outside the budget).
	Send(now time.Duration, f MgmtFrame)
	// TSF is the radio's timer at now, in µs.
	TSF(now time.Duration) uint64
	// Air is the radio's part of the BSS's announcements.
	Air() Air
	// Queued reports whether frames wait in the radio's queues for the
	// BSS's station of aid; GroupQueued whether the BSS's group-addressed
	// frames wait for a DTIM beacon. A beacon's TIM asks them, never a
	// data frame.
	Queued(aid uint16) bool
	GroupQueued() bool
}

// MgmtFrame is a management frame being built: the BSS appends its body
// to Buf. Handle and Header are the radio's (its buffer, and the length of
// its TX header in Buf).
type MgmtFrame struct {
	Buf    []byte
	Handle uint32
	Header int
}

// Awaited is the TX status a reply waits for, which the radio hands back
// to the handshake when the echo comes.
type Awaited uint8

const (
	AwaitNone  Awaited = iota
	AwaitAuth          // an authentication response to a station now authenticated
	AwaitAssoc         // an association response that reserved the station's AID
)

// ProbeRetries bounds the attempts of a probe response: a scanning station
// that missed one will probe again, and a probe from a spoofed address
// would otherwise cost a full retry series of airtime.
const ProbeRetries = 2

// AnswerProbe takes a valid probe request with elements ies from sa: sa is
// known from now on (its replies then do not compete with a flood of new
// MACs), and a request that asks for this BSS gets a probe response within
// the stranger class of the reply budget. h2eOnly: the BSS's SAE requires
// hash-to-element. It reports whether a response went out.
func (b *BSS) AnswerProbe(now time.Duration, r Radio, sa ieee80211.MAC, ies ieee80211.Elements, h2eOnly bool) bool {
	if !sa.IsMulticast() {
		b.Senders.Heard(now, sa)
	}
	air := r.Air()
	if !b.AnswersProbe(ies, air.Channel) {
		return false
	}
	f, ok := r.StartMgmt(ieee80211.SubtypeProbeResp, sa, ProbeRetries)
	if !ok {
		return false
	}
	f.Buf = ieee80211.AppendBeaconFixed(f.Buf, r.TSF(now), uint16(b.Profile.BeaconInterval), b.Capability(air.Freq))
	f.Buf = ieee80211.AppendSSID(f.Buf, b.Profile.SSID)
	f.Buf = b.AppendTail(f.Buf, &air, h2eOnly, nil, false)
	return b.counted(&b.Counts.ProbeResponses, r.SendReply(now, f, ReplyStranger, 0, AwaitNone))
}
