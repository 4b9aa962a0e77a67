package handshake

import (
	"crypto/rand"
	"errors"
	"io"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// Config is the authenticator's side of the BSS, hostapd's names beside.
type Config struct {
	AA ieee80211.MAC // the BSSID
	// IEs are the RSNE (and RSNXE, if any) of the beacon, elements with
	// their headers: message 3 carries them.
	IEs []byte
	// MFP says management frame protection is on (ieee80211w 1 or 2): the
	// group has an IGTK for BIP-CMAC-128, and stations that negotiated MFP
	// get it in message 3 and group message 1.
	MFP bool
	// PMKs appends to dst a station's candidate PMKs in the order to try
	// them against message 2's MIC (the station's own entries of
	// wpa_psk_file and the wildcards, or the one passphrase) and returns
	// it. Derive them when the configuration loads, never here. The
	// authenticator reuses dst and clears it after use.
	PMKs func(dst []rsn.PMK, spa ieee80211.MAC) []rsn.PMK
	// Message2Work bounds the candidate PMKs tried against messages 2,
	// forged or not, across the BSS: tries per second, with a tenth of a
	// second's worth saved up at most (doc.go). 0 means
	// DefaultMessage2Work.
	Message2Work int

	PairwiseUpdateCount    int           // wpa_pairwise_update_count; 0 means 4
	GroupUpdateCount       int           // wpa_group_update_count; 0 means 4
	DisableEAPOLKeyRetries bool          // wpa_disable_eapol_key_retries
	TXStatus               bool          // EAPOL TX status is reported (TXStatus calls come)
	GroupRekey             time.Duration // wpa_group_rekey; 0: never
	StrictRekey            bool          // wpa_strict_rekey
	PTKRekey               time.Duration // wpa_ptk_rekey; 0: never
	DenyPTK0Rekey          bool          // wpa_deny_ptk0_rekey
	EAPOLVersion           uint8         // eapol_version; 0 means 2
	// TransitionDisable (transition_disable) is sent in message 3's
	// Transition Disable KDE when not 0: bit 0 tells WPA3-Personal
	// stations to stop using WPA2 with this network.
	TransitionDisable uint8

	// Rand supplies ANonces, GTKs and IGTKs; nil is crypto/rand.Reader.
	// If it fails the station concerned is disconnected (a GTK rekey is
	// skipped).
	Rand io.Reader
	// GroupTXPN returns the last PN the AP sent under a group key (GTK
	// 1-2: the ccmp.Key's LastPN; IGTK 4-5: the BIP IPN), for the Key RSC
	// and IPN it hands out; nil gives 0. It is asked only for the keys
	// the AP sends with.
	GroupTXPN func(keyID int) uint64
}

const defaultUpdateCount = 4

func (c *Config) withDefaults() (Config, error) {
	d := *c
	if d.PairwiseUpdateCount == 0 {
		d.PairwiseUpdateCount = defaultUpdateCount
	}
	if d.GroupUpdateCount == 0 {
		d.GroupUpdateCount = defaultUpdateCount
	}
	if d.EAPOLVersion == 0 {
		d.EAPOLVersion = 2
	}
	if d.Rand == nil {
		d.Rand = rand.Reader
	}
	if d.Message2Work == 0 {
		d.Message2Work = DefaultMessage2Work
	}
	if d.GroupTXPN == nil {
		d.GroupTXPN = func(int) uint64 { return 0 }
	}
	switch {
	case d.PairwiseUpdateCount < 0 || d.GroupUpdateCount < 0:
		return d, errors.New("handshake: wpa_pairwise_update_count and wpa_group_update_count must be at least 1")
	case d.EAPOLVersion > 2:
		return d, errors.New("handshake: eapol_version must be 1 or 2")
	case d.PMKs == nil:
		return d, errors.New("handshake: no PMK source")
	case len(d.IEs) < 2 || d.IEs[0] != ieee80211.ElemRSN:
		return d, errors.New("handshake: IEs must start with the beacon's RSNE")
	case d.Message2Work < 0:
		return d, errors.New("handshake: the message 2 work budget must not be negative")
	case d.GroupRekey < 0 || d.PTKRekey < 0:
		return d, errors.New("handshake: rekey intervals must not be negative")
	}
	return d, nil
}

// EAPOL-Key timeouts of wpa_auth.c.
const (
	timeoutFirst      = 100 * time.Millisecond
	timeoutSubseq     = time.Second
	timeoutFirstGroup = 500 * time.Millisecond
	timeoutNoRetrans  = 4 * time.Second
	strictRekeyDelay  = 500 * time.Millisecond
	// rekeyRequestGap spaces the GTK rekeys stations ask for: each costs
	// every station a group key handshake.
	rekeyRequestGap = 10 * time.Second
)
