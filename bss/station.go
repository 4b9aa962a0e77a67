package bss

import (
	"time"

	"github.com/airq/airq/ccmp"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/pmf"
	"github.com/airq/airq/rate"
	"github.com/airq/airq/rsn/handshake"
	"github.com/airq/airq/sae"
)

// StationState is how far a station has come with the BSS.
type StationState uint8

const (
	StateNone StationState = iota
	StateAuthenticated
	// StateAssocPending: the association was accepted and the AID is
	// reserved; the station becomes associated when the echo of the
	// association response shows it acknowledged (as hostapd waits for
	// the TX status with mac80211).
	StateAssocPending
	StateAssociated
)

func (s StationState) String() string {
	switch s {
	case StateAuthenticated:
		return "authenticated"
	case StateAssocPending:
		return "associating"
	case StateAssociated:
		return "associated"
	}
	return "none"
}

// Station is the BSS's record of a station, as hostapd's sta_info: how far
// it has come (authentication, association, the controlled port), when,
// what it announced, and its RSN and SAE state. The radio keeps the rest
// of a station beside it (its queues, rates, frames in flight, counters).
type Station struct {
	State          StationState
	Addr           ieee80211.MAC
	QoS            bool // WMM station: QoS data with TIDs
	Capability     uint16
	ListenInterval uint16
	Rates          uint16 // bitmask over the BSS's rate list
	Dozing         bool   // Power Management bit set in its last frame
	// Authorized opens the controlled port: data other than EAPOL passes
	// only then. Open networks authorize at association, WPA2 once the
	// 4-way handshake completes.
	Authorized bool
	// Announced: AP-STA-CONNECTED went out for this session, so its end
	// is announced too.
	Announced    bool
	HT, VHT      bool // HT/VHT in use with this station
	HEAnnounced  bool // it offers HE, which airq does not send
	NonERP       bool // no OFDM rate: 802.11b only
	LongPreamble bool // no short preamble capability

	// The association handshake.
	Known      bool          // heard from before it authenticated: replies to it are in the known class
	AuthOK     bool          // acknowledged its authentication response (or the status was lost)
	HadData    bool          // sent a data frame since it associated: never evicted for room
	Reassoc    bool          // pending after being associated: a reassociation of a session
	RespLost   bool          // the pending response's TX status was lost: its first frame confirms it
	AssocSeqOK bool          // AssocSeq holds one
	RespSeq    uint16        // sequence control of the latest association response
	AssocSeq   uint16        // sequence control of its last (re)association request
	AuthAt     time.Duration // when it authenticated
	AssocAt    time.Duration // when it associated
	PendingAt  time.Duration // when the association was accepted

	MaxAMSDU int         // longest A-MSDU it receives, 0 if none
	Caps     rate.Caps   // what it announced, for the rate table the radio builds
	RSN      *StationRSN // its handshake and keys (WPA2); nil on an open network
	SAE      *StationSAE // the keys its SAE exchange or a PMKSA gave it
}

// StationRSN is a station's side of the RSN: its handshake and its
// pairwise keys, by key ID (1 only with Extended Key ID).
type StationRSN struct {
	HS   *handshake.Station
	Keys [2]PairKey
	TX   int8 // the key ID frames go with; -1 while none is installed
	// QueryHeld: an SA Query Request, ID Held, waits for the dozing
	// station to wake.
	Held      pmf.TransactionID
	QueryHeld bool
	// Failed says the failure was reported.
	Failed bool
	KeyID  string     // the keyid of the PSK its last 4-way handshake used
	MFP    bool       // it negotiated management frame protection
	Query  *pmf.Query // its association SA Query, once one ran
}

// HasKey reports whether a pairwise key is installed.
func (r *StationRSN) HasKey() bool { return r.Keys[0].K != nil || r.Keys[1].K != nil }

// PairKey is one pairwise temporal key (which keeps the PNs it sent) with
// its replay counters.
type PairKey struct {
	K  *ccmp.Key
	RX ccmp.Replay
}

// StationSAE is what a station's SAE exchange or a PMKSA gave it.
type StationSAE struct {
	Keys sae.Keys
	// BySAE: the station authenticated with SAE (not Open System).
	BySAE bool
}

// ERPClass is what s brings to the radio's ERP counts.
func (s *Station) ERPClass() ERPClass {
	return ERPClass{NonERP: s.NonERP, LongPreamble: s.LongPreamble, NoShortSlot: s.Capability&CapShortSlot == 0}
}
