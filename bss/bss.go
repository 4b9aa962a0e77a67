package bss

import (
	"github.com/airq/airq/internal/answered"
	"github.com/airq/airq/internal/ieee80211"
)

// BSS is one network's state on a radio: what it advertises, whom it has
// admitted and under which AIDs, what it may spend answering others, and
// the counters of its management frames. The radio that carries it
// (package ap) owns the air: the queues, the frames in flight, the TSF.
type BSS struct {
	// BSSID is its address: the transmitter of its frames, and how the
	// radio tells a received frame is for it.
	BSSID   ieee80211.MAC
	Profile Profile // how it announces itself
	// ACL decides who may authenticate and associate; a reload replaces
	// it whole.
	ACL ACL

	Rates  RateSet  // its legacy rates
	PHY    PHYElems // its HT/VHT elements
	ExtCap []byte   // its Extended Capabilities element; nil: none
	// Shared is its radio's counts of the associated stations of every
	// BSS of it, which its Capability field, ERP and HT Operation elements
	// follow; nil: a BSS alone, counting its own.
	Shared *Shared
	own    Shared

	// Stations indexes its station table: addresses to AIDs, the eviction
	// lists.
	Stations Table
	// Associated and Pending count its associated stations and those whose
	// association response awaits its TX status; Dozing its associated
	// stations in power save.
	Associated, Pending, Dozing int

	DTIM DTIM // the DTIM count of its next beacon
	// TIM is the last beacon's traffic indication bitmap, kept here so
	// that building it allocates nothing.
	TIM ieee80211.TIMBitmap
	// GroupWindow: its buffered group frames may go, a DTIM beacon having
	// announced them, until its next beacon.
	GroupWindow bool

	// Replies is the airtime budget of management frames sent in answer
	// to others' frames, so a flood cannot take the channel; Senders the
	// MACs heard from, whose replies are in the known class.
	Replies ReplyBudget
	Senders Senders
	// Answered remembers the MACs authentication responses went to, so
	// that a station whose ACK was never heard may still associate.
	Answered *answered.Record

	Counts Counts // its admission's counters

	seq uint16 // the sequence number of its next management frame
}

// Shared are the counts a radio's BSSes keep together, as hostapd keeps
// them in its hostapd_iface: a station of any BSS of the radio changes
// what every BSS of it announces.
type Shared struct {
	ERP ERP          // behind the capability bits and the ERP element
	HT  HTProtection // behind the HT Operation element's operation mode
}

// shared is the counts the BSS keeps: its radio's, or its own.
func (b *BSS) shared() *Shared {
	if b.Shared != nil {
		return b.Shared
	}
	return &b.own
}

// NextSeq returns the sequence number of its next management frame: each
// BSSID is a transmitter of its own, with its own sequence.
func (b *BSS) NextSeq() uint16 {
	s := b.seq
	b.seq = (b.seq + 1) & 0xfff
	return s
}
