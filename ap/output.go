package ap

import "github.com/airq/airq/counter"

// output collects the actions of one or more events until the caller flushes
// them. Frames are slices of pool slabs; the slabs return to the pool at Flushed.
type output struct {
	radio [][]byte
	wired [][]byte
	held  []uint32 // slabs referenced by radio and wired that return at Flushed
}

func newOutput(n int) output {
	return output{radio: make([][]byte, 0, n), wired: make([][]byte, 0, n), held: make([]uint32, 0, 2*n)}
}

// Output returns the frames to transmit, in order (radiotap TX header first),
// and the 802.3 frames for the wired side. The slices and the frames stay
// valid until Flushed.
func (a *AP) Output() (radio, wired [][]byte) { return a.out.radio, a.out.wired }

// Flushed tells the core that everything Output returned has been written or
// copied; the buffers are reused.
func (a *AP) Flushed() {
	for _, h := range a.out.held {
		a.pool.put(h)
	}
	a.out.radio = a.out.radio[:0]
	a.out.wired = a.out.wired[:0]
	a.out.held = a.out.held[:0]
}

func (o *output) full() bool { return len(o.radio) == cap(o.radio) || len(o.wired) == cap(o.wired) }

// emitRadio queues a frame whose slab returns to the pool at Flushed.
func (a *AP) emitRadio(h uint32, frame []byte) {
	if len(a.out.radio) == cap(a.out.radio) {
		a.cnt[counter.OutputOverflow]++
		a.pool.put(h)
		return
	}
	a.out.radio = append(a.out.radio, frame)
	a.out.held = append(a.out.held, h)
}

// emitData queues a data frame whose slab stays with its in-flight record
// until the frame completes (it may be buffered again). The TX loop only
// builds data frames while the output has room.
func (a *AP) emitData(frame []byte) {
	a.out.radio = append(a.out.radio, frame)
}

func (a *AP) emitWired(h uint32, frame []byte) {
	if len(a.out.wired) == cap(a.out.wired) {
		a.cnt[counter.RxToWiredDropped]++
		a.pool.put(h)
		return
	}
	a.out.wired = append(a.out.wired, frame)
	a.out.held = append(a.out.held, h)
}
