package sim

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/sae"
)

// A Commit flood (1,000 a second, in bursts) aimed at the guest BSS of
// two WPA3 BSSes, on an AP whose SAE jobs take 400 ms each (a slow core
// under the shell's budget): the guest's full queue works a Commit every
// 140 ms, and with its anti_clogging_threshold out of reach each makes a
// job, so the worker falls behind and the guest's jobs pile up. The
// BSSes take turns at the worker, as the shell's do: main's station,
// starting 3 s into the flood, has its job run after the guest's job in
// work and joins within a second; run in the order they came, its job
// would wait behind the guest's backlog, seconds of it, past the flood.
func TestSAEFloodOtherBSSJoinsInTurn(t *testing.T) {
	const jobCost = 400 * time.Millisecond
	wpa3 := func(password string, threshold int) *ap.RSNConfig {
		return &ap.RSNConfig{AKMs: []rsn.AKM{rsn.AKMSAE}, MFP: rsn.MFPRequired,
			SAE: &ap.SAEConfig{Passwords: []sae.Password{{Password: []byte(password), AnyPeer: true}},
				PWE: sae.HashToElement, Sync: 3, AntiCloggingThreshold: threshold}}
	}
	s, err := New(Config{Seed: 11, SAEJobCost: jobCost, AP: ap.Config{SSID: "main", BSSID: mainGuest[0], RSN: wpa3(simSAEPassword, 5),
		BSSes: []ap.BSSConfig{{SSID: "guest", BSSID: mainGuest[1], RSN: wpa3("guest password", 1<<20)}}}})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := sae.GroupByID(19)
	attacker, err := sae.NewStation(g, sae.MAC{0x02, 0xfe, 0, 0, 0, 1}, sae.MAC(mainGuest[1]), []byte("guest"), []byte("guest password"), nil, true)
	if err != nil {
		t.Fatal(err)
	}
	commit, err := attacker.Commit(rand.NewChaCha8([32]byte{11}))
	if err != nil {
		t.Fatal(err)
	}
	rt := radiotap.AppendRx(nil, radio.RxInfo{Freq: 5180, Signal: -60, HasSignal: true})
	s.Run(100 * time.Millisecond)
	t0 := s.Now()
	var st *Station
	for i := 0; s.Now() < t0+6*time.Second; { // 1,000 Commits a second from new addresses, in bursts as a radio reads them
		if st == nil && s.Now() >= t0+3*time.Second {
			if n := len(s.drv.sae.jobs); n < 5 {
				t.Fatalf("%d jobs waiting 3 s into the flood: it did not reach the worker", n)
			}
			st = s.AddStation(StationConfig{SSID: "main", BSSID: mainGuest[0], SAE: &StationSAE{Password: simSAEPassword, H2E: true}, Start: s.Now()})
		}
		for range 10 {
			from := ieee80211.MAC{0x02, 0xfe, 0, 0, byte(i >> 8), byte(i)}
			b := ieee80211.AppendMgmtHeader(append([]byte(nil), rt...), ieee80211.SubtypeAuth, mainGuest[1], from, mainGuest[1], uint16(i))
			b = ieee80211.AppendAuth(b, bss.AuthSAE, commit.Transaction, commit.Status)
			s.InjectRadio(append(b, commit.Body...))
			i++
		}
		s.Run(10 * time.Millisecond)
	}
	if !st.Associated() {
		c := s.Core().Counters()
		t.Fatalf("main's station did not join during the flood at the guest; core %v", c.String())
	}
	joined := st.Stats().AssociatedAt - (t0 + 3*time.Second)
	t.Logf("joined %v after it started, %d guest jobs waiting at the flood's end", joined, len(s.drv.sae.jobs))
	if joined > time.Second {
		t.Errorf("main's station joined %v after it started, want within a second: the guest's job in work, then its own", joined)
	}
	if c := s.Core().Counters(); c[counter.SAEAccepted] != 1 {
		t.Errorf("%d exchanges accepted, want main's station's", c[counter.SAEAccepted])
	}
}
