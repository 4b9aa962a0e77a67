package ap

import "github.com/airq/airq/counter"

// output collects the actions of one or more events until Flush hands them
// to the driver. Frames are slices of pool slabs; the slabs return to the
// pool once written.
type output struct {
	radio [][]byte
	refs  []flightRef // the in-flight record of each radio frame
	wired [][]byte
	// wiredBSS is the index of the BSS each wired frame is for: its TAP.
	wiredBSS []uint8
	held     []uint32 // slabs referenced by radio and wired that return once written
	// retuneAsked: Flush asked the driver for the pending retune; Retuned
	// clears it.
	retuneAsked bool
}

func newOutput(n int) output {
	return output{radio: make([][]byte, 0, n), refs: make([]flightRef, 0, n), wired: make([][]byte, 0, n),
		wiredBSS: make([]uint8, 0, n), held: make([]uint32, 0, 2*n)}
}

// flushed returns the written frames' buffers to the pool.
func (a *AP) flushed() {
	for _, h := range a.out.held {
		a.pool.put(h)
	}
	a.out.radio = a.out.radio[:0]
	a.out.refs = a.out.refs[:0]
	a.out.wired = a.out.wired[:0]
	a.out.wiredBSS = a.out.wiredBSS[:0]
	a.out.held = a.out.held[:0]
}

func (o *output) full() bool { return len(o.radio) == cap(o.radio) || len(o.wired) == cap(o.wired) }

// emitRadio queues the frame of record rec; its slab returns to the pool
// once written.
func (a *AP) emitRadio(h uint32, frame []byte, rec *flight) {
	if len(a.out.radio) == cap(a.out.radio) {
		a.cnt[counter.OutputOverflow]++
		a.pool.put(h)
		return
	}
	a.out.radio = append(a.out.radio, frame)
	a.out.refs = append(a.out.refs, rec.ref)
	a.out.held = append(a.out.held, h)
}

// emitData queues the data frame of record rec, whose slab stays with the
// record until the frame completes (it may be buffered again). The TX loop
// only builds data frames while the output has room.
func (a *AP) emitData(frame []byte, rec *flight) {
	a.out.radio = append(a.out.radio, frame)
	a.out.refs = append(a.out.refs, rec.ref)
}

// emitWired queues a frame for the wired side of BSS bi.
func (a *AP) emitWired(bi uint8, h uint32, frame []byte) {
	if len(a.out.wired) == cap(a.out.wired) {
		a.cnt[counter.RxToWiredDropped]++
		a.pool.put(h)
		return
	}
	a.out.wired = append(a.out.wired, frame)
	a.out.wiredBSS = append(a.out.wiredBSS, bi)
	a.out.held = append(a.out.held, h)
}
