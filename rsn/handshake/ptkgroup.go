package handshake

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// staGroupState is a state of the WPA_PTK_GROUP machine.
type staGroupState uint8

const (
	staGroupIdle staGroupState = iota
	staGroupRekeyNegotiating
	staGroupRekeyEstablished
	staGroupKeyError
)

var staGroupStateNames = [...]string{"IDLE", "REKEYNEGOTIATING", "REKEYESTABLISHED", "KEYERROR"}

func (g staGroupState) String() string { return staGroupStateNames[g] }

// groupSMStep is SM_STEP(WPA_PTK_GROUP).
func (s *Station) groupSMStep(now time.Duration) {
	if s.init || s.ptkGroupInit {
		s.enterGroup(staGroupIdle)
		if s.init {
			s.changed = false
		}
		s.gTimeoutCtr = 0
		s.ptkGroupInit = false
		return
	}
	cfg := &s.a.cfg
	switch s.groupState {
	case staGroupIdle:
		if s.gUpdate && s.ptkState == ptkInitDone { // marked mid-handshake: after message 4
			s.enterRekeyNegotiating(now)
		}
	case staGroupRekeyNegotiating:
		switch {
		case s.keyReceived && !s.keyRequest && !s.keyPairwise && s.micOK:
			s.enterRekeyEstablished(now)
		case s.gTimeoutCtr > cfg.GroupUpdateCount || cfg.DisableEAPOLKeyRetries && s.gTimeoutCtr > 1:
			s.enterKeyError()
		case s.timeoutEvt:
			s.enterRekeyNegotiating(now)
		}
	case staGroupKeyError, staGroupRekeyEstablished:
		s.enterGroup(staGroupIdle)
		s.gTimeoutCtr = 0
	}
}

func (s *Station) enterGroup(g staGroupState) {
	s.groupState = g
	s.changed = true
}

// enterRekeyNegotiating sends group message 1: the GN GTK (and IGTK)
// under the KEK, its RSC once the AP sends with it.
func (s *Station) enterRekeyNegotiating(now time.Duration) {
	s.enterGroup(staGroupRekeyNegotiating)
	cfg := &s.a.cfg
	s.gTimeoutCtr++
	if cfg.DisableEAPOLKeyRetries && s.gTimeoutCtr > 1 || s.gTimeoutCtr > cfg.GroupUpdateCount {
		return
	}
	s.timeoutEvt = false
	g := &s.a.g
	var rsc uint64
	if g.state == groupSetKeysDone {
		rsc = cfg.GroupTXPN(g.gn)
	}
	kd := rsn.AppendGTKKDE(nil, uint8(g.gn), false, &g.gtk[g.gn-1])
	kd = s.appendIGTK(kd, g.gnIGTK)
	// With a pairwise key (always, here) the Install bit stays clear.
	s.sendKey(now, rsn.InfoSecure|rsn.InfoMIC|rsn.InfoAck, rsc, nil, kd, true)
	clear(kd)
}

func (s *Station) enterRekeyEstablished(now time.Duration) {
	s.enterGroup(staGroupRekeyEstablished)
	s.keyReceived = false
	if s.gUpdate {
		s.a.g.keyDone--
	}
	s.gUpdate = false
	s.gTimeoutCtr = 0
	s.hasGTK = true
	s.emit(Action{At: now, Kind: ActGroupCompleted})
}

func (s *Station) enterKeyError() {
	s.enterGroup(staGroupKeyError)
	if s.gUpdate {
		s.a.g.keyDone--
	}
	s.gUpdate = false
	s.disconnect = true
	s.disconnectReason = ieee80211.ReasonGroupKeyTimeout
	s.cause = CauseGroupTimeout
}

// updateGroup is wpa_group_update_sta: a station whose 4-way handshake is
// done is marked for the group key handshake. So is one in the middle of
// one that holds the GTK in use or has it in a message 3 already out: it
// gets GN once message 4 is in, and SETKEYSDONE waits for it. hostapd
// skips those ("Not in PTKINITDONE"), and they read no group frame once
// the AP switches.
func (s *Station) updateGroup(now time.Duration) {
	switch {
	case s.gone:
		s.gUpdate = false
	case s.ptkState == ptkInitDone:
		s.a.g.keyDone++
		s.gUpdate = true
		s.step(now)
	case s.ptkState == ptkInitNegotiating || s.hasGTK:
		s.a.g.keyDone++
		s.gUpdate = true
	default:
		s.gUpdate = false
	}
}
