package ap

import (
	"bytes"
	"crypto/sha256"
	"math/rand/v2"
	"testing"

	"github.com/airq/airq/bip"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/ccmp"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/rsn/handshake"
)

// The passphrase of the test BSS; testPMK caches its PMK for "airq-test".
const testPassphrase = "correct horse battery"

var pmkCache = map[[2]string]rsn.PMK{}

func testPMK(t testing.TB, pass string) rsn.PMK { return ssidPMK(t, pass, "airq-test") }

// ssidPMK is pass's PMK for the network ssid.
func ssidPMK(t testing.TB, pass, ssid string) rsn.PMK {
	if p, ok := pmkCache[[2]string{pass, ssid}]; ok {
		return p
	}
	p, err := rsn.PMKFromPassphrase(pass, []byte(ssid))
	if err != nil {
		t.Fatal(err)
	}
	pmkCache[[2]string{pass, ssid}] = p
	return p
}

// seeded is a deterministic random source for nonces and keys.
type seeded struct{ r *rand.ChaCha8 }

func (s seeded) Read(b []byte) (int, error) { return s.r.Read(b) }

func newSeeded(n byte) seeded { return seeded{rand.NewChaCha8([32]byte{n})} }

// wpaConfig is a WPA2-PSK BSS; the PSK is given as a PMK so that the test
// skips PBKDF2.
func wpaConfig(t testing.TB, akm rsn.AKM) Config {
	return Config{WMM: true, RSN: &RSNConfig{AKMs: []rsn.AKM{akm}, PSKs: []bss.PSK{{PMK: ptr(testPMK(t, testPassphrase))}},
		Rand: newSeeded(1)}}
}

// wpaSTA is a station of the harness running wpa_supplicant's side of the
// handshakes and CCMP, as mac80211 does for it.
type wpaSTA struct {
	h    *harness
	addr ieee80211.MAC
	akm  rsn.AKM
	sup  *handshake.Supplicant
	ptk  *ccmp.Key // the pairwise key frames go under
	pn   uint64
	ext  bool         // it offers Extended Key ID
	byID [2]*ccmp.Key // its pairwise keys by key ID (Extended Key ID)
	// history holds every key installed, oldest first, with its replay
	// counters in replay.
	history []stationKey
	replay  map[*ccmp.Key]*ccmp.Replay
	lost    int  // protected frames no key opened
	done    bool // the 4-way handshake completed
	deaut   bool // the supplicant gave up
	// seen maps (key, PN) of every protected frame the AP sent it to
	// the frame's ciphertext hash: a second frame under one pair is a
	// nonce reuse.
	seen  map[keyPN][32]byte
	keys  map[*ccmp.Key][16]byte
	plain [][]byte // MSDU payloads it received (decrypted), in order
	noAck bool     // do not acknowledge what the AP sends
	// mfp offers management frame protection (MFPC); robust management
	// frames the AP sent it are kept in mgmt, as sent, and its IGTK in
	// igtk (pmf_test.go).
	mfp  bool
	mgmt []ieee80211.Frame
	igtk bip.Receiver
	// bss is the index of the radio's BSS it joins (multibss_rsn_test.go);
	// 0: the first.
	bss int
}

type stationKey struct {
	k     *ccmp.Key
	group bool
}

type keyPN struct {
	key [16]byte
	pn  uint64
}

func newWPASTA(h *harness, addr ieee80211.MAC, akm rsn.AKM) *wpaSTA {
	return &wpaSTA{h: h, addr: addr, akm: akm, seen: map[keyPN][32]byte{}, keys: map[*ccmp.Key][16]byte{},
		replay: map[*ccmp.Key]*ccmp.Replay{}}
}

func (w *wpaSTA) rsne() []byte {
	e := rsn.Element{Version: 1, Group: rsn.CipherCCMP, Pairwise: []rsn.Cipher{rsn.CipherCCMP},
		AKMs: []rsn.AKM{w.akm}, Last: rsn.FieldCaps}
	if w.ext {
		e.Caps |= rsn.CapExtKeyID
	}
	if w.mfp {
		e.Caps |= rsn.CapMFPC
	}
	return e.Append(nil)
}

// bssid and ssid are the address and SSID of the BSS the station joins.
func (w *wpaSTA) bssid() ieee80211.MAC { return w.h.a.bsses[w.bss].BSSID }
func (w *wpaSTA) ssid() string         { return w.h.a.bsses[w.bss].Profile.SSID }

// mgmtHeader starts a management frame of the station to its BSS.
func (w *wpaSTA) mgmtHeader(subtype int) []byte {
	id := w.bssid()
	return ieee80211.AppendMgmtHeader(nil, uint8(subtype), id, w.addr, id, w.h.nextSeq())
}

// associate authenticates and associates with pass as the station's
// passphrase; the 4-way handshake then runs over the harness.
func (w *wpaSTA) associate(pass string) {
	h := w.h
	h.t.Helper()
	id := w.bssid()
	h.authTo(id, w.addr, 0, 1)
	b := ieee80211.AppendAssocReq(w.mgmtHeader(ieee80211.SubtypeAssocReq), 0x0431, 10)
	b = ieee80211.AppendSSID(b, w.ssid())
	b = ieee80211.AppendRates(b, gRates)
	b = append(b, w.rsne()...)
	b = ieee80211.AppendWMMInfo(b, 0)
	h.air(b)
	r := h.a.radios[w.bss].rsn
	sup, err := handshake.NewSupplicant(handshake.SupplicantConfig{SPA: w.addr, AA: id, PMK: ssidPMK(h.t, pass, w.ssid()),
		RSNE: w.rsne(), APRSNE: r.policy.Element(), APRSNXE: r.policy.RSNXElement(), Rand: newSeeded(2)})
	if err != nil {
		h.t.Fatal(err)
	}
	w.sup = sup
	h.acceptAssoc(w.addr)
}

// pump delivers what the AP sent to the station (acknowledged), and what
// the station answers to the AP, until the air is quiet. Frames to others
// are acknowledged and dropped.
func (w *wpaSTA) pump() { w.h.settle(50, w.deliver) }

// settle hands each frame the AP sends to deliver, for at most rounds
// rounds, until the AP sends nothing more.
func (h *harness) settle(rounds int, deliver func([]byte)) {
	for range rounds {
		out, _ := h.take()
		if len(out) == 0 {
			return
		}
		for _, f := range out {
			deliver(f)
		}
	}
	h.t.Fatal("the exchange does not settle")
}

// deliver hands one AP frame to the station and echoes it.
func (w *wpaSTA) deliver(b []byte) {
	_, fr := parsed(w.h.t, b)
	mine := fr.Addr1() == w.addr || fr.Addr1().IsMulticast() && fr.Addr2() == w.bssid()
	if mine && fr.Type() == ieee80211.TypeData && !fr.IsNullData() {
		w.receive(fr)
	}
	if mine && fr.Type() == ieee80211.TypeMgmt && fr.Subtype() != ieee80211.SubtypeBeacon {
		w.mgmt = append(w.mgmt, append(ieee80211.Frame(nil), fr...))
	}
	w.h.echo(b, radio.TxStatus{Acked: !(w.noAck && fr.Addr1() == w.addr)})
	w.act()
}

// receive decrypts a data frame under the key that protects it (the
// current or an earlier one: frames sent just before a rekey arrive after
// it), checks its (key, PN) is new, and takes EAPOL to the supplicant and
// other MSDUs to plain. A frame no key opens is counted in lost.
func (w *wpaSTA) receive(fr ieee80211.Frame) {
	t := w.h.t
	fr = append(ieee80211.Frame(nil), fr...)
	if fr.Protected() {
		pn, id, err := ccmp.ParseHeader(fr)
		if err != nil {
			t.Fatalf("protected frame: %v", err)
		}
		group := fr.Addr1().IsMulticast()
		var body []byte
		var key *ccmp.Key
		for i := len(w.history) - 1; i >= 0 && key == nil; i-- {
			k := w.history[i]
			if k.group != group || k.k.ID() != id {
				continue
			}
			c := append(ieee80211.Frame(nil), fr...)
			if body, err = k.k.Decrypt(c); err == nil {
				key = k.k
				fr = append(append(ieee80211.Frame(nil), fr[:fr.HeaderLen()]...), body...)
			}
		}
		if key == nil {
			w.lost++
			return
		}
		kp := keyPN{w.keys[key], pn}
		sum := sha256.Sum256(body)
		if prev, ok := w.seen[kp]; ok && prev != sum {
			t.Fatalf("two frames under one key with PN %d", pn)
		}
		w.seen[kp] = sum
		replay := w.replay[key]
		i := ccmp.CounterIndex(fr)
		if !replay.Fresh(i, pn) {
			return // a retransmission
		}
		replay.Accept(i, pn)
	}
	if fr.IsQoS() && fr.AMSDUPresent() {
		it := ieee80211.AMSDUSubframes(fr.Body())
		for it.Next() {
			w.plain = append(w.plain, append([]byte(nil), it.Payload()...))
		}
		return
	}
	et, payload, ok := ieee80211.Decap(fr.Body())
	if !ok {
		t.Fatalf("data frame does not decapsulate")
	}
	if et == etherTypeEAPOL {
		if fr.Addr1() != w.addr {
			t.Fatal("EAPOL to a group address")
		}
		w.sup.Receive(w.h.now, payload)
		return
	}
	if w.ptk == nil {
		t.Fatalf("data (EtherType %#x) before the station has a key", et)
	}
	w.plain = append(w.plain, append([]byte(nil), fr.Body()...))
}

// act carries out what the supplicant asked.
func (w *wpaSTA) act() {
	w.sup.Drain(func(a handshake.Action) {
		switch a.Kind {
		case handshake.ActSend:
			w.send(etherTypeEAPOL, a.Frame, a.Protect)
		case handshake.ActInstallPTK:
			k := w.newKey(a.Key, uint8(a.KeyID), false, 0)
			w.byID[a.KeyID&1] = k
			if !a.RXOnly {
				w.ptk, w.pn = k, 0
			}
		case handshake.ActActivatePTK:
			w.ptk, w.pn = w.byID[a.KeyID&1], 0
		case handshake.ActInstallGTK:
			w.newKey(a.Key, uint8(a.KeyID), true, a.RSC)
		case handshake.ActInstallIGTK:
			w.installIGTK(a)
		case handshake.ActCompleted:
			w.done = true
		case handshake.ActDeauth:
			w.deaut = true
		}
	})
}

// newKey installs a key; the last PN of a group key is rsc.
func (w *wpaSTA) newKey(k rsn.Key, id uint8, group bool, rsc uint64) *ccmp.Key {
	c, err := ccmp.New(k[:], id)
	if err != nil {
		w.h.t.Fatal(err)
	}
	w.keys[c] = k
	w.replay[c] = &ccmp.Replay{}
	w.replay[c].Reset(rsc)
	w.history = append(w.history, stationKey{c, group})
	return c
}

// send sends an MSDU to the AP as QoS data on TID 0, encrypted when asked.
func (w *wpaSTA) send(etherType uint16, payload []byte, protect bool) {
	w.h.air(w.frame(etherType, payload, protect, false))
}

// frame builds the station's data frame carrying an MSDU for the AP's
// address (EAPOL) or host; protect encrypts it under the PTK.
func (w *wpaSTA) frame(etherType uint16, payload []byte, protect, pm bool) []byte {
	da := host
	if etherType == etherTypeEAPOL {
		da = w.bssid()
	}
	return w.frameTo(da, etherType, payload, protect, pm)
}

// frameTo is frame with the MSDU for da.
func (w *wpaSTA) frameTo(da ieee80211.MAC, etherType uint16, payload []byte, protect, pm bool) []byte {
	hdr := ieee80211.DataHeader{Flags: ieee80211.FCToDS, Addr1: w.bssid(), Addr2: w.addr, Addr3: da, Seq: w.h.nextSeq(), QoS: true}
	if pm {
		hdr.Flags |= ieee80211.FCPwrMgt
	}
	b := ieee80211.AppendDataHeader(make([]byte, 0, 2048), hdr)
	if protect {
		b = append(b, make([]byte, ccmp.HeaderLen)...)
	}
	b = ieee80211.AppendLLCSNAP(b, etherType)
	b = append(b, payload...)
	if !protect {
		return b
	}
	w.pn++
	b, err := w.ptk.Encrypt(b, w.pn)
	if err != nil {
		w.h.t.Fatal(err)
	}
	return b
}

// connect associates and runs the 4-way handshake to its end.
func (w *wpaSTA) connect() {
	w.h.t.Helper()
	w.associate(testPassphrase)
	w.pump()
	if !w.done {
		w.h.t.Fatal("4-way handshake did not complete")
	}
}

// hasPayload reports whether the station received an MSDU carrying p.
func (w *wpaSTA) hasPayload(p []byte) bool {
	for _, got := range w.plain {
		if bytes.Contains(got, p) {
			return true
		}
	}
	return false
}

func ptr[T any](v T) *T { return &v }
