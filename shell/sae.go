package shell

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/airq/airq/sae"
)

// The SAE worker: the core's elliptic-curve work (sae.Job: a password
// element, a commit, K and the keys) runs here, on one goroutine off the
// core's loop, under an explicit budget of CPU per interval, and comes back
// to the loop as an input (ap.AP.HandleSAEDone).
//
// Budget. Every saeInterval the worker may spend saeBudget running jobs
// (a quarter of one CPU: about 40 hunting-and-pecking exchanges a second
// on a slow core, several hundred hash-to-element ones). Jobs yield
// between pieces of at most one scalar multiplication or exponentiation
// (sae.Job.Run's yield; about 5 ms each on the e2e VM's emulated CPU,
// 0.1 ms on a native one): each yield charges the time run since the last
// one and calls runtime.Gosched, so that even with GOMAXPROCS=1 the core's
// loop runs between pieces instead of waiting for the scheduler's 10 ms
// preemption; once the interval's budget is spent the worker sleeps to
// the next interval, in the middle of a job if need be. The interval is a
// second, not less, so that one exchange on a slow CPU (a
// hunting-and-pecking job costs 126 ms of CPU in the e2e VM's emulated
// one) runs at once instead of over several intervals: the share stays a
// quarter, the station does not wait for it.
//
// Upstream, the core's queue of received SAE frames (sae.Queue, as
// hostapd's) already paces a flood: with the queue full a frame is
// worked every 140 ms, and only those frames are answered, a token
// request or, for a Commit with a valid token, a job. So jobs come at a
// few a second under a flood whose tokens are echoed; the budget bounds
// what each costs, which the pace does not (a hunting-and-pecking job
// takes 126 ms of the e2e VM's CPU).
//
// The datapath first. Under a flood (jobs shed since the last release)
// while stations carry traffic (at least saeBusyFrames data frames a
// second through the wired side, either way, in the last interval), the
// budget is saeBusyBudget, a quarter of it: on a CPU the datapath
// saturates, every millisecond the worker takes is one the stations lose
// (in the e2e VM, with airqd forwarding iperf3 on 60 % of the one vCPU, a
// flood kept 0.77x of the throughput with half the budget, 0.84x with a
// quarter). A quarter is the floor, so that joins still progress under
// such a flood, if slowly (on the VM's emulated CPU a hunting-and-pecking
// exchange then takes seconds; on a native core, 2 ms of a 62 ms
// budget). Without a flood a station's join beside traffic gets the whole
// budget, and so does a flood once the datapath is quiet. hostapd, which
// has no budget, lets a flood take what it will.
//
// Jobs wait at most saeBacklog deep; beyond that, or when the wait would
// outlast saeMaxWait, a job is cancelled (sae.Job.Cancel) and given back
// at once, and the core counts it (sae_budget): a commit flood costs a
// bounded share of the CPU and a bounded queue, never the datapath.
//
// The radio's BSSes share the worker fairly, so that a flood aimed at
// one (a guest network's password is widely known) does not shut the
// others' joins out: a job of a BSS holding less of a full backlog than
// another takes the place of that one's newest job, and the worker runs
// the BSSes' jobs in turn (each BSS's oldest first), as hostapd's bss=
// sections each work through their own queue.
const (
	saeInterval   = time.Second
	saeBudget     = 250 * time.Millisecond
	saeBusyBudget = saeBudget / 4
	// saeBusyFrames: data frames a second through the wired side (read
	// and written) from which the datapath is deemed busy: a station
	// streaming, not one pinging or idling.
	saeBusyFrames = 200
	saeBacklog    = 32
	saeMaxWait    = 2 * time.Second
	// saeQuiet is how long neither a job nor a sign of a flood from the
	// core comes before a flood is deemed over and its garbage given back
	// (idle).
	saeQuiet = 5 * time.Second
)

// saeWorker is the goroutine and its two queues, both guarded by mu: jobs
// to run (with when they came) and jobs done. RunSAE and take never
// block, so the core's loop never waits for the worker.
type saeWorker struct {
	mu   sync.Mutex
	todo []saeQueued
	done []*sae.Job
	// last is the BSS whose job ran last (next picks the next BSS's).
	last    sae.MAC
	wake    chan struct{} // a job to run (capacity 1)
	ready   chan struct{} // jobs done (capacity 1): the loop's input
	stop    chan struct{}
	stopped chan struct{}

	// The budget, the worker goroutine's own.
	window time.Time     // start of the current interval
	spent  time.Duration // run in it
	budget time.Duration // the interval's: saeBudget or saeBusyBudget
	// frames counts the data frames the loop moved through the wired
	// side (driver.frames); seen is its value at the interval's start.
	frames *atomic.Uint64
	seen   uint64

	// flooded: jobs were shed since the last release (idle), the
	// budget's sign of a flood; coreFlood: the core's (floodSeen).
	flooded   atomic.Bool
	coreFlood atomic.Bool
	release   func() // debug.FreeOSMemory; a test's counter
}

type saeQueued struct {
	j  *sae.Job
	at time.Time
}

func newSAEWorker(frames *atomic.Uint64) *saeWorker {
	w := makeSAEWorker(frames)
	go w.run()
	return w
}

func makeSAEWorker(frames *atomic.Uint64) *saeWorker {
	return &saeWorker{wake: make(chan struct{}, 1), ready: make(chan struct{}, 1), stop: make(chan struct{}),
		stopped: make(chan struct{}), window: time.Now(), budget: saeBudget, frames: frames, seen: frames.Load(),
		release: debug.FreeOSMemory}
}

// RunSAE makes the shell's driver an ap.SAEWorker.
func (d *driver) RunSAE(jobs []*sae.Job) {
	if d.sae == nil {
		d.sae = newSAEWorker(&d.frames)
	}
	d.sae.add(jobs)
}

// add queues jobs; those beyond saeBacklog are cancelled and given back.
func (w *saeWorker) add(jobs []*sae.Job) {
	now := time.Now()
	w.mu.Lock()
	for _, j := range jobs {
		if len(w.todo) >= saeBacklog {
			w.flooded.Store(true)
			if i := w.evictFor(j.Own()); i >= 0 {
				shed := w.todo[i].j
				w.todo = append(w.todo[:i], w.todo[i+1:]...)
				shed.Cancel()
				w.done = append(w.done, shed)
			} else {
				j.Cancel()
				w.done = append(w.done, j)
				continue
			}
		}
		w.todo = append(w.todo, saeQueued{j, now})
	}
	back := len(w.done) > 0
	w.mu.Unlock()
	signal(w.wake)
	if back {
		signal(w.ready)
	}
}

// evictFor returns the index of the job a job of BSS own takes the place
// of in a full backlog: the newest of the BSS holding the most jobs, when
// that holds more than own does; -1 when own's job is the one shed. One
// pass over the backlog, nothing allocated (a radio has at most 8 BSSes).
func (w *saeWorker) evictFor(own sae.MAC) int {
	type holder struct {
		bss    sae.MAC
		n      int
		newest int
	}
	var hs [8]holder
	used, mine := 0, 0
	for i, q := range w.todo {
		b := q.j.Own()
		if b == own {
			mine++
			continue
		}
		k := 0
		for k < used && hs[k].bss != b {
			k++
		}
		if k == used {
			if used == len(hs) {
				continue // more BSSes than a radio carries: not a flood's share
			}
			hs[k].bss, used = b, used+1
		}
		hs[k].n++
		hs[k].newest = i
	}
	at, most := -1, 0
	for _, h := range hs[:used] {
		if h.n > most {
			at, most = h.newest, h.n
		}
	}
	if most > mine+1 {
		return at
	}
	return -1
}

// next takes the job to run: the oldest of the BSS after the last one
// served, in address order, that has one waiting (sae.NextInTurn). Call
// it with mu held and the backlog not empty.
func (w *saeWorker) next() saeQueued {
	pick := sae.NextInTurn(w.todo, func(q saeQueued) sae.MAC { return q.j.Own() }, w.last)
	q := w.todo[pick]
	w.todo = append(w.todo[:pick], w.todo[pick+1:]...)
	w.last = q.j.Own()
	return q
}

// watchSAEFlood takes the core's signs of an SAE flood
// (ap.AP.SAEFloodSigns), which the loop reads once a second: when they
// rose, a flood is on, and the worker (started for it if no job has come
// yet) gives its garbage back once it is over. The core's queue of
// received frames absorbs a flood before any job is made, so the jobs
// the worker sheds do not tell it.
func (d *driver) watchSAEFlood(signs uint64) {
	if signs == d.saeSigns {
		return
	}
	d.saeSigns = signs
	if d.sae == nil {
		d.sae = newSAEWorker(&d.frames)
	}
	d.sae.floodSeen()
}

// floodSeen marks a flood the core saw: the quiet period before the
// release starts over. The budget does not change for it: its busy
// budget is for jobs shed, floods that reach the worker.
func (w *saeWorker) floodSeen() {
	w.coreFlood.Store(true)
	signal(w.wake)
}

// readyChan is the loop's input; nil (never ready) without a worker.
func (w *saeWorker) readyChan() <-chan struct{} {
	if w == nil {
		return nil
	}
	return w.ready
}

// take returns the jobs done since the last take.
func (w *saeWorker) take() []*sae.Job {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.done
	w.done = nil
	return out
}

// close stops the goroutine; jobs still queued are dropped with the core.
func (w *saeWorker) close() {
	if w == nil {
		return
	}
	close(w.stop)
	<-w.stopped
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

func (w *saeWorker) run() {
	defer close(w.stopped)
	for {
		select {
		case <-w.stop:
			return
		default:
		}
		w.mu.Lock()
		var q saeQueued
		have := len(w.todo) > 0
		if have {
			q = w.next()
		}
		w.mu.Unlock()
		if !have {
			if !w.idle() {
				return
			}
			continue
		}
		if time.Since(q.at) > saeMaxWait {
			q.j.Cancel() // the station has retried or given up by now
			w.flooded.Store(true)
		} else if !w.pace() {
			return
		} else {
			w.runJob(q.j)
		}
		w.mu.Lock()
		w.done = append(w.done, q.j)
		w.mu.Unlock()
		signal(w.ready)
	}
}

// idle waits for a job. After a flood (jobs shed: beyond the backlog,
// stale, or past the budget; or the core's signs, floodSeen), once
// saeQuiet passed with neither a job nor a sign, it gives the flood's
// garbage back to the system (release). It reports false when the worker
// is stopping.
//
// Why: a flood's Commits are parsed, answered and dropped on the loop,
// and their garbage grows the heap toward the collector's goal, which a
// collection in the middle of the flood sets from what was live then
// (frames and jobs in flight): twice that. Once collected, those pages
// are free but the runtime keeps them (its scavenger returns only what
// exceeds the goal), so VmRSS stayed 12-25 % up after the flood and
// climbed while airqd idled, with nothing of the flood live. One
// collection and scavenge once the flood is over (a few ms of CPU for a
// heap of about 9 MB) brings VmRSS back to
// where it was; the next flood pays the page faults again.
func (w *saeWorker) idle() bool {
	var quiet <-chan time.Time
	if w.flooded.Load() || w.coreFlood.Load() {
		t := time.NewTimer(saeQuiet)
		defer t.Stop()
		quiet = t.C
	}
	select {
	case <-w.stop:
		return false
	case <-w.wake:
	case <-quiet:
		w.flooded.Store(false)
		w.coreFlood.Store(false)
		w.release()
	}
	return true
}

// runJob runs one job, charging its pieces to the budget.
func (w *saeWorker) runJob(j *sae.Job) {
	resume := time.Now()
	j.Run(func() {
		w.spent += time.Since(resume)
		runtime.Gosched()
		w.pace()
		resume = time.Now()
	})
	w.spent += time.Since(resume)
}

// pace starts a new interval when the current one is over and, when the
// interval's budget is spent, sleeps to the next one. It reports false
// when the worker is stopping.
func (w *saeWorker) pace() bool {
	now := time.Now()
	if now.Sub(w.window) >= saeInterval {
		w.newInterval(now)
		return true
	}
	if w.spent < w.budget {
		return true
	}
	w.flooded.Store(true)
	t := time.NewTimer(saeInterval - now.Sub(w.window))
	defer t.Stop()
	select {
	case <-w.stop:
		return false
	case <-t.C:
	}
	w.newInterval(time.Now())
	return true
}

// newInterval starts an interval at now with the budget a flood leaves
// beside the datapath's traffic since the last one: saeBusyBudget when it
// moved saeBusyFrames a second or more while jobs were being shed.
func (w *saeWorker) newInterval(now time.Time) {
	frames := w.frames.Load()
	moved, took := frames-w.seen, now.Sub(w.window)
	w.budget = saeBudget
	if w.flooded.Load() && took > 0 && float64(moved) >= saeBusyFrames*took.Seconds() {
		w.budget = saeBusyBudget
	}
	w.window, w.spent, w.seen = now, 0, frames
}
