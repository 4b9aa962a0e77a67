// Package eventq is the discrete-event queue of airq's simulators: a binary
// min-heap on time that runs values scheduled for the same instant in the
// order they were pushed, so a simulation never depends on the heap's
// internal order. It is typed rather than built on container/heap to keep
// interface calls off the simulators' hottest path.
package eventq

import "time"

type item[T any] struct {
	at  time.Duration
	seq uint64
	v   T
}

// Queue holds values of type T by the time they are due. The zero value is
// an empty queue.
type Queue[T any] struct {
	h   []item[T]
	seq uint64
}

// Len is the number of values queued.
func (q *Queue[T]) Len() int { return len(q.h) }

// Next returns the time of the earliest value, false when the queue is empty.
func (q *Queue[T]) Next() (time.Duration, bool) {
	if len(q.h) == 0 {
		return 0, false
	}
	return q.h[0].at, true
}

// Push queues v for time at, after every value already queued for at.
func (q *Queue[T]) Push(at time.Duration, v T) {
	q.seq++
	q.h = append(q.h, item[T]{at: at, seq: q.seq, v: v})
	h := q.h
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !less(&h[i], &h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

// Pop removes and returns the earliest value and its time; the queue must
// not be empty.
func (q *Queue[T]) Pop() (time.Duration, T) {
	h := q.h
	at, v := h[0].at, h[0].v
	n := len(h) - 1
	h[0] = h[n]
	h[n] = item[T]{} // drop references for the collector
	h = h[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && less(&h[r], &h[l]) {
			m = r
		}
		if !less(&h[m], &h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	q.h = h
	return at, v
}

func less[T any](a, b *item[T]) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}
