package sim

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/sae"
)

const simSAEPassword = "correct horse battery staple"

// saeSim is a WPA3 BSS: SAE alone with ieee80211w=2, or a transition BSS
// (WPA-PSK SAE, ieee80211w=1), sae_pwe=2, groups 19 and 20.
func saeSim(t *testing.T, seed uint64, transition bool) (*Sim, *Host) {
	t.Helper()
	rc := ap.RSNConfig{AKMs: []rsn.AKM{rsn.AKMSAE}, MFP: rsn.MFPRequired,
		SAE: &ap.SAEConfig{Passwords: []sae.Password{{Password: []byte(simSAEPassword), AnyPeer: true}},
			Groups: []uint16{19, 20}, PWE: sae.BothMethods, Sync: 3, AntiCloggingThreshold: 5}}
	if transition {
		rc.AKMs, rc.MFP, rc.Passphrase = []rsn.AKM{rsn.AKMPSK, rsn.AKMSAE}, rsn.MFPOptional, bss.NewPassphrase(simPassphrase)
	}
	s, err := New(Config{Seed: seed, AP: ap.Config{RSN: &rc}})
	if err != nil {
		t.Fatal(err)
	}
	return s, s.AddHost(HostConfig{})
}

// SAE stations of both methods and groups 19 and 20 run SAE (the core's
// jobs in virtual time), complete AKM 8's handshake and carry pings both
// ways; the status shows their group and method.
func TestSAEStationsConnect(t *testing.T) {
	s, h := saeSim(t, 1, false)
	cfgs := []StationSAE{{simSAEPassword, 19, false}, {simSAEPassword, 19, true}, {simSAEPassword, 20, false}, {simSAEPassword, 20, true}}
	for i := range cfgs {
		s.AddStation(StationConfig{SAE: &cfgs[i], Start: time.Duration(i) * time.Millisecond})
	}
	waitConnected(t, s)
	var pings []*Ping
	for _, st := range s.Stations() {
		pings = append(pings, s.Ping(st, h, 100*time.Millisecond, 56), s.Ping(h, st, 100*time.Millisecond, 56))
	}
	s.Run(2 * time.Second)
	for i, p := range pings {
		if st := p.Stats(); st.Received+2 < st.Sent || st.Sent < 15 {
			t.Errorf("ping %d: %d of %d answered", i, st.Received, st.Sent)
		}
	}
	if c := s.Core().Counters(); c[counter.SAEAccepted] != 4 || c[counter.HandshakeFailed] != 0 {
		t.Errorf("core: %d SAE exchanges accepted, %d handshakes failed", c[counter.SAEAccepted], c[counter.HandshakeFailed])
	}
	for i, st := range s.Stations() {
		got := stationFigures(t, s, st.Addr())
		method := "hunting-and-pecking"
		if cfgs[i].H2E {
			method = "hash-to-element"
		}
		if got.AKM != "SAE" || got.SAEGroup != cfgs[i].Group || got.SAEMethod != method {
			t.Errorf("station %d: %s group %d %s", i, got.AKM, got.SAEGroup, got.SAEMethod)
		}
	}
}

// A wrong password is refused at the Confirm with status 15, counted as
// such, and nothing passes.
func TestSAEWrongPasswordSim(t *testing.T) {
	s, _ := saeSim(t, 2, false)
	st := s.AddStation(StationConfig{SAE: &StationSAE{Password: "not the password"}})
	s.Run(2 * time.Second)
	c := s.Core().Counters()
	if st.Associated() || c[counter.SAEAccepted] != 0 || c[counter.SAEConfirmMismatch] == 0 {
		t.Errorf("wrong password: associated %v, %d accepted, %d confirm mismatches", st.Associated(),
			c[counter.SAEAccepted], c[counter.SAEConfirmMismatch])
	}
	logged := 0
	s.DrainEvents(func(e ap.Event) {
		if e.Kind == ap.EventSAEFailed && e.Addr == st.Addr() && e.Reason == 15 && e.Why == "SAE confirm mismatch: wrong password likely" {
			logged++
		}
	})
	if logged == 0 {
		t.Error("the wrong password is not logged as such")
	}
}

// A transition BSS serves a WPA-PSK station and an SAE station at once.
func TestSAETransitionSim(t *testing.T) {
	s, h := saeSim(t, 3, true)
	psk := s.AddStation(StationConfig{Passphrase: simPassphrase, AKM: rsn.AKMPSK})
	w3 := s.AddStation(StationConfig{SAE: &StationSAE{Password: simSAEPassword, H2E: true}})
	waitConnected(t, s)
	p1, p2 := s.Ping(psk, h, 100*time.Millisecond, 56), s.Ping(w3, h, 100*time.Millisecond, 56)
	s.Run(time.Second)
	if a, b := p1.Stats(), p2.Stats(); a.Received < 8 || b.Received < 8 {
		t.Errorf("pings: WPA-PSK %d/%d, SAE %d/%d", a.Received, a.Sent, b.Received, b.Sent)
	}
	if got := stationFigures(t, s, psk.Addr()); got.AKM != "WPA-PSK" {
		t.Errorf("WPA-PSK station: %q", got.AKM)
	}
	if got := stationFigures(t, s, w3.Addr()); got.AKM != "SAE" {
		t.Errorf("SAE station: %q", got.AKM)
	}
}

// A station that reconnects names its PMKSA: Open System, no SAE
// exchange, the core counts the hit.
func TestSAEReconnectUsesPMKSA(t *testing.T) {
	s, _ := saeSim(t, 4, false)
	st := s.AddStation(StationConfig{SAE: &StationSAE{Password: simSAEPassword, H2E: true}})
	waitConnected(t, s)
	commits := st.Stats().SAECommits
	r := s.Control(ctl.Request{Op: ctl.OpStationDel, Addr: st.Addr(), Reason: 3})
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	s.Run(50 * time.Millisecond)
	st.Connect()
	waitConnected(t, s)
	c := s.Core().Counters()
	if ss := st.Stats(); ss.SAECommits != commits || ss.PMKSAJoins != 1 || c[counter.SAEPMKSAHits] != 1 || c[counter.SAEAccepted] != 1 {
		t.Errorf("reconnect: %d commits (was %d), %d PMKSA joins, core %d hits, %d exchanges",
			ss.SAECommits, commits, ss.PMKSAJoins, c[counter.SAEPMKSAHits], c[counter.SAEAccepted])
	}
}

// A burst of 100 Commits from made-up addresses reaching the core at one
// instant, as the shell reads a batch, fills the BSS's queue of received
// frames: 15 wait and 85 are dropped unread. The core works the queue on
// its timers in virtual time: one frame at once, the next 10 ms per frame
// still queued after the last. An SAE station that starts 10 ms into the
// burst takes the place the first frame freed and waits behind the 14
// others, worked at 140, 280, 410, 530, 640, 740, 830, 910, 980, 1,040,
// 1,090, 1,130, 1,160, 1,180 and 1,190 ms: the first 11 frames get token
// requests (5 or more frames still queued, the threshold), the next four
// their exchange's work, and the station, with those four peers in
// Committed and nothing queued, its exchange at once: it joins about
// 1.2 s after the burst.
func TestSAECommitBurstSim(t *testing.T) {
	s, _ := saeSim(t, 5, false)
	cfg := s.Core().Config()
	g, _ := sae.GroupByID(19)
	attacker, err := sae.NewStation(g, sae.MAC{0x02, 0xfe, 0, 0, 0, 1}, sae.MAC(cfg.BSSID), []byte(cfg.SSID), []byte(simSAEPassword), nil, true)
	if err != nil {
		t.Fatal(err)
	}
	commit, err := attacker.Commit(rand.NewChaCha8([32]byte{5}))
	if err != nil {
		t.Fatal(err)
	}
	s.Run(100 * time.Millisecond)
	t0 := s.Now()
	rt := radiotap.AppendRx(nil, radio.RxInfo{Freq: 2412, Signal: -60, HasSignal: true})
	for i := range 100 {
		from := ieee80211.MAC{0x02, 0xfe, 0, 0, 0, byte(i)}
		b := ieee80211.AppendMgmtHeader(append([]byte(nil), rt...), ieee80211.SubtypeAuth, cfg.BSSID, from, cfg.BSSID, uint16(i))
		b = ieee80211.AppendAuth(b, bss.AuthSAE, commit.Transaction, commit.Status)
		s.InjectRadio(append(b, commit.Body...))
	}
	c := s.Core().Counters()
	if c[counter.SAEQueueFull] != 85 || c[counter.SAETokenRequested] != 0 {
		t.Fatalf("after the burst: %d dropped with the queue full, %d token requests; want 85 and none yet",
			c[counter.SAEQueueFull], c[counter.SAETokenRequested])
	}
	st := s.AddStation(StationConfig{SAE: &StationSAE{Password: simSAEPassword, H2E: true}, Start: t0 + 10*time.Millisecond})
	s.Run(time.Millisecond)
	if n := s.Core().Counters()[counter.SAETokenRequested]; n != 1 {
		t.Fatalf("%d frames worked at once, want the first", n)
	}
	s.RunUntil(t0 + 1180*time.Millisecond)
	if st.Associated() {
		t.Fatal("the station joined before its turn")
	}
	waitConnected(t, s)
	c = s.Core().Counters()
	joined := st.Stats().AssociatedAt - t0
	t.Logf("joined %v after the burst; %d token requests, %d exchanges accepted", joined, c[counter.SAETokenRequested], c[counter.SAEAccepted])
	if c[counter.SAETokenRequested] != 11 || c[counter.SAEAccepted] != 1 || joined > 1200*time.Millisecond {
		t.Errorf("%d token requests (want 11), %d accepted (want the station's), joined %v after the burst (want its turn at 1,190 ms and the exchange)",
			c[counter.SAETokenRequested], c[counter.SAEAccepted], joined)
	}
}
