package handshake

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// ActionKind says what an Action asks of the caller.
type ActionKind uint8

const (
	// ActSend: send Frame (an EAPOL frame from its 802.1X header) to Addr
	// as an EAPOL data frame; Protect says a pairwise key is installed and
	// hostapd would send it encrypted.
	ActSend ActionKind = iota + 1
	// ActInstallPTK: install Key as the pairwise key KeyID of Addr, for
	// receive only when RXOnly (Extended Key ID), else for both directions.
	ActInstallPTK
	// ActActivatePTK: make the pairwise key KeyID of Addr the one to send
	// with (Extended Key ID).
	ActActivatePTK
	// ActInstallGTK: install Key as group key KeyID (1-3). For the
	// authenticator it becomes the key the AP sends group frames with; for
	// the supplicant a receive key whose last PN used is RSC.
	ActInstallGTK
	// ActInstallIGTK: install Key as the BIP-CMAC-128 key KeyID (4-5),
	// its last packet number RSC.
	ActInstallIGTK
	// ActCompleted: the 4-way handshake with Addr completed and the
	// controlled port is open (EAPOL-4WAY-HS-COMPLETED). Rekey tells a
	// PTK rekey from the first handshake; PMK (authenticator) is the index
	// of the candidate PMK that matched.
	ActCompleted
	// ActGroupCompleted: a group key handshake with Addr completed.
	ActGroupCompleted
	// ActPSKMismatch: message 2 failed the MIC under every candidate PMK
	// (hostapd's AP-STA-POSSIBLE-PSK-MISMATCH), reported once per replay
	// counter; the handshake goes on retrying and ends with ActDeauth if
	// the station never gets it right. Cause says whether the frame
	// answered the latest message 1 (CauseWrongPassphrase) or may be
	// forged (CauseMICMismatch).
	ActPSKMismatch
	// ActDeauth: disconnect Addr with Reason; Cause explains. Its keys are
	// gone: the caller removes the station (Authenticator.Remove).
	ActDeauth
)

var kindNames = [...]string{"", "send", "install-ptk", "activate-ptk", "install-gtk", "install-igtk",
	"completed", "group-completed", "psk-mismatch", "deauth"}

func (k ActionKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Action is one thing an event asks of the caller.
type Action struct {
	At      time.Duration
	Kind    ActionKind
	Addr    ieee80211.MAC // the peer
	Frame   []byte        // ActSend; the caller may keep it
	Protect bool          // ActSend
	KeyID   int
	Key     rsn.Key // install actions
	RXOnly  bool    // ActInstallPTK
	RSC     uint64  // ActInstallGTK, ActInstallIGTK
	Rekey   bool    // ActCompleted
	PMK     int     // ActCompleted (authenticator)
	Reason  uint16  // ActDeauth: 802.11 reason code
	Cause   Cause   // ActDeauth, ActPSKMismatch
}

// Cause says why a handshake failed, in words for the one log line.
type Cause uint8

const (
	CauseNone Cause = iota
	// CauseWrongPassphrase: message 2's MIC never matched a PMK, in
	// answer to each message 1.
	CauseWrongPassphrase
	CauseNoMessage2     // message 1 never answered
	CauseNoMessage4     // message 3 never answered
	CauseGroupTimeout   // group message 1 never answered
	CauseRSNEMismatch   // message 2's RSNE differs from the association request's
	CauseRSNXEMismatch  // likewise the RSNXE
	CauseNoPSK          // no PMK configured for the station
	CausePTK0Rekey      // a PTK rekey without Extended Key ID, refused by wpa_deny_ptk0_rekey
	CauseRandom         // the random source failed
	CauseAPRSNEMismatch // supplicant: message 3's RSNE differs from the beacon's
	CauseBadMessage3    // supplicant: message 3 unusable (ANonce, key length, GTK)
	CauseBadGroupMsg    // supplicant: group message 1 unusable
	// CauseMICMismatch: message 2's MIC never matched, and not every
	// mismatch answered the latest message 1: a wrong passphrase, or
	// forged frames.
	CauseMICMismatch
)

var causeText = [...]string{"",
	"MIC mismatch on message 2: wrong passphrase likely",
	"4-way handshake timeout: no answer to message 1",
	"4-way handshake timeout: no answer to message 3",
	"group key handshake timeout",
	"RSNE in message 2 differs from the association request's",
	"RSNXE in message 2 differs from the association request's",
	"no PSK configured for the station",
	"PTK0 rekey refused (wpa_deny_ptk0_rekey)",
	"random number source failed",
	"RSNE in message 3 differs from the beacon's",
	"invalid message 3",
	"invalid group key message 1",
	"MIC mismatch on message 2 (wrong passphrase, or a forged frame)",
}

func (c Cause) String() string {
	if int(c) < len(causeText) {
		return causeText[c]
	}
	return "?"
}
