package sim

import (
	"slices"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/sae"
)

// A WPA3 station, as wpa_supplicant runs SAE against an AP: its Commit,
// the AP's Commit (or a token request, answered with the token), its
// Confirm, the AP's Confirm; then the association with AKM SAE and the
// 4-way handshake with the exchange's PMK. It keeps the PMKSA: when it
// connects again it authenticates with Open System and names the PMKID in
// its association request, skipping SAE, until the AP refuses it (status
// 53), which sends it back to SAE.

// StationSAE is a WPA3 station's setting (wpa_supplicant's sae_password,
// sae_groups' first and sae_pwe).
type StationSAE struct {
	Password string
	Group    uint16 // default 19
	H2E      bool   // hash-to-element (sae_pwe=1); else hunting and pecking
}

// saeStation is a station's SAE state.
type saeStation struct {
	ex      *sae.Station // the exchange in progress
	keys    sae.Keys     // the last accepted exchange's, its PMKSA
	have    bool         // keys holds a PMKSA
	cached  bool         // this connection reuses it: Open System, the PMKID
	apRSNXE []byte       // the AP's RSNXE, from the beacon
	apKey   *StationSAE  // the AP's own setting, with UseAPKey
}

// sendSAECommit starts an SAE exchange in place of Open System
// authentication; it reports false when the station does not use SAE
// now (not a WPA3 station, or reusing its PMKSA).
func (st *Station) sendSAECommit() bool {
	c := st.saeSetting()
	st.sae.cached = false
	if c == nil || st.apRSNE == nil {
		return false
	}
	if st.sae.have {
		st.sae.cached = true
		return false
	}
	if st.sae.ex == nil || st.tries == 1 {
		group := c.Group
		if group == 0 {
			group = 19
		}
		g, ok := sae.GroupByID(group)
		if !ok {
			return false
		}
		ex, err := sae.NewStation(g, sae.MAC(st.cfg.Addr), sae.MAC(st.bssid), []byte(st.cfg.SSID), []byte(c.Password), nil, c.H2E)
		if err != nil {
			return false
		}
		st.sae.ex = ex
	}
	f, err := st.sae.ex.Commit(rngReader{st.sim.keys})
	if err != nil {
		return false
	}
	st.sendSAE(f)
	return true
}

func (st *Station) sendSAE(f sae.Frame) {
	st.stats.Auths++
	if f.Transaction == 1 {
		st.stats.SAECommits++
	}
	b := ieee80211.AppendAuth(st.buf[:0], 3, f.Transaction, f.Status)
	b = append(b, f.Body...)
	st.buf = b[:0]
	st.sendMgmt(ieee80211.SubtypeAuth, st.bssid, b)
}

// onSAE takes the AP's SAE frame: the next frame of the exchange, or its
// keys, then the association. A refusal leaves the retry to the timer.
func (st *Station) onSAE(a ieee80211.Auth) {
	if st.sae.ex == nil {
		return
	}
	reply, keys, err := st.sae.ex.Handle(rngReader{st.sim.keys}, sae.Frame{Transaction: a.Transaction(),
		Status: a.Status(), Body: a[6:]})
	switch {
	case err != nil:
		return
	case keys != nil:
		st.sae.keys, st.sae.have, st.sae.ex = *keys, true, nil
		st.sendAssocReq()
	case reply != nil:
		st.sendSAE(*reply)
	}
}

// addPMKID names the cached PMKSA in the station's RSNE when this
// connection reuses it.
func (st *Station) addPMKID(e *rsn.Element) {
	if st.saeSetting() == nil || !st.sae.cached {
		return
	}
	e.PMKIDs, e.Last = []rsn.PMKID{rsn.PMKID(st.sae.keys.PMKID)}, rsn.FieldPMKID
}

// saeAssocRefused drops a PMKSA the AP does not know (status 53): the
// next try runs SAE.
func (st *Station) saeAssocRefused(status uint16) {
	if status == 53 && st.sae.cached {
		st.sae.have, st.sae.cached = false, false
		st.sendAuth()
	}
}

// saeAssociated counts an association that reused the PMKSA.
func (st *Station) saeAssociated() {
	if st.sae.cached {
		st.stats.PMKSAJoins++
	}
}

// saeSetting is the station's SAE setting: its own, or with UseAPKey on
// a BSS offering SAE, the AP's first password and method (airqd -radio
// sim's stations know the network's secret).
func (st *Station) saeSetting() *StationSAE {
	if st.cfg.SAE != nil || !st.cfg.UseAPKey {
		return st.cfg.SAE
	}
	r := st.apRSN()
	if r == nil || !slices.Contains(r.AKMs, rsn.AKMSAE) {
		return nil
	}
	if st.sae.apKey == nil {
		c := &StationSAE{}
		if r.SAE != nil && len(r.SAE.Passwords) > 0 {
			c.Password = string(r.SAE.Passwords[0].Password)
			c.H2E = r.SAE.PWE != sae.HuntAndPeck
		} else {
			c.Password = r.Passphrase.Reveal()
		}
		st.sae.apKey = c
	}
	return st.sae.apKey
}
