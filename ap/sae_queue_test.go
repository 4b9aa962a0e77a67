package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/sae"
)

// saeAuthFrame is an SAE Authentication frame from addr to the first BSS,
// with its RX header.
func saeAuthFrame(h *harness, from ieee80211.MAC, f sae.Frame) []byte {
	b := ieee80211.AppendAuth(h.mgmt(ieee80211.SubtypeAuth, from), authSAE, f.Transaction, f.Status)
	return append(radiotapRx(), append(b, f.Body...)...)
}

// batch hands frames to the core at now as one read of the shell's loop
// does: every frame, then Tick, then Flush.
func (h *harness) batch(now time.Duration, frames ...[]byte) {
	h.now = now
	for _, b := range frames {
		h.a.HandleRadio(now, b)
	}
	h.a.Tick(now)
	h.collect()
}

// workSAEFrame runs the core to its SAE queue's next turn, if any.
func (h *harness) workSAEFrame() {
	if d, ok := h.a.saeQueueDeadline(); ok {
		h.batch(d)
	}
}

// saeSent counts the SAE Authentication frames the AP sent to anyone.
func (h *harness) saeSent() int {
	n := 0
	for _, b := range h.radio {
		_, fr := parsed(h.t, b)
		if fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeAuth) {
			if a, err := ieee80211.ParseAuth(fr.Body()); err == nil && a.Algorithm() == authSAE {
				n++
			}
		}
	}
	return n
}

func saeFloodMAC(i int) ieee80211.MAC { return ieee80211.MAC{0x02, 0xf1, 0, 0, byte(i >> 8), byte(i)} }

// A flood of Commits from distinct addresses is worked at the queue's
// pace, as hostapd's: in the shell's reads of 5 frames, 100 Commits
// within 10 ms get one frame worked (at once: the queue was empty) and
// fill the queue, the other 84 dropped and counted, no reply on the air.
// Flooding on at 1,000 a second, the full queue has a frame worked every
// 140 ms (14 still queued), so the first second works 8 frames (at 0,
// 40, 180, 320, 460, 600, 740 and 880 ms): the first's job, and 7 token
// requests (the job in work and the queue are over the threshold of 5),
// where every Commit used to be answered.
func TestSAECommitFloodPaced(t *testing.T) {
	h := newHarness(t, saeConfig(t, sae.HuntAndPeck))
	h.take()
	commit := saeCommitFrom(h, saeFloodMAC(0))
	t0, sent := h.now, 0
	flood := func(at time.Duration) {
		var frames [][]byte
		for range 5 {
			frames = append(frames, saeAuthFrame(h, saeFloodMAC(sent), commit))
			sent++
		}
		h.batch(t0+at, frames...)
	}
	for at := time.Duration(0); at < 10*time.Millisecond; at += 500 * time.Microsecond {
		flood(at)
	}
	c := h.a.Counters()
	if sent != 100 || len(h.saeJobs) != 1 || h.saeSent() != 0 || c[counter.SAEQueueFull] != 84 {
		t.Fatalf("100 Commits within 10 ms: %d jobs, %d SAE frames sent, %d dropped as the queue was full; want 1, 0, 84",
			len(h.saeJobs), h.saeSent(), c[counter.SAEQueueFull])
	}
	for at := 10 * time.Millisecond; at < time.Second; at += 5 * time.Millisecond {
		flood(at)
	}
	c = h.a.Counters()
	if len(h.saeJobs) != 1 || c[counter.SAETokenRequested] != 7 || h.saeSent() != 7 {
		t.Errorf("a second of flood: %d jobs, %d token requests, %d SAE frames sent; want 1, 7, 7",
			len(h.saeJobs), c[counter.SAETokenRequested], h.saeSent())
	}
	if queued := h.a.radios[0].sae().frames.Len(); c[counter.SAEQueueFull] != uint64(sent-8-queued) || queued != sae.QueueMax {
		t.Errorf("%d sent, 8 worked, %d queued, %d dropped as the queue was full", sent, queued, c[counter.SAEQueueFull])
	}
	if signs := h.a.SAEFloodSigns(); signs != c[counter.SAEQueueFull]+c[counter.SAETokenRequested] || signs == 0 {
		t.Errorf("%d signs of a flood, want the %d queue drops and %d token requests", signs, c[counter.SAEQueueFull], c[counter.SAETokenRequested])
	}
	// Once the flood stops the queue drains at its pace, and a lone
	// Commit is worked at once again.
	for range sae.QueueMax {
		h.workSAEFrame()
	}
	if n := h.a.radios[0].sae().frames.Len(); n != 0 {
		t.Fatalf("%d frames still queued", n)
	}
	before := h.saeSent() + len(h.saeJobs)
	h.batch(h.now+time.Millisecond, saeAuthFrame(h, saeFloodMAC(9999), commit))
	if h.saeSent()+len(h.saeJobs) != before+1 {
		t.Error("a lone Commit after the flood was not worked at once")
	}
}

// A lone station's Commit is worked at once: its job goes to the driver
// in the same Flush, and the AP's Commit follows as soon as it is done.
func TestSAELoneCommitAnsweredAtOnce(t *testing.T) {
	h := newHarness(t, saeConfig(t, sae.HuntAndPeck))
	h.take()
	h.sendSAE(staMAC, saeCommitFrom(h, staMAC))
	if len(h.saeJobs) != 1 {
		t.Fatalf("%d jobs for a lone Commit, want 1 at once", len(h.saeJobs))
	}
	h.runSAEJobs()
	if got := h.saeFrames(staMAC); len(got) != 1 || got[0].Transaction != 1 || got[0].Status != 0 {
		t.Fatalf("replies %+v, want the AP's Commit", got)
	}
}

// The queue holds 15 frames: of 16 Commits read at once the 16th is
// dropped and counted, and never answered; the 15 are worked.
func TestSAESixteenthCommitDropped(t *testing.T) {
	h, _ := commitsAtOnce(t, 16)
	if n := h.a.Counters()[counter.SAEQueueFull]; n != 1 {
		t.Fatalf("%d Commits dropped as the queue was full, want 1", n)
	}
	jobs := len(h.saeJobs)
	h.runSAEJobs()
	for range sae.QueueMax {
		h.workSAEFrame()
		jobs += len(h.saeJobs)
		h.runSAEJobs()
	}
	if jobs != 15 {
		t.Errorf("%d jobs, want the 15 queued", jobs)
	}
	if got := h.saeFrames(saeFloodMAC(15)); len(got) != 0 {
		t.Errorf("the 16th Commit was answered: %+v", got)
	}
	if got := h.saeFrames(saeFloodMAC(14)); len(got) != 1 {
		t.Errorf("the 15th Commit: %d replies, want 1", len(got))
	}
}

// A station's newer Commit takes its queued one's place: only the newer
// is worked (here one in group 21, not enabled: status 77, the group
// echoed), in the older one's turn.
func TestSAEQueuedCommitReplaced(t *testing.T) {
	h := newHarness(t, saeConfig(t, sae.HuntAndPeck))
	h.take()
	commit := saeCommitFrom(h, staMAC)
	other := ieee80211.MAC{0x02, 0, 0, 0, 0x0e, 1}
	group21 := sae.Frame{Transaction: 1, Body: []byte{21, 0}}
	h.batch(h.now, saeAuthFrame(h, other, commit), saeAuthFrame(h, staMAC, commit), saeAuthFrame(h, staMAC, group21))
	if n := h.a.radios[0].sae().frames.Len(); n != 1 {
		t.Fatalf("%d frames queued after the first was worked, want the station's one", n)
	}
	h.workSAEFrame()
	if len(h.saeJobs) != 1 {
		t.Fatalf("%d jobs: the replaced Commit was worked too", len(h.saeJobs))
	}
	got := h.saeFrames(staMAC)
	if len(got) != 1 || got[0].Status != sae.StatusGroupNotSupported || len(got[0].Body) != 2 || got[0].Body[0] != 21 {
		t.Fatalf("replies to the station %+v, want status 77 for group 21 alone", got)
	}
}

// A Confirm from a station whose Commit is still queued waits behind
// it, as hostapd's auth_sae_queued_addr keeps them in order: a station
// that lost the AP's Confirm repeats its Commit and Confirm back to back
// while another peer's frame is worked; its Commit is worked (the same
// group: the AP's Commit again), then its Confirm, which completes the
// exchange. Worked on arrival, the Confirm would come before the Commit
// it follows.
func TestSAEConfirmWaitsBehindCommit(t *testing.T) {
	h := newHarness(t, saeConfig(t, sae.HuntAndPeck))
	repeatCommitAndConfirm(h)
	if got := h.saeFrames(staMAC); len(got) != 0 || h.a.radios[0].sae().frames.Len() != 2 {
		t.Fatalf("worked before their turn: replies %+v", got)
	}
	h.workSAEFrame()
	h.runSAEJobs()
	h.workSAEFrame()
	got := h.saeFrames(staMAC)
	if len(got) != 2 || got[0].Transaction != 1 || got[1].Transaction != 2 || got[1].Status != 0 {
		t.Fatalf("replies %+v, want the AP's Commit then its Confirm", got)
	}
	if n := h.a.Counters()[counter.SAEAccepted]; n != 1 {
		t.Fatalf("%d exchanges accepted, want 1", n)
	}
	if _, s := h.a.sta.lookup(staMAC); s == nil || !s.AuthOK || s.SAE == nil {
		t.Fatal("the station is not authenticated by SAE")
	}
}

// A Commit under a flood costs no allocation: with the queue full, one
// from a new address and one from a queued address are dropped, and
// counted.
func TestSAEFloodAllocs(t *testing.T) {
	h := newHarness(t, saeConfig(t, sae.HuntAndPeck))
	commit := saeCommitFrom(h, saeFloodMAC(0))
	var frames [][]byte
	for i := range 18 {
		frames = append(frames, saeAuthFrame(h, saeFloodMAC(i), commit))
	}
	h.batch(h.now, frames[:16]...) // 15 queued, one of them worked at once
	h.a.HandleRadio(h.now, frames[16])
	h.take()
	full := h.a.Counters()[counter.SAEQueueFull]
	dropped, replaced := frames[17], frames[5]
	step := func() {
		h.a.HandleRadio(h.now, dropped)
		h.a.HandleRadio(h.now, replaced)
		h.a.Tick(h.now)
		h.a.Flush(h.now, discard{})
	}
	if n := testing.AllocsPerRun(1000, step); n != 0 {
		t.Errorf("%.1f allocations per two Commits under a flood, want 0", n)
	}
	if n, dropped := h.a.radios[0].sae().frames.Len(), h.a.Counters()[counter.SAEQueueFull]-full; n != sae.QueueMax || dropped < 2000 {
		t.Errorf("%d frames queued, %d dropped; want a full queue dropping both", n, dropped)
	}
}

// A frame forged with a queued station's address does not take its
// Commit's place while the queue is full, as hostapd's auth_sae_queue
// checks for room before it replaces: the station's own Commit is worked
// (a job), the forged one (group 21, which would get status 77) never.
func TestSAEForgedRetryIntoFullQueue(t *testing.T) {
	h, commit := commitsAtOnce(t, 15) // the first worked at once
	h.a.HandleRadio(h.now, saeAuthFrame(h, saeFloodMAC(15), commit))
	victim := saeFloodMAC(7)
	h.a.HandleRadio(h.now, saeAuthFrame(h, victim, sae.Frame{Transaction: 1, Body: []byte{21, 0}}))
	if n, q := h.a.Counters()[counter.SAEQueueFull], h.a.radios[0].sae().frames.Len(); n != 1 || q != sae.QueueMax {
		t.Fatalf("%d frames dropped as the queue was full, %d queued; want the forged one, 15", n, q)
	}
	jobs := 0
	for range sae.QueueMax {
		h.runSAEJobs()
		h.workSAEFrame()
		for _, j := range h.saeJobs {
			if ieee80211.MAC(j.Peer()) == victim {
				jobs++
			}
		}
	}
	h.runSAEJobs()
	if got := h.saeFrames(victim); jobs != 1 || len(got) != 1 || got[0].Status != sae.StatusSuccess {
		t.Fatalf("the station's Commit: %d jobs, replies %+v; want its own Commit worked, the AP's Commit alone", jobs, got)
	}
}

// A radio switched off (hostapd's DISABLE) drops what SAE had received,
// as hostapd_free_hapd_data empties the queue and frees the stations'
// SAE instances: a Commit whose job finishes while it is off is not
// answered, and the Commits still queued are not worked once it is on
// again, nor do they count toward anti_clogging_threshold.
func TestSAEDisableDropsQueue(t *testing.T) {
	h := newHarness(t, saeConfig(t, sae.HuntAndPeck))
	h.take()
	commit := saeCommitFrom(h, saeFloodMAC(0))
	var frames [][]byte
	for i := range 4 { // the first worked at once, its job out
		frames = append(frames, saeAuthFrame(h, saeFloodMAC(i), commit))
	}
	h.batch(h.now, frames...)
	if len(h.saeJobs) != 1 || h.a.radios[0].sae().frames.Len() != 3 {
		t.Fatalf("%d jobs, %d frames queued; want 1 and 3", len(h.saeJobs), h.a.radios[0].sae().frames.Len())
	}
	h.a.Disable(h.now)
	h.collect()
	h.take()
	h.runSAEJobs()
	if n := h.saeSent(); n != 0 {
		t.Errorf("a switched-off radio sent %d SAE frames", n)
	}
	if _, ok := h.a.saeQueueDeadline(); ok {
		t.Error("a switched-off radio keeps an SAE frame due")
	}
	h.now += time.Second
	h.a.Enable(h.now)
	h.collect()
	for range sae.QueueMax {
		h.workSAEFrame()
		h.runSAEJobs()
	}
	for i := range 4 {
		if got := h.saeFrames(saeFloodMAC(i)); len(got) != 0 {
			t.Errorf("Commit %d, received before DISABLE, answered after ENABLE: %+v", i, got)
		}
	}
	// Four Commits at once under the threshold of 5: each gets a job.
	frames = frames[:0]
	for i := range 4 {
		frames = append(frames, saeAuthFrame(h, saeFloodMAC(10+i), commit))
	}
	h.batch(h.now, frames...)
	for range sae.QueueMax {
		h.workSAEFrame()
	}
	if n := h.a.Counters()[counter.SAETokenRequested]; n != 0 {
		t.Errorf("%d token requests for 4 Commits after ENABLE: the old frames still count", n)
	}
}

// A Confirm queued behind its station's repeated Commit is not worked
// against an exchange still in work: the Commit has left the queue, but
// its job is out (hostapd works a Commit whole before the next frame).
// The Confirm is dropped and counted, not answered with status 15, which
// would end the station's attempt; its retry, once the job is done,
// completes the exchange.
func TestSAEConfirmNotWorkedBeforeItsCommitsJob(t *testing.T) {
	h := newHarness(t, saeConfig(t, sae.HuntAndPeck))
	confirm := repeatCommitAndConfirm(h)
	h.workSAEFrame() // the station's Commit: its job out, not run yet
	h.workSAEFrame() // its Confirm
	if got := h.saeFrames(staMAC); len(got) != 0 {
		t.Fatalf("the Confirm worked while its Commit's job was out: replies %+v", got)
	}
	dropped := h.a.Counters()[counter.SAEDropped]
	if dropped == 0 {
		t.Error("the Confirm dropped uncounted")
	}
	h.runSAEJobs()
	h.take()
	h.sendSAE(staMAC, confirm) // the station's retry
	got := h.saeFrames(staMAC)
	if len(got) != 1 || got[0].Transaction != 2 || got[0].Status != 0 || h.a.Counters()[counter.SAEAccepted] != 1 {
		t.Fatalf("the retried Confirm: replies %+v, %d accepted; want the AP's Confirm, accepted", got, h.a.Counters()[counter.SAEAccepted])
	}
}

// repeatCommitAndConfirm runs a station's Commit through the AP, then
// has it repeat that Commit and send its Confirm back to back, behind
// another peer's Commit, in one read of the shell's loop (the first
// worked at once, the station's two queued); it returns the Confirm.
func repeatCommitAndConfirm(h *harness) sae.Frame {
	h.t.Helper()
	h.take()
	g, _ := sae.GroupByID(19)
	st, err := sae.NewStation(g, sae.MAC(staMAC), sae.MAC(bssid), []byte(h.a.cfg.SSID), []byte(saePassword), nil, false)
	if err != nil {
		h.t.Fatal(err)
	}
	rng := newSeeded(21)
	commit, err := st.Commit(rng)
	if err != nil {
		h.t.Fatal(err)
	}
	h.sendSAE(staMAC, commit)
	h.runSAEJobs()
	replies := h.saeFrames(staMAC)
	if len(replies) != 1 {
		h.t.Fatalf("replies to the Commit: %+v", replies)
	}
	confirm, _, err := st.Handle(rng, replies[0])
	if err != nil || confirm == nil {
		h.t.Fatalf("station: %v", err)
	}
	h.take()
	other := ieee80211.MAC{0x02, 0, 0, 0, 0x0e, 2}
	h.batch(h.now+time.Second, saeAuthFrame(h, other, commit), saeAuthFrame(h, staMAC, commit), saeAuthFrame(h, staMAC, *confirm))
	return *confirm
}

// commitsAtOnce is a harness whose SAE BSS asks no tokens, given n
// Commits from saeFloodMAC(0) on in one read of the shell's loop; it
// returns the Commit, for more.
func commitsAtOnce(t *testing.T, n int) (*harness, sae.Frame) {
	cfg := saeConfig(t, sae.HuntAndPeck)
	cfg.RSN.SAE.AntiCloggingThreshold = 100
	h := newHarness(t, cfg)
	h.take()
	commit := saeCommitFrom(h, saeFloodMAC(0))
	frames := make([][]byte, n)
	for i := range frames {
		frames[i] = saeAuthFrame(h, saeFloodMAC(i), commit)
	}
	h.batch(h.now, frames...)
	return h, commit
}

// A management frame whose source address is a group address, zero, or
// one of the radio's BSSIDs is ignored before any work, as hostapd's
// ieee802_11_mgmt ignores it: an SAE Commit from such an address takes
// no room in the queue, makes no instance and gets no reply, which would
// go to a group address or to the AP itself; an Open System
// authentication from one makes no station.
func TestSAEInvalidSourceIgnored(t *testing.T) {
	h := newHarness(t, saeConfig(t, sae.HuntAndPeck))
	h.take()
	commit := saeCommitFrom(h, saeFloodMAC(0))
	bad := []ieee80211.MAC{
		{0x01, 0x00, 0x5e, 0, 0, 1}, ieee80211.Broadcast, {}, bssid,
	}
	before := h.a.Counters()[counter.RxMalformed]
	for _, sa := range bad {
		h.batch(h.now, saeAuthFrame(h, sa, commit))
		b := ieee80211.AppendAuth(h.mgmt(ieee80211.SubtypeAuth, sa), authOpenSystem, 1, 0)
		h.batch(h.now, append(radiotapRx(), b...))
	}
	h.runSAEJobs()
	for range sae.QueueMax {
		h.workSAEFrame()
		h.runSAEJobs()
	}
	if n := h.saeSent(); n != 0 || len(h.saeJobs) != 0 {
		t.Errorf("%d SAE frames sent, %d jobs, for Commits from invalid addresses", n, len(h.saeJobs))
	}
	for _, sa := range bad {
		if _, s := h.a.sta.lookup(sa); s != nil {
			t.Errorf("a station entry for %v", sa)
		}
		if st := h.a.radios[0].sae().auth.State(sae.MAC(sa)); st != sae.Nothing {
			t.Errorf("an SAE instance for %v: %v", sa, st)
		}
	}
	if n := h.a.Counters()[counter.RxMalformed] - before; n != uint64(2*len(bad)) {
		t.Errorf("%d frames counted malformed, want %d", n, 2*len(bad))
	}
}
