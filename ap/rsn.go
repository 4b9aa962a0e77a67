package ap

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/airq/airq/bip"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/ccmp"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/rsn/handshake"
	"github.com/airq/airq/sae"
)

// RSNConfig makes the BSS WPA2-Personal: an RSN with a pre-shared key,
// CCMP-128 for pairwise and group traffic. The fields carry hostapd's
// meanings; unlike hostapd's file, a zero duration here means never (the
// configuration file fills in hostapd's defaults).
type RSNConfig struct {
	// AKMs are the key managements offered (wpa_key_mgmt): rsn.AKMPSK
	// and rsn.AKMPSKSHA256; default WPA-PSK.
	AKMs []rsn.AKM
	// Pairwise are the pairwise ciphers (rsn_pairwise): only CCMP, the
	// default. The group cipher is CCMP.
	Pairwise []rsn.Cipher
	// Passphrase (wpa_passphrase, 8 to 63 printable ASCII characters)
	// gives the PMK with the SSID; New derives it, once.
	Passphrase bss.Passphrase
	// PSK is the wildcard PMK itself (wpa_psk), in place of a passphrase.
	PSK *rsn.PMK
	// PSKs are more keys (the lines of wpa_psk_file): for one station,
	// or for any (Addr zero). A station's candidates are its own, then
	// the wildcards, then wpa_psk's or the passphrase's, in their order,
	// each tried against message 2's MIC (psk.go).
	PSKs []bss.PSK

	GroupRekey             time.Duration // wpa_group_rekey: the GTK's lifetime; 0: never
	StrictRekey            bool          // wpa_strict_rekey: a new GTK when a station that had it leaves
	PTKRekey               time.Duration // wpa_ptk_rekey: a PTK's lifetime; 0: never
	DisableEAPOLKeyRetries bool          // wpa_disable_eapol_key_retries
	PairwiseUpdateCount    int           // wpa_pairwise_update_count: tries of messages 1 and 3; 0: 4
	GroupUpdateCount       int           // wpa_group_update_count: tries of group message 1; 0: 4
	EAPOLVersion           uint8         // eapol_version of the AP's EAPOL-Key frames; 0: 2
	// DenyPTK0Rekey disconnects a station instead of rekeying its PTK
	// (wpa_deny_ptk0_rekey) unless it uses Extended Key ID: without it a
	// rekey loses the frames in flight under the old key.
	DenyPTK0Rekey bool
	// ExtendedKeyID (extended_key_id): 1 offers Extended Key ID for
	// individually addressed frames, so that a PTK rekey installs the new
	// key under the other key ID for receive first and switches without a
	// gap; 2 also starts with key ID 1. 0: off.
	ExtendedKeyID int

	// MFP is ieee80211w: management frame protection offered
	// (rsn.MFPOptional) or required (rsn.MFPRequired); the zero value is
	// off. With it the group has an IGTK (BIP-CMAC-128) and stations that
	// negotiate MFP get their robust management frames protected (pmf.go).
	MFP rsn.MFP
	// GroupMgmt is group_mgmt_cipher: only rsn.CipherBIPCMAC128, the
	// default (zero).
	GroupMgmt rsn.Cipher
	// SAQueryMaxTimeout and SAQueryRetryTimeout are
	// assoc_sa_query_max_timeout and assoc_sa_query_retry_timeout in TUs;
	// 0 means hostapd's 1000 and 201.
	SAQueryMaxTimeout, SAQueryRetryTimeout uint32

	// SAE is WPA3-Personal's configuration, used when AKMs has SAE.
	SAE *SAEConfig

	// Rand supplies nonces and group keys; nil is crypto/rand. The
	// simulator passes a seeded source to repeat a run.
	Rand io.Reader
}

// policy is what the BSS offers.
func (c *RSNConfig) policy() rsn.Policy {
	p := rsn.DefaultPolicy()
	if len(c.AKMs) > 0 {
		p.AKMs = c.AKMs
	}
	if len(c.Pairwise) > 0 {
		p.Pairwise = c.Pairwise
	}
	p.ExtendedKeyID = c.ExtendedKeyID
	p.MFP = c.MFP
	if c.SAE != nil {
		p.SAEH2E = c.SAE.PWE != sae.HuntAndPeck || c.saeIdentifiers()
		p.SAERequireMFP = c.SAE.RequireMFP
	}
	if c.GroupMgmt != 0 {
		p.GroupMgmt = c.GroupMgmt
	}
	return p
}

// validate checks the section; errors name the configuration keys.
func (c *RSNConfig) validate() error {
	if err := c.policy().Check(); err != nil {
		return fmt.Errorf("wpa: %w", err)
	}
	if err := c.checkSAE(); err != nil {
		return err
	}
	if err := c.checkSecrets(); err != nil {
		return err
	}
	if c.GroupRekey < 0 || c.PTKRekey < 0 {
		return errors.New("wpa_group_rekey, wpa_ptk_rekey: want 0 (never) or a positive interval")
	}
	return nil
}

// rsnState is the BSS's RSN: the authenticator, the group key the AP sends
// with, and the PMKs, derived once.
type rsnState struct {
	auth   *handshake.Authenticator
	ie     []byte // the RSNE of beacons, probe responses and message 3
	policy rsn.Policy
	gtk    *ccmp.Key // group frames go under it, with its own PNs; nil before Start
	igtk   *bip.Key  // group-addressed robust management frames are signed with it (MFP); nil without
	// saQueries is at least the number of SA Query procedures running,
	// recounted by saQueryTick: none means nothing to visit.
	saQueries int
	psks      bss.PSKSet
	sae       *saeState // WPA3-Personal's side (sae.go); nil without AKM SAE
	// deadline caches the authenticator's: it changes only in calls the
	// core makes, each followed by run.
	deadline    time.Duration
	hasDeadline bool
	running     bool   // run is handing out actions
	scratch     []byte // the plaintext of the frame being received
	started     bool
}

// maxRxFrame bounds a received MPDU: an 11454-octet VHT MPDU.
const maxRxFrame = 11454 + 64

// newRSN derives the PMKs and builds the authenticator for cfg.
func newRSN(cfg Config) (*rsnState, error) {
	c := cfg.RSN
	r := &rsnState{policy: c.policy(), scratch: make([]byte, maxRxFrame)}
	r.ie = append(r.policy.Element(), r.policy.RSNXElement()...)
	var err error
	if r.psks, err = newPSKSet(c, cfg.SSID); err != nil {
		return nil, err
	}
	if r.sae, err = newSAE(cfg); err != nil {
		return nil, err
	}
	var transitionDisable uint8
	if c.SAE != nil {
		transitionDisable = c.SAE.TransitionDisable
	}
	auth, err := handshake.New(handshake.Config{
		AA: cfg.BSSID, IEs: r.ie, PMKs: r.psks.PMKs, TXStatus: true,
		DisableEAPOLKeyRetries: c.DisableEAPOLKeyRetries, GroupRekey: c.GroupRekey, StrictRekey: c.StrictRekey,
		PTKRekey: c.PTKRekey, DenyPTK0Rekey: c.DenyPTK0Rekey, Rand: c.Rand, GroupTXPN: r.groupTXPN, MFP: c.MFP != rsn.MFPDisabled,
		PairwiseUpdateCount: c.PairwiseUpdateCount, GroupUpdateCount: c.GroupUpdateCount, EAPOLVersion: c.EAPOLVersion,
		TransitionDisable: transitionDisable,
	})
	if err != nil {
		return nil, err
	}
	r.auth = auth
	return r, nil
}

// groupTXPN is the last PN sent under group key id: the key the AP sends
// with, or a key not installed yet (a rekey's), which starts at 0. Key
// IDs 4 and 5 are the IGTK's, whose PN is BIP's IPN.
func (r *rsnState) groupTXPN(id int) uint64 {
	if id >= bip.FirstKeyID {
		if r.igtk != nil && int(r.igtk.ID()) == id {
			return r.igtk.LastIPN()
		}
		return 0
	}
	if r.gtk != nil && int(r.gtk.ID()) == id {
		return r.gtk.LastPN()
	}
	return 0
}

// rsnStart creates the first group key.
func (a *AP) rsnStart(now time.Duration) {
	if a.rsn == nil || a.rsn.started {
		return
	}
	a.rsn.started = true
	if err := a.rsn.auth.Start(now); err != nil {
		panic(err) // the random source failed: there is no safe way on
	}
	a.rsnRun(now)
}

// rsnTick runs the authenticator's and the SA Query's timers when due.
func (a *AP) rsnTick(now time.Duration) {
	a.saQueryTick(now)
	if r := a.rsn; r != nil && r.hasDeadline && r.deadline <= now {
		r.auth.Tick(now)
		a.rsnRun(now)
	}
}

// rsnDeadline is when the authenticator's or an SA Query's next timer is
// due.
func (a *AP) rsnDeadline() (time.Duration, bool) {
	if a.rsn == nil {
		return 0, false
	}
	d, ok := a.rsn.deadline, a.rsn.hasDeadline
	if t, armed := a.saQueryDeadline(); armed && (!ok || t < d) {
		d, ok = t, true
	}
	return d, ok
}

// rsnRun carries out what the authenticator asked, until it asks nothing
// more (an action can lead to others: a deauthentication removes a
// station, which may start a strict rekey).
func (a *AP) rsnRun(now time.Duration) {
	r := a.rsn
	if r.running {
		return // the outer call picks up what this one would
	}
	r.running = true
	for more := true; more; {
		more = false
		r.auth.Drain(func(act handshake.Action) {
			more = true
			a.rsnAction(now, act)
		})
	}
	r.running = false
	r.deadline, r.hasDeadline = r.auth.Deadline()
}

// rsnAction carries out one action of the authenticator.
func (a *AP) rsnAction(now time.Duration, act handshake.Action) {
	switch act.Kind {
	case handshake.ActInstallGTK:
		a.installGTK(act)
		return
	case handshake.ActInstallIGTK:
		a.installIGTK(act.KeyID, act.Key[:])
		return
	}
	slot, s := a.sta.lookup(act.Addr)
	if s == nil || s.RSN == nil || s.RSN.HS == nil || s.RSN.HS.Addr() != act.Addr {
		return // the station left meanwhile
	}
	switch act.Kind {
	case handshake.ActSend:
		a.sendEAPOL(now, slot, s, act.Frame)
	case handshake.ActInstallPTK:
		a.installPTK(s, act)
	case handshake.ActActivatePTK:
		if act.KeyID < len(s.RSN.Keys) && s.RSN.Keys[act.KeyID].K != nil {
			s.RSN.TX = int8(act.KeyID)
		}
	case handshake.ActCompleted:
		// By the PMK, not act.PMK's index: a PSK reload since message 2
		// may have reordered the candidates.
		pmk, _ := s.RSN.HS.PMK()
		s.RSN.KeyID = a.rsn.psks.KeyIDOf(s.Addr, &pmk)
		pmk.Clear()
		a.handshakeDone(now, slot, s)
	case handshake.ActPSKMismatch:
		a.cnt[counter.PSKMismatch]++
	case handshake.ActDeauth:
		a.handshakeFailed(now, slot, s, act.Reason, act.Cause.String())
	}
}

// rsnCounters fills in the authenticator's EAPOL counts.
func (a *AP) rsnCounters(c *counter.Set) {
	if a.rsn == nil {
		return
	}
	n := a.rsn.auth.Counters()
	c[counter.EAPOLAccepted], c[counter.EAPOLMalformed], c[counter.EAPOLVersion] = n.Accepted, n.Malformed, n.Version
	c[counter.EAPOLReplayed], c[counter.EAPOLState], c[counter.EAPOLMIC] = n.Replayed, n.State, n.MIC
	c[counter.EAPOLRepeated], c[counter.EAPOLStationBudget] = n.Message2Repeated, n.Message2StationBudget
	c[counter.EAPOLWorkBudget] = n.Message2WorkBudget
}
