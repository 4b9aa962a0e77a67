package shell

import (
	"context"
	"fmt"
	"log/slog"
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
	go rx.run(stop)
	wx.run(stop)
	defer func() {
		o.closeControl() // first: no request may reach a core being shut down
		close(stop)
		for _, w := range wired {
			w.Close()
		}
		wx.wait()
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
		select {
		case <-ctx.Done():
			return nil
		case err := <-rx.err:
			return err
		case err := <-wx.err:
			return err
		case b := <-rx.full:
			t := now()
			for i := range b.n {
				core.HandleRadio(t, b.bufs[i][:b.sizes[i]])
			}
			rx.recycle(b)
		case b := <-wx.full:
			t, side := now(), b.side
			d.frames.Add(uint64(b.n))
			for i := range b.n {
				core.HandleWired(t, side, b.bufs[i][:b.sizes[i]])
			}
			wx.recycle(b)
		case call := <-o.controlCalls():
			call.Serve(core, now(), func(r ctl.Request) ctl.Reply {
				if r.Op == ctl.OpSurveyDump {
					o.survey.refresh(core, log) // the radio's figures up to now
				}
				return core.Control(now(), r)
			})
		case <-d.sae.readyChan():
			for _, j := range d.sae.take() {
				core.HandleSAEDone(now(), j)
			}
		case <-timer.C:
		case <-drops.C:
			readDrops(core, dev, wired)
			d.watchSAEFlood(core.SAEFloodSigns())
		}
		core.Tick(now())
		core.Flush(now(), d)
	}
}
