package handshake

import (
	"io"
	"time"

	"github.com/airq/airq/rsn"
)

// Group key state machine states (wpa_auth_i.h).
type groupState uint8

const (
	groupGTKInit groupState = iota
	groupSetKeys
	groupSetKeysDone
)

// group is hostapd's struct wpa_group for the one group of the BSS: two
// GTK slots (key IDs 1 and 2, GN in use, GM the other) and two IGTK slots
// (4 and 5), swapped at each rekey.
type group struct {
	state          groupState
	gn, gm         int
	gnIGTK, gmIGTK int
	gtk            [2]rsn.Key // by key ID - 1
	igtk           [2]rsn.Key // by key ID - 4
	mfp            bool
	keyDone        int  // GKeyDoneStations
	reKey          bool // GTKReKey
	changed        bool
	txGN           int // the GTK the AP sends with: GN once SETKEYSDONE
	txIGTK         int // likewise the IGTK
}

// initKeys is GTK_INIT: slots reset, a GTK (and IGTK) in GN.
func (g *group) initKeys(r io.Reader, mfp bool) error {
	*g = group{gn: 1, gm: 2, gnIGTK: 4, gmIGTK: 5, mfp: mfp}
	return g.update(r)
}

// update is wpa_gtk_update: fresh keys in the GN slots. hostapd expands
// them from its GMK; here they are read from the random source.
func (g *group) update(r io.Reader) error {
	gtk, err := rsn.RandomKey(r)
	if err != nil {
		return err
	}
	var igtk rsn.Key
	if g.mfp {
		if igtk, err = rsn.RandomKey(r); err != nil {
			return err
		}
	}
	g.gtk[g.gn-1] = gtk
	if g.mfp {
		g.igtk[g.gnIGTK-4] = igtk
	}
	return nil
}

// groupStep is wpa_group_sm_step.
func (a *Authenticator) groupStep(now time.Duration) {
	g := &a.g
	// A rekey asked for while one waits for stations (hostapd enters
	// SETKEYS again at once, moving GN back onto the key ID the AP still
	// sends with) starts once the AP has switched.
	switch {
	case g.state == groupSetKeysDone && g.reKey:
		a.setKeys(now)
	case g.state == groupSetKeys && g.keyDone == 0:
		a.setKeysDone(now)
	}
}

// groupStepAll runs the group machine until it settles, as wpa_rekey_gtk.
func (a *Authenticator) groupStepAll(now time.Duration) {
	for {
		a.g.changed = false
		a.groupStep(now)
		if !a.g.changed {
			return
		}
	}
}

// setKeys is SETKEYS: swap the slots, new keys in GN, and mark every
// station whose 4-way handshake is done for a group key handshake.
func (a *Authenticator) setKeys(now time.Duration) {
	g := &a.g
	prev := *g
	g.changed, g.state, g.reKey = true, groupSetKeys, false
	g.gn, g.gm = g.gm, g.gn
	g.gnIGTK, g.gmIGTK = g.gmIGTK, g.gnIGTK
	if err := g.update(a.rand()); err != nil {
		*g = prev // keep the keys in use; the next rekey tries again
		g.reKey = false
		return
	}
	g.keyDone = 0
	for _, s := range a.stas {
		s.updateGroup(now)
	}
}

// setKeysDone is SETKEYSDONE: the AP sends with the GN keys from now on.
func (a *Authenticator) setKeysDone(now time.Duration) {
	g := &a.g
	g.changed, g.state, g.txGN, g.txIGTK = true, groupSetKeysDone, g.gn, g.gnIGTK
	a.emit(Action{At: now, Kind: ActInstallGTK, KeyID: g.gn, Key: g.gtk[g.gn-1]})
	if g.mfp {
		a.emit(Action{At: now, Kind: ActInstallIGTK, KeyID: g.gnIGTK, Key: g.igtk[g.gnIGTK-4]})
	}
}

// rekeyInProgress is wpa_auth_gtk_rekey_in_process.
func (g *group) rekeyInProgress() bool { return g.keyDone > 0 }
