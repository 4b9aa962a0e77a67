package sae

import (
	"bytes"
	"slices"
	"testing"
	"time"
)

func peerN(i int) MAC { return MAC{0x02, 0, 0, 0, byte(i >> 8), byte(i)} }

func commitFrame(tag byte) Frame { return Frame{Transaction: 1, Body: []byte{19, 0, tag}} }

// A frame into an empty queue is due at once; with frames queued the
// next is due 10 ms per frame still waiting after the last was taken, as
// hostapd's auth_sae_process_commit re-arms its timer.
func TestQueuePacing(t *testing.T) {
	var q Queue
	if _, ok := q.Deadline(); ok {
		t.Fatal("an empty queue has a deadline")
	}
	if !q.Add(t0, peerN(1), commitFrame(1)) {
		t.Fatal("the first frame refused")
	}
	if d, ok := q.Deadline(); !ok || !d.Equal(t0) {
		t.Fatalf("a lone frame due at %v, want at once", d)
	}
	for i := 2; i <= 4; i++ {
		q.Add(t0, peerN(i), commitFrame(byte(i)))
	}
	if d, _ := q.Deadline(); !d.Equal(t0) {
		t.Fatalf("frames queued behind the first moved its turn to %v", d)
	}
	from, f, ok := q.Next(t0)
	if !ok || from != peerN(1) || f.Body[2] != 1 {
		t.Fatalf("first out: %v %+v %v", from, f, ok)
	}
	if _, _, ok := q.Next(t0); ok {
		t.Fatal("a second frame at the same instant")
	}
	if d, _ := q.Deadline(); d != t0.Add(30*time.Millisecond) {
		t.Fatalf("three waiting: next due at %v, want 30 ms on", d.Sub(t0))
	}
	if _, _, ok := q.Next(t0.Add(29 * time.Millisecond)); ok {
		t.Fatal("taken before its turn")
	}
	late := t0.Add(50 * time.Millisecond)
	if from, _, ok := q.Next(late); !ok || from != peerN(2) {
		t.Fatalf("second out: %v %v", from, ok)
	}
	if d, _ := q.Deadline(); d != late.Add(20*time.Millisecond) {
		t.Fatalf("two waiting: due %v after the last was taken, want 20 ms", d.Sub(late))
	}
	q.Next(late.Add(20 * time.Millisecond))
	q.Next(late.Add(30 * time.Millisecond))
	if _, ok := q.Deadline(); ok || q.Len() != 0 {
		t.Fatalf("drained: %d left, armed %v", q.Len(), ok)
	}
	// Empty again: the next frame is worked at once.
	again := late.Add(31 * time.Millisecond)
	q.Add(again, peerN(9), commitFrame(9))
	if d, _ := q.Deadline(); !d.Equal(again) {
		t.Fatalf("after draining, a lone frame due %v later", d.Sub(again))
	}
}

// The queue holds 15 frames; a 16th is refused and the queue is as it was.
func TestQueueHoldsFifteen(t *testing.T) {
	var q Queue
	for i := range QueueMax {
		if !q.Add(t0, peerN(i), commitFrame(byte(i))) {
			t.Fatalf("frame %d refused", i+1)
		}
	}
	if q.Add(t0, peerN(99), commitFrame(99)) {
		t.Fatal("a 16th frame queued")
	}
	if q.Queues(peerN(99), 2) {
		t.Fatal("the dropped frame's peer is held as queued")
	}
	for i := range QueueMax {
		from, f, ok := q.Next(t0.Add(time.Duration(i) * time.Hour))
		if !ok || from != peerN(i) || f.Body[2] != byte(i) {
			t.Fatalf("frame %d out of order: %v %+v %v", i, from, f, ok)
		}
	}
}

// A newer frame from a peer with the same transaction takes the queued
// one's place: its body, at the old one's turn. Another transaction
// queues behind. A full queue takes nothing, a retry of a queued peer's
// frame included, as hostapd's auth_sae_queue checks for room first: a
// frame forged with a queued station's address cannot replace its Commit
// while a flood keeps the queue full.
func TestQueueReplacesSamePeer(t *testing.T) {
	var q Queue
	for i := range QueueMax - 1 {
		q.Add(t0, peerN(i), commitFrame(byte(i)))
	}
	newer := Frame{Transaction: 1, Status: StatusSAEHashToElement, Body: []byte{19, 0, 0xee, 0xff}}
	if !q.Add(t0, peerN(3), newer) || q.Len() != QueueMax-1 {
		t.Fatalf("a retry with room: len %d, want it in place of the older", q.Len())
	}
	q.Add(t0, peerN(QueueMax-1), commitFrame(QueueMax-1))
	forged := Frame{Transaction: 1, Body: []byte{19, 0, 0xba, 0xd0}}
	if q.Add(t0, peerN(5), forged) {
		t.Fatal("a full queue took a frame in place of a queued peer's")
	}
	for i := range QueueMax {
		from, f, _ := q.Next(t0.Add(time.Duration(i) * time.Hour))
		if i == 3 && (from != peerN(3) || f.Status != StatusSAEHashToElement || !bytes.Equal(f.Body, newer.Body)) {
			t.Fatalf("the replaced slot: %v %+v", from, f)
		}
		if i == 5 && (from != peerN(5) || f.Body[2] != 5) {
			t.Fatalf("peer 5's Commit replaced in a full queue: %v %+v", from, f)
		}
	}
}

// A Confirm goes through the queue only behind a frame of its peer, so
// that it is not worked before that peer's Commit; it queues behind it,
// a repeated one replacing it.
func TestQueueKeepsConfirmBehindCommit(t *testing.T) {
	var q Queue
	if q.Queues(peerN(1), 2) || !q.Queues(peerN(1), 1) {
		t.Fatal("a Confirm with nothing queued goes through the queue, or a Commit does not")
	}
	q.Add(t0, peerN(1), commitFrame(1))
	q.Add(t0, peerN(2), commitFrame(2))
	if !q.Queues(peerN(1), 2) || q.Queues(peerN(3), 2) {
		t.Fatal("auth_sae_queued_addr's rule")
	}
	q.Add(t0, peerN(1), Frame{Transaction: 2, Body: []byte{1, 0, 1}})
	q.Add(t0, peerN(1), Frame{Transaction: 2, Body: []byte{2, 0, 0}})
	type out struct {
		peer  byte
		trans uint16
		tag   byte
	}
	var got []out
	for i := range 3 {
		from, f, _ := q.Next(t0.Add(time.Duration(i) * time.Hour))
		got = append(got, out{from[5], f.Transaction, f.Body[len(f.Body)-1]})
	}
	if want := []out{{1, 1, 1}, {2, 1, 2}, {1, 2, 0}}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want peer 1's Commit, peer 2's, then peer 1's newest Confirm (send-confirm 2) %v", got, want)
	}
}

// The queue keeps a copy: the caller's buffer is reused at once. A body
// over MaxQueuedBody is refused.
func TestQueueCopiesBody(t *testing.T) {
	var q Queue
	b := []byte{19, 0, 7}
	q.Add(t0, peerN(1), Frame{Transaction: 1, Body: b})
	b[2] = 8
	if _, f, _ := q.Next(t0); f.Body[2] != 7 || len(f.Body) != 3 || cap(f.Body) != 3 {
		t.Fatalf("body %v (cap %d), want the copy [19 0 7]", f.Body, cap(f.Body))
	}
	if q.Add(t0, peerN(2), Frame{Transaction: 1, Body: make([]byte, MaxQueuedBody+1)}) {
		t.Fatal("an oversized body queued")
	}
	if !q.Add(t0, peerN(3), Frame{Transaction: 1, Body: make([]byte, MaxQueuedBody)}) {
		t.Fatal("the largest body refused")
	}
}

// Once its buffer is made, the queue allocates nothing.
func TestQueueAllocs(t *testing.T) {
	var q Queue
	f := commitFrame(1)
	q.Add(t0, peerN(0), f)
	i := 0
	n := testing.AllocsPerRun(100, func() {
		i++
		q.Add(t0, peerN(i), f)
		q.Queues(peerN(i), 2)
		q.Next(t0.Add(time.Duration(i) * time.Hour))
	})
	if n != 0 {
		t.Fatalf("%v allocations a frame", n)
	}
}

// Frames queued count toward anti_clogging_threshold, as hostapd's
// use_anti_clogging adds the queue's length to the open instances.
func TestQueuedFramesCountTowardThreshold(t *testing.T) {
	sc, el := validCommit(t, true)
	for _, c := range []struct {
		queued int
		token  bool
	}{{4, false}, {5, true}} {
		a := newAP(t, nil) // threshold 5
		var q Queue
		a.SetQueue(&q)
		for i := range c.queued {
			q.Add(t0, peerN(100+i), commitFrame(0))
		}
		r := a.Handle(t0, bytes.NewReader(make([]byte, 64)), staMAC, commitWith(true, sc, el))
		got := len(r.Replies) == 1 && r.Replies[0].Status == StatusAntiCloggingToken
		if got != c.token || !got && r.Job == nil {
			t.Errorf("%d frames queued: token requested %v (%+v), want %v", c.queued, got, r, c.token)
		}
	}
}

// ForgetAll drops every instance: a job in work comes back stale, no
// reply, and no longer counts toward the threshold.
func TestForgetAllDropsInstances(t *testing.T) {
	a, j := commitInWork(t)
	a.ForgetAll()
	if a.State(staMAC) != Nothing {
		t.Fatal("an instance kept")
	}
	j.Run(nil)
	if f := a.Finish(t0, j); f.Drop != DropStale || len(f.Replies) != 0 {
		t.Fatalf("a job of a forgotten instance: %+v", f)
	}
	if n := a.open(t0); n != 0 {
		t.Fatalf("%d open after ForgetAll, want 0", n)
	}
}

// commitInWork is an authenticator with staMAC's Commit in work, and its
// job.
func commitInWork(t *testing.T) (*Authenticator, *Job) {
	t.Helper()
	sc, el := validCommit(t, true)
	a := newAP(t, nil)
	r := a.Handle(t0, bytes.NewReader(make([]byte, 64)), staMAC, commitWith(true, sc, el))
	if r.Job == nil {
		t.Fatalf("no job: %+v", r)
	}
	return a, r.Job
}
