package ap

import "github.com/airq/airq/counter"

// output collects the actions of one or more events until Flush hands them
// to the driver. Frames are slices of pool slabs; the slabs return to the
// pool once written.
type output struct {
	radio [][]byte
	refs  []flightRef // the in-flight record of each radio frame
	wired [][]byte    // for the first BSS's wired side
	// others are the frames for the other BSSes' wired sides, otherBSS
	// the index of the BSS each is for: the first BSS's path stays as
	// cheap as with one BSS.
	others   [][]byte
	otherBSS []uint8
	held     []uint32 // slabs referenced by radio, wired and others that return once written
	// retuneAsked: Flush asked the driver for the pending retune; Retuned
	// clears it.
	retuneAsked bool
}

func newOutput(n int) output {
	return output{radio: make([][]byte, 0, n), refs: make([]flightRef, 0, n), wired: make([][]byte, 0, n),
		others: make([][]byte, 0, n), otherBSS: make([]uint8, 0, n), held: make([]uint32, 0, 3*n)}
}

// flushed returns the written frames' buffers to the pool.
func (a *AP) flushed() {
	for _, h := range a.out.held {
		a.pool.put(h)
	}
	a.out.radio = a.out.radio[:0]
	a.out.refs = a.out.refs[:0]
	a.out.wired = a.out.wired[:0]
	a.out.others = a.out.others[:0]
	a.out.otherBSS = a.out.otherBSS[:0]
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

// emitWired queues a frame for the first BSS's wired side.
func (a *AP) emitWired(h uint32, frame []byte) {
	if len(a.out.wired) == cap(a.out.wired) {
		a.cnt[counter.RxToWiredDropped]++
		a.pool.put(h)
		return
	}
	a.out.wired = append(a.out.wired, frame)
	a.out.held = append(a.out.held, h)
	a.radios[0].ops.wiredOut++
}

// emitWiredTo queues a frame for the wired side of BSS bi, another than
// the first.
func (a *AP) emitWiredTo(bi uint8, h uint32, frame []byte) {
	if len(a.out.others) == cap(a.out.others) {
		a.cnt[counter.RxToWiredDropped]++
		a.pool.put(h)
		return
	}
	a.out.others = append(a.out.others, frame)
	a.out.otherBSS = append(a.out.otherBSS, bi)
	a.out.held = append(a.out.held, h)
	a.radios[bi].ops.wiredOut++
}
