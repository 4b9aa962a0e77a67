package handshake

import (
	"fmt"
	"io"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// maxRetries is RSNA_MAX_EAPOL_RETRIES: how many recent replay counters
// an answer may carry.
const maxRetries = 4

type replayCounter struct {
	n     uint64
	valid bool
}

// Station is the authenticator's machine for one station: hostapd's
// struct wpa_state_machine for a PSK AKM and CCMP.
type Station struct {
	a       *Authenticator
	spa     ieee80211.MAC
	neg     rsn.Negotiated
	rsnxe   []byte
	version uint16 // key descriptor version of the AKM
	mfp     bool

	ptkState   ptkState
	groupState staGroupState
	changed    bool
	inStep     bool
	gone       bool // deauthenticated or removed: inert
	started    bool

	// Events and conditions of the 802.11 state machines.
	init, authReq, reauthReq, ptkRequest, timeoutEvt bool
	disconnect, deauthReq                            bool
	keyReceived, keyPairwise, keyRequest, micOK      bool
	gUpdate, ptkGroupInit                            bool
	disconnectReason                                 uint16
	cause                                            Cause

	timeoutCtr, gTimeoutCtr int
	anonce, snonce          rsn.Nonce
	ptk                     rsn.PTK
	ptkValid                bool
	pmkIndex                int
	micFailures             int     // message 2 MIC mismatches answering the latest message 1 in PTKSTART
	otherMICFailures        int     // and any others in this handshake
	mismatchReplay          uint64  // the highest replay counter of a mismatch reported
	rxPTK                   rsn.PTK // the PTK under which message 2 verified, for PTKCALCNEGOTIATING
	rxPMK                   int
	rxPMKKey                rsn.PMK
	// pmk is the PMK the last verified message 2 matched: a PSK reload
	// checks it (hostapd's sm->PMK), whatever the candidates' order is now.
	pmk    rsn.PMK
	pmkSet bool
	// ownPMK is the one PMK an SAE exchange or a cached PMKSA gave the
	// station (SetPMK), in place of the configured ones; ownPMKID names
	// it in message 1. ownPMKSet covers both.
	ownPMK      rsn.PMK
	ownPMKID    rsn.PMKID
	ownPMKSet   bool
	rxPTKSet    bool
	rxKeyStale  bool // Extended Key ID: the key installed for receive is not ptk's TK
	pairwiseSet bool // a TK is installed
	tkInstalled bool // this handshake's TK is
	authorized  bool
	hasGTK      bool
	extKeyID    bool
	keyIdx      uint8 // keyidx_active

	keyReplay, prevReplay [maxRetries]replayCounter
	reqReplay             uint64
	reqReplayUsed         bool
	pending1of4           bool
	updateSNonce          bool
	altSNonce             rsn.Nonce
	altSNonceValid        bool
	altReplay             uint64
	altPMK                rsn.PMK // the PMK of the earlier SNonce's message 2
	altPMKIndex           int
	lastRx                []byte

	checksLeft int    // messages 2 that may still be checked for this message 1
	owed       bool   // a first check was refused for want of work (budget.go)
	joinSeq    uint64 // the order it joined in
	failed     [recentFailures]failedMessage2
	failedNext int

	timerAt     time.Duration // wpa_send_eapol_timeout
	timerSet    bool
	ptkRekeyAt  time.Duration
	ptkRekeySet bool
}

// Addr returns the station's address.
func (s *Station) Addr() ieee80211.MAC { return s.spa }

// PMK returns the PMK the station's last verified message 2 matched:
// its keys come from it. False before any message 2 verified.
func (s *Station) PMK() (rsn.PMK, bool) { return s.pmk, s.pmkSet }

// Authorized reports whether the controlled port is open.
func (s *Station) Authorized() bool { return s.authorized }

// AKM and Pairwise return what the station negotiated.
func (s *Station) AKM() rsn.AKM         { return s.neg.AKM }
func (s *Station) Pairwise() rsn.Cipher { return s.neg.Pairwise }

// State returns hostapd's name of the pairwise machine's state.
func (s *Station) State() string { return s.ptkState.String() }

// GroupState returns hostapd's name of the per-station group key machine's
// state.
func (s *Station) GroupState() string { return s.groupState.String() }

// Start begins the 4-way handshake once the association is in place
// (wpa_auth_sta_associated): message 1 goes out.
func (s *Station) Start(now time.Duration) {
	if s.gone || s.started {
		return
	}
	s.started = true
	s.init = true
	s.step(now)
	s.init = false
	s.authReq = true
	s.step(now)
}

// TXStatus reports the TX status of the last EAPOL frame sent to the
// station. Once message 1 is acknowledged its first, short timeout is
// stretched to 1 s (wpa_auth_eapol_key_tx_status), for supplicants that
// would otherwise answer a retransmission with a new SNonce.
func (s *Station) TXStatus(now time.Duration, acked bool) {
	if s.gone || !s.pending1of4 || !acked {
		return
	}
	s.arm(now + timeoutSubseq)
}

// RekeyPTK starts a new 4-way handshake with the station now
// (wpa_request_new_ptk), or disconnects it when wpa_deny_ptk0_rekey
// forbids a rekey without Extended Key ID.
func (s *Station) RekeyPTK(now time.Duration) {
	if s.gone {
		return
	}
	s.requestNewPTK()
	s.step(now)
}

// requestNewPTK is wpa_request_new_ptk.
func (s *Station) requestNewPTK() {
	if !s.extKeyID && s.a.cfg.DenyPTK0Rekey {
		s.disconnect = true
		s.disconnectReason = ieee80211.ReasonClass3FromNonAssoc
		s.cause = CausePTK0Rekey
		return
	}
	if s.extKeyID {
		s.keyIdx ^= 1
	}
	s.ptkRequest = true
	s.ptkValid = false
	s.ptk.Clear() // the installed TK stays with the caller; the handshake needs none of it
}

func (s *Station) arm(at time.Duration) { s.timerAt, s.timerSet = at, true }
func (s *Station) cancelTimer()         { s.timerSet = false }

func (s *Station) deadline() (time.Duration, bool) {
	at, ok := s.timerAt, s.timerSet
	if s.ptkRekeySet && (!ok || s.ptkRekeyAt < at) {
		at, ok = s.ptkRekeyAt, true
	}
	return at, ok && !s.gone
}

func (s *Station) tick(now time.Duration) {
	if s.gone {
		return
	}
	if s.timerSet && s.timerAt <= now {
		s.timerSet = false
		s.pending1of4 = false
		s.timeoutEvt = true
		s.step(now)
	}
	if s.ptkRekeySet && s.ptkRekeyAt <= now && !s.gone {
		s.ptkRekeySet = false
		s.requestNewPTK()
		s.step(now)
	}
}

// step is wpa_sm_step: the pairwise, the per-station group and the BSS
// group machines run until none changes.
func (s *Station) step(now time.Duration) {
	if s.inStep {
		s.changed = true
		return
	}
	s.inStep = true
	defer func() { s.inStep = false }()
	for {
		s.changed = false
		s.a.g.changed = false
		s.ptkStep(now)
		if s.gone {
			// A station that failed may have been the last one the group
			// rekey waited for: hostapd's loop steps the group here too.
			s.a.groupStepAll(now)
			return
		}
		s.groupSMStep(now)
		s.a.groupStep(now)
		if !s.changed && !s.a.g.changed {
			return
		}
	}
}

func (s *Station) emit(a Action) {
	a.Addr = s.spa
	s.a.emit(a)
}

// clearKeys forgets the key material of a station that is gone.
func (s *Station) clearKeys() {
	s.ptk.Clear()
	s.rxPTK.Clear()
	s.rxPTKSet = false
	s.altPMK.Clear()
	s.ownPMK.Clear()
	s.ptkValid = false
	s.timerSet, s.ptkRekeySet = false, false
	clear(s.lastRx)
}

// SetPMK gives the station the PMK its SAE exchange derived, or that of
// the PMKSA its association named, with the PMKID, before Start: message
// 2 is checked against it alone, and with AKM SAE message 1 carries the
// PMKID KDE (hostapd's wpa_auth_pmksa_add_sae and pmksa_cache_auth_get).
func (s *Station) SetPMK(pmk *rsn.PMK, pmkid rsn.PMKID) {
	s.ownPMK, s.ownPMKID, s.ownPMKSet = *pmk, pmkid, true
}

// String describes the station without its keys.
func (s Station) String() string {
	return fmt.Sprintf("station %v %v %v %s", s.spa, s.neg.AKM, s.neg.Pairwise, s.ptkState)
}

// Format prints String for every verb, so no key leaks through %v (a
// value receiver: fmt cannot call methods on unexported key fields).
func (s Station) Format(f fmt.State, _ rune) { io.WriteString(f, s.String()) }
