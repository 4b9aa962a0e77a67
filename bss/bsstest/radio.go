package bsstest

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
)

// Radio is a bss.Radio that keeps what is sent. Its TSF is now in µs.
type Radio struct {
	BSSID   ieee80211.MAC
	AirInfo bss.Air
	// NoBuffer makes StartMgmt fail; Throttle makes SendReply hold every
	// reply back.
	NoBuffer, Throttle bool
	// Sent are the frames sent (802.11 header and body), with how they
	// were sent.
	Sent []Frame
	// Waiting are the AIDs frames are queued for; Group: group frames
	// are queued.
	Waiting map[uint16]bool
	Group   bool
	seq     uint16
}

// Frame is one frame the fake sent: a reply (in Class, waiting for the
// TX status Await of AID) or not, and its retry bound.
type Frame struct {
	ieee80211.Frame
	Reply   bool
	Class   bss.ReplyClass
	AID     uint16
	Await   bss.Awaited
	Retries uint8
}

// StartMgmt writes the header; the retry bound rides in the handle.
func (r *Radio) StartMgmt(subtype uint8, da ieee80211.MAC, retries uint8) (bss.MgmtFrame, bool) {
	if r.NoBuffer {
		return bss.MgmtFrame{}, false
	}
	r.seq++
	b := ieee80211.AppendMgmtHeader(nil, subtype, da, r.BSSID, r.BSSID, r.seq)
	return bss.MgmtFrame{Buf: b, Handle: uint32(retries)}, true
}

// SendReply records f unless Throttle is set.
func (r *Radio) SendReply(_ time.Duration, f bss.MgmtFrame, c bss.ReplyClass, aid uint16, await bss.Awaited) bool {
	if r.Throttle {
		return false
	}
	r.Sent = append(r.Sent, Frame{Frame: ieee80211.Frame(f.Buf[f.Header:]), Reply: true, Class: c, AID: aid, Await: await, Retries: uint8(f.Handle)})
	return true
}

// Send records f.
func (r *Radio) Send(_ time.Duration, f bss.MgmtFrame) {
	r.Sent = append(r.Sent, Frame{Frame: ieee80211.Frame(f.Buf[f.Header:]), Retries: uint8(f.Handle)})
}

// TSF is now in µs.
func (r *Radio) TSF(now time.Duration) uint64 { return uint64(now / time.Microsecond) }

// Air is AirInfo.
func (r *Radio) Air() bss.Air { return r.AirInfo }

var _ bss.Radio = (*Radio)(nil)

// Queued reports whether aid is in Waiting.
func (r *Radio) Queued(aid uint16) bool { return r.Waiting[aid] }

// GroupQueued returns Group.
func (r *Radio) GroupQueued() bool { return r.Group }
