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
	"github.com/airq/airq/internal/ieee80211"
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

// rsnState is one BSS's RSN: the authenticator, the group keys the BSS
// sends with, its PSKs and SAE, derived once. Each secured BSS of the
// radio has its own (bssRadio.rsn), as each of hostapd's bss= sections
// has its own wpa_authenticator: its own GTK and IGTK with their key IDs,
// PNs and rekey timer, its own PMKSA cache.
type rsnState struct {
	cfg    *RSNConfig
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
	running     bool // run is handing out actions
	// scratch holds the plaintext of the frame being received: the
	// radio's one buffer, shared by its BSSes (one frame at a time).
	scratch []byte
	started bool
}

// maxRxFrame bounds a received MPDU: an 11454-octet VHT MPDU.
const maxRxFrame = 11454 + 64

// newRSN builds the authenticator of c for the BSS ssid, bssid with keys,
// c's PMKs and SAE PTs for ssid (DerivePSKs), derived here when nil;
// maxStations is its max_num_sta, scratch the radio's receive buffer.
func newRSN(c *RSNConfig, ssid string, bssid ieee80211.MAC, keys *PSKs, maxStations int, scratch []byte) (*rsnState, error) {
	r := &rsnState{cfg: c, policy: c.policy(), scratch: scratch}
	r.ie = append(r.policy.Element(), r.policy.RSNXElement()...)
	if keys == nil {
		var err error
		if keys, err = DerivePSKs(c, ssid); err != nil {
			return nil, err
		}
	}
	r.psks, r.sae = keys.set, newSAE(c, keys.sae, bssid, maxStations)
	var transitionDisable uint8
	if c.SAE != nil {
		transitionDisable = c.SAE.TransitionDisable
	}
	auth, err := handshake.New(handshake.Config{
		AA: bssid, IEs: r.ie, PMKs: r.psks.PMKs, TXStatus: true,
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

// secureBSSes builds the RSN of each secured BSS, first the radio's own
// (cfg.RSN), then those of cfg.BSSes; they share one receive buffer.
func (a *AP) secureBSSes(cfg Config) error {
	var scratch []byte
	for i, r := range a.radios {
		c, ssid := cfg.RSN, cfg.SSID
		if i > 0 {
			c, ssid = cfg.BSSes[i-1].RSN, cfg.BSSes[i-1].SSID
		}
		if c == nil {
			continue
		}
		if scratch == nil {
			scratch = make([]byte, maxRxFrame)
		}
		var err error
		if r.rsn, err = newRSN(c, ssid, r.b.BSSID, nil, r.maxStations, scratch); err != nil {
			if i > 0 {
				return fmt.Errorf("bss %d (%s): %w", i+1, ssid, err)
			}
			return err
		}
		r.b.Profile.RSNE = r.rsn.ie
		a.rsns = append(a.rsns, r.rsn)
	}
	return nil
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

// rsnOf returns the RSN of station s's BSS, nil for an open one: two
// loads, no search, on every data frame.
func (a *AP) rsnOf(s *station) *rsnState { return a.radios[s.bssIdx].rsn }

// rsnStart creates each secured BSS's first group key.
func (a *AP) rsnStart(now time.Duration) {
	for _, r := range a.rsns {
		if r.started {
			continue
		}
		r.started = true
		if err := r.auth.Start(now); err != nil {
			panic(err) // the random source failed: there is no safe way on
		}
		a.rsnRun(now, r)
	}
}

// rsnTick runs the authenticators', the SA Queries' and the SAE queues'
// timers when due.
func (a *AP) rsnTick(now time.Duration) {
	if len(a.rsns) == 0 {
		return
	}
	a.saQueryTick(now)
	a.workSAEQueue(now)
	for _, r := range a.rsns {
		if r.hasDeadline && r.deadline <= now {
			r.auth.Tick(now)
			a.rsnRun(now, r)
		}
	}
}

// rsnDeadline is when an authenticator's, an SA Query's or an SAE
// queue's next timer is due.
func (a *AP) rsnDeadline() (time.Duration, bool) {
	if len(a.rsns) == 0 {
		return 0, false
	}
	d, ok := a.saQueryDeadline()
	if t, due := a.saeQueueDeadline(); due && (!ok || t < d) {
		d, ok = t, true
	}
	for _, r := range a.rsns {
		if r.hasDeadline && (!ok || r.deadline < d) {
			d, ok = r.deadline, true
		}
	}
	return d, ok
}

// rsnRun carries out what BSS r's authenticator asked, until it asks
// nothing more (an action can lead to others: a deauthentication removes a
// station, which may start a strict rekey).
func (a *AP) rsnRun(now time.Duration, r *rsnState) {
	if r.running {
		return // the outer call picks up what this one would
	}
	r.running = true
	for more := true; more; {
		more = false
		r.auth.Drain(func(act handshake.Action) {
			more = true
			a.rsnAction(now, r, act)
		})
	}
	r.running = false
	r.deadline, r.hasDeadline = r.auth.Deadline()
}

// rsnAction carries out one action of BSS r's authenticator.
func (a *AP) rsnAction(now time.Duration, r *rsnState, act handshake.Action) {
	switch act.Kind {
	case handshake.ActInstallGTK:
		a.installGTK(r, act)
		return
	case handshake.ActInstallIGTK:
		a.installIGTK(r, act.KeyID, act.Key[:])
		return
	}
	slot, s := a.sta.lookup(act.Addr)
	if s == nil || a.rsnOf(s) != r || s.RSN == nil || s.RSN.HS == nil || s.RSN.HS.Addr() != act.Addr {
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
		s.RSN.KeyID = r.psks.KeyIDOf(s.Addr, &pmk)
		pmk.Clear()
		a.handshakeDone(now, slot, s)
	case handshake.ActPSKMismatch:
		a.cnt[counter.PSKMismatch]++
	case handshake.ActDeauth:
		a.handshakeFailed(now, slot, s, act.Reason, act.Cause.String())
	}
}

// rsnCounters fills in the authenticators' EAPOL counts, summed over the
// secured BSSes.
func (a *AP) rsnCounters(c *counter.Set) {
	for _, r := range a.rsns {
		n := r.auth.Counters()
		c[counter.EAPOLAccepted] += n.Accepted
		c[counter.EAPOLMalformed] += n.Malformed
		c[counter.EAPOLVersion] += n.Version
		c[counter.EAPOLReplayed] += n.Replayed
		c[counter.EAPOLState] += n.State
		c[counter.EAPOLMIC] += n.MIC
		c[counter.EAPOLRepeated] += n.Message2Repeated
		c[counter.EAPOLStationBudget] += n.Message2StationBudget
		c[counter.EAPOLWorkBudget] += n.Message2WorkBudget
	}
}
