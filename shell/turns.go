package shell

import "time"

// turnBudget is about how long one turn of the loop spends on a batch's
// frames, the Flush of what they produced included. A batch read whole
// holds up to batchSize frames, and where a frame costs much (on the e2e
// VM's emulated CPU, writing a data frame runs the receiving station's
// whole stack in the write: about 0.85 ms a frame under iperf3), a whole
// batch kept the loop from its other inputs, a beacon's time, a control
// call, the SAE worker's results, for 25 ms and more, and the loop took
// the next batch at once while one was ready. The loop hands the core a
// batch in pieces sized to fit the budget and takes those inputs between
// them, as the kernel's softirq loop bounds its own turns
// (MAX_SOFTIRQ_TIME, 2 ms).
// 4 ms: at 2 ms the e2e VM's downlink TCP lost up to 9 % of its
// throughput to the extra turns, at 4 ms none.
const turnBudget = 4 * time.Millisecond

// input is what the loop's turn takes: one of its channels, or inPiece,
// the next piece of a pending batch, when no channel is ready.
type input int

const (
	inTimer input = iota // the core's deadline, or nothing but a Tick
	inStop
	inFailed
	inRadio
	inWired
	inPiece
	inCall
	inSAE
	inDrops
)

// pending is a batch being handed to the core in pieces: its frames from
// next on are still to be handled.
type pending struct {
	b    *batch
	next int
	// handle hands the core frame i of b at t; recycle returns the batch
	// to its reader once every frame was handled.
	handle  func(t time.Duration, b *batch, i int)
	recycle func(b *batch)
	// perFrame is what a frame from this source costs the loop, handling
	// and Flush, as the last turns measured it (a moving average); zero
	// before the first measurement, when a batch goes whole.
	perFrame time.Duration
}

// piece is how many frames the next turn takes: what fits turnBudget at
// the measured cost, at least one, at most the batch.
func (p *pending) piece() int {
	n := batchSize
	if p.perFrame > 0 {
		n = int(turnBudget / p.perFrame)
	}
	return max(1, min(n, p.b.n-p.next))
}

// turn hands the core the next piece of the batch at t and returns how
// many frames it was.
func (p *pending) turn(t time.Duration) int {
	n := p.piece()
	for i := p.next; i < p.next+n; i++ {
		p.handle(t, p.b, i)
	}
	p.next += n
	return n
}

// took records that a turn handled n frames from this source in d, the
// Flush included, and returns the batch to its reader once it is done,
// which it reports.
func (p *pending) took(n int, d time.Duration) (done bool) {
	per := d / time.Duration(n)
	if p.perFrame == 0 {
		p.perFrame = per
	} else {
		p.perFrame += (per - p.perFrame) / 4
	}
	if p.next < p.b.n {
		return false
	}
	p.recycle(p.b)
	p.b = nil
	return true
}

// start takes a batch from the reader.
func (p *pending) start(b *batch) { p.b, p.next = b, 0 }

// finish hands the core the rest of the batch at t, on the way out.
func (p *pending) finish(t time.Duration) {
	if p.b == nil {
		return
	}
	for i := p.next; i < p.b.n; i++ {
		p.handle(t, p.b, i)
	}
	p.recycle(p.b)
	p.b = nil
}
