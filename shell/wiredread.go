package shell

import "fmt"

// wiredReaders read every BSS's wired side into one channel, so that the
// loop waits on one case whatever the number of BSSes: each batch carries
// the index of the side it was read from, the BSS the core hands it to.
type wiredReaders struct {
	rs   []*reader
	full chan *batch // every side's reader's: room for all their batches
	err  chan error  // every side's reader's: room for one error each
}

func newWiredReaders(wired []Wired) *wiredReaders {
	w := &wiredReaders{full: make(chan *batch, len(wired)*numBatches), err: make(chan error, len(wired))}
	for i, side := range wired {
		name := "wired"
		if len(wired) > 1 {
			name = fmt.Sprintf("wired side %d", i)
		}
		r := newReader(name, side.ReadBatch, wiredMax)
		r.side, r.full, r.err = i, w.full, w.err
		w.rs = append(w.rs, r)
	}
	return w
}

func (w *wiredReaders) run(stop <-chan struct{}) {
	for _, r := range w.rs {
		go r.run(stop)
	}
}

// wait returns once every reader has stopped.
func (w *wiredReaders) wait() {
	for _, r := range w.rs {
		<-r.done
	}
}

// recycle returns a batch the loop has handled to its side's reader.
func (w *wiredReaders) recycle(b *batch) { w.rs[b.side].recycle(b) }

// drain hands every batch waiting in full to handle, with its side,
// without blocking.
func (w *wiredReaders) drain(handle func(side int, frame []byte)) {
	for {
		select {
		case b := <-w.full:
			for i := range b.n {
				handle(b.side, b.bufs[i][:b.sizes[i]])
			}
			w.recycle(b)
		default:
			return
		}
	}
}
