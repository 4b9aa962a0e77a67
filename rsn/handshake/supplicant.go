package handshake

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// SupplicantConfig describes a station's association.
type SupplicantConfig struct {
	SPA, AA ieee80211.MAC
	PMK     rsn.PMK // the passphrase's, or SAE's
	RSNE    []byte  // the RSNE of the association request: message 2 carries it
	RSNXE   []byte  // and its RSNXE, if any
	APRSNE  []byte  // the AP's RSNE from its beacon: message 3 must carry it
	APRSNXE []byte
	// DenyPTK0Rekey makes a rekey without Extended Key ID reconnect.
	DenyPTK0Rekey bool
	EAPOLVersion  uint8     // eapol_version; 0 means 1, wpa_supplicant's default
	Rand          io.Reader // SNonces; nil is crypto/rand.Reader
}

type suppState uint8

const (
	suppAssociated suppState = iota
	supp4Way
	suppGroup
	suppCompleted
)

// Supplicant is a station's side of the handshakes, after wpa_supplicant.
type Supplicant struct {
	cfg      SupplicantConfig
	akm      rsn.AKM
	version  uint16
	mfp      bool
	extKeyID bool // both sides advertise Extended Key ID
	state    suppState
	gone     bool

	rxReplay    uint64
	rxReplaySet bool
	snonce      rsn.Nonce
	renewSNonce bool
	anonce      rsn.Nonce
	tptk, ptk   rsn.PTK
	tptkSet     bool
	ptkSet      bool
	installed   bool // ptk is installed
	haveTK      bool // some pairwise key is installed: frames go protected
	msg3OK      bool
	useExtKeyID bool
	keyIdx      uint8
	gtk, igtk   rsn.Key // the keys installed, against reinstallation
	gtkSet      bool
	igtkSet     bool
	reqCounter  uint64
	m1PMKID     rsn.PMKID // the PMKID KDE of the last message 1
	m1PMKIDSet  bool
	transDis    uint8 // the Transition Disable bits of message 3

	out []Action
	cnt Counters
}

// NewSupplicant returns a supplicant for an association whose RSNE (the
// station's) names the AKM and pairwise cipher first.
func NewSupplicant(cfg SupplicantConfig) (*Supplicant, error) {
	own, err := rsn.ParseElement(cfg.RSNE)
	if err != nil {
		return nil, fmt.Errorf("handshake: station RSNE: %w", err)
	}
	ap, err := rsn.ParseElement(cfg.APRSNE)
	if err != nil {
		return nil, fmt.Errorf("handshake: AP RSNE: %w", err)
	}
	akm := own.AKMSuites()[0]
	if akm != rsn.AKMPSK && akm != rsn.AKMPSKSHA256 && akm != rsn.AKMSAE || !slices.Contains(own.PairwiseCiphers(), rsn.CipherCCMP) {
		return nil, errors.New("handshake: the supplicant does WPA-PSK, WPA-PSK-SHA256 or SAE with CCMP only")
	}
	if cfg.EAPOLVersion == 0 {
		cfg.EAPOLVersion = 1
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.Reader
	}
	return &Supplicant{cfg: cfg, akm: akm, version: rsn.DescriptorVersion(akm), renewSNonce: true,
		mfp:      own.Caps&rsn.CapMFPC != 0 && ap.Caps&rsn.CapMFPC != 0,
		extKeyID: own.Caps&rsn.CapExtKeyID != 0 && ap.Caps&rsn.CapExtKeyID != 0}, nil
}

// Message1PMKID returns the PMKID the last message 1 carried, if any.
func (s *Supplicant) Message1PMKID() (rsn.PMKID, bool) { return s.m1PMKID, s.m1PMKIDSet }

// TransitionDisable returns the Transition Disable bits message 3
// carried (0 without the KDE).
func (s *Supplicant) TransitionDisable() uint8 { return s.transDis }

// Completed reports whether the 4-way handshake completed.
func (s *Supplicant) Completed() bool { return s.state == suppCompleted }

// Drain hands the actions collected since the last Drain to fn, in order.
func (s *Supplicant) Drain(fn func(Action)) {
	out := s.out
	s.out = nil
	for _, a := range out {
		fn(a)
	}
}

func (s *Supplicant) emit(a Action) {
	a.Addr = s.cfg.AA
	s.out = append(s.out, a)
}

// fail deauthenticates, as wpa_sm_deauthenticate, and stops.
func (s *Supplicant) fail(now time.Duration, reason uint16, cause Cause) {
	s.emit(Action{At: now, Kind: ActDeauth, Reason: reason, Cause: cause})
	s.gone = true
	s.tptk.Clear()
	s.ptk.Clear()
}

// RequestRekey sends an EAPOL-Key request (wpa_sm_key_request): a new
// 4-way handshake when pairwise, a GTK rekey otherwise.
func (s *Supplicant) RequestRekey(now time.Duration, pairwise bool) {
	if s.gone {
		return
	}
	if pairwise && s.cfg.DenyPTK0Rekey && !s.useExtKeyID && s.state == suppCompleted {
		s.fail(now, ieee80211.ReasonDeauthLeaving, CausePTK0Rekey)
		return
	}
	info := rsn.InfoRequest | s.version
	if s.ptkSet {
		info |= rsn.InfoSecure | rsn.InfoMIC
	}
	if pairwise {
		info |= rsn.InfoPairwise
	}
	f := rsn.AppendKeyFrame(nil, &rsn.KeyFields{ProtocolVersion: s.cfg.EAPOLVersion, Info: info, Replay: s.reqCounter})
	s.reqCounter++
	if s.ptkSet {
		rsn.SetMIC(f, &s.ptk.KCK)
	}
	s.emit(Action{At: now, Kind: ActSend, Frame: f, Protect: s.haveTK})
}

// String describes the supplicant without its keys.
func (s Supplicant) String() string {
	return fmt.Sprintf("supplicant %v to %v %v", s.cfg.SPA, s.cfg.AA, s.akm)
}

// Format prints String for every verb, so no key leaks through %v (a
// value receiver: fmt cannot call methods on unexported key fields).
func (s Supplicant) Format(f fmt.State, _ rune) { io.WriteString(f, s.String()) }
