package sim

import (
	"crypto/sha256"
	"slices"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bip"
	"github.com/airq/airq/ccmp"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/pmf"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/rsn/handshake"
)

// A WPA2 station, as wpa_supplicant with mac80211 runs one: it reads the
// AP's RSNE from the beacon, sends its own in the association request,
// runs the supplicant's side of the handshakes (rsn/handshake) over EAPOL
// data frames and protects its data with CCMP from the moment its keys
// are in. Its IP stack sends nothing before the port opens; frames that
// fail its checks are counted and dropped.

const etherEAPOL = 0x888e

// wpaState is a station's RSN association: its supplicant and keys.
type wpaState struct {
	sup    *handshake.Supplicant
	open   bool         // the 4-way handshake completed: the port is open
	ptk    *ccmp.Key    // the pairwise key frames go under
	pn     uint64       // its last PN
	ptks   [2]*ccmp.Key // the pairwise keys by key ID (1: Extended Key ID)
	rx     [2]ccmp.Replay
	gtk    [4]*ccmp.Key
	gtkRx  [4]ccmp.Replay
	keyIDs map[*ccmp.Key][16]byte // with CheckNonces
	// MFP (station_pmf.go): on when both sides offered it; the IGTKs;
	// the management replay counter is rx's, one per PTK would be
	// mac80211's, but management frames come under the one in use.
	mfp       bool
	igtk      bip.Receiver
	mgmtRx    ccmp.Replay
	saPending bool // the station's own SA Query awaits its Response
	saGen     int  // which query the pending timeout is for
	saID      pmf.TransactionID
}

// ownRSNE is the element of the station's association request: the AKM
// it was given, or the first of the AP's it supports.
func (st *Station) ownRSNE() []byte {
	akm := st.cfg.AKM
	if st.saeSetting() != nil {
		akm = rsn.AKMSAE
	}
	if akm == 0 {
		akm = rsn.AKMPSK
		if ap, err := rsn.ParseElement(st.apRSNE); err == nil && !slices.Contains(ap.AKMSuites(), rsn.AKMPSK) {
			akm = rsn.AKMPSKSHA256
		}
	}
	e := rsn.Element{Version: rsn.Version, Group: rsn.CipherCCMP, Pairwise: []rsn.Cipher{rsn.CipherCCMP},
		AKMs: []rsn.AKM{akm}, Last: rsn.FieldCaps}
	if st.cfg.ExtendedKeyID {
		e.Caps |= rsn.CapExtKeyID
	}
	if st.offersMFP() {
		e.Caps |= rsn.CapMFPC
	}
	st.addPMKID(&e)
	return e.Append(nil)
}

// wpa reports whether the station joins the BSS with WPA2.
func (st *Station) wpa() bool {
	return st.apRSNE != nil && (st.cfg.Passphrase != "" || st.cfg.SAE != nil || st.cfg.UseAPKey && st.apRSN() != nil)
}

// pmk is the station's PMK: from its passphrase, or the AP's secret.
func (st *Station) pmk() rsn.PMK {
	if st.saeSetting() != nil {
		return rsn.PMK(st.sae.keys.PMK)
	}
	if st.cfg.Passphrase != "" {
		return st.sim.pmkOf(st.cfg.Passphrase, st.cfg.SSID)
	}
	r := st.apRSN()
	if r.Passphrase.Set() {
		return st.sim.pmkOf(r.Passphrase.Reveal(), st.cfg.SSID)
	}
	if r.PSK != nil {
		return *r.PSK
	}
	for _, p := range r.PSKs {
		switch {
		case !p.Addr.IsZero() && p.Addr != st.cfg.Addr:
		case p.PMK != nil:
			return *p.PMK
		default:
			return st.sim.pmkOf(p.Passphrase.Reveal(), st.cfg.SSID)
		}
	}
	return rsn.PMK{}
}

// startWPA begins the handshake once associated.
func (st *Station) startWPA() {
	if !st.wpa() {
		st.crypto = nil
		return
	}
	sup, err := handshake.NewSupplicant(handshake.SupplicantConfig{
		SPA: st.cfg.Addr, AA: st.bssid, PMK: st.pmk(), RSNE: st.ownRSNE(),
		APRSNE: st.apRSNE, APRSNXE: st.sae.apRSNXE, Rand: rngReader{st.sim.keys},
	})
	if err != nil {
		panic(err) // the station's own element: a bug in ownRSNE
	}
	st.crypto = &wpaState{sup: sup, mfp: st.offersMFP()}
	if st.cfg.CheckNonces {
		st.crypto.keyIDs = map[*ccmp.Key][16]byte{}
	}
}

// portOpen reports whether data other than EAPOL may go.
func (st *Station) portOpen() bool { return st.crypto == nil || st.crypto.open }

// onEAPOL hands an EAPOL frame from the AP to the supplicant.
func (st *Station) onEAPOL(payload []byte) {
	st.crypto.sup.Receive(st.sim.now, payload)
	st.wpaActions()
}

// wpaActions carries out what the supplicant asked.
func (st *Station) wpaActions() {
	c := st.crypto
	c.sup.Drain(func(a handshake.Action) {
		switch a.Kind {
		case handshake.ActSend:
			st.sendData(st.bssid, etherEAPOL, a.Frame)
		case handshake.ActInstallPTK:
			id := a.KeyID & 1
			c.ptks[id], c.rx[id] = st.newKey(a.Key, uint8(id)), ccmp.Replay{}
			c.mgmtRx = ccmp.Replay{}
			if !a.RXOnly {
				c.ptk, c.pn = c.ptks[id], 0
			}
		case handshake.ActActivatePTK:
			c.ptk, c.pn = c.ptks[a.KeyID&1], 0
		case handshake.ActInstallGTK:
			c.gtk[a.KeyID&3] = st.newKey(a.Key, uint8(a.KeyID))
			c.gtkRx[a.KeyID&3].Reset(a.RSC)
		case handshake.ActInstallIGTK:
			st.installIGTK(a)
		case handshake.ActCompleted:
			if !c.open {
				c.open = true
				st.stats.Handshakes++
			} else {
				st.stats.Rekeys++
			}
		case handshake.ActDeauth:
			st.stats.HandshakeFailures++
			st.sendMgmt(ieee80211.SubtypeDeauth, st.bssid, ieee80211.AppendDeauth(st.buf[:0], a.Reason))
			st.leave()
			st.afterLeave()
		}
	})
}

func (st *Station) newKey(k rsn.Key, id uint8) *ccmp.Key {
	c, err := ccmp.New(k[:], id)
	if err != nil {
		panic(err)
	}
	if st.crypto.keyIDs != nil {
		st.crypto.keyIDs[c] = k
	}
	return c
}

// protect encrypts the frame in p (built with the CCMP header's gap after
// its MAC header) under the PTK.
func (st *Station) protect(p *packet) {
	c := st.crypto
	c.pn++
	b, err := c.ptk.Encrypt(p.b, c.pn)
	if err != nil {
		panic(err) // the packet has room; the PN is in range
	}
	p.b = b
}

// unprotect checks a data frame from the AP as mac80211 does for a
// station with keys: protected frames are decrypted under the PTK or the
// GTK their key ID names, after the replay check; unprotected ones pass
// only before the PTK (and EAPOL as a plain MSDU, and Null frames,
// always). It returns
// the plaintext frame (in the station's scratch) or false.
func (st *Station) unprotect(fr ieee80211.Frame) (ieee80211.Frame, bool) {
	c := st.crypto
	if !fr.Protected() {
		if c.ptks[0] == nil && c.ptks[1] == nil || fr.IsNull() {
			return fr, true
		}
		// EAPOL only as one whole MSDU, as the AP takes it: an A-MSDU
		// whose first subframe header reads as EAPOL's LLC header would
		// carry plaintext subframes past the keys.
		plain := !fr.MoreFrag() && fr.Frag() == 0 && !(fr.IsQoS() && fr.AMSDUPresent())
		if et, _, ok := ieee80211.Decap(fr.Body()); ok && et == etherEAPOL && plain {
			return fr, true
		}
		st.stats.RxUnprotected++
		return nil, false
	}
	pn, id, err := ccmp.ParseHeader(fr)
	key, replay := c.ptks[id&1], &c.rx[id&1]
	if fr.Addr1().IsMulticast() {
		key, replay = c.gtk[id], &c.gtkRx[id]
	}
	if err != nil || key == nil || key.ID() != id {
		st.stats.RxUndecryptable++
		return nil, false
	}
	i := ccmp.CounterIndex(fr)
	if !replay.Fresh(i, pn) {
		st.stats.RxReplayed++
		return nil, false
	}
	buf := append(st.rxBuf[:0], fr...)
	body, err := key.Decrypt(buf)
	if err != nil {
		st.stats.RxMICFailures++
		return nil, false
	}
	replay.Accept(i, pn)
	st.checkNonce(key, pn, body)
	return ccmp.Plain(buf, body), true
}

// checkNonce records (key, PN) with a hash of the plaintext: a second,
// different frame under the same pair is a nonce reuse by the AP.
func (st *Station) checkNonce(key *ccmp.Key, pn uint64, body []byte) {
	c := st.crypto
	if c.keyIDs == nil {
		return
	}
	if st.nonces == nil {
		st.nonces = map[nonceUse][32]byte{}
	}
	u := nonceUse{c.keyIDs[key], pn}
	sum := sha256.Sum256(body)
	if prev, ok := st.nonces[u]; ok && prev != sum {
		st.stats.NonceReuses++
	}
	st.nonces[u] = sum
}

type nonceUse struct {
	key [16]byte
	pn  uint64
}

// rngReader reads from the simulation's random source.
type rngReader struct{ r interface{ Uint64() uint64 } }

func (r rngReader) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = byte(r.r.Uint64())
	}
	return len(b), nil
}

// pmkOf derives the PMK of a passphrase for the SSID ssid, once.
func (s *Sim) pmkOf(pass, ssid string) rsn.PMK {
	k := [2]string{pass, ssid}
	if pmk, ok := s.pmks[k]; ok {
		return pmk
	}
	pmk, err := rsn.PMKFromPassphrase(pass, []byte(ssid))
	if err != nil {
		panic(err) // the station's configuration: 8 to 63 characters
	}
	s.pmks[k] = pmk
	return pmk
}

// apRSN is the security of the BSS the station joins (by its SSID): the
// first BSS's, or one of Config.BSSes'; nil for an open one.
func (st *Station) apRSN() *ap.RSNConfig {
	c := &st.sim.cfg.AP
	for _, b := range c.BSSes {
		if b.SSID == st.cfg.SSID && b.SSID != c.SSID {
			return b.RSN
		}
	}
	return c.RSN
}
