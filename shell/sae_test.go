package shell

import (
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"slices"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/airq/airq/radio/radiotest"
	"github.com/airq/airq/sae"
)

type chacha struct{ r *rand.ChaCha8 }

func (c chacha) Read(b []byte) (int, error) { return c.r.Read(b) }

// saeJobs makes n real jobs: commits from n stations to an authenticator.
func saeJobs(t *testing.T, n int) (*sae.Authenticator, []*sae.Job) {
	t.Helper()
	return saeJobsFor(t, sae.MAC{2, 0, 0, 0, 2, 0}, n)
}

// saeJobsFor is saeJobs for the BSS ap.
func saeJobsFor(t *testing.T, ap sae.MAC, n int) (*sae.Authenticator, []*sae.Job) {
	t.Helper()
	a, err := sae.NewAuthenticator(sae.Config{SSID: []byte("airq"), BSSID: ap, PWE: sae.HashToElement, AntiCloggingThreshold: 1000,
		Passwords: []sae.Password{{Password: []byte("correct horse"), AnyPeer: true}}})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := sae.GroupByID(19)
	rng := chacha{rand.NewChaCha8([32]byte{3})}
	var jobs []*sae.Job
	for i := range n {
		own := sae.MAC{2, 0, 0, 0, 1, byte(i)}
		st, err := sae.NewStation(g, own, ap, []byte("airq"), []byte("correct horse"), nil, true)
		if err != nil {
			t.Fatal(err)
		}
		f, err := st.Commit(rng)
		if err != nil {
			t.Fatal(err)
		}
		r := a.Handle(time.Unix(0, 0), rng, own, f)
		if r.Job == nil {
			t.Fatalf("commit %d gave no job: %+v", i, r)
		}
		jobs = append(jobs, r.Job)
	}
	return a, jobs
}

// finished says how the authenticator takes a job back: cancelled, or
// run (its Commit to send).
func finished(a *sae.Authenticator, j *sae.Job) (cancelled, ran bool) {
	r := a.Finish(time.Unix(0, 0), j)
	return r.Drop == sae.DropCancelled, len(r.Replies) == 1
}

// Jobs run on the worker and come back through the ready channel; the
// ones beyond the backlog come back at once, cancelled.
func TestSAEWorkerRunsAndBounds(t *testing.T) {
	a, jobs := saeJobs(t, saeBacklog+3)
	synctest.Test(t, func(t *testing.T) {
		w := makeSAEWorker(new(atomic.Uint64))
		w.add(jobs)
		got := w.take()
		if len(got) != 3 {
			t.Fatalf("%d jobs back at once, want the 3 beyond the backlog", len(got))
		}
		for _, j := range got {
			if c, _ := finished(a, j); !c {
				t.Fatal("a job beyond the backlog was not cancelled")
			}
		}
		go w.run()
		var back []*sae.Job
		for len(back) < saeBacklog {
			<-w.readyChan()
			back = append(back, w.take()...)
		}
		for _, j := range back {
			if _, ran := finished(a, j); !ran {
				t.Fatal("a queued job came back without its Commit")
			}
		}
		w.close()
	})
}

// A flood of commits to one BSS fills the backlog, yet another BSS's
// commit gets in, in place of the flood's newest, and runs next: a flood
// aimed at the guest network does not shut out the main one's joins.
func TestSAEWorkerSharesBacklogAcrossBSSes(t *testing.T) {
	flood, floodJobs := saeJobsFor(t, sae.MAC{2, 0, 0, 0, 2, 1}, saeBacklog+5)
	main, mainJobs := saeJobsFor(t, sae.MAC{2, 0, 0, 0, 2, 9}, 1)
	synctest.Test(t, func(t *testing.T) {
		w := makeSAEWorker(new(atomic.Uint64))
		w.add(floodJobs)
		w.add(mainJobs)
		shed := w.take()
		if len(shed) != 6 || slices.Contains(shed, mainJobs[0]) {
			t.Fatalf("%d jobs shed, the main BSS's among them: %v; want the flood's 6 alone", len(shed), slices.Contains(shed, mainJobs[0]))
		}
		for _, j := range shed {
			if c, _ := finished(flood, j); !c {
				t.Fatal("a shed job was not cancelled")
			}
		}
		go w.run()
		var back []*sae.Job
		for len(back) < 2 {
			<-w.readyChan()
			back = append(back, w.take()...)
		}
		if !slices.Contains(back[:2], mainJobs[0]) {
			t.Error("the main BSS's job did not run among the first two: it waited behind the flood")
		}
		if _, ran := finished(main, mainJobs[0]); !ran {
			t.Error("the main BSS's job came back without its Commit")
		}
		w.close()
	})
}

// With the interval's budget spent, a job waits for the next interval:
// the worker gives the CPU back instead of running past its share.
func TestSAEWorkerBudget(t *testing.T) {
	_, jobs := saeJobs(t, 1)
	synctest.Test(t, func(t *testing.T) {
		w := makeSAEWorker(new(atomic.Uint64))
		w.spent = saeBudget
		go w.run()
		w.add(jobs)
		synctest.Wait()
		if got := w.take(); len(got) != 0 {
			t.Fatal("a job ran with the budget spent")
		}
		time.Sleep(saeInterval)
		synctest.Wait()
		if got := w.take(); len(got) != 1 {
			t.Fatalf("%d jobs done in the next interval", len(got))
		}
		w.close()
	})
}

// Under a flood while the datapath carries traffic the worker's budget is
// a quarter, and back in full once the datapath is quiet: the stations'
// CPU first. A station's join beside traffic, with no flood, gets it all.
func TestSAEWorkerBudgetYieldsToTraffic(t *testing.T) {
	_, jobs := saeJobs(t, 2)
	synctest.Test(t, func(t *testing.T) {
		frames := new(atomic.Uint64)
		w := makeSAEWorker(frames)
		w.flooded.Store(true)
		time.Sleep(saeInterval)
		frames.Add(saeBusyFrames) // a second of a station's stream
		if w.pace(); w.budget != saeBusyBudget {
			t.Fatalf("budget %v beside %d frames a second, want %v", w.budget, saeBusyFrames, saeBusyBudget)
		}
		w.spent = saeBusyBudget
		go w.run()
		w.add(jobs[:1])
		synctest.Wait()
		if got := w.take(); len(got) != 0 {
			t.Fatal("a job ran past the busy datapath's budget")
		}
		time.Sleep(saeInterval) // no traffic in it: the whole budget again
		synctest.Wait()
		if got := w.take(); len(got) != 1 {
			t.Fatalf("%d jobs done in the next interval", len(got))
		}
		if w.budget != saeBudget {
			t.Fatalf("budget %v once the datapath is quiet, want %v", w.budget, saeBudget)
		}
		w.close()
	})
	synctest.Test(t, func(t *testing.T) {
		frames := new(atomic.Uint64)
		w := makeSAEWorker(frames)
		time.Sleep(saeInterval)
		w.flooded.Store(true)
		frames.Add(saeBusyFrames - 1) // pings, keep-alives
		w.pace()
		w.spent = saeBusyBudget
		go w.run()
		w.add(jobs[1:])
		synctest.Wait()
		if got := w.take(); len(got) != 1 {
			t.Fatal("a job waited with a quiet datapath and three quarters of the budget left")
		}
		w.close()
	})
	synctest.Test(t, func(t *testing.T) {
		w := makeSAEWorker(new(atomic.Uint64))
		time.Sleep(saeInterval)
		w.frames.Add(10 * saeBusyFrames) // traffic, no flood
		if w.pace(); w.budget != saeBudget {
			t.Fatalf("budget %v beside traffic without a flood, want %v", w.budget, saeBudget)
		}
	})
}

// A job that waited past saeMaxWait is cancelled, not run.
func TestSAEWorkerStaleJobCancelled(t *testing.T) {
	a, jobs := saeJobs(t, 1)
	synctest.Test(t, func(t *testing.T) {
		w := makeSAEWorker(new(atomic.Uint64))
		w.add(jobs)
		time.Sleep(saeMaxWait + time.Second)
		go w.run()
		<-w.readyChan()
		got := w.take()
		if len(got) != 1 {
			t.Fatalf("%d jobs back", len(got))
		}
		if c, _ := finished(a, got[0]); !c {
			t.Error("a stale job ran")
		}
		w.close()
	})
}

// countingWorker is a worker whose releases are counted, not made.
func countingWorker() (*saeWorker, *atomic.Int32) {
	w := makeSAEWorker(new(atomic.Uint64))
	released := new(atomic.Int32)
	w.release = func() { released.Add(1) }
	return w, released
}

// After a flood (jobs shed beyond the backlog), the worker gives memory
// back once, when no job has come for saeQuiet; a station's job alone,
// with nothing shed, never makes it.
func TestSAEWorkerReleasesAfterFlood(t *testing.T) {
	_, jobs := saeJobs(t, saeBacklog+3)
	synctest.Test(t, func(t *testing.T) {
		w, released := countingWorker()
		go w.run()
		w.add(jobs)
		for back := 0; back < len(jobs); {
			<-w.readyChan()
			back += len(w.take())
		}
		synctest.Wait()
		if released.Load() != 0 {
			t.Fatal("released while the flood was on")
		}
		time.Sleep(saeQuiet)
		synctest.Wait()
		if n := released.Load(); n != 1 {
			t.Fatalf("%d releases once quiet, want 1", n)
		}
		time.Sleep(10 * saeQuiet)
		synctest.Wait()
		if n := released.Load(); n != 1 {
			t.Fatalf("%d releases with no flood since, want 1", n)
		}
		w.close()
	})
	_, one := saeJobs(t, 1)
	synctest.Test(t, func(t *testing.T) {
		w, released := countingWorker()
		go w.run()
		w.add(one)
		<-w.readyChan()
		w.take()
		time.Sleep(10 * saeQuiet)
		synctest.Wait()
		if released.Load() != 0 {
			t.Fatal("a station's exchange made a release")
		}
		w.close()
	})
}

// A flood the core's queue of received frames absorbs sheds no job: its
// Commits are dropped as the queue is full or answered with token
// requests, and only the few with an echoed token make jobs. Its signs
// (ap.AP.SAEFloodSigns, read once a second) still make one release,
// saeQuiet after the last sign or job; signs that stay the same make
// none. A flood that makes no job at all starts the worker for it.
func TestSAEWorkerReleasesAfterQueuedFlood(t *testing.T) {
	_, jobs := saeJobs(t, 3)
	synctest.Test(t, func(t *testing.T) {
		w, released := countingWorker()
		d := &driver{sae: w}
		go w.run()
		var signs uint64
		for _, j := range jobs { // each second of the flood: drops, token requests, one job
			signs += 900
			d.watchSAEFlood(signs)
			w.add([]*sae.Job{j})
			<-w.readyChan()
			w.take()
			time.Sleep(time.Second)
			synctest.Wait()
			if released.Load() != 0 {
				t.Fatal("released while the flood was on")
			}
		}
		if w.flooded.Load() {
			t.Fatal("jobs shed: the flood reached the worker")
		}
		// The flood's last sign and job came a second ago.
		for range saeQuiet/time.Second - 2 {
			d.watchSAEFlood(signs)
			time.Sleep(time.Second)
			synctest.Wait()
		}
		if released.Load() != 0 {
			t.Fatal("released before the quiet period")
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if n := released.Load(); n != 1 {
			t.Fatalf("%d releases once quiet, want 1", n)
		}
		for range 10 * saeQuiet / time.Second {
			d.watchSAEFlood(signs)
			time.Sleep(time.Second)
			synctest.Wait()
		}
		if n := released.Load(); n != 1 {
			t.Fatalf("%d releases with no flood since, want 1", n)
		}
		w.close()
	})
	synctest.Test(t, func(t *testing.T) {
		d := &driver{}
		d.watchSAEFlood(0)
		if d.sae != nil {
			t.Fatal("a worker started without a flood")
		}
		d.watchSAEFlood(5)
		if d.sae == nil || !d.sae.coreFlood.Load() {
			t.Fatal("a flood with no job did not start the worker to give its garbage back")
		}
		d.sae.close()
	})
}

var floodGarbage, liveHeap []byte

// The release gives the system the heap a flood's garbage left free:
// the runtime otherwise keeps it, in VmRSS, up to the collector's goal
// (twice the live heap).
func TestSAEWorkerReturnsFloodGarbage(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's allocator keeps its own pages: make norace measures this")
	}
	liveHeap = make([]byte, 8<<20) // airqd's, about 8 MiB: a goal of 16
	defer func() { liveHeap = nil }()
	runtime.GC()
	synctest.Test(t, func(t *testing.T) {
		w := makeSAEWorker(new(atomic.Uint64))
		for range 96 { // 6 MiB, as a flood's parsed and answered Commits
			floodGarbage = make([]byte, 64<<10)
		}
		floodGarbage = nil
		runtime.GC()
		// What the runtime holds free and has not given back: the
		// flood's pages until the release (the background scavenger
		// keeps what is under the goal), nearly nothing after it, even
		// if the scavenger ran first.
		free := func() uint64 {
			s := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}}
			metrics.Read(s)
			return s[0].Value.Uint64()
		}
		before := free()
		w.flooded.Store(true)
		go w.run()
		time.Sleep(saeQuiet)
		synctest.Wait()
		// Other tests' goroutines may allocate meanwhile: the free heap
		// falling by 4 MiB, or at most 1 MiB left, is the release.
		if kept := free(); kept > 1<<20 && kept+4<<20 > before {
			t.Errorf("%d KiB of free heap kept once the flood was over (%d KiB before the release), want 4 MiB less or at most 1 MiB", kept>>10, before>>10)
		}
		w.close()
	})
}

// The frames the worker's budget reads: what the driver writes to the
// wired side counts (the loop adds what it reads).
func TestDriverCountsWiredFrames(t *testing.T) {
	d := &driver{wired: []Wired{radiotest.New(), radiotest.New()}, st: new(Stats)}
	if _, err := d.WriteWired(1, [][]byte{make([]byte, 60), make([]byte, 60)}); err != nil {
		t.Fatal(err)
	}
	if n := d.frames.Load(); n != 2 {
		t.Fatalf("%d frames counted, want 2", n)
	}
}
