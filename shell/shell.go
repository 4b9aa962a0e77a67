package shell

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/radio"
)

// Wired is the wired side: a TAP device. Its contract is radio.Device's with
// 802.3 frames instead of radiotap ones.
type Wired interface {
	ReadBatch(bufs [][]byte, sizes []int) (int, error)
	WriteBatch(bufs [][]byte) (int, error)
	Close() error
}

const (
	batchSize  = 32
	numBatches = 8 // per reader: bounds what sits between a reader and the loop
	// wiredMax is a wired buffer: one byte more than the longest 802.3
	// frame the core takes, so that a longer one arrives truncated (the
	// TAP counts it) and the core drops it as it would whole. The
	// buffers are live heap for good: 64 KiB ones (16 MiB in all) would
	// double the collector's goal for nothing.
	wiredMax = ap.MaxWiredFrame + 1
)

type batch struct {
	bufs  [][]byte
	sizes []int
	n     int
	side  int // the wired side it was read from (its reader's side)
}

func newBatch(size int) *batch {
	b := &batch{bufs: make([][]byte, batchSize), sizes: make([]int, batchSize)}
	for i := range b.bufs {
		b.bufs[i] = make([]byte, size)
	}
	return b
}

// reader pumps one device into batches. It runs until a read fails, which
// Close of the device causes. There are never more than numBatches batches,
// and full holds that many, so handing a batch over never blocks: a batch
// read is never lost.
type reader struct {
	name string
	side int // of a wired side's reader: its BSS's index
	read func(bufs [][]byte, sizes []int) (int, error)
	// release, when set, hands back n frames read in place: read sets
	// bufs[i] to views it holds until then (ringRadio).
	release func(n int)
	free    chan *batch
	full    chan *batch
	err     chan error
	done    chan struct{}
}

func newReader(name string, read func([][]byte, []int) (int, error), size int) *reader {
	r := &reader{name: name, read: read, free: make(chan *batch, numBatches), full: make(chan *batch, numBatches),
		err: make(chan error, 1), done: make(chan struct{})}
	for range numBatches {
		r.free <- newBatch(size)
	}
	return r
}

func (r *reader) run(stop <-chan struct{}) {
	defer close(r.done)
	for {
		var b *batch
		select {
		case b = <-r.free:
		case <-stop:
			return
		}
		n, err := r.read(b.bufs, b.sizes)
		if err != nil {
			r.err <- fmt.Errorf("%s read: %w", r.name, err)
			return
		}
		b.n, b.side = n, r.side
		r.full <- b
	}
}

// recycle returns a batch the loop has handled to the reader.
func (r *reader) recycle(b *batch) {
	if r.release != nil {
		r.release(b.n)
	}
	r.free <- b
}

// ringRadio is a radio that reads frames in place (inject.Device with its
// receive ring): ReadViews sets bufs[i] to a view of the ring that stays
// valid until Release hands its slot back, oldest first.
type ringRadio interface {
	Ring() (slots int, why error)
	ReadViews(views [][]byte, sizes []int) (int, error)
	Release(n int)
}

// newRadioReader reads dev in place when its ring can hold every batch the
// reader may have handed over and the loop not yet handled, with room to
// spare for frames still coming; otherwise into the reader's own buffers.
func newRadioReader(dev radio.Device, log *slog.Logger) *reader {
	rd, ok := dev.(ringRadio)
	if !ok {
		return newReader("radio", dev.ReadBatch, radio.MaxFrame)
	}
	slots, why := rd.Ring()
	switch {
	case slots >= 2*numBatches*batchSize:
		log.Info("radio reads in place from its receive ring", "slots", slots)
		r := newReader("radio", rd.ReadViews, 0)
		r.release = rd.Release
		return r
	case slots > 0:
		log.Info("radio copies from its receive ring, too small to lend frames to the loop", "slots", slots,
			"need", 2*numBatches*batchSize)
	default:
		log.Info("radio has no receive ring, reading with recvmmsg", "why", why)
	}
	return newReader("radio", dev.ReadBatch, radio.MaxFrame)
}

// Stats are the shell's own counters.
type Stats struct {
	RadioWriteErrors, WiredWriteErrors uint64
	RetuneErrors                       uint64
}

// Run drives core with the radio and the wired side of its one BSS until
// ctx is done or a device fails (RunBSSes, for one BSS).
func Run(ctx context.Context, core *ap.AP, dev radio.Device, wired Wired, log *slog.Logger, ready func(), opts ...Option) error {
	return RunBSSes(ctx, core, dev, []Wired{wired}, log, ready, opts...)
}

// RunBSSes drives core with the radio and the wired sides of its BSSes
// (wired[i] is BSS i's: 0 the first, i the core's Config.BSSes[i-1]) until
// ctx is done or a device fails. On the way out it stops taking wired
// frames, hands the core what the readers already took, deauthenticates
// every station, writes those frames, closes the devices and waits for its
// goroutines. ready, if set, is called once the core is beaconing. Options
// add a control server (WithControl).
func RunBSSes(ctx context.Context, core *ap.AP, dev radio.Device, wired []Wired, log *slog.Logger, ready func(), opts ...Option) error {
	if n := len(core.Config().BSSes) + 1; len(wired) != n {
		return fmt.Errorf("%d wired sides for the radio's %d BSSes, want one each", len(wired), n)
	}
	var o runOptions
	for _, opt := range opts {
		opt(&o)
	}
	var st Stats
	start := time.Now()
	now := func() time.Duration { return time.Since(start) }
	d := &driver{core: core, dev: dev, wired: wired, log: log, o: &o, st: &st, now: now}
	stop := make(chan struct{})
	rx := newRadioReader(dev, log)
	wx := newWiredReaders(wired)
	// The batches being handed to the core in pieces (turns.go).
	rxp := pending{recycle: rx.recycle, handle: func(t time.Duration, b *batch, i int) {
		core.HandleRadio(t, b.bufs[i][:b.sizes[i]])
	}}
	wxp := pending{recycle: wx.recycle, handle: func(t time.Duration, b *batch, i int) {
		core.HandleWired(t, b.side, b.bufs[i][:b.sizes[i]])
	}}
	var held *pending // the batch being handed over in pieces, if any
	go rx.run(stop)
	wx.run(stop)
	defer func() {
		o.closeControl() // first: no request may reach a core being shut down
		close(stop)
		for _, w := range wired {
			w.Close()
		}
		wx.wait()
		rxp.finish(now())
		wxp.finish(now())
		wx.drain(func(side int, b []byte) { core.HandleWired(now(), side, b) })
		core.Shutdown(now())
		d.stopping = true
		core.Flush(now(), d)
		dev.Close()
		<-rx.done
		d.sae.close()
		log.Info("shell stopped", "radio_write_errors", st.RadioWriteErrors, "wired_write_errors", st.WiredWriteErrors)
	}()

	core.Start(now())
	o.survey.refresh(core, log) // the first reading, on the channel the radio starts on
	core.Flush(now(), d)
	if ready != nil {
		ready()
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	drops := time.NewTicker(dropsEvery)
	defer drops.Stop()
	for {
		timer.Reset(max(core.Deadline()-now(), 0))
		// While a batch is pending its next piece waits only for the
		// inputs that are not batches (a look that does not wait): the
		// batches go one after the other, as they would whole, so that
		// a source sending many cheap frames (a flood) takes no larger
		// share of the loop than before. With none pending, a wait for
		// any input.
		var (
			in   input
			b    *batch
			call *ControlCall
			err  error
		)
		if held != nil {
			select {
			case <-ctx.Done():
				in = inStop
			case err = <-rx.err:
				in = inFailed
			case err = <-wx.err:
				in = inFailed
			case call = <-o.controlCalls():
				in = inCall
			case <-d.sae.readyChan():
				in = inSAE
			case <-drops.C:
				in = inDrops
			default:
				in = inPiece
			}
		} else {
			select {
			case <-ctx.Done():
				in = inStop
			case err = <-rx.err:
				in = inFailed
			case err = <-wx.err:
				in = inFailed
			case b = <-rx.full:
				in = inRadio
			case b = <-wx.full:
				in = inWired
			case call = <-o.controlCalls():
				in = inCall
			case <-d.sae.readyChan():
				in = inSAE
			case <-drops.C:
				in = inDrops
			case <-timer.C:
				in = inTimer
			}
		}
		var turn *pending
		switch in {
		case inStop:
			return nil
		case inFailed:
			return err
		case inRadio:
			rxp.start(b)
			turn = &rxp
		case inWired:
			d.frames.Add(uint64(b.n))
			wxp.start(b)
			turn = &wxp
		case inPiece:
			turn = held
		case inCall:
			call.Serve(core, now(), func(r ctl.Request) ctl.Reply {
				if r.Op == ctl.OpSurveyDump {
					o.survey.refresh(core, log) // the radio's figures up to now
				}
				return core.Control(now(), r)
			})
		case inSAE:
			for _, j := range d.sae.take() {
				core.HandleSAEDone(now(), j)
			}
		case inDrops:
			readDrops(core, dev, wired)
			d.watchSAEFlood(core.SAEFloodSigns())
		}
		if turn == nil {
			core.Tick(now())
			core.Flush(now(), d)
			continue
		}
		t := now()
		n := turn.turn(t)
		core.Tick(now())
		core.Flush(now(), d)
		held = nil
		if !turn.took(n, now()-t) {
			held = turn
		}
		// Let the runtime run its timers and the other goroutines (the
		// readers, a control call's sender, the loop latency probe)
		// before the next turn with frames: with GOMAXPROCS=1 a select
		// with a ready case never enters the scheduler, and the loop
		// held the processor until no batch was ready or the runtime
		// preempted it (10 ms). A loop about to wait yields anyway.
		if held != nil || len(rx.full) > 0 || len(wx.full) > 0 {
			runtime.Gosched()
		}
	}
}
